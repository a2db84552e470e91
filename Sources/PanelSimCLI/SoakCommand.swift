import Foundation
import PanelGolden
import PanelInvariants
import PanelSimCore
import PanelTrace

/// `panelsim soak [--model M] [--seed S] [--count N] [--jobs J] [--out DIR] [--limit K]`: replay N
/// random traces of one panel system (seeds S … S+N−1, the system's generator in `SoakSystems`),
/// check its invariants on each (and, for the newer systems, the replay rules every system keeps),
/// and write every violating trace, minimized, as a trace file.
struct SoakCommand: PanelCommand {
    static let info = CommandInfo(
        name: "soak",
        abstract: "Check a panel system's invariants on random traces; write minimized violators.",
        usage: "panelsim soak [--model M] [--seed S] [--count N] [--jobs J] [--out DIR] [--limit K] [--emit DIR] [--profile LIBRARY@VERSION] [TRACE…]",
        arguments: [("TRACE...", "Check these trace files, each with its own model's checker\n(bottom FloatingPanel panels are also mirrored) instead of\ngenerated ones; with --emit, write their mirrors.")],
        options: [
            OptionSpec(names: ["--model"], valueName: "M",
                       help: "The panel system: floatingpanel (default), drawerkit,\nlnpopup or uisheet."),
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
            Each seed gives one trace (the same seed always gives the same bytes). FloatingPanel
            (the default): a bottom panel with a random container, safe area, display scale, frame
            rate, anchors (custom states, intrinsic and fractional anchors), behavior, delegate
            answers and tracked list, and a random timeline of drags, flicks, holds, reversals,
            second fingers, cancels, taps, programmatic calls, list calls, rotations and keyboard
            changes. It is replayed as is and mirrored onto top, left and right panels; every
            replay is checked against G1–G4 and F1–F5, and the mirrors against the bottom replay
            (G6). The rules (G1–G4, G6, F1–F5) are invariants of the team's scenario spec,
            which is not part of this repository; the InvariantChecker type (module
            PanelInvariants) states each one.

            drawerkit, lnpopup, uisheet: a random configuration within the system's contract and a
            random timeline of gestures, taps and the system's calls at any moment (also during
            animations and drags), replayed twice and checked against the system's invariants
            (DrawerKit K1–K5, LNPopup P1–P6, UISheet SH1–SH8; their specs' scenario sections) and
            the replay rules every system keeps: repeat (the same records twice), finite (no NaN or
            infinity in a record), pairs (every will… has its did… or its documented cancellation)
            and bounded (the replay comes to rest; frames in order; no burst of events).
            docs/soak-triage.md lists every narrowing of a rule and the spec line behind it.

            --profile LIBRARY@VERSION (the library of --model, or the model it names) replays every
            trace as that version behaved and checks the rules that hold at its profile point
            (docs/profiles.md, "Invariants at each point"); a trace using what the version lacks
            is counted as gated and not replayed.

            A violating trace is minimized (delta debugging over its samples, then its header)
            while the same rule still fails on the same replay, and written with a description
            naming the rule and the seed. Reproduce one with `panelsim soak [--model M] --seed SEED
            --count 1`.

            \(HelpFormat.exitCodes([(0, "no violation"), (1, "at least one violation (or a generator error)"), HelpFormat.usageOrBadInput]))
            """)

    var seed: UInt64 = 1
    var count = 1000
    var jobs = 1
    var out = "soak-findings"
    var limit = Int.max
    var emit: String?
    var system: any SystemSoak = FloatingPanelSoak()
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
        guard profiles.count <= 1 else {
            throw UsageError("--profile: soak replays one library's traces; give one --profile", command: "soak")
        }
        if let profile = profiles.first {
            guard files.isEmpty else {
                throw UsageError("--profile applies to generated traces; a trace file is checked under the profile its header names", command: "soak")
            }
            if let m = parsed.values["--model"], m != profile.library.rawValue {
                throw UsageError("--profile \(profile.library.rawValue)@\(profile.version) does not match --model \(m)", command: "soak")
            }
            guard let base = SoakSystems.system(for: profile.library), let s = base.profiled(profile) else {
                throw UsageError("--profile \(profile.library.rawValue)@\(profile.version): no soak with profiles is registered for \(profile.library.rawValue)", command: "soak")
            }
            system = s
        }
        if let o = parsed.values["--out"] {
            guard !o.isEmpty else { throw UsageError("empty --out directory", command: "soak") }
            out = o
        }
        if let m = parsed.values["--model"] {
            guard let s = SoakSystems.system(named: m) else {
                let known = SoakSystems.registered.map(\.model.rawValue).joined(separator: ", ")
                throw UsageError("--model must be one of \(known), got '\(m)'", command: "soak")
            }
            guard files.isEmpty else {
                throw UsageError("--model applies to generated traces; trace files are checked with their own model", command: "soak")
            }
            if profiles.isEmpty { system = s }
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        if !files.isEmpty { return checkFiles(context) }
        let system = self.system
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
        let model = system.model == .floatingPanel ? "" : "\(system.model.rawValue) "
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
            guard let system = SoakSystems.system(for: trace.header.model) else {
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
