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
    private let handle: FileHandle
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

/// File-system helpers shared by commands.
enum Files {
    static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }
    /// What is at `path` (links followed): a file, nothing (no such file or folder on the way),
    /// or something that cannot be used, with the reason (a folder, or a `stat` error such as a
    /// folder on the way that cannot be searched).
    enum Probe: Equatable { case file, missing, unusable(String) }
    static func probe(_ path: String) -> Probe {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .missing }
            return .unusable(String(cString: strerror(code)))
        }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .unusable("is a directory") : .file
    }

    static func isFile(_ path: String) -> Bool { probe(path) == .file }

    /// Relative paths of the files under `root` whose name ends in `suffix` (anything but a
    /// directory, symbolic links to files included), skipping any path component that starts
    /// with "." (hidden files, temporary files of atomic writes) and not descending into symbolic
    /// links to directories; sorted by their UTF-8 bytes.
    /// - Complexity: one `readdir` per entry, `lstat` only where `readdir` gives no type (the
    ///   listing is the serial part of `check`).
    static func list(under root: String, suffix: String, excluding excluded: String? = nil) -> [String] {
        listing(under: root, suffix: suffix, excluding: excluded).files
    }

    /// `list` plus what it had to leave out, as "relative path: reason", sorted: folders that
    /// cannot be read or searched, names that are not UTF-8 (no String spells their path; the
    /// bad bytes are shown as U+FFFD) and broken symbolic links, where the name (for a file)
    /// ends in `suffix` and not in `excluded`.
    /// `hidden`, when given, receives the relative path of every hidden entry (name starting
    /// with ".") in the folders walked, other than "." and "..".
    static func listing(under root: String, suffix: String, excluding excluded: String? = nil,
                        hidden: ((String) -> Void)? = nil) -> (files: [String], skipped: [String]) {
        var found: [String] = [], skipped: [String] = []
        func walk(_ directory: String, _ prefix: String) {
            func skip(_ rel: String, _ reason: String) { skipped.append(rel + ": " + reason) }   // "" is the root
            // A folder whose entries cannot be listed, or opened (not searchable), is left out.
            guard let handle = opendir(directory) else {
                return skip(prefix, "the folder cannot be read (\(String(cString: strerror(errno))))")
            }
            defer { closedir(handle) }
            guard faccessat(AT_FDCWD, directory, X_OK, AT_EACCESS) == 0 else {
                return skip(prefix, "the folder cannot be searched (\(String(cString: strerror(errno))))")
            }
            while let entry = readdir(handle) {
                let (name, isUTF8) = withUnsafeBytes(of: entry.pointee.d_name) { raw -> (String, Bool) in
                    let bytes = raw.prefix(while: { $0 != 0 })
                    let decoded = String(decoding: bytes, as: UTF8.self)   // repairs bad bytes: compare
                    return (decoded, decoded.utf8.elementsEqual(bytes))
                }
                if name.hasPrefix(".") {   // hidden, and "." and ".."
                    if let hidden, isUTF8, name != ".", name != ".." { hidden(prefix.isEmpty ? name : prefix + "/" + name) }
                    continue
                }
                let path = directory + "/" + name
                let rel = prefix.isEmpty ? name : prefix + "/" + name
                // The entry's type from readdir where the file system gives it, else from lstat.
                let isDirectory: Bool, isLink: Bool
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_DIR): isDirectory = true; isLink = false
                case Int32(DT_LNK): isDirectory = false; isLink = true
                case Int32(DT_UNKNOWN):
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    isDirectory = info.st_mode & S_IFMT == S_IFDIR
                    isLink = info.st_mode & S_IFMT == S_IFLNK
                default: isDirectory = false; isLink = false
                }
                let wanted = rel.hasSuffix(suffix) && !(excluded.map { rel.hasSuffix($0) } ?? false)
                guard isUTF8 else {
                    if isDirectory || wanted { skip(rel, "the name is not UTF-8") }
                    continue
                }
                if isDirectory { walk(path, rel); continue }
                guard wanted else { continue }
                if isLink && !isFile(path) {   // a link to a directory (not followed), or broken
                    if !Files.isDirectory(path) { skip(rel, "a broken symbolic link") }
                    continue
                }
                found.append(rel)
            }
        }
        walk(root, "")
        return (found.sorted(by: utf8Precedes), skipped.sorted(by: utf8Precedes))
    }

    /// The goldens under `root` (as `list(under: root, suffix: ".golden.jsonl")`) and the
    /// temporary files that interrupted atomic writes left among the hidden names the listing
    /// skips (`.NAME.tmp-PID-XXXXXXXX`, `AtomicFile.temporaryOwner(of:)`), each sorted by bytes.
    /// - Complexity: one walk of the folder.
    static func goldenListing(under root: String) -> (goldens: [String], temporaries: [String]) {
        var temporaries: [String] = []
        let goldens = listing(under: root, suffix: ".golden.jsonl", hidden: { rel in
            let name = rel.split(separator: "/").last.map(String.init) ?? rel
            if AtomicFile.temporaryOwner(of: name) != nil { temporaries.append(rel) }
        }).files
        return (goldens, temporaries.sorted(by: utf8Precedes))
    }

    /// Reads a UTF-8 text file; nil with a reason when it cannot.
    static func read(_ path: String) -> Result<String, ReadFailure> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ReadFailure(message: "cannot read \(path)"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ReadFailure(message: "\(path) is not UTF-8 text"))
        }
        return .success(text)
    }

    struct ReadFailure: Error { var message: String }

    /// True when the file at `path` holds exactly `bytes` (false when it cannot be read).
    static func contentsEqual(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), data.count == bytes.count else { return false }
        if bytes.isEmpty { return true }
        return data.withUnsafeBytes { d in bytes.withUnsafeBytes { b in memcmp(d.baseAddress!, b.baseAddress!, b.count) == 0 } }
    }

    /// `a/b` for display, without doubling slashes.
    static func join(_ a: String, _ b: String) -> String {
        if a.isEmpty || a == "." { return b }
        return a.hasSuffix("/") ? a + b : a + "/" + b
    }
}

/// Byte order of the UTF-8 encodings (what `a.utf8.lexicographicallyPrecedes(b.utf8)` gives),
/// compared with `memcmp`: the order of listings and summaries, the same on every platform.
/// - Complexity: O(min(a, b) length).
func utf8Precedes(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { pa in
        b.withUTF8 { pb in
            let n = min(pa.count, pb.count)
            if n > 0, let x = pa.baseAddress, let y = pb.baseAddress {
                let c = memcmp(x, y, n)
                if c != 0 { return c < 0 }
            }
            return pa.count < pb.count
        }
    }
}
