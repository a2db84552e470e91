import Foundation
import PanelGolden

/// The `panelsim` command line as a library: tests call `run` in-process with their own
/// environment, output sinks and working directory; the executable calls `main`.
public enum PanelSimCommand {
    /// `panelsim --version`.
    public static let version = "panelsim 0.1.0"

    /// The subcommands, in help order.
    static var commands: [any PanelCommand.Type] {
        [ReplayCommand.self, CheckCommand.self, ReviewCommand.self, AcceptCommand.self, RejectCommand.self, ImportCommand.self, SynthCommand.self,
         DiffCommand.self, ReportCommand.self, BisectCommand.self, MergeSummariesCommand.self,
         FidelityCommand.self, TuneCommand.self, SweepCommand.self, ObserveCommand.self, BenchCommand.self,
         SoakCommand.self, ProfilesCommand.self, UpgradeDiffCommand.self, RecoverCommand.self]
    }
    /// Subcommands left out of help (`bench-load`: the child process of `bench`).
    static var hiddenCommands: [any PanelCommand.Type] { [BenchLoadCommand.self, BenchCorpusCommand.self, BenchReplayCommand.self] }

    /// Top-level help (`panelsim --help`), ending with a newline.
    public static var helpText: String {
        let libraries = HelpFormat.list(CommandSystems.registered.map(\.libraryName), "and")
        var out = HelpFormat.wrap("OVERVIEW: Replay gesture traces through models of iOS panel systems (\(libraries)) and "
                                  + "check the results against golden files. Formats: docs/FORMATS.md.", width: 95)
        out += """


            USAGE: panelsim <command> [arguments] [options]

            COMMANDS:

            """
        for c in commands { out += HelpFormat.row(c.info.name, c.info.abstract) }
        out += HelpFormat.row("help", "Show help for a command.")
        out += "\nOPTIONS:\n"
        out += HelpFormat.row("-h, --help", "Show help information.")
        out += HelpFormat.row("--version", "Show the version.")
        out += "\n" + HelpFormat.exitCodes + "\n"
        out += "\nSee 'panelsim help <command>' for detailed help.\n"
        return out
    }

    /// The help text of one command (`panelsim help NAME`), nil for an unknown name.
    public static func helpText(for name: String) -> String? {
        commands.first { $0.info.name == name }?.info.helpText()
    }

    /// Runs the command line with the process's environment, standard output and error, and
    /// current directory; returns the exit code.
    /// - Parameter arguments: the arguments after the program name.
    public static func main(arguments: [String]) -> Int32 {
        run(arguments: arguments, environment: ProcessInfo.processInfo.environment,
            stdout: FileHandleSink(.standardOutput), stderr: FileHandleSink(.standardError))
    }

    /// Runs the command line in-process.
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - environment: read for `PANELSIM_RECORD` and `CI`.
    ///   - stdout / stderr: where output goes.
    ///   - workingDirectory: relative paths resolve against it (default: the process's).
    /// - Returns: the exit code (`ExitCode.rawValue`).
    public static func run(arguments: [String], environment: [String: String],
                           stdout: OutputSink, stderr: OutputSink,
                           workingDirectory: String? = nil) -> Int32 {
        run(arguments: arguments, environment: environment, stdout: stdout, stderr: stderr,
            workingDirectory: workingDirectory, services: .live).rawValue
    }

    /// Same, with injectable trace services and standard input (tests).
    static func run(arguments: [String], environment: [String: String], stdout: OutputSink,
                    stderr: OutputSink, workingDirectory: String?, services: TraceServices,
                    standardInput: (() -> [UInt8])? = nil) -> ExitCode {
        var context = CommandContext(environment: environment, stdout: stdout, stderr: stderr,
                                     workingDirectory: workingDirectory ?? FileManager.default.currentDirectoryPath,
                                     services: services)
        if let standardInput { context.standardInput = standardInput }
        do {
            return try dispatch(arguments, context)
        } catch {
            stderr.line("error: \(error.message)")
            if let name = error.command, let command = commands.first(where: { $0.info.name == name }) {
                stderr.line("Usage: \(command.info.usage)")
                stderr.line("See 'panelsim help \(name)'.")
            } else {
                stderr.line("Usage: panelsim <command> [arguments] [options]")
                stderr.line("See 'panelsim --help'.")
            }
            // Under git bisect run, a usage error must stop the bisect, never mark a revision bad.
            return BisectExit.requested(arguments) ? BisectExit.stop : .badInput
        }
    }

    private static func dispatch(_ arguments: [String], _ context: CommandContext) throws(UsageError) -> ExitCode {
        guard let first = arguments.first else { throw UsageError("missing command") }
        switch first {
        case "-h", "--help":
            context.stdout.write(helpText)
            return .success
        case "--version":
            context.stdout.line(version)
            return .success
        case "help":
            let rest = Array(arguments.dropFirst())
            guard let name = rest.first else {
                context.stdout.write(helpText)
                return .success
            }
            guard rest.count == 1 else { throw UsageError("help takes one command name") }
            guard let text = helpText(for: name) else { throw UsageError("unknown command '\(name)'") }
            context.stdout.write(text)
            return .success
        default:
            guard let type = (commands + hiddenCommands).first(where: { $0.info.name == first }) else {
                if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
                throw UsageError("unknown command '\(first)'")
            }
            return try runCommand(type, Array(arguments.dropFirst()), context)
        }
    }

    private static func runCommand(_ type: any PanelCommand.Type, _ arguments: [String],
                                   _ context: CommandContext) throws(UsageError) -> ExitCode {
        let parsed = try ArgumentSplitter.split(arguments, options: type.info.options, command: type.info.name)
        if parsed.helpRequested {
            context.stdout.write(type.info.helpText())
            return .success
        }
        var command = try type.init(parsed)
        try command.validate(context)
        return command.run(context)
    }
}
