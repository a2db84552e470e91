import PanelSimCore
import PanelTrace

extension ResultHeader {
    /// The header of the result of replaying `trace` with `simulation`: what `panelsim replay`,
    /// `check` and `assertPanelTrace` write and compare.
    ///
    /// The name, frame rate (Hz) and display scale (px per pt) come from the trace's header, the
    /// parameter digest from `parameterDigest(of:)`, the `simulator` list from the options the
    /// trace's system records (`TraceHeader.optionNames(_:)`), `model` from the trace's `model`; version and engine are this
    /// build's.
    /// - Parameters:
    ///   - trace: the replayed trace.
    ///   - traceDigest: `"sha256:<hex>"` of the trace file's bytes (`LoadedTrace.digest`).
    ///   - simulation: the simulator options of the replay.
    /// - Complexity: O(size of the trace header) (the parameter digest).
    public init(replaying trace: Trace, traceDigest: String, simulation: SimulationOptions = SimulationOptions()) {
        self.init(
            trace: trace.header.name, traceDigest: traceDigest,
            parameterDigest: ResultHeader.parameterDigest(of: trace.header),
            simulator: trace.header.optionNames(simulation),
            frameRate: trace.header.environment.frameRate,
            displayScale: trace.header.environment.displayScale)
        model = trace.header.model
        profile = trace.replayProfile(simulation).map { ResultProfile(library: $0.library.rawValue, point: $0.point) }
    }

    /// The header of the result of replaying a loaded trace (`TraceLoader.load(path:)`).
    public init(replaying loaded: LoadedTrace, simulation: SimulationOptions = SimulationOptions()) {
        self.init(replaying: loaded.trace, traceDigest: loaded.digest, simulation: simulation)
    }
}
