import PanelSimCore
import PanelTrace

/// LNPopup's results (lnpopup.md §2.3): `location`, `barTop`, `barHeight` and `bottomBarTop` in
/// the location tolerance, `contentOffset` and `velocity` in theirs; open (0) and the docking
/// line as anchors, the three presentation states as strips.
struct LNPopupGolden: SystemGoldenDescription {
    var model: PanelModel { .lnPopup }
    func toleranceChannel(of field: String) -> Channel? {
        switch field {
        case "location", "barTop", "barHeight", "bottomBarTop": return .location
        case "contentOffset": return .contentOffset
        case "velocity": return .velocity
        default: return nil
        }
    }
    func subtitle(for header: TraceHeader) -> String { "LNPopup popup" }
    func anchors(for header: TraceHeader) -> (anchors: [(name: String, location: Double)], states: [String]) {
        guard let popup = header.popup else { return ([], []) }
        return (
            [("open", 0), ("barPresented", popup.dockingLine(environment: header.environment))],
            ["open", "barPresented", "barHidden"]
        )
    }
}
