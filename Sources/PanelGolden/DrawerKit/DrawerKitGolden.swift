import PanelSimCore
import PanelTrace

/// DrawerKit's results (drawerkit.md §2.3): `location`, `cornerRadius` and the transition frames'
/// `startingFrameY`/`endingFrameY` in the location tolerance, `handleAlpha` in the backdropAlpha
/// one, `contentOffset` and `velocity`/`speedY` in theirs; the drawer's rest positions as anchors.
struct DrawerKitGolden: SystemGoldenDescription {
    var model: PanelModel { .drawerKit }
    func toleranceChannel(of field: String) -> Channel? {
        switch field {
        case "location", "cornerRadius", "startingFrameY", "endingFrameY": return .location
        case "handleAlpha": return .backdropAlpha
        case "contentOffset": return .contentOffset
        case "velocity", "speedY": return .velocity
        default: return nil
        }
    }
    func subtitle(for header: TraceHeader) -> String { "DrawerKit drawer" }
    func anchors(for header: TraceHeader) -> (anchors: [(name: String, location: Double)], states: [String]) {
        guard let drawer = header.drawer else { return ([], []) }
        let anchors = drawer.anchorPositions(environment: header.environment).map { (name: $0.0, location: $0.1) }
        return (anchors, anchors.map(\.name))
    }
}
