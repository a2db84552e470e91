import PanelSimCore
import PanelTrace

/// `panelsim observe TRACE --param NAME=V… [--every N] [--noise PT] [--seed N] [-o OUT]`: add
/// `observed` samples from a replay with other behavior parameters (a synthetic "device").
struct ObserveCommand: PanelCommand {
    static let info = CommandInfo(
        name: "observe",
        abstract: "Add observed samples from a replay with other parameters.",
        usage:
            "panelsim observe TRACE --param NAME=V... [--every N] [--noise PT] [--seed N] [-o OUT] [--profile LIBRARY@VERSION]...",
        arguments: [("TRACE", "Trace file (.jsonl); its header is kept as it is.")],
        options: [
            ProfileFlag.option,
            OptionSpec(
                names: ["--param"], valueName: "NAME=V",
                help: "A behavior value the \"device\" uses (repeatable):\n\(TuneCLI.parameterNames).", repeatable: true
            ),
            OptionSpec(names: ["--every"], valueName: "N", help: "One observation every N display frames (default 1)."),
            OptionSpec(
                names: ["--noise"], valueName: "PT",
                help: "Uniform noise of +-PT on each observed location (default 0)."),
            OptionSpec(names: ["--seed"], valueName: "N", help: "Seed of the noise generator, SplitMix64 (default 1)."),
            OptionSpec(
                names: ["-o", "--output"], valueName: "OUT",
                help: "Write the trace to OUT (atomically) instead of standard output."),
        ],
        discussion: """
            The trace is replayed with the given parameters and every N-th frame (from frame 0 to
            0.25 s past the last frame, never past an 'end' sample) becomes an observed sample
            with its location (plus noise), state and backdrop alpha (and content offset with a
            scroll view). Existing observed samples are replaced; the header keeps its own
            parameters and its source.origin records the command, so 'panelsim tune' can be
            checked against known answers. The same inputs always give the same bytes.

            A parameter that has no effect on the trace (replays with it at the given value, the
            header's and a few others are identical) is refused (exit 2).

            \(HelpFormat.exitCodes([(0, "trace written"), HelpFormat.usageOrBadInput, HelpFormat.otherVersion]))
            """)

    var trace: String
    var output: String?
    var ranges: [ParameterRange] = []
    var every = 1
    var noise = 0.0
    var seed: UInt64 = 1
    let parsed: ParsedArguments

    /// `--profile` values: the profile each trace of their library is replayed as.
    var profiles: [TraceProfile] = []

    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.parsed = parsed
        guard let first = parsed.positionals.first else { throw UsageError("missing TRACE", command: "observe") }
        guard parsed.positionals.count == 1 else {
            throw UsageError("unexpected argument '\(parsed.positionals[1])'", command: "observe")
        }
        trace = first
        output = parsed.values["-o"]
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        profiles = try ProfileFlag.profiles(parsed, command: "observe")
        ranges = try TuneCLI.ranges(parsed, command: "observe")
        guard !ranges.isEmpty else { throw UsageError("missing --param NAME=V", command: "observe") }
        if let r = ranges.first(where: { $0.lower != $0.upper }) {
            throw UsageError(
                "\(r.parameter.rawValue): observe takes one value (NAME=V), not a range", command: "observe")
        }
        if let text = parsed.values["--every"] {
            guard let n = Int(text), n >= 1, n <= 10_000 else {
                throw UsageError("--every must be an integer in 1…10000, got '\(text)'", command: "observe")
            }
            every = n
        }
        if let v = try parsed.points("--noise", command: "observe") { noise = v }
        if let s = try parsed.seed(command: "observe") { seed = s }
        if let output, output.isEmpty { throw UsageError("empty output path", command: "observe") }
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let importer = context.services.importer else {
            context.stderr.line("error: 'panelsim observe' needs the trace writer, which this build lacks")
            return .badInput
        }
        let loaded: LoadedTraceInfo
        switch TuneCLI.load(
            [trace], context, parameters: ranges.map(\.parameter), command: "observe", profiles: profiles)
        {
        case .success(let l): loaded = l[0]
        case .failure(let e): return e.code
        }
        // A parameter the model does not read for this trace would be silently ignored: refused.
        for r in ranges {
            let probes = ParameterEffect.probes(r.parameter, around: [r.lower], traces: [loaded.trace])
            if !ParameterEffect.hasEffect(r.parameter, values: probes, traces: [loaded.trace], jobs: 1) {
                context.stderr.line(
                    "error: \(trace): \(r.parameter.rawValue) has no effect on this trace (replays with it at "
                        + probes.map(TuneCLI.short).joined(separator: ", ")
                        + " are identical), so the observations would not "
                        + "depend on it")
                return .badInput
            }
        }
        let synth = ObservationSynthesizer(
            parameters: ranges.map(\.parameter), values: ranges.map(\.lower),
            every: every, noise: noise, seed: seed)
        var observed = synth.observe(loaded.trace)
        let settings =
            ranges.map { "--param \($0.parameter.rawValue)=\(CanonicalNumber.format($0.lower))" }
            + ["--every \(every)"] + (noise > 0 ? ["--noise \(CanonicalNumber.format(noise))", "--seed \(seed)"] : [])
        let note = "observed: panelsim observe " + settings.joined(separator: " ")
        let origin = observed.header.source.origin
        observed.header.source.origin = origin.isEmpty ? note : origin + "; " + note
        let written = importer.write(observed)
        do {
            _ = try importer.parse(written, output ?? "observed trace")
        } catch {
            context.stderr.line(error.description)
            return .badInput
        }
        return ImportCommand.emit(written, to: output, context)
    }
}
