import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PanelGolden
import PanelSimCore

/// Pending goldens (`NAME.golden.jsonl.new`, written by `check --record pending`) and what
/// `review`, `accept` and `reject` do with them.
enum PendingGoldens {
    /// One pending golden: its path and its golden's, as shown and resolved.
    struct Item: Equatable {
        var pendingShown: String
        var pendingPath: String
        var goldenShown: String { String(pendingShown.dropLast(RecordMode.pendingSuffix.count)) }
        var goldenPath: String { String(pendingPath.dropLast(RecordMode.pendingSuffix.count)) }
    }

    /// The pending goldens the arguments name: a pending file; a golden or a trace (its pending
    /// golden, found by `GoldenLocation`'s rule for a trace); a folder (every
    /// `*.golden.jsonl.new` under it, in byte order; for a folder of traces, under its golden
    /// folder). No argument: every pending golden under the working directory (hidden folders
    /// such as `.build` and `.git` skipped), so that the command works from a package's root as
    /// from the folder of its tests.
    /// - Throws: `UsageError` for a file that names no pending golden.
    static func find(_ arguments: [String], _ context: CommandContext, command: String) throws(UsageError) -> [Item] {
        var items: [Item] = []
        func search(_ folder: String) {
            let path = context.resolve(folder)
            for rel in Files.list(under: path, suffix: ".golden.jsonl" + RecordMode.pendingSuffix) {
                items.append(Item(pendingShown: Files.join(folder, rel), pendingPath: path + "/" + rel))
            }
        }
        if arguments.isEmpty { search(".") }
        for argument in arguments {
            if Files.isDirectory(context.resolve(argument)) {
                let placement = GoldenLocation.place(folder: argument, workingDirectory: context.workingDirectory)
                // A folder of traces: its pending goldens are in its golden folder.
                search(placement.inTracesFolder ? placement.goldenFolder : argument)
                continue
            }
            var pending = argument
            if argument.hasSuffix(".golden.jsonl") {
                pending = argument + RecordMode.pendingSuffix
            } else if argument.hasSuffix(".jsonl") {
                pending = GoldenLocation.golden(ofTrace: argument, workingDirectory: context.workingDirectory) + RecordMode.pendingSuffix
            }
            guard pending.hasSuffix(RecordMode.pendingSuffix), Files.isFile(context.resolve(pending)) else {
                throw UsageError("no pending golden \(pending == argument ? "'\(argument)'" : "'\(pending)' for '\(argument)'") (check --record pending writes them)", command: command)
            }
            items.append(Item(pendingShown: pending, pendingPath: context.resolve(pending)))
        }
        var seen = Set<String>()
        return items.filter { seen.insert($0.pendingPath).inserted }
    }

    /// Moves the pending golden over its golden (a rename: atomic).
    ///
    /// The pending file is parsed first, whole, exactly as `review` reads it (`ResultFiles.load`):
    /// a file that is not a complete result file (cut off, header only, not UTF-8) is refused and
    /// neither file is touched.
    /// - Returns: the line to print, or the failure: the parse error (file, line, field) or the
    ///   system's reason the rename failed.
    static func accept(_ item: Item) -> Result<String, Files.ReadFailure> {
        if case .failure(let f) = ResultFiles.load(item.pendingPath, shown: item.pendingShown) {
            return .failure(Files.ReadFailure(message: "\(f.message) (not accepted; \(item.goldenShown) unchanged)"))
        }
        return move(item)
    }

    /// The rename of `accept`, for a pending file already parsed (`review`). Returns the line to print.
    static func move(_ item: Item) -> Result<String, Files.ReadFailure> {
        let existed = Files.isFile(item.goldenPath)
        guard rename(item.pendingPath, item.goldenPath) == 0 else {
            return .failure(Files.ReadFailure(message: "cannot move \(item.pendingShown) to \(item.goldenShown): \(String(cString: strerror(errno)))"))
        }
        return .success("accepted \(item.goldenShown) (\(existed ? "rewritten" : "new golden") from \(item.pendingShown))")
    }

    /// Removes the pending golden. Returns the line to print.
    static func reject(_ item: Item) -> Result<String, Files.ReadFailure> {
        guard unlink(item.pendingPath) == 0 else {
            return .failure(Files.ReadFailure(message: "cannot remove \(item.pendingShown): \(String(cString: strerror(errno)))"))
        }
        return .success("rejected \(item.pendingShown) (removed; \(item.goldenShown) unchanged)")
    }

    /// The trace of a golden in the default layout (`golden/a/b.golden.jsonl` →
    /// `traces/a/b.jsonl`), nil when the path has no `golden` folder.
    static func tracePath(forGolden golden: String) -> String? {
        var parts = golden.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard golden.hasSuffix(".golden.jsonl"), let i = parts.dropLast().lastIndex(of: "golden") else { return nil }
        parts[i] = "traces"
        return String(parts.joined(separator: "/").dropLast(".golden.jsonl".count)) + ".jsonl"
    }
}

/// `panelsim accept [PATH…]` and `panelsim reject [PATH…]`: settle pending goldens without prompts.
protocol PendingCommand: PanelCommand {
    static var accepts: Bool { get }
    var paths: [String] { get }
}

extension PendingCommand {
    static func makeInfo(_ name: String, _ abstract: String, _ what: String) -> CommandInfo {
        CommandInfo(
            name: name, abstract: abstract,
            usage: "panelsim \(name) [PATH...]",
            arguments: [("PATH", "A pending golden (NAME.golden.jsonl.new), its golden, its trace\n(traces/X.jsonl -> golden/X.golden.jsonl.new), or a folder\nsearched for pending goldens (a traces folder: its golden\nfolder). Default: every pending golden under the\ncurrent folder.")],
            options: [],
            discussion: """
                \(what) Prints one line per file.

                \(HelpFormat.exitCodes([(0, "done (also when nothing was pending)"),
                                         (2, "usage error: a PATH names no pending golden; a pending golden is malformed (accept); or a file could not be moved or removed")]))
                """)
    }

    func run(_ context: CommandContext) -> ExitCode {
        let items: [PendingGoldens.Item]
        do { items = try PendingGoldens.find(paths, context, command: Self.info.name) } catch {
            context.stderr.line("error: \(error.message)"); return .badInput
        }
        if items.isEmpty {
            context.stdout.line("no pending goldens under \(paths.isEmpty ? "." : paths.joined(separator: " "))")
            return .success
        }
        var code = ExitCode.success
        for item in items {
            switch Self.accepts ? PendingGoldens.accept(item) : PendingGoldens.reject(item) {
            case .success(let line): context.stdout.line(line)
            case .failure(let f): context.stderr.line("error: \(f.message)"); code = .badInput
            }
        }
        return code
    }
}

struct AcceptCommand: PendingCommand {
    static let accepts = true
    static let info = makeInfo("accept", "Accept pending goldens (check --record pending).",
                               """
                               Moves each pending golden over its golden (a rename, atomic), after
                               reading it whole as review does: a pending file that is not a
                               complete result file (cut off, header only) is refused with its
                               file, line and field, and it and its golden stay as they were; the
                               other pending goldens are still accepted.
                               """)
    var paths: [String]
    init(_ parsed: ParsedArguments) throws(UsageError) { paths = parsed.positionals }
    mutating func validate(_ context: CommandContext) throws(UsageError) {}
}

struct RejectCommand: PendingCommand {
    static let accepts = false
    static let info = makeInfo("reject", "Reject pending goldens (check --record pending).",
                               "Removes each pending golden; its golden is unchanged.")
    var paths: [String]
    init(_ parsed: ParsedArguments) throws(UsageError) { paths = parsed.positionals }
    mutating func validate(_ context: CommandContext) throws(UsageError) {}
}

/// `panelsim review [PATH…] [--accept-all | --reject-all] [--report-dir DIR]`: walk the pending
/// goldens, show each one's comparison with its golden and an HTML report, and accept, reject
/// or skip it with one key.
struct ReviewCommand: PanelCommand {
    static let info = CommandInfo(
        name: "review",
        abstract: "Review pending goldens one by one: accept, reject or skip.",
        usage: "panelsim review [PATH...] [--accept-all | --reject-all] [--report-dir DIR]",
        arguments: [("PATH", "Pending goldens, goldens, traces or folders, as for accept.\nDefault: every pending golden under the current folder.")],
        options: [
            OptionSpec(names: ["--accept-all"], valueName: nil, help: "Accept every pending golden without asking."),
            OptionSpec(names: ["--reject-all"], valueName: nil, help: "Reject every pending golden without asking."),
            OptionSpec(names: ["--report-dir"], valueName: "DIR",
                       help: "Where the HTML reports go (default: a new folder\npanelsim-review-XXXXXX in the system's temporary folder,\nprinted first)."),
        ],
        discussion: """
            For each pending golden (NAME.golden.jsonl.new, written by check --record pending):
            the comparison with its golden as check prints it (or "new golden"), the path of an
            HTML report (the golden's trace is replayed for anchors when it is found in the
            default layout), then a prompt: a accept (move it over the golden), r reject (remove
            it), s skip (leave it), q quit. In a terminal one key answers; otherwise a line is
            read, and the end of input skips the rest.

            \(HelpFormat.exitCodes([(0, "done"), (2, "usage error, or a file could not be read, moved or removed")]))
            """)

    var paths: [String]
    var acceptAll: Bool
    var rejectAll: Bool
    var reportDirectory: String?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        paths = parsed.positionals
        acceptAll = parsed.flags.contains("--accept-all")
        rejectAll = parsed.flags.contains("--reject-all")
        if acceptAll && rejectAll { throw UsageError("--accept-all and --reject-all exclude each other", command: "review") }
        reportDirectory = parsed.values["--report-dir"]
        if reportDirectory?.isEmpty == true { throw UsageError("empty --report-dir path", command: "review") }
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    /// A folder of its own for one review's reports, `panelsim-review-XXXXXX` in the system's
    /// temporary folder (`mkdtemp`: created new, mode 0700, so that two reviews, or two users,
    /// never write into one another's reports); nil when it cannot be created.
    static func newReportFolder() -> String? {
        let temporary = NSTemporaryDirectory()
        var template = Array(((temporary.hasSuffix("/") ? temporary : temporary + "/") + "panelsim-review-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let out = context.stdout
        let items: [PendingGoldens.Item]
        do { items = try PendingGoldens.find(paths, context, command: "review") } catch {
            context.stderr.line("error: \(error.message)"); return .badInput
        }
        if items.isEmpty {
            out.line("no pending goldens under \(paths.isEmpty ? "." : paths.joined(separator: " "))")
            return .success
        }
        let reportRoot: String
        if let reportDirectory {
            reportRoot = context.resolve(reportDirectory)
        } else if let folder = Self.newReportFolder() {
            reportRoot = folder
            out.line("reports: \(folder) (a new folder for this review)")
        } else {
            context.stderr.line("error: cannot create a report folder in \(NSTemporaryDirectory()) (give --report-dir DIR)")
            return .badInput
        }
        var code = ExitCode.success
        var accepted = 0, rejected = 0, skipped = 0
        loop: for (n, item) in items.enumerated() {
            out.line("[\(n + 1)/\(items.count)] \(item.pendingShown)")
            let pendingDoc: ResultDocument
            switch ResultFiles.load(item.pendingPath, shown: item.pendingShown) {
            case .success(let d): pendingDoc = d
            case .failure(let f): context.stderr.line("error: \(f.message)"); code = .badInput; continue
            }
            var goldenDoc: ResultDocument?, comparison: Comparison?
            if Files.isFile(item.goldenPath), case .success(let g) = ResultFiles.load(item.goldenPath, shown: item.goldenShown) {
                goldenDoc = g
                let c = Comparator.compare(expected: g, actual: pendingDoc)
                comparison = c
                out.line(c.passed ? "  matches \(item.goldenShown) within the default tolerances" : "  differs from \(item.goldenShown):")
                if !c.passed { out.line(c.report(indent: "    ")) }
            } else {
                out.line("  new golden (\(item.goldenShown) does not exist or cannot be read): \(pendingDoc.records.count) records")
            }
            var header: TraceHeader?, replayed: Trace?
            if let trace = PendingGoldens.tracePath(forGolden: item.goldenShown),
               let loaded = try? context.services.load(context.resolve(trace), trace) {
                header = loaded.trace.header; replayed = loaded.trace
            }
            let rel = item.goldenShown.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".golden.jsonl", with: "") + ".html"
            let reportPath = reportRoot + "/" + rel
            var input = HTMLReport.Input(title: item.pendingShown, header: header, golden: goldenDoc,
                                         actual: pendingDoc, comparison: comparison, goldenName: item.goldenShown)
            input.trace = replayed
            let html = HTMLReport.render(input)
            do {
                try AtomicFile.write(html, to: reportPath)
                out.line("  report: \(reportPath)")
            } catch {
                out.line("  warning: \(error.description)")
            }
            var answer: Character
            if acceptAll { answer = "a" } else if rejectAll { answer = "r" } else {
                out.write("  accept (a), reject (r), skip (s), quit (q)? ")
                guard let key = Terminal.readKey() else { out.line(""); answer = "q"; break loop }
                answer = key
                out.line(String(key))
            }
            switch answer {
            case "a", "A", "y":
                switch PendingGoldens.move(item) {   // parsed above
                case .success(let line): out.line("  " + line); accepted += 1
                case .failure(let f): context.stderr.line("error: \(f.message)"); code = .badInput
                }
            case "r", "R", "n":
                switch PendingGoldens.reject(item) {
                case .success(let line): out.line("  " + line); rejected += 1
                case .failure(let f): context.stderr.line("error: \(f.message)"); code = .badInput
                }
            case "q", "Q":
                break loop
            default:
                out.line("  skipped"); skipped += 1
            }
        }
        let left = items.count - accepted - rejected
        out.line("\(accepted) accepted, \(rejected) rejected, \(left) pending")
        return code
    }
}

/// One-key input from standard input: raw mode in a terminal, else the first character of a line.
enum Terminal {
    /// The key read, nil at the end of input.
    static func readKey() -> Character? {
        if isatty(0) == 1 {
            var saved = termios()
            tcgetattr(0, &saved)
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(0, TCSANOW, &raw)
            defer { tcsetattr(0, TCSANOW, &saved) }
            var byte: UInt8 = 0
            return read(0, &byte, 1) == 1 ? Character(Unicode.Scalar(byte)) : nil
        }
        guard let line = readLine() else { return nil }
        return line.trimmingCharacters(in: .whitespaces).first ?? "s"
    }
}
