import PanelGolden
import PanelSimCore

/// `panelsim replay TRACE [-o OUT]`: load a trace, simulate it, write its result file.
struct ReplayCommand: PanelCommand {
    static let info = CommandInfo(
        name: "replay",
        abstract: "Replay one trace and write its result file.",
        usage: "panelsim replay TRACE [-o OUT] [options]",
        arguments: [("TRACE", "Trace file (.jsonl) to replay.")],
        options: [OptionSpec(names: ["-o", "--output"], valueName: "OUT",
                             help: "Write the result file to OUT (atomically) instead of standard output."),
            OptionSpec(names: ["--drive-scroll"], valueName: nil,
                       help: "Apply `scroll` samples to the scroll view instead of the finger-driven\nmodel (default: they are observations; docs/FORMATS.md)."),
            OptionSpec(names: ["--panel-handler-first"], valueName: nil,
                       help: "Run the panel's pan handler before the scroll view's for each touch\nsample (default: scroll view, Core's scroll handler, panel)."),
            OptionSpec(names: ["--content-inset"], valueName: nil,
                       help: "Add the opt-in `contentInset` frame channel: the tracked list's\ncontentInset as FloatingPanel writes it (docs/FORMATS.md §2);\nrecorded in the result header (\"simulator\": [\"contentInset\"])."),
        ],
        discussion: """
            The result file is the golden format (docs/FORMATS.md §2): a header line, then one line
            per delegate event and per frame. The same trace always gives the same bytes.
            Simulation warnings go to standard error.

            \(HelpFormat.exitCodes([(0, "result written"), HelpFormat.usageOrBadInput, HelpFormat.otherVersion]))
            """)

    var trace: String
    var output: String?
    var simulation = SimulationOptions()

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard let first = parsed.positionals.first else { throw UsageError("missing TRACE", command: "replay") }
        guard parsed.positionals.count == 1 else {
            throw UsageError("unexpected argument '\(parsed.positionals[1])'", command: "replay")
        }
        trace = first
        output = parsed.values["-o"]
        simulation.driveScroll = parsed.flags.contains("--drive-scroll")
        simulation.panelHandlerFirst = parsed.flags.contains("--panel-handler-first")
        simulation.recordContentInset = parsed.flags.contains("--content-inset")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        if let output, output.isEmpty { throw UsageError("empty output path", command: "replay") }
    }

    /// Loads and replays `trace` (as the user spelled it); load errors and simulation warnings go
    /// to standard error. Returns the loaded trace and its result, or the exit code of the failure.
    static func replay(_ trace: String, _ context: CommandContext,
                       options: SimulationOptions = SimulationOptions()) -> Result<(LoadedTraceInfo, ResultDocument), ReplayFailure> {
        let loaded: LoadedTraceInfo
        do {
            loaded = try context.services.load(context.resolve(trace), trace)
        } catch {
            context.stderr.line(error.description)
            return .failure(ReplayFailure(code: error.kind == .unsupported ? .unsupported : .badInput))
        }
        let result = context.services.simulate(loaded.trace, options)
        for warning in result.warnings { context.stderr.line("warning: \(trace): \(warning)") }
        if result.budgetExceeded {
            context.stderr.line("warning: \(trace): the panel did not come to rest within the settle budget")
        }
        return .success((loaded, ResultDocument(header: ResultHeader(replaying: loaded.trace, traceDigest: loaded.digest, simulation: options),
                                             records: result.records)))
    }

    struct ReplayFailure: Error { var code: ExitCode }

    func run(_ context: CommandContext) -> ExitCode {
        let document: ResultDocument
        switch ReplayCommand.replay(trace, context, options: simulation) {
        case .success(let r): document = r.1
        case .failure(let f): return f.code
        }
        let text = ResultFile.render(document)
        if let output {
            do {
                try AtomicFile.write(text, to: context.resolve(output), shownAs: output)
            } catch {
                context.stderr.line(error.description)
                return .badInput
            }
            context.stderr.line("wrote \(output)")
        } else {
            context.stdout.write(text)
        }
        return .success
    }
}
