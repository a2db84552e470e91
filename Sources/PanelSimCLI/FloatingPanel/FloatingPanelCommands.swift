import PanelSimCore

/// FloatingPanel's tunable numbers: the four of `panel.behavior` (floatingpanel-layout-behavior.md).
struct FloatingPanelCommands: SystemCommandDescription {
    var model: PanelModel { .floatingPanel }
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
