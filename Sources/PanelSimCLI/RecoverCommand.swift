import PanelGolden
import PanelTrace

/// `panelsim recover TRACE [-o OUT]`: a trace whose recording stopped in the middle of a line,
/// without that line (`TraceRecovery.recover(bytes:file:)`).
struct RecoverCommand: PanelCommand {
    static let info = CommandInfo(
        name: "recover",
        abstract: "Write a trace cut off mid-line without its incomplete last line.",
        usage: "panelsim recover TRACE [-o OUT]",
        arguments: [("TRACE", "Trace file (.jsonl) whose recording stopped in the middle of a write.")],
        options: [OptionSpec(names: ["-o", "--output"], valueName: "OUT",
                             help: "Write the recovered trace to OUT (atomically) instead of standard output.")],
        discussion: """
            A recording stopped in the middle of a write (the app killed, the device out of
            storage) ends with part of a line and no line break, which the loader refuses
            ("invalid JSON … found end of input"). recover drops that last line when the file
            does not end with a line break and the line is not complete JSON, checks that
            everything before it loads as a trace (any other problem is reported as replay
            reports it, and nothing is written), writes the bytes before it unchanged, and says
            on standard error which line it dropped and how many bytes. A trace that is whole
            is written unchanged, with a note. The Swift API is TraceRecovery.loadRecovering(path:).

            \(HelpFormat.exitCodes([(0, "trace written (with or without a line dropped)"), HelpFormat.usageOrBadInput]))
            """)

    var trace: String
    var output: String?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard let first = parsed.positionals.first else { throw UsageError("missing TRACE", command: "recover") }
        guard parsed.positionals.count == 1 else {
            throw UsageError("unexpected argument '\(parsed.positionals[1])'", command: "recover")
        }
        trace = first
        output = parsed.values["-o"]
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        if let output, output.isEmpty { throw UsageError("empty output path", command: "recover") }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let bytes: [UInt8], recovered: RecoveredTrace
        do throws(TraceError) {
            bytes = try TraceLoader.readBytes(path: context.resolve(trace), shown: trace)
            recovered = try TraceRecovery.recover(bytes: bytes, file: trace)
        } catch {
            context.stderr.line(error.description)
            return error.kind == .unsupported ? .unsupported : .badInput
        }
        let kept = String(decoding: bytes[..<(bytes.count - recovered.droppedBytes)], as: UTF8.self)
        let samples = recovered.loaded.trace.samples.count
        if let notice = recovered.notice {
            context.stderr.line(notice + "; \(samples) samples kept")
        } else {
            context.stderr.line("\(trace): nothing dropped: the last line is complete (\(samples) samples)")
        }
        guard let output else {
            context.stdout.write(kept)
            return .success
        }
        do {
            try AtomicFile.write(kept, to: context.resolve(output), shownAs: output)
        } catch {
            context.stderr.line(error.description)
            return .badInput
        }
        context.stderr.line("wrote \(output)")
        return .success
    }
}
