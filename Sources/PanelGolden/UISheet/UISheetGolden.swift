import PanelSimCore
import PanelTrace

/// The sheet's results (uisheet.md §2.3): `location` in the location tolerance, `dimming` and
/// `backdropAlpha` in the backdropAlpha one, `contentOffset` and `velocity` in theirs; the active
/// detents, top to bottom (§3.1), as anchors.
struct UISheetGolden: SystemGoldenDescription {
    var model: PanelModel { .uiSheet }
    func toleranceChannel(of field: String) -> Channel? {
        switch field {
        case "location": return .location
        case "dimming", "backdropAlpha": return .backdropAlpha
        case "contentOffset": return .contentOffset
        case "velocity": return .velocity
        default: return nil
        }
    }
    func subtitle(for header: TraceHeader) -> String { "UISheet sheet" }
    func anchors(for header: TraceHeader) -> (anchors: [(name: String, location: Double)], states: [String]) {
        guard let sheet = header.sheet else { return ([], []) }
        let anchors = sheet.detentOffsets(environment: header.environment).map { (name: $0.0, location: $0.1) }
        return (anchors, anchors.map(\.name))
    }
}
