import Foundation
import PanelGolden
import PanelSimCore
import PanelTrace

/// `panelsim sweep TRACE… --param NAME=A...B:STEPS… [-o FILE.csv] [--svg FILE.svg] [--plot METRIC]`:
/// replay traces over a parameter grid and write one CSV row per point.
struct SweepCommand: PanelCommand {
    static let info = CommandInfo(
        name: "sweep",
        abstract: "Replay traces over a parameter grid and write CSV.",
        usage:
            "panelsim sweep TRACE... --param NAME=A...B[:STEPS]... [-o FILE.csv] [--svg FILE.svg] [--plot METRIC] [--jobs N] [--settle-tolerance PT] [--profile LIBRARY@VERSION]...",
        arguments: [("TRACE...", "Trace files (.jsonl); observed samples are optional.")],
        options: [
            ProfileFlag.option,
            OptionSpec(
                names: ["--param"], valueName: "NAME=A...B[:STEPS]",
                help:
                    "A parameter and its grid (repeatable; STEPS default 5;\nNAME=V for one value): \(TuneCLI.parameterNames).",
                repeatable: true),
            OptionSpec(
                names: ["-o", "--output"], valueName: "FILE.csv",
                help: "Write the CSV to FILE (atomically) instead of standard output."),
            OptionSpec(
                names: ["--svg"], valueName: "FILE.svg",
                help: "Also write a line chart of METRIC over the first --param,\none line per value of the others."),
            OptionSpec(
                names: ["--plot"], valueName: "METRIC",
                help:
                    "rms, settleTime or overshoot (default rms when a trace\nhas observed locations, else settleTime)."),
            TuneCLI.jobsOption,
            TuneCLI.toleranceOption,
        ],
        discussion: """
            Rows: every combination of the grids, the first --param varying slowest. Columns: the
            parameters; rms and max, the location error (pt) over all observed locations (empty
            without any); then per trace (NAME = the header's name): NAME.settleTime, the time
            (s) from which the replay stays within the settle tolerance of its final location;
            NAME.overshoot, the largest excursion (pt) past the anchor an attraction ends at;
            NAME.finalState; NAME.rms, that trace's location error. The chart plots rms over all
            traces, or the settle time or overshoot of the first trace. Replays run on --jobs
            threads; the output does not depend on it.

            \(HelpFormat.exitCodes([(0, "table written"), HelpFormat.usageOrBadInput, HelpFormat.otherVersion]))
            """)

    enum Metric: String { case rms, settleTime, overshoot }

    var paths: [String]
    var ranges: [ParameterRange] = []
    var output: String?
    var svg: String?
    var metric: Metric?
    var jobs = 1
    var tolerance = Fidelity.defaultSettleTolerance
    let parsed: ParsedArguments

    /// `--profile` values: the profile each trace of their library is replayed as.
    var profiles: [TraceProfile] = []

    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.parsed = parsed
        guard !parsed.positionals.isEmpty else { throw UsageError("missing TRACE", command: "sweep") }
        paths = parsed.positionals
        output = parsed.values["-o"]
        svg = parsed.values["--svg"]
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        profiles = try ProfileFlag.profiles(parsed, command: "sweep")
        ranges = try TuneCLI.ranges(parsed, command: "sweep")
        guard !ranges.isEmpty else { throw UsageError("missing --param NAME=A...B:STEPS", command: "sweep") }
        if let text = parsed.values["--plot"] {
            guard let m = Metric(rawValue: text) else {
                throw UsageError("--plot must be rms, settleTime or overshoot, got '\(text)'", command: "sweep")
            }
            metric = m
        }
        jobs = try TuneCLI.jobs(parsed, command: "sweep")
        tolerance = try TuneCLI.tolerance(parsed, command: "sweep")
        if let output, output.isEmpty { throw UsageError("empty output path", command: "sweep") }
        if let svg, svg.isEmpty { throw UsageError("empty SVG path", command: "sweep") }
    }

    /// The grid points, the first range varying slowest.
    var points: [[Double]] {
        var points: [[Double]] = [[]]
        for r in ranges {
            let axis = r.grid(steps: r.lower == r.upper ? 1 : (r.steps ?? 5))
            points = points.flatMap { p in axis.map { p + [$0] } }
        }
        return points
    }

    func run(_ context: CommandContext) -> ExitCode {
        let loaded: [LoadedTraceInfo]
        switch TuneCLI.load(paths, context, parameters: ranges.map(\.parameter), command: "sweep", profiles: profiles) {
        case .success(let l): loaded = l
        case .failure(let e): return e.code
        }
        let traces = loaded.map(\.trace)
        let problem = TuningProblem(
            traces: traces, parameters: ranges.map(\.parameter), settleTolerance: tolerance, jobs: jobs)
        let points = self.points
        let progress = TerminalProgress(context)
        var rows: [[TuningProblem.Evaluation]] = []
        let batch = max(jobs * 4, 16)
        while rows.count < points.count {
            let end = min(points.count, rows.count + batch)
            rows += problem.evaluate(Array(points[rows.count..<end]))
            progress.update("sweep", done: rows.count, total: points.count)
        }
        progress.finish()

        var names: [String] = []
        for t in traces {
            var name = t.header.name.isEmpty ? "trace" : t.header.name
            if names.contains(name) { name += "#\(names.count + 1)" }
            names.append(name)
        }
        var csv =
            (ranges.map(\.parameter.rawValue) + ["rms", "max"]
            + names.flatMap { ["\($0).settleTime", "\($0).overshoot", "\($0).finalState", "\($0).rms"] })
            .map(Self.csvField).joined(separator: ",") + "\n"
        for (point, row) in zip(points, rows) {
            let pooled = Fidelity.pooled(row.map(\.metrics)).location
            var fields = point.map(CanonicalNumber.format)
            fields.append(pooled.rms.map(CanonicalNumber.format) ?? "")
            fields.append(pooled.count > 0 ? CanonicalNumber.format(pooled.maximum) : "")
            for e in row {
                fields.append(e.metrics.simulatedSettleTime.map { String(format: "%.6f", $0) } ?? "")
                fields.append(CanonicalNumber.format(e.overshoot))
                fields.append(Self.csvField(e.metrics.simulatedFinalState ?? ""))
                fields.append(e.metrics.location.rms.map(CanonicalNumber.format) ?? "")
            }
            csv += fields.joined(separator: ",") + "\n"
        }
        if let output {
            do { try AtomicFile.write(csv, to: context.resolve(output), shownAs: output) } catch {
                context.stderr.line("error: \(error.description)")
                return .badInput
            }
            context.stderr.line("wrote \(output) (\(rows.count) rows)")
        } else {
            context.stdout.write(csv)
        }
        if let svg {
            let observed = traces.contains(where: Fidelity.hasObservedLocations)
            let chart = self.chart(
                points: points, rows: rows, metric: metric ?? (observed ? .rms : .settleTime), firstTrace: names[0])
            do { try AtomicFile.write(chart.render(), to: context.resolve(svg), shownAs: svg) } catch {
                context.stderr.line("error: \(error.description)")
                return .badInput
            }
            context.stderr.line("wrote \(svg)")
        }
        return .success
    }

    /// METRIC over the first parameter; one series per combination of the other parameters.
    func chart(points: [[Double]], rows: [[TuningProblem.Evaluation]], metric: Metric, firstTrace: String) -> SVGChart {
        var order: [[Double]] = []
        var groups: [[Double]: [(x: Double, y: Double)]] = [:]
        for (point, row) in zip(points, rows) {
            let key = Array(point.dropFirst())
            let y: Double?
            switch metric {
            case .rms: y = Fidelity.pooled(row.map(\.metrics)).location.rms
            case .settleTime: y = row[0].metrics.simulatedSettleTime
            case .overshoot: y = row[0].overshoot
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append((point[0], y ?? .nan))
        }
        let series = order.enumerated().map { i, key in
            SVGChart.Series(
                label: key.isEmpty
                    ? metric.rawValue
                    : zip(ranges.dropFirst(), key).map { "\($0.parameter.rawValue) \(String(format: "%.5g", $1))" }
                        .joined(separator: ", "),
                points: groups[key]!, color: SVGChart.palette[i % SVGChart.palette.count])
        }
        let yLabel: String
        switch metric {
        case .rms: yLabel = "RMS location error (pt)"
        case .settleTime: yLabel = "settle time of \(firstTrace) (s)"
        case .overshoot: yLabel = "overshoot of \(firstTrace) (pt)"
        }
        var chart = SVGChart(
            title: "panelsim sweep: \(yLabel) vs \(ranges[0].parameter.rawValue)",
            xLabel: ranges[0].parameter.rawValue, yLabel: yLabel, series: series)
        chart.markMinimum = true
        return chart
    }

    /// RFC 4180 quoting when needed.
    static func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
