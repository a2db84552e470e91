import PanelSimCore
import PanelTrace

/// The golden half of a panel system's description: how its results are compared and drawn. One
/// value per system, registered in `GoldenSystems` (`GoldenSystems.swift`); the comparator and the
/// reports look a result's `model` up there instead of switching over systems.
public protocol SystemGoldenDescription: Sendable {
    /// The system's `model`.
    var model: PanelModel { get }
    /// The tolerance channel a numeric field of the system's frames and events is compared in
    /// (`location`, `backdropAlpha`, `contentOffset`, `velocity`); nil: compared exactly.
    func toleranceChannel(of field: String) -> Channel?
    /// What a report calls the panel of `header`, e.g. `"DrawerKit drawer"` or `"bottom panel"`.
    func subtitle(for header: TraceHeader) -> String
    /// True when the panel moves along y (the finger's y is drawn against its location).
    func movesVertically(_ header: TraceHeader) -> Bool
    /// The rest positions drawn as anchors, `(name, location in pt)`, and the state names of the
    /// state strips, most expanded first.
    func anchors(for header: TraceHeader) -> (anchors: [(name: String, location: Double)], states: [String])
}

extension SystemGoldenDescription {
    public func movesVertically(_ header: TraceHeader) -> Bool { true }
}
