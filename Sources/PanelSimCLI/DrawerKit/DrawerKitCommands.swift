import PanelInvariants
import PanelSimCore

/// DrawerKit's command description: its tunable numbers (its timing, drawerkit.md §3.8), its bench
/// workloads and its soak.
struct DrawerKitCommands: SystemCommandDescription {
    var model: PanelModel { .drawerKit }
    var name: String { "DrawerKit" }
    var soak: (any SystemSoak)? { DrawerKitSoak() }
    var benchCoreWorkload: BenchCoreWorkload? {
        BenchCoreWorkload(label: "drag+transition", jsonKey: "drawerKit", trace: { BenchCorpus.drawerDragTrace(gestures: $0) })
    }
    var tunableParameters: [TunableParameter] { [.totalDurationInSeconds, .dampingRatio] }
    var benchCorpus: BenchSystemCorpus? { BenchSystemCorpus(name: "DrawerKit", trace: { BenchCorpus.variedDrawerKitTrace(index: $0) }) }
}

extension TunableParameter {
    /// DrawerKit `totalDurationInSeconds` (s): every transition's duration (or the full-height
    /// one), in (0, 100].
    public static let totalDurationInSeconds = TunableParameter(
        "totalDurationInSeconds", model: .drawerKit, acceptedValues: "0 < x ≤ 100 (s)", accepts: { $0 > 0 && $0 <= 100 },
        read: { $0.drawer?.totalDurationInSeconds }, write: { v, header in header.drawer?.totalDurationInSeconds = v })
    /// DrawerKit's timing curve as `UISpringTimingParameters(dampingRatio:)` with this ζ, in
    /// (0, 100] (the spring is stretched onto the duration, D1). Read from a `systemSpring` curve it
    /// is the system spring's ζ = 500 / (2·√3000) ≈ 4.5644 (mass 1, stiffness 3000, damping 500,
    /// drawerkit.md §3.8); from a `linear` curve, NaN.
    public static let dampingRatio = TunableParameter(
        "dampingRatio", model: .drawerKit, acceptedValues: "0 < x ≤ 100", accepts: { $0 > 0 && $0 <= 100 },
        read: { header in
            switch header.drawer?.timingCurveProvider {
            case .dampingRatio(let z)?: return z
            case .systemSpring?: return 500 / (2 * (3000.0).squareRoot())
            case .linear?, nil: return nil
            }
        },
        write: { v, header in header.drawer?.timingCurveProvider = .dampingRatio(v) })
}
