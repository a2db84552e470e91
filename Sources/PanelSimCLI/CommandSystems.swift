import PanelInvariants
import PanelSimCore

/// The registry of command descriptions: one `SystemCommandDescription` per panel system. A
/// system defined outside this package registers for a scope:
/// `CommandSystems.$registered.withValue(CommandSystems.registered + [MyCommands()]) { … }`.
public enum CommandSystems {
    /// The descriptions in force; the built-in systems by default.
    @TaskLocal public static var registered: [any SystemCommandDescription] = builtIn

    /// FloatingPanel, DrawerKit, UISheetPresentationController and LNPopup.
    public static let builtIn: [any SystemCommandDescription] = [
        FloatingPanelCommands(), DrawerKitCommands(), UISheetCommands(), LNPopupCommands(),
    ]

    /// The description of `model`, nil when none is registered.
    /// - Complexity: O(registered descriptions).
    public static func description(for model: PanelModel) -> (any SystemCommandDescription)? {
        registered.first { $0.model == model }
    }

    /// The registered soaks, in registry order.
    public static var soaks: [any SystemSoak] { registered.compactMap(\.soak) }

    /// The soak of `model`, nil when its description has none or none is registered.
    public static func soak(for model: PanelModel) -> (any SystemSoak)? { description(for: model)?.soak }
}
