import Foundation
import PanelGolden
import PanelInvariants
import PanelSimCore
import PanelTrace

/// `panelsim soak [--seed S] [--count N] [--jobs J] [--out DIR] [--limit K]`: replay N random
/// traces (seeds S … S+N−1, `SoakGenerator`) and their mirrors, check scenarios.md's invariants on
/// each (`InvariantChecker`), and write every violating trace, minimized, as a trace file.
struct SoakCommand: PanelCommand {
    static let info = CommandInfo(
        name: "soak",
        abstract: "Check the invariants (G1–G4, G6, F1–F5) on random traces; write minimized violators.",
        usage: "panelsim soak [--seed S] [--count N] [--jobs J] [--out DIR] [--limit K] [--emit DIR] [--profile floatingpanel@VERSION] [TRACE…]",
        arguments: [("TRACE...", "Check these trace files (bottom panels are also mirrored)\ninstead of generated ones; with --emit, write their mirrors.")],
        options: [
            ProfileFlag.option,
            OptionSpec(names: ["--seed"], valueName: "S", help: "First seed (default 1); trace i uses seed S+i."),
            OptionSpec(names: ["--count"], valueName: "N", help: "Number of random traces (default 1000)."),
            OptionSpec(names: ["--jobs", "-j"], valueName: "J", help: "Check J traces in parallel (default 1). Output is\nidentical to --jobs 1."),
            OptionSpec(names: ["--out"], valueName: "DIR",
                       help: "Where minimized violating traces go (default soak-findings):\nDIR/soak-<seed>-<rule>-<variant>.jsonl; DIR/violations.txt\nlists every violation."),
            OptionSpec(names: ["--emit"], valueName: "DIR",
                       help: "Also write each generated trace and its top, left and right\nmirrors, unminimized, to DIR (for looking at one seed)."),
            OptionSpec(names: ["--limit"], valueName: "K",
                       help: "Minimize and write at most K traces per rule and variant\n(default: every one; 0: none); the rest are counted and listed."),
        ],
        discussion: """
            Each seed gives one trace (the same seed always gives the same bytes): a bottom panel
            with a random container, safe area, display scale, frame rate, anchors (custom states,
            intrinsic and fractional anchors), behavior, delegate answers and tracked list, and a
            random timeline of drags, flicks, holds, reversals, second fingers, cancels, taps,
            programmatic calls, list calls, rotations and keyboard changes. It is replayed as is
            and mirrored onto top, left and right panels; every replay is checked against G1–G4
            and F1–F5, and the mirrors against the bottom replay (G6). A violating trace is
            minimized (delta debugging over its samples, then its header) while the same rule
            still fails on the same replay, and written with a description naming the rule and the
            seed. Reproduce one with `panelsim soak --seed SEED --count 1`. With --profile
            floatingpanel@VERSION every trace is replayed as that version behaved and checked
            against the rules that hold at its profile point (docs/profiles.md); a trace using
            what the version lacks is counted as gated and not replayed. The rules (G1–G4, G6,
            F1–F5) are invariants of the team's scenario spec, which is not part of this
            repository; the InvariantChecker type (module PanelInvariants) states each one.

            \(HelpFormat.exitCodes([(0, "no violation"), (1, "at least one violation (or a generator error)"), HelpFormat.usageOrBadInput]))
            """)

    var seed: UInt64 = 1
    var count = 1000
    var jobs = 1
    var out = "soak-findings"
    var limit = Int.max
    var emit: String?
    /// `--profile floatingpanel@VERSION`: the version the random traces are replayed as.
    var profile: TraceProfile?
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
        if let other = profiles.first(where: { $0.library != .floatingPanel }) {
            throw UsageError("--profile \(other.library.rawValue)@\(other.version): soak replays FloatingPanel traces", command: "soak")
        }
        profile = profiles.first
        if let o = parsed.values["--out"] {
            guard !o.isEmpty else { throw UsageError("empty --out directory", command: "soak") }
            out = o
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        if !files.isEmpty { return checkFiles(context) }
        let first = seed
        var coverage = InvariantCoverage()
        var violating: [(seed: UInt64, violation: InvariantViolation)] = []
        var generatorErrors: [(UInt64, String)] = []
        var byKey: [String: Int] = [:]
        var traces = 0, samples = 0, gated = 0
        let profile = self.profile
        // Chunks keep memory flat for any count; results are consumed in seed order.
        let chunk = 4096
        var start = 0
        while start < count {
            let n = min(chunk, count - start)
            let base = start
            let outcomes = parallelMap(count: n, jobs: jobs) { i in Soak.run(seed: first &+ UInt64(base + i), profile: profile) }
            if let emit {
                for i in 0..<n {
                    let seed = first &+ UInt64(base + i)
                    let trace = Soak.trace(seed: seed, profile: profile)
                    var files = [("soak-\(seed).jsonl", trace)]
                    for position in [PanelPosition.top, .left, .right] {
                        var m = Mirror(position: position, h: trace.header.environment.container.height).trace(trace)
                        m.header.name = "soak-\(seed)-\(position.rawValue)"
                        files.append(("soak-\(seed)-\(position.rawValue).jsonl", m))
                    }
                    for (name, t) in files {
                        do { try AtomicFile.write(TraceWriter.write(t), to: context.resolve(emit) + "/" + name) } catch {
                            context.stderr.line("error: \(error)"); return .badInput
                        }
                    }
                }
            }
            for o in outcomes {
                if o.gated { gated += 1; continue }
                traces += 1; samples += o.sampleCount
                coverage += o.coverage
                if let e = o.generatorError { generatorErrors.append((o.seed, e)); continue }
                for v in o.violations {
                    violating.append((o.seed, v))
                    byKey[v.key, default: 0] += 1
                }
            }
            start += n
            if count > chunk { context.stderr.line("soak: \(start)/\(count) traces, \(violating.count) violations") }
        }
        context.stdout.line("soak: seeds \(first)…\(first &+ UInt64(count - 1)): \(traces) traces (\(samples) samples), each replayed on bottom, top, left and right")
        context.stdout.line("checked: \(coverage.g1Rests) rests (G1), \(coverage.g4Rests) resting lists (G4), \(coverage.g3Frames) frame pairs (G3), "
            + "\(coverage.calls) calls (F1, F3), \(coverage.attractionFrames) attraction frames (F5), \(coverage.mirrors) mirrors (G6)")
        if let profile {
            context.stdout.line("profile: floatingpanel@\(profile.version) (point \(profile.point)); \(gated) trace(s) use what it lacks and were not replayed")
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
            Soak.minimized(seed: work[i].seed, violation: work[i].violation, profile: profile)
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

    /// Checks each of `files` (and, for a bottom panel, its mirrors) and prints every violation;
    /// with `--emit`, writes the mirrors beside each other in that folder.
    func checkFiles(_ context: CommandContext) -> ExitCode {
        var failed = false
        for file in files {
            let trace: Trace
            do { trace = try TraceLoader.load(path: context.resolve(file)).trace } catch {
                context.stderr.line("error: \(error)"); return .badInput
            }
            if let emit, trace.header.panel.position == .bottom {
                for position in [PanelPosition.top, .left, .right] {
                    var m = Mirror(position: position, h: trace.header.environment.container.height).trace(trace)
                    m.header.name = trace.header.name + "-" + position.rawValue
                    do { try AtomicFile.write(TraceWriter.write(m), to: context.resolve(emit) + "/" + m.header.name + ".jsonl") } catch {
                        context.stderr.line("error: \(error)"); return .badInput
                    }
                }
            }
            let violations = InvariantChecker.checkAll(trace).violations
            for v in violations { context.stdout.line("VIOLATION \(file) \(v)") }
            if violations.isEmpty { context.stdout.line("\(file): no violations") }
            failed = failed || !violations.isEmpty
        }
        return failed ? .regression : .success
    }
}
