import PanelInvariants
import PanelSimCore

/// The command-line half of a panel system's description: its names in help texts and reports,
/// the header numbers `tune`, `sweep` and `observe` may set, its `bench` workloads and its `soak`.
/// One value per system, registered in `CommandSystems` (`CommandSystems.swift`); the commands
/// find all of these there instead of switching over systems.
public protocol SystemCommandDescription: Sendable {
    /// The system's `model`.
    var model: PanelModel { get }
    /// The system's short name as help texts and `bench` rows write it (`DrawerKit`, `LNPopup`).
    /// Default: the `model` string.
    var name: String { get }
    /// The library the system models as `panelsim --help` names it (`LNPopupController /
    /// LNPopupUI`). Default: `name`.
    var libraryName: String { get }
    /// Its tunable parameters, in the order `--param` lists them. Default: none.
    var tunableParameters: [TunableParameter] { get }
    /// The generated corpus `bench` checks end to end for this system (a row of its own), nil for
    /// none. Default: none.
    var benchCorpus: BenchSystemCorpus? { get }
    /// The replay `bench` times on its own for this system (a core row and a budget of its own),
    /// nil for none. Default: none.
    var benchCoreWorkload: BenchCoreWorkload? { get }
    /// The system's random-trace generator and invariant checker, run by `panelsim soak --model
    /// <model>` and by `soak TRACE…` for its traces; nil for none. Default: none.
    var soak: (any SystemSoak)? { get }
    /// What `panelsim help soak` says of the system's generated traces and rules: one paragraph,
    /// unwrapped. Nil (the default): a soak that checks the replay rules is described with the
    /// others that do, from its rule ids and `name`.
    var soakHelp: String? { get }
}

extension SystemCommandDescription {
    public var name: String { model.rawValue }
    public var libraryName: String { name }
    public var tunableParameters: [TunableParameter] { [] }
    public var benchCorpus: BenchSystemCorpus? { nil }
    public var benchCoreWorkload: BenchCoreWorkload? { nil }
    public var soak: (any SystemSoak)? { nil }
    public var soakHelp: String? { nil }
}

/// A panel system's generated end-to-end bench corpus: the name `bench` reports it under and the
/// text of its trace number i (a pure function of i, so every run checks the same bytes).
public struct BenchSystemCorpus: Sendable {
    public var name: String
    public var trace: @Sendable (Int) -> String
    public init(name: String, trace: @escaping @Sendable (Int) -> String) { self.name = name; self.trace = trace }
}

/// A panel system's core bench workload: one generated trace that `bench` replays repeatedly,
/// reporting simulated frames per CPU second and their ratio to the bare spring loop of the same
/// run (budget: at least 1/3). The row reads "`<name>` `<label>` replay (frames/s CPU)", the budget
/// "core `<name>` / bare loop", the JSON members `<jsonKey>FramesPerSecond`, `<jsonKey>Ratio` and
/// `<jsonKey>FramesPerReplay`; `bench-corpus` writes its 50-gesture trace as `core-<model>.jsonl`.
public struct BenchCoreWorkload: Sendable {
    /// What the replay does, e.g. `drag+transition`.
    public var label: String
    /// The prefix of its JSON members, e.g. `drawerKit`.
    public var jsonKey: String
    /// The trace text for a size (gestures or open/close cycles; `BenchOptions.dragGestures` in a
    /// bench run); a pure function of the size.
    public var trace: @Sendable (Int) -> String
    public init(label: String, jsonKey: String, trace: @escaping @Sendable (Int) -> String) {
        self.label = label; self.jsonKey = jsonKey; self.trace = trace
    }
}
