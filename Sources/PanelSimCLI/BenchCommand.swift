/// `panelsim bench [--quick] [--json] [--runs N]`: performance benchmark (issue #8).
struct BenchCommand: PanelCommand {
    static let info = CommandInfo(
        name: "bench",
        abstract: "Measure simulation, check and load performance.",
        usage: "panelsim bench [--quick] [--json] [--runs N] [--c-source FILE]",
        arguments: [],
        options: [
            OptionSpec(names: ["--quick"], valueName: nil, help: "A tiny run that only proves the benchmark works."),
            OptionSpec(names: ["--json"], valueName: nil, help: "Print the report as one JSON object."),
            OptionSpec(names: ["--runs"], valueName: "N", help: "Repetitions of every measurement (default 5;\nthe report gives medians)."),
            OptionSpec(names: ["--c-source"], valueName: "FILE",
                       help: "C version of the bare spring loop, built with\ngcc -O2 (default: bench/spring.c)."),
        ],
        discussion: """
            Build in release mode first: swift run -c release panelsim bench

            Sections, each measured --runs times (medians reported):
              core        attraction-only and drag-plus-attraction replays without I/O (simulated
                          frames per CPU second) next to a bare loop of NumericSpring's arithmetic
                          in this binary and, when gcc is available, the same loop in C (-O2)
              end to end  a check of 1,000 generated traces against goldens generated first
                          (load, simulate, format, compare): traces/s and simulated s per wall s
              scaling     the same check with 1 and 2 jobs
              load        a generated 10^6-sample trace loaded in a child process
                          (panelsim bench-load FILE): wall time and peak resident memory
            Progress goes to standard error; the table (or JSON with --json) to standard output.

            \(HelpFormat.exitCodes)
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
            guard let n = Int(runs), n >= 1 else { throw UsageError("--runs expects a whole number >= 1, got '\(runs)'", command: "bench") }
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
            context.stdout.line("samples=\(r.samples) seconds=\(r.seconds) peakKiB=\(r.peakKiB) baselineKiB=\(r.baselineKiB ?? 0)")
            return .success
        } catch {
            context.stderr.line("error: \(error)")
            return .badInput
        }
    }
}
