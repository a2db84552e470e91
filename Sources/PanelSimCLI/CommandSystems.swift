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
}
