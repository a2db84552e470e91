import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PanelGolden
import PanelSimCore

/// A process exit status, as a value (swift-argument-parser style).
public struct ExitCode: RawRepresentable, Sendable, Equatable, Hashable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// 0: everything passed.
    public static let success = ExitCode(rawValue: 0)
    /// 1: a regression (a golden differs, or is missing while recording is off).
    public static let regression = ExitCode(rawValue: 1)
    /// 2: a usage error or bad input (malformed trace or golden, unreadable file).
    public static let badInput = ExitCode(rawValue: 2)
    /// 125: a trace cannot be evaluated at this revision (`git bisect run` skips the commit).
    public static let unsupported = ExitCode(rawValue: 125)
    public var description: String { String(rawValue) }
}

/// Where a command writes text (standard output, standard error, or a buffer in tests).
public protocol OutputSink: AnyObject {
    /// Writes `text` as is (callers add newlines).
    func write(_ text: String)
}

/// An in-memory sink; tests read `text`.
public final class StringSink: OutputSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
}

/// A sink on a file handle (the process's standard output or error).
public final class FileHandleSink: OutputSink {
    let handle: FileHandle
    public init(_ handle: FileHandle) { self.handle = handle }
    public func write(_ text: String) { handle.write(Data(text.utf8)) }
}

extension OutputSink {
    /// Writes `text` followed by a newline.
    func line(_ text: String) { write(text + "\n") }
}

/// Everything a command may touch, injected so that tests run commands in-process.
struct CommandContext {
    var environment: [String: String]
    var stdout: OutputSink
    var stderr: OutputSink
    /// Relative paths given on the command line are resolved against this directory.
    var workingDirectory: String
    var services: TraceServices
    /// Everything on the process's standard input, read when a command is given `-` for a file
    /// (`replay -`). Replaced in tests.
    var standardInput: () -> [UInt8] = { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }

    /// `path` if absolute, else `workingDirectory/path`.
    func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path == "." { return workingDirectory }
        return workingDirectory.hasSuffix("/") ? workingDirectory + path : workingDirectory + "/" + path
    }
}

/// A bad command line: the message and the command whose usage to show.
struct UsageError: Error, Equatable {
    var message: String
    /// Name of the command (nil: the top level).
    var command: String?
    init(_ message: String, command: String? = nil) { self.message = message; self.command = command }
}

/// An option a command accepts.
struct OptionSpec {
    /// Spellings, primary first (`["-o", "--output"]`); values are stored under the primary.
    var names: [String]
    /// Placeholder of the value (`"DIR"`); nil for a flag without a value.
    var valueName: String?
    var help: String
    /// True: the option may be given several times; every value is kept, in order, in
    /// `ParsedArguments.repeated` (and the last one in `values`).
    var repeatable = false
    var primary: String { names[0] }
}

/// Static description of a command: drives both parsing and help text.
struct CommandInfo {
    var name: String
    var abstract: String
    var usage: String
    var arguments: [(name: String, help: String)]
    var options: [OptionSpec]
    var discussion: String

    /// The help text, ending with a newline.
    func helpText() -> String {
        var out = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\n"
        if !arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in arguments { out += HelpFormat.row(a.name, a.help) }
        }
        out += "\nOPTIONS:\n"
        for o in options {
            let names = o.names.joined(separator: ", ") + (o.valueName.map { " " + $0 } ?? "")
            out += HelpFormat.row(names, o.help)
        }
        out += HelpFormat.row("-h, --help", "Show help information.")
        if !discussion.isEmpty { out += "\n" + discussion + "\n" }
        return out
    }
}

enum HelpFormat {
    static let column = 26
    /// `"  name<pad>help"`; help wraps onto continuation lines aligned at `column`.
    static func row(_ name: String, _ help: String) -> String {
        let lead = "  " + name
        let pad = lead.count < column ? String(repeating: " ", count: column - lead.count) : "\n" + String(repeating: " ", count: column)
        let helpLines = help.split(separator: "\n", omittingEmptySubsequences: false)
        var out = lead + pad + (helpLines.first.map(String.init) ?? "") + "\n"
        for more in helpLines.dropFirst() { out += String(repeating: " ", count: column) + more + "\n" }
        return out
    }

    /// The exit codes of `check` (and of `panelsim` as a whole, whose main job it is).
    static let exitCodes = exitCodes([
        (0, "everything passed"),
        (1, "a regression: a golden differs, or is missing while recording is off"),
        (2, "usage error or bad input (malformed trace or golden, unreadable file)"),
        (125, "a trace cannot be evaluated at this revision (git bisect run skips it)"),
    ])

    /// `text` with each of its lines broken at spaces into lines of at most `width` characters
    /// (a longer word stands alone on its line). Help texts generated from the registries use it.
    /// - Complexity: O(characters).
    static func wrap(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var lines: [String] = [], current = ""
            for word in line.split(separator: " ") {
                if current.isEmpty {
                    current = String(word)
                } else if current.count + 1 + word.count <= width {
                    current += " " + word
                } else {
                    lines.append(current); current = String(word)
                }
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `a`, `a or b`, `a, b or c` (with `conjunction` "or"): a list as help texts write it.
    static func list(_ items: [String], _ conjunction: String) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " \(conjunction) " + items[items.count - 1]
    }

    /// A command's `EXIT CODES:` block, one row per code.
    static func exitCodes(_ rows: [(Int, String)]) -> String {
        "EXIT CODES:\n" + rows.map { code, meaning in
            let c = String(code)
            return "  " + c + String(repeating: " ", count: max(1, 5 - c.count)) + meaning
        }.joined(separator: "\n")
    }

    /// Rows every command shares.
    static let usageOrBadInput = (2, "usage error or bad input (malformed or unreadable file)")
    static let otherVersion = (125, "an input of a format version this revision cannot read")
}

/// The result of splitting a command line against a command's options.
extension ParsedArguments {
    /// The value of `option` as a distance in points within 0…1000 (jitter, noise), or nil when absent.
    /// - Throws: `UsageError` naming the option and the value.
    func points(_ option: String, command: String) throws(UsageError) -> Double? {
        guard let text = values[option] else { return nil }
        guard let v = Double(text), v.isFinite, v >= 0, v <= 1000 else {
            throw UsageError("\(option) must be a number of points in 0…1000, got '\(text)'", command: command)
        }
        return v
    }

    /// The value of `--seed` as a UInt64, or nil when absent.
    /// - Throws: `UsageError` naming the value.
    func seed(command: String) throws(UsageError) -> UInt64? {
        guard let text = values["--seed"] else { return nil }
        guard let s = UInt64(text) else {
            throw UsageError("--seed must be an integer in 0…18446744073709551615, got '\(text)'", command: command)
        }
        return s
    }
}

struct ParsedArguments {
    var positionals: [String] = []
    /// Option values by primary name.
    var values: [String: String] = [:]
    /// Flags present, by primary name.
    var flags: Set<String> = []
    /// Every value of a repeatable option, in command-line order, by primary name.
    var repeated: [String: [String]] = [:]
    var helpRequested = false
}

/// Hand-written argument splitting: `--name value`, `--name=value`, `-o value`, flags, `--` ends
/// options. Unknown options, missing values and repeated options are usage errors.
enum ArgumentSplitter {
    static func split(_ arguments: [String], options: [OptionSpec], command: String) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            if arg == "-h" || arg == "--help" { parsed.helpRequested = true; continue }
            var name = arg
            var inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            guard let spec = options.first(where: { $0.names.contains(name) }) else {
                throw UsageError("unknown option '\(name)'", command: command)
            }
            if spec.valueName == nil {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value", command: command) }
                if parsed.flags.contains(spec.primary) { throw UsageError("option '\(name)' given twice", command: command) }
                parsed.flags.insert(spec.primary)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count else {
                    throw UsageError("option '\(name)' needs a value \(spec.valueName!)", command: command)
                }
                value = arguments[i]
                i += 1
            }
            if spec.repeatable {
                parsed.repeated[spec.primary, default: []].append(value)
            } else if parsed.values[spec.primary] != nil {
                throw UsageError("option '\(name)' given twice", command: command)
            }
            parsed.values[spec.primary] = value
        }
        return parsed
    }
}

/// One subcommand: parse, then `validate()`, then `run()`.
protocol PanelCommand {
    static var info: CommandInfo { get }
    /// Builds the command from split arguments; throws for wrong positional counts.
    init(_ parsed: ParsedArguments) throws(UsageError)
    /// Checks values that do not need the file system's contents beyond existence, and resolves
    /// settings from the environment. Runs before `run`.
    mutating func validate(_ context: CommandContext) throws(UsageError)
    /// Does the work and returns the exit code. Never throws: every failure is reported on the
    /// context's sinks and mapped to an `ExitCode`.
    func run(_ context: CommandContext) -> ExitCode
}
