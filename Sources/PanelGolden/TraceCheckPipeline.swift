import PanelSimCore
import PanelTrace

/// A trace replayed the way `check`, `replay` and `assertPanelTrace` replay it: the loaded trace,
/// the simulation's result, the result document (header and records) and its rendered bytes,
/// which are exactly what a golden of the trace holds.
public struct ReplayedTrace: Sendable {
    public var loaded: LoadedTrace
    public var result: SimulationResult
    /// `ResultHeader(replaying:traceDigest:simulation:)` and the simulation's records.
    public var document: ResultDocument
    /// `ResultFile.renderBytes(document)`.
    public var bytes: [UInt8]
    /// The replay's warnings as `check` prints them after a status line (`GoldenCheck.warningLines`).
    public var warningLines: [String] { GoldenCheck.warningLines(result) }
}

/// One trace checked against its golden: what the pipeline found, with its errors still typed.
public struct TraceCheckResult: Sendable {
    /// `check`'s status for the trace.
    public var status: GoldenStatus
    /// The lines `check` prints for the trace (status line, report or notes, warnings).
    public var lines: [String]
    /// The comparison and writes; nil when the trace did not load.
    public var verdict: GoldenVerdict?
    /// The replay; nil when the trace did not load.
    public var replayed: ReplayedTrace?
    /// Why the trace did not load (file as shown, line, field), nil when it loaded.
    public var loadError: TraceError?
    /// The line of the trace file a failure points at (1-based): for a failure, the line of the
    /// last sample at or before the first divergence (`Trace.sampleLine(atOrBefore:)`; 1 for a
    /// header divergence); for a trace that does not load, the error's line. Nil otherwise, or
    /// when the error names no line.
    public var line: Int?

    /// The record rule, the one place it is decided: a trace passes when it matches its golden,
    /// and also when this check wrote the golden (`new`, `updated`: record modes `missing`,
    /// `failed`, `all`). A written golden holds the bytes of this very replay, so every later
    /// check of the trace in the same run (another assertion, another test process) compares
    /// equal and passes too: the outcome of a run never depends on which assertion of a trace
    /// ran first. Review before trusting is record mode `pending`, which writes no golden and
    /// fails. `check` counts and exits by this rule, and `assertPanelTrace` fails exactly when
    /// it is false.
    public var passes: Bool { status.countsAsPassed }
}

/// load → simulate → result header → render → compare with the golden: the one implementation
/// behind `panelsim check` and `replay` (PanelSimCLI), `assertPanelTrace` (PanelSimTesting) and
/// the fuzz targets, so that they cannot disagree on a byte, a status or the record rule.
///
/// The loader and the simulator are values so that tests can run the pipeline on fakes; `live`
/// uses `TraceLoader.load(path:)` and `simulate(_:options:)`.
public struct TraceCheckPipeline: Sendable {
    /// Loads the trace at `path` (absolute, or relative to the current directory); an error
    /// names the file as `shown`.
    public typealias Loader = @Sendable (_ path: String, _ shown: String) throws(TraceError) -> LoadedTrace
    /// Replays a trace with simulator options.
    public typealias Simulator = @Sendable (_ trace: Trace, _ options: SimulationOptions) -> SimulationResult

    public var load: Loader
    public var simulate: Simulator

    public init(load: @escaping Loader, simulate: @escaping Simulator) {
        self.load = load
        self.simulate = simulate
    }

    /// `TraceLoader.load(path:)` (its errors renamed from the path to the name shown) and
    /// PanelSimCore's `simulate`.
    public static let live = TraceCheckPipeline(
        load: { path, shown throws(TraceError) in
            do throws(TraceError) {
                return try TraceLoader.load(path: path)
            } catch {
                var renamed = error
                if renamed.file == path { renamed.file = shown }
                throw renamed
            }
        },
        simulate: { trace, options in PanelSimCore.simulate(trace, options: options) })

    /// simulate → result header → render, for a trace already loaded. The result's warnings end
    /// with `SampleTimeLint`'s, if any (times that look like milliseconds).
    /// - Complexity: one replay and one rendering: O(samples + frames).
    public func replay(_ loaded: LoadedTrace, options: SimulationOptions) -> ReplayedTrace {
        var result = simulate(loaded.trace, options)
        if let warning = SampleTimeLint.warning(for: loaded.trace.samples) { result.warnings.append(warning) }
        let document = ResultDocument(
            header: ResultHeader(replaying: loaded.trace, traceDigest: loaded.digest, simulation: options),
            records: result.records)
        return ReplayedTrace(
            loaded: loaded, result: result, document: document, bytes: ResultFile.renderBytes(document))
    }

    /// load → simulate → result header → render.
    /// - Throws: the loader's `TraceError` (file as `shown`, line, field; kind `unsupported`
    ///   for a trace this revision cannot evaluate).
    /// - Throws: also a gate's `TraceError` when `options` name a profile for the trace's library
    ///   that lacks a feature the trace uses (profiles.md §2.3).
    public func replay(path: String, shown: String, options: SimulationOptions) throws(TraceError) -> ReplayedTrace {
        let loaded = try load(path, shown)
        try TraceProfiles.checkGates(
            loaded.trace, profile: options.profile(for: loaded.trace.header.model), file: shown)
        return replay(loaded, options: options)
    }

    /// The whole check of one trace: load, replay, then `GoldenCheck.evaluate` (compare, and
    /// write the golden or a pending golden as `mode` says).
    ///
    /// A trace that does not load is `skip` (`SKIP <error>`, kind `unsupported`) or `error`
    /// (`ERROR <error>`), with the typed error in `loadError`. Nothing is thrown.
    /// - Parameters:
    ///   - tracePath / traceShown: the trace file, and its name in the lines.
    ///   - goldenPath / goldenShown: the golden file, and its name in the lines.
    ///   - mode: the resolved record mode.
    ///   - tolerances: the resolved per-channel tolerances.
    ///   - simulation: simulator options; a result records those away from the defaults.
    /// - Complexity: O(trace + result + golden size).
    public func check(
        tracePath: String, traceShown: String, goldenPath: String, goldenShown: String,
        mode: RecordMode, tolerances: Tolerances, simulation: SimulationOptions
    ) -> TraceCheckResult {
        let replayed: ReplayedTrace
        do {
            replayed = try replay(path: tracePath, shown: traceShown, options: simulation)
        } catch {
            let skip = error.kind == .unsupported
            return TraceCheckResult(
                status: skip ? .skip : .error, lines: [(skip ? "SKIP " : "ERROR ") + error.description],
                verdict: nil, replayed: nil, loadError: error, line: error.line > 0 ? error.line : nil)
        }
        let verdict = GoldenCheck.evaluate(
            actual: replayed.document, actualBytes: replayed.bytes, goldenPath: goldenPath,
            goldenName: goldenShown, traceName: traceShown, mode: mode,
            tolerances: tolerances, warnings: replayed.warningLines)
        var line: Int?
        if verdict.status == .fail, let d = verdict.comparison?.firstDivergence {
            line = d.channel == .header ? 1 : replayed.loaded.trace.sampleLine(atOrBefore: d.time)
        }
        return TraceCheckResult(
            status: verdict.status, lines: verdict.lines, verdict: verdict, replayed: replayed,
            loadError: nil, line: line)
    }
}

extension Trace {
    /// The file line (1-based, `TraceSample.line`) of the last sample whose time is at or
    /// before `time` (µs); the first sample's line when every sample is later, and 2 (the line
    /// after the header) for a trace without samples.
    /// - Complexity: O(log samples) (times never decrease along a trace).
    public func sampleLine(atOrBefore time: Microseconds) -> Int {
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].time <= time { low = mid + 1 } else { high = mid }
        }
        if low > 0 { return samples[low - 1].line }
        return samples.first?.line ?? 2
    }
}
