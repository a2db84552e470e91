import PanelSimCore

/// The systems `panelsim soak` knows (`--model M` picks one by its header `model`): FloatingPanel
/// (the default), DrawerKit, LNPopup and UISheet. A task-local list, like the registries of the
/// other layers (ARCHITECTURE.md), so a system defined outside this package registers for a scope
/// (`SoakSystems.$registered.withValue(…)`) and the worker threads of a parallel soak inherit it.
public enum SoakSystems {
    /// The systems of this package, FloatingPanel first.
    public static let builtIn: [any SystemSoak] = [FloatingPanelSoak(), DrawerKitSoak(), LNPopupSoak(), UISheetSoak()]

    @TaskLocal public static var registered: [any SystemSoak] = builtIn

    /// The soak of `model` (a header `model` string such as `"lnpopup"`), nil when none is registered.
    public static func system(named model: String) -> (any SystemSoak)? {
        registered.first { $0.model.rawValue == model }
    }

    /// The soak of `model`, nil when none is registered.
    public static func system(for model: PanelModel) -> (any SystemSoak)? { system(named: model.rawValue) }
}
