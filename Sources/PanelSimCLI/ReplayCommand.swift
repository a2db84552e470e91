import PanelGolden
import PanelTrace
import PanelSimCore
import PanelTrace

/// `panelsim replay TRACE [-o OUT]`: load a trace, simulate it, write its result file.
struct ReplayCommand: PanelCommand {
    static let info = CommandInfo(
        name: "replay",
        abstract: "Replay one trace and write its result file.",
        usage: "panelsim replay TRACE [-o OUT] [options]",
        arguments: [("TRACE", "Trace file (.jsonl) to replay; - reads the trace from standard input.")],
        options: [OptionSpec(names: ["-o", "--output"], valueName: "OUT",
                             help: "Write the result file to OUT (atomically) instead of standard output.")]
            + SimulationFlags.options + [ProfileFlag.option],
        discussion: """
            The result file is the golden format (docs/FORMATS.md §2): a header line, then one line
            per delegate event and per frame. The same trace always gives the same bytes.
            Simulation warnings go to standard error. With --profile (or a `profile` in the trace's
            header) the result header records the profile point (docs/profiles.md); a --profile of
            another library than the trace's is bad input.

            TRACE - reads the trace from standard input to its end (panelsim synth … | panelsim
            replay -): the digest is of the bytes read, errors name it `stdin`, and a header
            without a `name` gives the result the trace name `stdin`.

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
        simulation = SimulationFlags.options(parsed)
        simulation.profiles = try ProfileFlag.profiles(parsed, command: "replay")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        if let output, output.isEmpty { throw UsageError("empty output path", command: "replay") }
    }

    /// Loads and replays `trace` (as the user spelled it); load errors and simulation warnings go
    /// to standard error. Returns the loaded trace and its result, or the exit code of the failure.
    static func replay(_ trace: String, _ context: CommandContext,
                       options: SimulationOptions = SimulationOptions()) -> Result<(LoadedTraceInfo, ResultDocument), ReplayFailure> {
        let replayed: ReplayedTrace
        do {
            let loaded = trace == standardInputName
                ? try TraceLoader.load(bytes: context.standardInput(), file: "stdin")
                : try context.services.load(context.resolve(trace), trace)
            let model = loaded.trace.header.model
            if let other = options.profiles.first(where: { $0.library != model }), options.profile(for: model) == nil {
                context.stderr.line("\(trace): --profile \(other.library.rawValue)@\(other.version): the trace's model is \(model.rawValue) (a profile applies to its own library's traces)")
                return .failure(ReplayFailure(code: .badInput))
            }
            try TraceProfiles.checkGates(loaded.trace, profile: options.profile(for: model), file: trace)
            replayed = context.services.pipeline.replay(loaded, options: options)
        } catch {
            context.stderr.line(error.description)
            if error.kind == .io, error.message.hasPrefix("is not a regular file") {
                context.stderr.line("(a trace from a pipe: give - as TRACE, e.g. panelsim synth … | panelsim replay -)")
            }
            return .failure(ReplayFailure(code: error.kind == .unsupported ? .unsupported : .badInput))
        }
        for warning in replayed.result.warnings { context.stderr.line("warning: \(trace): \(warning)") }
        if replayed.result.budgetExceeded {
            context.stderr.line("warning: \(trace): the panel did not come to rest within the settle budget")
        }
        return .success((replayed.loaded, replayed.document))
    }

    struct ReplayFailure: Error { var code: ExitCode }

    /// The TRACE that stands for standard input.
    static let standardInputName = "-"


    /// `run` for a large trace file (`StreamingReplay`): the result is written as the replay
    /// produces it, to standard output or to the temporary file of `-o`'s atomic write (renamed
    /// over OUT at the end; removed when the trace fails to load). Memory stays bounded.
    func runStreaming(_ context: CommandContext) -> ExitCode {
        let path = context.resolve(trace)
        var writer: AtomicFile.Writer?
        var writeError: FileWriteError?
        do throws(TraceError) {
            let scanned = try StreamingReplay.scan(path: path, shown: trace)
            if let output {
                do { writer = try AtomicFile.Writer(path: context.resolve(output), shownAs: output) } catch {
                    context.stderr.line(error.description)
                    return .badInput
                }
            }
            let (_, result) = try StreamingReplay.replay(scanned, shown: trace, options: simulation) { bytes in
                guard writeError == nil else { return }
                if writer != nil {
                    do throws(FileWriteError) { try writer?.append(bytes) } catch { writeError = error }
                } else {
                    context.stdout.write(String(decoding: bytes, as: UTF8.self))
                }
            }
            for warning in result.warnings { context.stderr.line("warning: \(trace): \(warning)") }
            if result.budgetExceeded { context.stderr.line("warning: \(trace): the panel did not come to rest within the settle budget") }
        } catch {
            writer?.abandon()
            context.stderr.line(error.description)
            return error.kind == .unsupported ? .unsupported : .badInput
        }
        guard let writer, let output else { return .success }
        do throws(FileWriteError) {
            if let writeError { throw writeError }
            try writer.commit()
        } catch {
            writer.abandon()
            context.stderr.line(error.description)
            return .badInput
        }
        context.stderr.line("wrote \(output)")
        return .success
    }

    func run(_ context: CommandContext) -> ExitCode {
        if trace != Self.standardInputName, context.services.streams(context.resolve(trace), environment: context.environment) {
            return runStreaming(context)
        }
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

/// The simulator options as command-line flags, declared once for every command that replays
/// (`replay`, `check`): floatingpanel-core.md §9 O8 (`--drive-scroll`), O3
/// (`--panel-handler-first`) and the opt-in `contentInset` channel (`--content-inset`). A result
/// records the options away from their defaults in its header.
enum SimulationFlags {
    /// The flags, with their help text.
    static let options: [OptionSpec] = [
        OptionSpec(names: ["--drive-scroll"], valueName: nil,
                   help: "Apply `scroll` samples to the scroll view instead of the finger-driven\nmodel (default: they are observations; docs/FORMATS.md)."),
        OptionSpec(names: ["--panel-handler-first"], valueName: nil,
                   help: "Run the panel's pan handler before the scroll view's for each touch\nsample (default: scroll view, Core's scroll handler, panel)."),
        OptionSpec(names: ["--content-inset"], valueName: nil,
                   help: "Add the opt-in `contentInset` frame channel: the tracked list's\ncontentInset as FloatingPanel writes it (docs/FORMATS.md §2);\nrecorded in the result header (\"simulator\": [\"contentInset\"])."),
    ]

    /// The options the flags of `parsed` select (defaults for the flags not given).
    static func options(_ parsed: ParsedArguments) -> SimulationOptions {
        var simulation = SimulationOptions()
        simulation.driveScroll = parsed.flags.contains("--drive-scroll")
        simulation.panelHandlerFirst = parsed.flags.contains("--panel-handler-first")
        simulation.recordContentInset = parsed.flags.contains("--content-inset")
        return simulation
    }
}
