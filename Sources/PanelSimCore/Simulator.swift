/// Options a replay may change; none of them is a trace field (floatingpanel-core.md §9).
public struct SimulationOptions: Sendable, Equatable {
    /// Without an `end` sample, give up this long (µs) after the last sample if the panel has not
    /// come to rest (floatingpanel-core.md §9 O1: 10 s).
    public var settleBudget: Microseconds = 10_000_000
    public init() {}
}

/// A configuration the simulator refuses (floatingpanel-core.md §9 O19 and unknown names).
/// `field` is the header path of the offending value, e.g. `panel.initialState`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public init(field: String, message: String) { self.field = field; self.message = message }
    public var description: String { "\(field): \(message)" }
}

/// Replays `trace` and returns its events and frames.
/// - Complexity: O(samples + frames), frames = (replayed duration) × frameRate.
public func simulate(_ trace: Trace, options: SimulationOptions = SimulationOptions()) -> SimulationResult {
    SimulationResult()
}
