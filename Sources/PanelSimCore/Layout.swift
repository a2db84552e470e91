/// Layout geometry (FloatingPanel `LayoutAdapter`): anchor positions and derived state orderings.
/// STUB: API fixed, body being written.
public struct LayoutGeometry: Sendable {
    public var panel: PanelConfiguration
    public var environment: PanelEnvironment
    public init(panel: PanelConfiguration, environment: PanelEnvironment) {
        self.panel = panel; self.environment = environment
    }
    /// pos(state): the surface location (main axis, pt) of `state`'s anchor, rounded by display scale.
    public func position(of state: PanelState) -> Double { 0 }
}

/// Checks a header against what the simulator can replay deterministically
/// (floatingpanel-core.md §9 O19 and name references).
/// - Throws: `ConfigurationError` naming the header field.
public func validate(_ header: TraceHeader) throws(ConfigurationError) {}
