import PanelSimCore

/// The states a trace knows: the built-ins plus `panel.states`.
///
/// Built once per header and per `invalidateLayout` that is read, so it must stay linear in the
/// number of states (checking each name against all earlier ones would make 10⁵ states cost
/// about a minute).
struct StateTable {
    var byName: [String: FloatingPanelState] = [:]
    /// Hash-table operations made while building (one per state offered): what the state-table
    /// size test bounds, instead of a time.
    private(set) var buildSteps = 0

    /// - Complexity: O(n) expected, n = built-ins + `custom.count` (one hashed insert each; a
    ///   name that is already known keeps its first state).
    init(_ custom: [FloatingPanelState]) {
        byName.reserveCapacity(FloatingPanelState.builtIn.count + custom.count)
        for s in FloatingPanelState.builtIn + custom {
            buildSteps += 1
            if byName[s.name] == nil { byName[s.name] = s }
        }
    }

    /// - Complexity: O(1) expected.
    func lookup(_ name: String) -> FloatingPanelState? { byName[name] }

    /// The most names ``listing`` spells out.
    static let listedNames = 24

    /// The known names for error messages, by descending order then name, e.g. `full, half, tip,
    /// hidden`; beyond ``listedNames`` names, the first ones and how many more there are.
    /// Computed only when an error needs it.
    /// - Complexity: O(n log n).
    var listing: String {
        let sorted = byName.values.sorted { ($0.order, $1.name) > ($1.order, $0.name) }.map(\.name)
        guard sorted.count > Self.listedNames else { return sorted.joined(separator: ", ") }
        return sorted.prefix(Self.listedNames).joined(separator: ", ") + ", … (\(sorted.count - Self.listedNames) more)"
    }
}
