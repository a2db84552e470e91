import Foundation
import PanelGolden
import PanelInvariants
import PanelSimCore
import PanelTrace

/// `panelsim soak [--model M] [--seed S] [--count N] [--jobs J] [--out DIR] [--limit K]`: replay N
/// random traces of one panel system (seeds S … S+N−1, the generator of the system's
/// `SystemCommandDescription.soak`), check its invariants on each (and, when the soak says so, the
/// replay rules every system keeps), and write every violating trace, minimized, as a trace file.
struct SoakCommand: PanelCommand {
    /// The model soaked without `--model`.
    static let defaultModel = PanelModel.floatingPanel

    static var info: CommandInfo { CommandInfo(
        name: "soak",
        abstract: "Check a panel system's invariants on random traces; write minimized violators.",
        usage: "panelsim soak [--model M] [--seed S] [--count N] [--jobs J] [--out DIR] [--limit K] [--emit DIR] [--profile LIBRARY@VERSION] [TRACE…]",
        arguments: [("TRACE...", "Check these trace files, each with its own model's checker\n(bottom FloatingPanel panels are also mirrored) instead of\ngenerated ones; with --emit, write their mirrors.")],
        options: [
            OptionSpec(names: ["--model"], valueName: "M", help: modelHelp),
            ProfileFlag.option,
            OptionSpec(names: ["--seed"], valueName: "S", help: "First seed (default 1); trace i uses seed S+i."),
            OptionSpec(names: ["--count"], valueName: "N", help: "Number of random traces (default 1000)."),
            OptionSpec(names: ["--jobs", "-j"], valueName: "J", help: "Check J traces in parallel (default 1). Output is\nidentical to --jobs 1."),
            OptionSpec(names: ["--out"], valueName: "DIR",
                       help: "Where minimized violating traces go (default soak-findings):\nDIR/soak-<seed>-<rule>-<variant>.jsonl; DIR/violations.txt\nlists every violation."),
            OptionSpec(names: ["--emit"], valueName: "DIR",
                       help: "Also write each generated trace (and, for FloatingPanel, its\ntop, left and right mirrors), unminimized, to DIR."),
            OptionSpec(names: ["--limit"], valueName: "K",
                       help: "Minimize and write at most K traces per rule and variant\n(default: every one; 0: none); the rest are counted and listed."),
        ],
        discussion: """
            \(systemsHelp)

            --profile LIBRARY@VERSION (LIBRARY the soaked model's) replays every trace as that
            version behaved and checks the rules that hold at its profile point (docs/profiles.md,
            "Invariants at each point"); a trace using what the version lacks is counted as gated
            and not replayed.

            A violating trace is minimized (delta debugging over its samples, then its header)
            while the same rule still fails on the same replay, and written with a description
            naming the rule and the seed. Reproduce one with `panelsim soak [--model M] --seed SEED
            --count 1`.

            \(HelpFormat.exitCodes([(0, "no violation"), (1, "at least one violation (or a generator error)"), HelpFormat.usageOrBadInput]))
            """) }

    /// `--model`'s help: the models of the registered soaks, the default marked.
    static var modelHelp: String {
        let models = CommandSystems.soaks.map { $0.model == defaultModel ? "\($0.model.rawValue) (default)" : $0.model.rawValue }
        return HelpFormat.wrap("The panel system: " + HelpFormat.list(models, "or") + ".", width: 62)
    }

    /// The help's paragraphs on the registered systems' traces and rules: each system's own
    /// `soakHelp`, then one paragraph for the soaks without one that check the replay rules.
    static var systemsHelp: String {
        var paragraphs = CommandSystems.registered.compactMap { d in d.soak == nil ? nil : d.soakHelp }
        let shared = CommandSystems.registered.filter { $0.soakHelp == nil && $0.soak?.checksReplayRules == true }
        if !shared.isEmpty {
            let rules = shared.map { d in
                let ids = d.soak?.rules.map(\.id) ?? []
                return d.name + " " + (ids.count > 1 ? "\(ids[0])–\(ids[ids.count - 1])" : ids.joined())
            }
            paragraphs.append(shared.map(\.model.rawValue).joined(separator: ", ")
                + ": a random configuration within the system's contract and a random timeline of gestures, taps and the "
                + "system's calls at any moment (also during animations and drags), replayed twice and checked against "
                + "the system's invariants (" + rules.joined(separator: ", ") + "; their specs' scenario sections) and the "
                + "replay rules every system keeps: repeat (the same records twice), finite (no NaN or infinity in a "
                + "record), pairs (every will… has its did… or its documented cancellation) and bounded (the replay "
                + "comes to rest; frames in order; no burst of events). docs/soak-triage.md lists every narrowing of a "
                + "rule and the spec line behind it.")
        }
        if !paragraphs.isEmpty {
            paragraphs[0] = "Each seed gives one trace (the same seed always gives the same bytes). " + paragraphs[0]
        }
        return paragraphs.map { HelpFormat.wrap($0, width: 88) }.joined(separator: "\n\n")
    }

    var seed: UInt64 = 1
    var count = 1000
    var jobs = 1
    var out = "soak-findings"
    var limit = Int.max
    var emit: String?
    /// The soak of the generated traces: `--model`'s (default `defaultModel`'s), under `--profile`
    /// when one is given; set by `validate`.
    var system: (any SystemSoak)?
    let parsed: ParsedArguments

    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.parsed = parsed
        files = parsed.positionals
    }

    /// Trace files to check instead of generated traces (empty: the seeds).
    var files: [String] = []

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        if let s = try parsed.seed(command: "soak") { seed = s }
        func positive(_ name: String, _ max: Int) throws(UsageError) -> Int? {
            guard let text = parsed.values[name] else { return nil }
            guard let n = Int(text), n >= 1, n <= max else {
                throw UsageError("\(name) must be a whole number from 1 to \(max), got '\(text)'", command: "soak")
            }
            return n
        }
        if let n = try positive("--count", 1_000_000_000) { count = n }
        if let n = try positive("--jobs", 1024) { jobs = n }
        if parsed.values["--limit"] == "0" { limit = 0 } else if let n = try positive("--limit", Int.max) { limit = n }
        emit = parsed.values["--emit"]
        let profiles = try ProfileFlag.profiles(parsed, command: "soak")
        for p in profiles where CommandSystems.soak(for: p.library)?.profiled(p) == nil {
            throw UsageError("--profile \(p.library.rawValue)@\(p.version): the \(p.library.rawValue) soak does not replay under a profile", command: "soak")
        }
        if let o = parsed.values["--out"] {
            guard !o.isEmpty else { throw UsageError("empty --out directory", command: "soak") }
            out = o
        }
        var chosen = CommandSystems.soak(for: Self.defaultModel)
        if let m = parsed.values["--model"] {
            guard let s = CommandSystems.soak(for: PanelModel(rawValue: m)) else {
                let known = CommandSystems.soaks.map(\.model.rawValue).joined(separator: ", ")
                throw UsageError("--model must be one of \(known), got '\(m)'", command: "soak")
            }
            guard files.isEmpty else {
                throw UsageError("--model applies to generated traces; trace files are checked with their own model", command: "soak")
            }
            chosen = s
        }
        if let p = profiles.first(where: { $0.library != chosen?.model }) {
            throw UsageError("--profile \(p.library.rawValue)@\(p.version) applies to --model \(p.library.rawValue), not to --model "
                             + (chosen?.model.rawValue ?? Self.defaultModel.rawValue), command: "soak")
        }
        if let p = profiles.first { chosen = chosen?.profiled(p) }
        if files.isEmpty && chosen == nil {
            throw UsageError("no soak is registered for --model \(Self.defaultModel.rawValue); name one with --model", command: "soak")
        }
        system = chosen
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard files.isEmpty, let system = self.system else { return checkFiles(context) }
        let first = seed
        var counts = SoakCounts()
        var violating: [(seed: UInt64, violation: InvariantViolation)] = []
        var generatorErrors: [(UInt64, String)] = []
        var byKey: [String: Int] = [:]
        var traces = 0, samples = 0, gated = 0
        // Chunks keep memory flat for any count; results are consumed in seed order.
        let chunk = 4096
        var start = 0
        while start < count {
            let n = min(chunk, count - start)
            let base = start
            // The traces are written before they are checked: a seed that traps the replay is on
            // disk when the process stops.
            if let emit {
                for i in 0..<n {
                    for t in system.emitted(system.trace(seed: first &+ UInt64(base + i))) {
                        do { try AtomicFile.write(TraceWriter.write(t), to: context.resolve(emit) + "/" + t.header.name + ".jsonl") } catch {
                            context.stderr.line("error: \(error)"); return .badInput
                        }
                    }
                }
            }
            let outcomes = parallelMap(count: n, jobs: jobs) { i in Soak.run(seed: first &+ UInt64(base + i), system: system) }
            for o in outcomes {
                if o.gated { gated += 1; continue }
                traces += 1; samples += o.sampleCount
                counts += o.counts
                if let e = o.generatorError { generatorErrors.append((o.seed, e)); continue }
                for v in o.violations {
                    violating.append((o.seed, v))
                    byKey[v.key, default: 0] += 1
                }
            }
            start += n
            if count > chunk { context.stderr.line("soak: \(start)/\(count) traces, \(violating.count) violations") }
        }
        let model = system.model == Self.defaultModel ? "" : "\(system.model.rawValue) "
        context.stdout.line("soak: \(model)seeds \(first)…\(first &+ UInt64(count - 1)): \(traces) traces (\(samples) samples), \(system.replayPhrase)")
        for line in system.reportLines(counts) { context.stdout.line(line) }
        if let profile = system.profile {
            context.stdout.line("profile: \(profile.library.rawValue)@\(profile.version) (point \(profile.point)); \(gated) trace(s) use what it lacks and were not replayed")
        }
        for (s, e) in generatorErrors.prefix(20) { context.stdout.line("GENERATOR ERROR seed \(s): \(e)") }
        if violating.isEmpty && generatorErrors.isEmpty {
            context.stdout.line("no violations")
            return .success
        }
        for key in byKey.keys.sorted() { context.stdout.line("\(key): \(byKey[key]!) trace(s)") }
        // Every violation, one a line (seed, key, message), for triage beyond --limit.
        let listing = violating.map { "\($0.seed) \($0.violation.key): \($0.violation.message)\n" }.joined()
        do { try AtomicFile.write(listing, to: context.resolve(out) + "/violations.txt") } catch {
            context.stderr.line("error: \(error)")
            return .badInput
        }
        // Minimize and write, per key up to the limit.
        var written: [String: Int] = [:]
        var toWrite: [(seed: UInt64, violation: InvariantViolation)] = []
        for (s, v) in violating where written[v.key, default: 0] < limit {
            written[v.key, default: 0] += 1
            toWrite.append((s, v))
        }
        let work = toWrite
        let files = parallelMap(count: work.count, jobs: jobs) { i in
            Soak.minimized(seed: work[i].seed, violation: work[i].violation, system: system)
        }
        for (item, file) in zip(toWrite, files) {
            let path = context.resolve(out) + "/" + file.trace.header.name + ".jsonl"
            do {
                try AtomicFile.write(file.text, to: path)
                context.stdout.line("VIOLATION seed \(item.seed) \(item.violation.key): \(item.violation.message)")
                context.stdout.line("  wrote \(out)/\(file.trace.header.name).jsonl (\(file.trace.samples.count) samples)")
            } catch {
                context.stderr.line("error: \(error)")
                return .badInput
            }
        }
        let skipped = violating.count - toWrite.count
        if skipped > 0 {
            context.stdout.line("\(skipped) more violation(s) not written (--limit \(limit)); seeds: "
                + violating.dropFirst(0).filter { v in !toWrite.contains { $0.seed == v.seed && $0.violation.key == v.violation.key } }
                    .prefix(50).map { "\($0.seed) \($0.violation.key)" }.joined(separator: ", "))
        }
        return .regression
    }

    /// Checks each of `files` with the soak of its own model (a bottom FloatingPanel panel also on
    /// its mirrors) and prints every violation; with `--emit`, writes the mirrors beside each other
    /// in that folder.
    func checkFiles(_ context: CommandContext) -> ExitCode {
        var failed = false
        for file in files {
            let trace: Trace
            do { trace = try TraceLoader.load(path: context.resolve(file)).trace } catch {
                context.stderr.line("error: \(error)"); return .badInput
            }
            guard let system = CommandSystems.soak(for: trace.header.model) else {
                context.stderr.line("error: \(file): no soak checker is registered for model '\(trace.header.model.rawValue)'")
                return .badInput
            }
            if let emit {
                for m in system.emitted(trace).dropFirst() {
                    do { try AtomicFile.write(TraceWriter.write(m), to: context.resolve(emit) + "/" + m.header.name + ".jsonl") } catch {
                        context.stderr.line("error: \(error)"); return .badInput
                    }
                }
            }
            let violations = system.checkAll(trace).violations
            for v in violations { context.stdout.line("VIOLATION \(file) \(v)") }
            if violations.isEmpty { context.stdout.line("\(file): no violations") }
            failed = failed || !violations.isEmpty
        }
        return failed ? .regression : .success
    }
}
