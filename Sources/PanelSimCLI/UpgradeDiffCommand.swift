import Foundation
import PanelGolden
import PanelSimCore
import PanelTrace

/// `panelsim upgrade-diff --from LIB@V1 --to LIB@V2 [TRACE_DIR | TRACE…]` (profiles.md §2.6):
/// every trace of the library replayed under both versions, with the differences and the
/// switches that explain them.
struct UpgradeDiffCommand: PanelCommand {
    static var info: CommandInfo { CommandInfo(
        name: "upgrade-diff",
        abstract: "Replay traces as two versions of their library and list what differs.",
        usage: "panelsim upgrade-diff --from LIBRARY@V1 --to LIBRARY@V2 [TRACE_DIR | TRACE...] [options]",
        arguments: [("TRACE_DIR | TRACE...", "A folder of traces (default: traces), or trace files.")],
        options: [
            OptionSpec(names: ["--from"], valueName: "LIBRARY@V1", help: "The version the app uses now\(TraceProfiles.examples.map { " (e.g. \($0.older))" } ?? "")."),
            OptionSpec(names: ["--to"], valueName: "LIBRARY@V2", help: "The version to compare with\(TraceProfiles.examples.map { " (e.g. \($0.newer))" } ?? "")."),
            OptionSpec(names: ["--filter"], valueName: "GLOB", help: "Only traces whose path matches GLOB (repeatable), as for check.", repeatable: true),
            OptionSpec(names: ["--tolerance"], valueName: "CHANNEL=VALUE", help: "Tolerance of a channel (repeatable), as for check.", repeatable: true),
            OptionSpec(names: ["--jobs"], valueName: "N", help: "Compare N traces at a time (default 1); output order is unchanged."),
            OptionSpec(names: ["--json"], valueName: "FILE", help: "Also write the report as JSON to FILE."),
            OptionSpec(names: ["--report-dir"], valueName: "DIR", help: "Write an HTML report per differing trace (FROM as the\ngolden, TO as the actual) to DIR/<path>.html."),
            OptionSpec(names: ["--no-attribution"], valueName: nil, help: "Do not look for the switches that explain each difference."),
            OptionSpec(names: ["--quiet"], valueName: nil, help: "Only the status lines and the summary."),
        ],
        discussion: """
            Each trace of LIBRARY is replayed under V1 and under V2, each replacing the trace's own
            header profile (docs/profiles.md), and compared as diff compares two results (the
            header's profile member aside). One line per trace, in path order: SAME, DIFF (then
            the first divergence), GATED (valid under one version only: the gate and its side),
            INVALID (invalid under both), SKIP (a later format version). A DIFF is followed by the
            events only one side has, the didMove counts when they differ, the end state of each
            side, and the smallest set of switches whose V2 values, copied into V1, give V2's
            result ("switches: …"; at most 64 extra replays per trace, "attribution incomplete"
            and the candidates left when they run out). Traces of other models are counted in the
            summary. V1 may be newer than V2.

            \(HelpFormat.exitCodes([(0, "every trace the same"), (1, "a trace differs or is gated"),
                                     (2, "usage error, unknown version, missing folder, no trace of LIBRARY, or an invalid trace"),
                                     (125, "a trace of a later format version, nothing else differs")]))
            """) }

    var from: TraceProfile
    var to: TraceProfile
    var paths: [String]
    var filters: [String]
    var toleranceSettings: [(ToleranceChannel, Tolerance)]
    var jobs = 1
    var jsonPath: String?
    var reportDirectory: String?
    var attribution = true
    var quiet = false

    init(_ parsed: ParsedArguments) throws(UsageError) {
        func profile(_ option: String) throws(UsageError) -> TraceProfile {
            guard let value = parsed.values[option] else { throw UsageError("missing \(option) LIBRARY@VERSION", command: "upgrade-diff") }
            switch TraceProfiles.parse(commandLine: value) {
            case .success(let p): return p
            case .failure(let m): throw UsageError("\(option) \(value): \(m.text)", command: "upgrade-diff")
            }
        }
        from = try profile("--from")
        to = try profile("--to")
        guard from.library == to.library else {
            throw UsageError("--from names \(from.library.rawValue) and --to \(to.library.rawValue): compare two versions of one library", command: "upgrade-diff")
        }
        paths = parsed.positionals.isEmpty ? ["traces"] : parsed.positionals
        if paths.contains(where: \.isEmpty) { throw UsageError("empty trace path", command: "upgrade-diff") }
        filters = parsed.repeated["--filter"] ?? []
        if filters.contains(where: \.isEmpty) { throw UsageError("empty --filter pattern", command: "upgrade-diff") }
        toleranceSettings = try CheckCommand.parseTolerances(parsed.repeated["--tolerance"] ?? [], command: "upgrade-diff")
        if let j = parsed.values["--jobs"] {
            guard let n = Int(j), n >= 1, n <= 1024 else {
                throw UsageError("--jobs must be a whole number from 1 to 1024, got '\(j)'", command: "upgrade-diff")
            }
            jobs = n
        }
        for (name, value) in [("--json", parsed.values["--json"]), ("--report-dir", parsed.values["--report-dir"])] where value?.isEmpty == true {
            throw UsageError("empty \(name) path", command: "upgrade-diff")
        }
        jsonPath = parsed.values["--json"]
        reportDirectory = parsed.values["--report-dir"]
        attribution = !parsed.flags.contains("--no-attribution")
        quiet = parsed.flags.contains("--quiet")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        for p in paths where !Files.isDirectory(context.resolve(p)) && !Files.isFile(context.resolve(p)) {
            throw UsageError("'\(p)' does not exist (expected a trace folder or trace files)", command: "upgrade-diff")
        }
        if paths.count > 1, let dir = paths.first(where: { Files.isDirectory(context.resolve($0)) }) {
            throw UsageError("'\(dir)' is a directory: give one directory, or trace files", command: "upgrade-diff")
        }
    }

    /// The selected traces: (path to open, path shown, tolerances).
    func selection(_ context: CommandContext) -> [(String, String, Result<Tolerances, ToleranceSettingError>)] {
        let base = Tolerances.default.applying(toleranceSettings)
        if paths.count == 1, Files.isDirectory(context.resolve(paths[0])) {
            var dir = paths[0]
            while dir.count > 1, dir.hasSuffix("/") { dir.removeLast() }
            let root = context.resolve(dir)
            var rels = Files.listing(under: root, suffix: ".jsonl", excluding: ".golden.jsonl").0
            if !filters.isEmpty {
                rels = rels.filter { rel in filters.contains { fnmatch($0, rel, 0) == 0 || fnmatch($0, Files.join(dir, rel), 0) == 0 } }
            }
            let tolerances = ToleranceResolver(root: root, shownRoot: dir, settings: toleranceSettings).resolve(for: rels)
            return rels.map { rel in
                let folder = rel.split(separator: "/").dropLast().joined(separator: "/")
                return (root + "/" + rel, rel, tolerances[folder] ?? .success(base))
            }
        }
        let files = filters.isEmpty ? paths : paths.filter { p in filters.contains { fnmatch($0, p, 0) == 0 } }
        return files.map { (context.resolve($0), $0, .success(base)) }
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let catalog = TraceProfiles.catalog(for: from.library.rawValue) else { return .badInput }
        let engine = UpgradeDiff(from: from, to: to, catalog: catalog, pipeline: context.services.pipeline, attribution: attribution)
        let out = context.stdout
        let quiet = self.quiet
        let entries = OrderedParallel.map(selection(context), jobs: jobs, onResult: { (entry: UpgradeDiffEntry) in
            for line in Self.lines(entry, quiet: quiet) { out.line(line) }
        }) { item -> UpgradeDiffEntry in
            switch item.2 {
            case .success(let t): return engine.compare(path: item.0, shown: item.1, tolerances: t)
            case .failure(let e): return UpgradeDiffEntry(path: item.1, status: .invalid(side: "both", message: "\(item.1): \(e.description)"))
            }
        }
        var written: [String] = []
        if let dir = reportDirectory {
            for e in entries where e.status == .diff {
                guard let a = e.from, let b = e.to else { continue }
                let rel = (e.path.hasSuffix(".jsonl") ? String(e.path.dropLast(6)) : e.path) + ".html"
                var input = HTMLReport.Input(title: "\(e.path): \(from.library)@\(from.version) → \(to.version)", header: e.trace?.header,
                                             golden: a, actual: b, comparison: e.comparison, goldenName: "from \(from.version)")
                input.trace = e.trace
                input.goldenRole = "from \(from.version)"; input.actualRole = "to \(to.version)"
                input.tolerances = Tolerances.default.applying(toleranceSettings)
                do {
                    try AtomicFile.write(HTMLReport.render(input), to: context.resolve(dir) + "/" + rel, shownAs: Files.join(dir, rel))
                    written.append(Files.join(dir, rel))
                } catch {
                    context.stderr.line("error: \(error.description)")
                    return .badInput
                }
            }
        }
        let counts = Counts(entries)
        let code = counts.exitCode
        if let jsonPath {
            do {
                try AtomicFile.write(json(entries, engine: engine, counts: counts, code: code), to: context.resolve(jsonPath), shownAs: jsonPath)
            } catch {
                context.stderr.line("error: \(error.description)")
                return .badInput
            }
        }
        if counts.library == 0 {
            context.stderr.line("error: no \(from.library) trace in \(paths.joined(separator: " "))" + (filters.isEmpty ? "" : " matching --filter"))
        }
        for w in written where !quiet { context.stderr.line("wrote \(w)") }
        out.line(counts.summary(library: from.library.rawValue))
        return code
    }

    /// The one-sided events a DIFF report prints.
    static let shownEvents = 12

    /// The status line of `e` and, unless quiet, its DIFF details.
    static func lines(_ e: UpgradeDiffEntry, quiet: Bool) -> [String] {
        switch e.status {
        case .otherModel: return []
        case .same: return ["SAME \(e.path)"]
        case .skip(let m): return ["SKIP \(e.path): \(m)"]
        case let .invalid(_, m): return ["INVALID \(e.path): \(m)"]
        case let .gated(side, m): return ["GATED \(e.path): \(m) (\(side))"]
        case .diff: break
        }
        var lines = ["DIFF \(e.path): " + firstDivergenceText(e)]
        guard !quiet else { return lines }
        var only: [(Microseconds, String, String)] = e.onlyFrom.map { ($0.0, "from", $0.1) } + e.onlyTo.map { ($0.0, "to", $0.1) }
        only.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 == "from" && $1.1 == "to") }
        // At most `shownEvents` lines; --json lists every one.
        for (_, side, line) in only.prefix(shownEvents) { lines.append("  only in \(side): \(line)") }
        if only.count > shownEvents { lines.append("  … \(only.count - shownEvents) more events only in one side (--json lists them)") }
        if let m = e.didMoves { lines.append("  didMove: \(m.from) (from) vs \(m.to) (to)") }
        if let a = e.from.flatMap(UpgradeDiff.finalState), let b = e.to.flatMap(UpgradeDiff.finalState) {
            func text(_ s: (state: String, location: Double, contentOffset: Double?)) -> String {
                "state \(s.state), location \(CanonicalNumber.format(s.location))" + (s.contentOffset.map { ", contentOffset \(CanonicalNumber.format($0))" } ?? "")
            }
            lines.append("  end: \(text(a)) (from); \(text(b)) (to)")
        }
        if e.attributed {
            lines.append((e.attributionComplete ? "  switches: " : "  attribution incomplete; candidates: ")
                         + (e.attribution.isEmpty ? "none" : e.attribution.joined(separator: ", ")))
        }
        return lines
    }

    /// `first divergence at t=0.500000: event willEndDragging target barPresented (from) vs open (to)`.
    static func firstDivergenceText(_ e: UpgradeDiffEntry) -> String {
        guard let d = e.comparison?.firstDivergence else { return "differs" }
        if d.channel == .event {
            return "first divergence at t=\(CanonicalNumber.formatSeconds(d.time)): record \(d.recordIndex): event \(d.expected) (from) vs \(d.actual) (to)"
        }
        return "first divergence at t=\(CanonicalNumber.formatSeconds(d.time)): \(recordName(d, e.from)) \(d.channelName) \(d.expected) (from) vs \(d.actual) (to)"
    }

    /// `frame 12`, or `event 4: willEndDragging` (the FROM side's record).
    static func recordName(_ d: Divergence, _ doc: ResultDocument?) -> String {
        if let f = d.frame { return "frame \(f)" }
        if let doc, d.recordIndex >= 0, d.recordIndex < doc.records.count, case let .event(_, ev) = doc.records[d.recordIndex] {
            return "event \(d.recordIndex): \(ev.name)"
        }
        return "record \(d.recordIndex)"
    }

    /// The counts of the summary line and the exit code (profiles.md §2.6).
    struct Counts {
        var differ = 0, same = 0, gated = 0, invalid = 0, skipped = 0, other = 0
        init(_ entries: [UpgradeDiffEntry]) {
            for e in entries {
                switch e.status {
                case .same: same += 1
                case .diff: differ += 1
                case .gated: gated += 1
                case .invalid: invalid += 1
                case .skip: skipped += 1
                case .otherModel: other += 1
                }
            }
        }
        var library: Int { differ + same + gated + invalid + skipped }
        var exitCode: ExitCode {
            if library == 0 || invalid > 0 { return .badInput }
            if differ > 0 || gated > 0 { return .regression }
            if skipped > 0 { return .unsupported }
            return .success
        }
        func summary(library name: String) -> String {
            "\(library) traces of \(name): \(differ) differ, \(same) same, \(gated) gated, \(invalid) invalid, \(skipped) skipped; \(other) of other models"
        }
    }

    /// The `--json` document of profiles.md §2.6.
    func json(_ entries: [UpgradeDiffEntry], engine: UpgradeDiff, counts: Counts, code: ExitCode) -> String {
        func q(_ s: String) -> String { ResultFile.quoted(s) }
        func value(_ s: String) -> String {
            if let x = Double(s), x.isFinite, s.first != "+" { return CanonicalNumber.format(x) }
            return q(s)
        }
        func side(_ p: TraceProfile) -> String {
            "{\"library\": \(q(p.library.rawValue)), \"version\": \(q(p.version)), \"point\": \(q(p.point))}"
        }
        func seconds(_ t: Microseconds) -> String { CanonicalNumber.formatSeconds(t) }
        var traces: [String] = []
        for e in entries {
            switch e.status {
            case .otherModel: continue
            case .same: traces.append("{\"path\": \(q(e.path)), \"status\": \"same\"}")
            case .skip(let m): traces.append("{\"path\": \(q(e.path)), \"status\": \"skip\", \"message\": \(q(m))}")
            case let .gated(s, m): traces.append("{\"path\": \(q(e.path)), \"status\": \"gated\", \"side\": \(q(s)), \"message\": \(q(m))}")
            case let .invalid(s, m): traces.append("{\"path\": \(q(e.path)), \"status\": \"invalid\", \"side\": \(q(s)), \"message\": \(q(m))}")
            case .diff:
                var t = "{\"path\": \(q(e.path)), \"status\": \"diff\""
                if let d = e.comparison?.firstDivergence {
                    let record = d.frame != nil ? "frame" : "event"
                    t += ", \"firstDivergence\": {\"t\": \(seconds(d.time)), \"record\": \(q(record)), \"index\": \(d.frame ?? d.recordIndex), "
                        + "\"channel\": \(q(d.channelName)), \"from\": \(value(d.expected)), \"to\": \(value(d.actual))}"
                }
                // Each event is its result-file line, a JSON object with `t` first.
                func list(_ xs: [(Microseconds, String)]) -> String { "[" + xs.map(\.1).joined(separator: ", ") + "]" }
                t += ", \"events\": {\"onlyFrom\": \(list(e.onlyFrom)), \"onlyTo\": \(list(e.onlyTo)), \"didMove\": "
                    + (e.didMoves.map { "{\"from\": \($0.from), \"to\": \($0.to)}" } ?? "null") + "}"
                func final(_ d: ResultDocument?) -> String {
                    guard let s = d.flatMap(UpgradeDiff.finalState) else { return "null" }
                    return "{\"state\": \(q(s.state)), \"location\": \(CanonicalNumber.format(s.location))"
                        + (s.contentOffset.map { ", \"contentOffset\": \(CanonicalNumber.format($0))" } ?? "") + "}"
                }
                t += ", \"final\": {\"from\": \(final(e.from)), \"to\": \(final(e.to))}"
                if e.attributed {
                    t += ", \"attribution\": [\(e.attribution.map(q).joined(separator: ", "))], \"attributionComplete\": \(e.attributionComplete)"
                }
                traces.append(t + "}")
            }
        }
        let switches = engine.catalog.differingSwitches(from.point, to.point).map { q($0.label) }.joined(separator: ", ")
        return "{\"from\": \(side(from)),\n \"to\": \(side(to)),\n \"switches\": [\(switches)],\n \"traces\": [\n  "
            + traces.joined(separator: ",\n  ") + "],\n"
            + " \"summary\": {\"differ\": \(counts.differ), \"same\": \(counts.same), \"gated\": \(counts.gated), \"invalid\": \(counts.invalid), "
            + "\"skipped\": \(counts.skipped), \"otherModels\": \(counts.other)},\n \"exitCode\": \(code.rawValue)}\n"
    }
}
