import PanelSimCore

/// The registry of golden descriptions: one `SystemGoldenDescription` per panel system. A system
/// defined outside this package registers for a scope:
/// `GoldenSystems.$registered.withValue(GoldenSystems.registered + [MyGolden()]) { … }`.
public enum GoldenSystems {
    /// The descriptions in force; the built-in systems by default.
    @TaskLocal public static var registered: [any SystemGoldenDescription] = builtIn

    /// FloatingPanel, DrawerKit, UISheetPresentationController and LNPopup.
    public static let builtIn: [any SystemGoldenDescription] = [
        FloatingPanelGolden(), DrawerKitGolden(), UISheetGolden(), LNPopupGolden(),
    ]

    /// The description of `model`, nil when none is registered.
    /// - Complexity: O(registered descriptions).
    public static func description(for model: PanelModel) -> (any SystemGoldenDescription)? {
        registered.first { $0.model == model }
    }
}
