import PanelSimCore
import PanelTrace

/// FloatingPanel's results: `FrameRecord`s and FloatingPanel's delegate events, compared on the
/// comparator's own channels; the anchors of the layout, drawn along the panel's main axis.
struct FloatingPanelGolden: SystemGoldenDescription {
    var model: PanelModel { .floatingPanel }
    /// FloatingPanel's records have typed channels; no field of another system's kind.
    func toleranceChannel(of field: String) -> Channel? { Channel(rawValue: field) }
    func subtitle(for header: TraceHeader) -> String { "\(header.floatingPanel?.panel.position.rawValue ?? "") panel" }
    func movesVertically(_ header: TraceHeader) -> Bool { header.floatingPanel?.panel.position.isVertical ?? true }
    func anchors(for header: TraceHeader) -> (anchors: [(name: String, location: Double)], states: [String]) {
        guard let fp = header.floatingPanel else { return ([], []) }
        let geometry = LayoutGeometry(panel: fp.panel, environment: header.environment)
        let states = geometry.sortedByOrder.reversed()
        return (states.map { ($0.name, geometry.position(of: $0)) }, states.map(\.name))
    }
}
