import PanelInvariants
import PanelSimCore

/// FloatingPanel's command description: its tunable numbers (the four of `panel.behavior`,
/// floatingpanel-layout-behavior.md) and its soak, whose own help paragraph says what its traces
/// and mirrors are.
struct FloatingPanelCommands: SystemCommandDescription {
    var model: PanelModel { .floatingPanel }
    var name: String { "FloatingPanel" }
    var soak: (any SystemSoak)? { FloatingPanelSoak() }
    var soakHelp: String? {
        "FloatingPanel (the default): a bottom panel with a random container, safe area, display scale, frame "
            + "rate, anchors (custom states, intrinsic and fractional anchors), behavior, delegate "
            + "answers and tracked list, and a random timeline of drags, flicks, holds, reversals, "
            + "second fingers, cancels, taps, programmatic calls, list calls, rotations and keyboard "
            + "changes. It is replayed as is and mirrored onto top, left and right panels; every "
            + "replay is checked against G1–G4, G7 and F1–F5, and the mirrors against the bottom replay "
            + "(G6). The rules (G1–G4, G6, F1–F5) are invariants of the team's scenario spec, "
            + "which is not part of this repository, and G7 (at rest the location is its state's anchor) is "
            + "stated in docs/profiles.md; the InvariantChecker type (module PanelInvariants) states each one."
    }
    var tunableParameters: [TunableParameter] {
        [.springResponseTime, .springDecelerationRate, .momentumProjectionRate, .redirectionalProgress]
    }
}

extension TunableParameter {
    /// `panel.behavior.springResponseTime` (s), in (0, 100].
    public static let springResponseTime = behavior("springResponseTime", "0 < x ≤ 100 (s)", { $0 > 0 && $0 <= 100 }, \.springResponseTime)
    /// `panel.behavior.springDecelerationRate` (per ms), in (0, 1).
    public static let springDecelerationRate = behavior("springDecelerationRate", "0 < x < 1 (per ms)", { $0 > 0 && $0 < 1 }, \.springDecelerationRate)
    /// `panel.behavior.momentumProjectionRate` (per ms), in (0, 1).
    public static let momentumProjectionRate = behavior("momentumProjectionRate", "0 < x < 1 (per ms)", { $0 > 0 && $0 < 1 }, \.momentumProjectionRate)
    /// `panel.behavior.redirectionalProgress`, in [0, 1].
    public static let redirectionalProgress = behavior("redirectionalProgress", "0 ≤ x ≤ 1", { $0 >= 0 && $0 <= 1 }, \.redirectionalProgress)

    private static func behavior(_ name: String, _ accepted: String, _ accepts: @escaping @Sendable (Double) -> Bool,
                                 _ field: WritableKeyPath<PanelBehavior, Double> & Sendable) -> TunableParameter {
        TunableParameter(name, model: .floatingPanel, acceptedValues: accepted, accepts: accepts,
                         read: { $0.floatingPanel?.panel.behavior[keyPath: field] },
                         write: { v, header in header.floatingPanel?.panel.behavior[keyPath: field] = v })
    }
}
