import Foundation
import PanelSimCore
import PanelTrace
/// `panelsim bench [--quick] [--json] [--runs N]`: performance benchmark.
struct BenchCommand: PanelCommand {
    static let info = CommandInfo(
        name: "bench",
        abstract: "Measure simulation, check and load performance.",
        usage: "panelsim bench [--quick] [--json] [--runs N] [--c-source FILE]",
        arguments: [],
        options: [
            OptionSpec(names: ["--quick"], valueName: nil, help: "A tiny run that only proves the benchmark works."),
            OptionSpec(names: ["--json"], valueName: nil, help: "Print the report as one JSON object."),
            OptionSpec(
                names: ["--runs"], valueName: "N",
                help: "Repetitions of every measurement (default 5;\nthe report gives medians)."),
            OptionSpec(
                names: ["--c-source"], valueName: "FILE",
                help: "C version of the bare spring loop, built with\ngcc -O2 (default: bench/spring.c)."),
        ],
        discussion: """
            Build in release mode first: swift run -c release panelsim bench

            Sections, each measured --runs times (medians reported):
              core        attraction-only and drag-plus-attraction replays without I/O (simulated
                          frames per CPU second) of FloatingPanel, then each other registered
                          system's own workload, each next to a bare loop of NumericSpring's
                          arithmetic in this binary measured just before it (in ten timed parts
                          after the first row), and, when gcc is available, the same loop in C
                          (-O2); each replay row's note adds its "fastest tenth": the rate a
                          tenth of its replays reach over the rate a tenth of the bare loop's
                          parts reach (informational; none in a --quick run)
              end to end  a check of 1,000 generated traces against goldens generated first
                          (load, simulate, format, compare): traces/s and simulated s per wall s
              scaling     the same check with 1 and 2 jobs
              load        a generated 10^6-sample trace loaded in a child process
                          (panelsim bench-load FILE): wall time and peak resident memory
            Progress goes to standard error; the table (or JSON with --json) to standard output.

            \(HelpFormat.exitCodes([(0, "benchmark run (whether or not the budgets hold)"), HelpFormat.usageOrBadInput]))
            """)

    var options: BenchOptions
    var json: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(parsed.positionals[0])'", command: "bench")
        }
        options = parsed.flags.contains("--quick") ? BenchOptions.quickRun : BenchOptions()
        json = parsed.flags.contains("--json")
        if let runs = parsed.values["--runs"] {
            guard let n = Int(runs), n >= 1 else {
                throw UsageError("--runs expects a whole number >= 1, got '\(runs)'", command: "bench")
            }
            options.runs = n
        }
        if let source = parsed.values["--c-source"] { options.cSource = source }
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        if let source = options.cSource { options.cSource = context.resolve(source) }
    }

    func run(_ context: CommandContext) -> ExitCode {
        do {
            let report = try Bench.run(options) { context.stderr.line($0) }
            context.stdout.write(json ? report.json() : report.table())
            return .success
        } catch {
            context.stderr.line("error: bench: \(error)")
            return .badInput
        }
    }
}

/// `panelsim bench-load FILE` (hidden): loads one trace and prints `samples=N seconds=S
/// peakKiB=K baselineKiB=B`, so that `bench` measures the load's own peak memory in a fresh process.
struct BenchLoadCommand: PanelCommand {
    static let info = CommandInfo(
        name: "bench-load", abstract: "Internal: load one trace for bench.", usage: "panelsim bench-load FILE",
        arguments: [("FILE", "Trace to load.")], options: [], discussion: "")

    var path: String

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else { throw UsageError("expected one trace file", command: "bench-load") }
        path = parsed.positionals[0]
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    func run(_ context: CommandContext) -> ExitCode {
        do {
            let r = try LoadMeasurement.measureLoad(path: context.resolve(path))
            context.stdout.line(
                "samples=\(r.samples) seconds=\(r.seconds) peakKiB=\(r.peakKiB) baselineKiB=\(r.baselineKiB ?? 0)")
            return .success
        } catch {
            context.stderr.line("error: \(error)")
            return .badInput
        }
    }
}

/// `panelsim bench-corpus DIR [N]` (hidden): writes the bench's N generated FloatingPanel traces
/// (default 1000), N of each other panel system and the core workloads to DIR, so that two builds
/// can be compared byte for byte on them (`replay` each, then `cmp`).
struct BenchCorpusCommand: PanelCommand {
    static let info = CommandInfo(
        name: "bench-corpus", abstract: "Internal: write the bench corpus.", usage: "panelsim bench-corpus DIR [N]",
        arguments: [("DIR", "Output directory."), ("N", "Number of traces (default 1000).")], options: [],
        discussion: "")

    var directory: String
    var count: Int

    init(_ parsed: ParsedArguments) throws(UsageError) {
        (directory, count) = try pathAndCount(parsed, "DIR", default: 1000, minimum: 0, command: "bench-corpus")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    func run(_ context: CommandContext) -> ExitCode {
        let dir = context.resolve(directory)
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for i in 0..<count {
                try BenchCorpus.variedTrace(index: i).write(
                    toFile: "\(dir)/bench-\(i).jsonl", atomically: false, encoding: .utf8)
                for (system, trace) in Bench.systemCorpora {
                    try trace(i).write(toFile: "\(dir)/bench-\(system)-\(i).jsonl", atomically: false, encoding: .utf8)
                }
            }
            try BenchCorpus.attractionTrace(moves: 50).write(
                toFile: "\(dir)/core-attraction.jsonl", atomically: false, encoding: .utf8)
            try BenchCorpus.dragTrace(gestures: 50).write(
                toFile: "\(dir)/core-drag.jsonl", atomically: false, encoding: .utf8)
            for w in Bench.systemWorkloads {
                try w.workload.trace(50).write(
                    toFile: "\(dir)/core-\(w.model.rawValue).jsonl", atomically: false, encoding: .utf8)
            }
            return .success
        } catch {
            context.stderr.line("error: \(error)")
            return .badInput
        }
    }
}

/// `panelsim bench-replay FILE [N]` (hidden): loads one trace and simulates it N times (default 100)
/// with no output but a line `replays=N frames=F seconds=S`, so that a profiler (callgrind) sees the
/// replay loop and little else.
struct BenchReplayCommand: PanelCommand {
    static let info = CommandInfo(
        name: "bench-replay", abstract: "Internal: replay one trace N times for profiling.",
        usage: "panelsim bench-replay FILE [N]",
        arguments: [("FILE", "Trace to replay."), ("N", "Replays (default 100).")], options: [], discussion: "")

    var path: String
    var count: Int

    init(_ parsed: ParsedArguments) throws(UsageError) {
        (path, count) = try pathAndCount(parsed, "FILE", default: 100, minimum: 1, command: "bench-replay")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    func run(_ context: CommandContext) -> ExitCode {
        do {
            let trace = try TraceLoader.load(path: context.resolve(path)).trace
            var frames = 0
            let start = BenchClock.threadCPU()
            for _ in 0..<count {
                frames &+= simulate(trace).records.frameCount
            }
            let seconds = BenchClock.threadCPU() - start
            context.stdout.line(
                "replays=\(count) frames=\(frames) seconds=\(seconds) framesPerSecond=\(Double(frames) / seconds)")
            return .success
        } catch {
            context.stderr.line("error: \(error)")
            return .badInput
        }
    }
}

/// The `PATH [N]` arguments of the hidden bench commands: N defaults to `defaultCount` and must be a
/// whole number ≥ `minimum`.
/// - Throws: `UsageError` naming `command` for a wrong argument count or N.
private func pathAndCount(
    _ parsed: ParsedArguments, _ pathName: String, default defaultCount: Int, minimum: Int,
    command: String
) throws(UsageError) -> (String, Int) {
    guard (1...2).contains(parsed.positionals.count) else {
        throw UsageError("expected \(pathName) [N]", command: command)
    }
    let count = parsed.positionals.count == 2 ? Int(parsed.positionals[1]) ?? minimum - 1 : defaultCount
    guard count >= minimum else { throw UsageError("N must be a whole number >= \(minimum)", command: command) }
    return (parsed.positionals[0], count)
}
