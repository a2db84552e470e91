import Foundation
import PanelGolden
import PanelSimCore

/// `panelsim tune TRACE… --param NAME=A...B… [--grid N] [--precision X] [--jobs N] [--report FILE.html]`:
/// fit behavior parameters to the traces' `observed` samples.
struct TuneCommand: PanelCommand {
    static let info = CommandInfo(
        name: "tune",
        abstract: "Fit spring and projection parameters to observed samples.",
        usage:
            "panelsim tune TRACE... --param NAME=A...B... [--grid N] [--precision X] [--jobs N] [--report FILE.html] [--settle-tolerance PT] [--profile LIBRARY@VERSION]...",
        arguments: [("TRACE...", "Trace files (.jsonl), each with observed locations.")],
        options: [
            ProfileFlag.option,
            OptionSpec(
                names: ["--param"], valueName: "NAME=A...B[:STEPS]",
                help: "A parameter and its search interval (repeatable):\n\(TuneCLI.parameterNames).", repeatable: true),
            OptionSpec(names: ["--grid"], valueName: "N", help: "Coarse grid points per parameter (default 7; 2…101)."),
            OptionSpec(
                names: ["--precision"], valueName: "X",
                help: "Stop refining below X times each interval (default 1e-4; 1e-12 or more)."),
            TuneCLI.jobsOption,
            OptionSpec(
                names: ["--report"], valueName: "FILE.html",
                help:
                    "Write an HTML report with observed, initial and\ntuned trajectories (self-contained, inline SVG)."),
            TuneCLI.toleranceOption,
        ],
        discussion: """
            The error minimized is the RMS location error (pt) over every observed location of
            every trace, pooled: sqrt(sum of squared errors / number of observations), where each
            error is the replay's location on screen at the observation's time minus the observed
            location (see 'panelsim help fidelity'). Each point of the search replays every trace
            with its header's panel.behavior changed to the point's values.

            Search: a coarse grid (N points per parameter, or STEPS of the --param), then
            Nelder-Mead from the best grid point in coordinates scaled to each interval, stopping
            when the simplex spans less than X times every interval, and restarted from its answer
            while a restart improves it. Grid points and trial points run on --jobs threads;
            results are gathered and compared in a fixed order, so the answer is
            bit-identical for any --jobs.
            'Before' is each trace's own header values. Progress with an estimate of the time left
            is shown only when standard error is a terminal.

            Identifiability: a parameter whose replays at the ends and middle of its range are
            identical for every trace (the model does not read it for these traces) is refused
            before the search. After it, the RMS error at 11 values across each parameter's
            range, the others at their best values, gives its sensitivity (how much the error
            rises across the range). Its 95 % interval is a profile-likelihood interval: the
            values where the error, with the other parameters fitted again at each value, stays
            within the noise floor E*(sqrt(1 + 3.841/(N - p)) - 1), at least 1e-6 pt, for N
            observed locations, p fitted parameters and best error E. Its ends are found to X
            times the range and include every value not excluded at that resolution; an end
            marked <= or >= is the end of the range, and '< precision (+-D)' is an interval
            narrower than that resolution D on both sides. A parameter whose error never rises
            past the noise floor is reported as not identifiable, without a value.

            \(HelpFormat.exitCodes([(0, "fit written; every parameter identifiable"),
                                     (1, "a parameter is not identifiable from these traces (no effect: refused; flat: no value)"),
                                     HelpFormat.usageOrBadInput, HelpFormat.otherVersion]))
            """)

    var paths: [String]
    var ranges: [ParameterRange] = []
    var options = TuningOptions()
    var jobs = 1
    var report: String?
    var tolerance = Fidelity.defaultSettleTolerance
    let parsed: ParsedArguments

    /// `--profile` values: the profile each trace of their library is replayed as.
    var profiles: [TraceProfile] = []

    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.parsed = parsed
        guard !parsed.positionals.isEmpty else { throw UsageError("missing TRACE", command: "tune") }
        paths = parsed.positionals
        report = parsed.values["--report"]
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        profiles = try ProfileFlag.profiles(parsed, command: "tune")
        ranges = try TuneCLI.ranges(parsed, command: "tune")
        guard !ranges.isEmpty else { throw UsageError("missing --param NAME=A...B", command: "tune") }
        if let text = parsed.values["--grid"] {
            guard let n = Int(text), (2...101).contains(n) else {
                throw UsageError("--grid must be an integer in 2…101, got '\(text)'", command: "tune")
            }
            options.gridSteps = n
        }
        if let text = parsed.values["--precision"] {
            // Below 1e-12 of an interval a refinement (and each profile interval's bisection) runs
            // for thousands of replays toward steps that doubles cannot resolve.
            guard let x = Double(text), x.isFinite, x >= 1e-12, x < 1 else {
                throw UsageError("--precision must be a number in [1e-12, 1), got '\(text)'", command: "tune")
            }
            options.precision = x
        }
        jobs = try TuneCLI.jobs(parsed, command: "tune")
        tolerance = try TuneCLI.tolerance(parsed, command: "tune")
        if let report, report.isEmpty { throw UsageError("empty report path", command: "tune") }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let loaded: [LoadedTraceInfo]
        switch TuneCLI.load(paths, context, parameters: ranges.map(\.parameter), command: "tune", profiles: profiles) {
        case .success(let l): loaded = l
        case .failure(let e): return e.code
        }
        for (path, l) in zip(paths, loaded) where !Fidelity.hasObservedLocations(l.trace) {
            context.stderr.line("error: \(path): no observed locations to tune against")
            return .badInput
        }
        let traces = loaded.map(\.trace)
        let parameters = ranges.map(\.parameter)
        // A parameter the model does not read for these traces cannot be fitted: refused, with
        // the replays that show it, before any search.
        for r in ranges where r.lower < r.upper {
            let probes = [r.lower, r.lower + (r.upper - r.lower) / 2, r.upper]
            if !ParameterEffect.hasEffect(r.parameter, values: probes, traces: traces, jobs: jobs) {
                context.stderr.line(
                    "error: \(r.parameter.rawValue) is not identifiable from these traces: it has no effect on them "
                        + "(replays with it at \(probes.map(TuneCLI.short).joined(separator: ", ")) are identical for every trace); "
                        + "remove it, or add traces where it matters")
                return .regression
            }
        }
        let problem = TuningProblem(traces: traces, parameters: parameters, settleTolerance: tolerance, jobs: jobs)
        let before = TuningProblem(traces: traces, parameters: [], settleTolerance: tolerance, jobs: jobs)
            .evaluate([[]], keepResults: report != nil)[0]
        let progress = TerminalProgress(context)
        let outcome = Tuner.run(problem, ranges: ranges, options: options) { p in
            progress.update(p.phase == .grid ? "tune: grid" : "tune: refining", done: p.done, total: p.estimatedTotal)
        }
        progress.finish()
        let after = problem.evaluate([outcome.best], keepResults: report != nil)[0]

        let observations = Fidelity.pooled(before.map(\.metrics)).location.count
        let analysis = Identifiability.analyze(
            problem, ranges: ranges, best: outcome.best, bestError: outcome.bestError,
            observations: observations, precision: options.precision)
        var out =
            "tune: \(traces.count) trace\(traces.count == 1 ? "" : "s"), \(observations) observed locations, "
            + "grid \(ranges.map { r in String(r.lower == r.upper ? 1 : (r.steps ?? options.gridSteps)) }.joined(separator: "x")), "
            + "precision \(TuneCLI.json(options.precision)), jobs \(jobs)\n"
        out += "best parameters:\n"
        let width = parameters.map(\.rawValue.count).max() ?? 0
        for (i, (p, v)) in zip(parameters, outcome.best).enumerated() {
            out +=
                "  " + TuneCLI.pad(p.rawValue, width) + "  "
                + Self.describe(analysis.first { $0.parameter == p }, value: v, range: ranges[i]) + "\n"
        }
        if let floor = analysis.first?.noiseFloor {
            out +=
                "noise floor: \(TuneCLI.fixed(floor, 4)) pt (95 % intervals: where the RMS error, the other parameters fitted again, stays within it of the best)\n"
        }
        let beforeRMS = Fidelity.pooled(before.map(\.metrics)).location.rms
        out +=
            "RMS location error (pt): before \(TuneCLI.fixed(beforeRMS, 4)) (header values), "
            + "grid best \(TuneCLI.fixed(outcome.gridError, 4)), after \(TuneCLI.fixed(outcome.bestError, 4))\n"
        out +=
            "search: \(outcome.evaluations) points, \(outcome.iterations) Nelder-Mead iterations, \(outcome.restarts) improving restart\(outcome.restarts == 1 ? "" : "s"); "
            + "intervals: \(analysis.map(\.evaluations).reduce(0, +)) points\n"
        out += "\n" + Self.table(paths, before: before, after: after)
        context.stdout.write(out)
        for line in Self.rangeEndWarnings(ranges: ranges, best: outcome.best, analysis: analysis) {
            context.stderr.line(line)
        }

        if let report {
            let html = TuneReport.html(
                paths: paths, traces: traces, parameters: parameters, outcome: outcome,
                before: before, after: after, summary: out)
            do {
                try AtomicFile.write(html, to: context.resolve(report), shownAs: report)
            } catch {
                context.stderr.line("error: \(error.description)")
                return .badInput
            }
            context.stderr.line("wrote \(report)")
        }
        return analysis.contains { $0.verdict == .flat } ? .regression : .success
    }

    /// A warning for each searched parameter whose best value lies on an end of its range (within
    /// 10⁻⁹ of the range's width: the search clamps its trial points to the range), unless the
    /// parameter is not identifiable (no value is reported for it). The best fit may then lie
    /// beyond the range, so the message asks for a wider one.
    static func rangeEndWarnings(
        ranges: [ParameterRange], best: [Double], analysis: [ParameterIdentifiability]
    ) -> [String] {
        zip(ranges, best).compactMap { r, value in
            let width = r.upper - r.lower
            guard width > 0, analysis.first(where: { $0.parameter == r.parameter })?.verdict != .flat else {
                return nil
            }
            let end: String
            if value - r.lower <= 1e-9 * width {
                end = "lower"
            } else if r.upper - value <= 1e-9 * width {
                end = "upper"
            } else {
                return nil
            }
            let name = r.parameter.rawValue
            return "warning: \(name)'s best value \(TuneCLI.short(value)) is at the \(end) end of its range "
                + "\(TuneCLI.short(r.lower))...\(TuneCLI.short(r.upper)); the best fit may lie beyond it: "
                + "tune again with a wider --param \(name)=LOW...HIGH"
        }
    }

    /// The text after a parameter's name: its value, 95 % interval and sensitivity, or why it is
    /// not identifiable (a fixed parameter: its value).
    static func describe(_ a: ParameterIdentifiability?, value: Double, range: ParameterRange) -> String {
        guard let a else { return TuneCLI.short(value) + "  (fixed)" }
        if a.verdict == .flat {
            return "not identifiable: the RMS error rises by \(TuneCLI.fixed(a.sensitivity, 4)) pt over "
                + "\(TuneCLI.short(range.lower))...\(TuneCLI.short(range.upper)), within the noise floor (no value reported)"
        }
        let sensitivity = "  sensitivity \(TuneCLI.fixed(a.sensitivity, 4)) pt"
        if a.belowResolution {
            return TuneCLI.pad(TuneCLI.short(value), 10)
                + "  95% < precision (±\(String(format: "%.3g", a.resolution)))" + sensitivity
        }
        let lower = (a.lowerAtRangeEnd ? "≤" : "") + TuneCLI.short(a.lower)
        let upper = (a.upperAtRangeEnd ? "≥" : "") + TuneCLI.short(a.upper)
        return TuneCLI.pad(TuneCLI.short(value), 10) + "  95% [\(lower), \(upper)]" + sensitivity
    }

    /// Per-trace before/after table.
    static func table(_ names: [String], before: [TuningProblem.Evaluation], after: [TuningProblem.Evaluation])
        -> String
    {
        let width = max(5, names.map(\.count).max() ?? 0)
        var out =
            TuneCLI.pad("trace", width)
            + "  samples  rms before  max before  rms after  max after  settle err before/after (s)  final obs/before/after\n"
        for (i, name) in names.enumerated() {
            let b = before[i].metrics
            let a = after[i].metrics
            out +=
                TuneCLI.pad(name, width) + "  " + TuneCLI.pad(String(a.location.count), 7, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(b.location.rms, 4), 10, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(b.location.maximum, 4), 10, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(a.location.rms, 4), 9, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(a.location.maximum, 4), 9, right: true)
                + "  "
                + TuneCLI.pad(
                    TuneCLI.fixed(b.settleTimeError, 3) + " / " + TuneCLI.fixed(a.settleTimeError, 3), 27, right: true)
                + "  " + (a.observedFinalState ?? "-") + "/" + (b.simulatedFinalState ?? "-") + "/"
                + (a.simulatedFinalState ?? "-") + "\n"
        }
        return out
    }
}

/// The self-contained HTML report of a tuning run.
enum TuneReport {
    /// The page: the summary text, then per trace the location chart at full width (the replay
    /// with the header's values as the golden's role, grey; with the tuned values as the actual's,
    /// blue; observed samples, finger, anchors, state strips and events of both) and a chart of
    /// each replay's error at the observations (replay − observed, as `fidelity` measures it).
    static func html(
        paths: [String], traces: [Trace], parameters: [TunableParameter], outcome: TuningOutcome,
        before: [TuningProblem.Evaluation], after: [TuningProblem.Evaluation], summary: String
    ) -> String {
        var out =
            HTMLReport.documentHead(title: "panelsim tune report") + """
                <h1>panelsim tune report</h1>
                <pre>\(Markup.escape(summary))</pre>

                """
        for (i, trace) in traces.enumerated() {
            let header = parameters.map { p in "\(p.rawValue) \(String(format: "%.6g", p.value(in: trace.header)))" }
                .joined(separator: ", ")
            let tuned = zip(parameters, outcome.best).map { "\($0.rawValue) \(String(format: "%.6g", $1))" }.joined(
                separator: ", ")
            out +=
                "<h2>\(Markup.escape(paths[i]))</h2>\n<p>header values: \(Markup.escape(header)) (RMS \(TuneCLI.fixed(before[i].metrics.location.rms, 4)) pt)<br>"
                + "tuned: \(Markup.escape(tuned)) (RMS \(TuneCLI.fixed(after[i].metrics.location.rms, 4)) pt)</p>\n"
            func document(_ result: SimulationResult?) -> ResultDocument? {
                result.map {
                    ResultDocument(header: ResultHeader(replaying: trace, traceDigest: ""), records: $0.records)
                }
            }
            guard let tunedDoc = document(after[i].result) else { continue }
            var input = HTMLReport.Input(
                title: paths[i], header: trace.header, golden: document(before[i].result), actual: tunedDoc,
                comparison: nil, goldenName: header.isEmpty ? "header" : header)
            input.trace = trace
            input.goldenRole = "header values"
            input.actualRole = "tuned"
            let errors = [("header values", true, before[i].result), ("tuned", false, after[i].result)].compactMap {
                label, isGolden, result in
                result.map {
                    HTMLReport.ErrorSeries(label: label, isGolden: isGolden, points: observationErrors(trace, $0))
                }
            }
            out += HTMLReport.trajectoryCharts(
                input, errors: errors, errorTitle: "Error at the observations: replay − observed (pt; larger is lower)")
        }
        out += "</body></html>\n"
        return out
    }

    /// The replay's location minus the observed one at each observed location (the frame on
    /// screen at the observation's time, as `Fidelity.measure` takes it), in seconds.
    static func observationErrors(_ trace: Trace, _ result: SimulationResult) -> [(t: Double, error: Double)] {
        let timeline = FrameTimeline(result: result, frameRate: trace.header.environment.frameRate)
        return trace.samples.compactMap { s in
            guard case .observed(let o) = s.kind, let x = o.location, let f = timeline.frame(at: s.time) else {
                return nil
            }
            return (Fidelity.seconds(s.time), f.location - x)
        }
    }
}
