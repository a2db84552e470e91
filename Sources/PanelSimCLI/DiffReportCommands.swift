import PanelGolden
import PanelSimCore

/// Reads and parses a result file for `diff` and `report`; the message names the file.
enum ResultFiles {
    static func load(_ path: String, shown: String) -> Result<ResultDocument, Files.ReadFailure> {
        switch Files.read(path, shown: shown) {
        case .failure(let f): return .failure(f)
        case .success(let text):
            do { return .success(try ResultFile.read(text: text, file: shown)) } catch {
                return .failure(Files.ReadFailure(message: error.description))
            }
        }
    }
}

/// `panelsim diff A B [--tolerance CHANNEL=VALUE]…`: compare two result files like `check` does.
struct DiffCommand: PanelCommand {
    static let info = CommandInfo(
        name: "diff",
        abstract: "Compare two result files within tolerances.",
        usage: "panelsim diff A B [--tolerance CHANNEL=VALUE]... [--report OUT [--trace TRACE]] [--color WHEN]",
        arguments: [
            ("A", "The expected result file (e.g. a golden)."),
            ("B", "The actual result file (e.g. from panelsim replay)."),
        ],
        options: [
            OptionSpec(
                names: ["--tolerance"], valueName: "CHANNEL=VALUE",
                help: "Tolerance of a channel (repeatable), as for check.", repeatable: true),
            OptionSpec(
                names: ["--report"], valueName: "OUT",
                help: "Also write an HTML report (A as golden, B as actual)."),
            OptionSpec(
                names: ["--trace"], valueName: "TRACE",
                help: "The trace B was replayed from: the report draws its\nfinger samples, observations and anchors."),
            TerminalColor.option,
        ],
        discussion: """
            Prints the same report as a FAIL of check: each header field that differs (trace,
            model, frameRate, simulator, displayScale: "header differs: ..."), then the records,
            compared whatever the headers say: first divergence (record, frame, time, channel,
            expected vs actual), the first difference in events, states and decisions, records
            that differ, max error per channel and where, context rows and a unified diff of the
            event sequence. In that diff each line is a time (s) and an event: "-" a golden event
            at the golden's time, "+" an actual event at the actual's time, " " an event of both at
            the golden's time, followed by "(actual T)" when the actual's time differs. Header
            differences that do not fail the comparison (trace or parameter digest, engine) are
            printed as notes, first. Records are aligned by time and kind before they are compared
            (frames by number, an omitted frame standing for the one held; events by name and
            time, then by name), so one inserted record does not make the rest differ.

            --report writes the HTML report of check and report (headline, plots, event table);
            with --trace, the trace B was replayed from, it also draws the finger samples, the
            observations and the layout's anchors. Colour: see --color (NO_COLOR is honoured).

            \(HelpFormat.exitCodes([(0, "same within tolerances"), (1, "different"),
                                     (2, "usage error or bad input (unreadable or malformed file, or files of different format versions)")]))
            """)

    var a: String
    var b: String
    var settings: [(ToleranceChannel, Tolerance)]
    var report: String?
    var trace: String?
    var color = TerminalColor.Choice.auto

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 2 else {
            throw UsageError(
                parsed.positionals.count < 2
                    ? "diff needs two result files A and B"
                    : "unexpected argument '\(parsed.positionals[2])'", command: "diff")
        }
        a = parsed.positionals[0]
        b = parsed.positionals[1]
        settings = try CheckCommand.parseTolerances(parsed.repeated["--tolerance"] ?? [], command: "diff")
        report = parsed.values["--report"]
        if report?.isEmpty == true { throw UsageError("empty --report path", command: "diff") }
        trace = parsed.values["--trace"]
        if trace?.isEmpty == true { throw UsageError("empty --trace path", command: "diff") }
        if trace != nil && report == nil {
            throw UsageError("--trace is for the HTML report: give --report OUT too", command: "diff")
        }
        color = try TerminalColor.choice(parsed.values["--color"], command: "diff")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    func run(_ context: CommandContext) -> ExitCode {
        let docs = [(a, context.resolve(a)), (b, context.resolve(b))].map { ResultFiles.load($0.1, shown: $0.0) }
        var loaded: [ResultDocument] = []
        for d in docs {
            switch d {
            case .success(let doc): loaded.append(doc)
            case .failure(let f):
                context.stderr.line("error: \(f.message)")
                return .badInput
            }
        }
        let comparison = Comparator.compare(
            expected: loaded[0], actual: loaded[1],
            tolerances: Tolerances.default.applying(settings))
        let out = ColoredSink(
            context.stdout, TerminalColor.resolve(color, environment: context.environment, stdout: context.stdout))
        if let report {
            var input = HTMLReport.Input(
                title: "\(a) vs \(b)", header: nil, golden: loaded[0],
                actual: loaded[1], comparison: comparison, goldenName: a)
            input.tolerances = Tolerances.default.applying(settings)
            if let trace {
                do {
                    let t = try context.services.load(context.resolve(trace), trace).trace
                    input.trace = t
                    input.header = t.header
                } catch {
                    context.stderr.line("error: \(error.description)")
                    return .badInput
                }
            }
            let html = HTMLReport.render(input)
            do { try AtomicFile.write(html, to: context.resolve(report), shownAs: report) } catch {
                context.stderr.line("error: \(error.description)")
                return .badInput
            }
            context.stderr.line("wrote \(report)")
        }
        switch comparison.status {
        case .incompatible(let v):
            context.stderr.line(
                "error: \(a) is format version \(v), \(b) is version \(loaded[1].header.version); cannot compare")
            return .badInput
        case .passed:
            out.line("SAME \(a) \(b) (within tolerances)")
            for n in comparison.notes { out.line("  note: " + n) }
            return .success
        case .failed:
            out.line("DIFFERENT \(a) \(b)")
            for line in comparison.report(indent: "  ").split(separator: "\n", omittingEmptySubsequences: false) {
                out.line(String(line))
            }
            return .regression
        }
    }
}

/// `panelsim report TRACE [--golden G] [-o OUT]`: one self-contained HTML report of a trace.
struct ReportCommand: PanelCommand {
    static let info = CommandInfo(
        name: "report",
        abstract: "Write an HTML report of one trace against its golden.",
        usage: "panelsim report TRACE [--golden G] [-o OUT] [--tolerance CHANNEL=VALUE]... [--profile LIBRARY@VERSION]",
        arguments: [("TRACE", "Trace file (.jsonl) to replay.")],
        options: [
            ProfileFlag.option,
            OptionSpec(
                names: ["--golden"], valueName: "G",
                help:
                    "Golden result file to overlay. Default: the trace's golden\nby check's rule (traces/X.jsonl -> golden/X.golden.jsonl,\nbeside the nearest traces folder) when it exists; else none."
            ),
            OptionSpec(
                names: ["-o", "--output"], valueName: "OUT",
                help: "Write the HTML to OUT (atomically) instead of standard output."),
            OptionSpec(
                names: ["--tolerance"], valueName: "CHANNEL=VALUE",
                help: "Tolerance of a channel (repeatable), as for check.", repeatable: true),
        ],
        discussion: """
            The report is one HTML file with no external scripts, fonts or styles. It opens with a
            headline: the first record that differs (frame or event), its field, golden and actual
            values rounded to the tolerance, the difference, time and frame, and notes such as
            "trace edited since the golden was blessed"; without a golden, the command that
            records it. Then the surface location over time (and the content offset when the
            trace has a scroll view) as inline SVG: golden and actual overlaid, state strips and
            bands, dashed lines at the layout anchors, finger samples and observations, delegate
            events of both results along the time axis with the differing ones ringed and marked
            on the plot; the residual; zooms at the first difference and at the largest error;
            values on hover; a table of the events of both results aligned by time and name with
            a Δ column; the comparison report as diff prints it. Every chart is drawn for wide and
            narrow windows. Everything that says what differs reads one alignment of the records
            (see panelsim help diff). The same inputs always give the same bytes, the same as
            check --report-dir writes.

            \(HelpFormat.exitCodes([(0, "report written; the result matches the golden (or there is none)"),
                                     (1, "report written; the result differs from the golden"),
                                     HelpFormat.usageOrBadInput, (125, "a trace this revision cannot evaluate")]))
            """)

    var trace: String
    var golden: String?
    var output: String?
    var settings: [(ToleranceChannel, Tolerance)]
    /// `--profile`: the replay's profile for the trace's library.
    var simulation = SimulationOptions()

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard let first = parsed.positionals.first else { throw UsageError("missing TRACE", command: "report") }
        simulation.profiles = try ProfileFlag.profiles(parsed, command: "report")
        guard parsed.positionals.count == 1 else {
            throw UsageError("unexpected argument '\(parsed.positionals[1])'", command: "report")
        }
        trace = first
        golden = parsed.values["--golden"]
        output = parsed.values["-o"]
        settings = try CheckCommand.parseTolerances(parsed.repeated["--tolerance"] ?? [], command: "report")
        if output?.isEmpty == true { throw UsageError("empty output path", command: "report") }
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    func run(_ context: CommandContext) -> ExitCode {
        let loaded: LoadedTraceInfo
        let actual: ResultDocument
        switch ReplayCommand.replay(trace, context, options: simulation) {
        case .success(let r): (loaded, actual) = r
        case .failure(let f): return f.code
        }
        var goldenPath = golden
        if goldenPath == nil {
            let guess = GoldenLocation.golden(ofTrace: trace, workingDirectory: context.workingDirectory)
            if Files.isFile(context.resolve(guess)) { goldenPath = guess }
        }
        var goldenDoc: ResultDocument?
        if let goldenPath {
            switch ResultFiles.load(context.resolve(goldenPath), shown: goldenPath) {
            case .success(let d): goldenDoc = d
            case .failure(let f):
                context.stderr.line("error: \(f.message)")
                return .badInput
            }
        }
        let comparison = goldenDoc.map {
            Comparator.compare(expected: $0, actual: actual, tolerances: Tolerances.default.applying(settings))
        }
        var input = HTMLReport.Input(
            title: trace, header: loaded.trace.header, golden: goldenDoc,
            actual: actual, comparison: comparison, goldenName: goldenPath ?? "golden")
        input.trace = loaded.trace
        if goldenDoc == nil {
            // Where check records it is where report looks (GoldenLocation's one rule).
            input.recordCommand = "panelsim check \(shellQuoted(trace)) --record missing"
        }
        input.tolerances = Tolerances.default.applying(settings)
        let html = HTMLReport.render(input)
        if let output {
            do { try AtomicFile.write(html, to: context.resolve(output), shownAs: output) } catch {
                context.stderr.line("error: \(error.description)")
                return .badInput
            }
            let status: String
            switch comparison?.status {
            case .passed?: status = "matches the golden"
            case .failed?: status = "differs from the golden"
            case .incompatible?: status = "golden of another format version"
            case nil: status = "no golden"
            }
            context.stderr.line("wrote \(output) (\(status))")
        } else {
            context.stdout.write(html)
        }
        return comparison?.status == .failed ? .regression : .success
    }
}

/// `panelsim merge-summaries A.json B.json … [-o OUT] [--junit OUT]`: merge shard summaries.
struct MergeSummariesCommand: PanelCommand {
    static let info = CommandInfo(
        name: "merge-summaries",
        abstract: "Merge check --summary-json files from CI shards.",
        usage: "panelsim merge-summaries SUMMARY... [-o OUT] [--junit OUT]",
        arguments: [("SUMMARY", "Summary files written by check --summary-json.")],
        options: [
            OptionSpec(names: ["-o", "--output"], valueName: "OUT", help: "Write the merged summary JSON to OUT."),
            OptionSpec(names: ["--junit"], valueName: "OUT", help: "Write JUnit XML of the merged summary to OUT."),
        ],
        discussion: """
            Traces are merged in path order (a trace in two summaries is an error), unreferenced
            goldens are united. Prints every FAIL/MISSING/ERROR/SKIP trace's lines, the
            unreferenced goldens and the merged summary line.

            \(HelpFormat.exitCodes([(0, "every trace passed"),
                                     (1, "a trace failed or is missing a golden (as check over the whole corpus)"),
                                     (2, "a trace had an error; or no trace at all; or usage error, an unreadable or malformed summary, or shards that are not exactly 1/N … N/N"),
                                     (125, "a trace was skipped (and none failed or had an error)")]))
            """)

    var inputs: [String]
    var output: String?
    var junit: String?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw UsageError("missing SUMMARY files", command: "merge-summaries") }
        inputs = parsed.positionals
        output = parsed.values["-o"]
        junit = parsed.values["--junit"]
        for (name, value) in [("-o", output), ("--junit", junit)] where value?.isEmpty == true {
            throw UsageError("empty \(name) path", command: "merge-summaries")
        }
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    func run(_ context: CommandContext) -> ExitCode {
        var parts: [CheckSummary] = []
        for input in inputs {
            switch Files.read(context.resolve(input), shown: input) {
            case .failure(let f):
                context.stderr.line("error: \(f.message)")
                return .badInput
            case .success(let text):
                do { parts.append(try CheckSummary.parse(summaryJSON: text, file: input)) } catch {
                    context.stderr.line("error: \(error.description)")
                    return .badInput
                }
            }
        }
        let merged: CheckSummary
        do { merged = try CheckSummary.merge(parts) } catch {
            context.stderr.line("error: \(error.description)")
            return .badInput
        }
        if merged.noTraces { context.stderr.line("error: the summaries hold no trace: nothing was checked") }
        for t in merged.traces where !t.status.countsAsPassed {
            for line in t.lines { context.stdout.line(line) }
        }
        for g in merged.unreferenced {
            context.stdout.line("\(merged.unreferencedFails ? "error" : "warning"): unreferenced golden \(g)")
        }
        context.stdout.line(merged.summaryLine)
        for (path, text) in [(output, merged.summaryJSON()), (junit, merged.junitXML())] {
            guard let path else { continue }
            do { try AtomicFile.write(text, to: context.resolve(path), shownAs: path) } catch {
                context.stderr.line("error: \(error.description)")
                return .badInput
            }
            context.stderr.line("wrote \(path)")
        }
        return merged.exitCode
    }
}
