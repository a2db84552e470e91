import PanelSimCore

/// The command-line half of a panel system's description: the header numbers `tune`, `sweep`
/// and `observe` may set. One value per system, registered in `CommandSystems`
/// (`CommandSystems.swift`); the commands find parameters there instead of switching over systems.
public protocol SystemCommandDescription: Sendable {
    /// The system's `model`.
    var model: PanelModel { get }
    /// Its tunable parameters, in the order `--param` lists them. Default: none.
    var tunableParameters: [TunableParameter] { get }
    /// The generated corpus `bench` checks end to end for this system (a row of its own), nil for
    /// none. Default: none.
    var benchCorpus: BenchSystemCorpus? { get }
}

extension SystemCommandDescription {
    public var tunableParameters: [TunableParameter] { [] }
    public var benchCorpus: BenchSystemCorpus? { nil }
}

/// A panel system's generated end-to-end bench corpus: the name `bench` reports it under and the
/// text of its trace number i (a pure function of i, so every run checks the same bytes).
public struct BenchSystemCorpus: Sendable {
    public var name: String
    public var trace: @Sendable (Int) -> String
    public init(name: String, trace: @escaping @Sendable (Int) -> String) { self.name = name; self.trace = trace }
}
