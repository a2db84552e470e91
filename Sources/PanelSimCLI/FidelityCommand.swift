import PanelSimCore
import PanelTrace

/// `panelsim fidelity TRACE… [--json] [--settle-tolerance PT] [--max-rms PT]`: how far each replay
/// is from the trace's `observed` samples, and with `--max-rms` a pass/fail verdict for CI.
struct FidelityCommand: PanelCommand {
    static let info = CommandInfo(
        name: "fidelity",
        abstract: "Compare replays with the observed samples of their traces.",
        usage:
            "panelsim fidelity TRACE... [--json] [--settle-tolerance PT] [--max-rms PT] [--profile LIBRARY@VERSION]...",
        arguments: [("TRACE...", "Trace files (.jsonl) with observed samples.")],
        options: [
            ProfileFlag.option,
            OptionSpec(names: ["--json"], valueName: nil, help: "Print JSON instead of a table."),
            TuneCLI.toleranceOption,
            OptionSpec(
                names: ["--max-rms"], valueName: "PT",
                help: "Exit 1 when a trace's location RMS error is above PT (named on standard error)."),
        ],
        discussion: """
            Each trace is replayed with its own header. Errors are simulated - observed:
              location   each observed location at time t against the frame on screen at t (the
                         last frame k with k/frameRate <= t; unwritten frames repeat the previous
                         one): RMS and maximum |error|, pt
              settle     the time from which the location stays within the settle tolerance of its
                         final value, observed samples vs replay frames, s
              final      the last observed state against the replay's final state
              offset     content offset where observed (RMS, pt); alpha: backdrop alpha (RMS)
            The overall row pools every observed sample (sums of squares in argument order).
            A trace without observed locations shows '-' (and --max-rms does not judge it).

            \(HelpFormat.exitCodes([
                (0, "table written (with --max-rms: every judged trace within it)"),
                (1, "with --max-rms: a trace's location RMS error above it"), HelpFormat.usageOrBadInput,
                HelpFormat.otherVersion,
            ]))
            """)

    var paths: [String]
    var json: Bool
    var tolerance = Fidelity.defaultSettleTolerance
    /// `--max-rms`: the largest location RMS error (pt) a trace may have; nil: no verdict.
    var maximumRMS: Double?
    let parsed: ParsedArguments

    /// `--profile` values: the profile each trace of their library is replayed as.
    var profiles: [TraceProfile] = []

    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.parsed = parsed
        guard !parsed.positionals.isEmpty else { throw UsageError("missing TRACE", command: "fidelity") }
        paths = parsed.positionals
        json = parsed.flags.contains("--json")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        profiles = try ProfileFlag.profiles(parsed, command: "fidelity")
        tolerance = try TuneCLI.tolerance(parsed, command: "fidelity")
        if let text = parsed.values["--max-rms"] {
            guard let v = Double(text), v.isFinite, v >= 0 else {
                throw UsageError("--max-rms must be a number of points >= 0, got '\(text)'", command: "fidelity")
            }
            maximumRMS = v
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let loaded: [LoadedTraceInfo]
        switch TuneCLI.load(paths, context, profiles: profiles) {
        case .success(let l): loaded = l
        case .failure(let e): return e.code
        }
        let problem = TuningProblem(traces: loaded.map(\.trace), parameters: [], settleTolerance: tolerance, jobs: 1)
        let metrics = problem.evaluate([[]])[0].map(\.metrics)
        let rows = zip(paths, metrics).map { FidelityRow(name: $0, metrics: $1) }
        context.stdout.write(json ? FidelityReport.json(rows, tolerance: tolerance) : FidelityReport.table(rows))
        guard let maximumRMS else { return .success }
        let over = rows.filter { ($0.metrics.location.rms ?? 0) > maximumRMS }
        for r in over {
            context.stderr.line(
                "fidelity: \(r.name): location RMS error \(TuneCLI.fixed(r.metrics.location.rms, 3)) pt is above "
                    + "--max-rms \(CanonicalNumber.format(maximumRMS))")
        }
        return over.isEmpty ? .success : .regression
    }
}

/// One row of a fidelity report.
struct FidelityRow {
    var name: String
    var metrics: FidelityMetrics
}

/// Fidelity tables and JSON.
enum FidelityReport {
    /// A fixed-width table with an overall row; ends with a newline.
    static func table(_ rows: [FidelityRow]) -> String {
        let width = max(7, rows.map(\.name.count).max() ?? 0)
        var out =
            TuneCLI.pad("trace", width)
            + "  samples   rms(pt)   max(pt)  settle obs(s)  sim(s)  err(s)  final obs/sim        offset rms  alpha rms\n"
        func line(_ name: String, _ m: FidelityMetrics, final: String) -> String {
            TuneCLI.pad(name, width) + "  " + TuneCLI.pad(String(m.location.count), 7, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(m.location.rms, 3), 8, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(m.location.count > 0 ? m.location.maximum : nil, 3), 8, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(m.observedSettleTime, 3), 13, right: true)
                + "  "
                + TuneCLI.pad(
                    TuneCLI.fixed(m.observedSettleTime == nil ? nil : m.simulatedSettleTime, 3), 6, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(m.settleTimeError, 3), 6, right: true)
                + "  " + TuneCLI.pad(final, 19)
                + "  " + TuneCLI.pad(TuneCLI.fixed(m.contentOffset.rms, 3), 10, right: true)
                + "  " + TuneCLI.pad(TuneCLI.fixed(m.backdropAlpha.rms, 4), 9, right: true) + "\n"
        }
        for r in rows {
            let m = r.metrics
            let final =
                m.observedFinalState.map { o in
                    "\(o)/\(m.simulatedFinalState ?? "-") \(m.finalStateAgrees == true ? "ok" : "DIFF")"
                } ?? "-"
            out += line(r.name, m, final: final)
        }
        let pooled = Fidelity.pooled(rows.map(\.metrics))
        let agreeing = rows.filter { $0.metrics.finalStateAgrees == true }.count
        let judged = rows.filter { $0.metrics.finalStateAgrees != nil }.count
        out += line("overall", pooled, final: "\(agreeing)/\(judged) agree")
        let settle = rows.compactMap { $0.metrics.settleTimeError.map(abs) }.max()
        out += "max |settle error|: \(TuneCLI.fixed(settle, 3)) s\n"
        return out
    }

    /// One JSON object (pretty enough to diff: one trace per line); ends with a newline.
    static func json(_ rows: [FidelityRow], tolerance: Double) -> String {
        func stat(_ s: ErrorStatistic) -> String {
            "{\"count\": \(s.count), \"rms\": \(TuneCLI.json(s.rms)), \"max\": \(TuneCLI.json(s.count > 0 ? s.maximum : nil))}"
        }
        func str(_ s: String?) -> String { s.map { JSON.quote($0) } ?? "null" }
        func object(_ m: FidelityMetrics) -> String {
            "\"location\": \(stat(m.location)), \"settleTime\": {\"observed\": \(TuneCLI.json(m.observedSettleTime)), "
                + "\"simulated\": \(TuneCLI.json(m.simulatedSettleTime)), \"error\": \(TuneCLI.json(m.settleTimeError))}, "
                + "\"finalState\": {\"observed\": \(str(m.observedFinalState)), \"simulated\": \(str(m.simulatedFinalState)), "
                + "\"agrees\": \(m.finalStateAgrees.map { $0 ? "true" : "false" } ?? "null")}, "
                + "\"states\": {\"observed\": \(m.statesObserved), \"matched\": \(m.statesMatched)}, "
                + "\"contentOffset\": \(stat(m.contentOffset)), \"backdropAlpha\": \(stat(m.backdropAlpha))"
        }
        var out = "{\"settleTolerance\": \(TuneCLI.json(tolerance)), \"traces\": [\n"
        out += rows.map { "  {\"trace\": \(JSON.quote($0.name)), " + object($0.metrics) + "}" }.joined(separator: ",\n")
        let pooled = Fidelity.pooled(rows.map(\.metrics))
        let agreeing = rows.filter { $0.metrics.finalStateAgrees == true }.count
        let judged = rows.filter { $0.metrics.finalStateAgrees != nil }.count
        let settle = rows.compactMap { $0.metrics.settleTimeError.map(abs) }.max()
        out +=
            "\n], \"overall\": {\"location\": \(stat(pooled.location)), \"maxAbsSettleTimeError\": \(TuneCLI.json(settle)), "
            + "\"finalStatesAgreeing\": \(agreeing), \"finalStatesCompared\": \(judged), "
            + "\"contentOffset\": \(stat(pooled.contentOffset)), \"backdropAlpha\": \(stat(pooled.backdropAlpha))}}\n"
        return out
    }
}
