import PanelGolden
import PanelSimCore
import PanelTrace

/// Partial trace headers (`{"panel": {"behavior": {…}}, "recognizer": {…}}`) as parameter sets:
/// their leaves, edits of single leaves, and application over a trace's header line.
enum HeaderPatch {
    /// Sections of every model's header that a patch may name.
    static let commonSections = ["environment", "recognizer"]
    /// The sections of each registered panel system's header a patch may name besides
    /// `commonSections`: the system's own sections (`SystemTraceFormat.headerSections`,
    /// trace-format.md §1.1a).
    static var modelSections: [(model: PanelModel, sections: [String])] {
        TraceFormats.registered.map { ($0.model, $0.headerSections) }
    }
    /// Top-level keys a patch may name (for some model).
    static var sections: [String] {
        var all = commonSections
        for (_, own) in modelSections { for s in own where !all.contains(s) { all.append(s) } }
        return all
    }
    /// The keys a patch may name for a trace of `model`.
    static func sections(of model: PanelModel) -> [String] {
        commonSections + (modelSections.first { $0.model == model }?.sections ?? [])
    }
    /// The keys a patch may name, by model, for messages: "environment, recognizer; floatingpanel:
    /// panel, delegate, scrollView; …".
    static var sectionList: String {
        (commonSections.joined(separator: ", ") + " (every model); "
         + modelSections.map { "\($0.sections.joined(separator: ", ")) (\($0.model.rawValue))" }.joined(separator: "; "))
    }
    /// Objects of a section whose own fields a patch sets one by one instead of replacing the object
    /// whole (`SystemTraceFormat.fieldwiseObjects`: DrawerKit's `drawer.configuration`, the
    /// simulator options). (`panel.behavior` is replaced whole, as `invalidateLayout` does.)
    static var fieldwise: Set<String> { Set(TraceFormats.registered.flatMap(\.fieldwiseObjects)) }

    /// A leaf: a path of object keys to a value that is not an object (arrays are leaves).
    struct Leaf { var path: [String]; var value: JSONValue }

    /// Every leaf of `object`, depth first in key order.
    /// - Complexity: O(size of object).
    static func leaves(_ object: JSONObject, prefix: [String] = []) -> [Leaf] {
        object.entries.flatMap { entry -> [Leaf] in
            if case .object(let inner) = entry.value, !inner.entries.isEmpty {
                return leaves(inner, prefix: prefix + [entry.key])
            }
            return [Leaf(path: prefix + [entry.key], value: entry.value)]
        }
    }

    /// Structural equality with numbers compared by value (`0.5` equals `0.50`).
    static func same(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.number(let x)?, .number(let y)?): return x.double == y.double
        case (.array(let x)?, .array(let y)?): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x)?, .object(let y)?):
            return x.keys.sorted() == y.keys.sorted() && x.keys.allSatisfy { same(x[$0], y[$0]) }
        default: return a == b
        }
    }

    /// The value at `path`, nil when absent.
    static func value(_ object: JSONObject, at path: [String]) -> JSONValue? {
        guard let first = path.first, let v = object[first] else { return nil }
        if path.count == 1 { return v }
        guard case .object(let inner) = v else { return nil }
        return value(inner, at: Array(path.dropFirst()))
    }

    /// `object` with the value at `path` set (creating objects on the way), or removed when
    /// `value` is nil (an object left empty by a removal is removed too).
    static func setting(_ object: JSONObject, at path: [String], to value: JSONValue?) -> JSONObject {
        guard let first = path.first else { return object }
        var entries = object.entries
        let index = entries.firstIndex { $0.key == first }
        var newValue: JSONValue?
        if path.count == 1 {
            newValue = value
        } else {
            var inner = JSONObject()
            if let index, case .object(let o) = entries[index].value { inner = o }
            let updated = setting(inner, at: Array(path.dropFirst()), to: value)
            newValue = updated.entries.isEmpty ? nil : .object(updated)
        }
        switch (index, newValue) {
        case (let i?, let v?): entries[i].value = v
        case (let i?, nil): entries.remove(at: i)
        case (nil, let v?): entries.append((key: first, value: v))
        case (nil, nil): break
        }
        return JSONObject(entries)
    }

    /// The trace header `header` with `patch` applied: for each section the patch names, each
    /// field it names replaces that field of the header's section whole (as `invalidateLayout`),
    /// except in the `fieldwise` objects (`drawer.configuration`, the `simulator` options), whose
    /// fields are replaced one by one and the trace's other fields kept.
    /// - Complexity: O(size of header + patch).
    static func apply(_ patch: JSONObject, to header: JSONObject) -> JSONObject {
        var result = header
        for section in patch.entries {
            guard case .object(let fields) = section.value else { continue }
            var target = JSONObject()
            if case .object(let existing)? = result[section.key] { target = existing }
            for field in fields.entries {
                if fieldwise.contains(section.key + "." + field.key), case .object(let inner) = field.value {
                    var object = JSONObject()
                    if case .object(let existing)? = target[field.key] { object = existing }
                    for f in inner.entries { object = setting(object, at: [f.key], to: f.value) }
                    target = setting(target, at: [field.key], to: .object(object))
                } else {
                    target = setting(target, at: [field.key], to: field.value)
                }
            }
            result = setting(result, at: [section.key], to: .object(target))
        }
        return result
    }

    /// The leaf paths whose values differ between `a` and `b` (a leaf in one only counts),
    /// sorted by their dotted names in UTF-8 byte order.
    static func changedLeaves(_ a: JSONObject, _ b: JSONObject) -> [[String]] {
        var paths: [[String]] = []
        for leaf in leaves(a) + leaves(b) where !paths.contains(leaf.path) { paths.append(leaf.path) }
        return paths.filter { !same(value(a, at: $0), value(b, at: $0)) }
            .sorted { utf8Precedes($0.joined(separator: "."), $1.joined(separator: ".")) }
    }

    /// Compact JSON text (numbers as written, strings by `JSON.quote`).
    static func render(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.text
        case .string(let s): return JSON.quote(s)
        case .array(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.entries.map { JSON.quote($0.key) + ": " + render($0.value) }.joined(separator: ", ") + "}"
        }
    }
}

/// Delta debugging (Zeller & Hildebrandt's ddmin): a 1-minimal subset of `changes` that still
/// makes `fails` true.
enum DeltaDebugging {
    /// - Parameters:
    ///   - changes: the full set (in a fixed order); `fails(changes)` must be true.
    ///   - fails: the test; an unresolved outcome (e.g. an invalid combination) counts as false.
    /// - Returns: a subset in the original order such that removing any one element makes
    ///   `fails` false.
    /// - Complexity: O(n²) tests in the worst case, O(k · log n) typically for k culprits.
    static func ddmin<T>(_ changes: [T], fails: ([T]) -> Bool) -> [T] {
        var c = changes
        var n = 2
        while c.count >= 2 {
            let chunkSize = (c.count + n - 1) / n
            let chunks = stride(from: 0, to: c.count, by: chunkSize).map { Array(c[$0..<min($0 + chunkSize, c.count)]) }
            var reduced = false
            for chunk in chunks where fails(chunk) {
                c = chunk; n = 2; reduced = true
                break
            }
            if !reduced && chunks.count > 2 {
                for i in chunks.indices {
                    let complement = chunks.enumerated().filter { $0.offset != i }.flatMap(\.element)
                    if fails(complement) {
                        c = complement; n = max(n - 1, 2); reduced = true
                        break
                    }
                }
            }
            if !reduced {
                if n >= c.count { break }
                n = min(c.count, 2 * n)
            }
        }
        return c
    }
}

/// `panelsim bisect --base A.json --changed B.json TRACE…`: which parameter change causes a
/// divergence.
struct BisectCommand: PanelCommand {
    static var info: CommandInfo { CommandInfo(
        name: "bisect",
        abstract: "Find which changed parameters make traces diverge.",
        usage: "panelsim bisect --base A.json --changed B.json TRACE... [--tolerance CHANNEL=VALUE]... [--profile LIBRARY@VERSION]...",
        arguments: [("TRACE", "Trace files, or directories searched for *.jsonl traces.")],
        options: [
            ProfileFlag.option,
            OptionSpec(names: ["--base"], valueName: "A.json",
                       help: HelpFormat.wrap("Partial header: an object with some of the sections of the traces' headers: "
                                             + "environment, recognizer, and the model's own ("
                                             + HeaderPatch.modelSections.map { $0.sections.joined(separator: ", ") }.joined(separator: "; ")
                                             + ").", width: 56)),
            OptionSpec(names: ["--changed"], valueName: "B.json", help: "Partial header with the changed parameters."),
            OptionSpec(names: ["--tolerance"], valueName: "CHANNEL=VALUE",
                       help: "Tolerance of a channel (repeatable), as for check.", repeatable: true),
        ],
        discussion: """
            \(patchHelp)

            Prints the changed parameters; "diverging alone": every change that by itself makes
            some trace's result differ from A's beyond tolerance, with the number of such traces;
            "culprits": a smallest set of changes (delta debugging, ddmin) that gives B's results
            on every trace, so every change outside it is harmless; and for the first trace that
            diverges under A plus the culprits, the comparison report (first diverging frame and
            time, first differing event, event diff). Deterministic.

            \(HelpFormat.exitCodes([(0, "A and B give the same results on every trace"),
                                     (1, "culprits found (B diverges from A)"),
                                     (2, "usage error or bad input (unreadable A, B or trace; A or B does not load with a trace)"),
                                     (125, "a trace this revision cannot evaluate")]))
            """) }

    /// The help's paragraph on how A and B apply, naming each registered system's own sections.
    static var patchHelp: String {
        let own = HeaderPatch.modelSections.map { m in
            (CommandSystems.description(for: m.model)?.name ?? m.model.rawValue) + " " + m.sections.joined(separator: ", ")
        }
        return HelpFormat.wrap(
            "A and B are applied over each trace's header: each field a section names replaces that field of the trace's "
                + "section whole, like invalidateLayout ({\"panel\": {\"behavior\": {...}}} replaces the whole behavior "
                + "object, keeping the trace's anchors); the fields of drawer.configuration and of a simulator object "
                + "(drawer, sheet, popup) are replaced one by one, keeping the trace's others ({\"drawer\": "
                + "{\"configuration\": {\"flickSpeedThreshold\": 5}}} changes only the threshold). Traces are grouped by "
                + "panel system and each group is bisected with the sections of A and B its model has: "
                + own.joined(separator: "; ") + "; and environment and recognizer for all. A group whose sections A and B "
                + "leave unchanged is skipped, and the skipped traces are counted in the output; a section that no "
                + "trace's model has is an error naming the first trace. The leaves (paths such as "
                + "panel.behavior.redirectionalProgress) that differ between A and B are the changed parameters; a leaf "
                + "present in only one of them counts as changed (applying it removes it from A). Every trace is "
                + "replayed with A, with B, with A plus each single change, and with A plus subsets of the changes. "
                + "Combinations that do not load (say initialState without its anchor) count as neither diverging nor "
                + "matching.", width: 88)
    }

    var base: String
    var changed: String
    var traces: [String]
    var settings: [(ToleranceChannel, Tolerance)]
    /// `--profile`: the version each trace of that library is replayed as.
    var simulation = SimulationOptions()

    init(_ parsed: ParsedArguments) throws(UsageError) {
        simulation.profiles = try ProfileFlag.profiles(parsed, command: "bisect")
        guard let base = parsed.values["--base"] else { throw UsageError("missing --base A.json", command: "bisect") }
        guard let changed = parsed.values["--changed"] else { throw UsageError("missing --changed B.json", command: "bisect") }
        guard !parsed.positionals.isEmpty else { throw UsageError("missing TRACE", command: "bisect") }
        self.base = base; self.changed = changed; traces = parsed.positionals
        settings = try CheckCommand.parseTolerances(parsed.repeated["--tolerance"] ?? [], command: "bisect")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    /// One trace: its header as JSON and the sample lines after it.
    private struct Source { var shown: String; var header: JSONObject; var rest: String }

    private struct Failure: Error { var code: ExitCode; var message: String }

    private func readPatch(_ path: String, _ context: CommandContext) throws(Failure) -> JSONObject {
        let text: String
        switch Files.read(context.resolve(path), shown: path) {
        case .success(let t): text = t
        case .failure(let f): throw Failure(code: .badInput, message: "error: \(f.message)")
        }
        let value: JSONValue
        do { value = try JSON.parse(text) } catch {
            throw Failure(code: .badInput, message: "error: \(path): column \(error.column): \(error.message)")
        }
        guard case .object(let o) = value else { throw Failure(code: .badInput, message: "error: \(path): expected a JSON object") }
        for e in o.entries {
            guard HeaderPatch.sections.contains(e.key) else {
                throw Failure(code: .badInput, message: "error: \(path): key \"\(e.key)\" is not a header section bisect can change "
                              + "(expected \(HeaderPatch.sectionList))")
            }
            guard case .object = e.value else { throw Failure(code: .badInput, message: "error: \(path): \"\(e.key)\" must be an object") }
        }
        return o
    }

    func run(_ context: CommandContext) -> ExitCode {
        do throws(Failure) {
            return try bisect(context)
        } catch {
            context.stderr.line(error.message)
            return error.code
        }
    }

    private func bisect(_ context: CommandContext) throws(Failure) -> ExitCode {
        guard let parse = context.services.importer?.parse else {
            throw Failure(code: .badInput, message: "error: trace parsing is not available in this build")
        }
        let a = try readPatch(base, context), b = try readPatch(changed, context)

        // Traces, in argument order; directories expand in sorted order.
        var sources: [Source] = []
        for t in traces {
            let path = context.resolve(t)
            let files = Files.isDirectory(path)
                ? Files.list(under: path, suffix: ".jsonl", excluding: ".golden.jsonl").map { (Files.join(t, $0), path + "/" + $0) }
                : [(t, path)]
            for (shown, full) in files {
                let text: String
                switch Files.read(full, shown: shown) {
                case .success(let t): text = t
                case .failure(let f): throw Failure(code: .badInput, message: "error: \(f.message)")
                }
                let split = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = split.first, case .object(let header)? = try? JSON.parse(String(first)) else {
                    throw Failure(code: .badInput, message: "error: \(shown):1: the header line is not a JSON object")
                }
                sources.append(Source(shown: shown, header: header, rest: split.count > 1 ? String(split[1]) : ""))
            }
        }
        if sources.isEmpty { throw Failure(code: .badInput, message: "error: no traces") }
        // Traces grouped by panel system, in order of first appearance: each group is bisected
        // with the sections of A and B its model has. A section no trace's model has is an error
        // naming the first trace (the loader would refuse the patched header less clearly).
        var groups: [(model: PanelModel, sources: [Source])] = []
        for s in sources {
            var model = PanelModel.floatingPanel
            if case .string(let name)? = s.header["model"] { model = PanelModel(rawValue: name) }   // an unknown one: the loader names it
            if let i = groups.firstIndex(where: { $0.model == model }) { groups[i].sources.append(s) } else { groups.append((model, [s])) }
        }
        for (patch, path) in [(a, base), (b, changed)] {
            if let key = patch.keys.first(where: { key in !groups.contains { HeaderPatch.sections(of: $0.model).contains(key) } }) {
                let s = sources[0], model = groups[0].model
                throw Failure(code: .badInput, message: "error: \(path): the \"\(key)\" section does not belong in \(s.shown), a "
                              + "\(model.rawValue) trace (its sections: \(HeaderPatch.sections(of: model).joined(separator: ", ")))")
            }
        }
        func restricted(_ patch: JSONObject, _ model: PanelModel) -> JSONObject {
            let allowed = HeaderPatch.sections(of: model)
            return JSONObject(patch.entries.filter { allowed.contains($0.key) })
        }
        let bisected = groups.filter { g in
            let (ga, gb) = (restricted(a, g.model), restricted(b, g.model))
            return !HeaderPatch.changedLeaves(ga, gb).isEmpty
        }
        let skipped = groups.filter { g in !bisected.contains { $0.model == g.model } }
        let out = context.stdout
        if !skipped.isEmpty && !bisected.isEmpty {
            let count = skipped.map(\.sources.count).reduce(0, +)
            out.line("skipped \(count) trace\(count == 1 ? "" : "s") of other models ("
                     + skipped.map { "\($0.model.rawValue) \($0.sources.count)" }.joined(separator: ", ")
                     + "): A and B change no section of theirs")
        }
        var diverged = false
        for (n, group) in (bisected.isEmpty ? [groups[0]] : bisected).enumerated() {
            if bisected.count > 1 || !skipped.isEmpty {
                if n > 0 { out.line("") }
                out.line("\(group.model.rawValue): \(group.sources.count) trace\(group.sources.count == 1 ? "" : "s")")
            }
            diverged = try bisect(group.sources, restricted(a, group.model), restricted(b, group.model), parse: parse, context) || diverged
        }
        return diverged ? .regression : .success
    }

    /// Bisects the traces of one panel system; prints its part of the output. Returns whether B
    /// diverges from A.
    private func bisect(_ sources: [Source], _ a: JSONObject, _ b: JSONObject,
                        parse: (String, String) throws(TraceProblem) -> Trace, _ context: CommandContext) throws(Failure) -> Bool {
        let changes = HeaderPatch.changedLeaves(a, b)
        func show(_ v: JSONValue?) -> String { v.map(HeaderPatch.render) ?? "(absent)" }
        func name(_ p: [String]) -> String { p.joined(separator: ".") }

        let out = context.stdout
        out.line("changed parameters (\(changes.count)):")
        for p in changes { out.line("  \(name(p)): \(show(HeaderPatch.value(a, at: p))) -> \(show(HeaderPatch.value(b, at: p)))") }

        let tolerances = Tolerances.default.applying(settings)
        /// Results of every trace under a patch; a load failure is returned as such.
        func results(_ patch: JSONObject) -> Result<[ResultDocument], Failure> {
            var docs: [ResultDocument] = []
            for s in sources {
                let text = HeaderPatch.render(.object(HeaderPatch.apply(patch, to: s.header))) + "\n" + s.rest
                do throws(TraceProblem) {
                    let trace = try parse(text, s.shown)
                    do { try TraceProfiles.checkGates(trace, profile: simulation.profile(for: trace.header.model), file: s.shown) } catch {
                        throw TraceProblem(error)
                    }
                    let sim = context.services.simulate(trace, simulation)
                    docs.append(ResultDocument(header: ResultHeader(trace: trace.header.name, traceDigest: "",
                                                                    frameRate: trace.header.environment.frameRate,
                                                                    displayScale: trace.header.environment.displayScale),
                                               records: sim.records))
                } catch {
                    return .failure(Failure(code: error.kind == .unsupported ? .unsupported : .badInput, message: error.description))
                }
            }
            return .success(docs)
        }
        func patch(with subset: [[String]]) -> JSONObject {
            subset.reduce(a) { HeaderPatch.setting($0, at: $1, to: HeaderPatch.value(b, at: $1)) }
        }
        /// The traces (indices) whose result under `docs` differs from `reference` beyond tolerance.
        func diverging(_ reference: [ResultDocument], _ docs: [ResultDocument]) -> [Int] {
            reference.indices.filter { Comparator.compare(expected: reference[$0], actual: docs[$0], tolerances: tolerances).status != .passed }
        }

        let baseDocs: [ResultDocument], changedDocs: [ResultDocument]
        switch results(a) {
        case .success(let d): baseDocs = d
        case .failure(let f): throw Failure(code: f.code, message: "\(f.message) (with \(base))")
        }
        switch results(b) {
        case .success(let d): changedDocs = d
        case .failure(let f): throw Failure(code: f.code, message: "\(f.message) (with \(changed))")
        }
        if diverging(baseDocs, changedDocs).isEmpty {
            out.line("no divergence: every trace gives the same result with \(base) and \(changed)")
            return false
        }

        let report = CulpritSearch.run(changes, key: name) { subset in
            guard case .success(let docs) = results(patch(with: subset)) else { return nil }
            return CulpritSearch.Outcome(divergingFromBase: diverging(baseDocs, docs).count,
                                         matchesChanged: diverging(changedDocs, docs).isEmpty)
        }
        let traces = "\(sources.count) trace\(sources.count == 1 ? "" : "s")"
        out.line("diverging alone (\(report.alone.count) of \(changes.count)):")
        for (p, count) in report.alone {
            out.line("  \(name(p)): \(show(HeaderPatch.value(a, at: p))) -> \(show(HeaderPatch.value(b, at: p))) (\(count) of \(traces))")
        }
        if report.alone.isEmpty { out.line("  none: the culprits below make traces diverge only together") }
        let culprits = report.culprits
        out.line("culprit\(culprits.count == 1 ? "" : "s") (\(culprits.count) of \(changes.count), \(report.evaluations) evaluations):")
        for p in culprits { out.line("  \(name(p)): \(show(HeaderPatch.value(a, at: p))) -> \(show(HeaderPatch.value(b, at: p)))") }
        if case .success(let docs) = results(patch(with: culprits)), let i = diverging(baseDocs, docs).first {
            let comparison = Comparator.compare(expected: baseDocs[i], actual: docs[i], tolerances: tolerances)
            out.line("first diverging trace: \(sources[i].shown) (\(diverging(baseDocs, docs).count) of \(sources.count) traces diverge; expected = base, actual = base + culprits)")
            out.line(comparison.report(indent: "  "))
        }
        return true
    }
}
