import Foundation
import PanelGolden
import PanelSimCore

/// `panelsim check [TRACE_DIR] [--golden DIR] [--record MODE] [options]`: replay every trace
/// and compare it with its golden result file. The work is `CheckRunner.run`; this type parses
/// the command line and prints.
struct CheckCommand: PanelCommand {
    static let info = CommandInfo(
        name: "check",
        abstract: "Replay every trace and compare it with its golden result.",
        usage: "panelsim check [TRACE_DIR | TRACE…] [--golden DIR] [--record MODE] [options]",
        arguments: [("TRACE_DIR", "Directory searched recursively for *.jsonl traces (default: traces)."),
                    ("TRACE…", "Or one or more trace files (of one trace folder): check only those.")],
        options: [
            OptionSpec(names: ["--golden"], valueName: "DIR",
                       help: "Directory of golden result files: the golden of\nTRACE_DIR/a/b.jsonl is DIR/a/b.golden.jsonl. Default: the\ngolden folder beside the nearest traces folder, at the\nsame path (Tests/X/traces/SUB -> Tests/X/golden/SUB); for\na folder outside any traces folder, its golden subfolder.\nA DIR that does not exist is a usage error unless\n--record is given; so is a missing default golden folder\nunless --record or $PANELSIM_RECORD is set."),
            OptionSpec(names: ["--record"], valueName: "MODE",
                       help: "When to write goldens: never, missing, failed, all or\npending (write NAME.golden.jsonl.new beside a failing or\nmissing golden, for panelsim review / accept / reject).\nDefault: $PANELSIM_RECORD; else never when $CI is set;\nelse missing."),
            OptionSpec(names: ["--filter"], valueName: "GLOB",
                       help: "Check only traces whose path (relative to TRACE_DIR, or as\nshown) matches GLOB; * also matches /. Repeatable.", repeatable: true),
            OptionSpec(names: ["--quiet", "-q"], valueName: nil,
                       help: "Print only failures, errors, warnings about the run\n(pending or unreferenced goldens, skipped files) and the\nsummary line; passing traces and their replay warnings\nare not printed."),
            TerminalColor.option,
            OptionSpec(names: ["--annotations"], valueName: "FORMAT",
                       help: "github: also print a ::error file=…,line=…:: line per\nfailing trace (GitHub Actions annotations)."),
            OptionSpec(names: ["--tolerance"], valueName: "CHANNEL=VALUE",
                       help: "Tolerance of a channel (repeatable; wins over files):\nlocation, contentOffset, backdropAlpha, velocity, time (or t).\nVALUE is X (absolute), abs:X, rel:Y or abs:X,rel:Y;\ntime is absolute, in seconds.", repeatable: true),
            OptionSpec(names: ["--jobs", "-j"], valueName: "N",
                       help: "Replay N traces in parallel (default 1). Output is\nidentical to --jobs 1."),
            OptionSpec(names: ["--shard"], valueName: "I/N",
                       help: "Check only the traces at sorted positions p with\np mod N = I - 1 (1 <= I <= N), for CI matrices\n(positions among the traces selected by TRACE… or --filter)."),
            OptionSpec(names: ["--report-dir"], valueName: "DIR",
                       help: "Write an HTML report per failing or missing trace:\nTRACE_DIR/a/b.jsonl -> DIR/a/b.html, and DIR/index.html\nlisting the failures first (headline, link)."),
            OptionSpec(names: ["--summary-json"], valueName: "FILE",
                       help: "Write a JSON summary (mergeable with merge-summaries)."),
            OptionSpec(names: ["--junit"], valueName: "FILE",
                       help: "Write a JUnit XML report."),
            OptionSpec(names: ["--unreferenced"], valueName: "POLICY",
                       help: "warn (default), fail (unreferenced goldens make the run\nexit 1) or delete (remove them, naming each)."),
            OptionSpec(names: ["--bisect"], valueName: nil,
                       help: "Exit codes for git bisect run: 0 pass, 1 a trace differs\nfrom its golden, 125 this revision cannot be evaluated\n(no trace or golden folder yet, a trace without a golden,\nan error), 128 a usage error (stops the bisect). Never\nwrites goldens ($PANELSIM_RECORD is ignored)."),
        ] + SimulationFlags.options + [ProfileFlag.option],
        discussion: """
            Traces are replayed in the byte order of their paths relative to TRACE_DIR (files and
            directories starting with "." and files ending in .golden.jsonl are skipped). One line
            per trace:
              PASS path                     matches its golden within tolerances
              FAIL path                     differs; a report follows (header differences,
                                            first divergence, max error per channel, context
                                            rows, event diff: see panelsim help diff)
              NEW path (golden written)     no golden existed; written (counts as passed)
              UPDATED path (golden rewritten)  rewritten by --record failed/all (counts as passed)
              MISSING path (no golden)      no golden and recording is off (counts as failed);
                                            the next line says how to record it
              ERROR path[:line]: <error>    the trace or its golden is malformed or unreadable
              SKIP path[:line]: <reason>    cannot be evaluated at this revision (unsupported
                                            trace feature, or a golden of another format version)
            Goldens that no trace references are listed (as warnings, or as errors with
            --unreferenced fail; with --shard only by shard 1), and so are the temporary files
            (.NAME.tmp-PID-XXXXXXXX) that a killed golden write left in the golden folder:
            removed when their process no longer exists and the record mode writes, else
            reported with how to remove them. Then a summary line:
              <N> passed, <M> failed[, <K> skipped][, <E> errors][, no traces][ (<W> goldens written, <U> rewritten)]

            Tolerances: defaults are location abs 1e-6 pt, contentOffset abs 1e-6 pt,
            backdropAlpha abs 1e-9, velocity abs 1e-9 or rel 1e-6, time exact. A file named
            panelsim.tolerances in a trace folder applies to that folder and below; it holds
            one CHANNEL = VALUE per line (# comments). Files nearer the trace win per channel,
            and --tolerance wins over files. A setting replaces the channel's tolerance whole.
            Events, states and decisions (isDragging, isAttracting, targets, answers) always
            compare exactly and are reported on their own line.

            Record modes: never writes nothing; missing writes goldens that do not exist; failed
            also rewrites goldens that fail or cannot be compared; all rewrites every golden whose
            bytes would change; pending touches no golden and writes the actual result of a
            failing or missing one beside it as NAME.golden.jsonl.new (the trace still fails):
            settle those with panelsim review, accept or reject. A pending file left over is a
            warning and never counts as a golden. A golden whose header names another trace is an
            ERROR that only --record all overwrites. Writes are atomic (temporary file, then rename).

            With TRACE… (files), only those traces are checked (unreferenced goldens are not
            listed), against the same goldens as their folder (Tests/X/traces/a/b.jsonl ->
            Tests/X/golden/a/b.golden.jsonl) unless --golden is given. The rule is the same for
            review, accept, reject, report and assertPanelTrace (README, "Where goldens are").

            Exit status: 1 if any trace FAILed or is MISSING (or a golden is unreferenced under
            --unreferenced fail); otherwise 2 if any ERROR, or if there was no trace to check
            (an empty folder, or --filter matching none; an empty --shard of a non-empty
            selection is only a warning); otherwise 125 if any SKIP; otherwise 0. A regression wins over bad input, so that `git bisect
            run` treats a commit with a real regression as bad even if some trace is malformed.
            With --bisect: 0, 1 (a FAIL), 125 (anything else that is not a pass, or no trace or
            golden folder at this revision), 128 (usage error), for git bisect run.

            \(HelpFormat.exitCodes)
            """)

    var traceDirectory: String
    var goldenDirectory: String
    /// True when `--golden` was not given: a subfolder of `traces` then checks against the same
    /// subfolder of `golden` (see `validate`).
    var goldenIsDefault = true
    var recordFlag: String?
    /// Resolved by `validate`.
    var mode: RecordMode = .never
    var toleranceSettings: [(ToleranceChannel, Tolerance)] = []
    var jobs = 1
    var shard: (index: Int, count: Int)?
    var reportDirectory: String?
    var summaryJSON: String?
    var junit: String?
    var unreferencedFails = false
    var deletesUnreferenced = false
    var simulation = SimulationOptions()
    /// `check FILE…`: the files as given (resolved to a trace folder and selection by `validate`).
    var traceFiles: [String] = []
    var selection: [String]?
    var filters: [String] = []
    var quiet = false
    var githubAnnotations = false
    /// `--bisect`: exit codes for `git bisect run` (see `BisectExit`).
    var bisect = false
    /// With `--bisect`: why this revision cannot be evaluated (no trace folder, no golden
    /// folder yet); `run` then exits 125 without checking.
    var unevaluable: String?
    var color = TerminalColor.Choice.auto

    init(_ parsed: ParsedArguments) throws(UsageError) {
        if parsed.positionals.contains(where: \.isEmpty) { throw UsageError("empty trace directory", command: "check") }
        if parsed.positionals.count > 1 { traceFiles = parsed.positionals }
        traceDirectory = parsed.positionals.first ?? "traces"
        if traceDirectory.isEmpty { throw UsageError("empty trace directory", command: "check") }
        // Shown as given, without trailing slashes ("traces/flicks/" lists traces/flicks/a.jsonl).
        while traceDirectory.count > 1, traceDirectory.hasSuffix("/") { traceDirectory.removeLast() }
        simulation = SimulationFlags.options(parsed)
        simulation.profiles = try ProfileFlag.profiles(parsed, command: "check")
        goldenDirectory = parsed.values["--golden"] ?? "golden"
        goldenIsDefault = parsed.values["--golden"] == nil
        recordFlag = parsed.values["--record"]
        toleranceSettings = try CheckCommand.parseTolerances(parsed.repeated["--tolerance"] ?? [], command: "check")
        if let j = parsed.values["--jobs"] {
            guard let n = Int(j), n >= 1, n <= 1024 else {
                throw UsageError("--jobs must be a whole number from 1 to 1024, got '\(j)'", command: "check")
            }
            jobs = n
        }
        if let s = parsed.values["--shard"] {
            let parts = s.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else {
                throw UsageError("--shard must be I/N with 1 <= I <= N, got '\(s)'", command: "check")
            }
            shard = (i, n)
        }
        for (name, value) in [("--report-dir", parsed.values["--report-dir"]), ("--summary-json", parsed.values["--summary-json"]),
                              ("--junit", parsed.values["--junit"])] where value?.isEmpty == true {
            throw UsageError("empty \(name) path", command: "check")
        }
        reportDirectory = parsed.values["--report-dir"]
        summaryJSON = parsed.values["--summary-json"]
        junit = parsed.values["--junit"]
        switch parsed.values["--unreferenced"] {
        case nil, "warn"?: unreferencedFails = false
        case "fail"?: unreferencedFails = true
        case "delete"?: deletesUnreferenced = true
        case let other?: throw UsageError("--unreferenced must be warn, fail or delete, got '\(other)'", command: "check")
        }
        filters = parsed.repeated["--filter"] ?? []
        if filters.contains(where: \.isEmpty) { throw UsageError("empty --filter pattern", command: "check") }
        quiet = parsed.flags.contains("--quiet")
        color = try TerminalColor.choice(parsed.values["--color"], command: "check")
        bisect = parsed.flags.contains("--bisect")
        if bisect, let flag = recordFlag, flag != RecordMode.never.rawValue {
            throw UsageError("--bisect never writes goldens: leave --record out (or give --record never), got '\(flag)'", command: "check")
        }
        switch parsed.values["--annotations"] {
        case nil: break
        case "github"?: githubAnnotations = true
        case let other?: throw UsageError("--annotations must be github, got '\(other)'", command: "check")
        }
    }

    /// Whether two paths name the same folder (links resolved).
    static func sameFolder(_ a: String, _ b: String, _ context: CommandContext) -> Bool {
        func standardized(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
        return standardized(context.resolve(a)) == standardized(context.resolve(b))
    }

    /// Parses `--tolerance` values in order.
    static func parseTolerances(_ values: [String], command: String) throws(UsageError) -> [(ToleranceChannel, Tolerance)] {
        var settings: [(ToleranceChannel, Tolerance)] = []
        for v in values {
            do { settings.append(try ToleranceSettings.parse(v)) } catch { throw UsageError(error.description, command: command) }
        }
        return settings
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        let recordingAsked: Bool
        if bisect {
            // A bisect step only reads: PANELSIM_RECORD (set for other work) is not consulted.
            mode = .never
            recordingAsked = false
            if let reason = BisectExit.unevaluable(traceDirectory: traceDirectory, files: traceFiles, golden: goldenIsDefault ? nil : goldenDirectory,
                                                   context) {
                unevaluable = reason
                return
            }
        } else {
            do {
                let resolution = try RecordMode.resolution(flag: recordFlag, environment: context.environment)
                mode = resolution.mode
                recordingAsked = resolution.source == .flag || resolution.source == .environment
            } catch {
                throw UsageError(error.description, command: "check")
            }
        }
        if traceFiles.isEmpty && Files.isFile(context.resolve(traceDirectory)) { traceFiles = [traceDirectory] }
        // Where the goldens are: GoldenLocation's rule (the golden folder beside the nearest
        // traces folder), unless --golden says otherwise.
        let placement: GoldenLocation.Placement
        if !traceFiles.isEmpty {
            // `check FILE…`: every file must exist, and all must share one trace root.
            var first: GoldenLocation.Placement?
            var rels: [String] = []
            for file in traceFiles {
                guard Files.isFile(context.resolve(file)) else {
                    let what = Files.isDirectory(context.resolve(file)) ? "is a directory (give one directory, or trace files)" : "does not exist"
                    throw UsageError("trace '\(file)' \(what)", command: "check")
                }
                let p = GoldenLocation.place(file: file, workingDirectory: context.workingDirectory)
                if let first, context.resolve(first.traceRoot) != context.resolve(p.traceRoot) {
                    throw UsageError("the traces are in different trace folders ('\(first.traceRoot)' and '\(p.traceRoot)'); check one folder at a time", command: "check")
                }
                if first == nil { first = p }
                if !rels.contains(p.below) { rels.append(p.below) }
            }
            placement = first!
            traceDirectory = placement.traceRoot
            selection = rels.sorted(by: utf8Precedes)
        } else {
            guard Files.isDirectory(context.resolve(traceDirectory)) else {
                throw UsageError("trace directory '\(traceDirectory)' does not exist or is not a directory"
                                 + CheckCommand.testTargetHint(traceDirectory, context), command: "check")
            }
            placement = GoldenLocation.place(folder: traceDirectory, workingDirectory: context.workingDirectory)
        }
        guard Files.isDirectory(context.resolve(traceDirectory)) else {
            throw UsageError("trace directory '\(traceDirectory)' does not exist or is not a directory", command: "check")
        }
        if goldenIsDefault {
            goldenDirectory = traceFiles.isEmpty ? placement.goldenFolder : placement.goldenRoot
            if !recordingAsked && !Files.isDirectory(context.resolve(placement.goldenRoot)) && !Files.isFile(context.resolve(placement.goldenRoot)) {
                // No accidental blessing with the default folder either: run from the wrong
                // folder (or in a new project), `missing` would create it and record every trace
                // as its own golden. Only the root is required; a new subfolder of traces/ still
                // records into golden/ (`check traces/new`).
                throw UsageError("golden directory '\(placement.goldenRoot)' does not exist, so every trace would be recorded as its own golden; "
                                 + "check from the folder that holds traces/ and golden/, or record the goldens with --record missing "
                                 + "(or PANELSIM_RECORD=missing)", command: "check")
            }
        } else if recordFlag == nil && !goldenDirectory.isEmpty {
            // No accidental blessing: a mistyped --golden would otherwise get a whole new tree.
            if !Files.isDirectory(context.resolve(goldenDirectory)) && !Files.isFile(context.resolve(goldenDirectory)) {
                throw UsageError("golden directory '\(goldenDirectory)' does not exist (give --record MODE to record goldens into a new folder)", command: "check")
            }
            if traceFiles.isEmpty, placement.inTracesFolder, !placement.below.isEmpty,
               CheckCommand.sameFolder(goldenDirectory, placement.goldenRoot, context) {
                throw UsageError("'\(traceDirectory)' is checked against '\(goldenDirectory)', but its goldens are in '\(placement.goldenFolder)' "
                                 + "(paths are relative to the trace folder): leave --golden out, or give --record MODE to write there anyway", command: "check")
            }
        }
        if goldenDirectory.isEmpty { throw UsageError("empty --golden directory", command: "check") }
        let goldenRoot = context.resolve(goldenDirectory)
        if Files.isFile(goldenRoot) {
            throw UsageError("golden directory '\(goldenDirectory)' is a file", command: "check")
        }
    }

    /// For the default `traces` missing at a package's root: the trace folders of its test
    /// targets (`Tests/*/traces`, in byte order), as `; the package's test targets have …: panelsim
    /// check Tests/X/traces`; "" otherwise.
    static func testTargetHint(_ traceDirectory: String, _ context: CommandContext) -> String {
        guard traceDirectory == GoldenLocation.tracesFolderName,
              let targets = try? FileManager.default.contentsOfDirectory(atPath: context.resolve("Tests")) else { return "" }
        let found = targets.filter { !$0.hasPrefix(".") }.sorted(by: utf8Precedes)
            .map { "Tests/\($0)/\(GoldenLocation.tracesFolderName)" }.filter { Files.isDirectory(context.resolve($0)) }
        guard let first = found.first else { return "" }
        return "; the package's test targets have trace folders (\(found.joined(separator: ", "))): panelsim check \(shellQuoted(first))"
    }

    func run(_ context: CommandContext) -> ExitCode {
        let out = ColoredSink(context.stdout, TerminalColor.resolve(color, environment: context.environment, stdout: context.stdout))
        if let unevaluable {
            out.line("SKIP this revision: \(unevaluable) (check --bisect exits 125: git bisect skips it)")
            return .unsupported
        }
        var options = CheckRunner.Options()
        options.mode = mode
        options.tolerances = toleranceSettings
        options.shard = shard
        options.reportDirectory = reportDirectory.map(context.resolve)
        options.reportDisplay = reportDirectory
        options.unreferencedFails = unreferencedFails
        options.deletesUnreferenced = deletesUnreferenced
        options.selection = selection
        options.filters = filters
        options.simulation = simulation
        options.streamingThreshold = TraceServices.streamingThreshold(context.environment)
        options.traceDisplay = traceDirectory
        options.goldenDisplay = goldenDirectory
        let summary = CheckRunner.run(traceRoot: context.resolve(traceDirectory), goldenRoot: context.resolve(goldenDirectory),
                                      jobs: jobs, options: options, services: context.services) { [quiet] outcome in
            if quiet && outcome.status.countsAsPassed {
                // A passing trace is silent; the replay's own warnings (which a passing golden
                // already records) too. A pending golden left over is still named.
                let warnings = outcome.lines.dropFirst().filter { $0.hasPrefix("  warning: pending golden") }
                if !warnings.isEmpty { for line in [outcome.lines[0]] + warnings { out.line(line) } }
                return
            }
            for line in outcome.lines { out.line(line) }
        }
        if let refusal = summary.refusal {
            context.stderr.line("error: " + refusal)
        } else if summary.noTraces {
            // Checking nothing is an error (exit 2 via the summary), not a pass.
            context.stderr.line("error: no *.jsonl traces under \(traceDirectory)"
                                + (filters.isEmpty ? "" : " match --filter " + filters.joined(separator: ", ")) + ": nothing was checked")
        } else if summary.traces.isEmpty, let shard {
            out.line("warning: no traces in shard \(shard.index)/\(shard.count) (fewer traces than shards)")
        }
        for entry in summary.unlisted { out.line("warning: skipped \(entry)") }
        if !summary.traces.isEmpty {
            for w in ProfileFlag.unusedWarnings(simulation.profiles, models: Set(summary.traces.compactMap(\.model))) { out.line(w) }
        }
        for temporary in summary.temporaries where !(quiet && temporary.disposition == .removed) { out.line(temporary.line) }
        func traceOf(_ golden: String) -> String {
            let rel = String(golden.dropFirst(Files.join(goldenDirectory, "").count))
            return Files.join(traceDirectory, String(rel.dropLast(".golden.jsonl".count)) + ".jsonl")
        }
        for golden in summary.deleted { out.line("deleted unreferenced golden \(golden) (no trace \(traceOf(golden)))") }
        for golden in summary.unreferenced {
            out.line("\(unreferencedFails ? "error" : "warning"): unreferenced golden \(golden) (no trace \(traceOf(golden)))")
        }
        if githubAnnotations {
            for line in summary.githubAnnotations() { out.line(line) }
        }
        var code = bisect ? BisectExit.code(summary) : summary.exitCode
        // Each report is built only when asked for (the JUnit one escapes every trace's lines).
        // They are written before the summary line, so that the line names a failed write too.
        var unwritten: [String] = []
        let reports: [(String?, () -> String)] = [(summaryJSON, { summary.summaryJSON() }), (junit, { summary.junitXML() })]
        for (path, render) in reports {
            guard let path else { continue }
            do {
                try AtomicFile.write(render(), to: context.resolve(path), shownAs: path)
                if !quiet { context.stderr.line("wrote \(path)") }
            } catch {
                context.stderr.line("error: \(error.description)")
                unwritten.append(path)
                if bisect { code = BisectExit.stop } else if code == .success || code == .unsupported { code = .badInput }
            }
        }
        if let reportDirectory, !summary.noTraces {
            out.line(CheckReportIndex.write(summary, directory: context.resolve(reportDirectory), shown: reportDirectory,
                                            title: "panelsim check " + traceDirectory))
        }
        out.line(summary.summaryLine + (unwritten.isEmpty ? "" : "; not written: " + unwritten.joined(separator: ", ")))
        return code
    }
}
