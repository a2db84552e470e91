import PanelSimCore

/// The command-line half of a panel system's description: the header numbers `tune`, `sweep`
/// and `observe` may set. One value per system, registered in `CommandSystems`
/// (`CommandSystems.swift`); the commands find parameters there instead of switching over systems.
public protocol SystemCommandDescription: Sendable {
    /// The system's `model`.
    var model: PanelModel { get }
    /// Its tunable parameters, in the order `--param` lists them. Default: none.
    var tunableParameters: [TunableParameter] { get }
}

extension SystemCommandDescription {
    public var tunableParameters: [TunableParameter] { [] }
}
