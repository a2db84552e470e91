/// Version profiles (profiles.md): a trace replayed as an earlier version of its panel library
/// behaved. A profile is the system's model plus named switches, each replacing one rule by the rule
/// an older version shipped; a **profile point** is a version at which at least one switch changes
/// value. Each system declares its points and switches beside its model
/// (`<System>/<System>Profiles.swift`) as a `ProfileTable` of its own switch values, which the model
/// reads; this file holds what every system shares: the profile a trace names, version mapping, the
/// listing, and gate violations.

/// The profile a replay uses (profiles.md §2.1, §2.4): the library, the version as the trace or the
/// command line named it, the point that version maps to, and (for `upgrade-diff`'s attribution)
/// switches whose value is taken from another point.
public struct TraceProfile: Sendable, Equatable {
    /// The library (`floatingpanel`, `drawerkit`, `lnpopup`, `uisheet`): the trace's model.
    public var library: PanelModel
    /// The version as written (`"4.5.5"`, `"master"`, `"17.4"`).
    public var version: String
    /// The profile point the version maps to (profiles.md §2.2): the latest point at or below it.
    public var point: String
    /// Switches replaced by their value at another point, in switch order (empty for a plain
    /// profile). Only `upgrade-diff` builds these; results never record them.
    public var borrowed: [ProfileBorrow] = []

    public init(library: PanelModel, version: String, point: String, borrowed: [ProfileBorrow] = []) {
        self.library = library; self.version = version; self.point = point; self.borrowed = borrowed
    }
}

/// One switch of a `TraceProfile` replaced by its value at another point.
public struct ProfileBorrow: Sendable, Equatable {
    /// The switch's ID (`"LN-S7"`).
    public var switchID: String
    /// The point whose value it takes.
    public var point: String
    public init(switchID: String, point: String) { self.switchID = switchID; self.point = point }
}

extension Trace {
    /// The profile this replay uses: the one `options` names for the trace's library (the command
    /// line's `--profile`), else the header's own; nil for neither (the default point, and no
    /// `profile` member in the result).
    public func replayProfile(_ options: SimulationOptions) -> TraceProfile? {
        options.profile(for: header.model) ?? header.profile
    }
}

extension SimulationOptions {
    /// The command line's profile for `library`, nil when none names it.
    public func profile(for library: PanelModel) -> TraceProfile? {
        profiles.first { $0.library == library }
    }
}

/// One switch (or gate) of a system's profile table, over the system's switch-value type `Values`.
/// A switch's ID is `<LIB>-S<n>`, a gate's `<LIB>-G<n>` (profiles.md §3).
public struct ProfileSwitch<Values: Sendable>: Sendable {
    /// `"LN-S7"`.
    public let id: String
    /// `"releaseRule"`.
    public let name: String
    /// The name of this switch's value in `values`, as `panelsim profiles` lists it (`"old"`, `"on"`, …).
    public let valueName: @Sendable (Values) -> String
    /// Copies this switch's value from the second argument into the first.
    public let copy: @Sendable (inout Values, Values) -> Void

    public init(_ id: String, _ name: String, value: @escaping @Sendable (Values) -> String,
                copy: @escaping @Sendable (inout Values, Values) -> Void) {
        self.id = id; self.name = name; self.valueName = value; self.copy = copy
    }

    /// `"LN-S7 releaseRule"`: how reports name the switch.
    public var label: String { id + " " + name }
}

/// A system's profile points with their switch values, and its switches: what the model reads
/// (`values(for:)`) and what `ProfileCatalog` lists.
public struct ProfileTable<Values: Sendable>: Sendable {
    /// The points in version order: name, the versions that map to it (as listed), the values.
    public let points: [(name: String, versions: String, values: Values)]
    /// The switches then the gates, in ID order.
    public let switches: [ProfileSwitch<Values>]
    /// The point used without a profile (the system spec's model).
    public let defaultPoint: String
    /// The values at `defaultPoint`, looked up once: every replay without a profile reads them.
    private let defaultValues: Values

    /// - Precondition: `defaultPoint` names one of `points`.
    public init(points: [(name: String, versions: String, values: Values)], switches: [ProfileSwitch<Values>], defaultPoint: String) {
        self.points = points; self.switches = switches; self.defaultPoint = defaultPoint
        guard let point = points.first(where: { $0.name == defaultPoint }) else {
            preconditionFailure("the default profile point \(defaultPoint) is not among the points")
        }
        defaultValues = point.values
    }

    /// The values at `point`; the default point's for an unknown name.
    /// - Complexity: O(points).
    public func values(at point: String) -> Values {
        points.first { $0.name == point }?.values ?? defaultValues
    }

    /// The values a replay under `profile` uses: the default point's for nil, else the profile's
    /// point with each borrowed switch copied from its point.
    /// - Complexity: O(1) for nil, else O(points · (1 + borrowed switches)).
    public func values(for profile: TraceProfile?) -> Values {
        guard let profile else { return defaultValues }
        var v = values(at: profile.point)
        for b in profile.borrowed {
            if let s = switches.first(where: { $0.id == b.switchID }) { s.copy(&v, values(at: b.point)) }
        }
        return v
    }

    /// The switch rows of the listing: each switch's value name at every point.
    public var rows: [ProfileSwitchRow] {
        switches.map { s in ProfileSwitchRow(id: s.id, name: s.name, values: points.map { s.valueName($0.values) }) }
    }
}

/// One row of a library's switch table (`panelsim profiles LIBRARY`).
public struct ProfileSwitchRow: Sendable, Equatable {
    public var id: String
    public var name: String
    /// The value's name at each point, in point order.
    public var values: [String]
    /// `"LN-S7 releaseRule"`.
    public var label: String { id + " " + name }
    /// True for a gate (`-G` IDs, profiles.md §2.3).
    public var isGate: Bool { id.contains("-G") }
}

/// A trace feature its profile lacks (profiles.md §2.3): the line (1 for the header), the field and
/// the message, e.g. `setDrawerState needs drawerkit master (not in 0.7.0)`.
public struct ProfileGateViolation: Sendable, Equatable {
    public var line: Int
    public var field: String
    public var message: String
    /// The gate's ID (`"DK-G1"`).
    public var gate: String
    public init(line: Int, field: String, message: String, gate: String) {
        self.line = line; self.field = field; self.message = message; self.gate = gate
    }
}

/// Why a version string names no point (profiles.md §2.2).
public enum ProfileVersionProblem: Error, Sendable, Equatable {
    /// Not a released version of the library.
    case unknown
    /// A version below the floor ("not modelled").
    case belowFloor
    /// A version after the ceiling ("not studied").
    case aboveCeiling
}

/// A version's place in a library's version order: components compared left to right, a missing
/// component counting as 0 (`4.5.6` = `4.5.6.0`). DrawerKit's `master` is `[Int.max]`.
public struct VersionKey: Sendable, Comparable, Hashable {
    public var components: [Int]
    public init(_ components: [Int]) { self.components = components }

    /// The components of a dotted decimal version (`"4.5.6.1"`), nil unless every part is a
    /// non-empty run of ASCII digits (at most 6) and there are 1…4 parts.
    public init?(dotted text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var c: [Int] = []
        for p in parts {
            guard !p.isEmpty, p.count <= 6, p.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(p) else { return nil }
            c.append(n)
        }
        components = c
    }

    public static func < (a: VersionKey, b: VersionKey) -> Bool {
        for i in 0..<max(a.components.count, b.components.count) {
            let x = i < a.components.count ? a.components[i] : 0
            let y = i < b.components.count ? b.components[i] : 0
            if x != y { return x < y }
        }
        return false
    }

    public static func == (a: VersionKey, b: VersionKey) -> Bool { !(a < b) && !(b < a) }
    public func hash(into h: inout Hasher) {
        var c = components
        while c.last == 0 { c.removeLast() }
        h.combine(c)
    }
}

/// A library's profile description as commands use it (profiles.md §2.2, §2.5): its points and
/// the versions each covers, its switch table, version mapping, and its gates.
public struct ProfileCatalog: Sendable {
    /// The library, equal to its traces' `model`.
    public let library: PanelModel
    /// Point names in version order, and the versions each covers as listed.
    public let points: [(name: String, versions: String)]
    /// The default point (the system spec's model).
    public let defaultPoint: String
    /// The switch table (switches, then gates).
    public let rows: [ProfileSwitchRow]
    /// The earliest point and the last studied version, as listed (`"2.0.0"`, `"3.2.2"`).
    public let floor: String, ceiling: String
    /// `"2.0.0–3.2.2"`: the released versions accepted.
    public let releasedRange: String
    /// A version string's place, or why it is refused.
    let key: @Sendable (String) -> Result<VersionKey, ProfileVersionProblem>
    /// Each point's key, in point order.
    let pointKeys: [VersionKey]
    /// The first gate the trace uses that `profile` lacks, nil when none.
    let gates: @Sendable (Trace, TraceProfile) -> ProfileGateViolation?

    /// A catalog of `table`'s points and switches.
    /// - Parameters:
    ///   - key: a version string's key, or why it is refused; must accept every point name.
    ///   - gates: the gate check of the system (`ProfileGateViolation`), run on a trace and the
    ///     profile it is replayed under.
    public init<Values>(library: PanelModel, table: ProfileTable<Values>, floor: String, ceiling: String, releasedRange: String,
                        key: @escaping @Sendable (String) -> Result<VersionKey, ProfileVersionProblem>,
                        gates: @escaping @Sendable (Trace, TraceProfile) -> ProfileGateViolation?) {
        self.library = library
        points = table.points.map { ($0.name, $0.versions) }
        defaultPoint = table.defaultPoint
        rows = table.rows
        self.floor = floor; self.ceiling = ceiling; self.releasedRange = releasedRange
        self.key = key
        pointKeys = table.points.map { p in
            if case .success(let k) = key(p.name) { return k }
            preconditionFailure("profile point \(p.name) is not an accepted version")
        }
        self.gates = gates
    }

    /// The point `version` maps to: the latest point at or below it (profiles.md §2.2).
    /// - Complexity: O(points).
    public func point(for version: String) -> Result<String, ProfileVersionProblem> {
        switch key(version) {
        case .failure(let p): return .failure(p)
        case .success(let k):
            guard let i = pointKeys.lastIndex(where: { $0 <= k }) else { return .failure(.belowFloor) }
            return .success(points[i].name)
        }
    }

    /// The profile `version` names, or the one-line message of profiles.md §2.2.
    public func profile(version: String) -> Result<TraceProfile, ProfileMessage> {
        switch point(for: version) {
        case .success(let p): return .success(TraceProfile(library: library, version: version, point: p))
        case .failure(let problem): return .failure(ProfileMessage(message(version, problem)))
        }
    }

    /// The refusal of `version` (profiles.md §2.2), naming the points, floor and ceiling.
    public func message(_ version: String, _ problem: ProfileVersionProblem) -> String {
        let quotedVersion = "\"" + version + "\""
        let head: String
        switch problem {
        case .unknown: head = "unknown \(library) version \(quotedVersion)"
        case .belowFloor: head = "\(library) version \(quotedVersion) is below the floor \(floor) (not modelled)"
        case .aboveCeiling: head = "\(library) version \(quotedVersion) is after the ceiling \(ceiling) (not studied)"
        }
        return head + "; points " + points.map(\.name).joined(separator: " ")
            + "; released versions \(releasedRange) map to the latest point at or below them"
    }

    /// The first gate `trace` uses that `profile` lacks (profiles.md §2.3).
    public func gateViolation(in trace: Trace, profile: TraceProfile) -> ProfileGateViolation? { gates(trace, profile) }

    /// The index of `point` in `points`.
    public func index(of point: String) -> Int? { points.firstIndex { $0.name == point } }

    /// The switch rows whose values differ between two points, in ID order (switches, then gates).
    public func differingSwitches(_ a: String, _ b: String) -> [ProfileSwitchRow] {
        guard let i = index(of: a), let j = index(of: b) else { return [] }
        return rows.filter { $0.values[i] != $0.values[j] }
    }

    /// The point's value of gate `id` is its opening value (anything but `refused`/`closed`).
    public func gateOpen(_ id: String, at point: String) -> Bool {
        guard let i = index(of: point), let row = rows.first(where: { $0.id == id }) else { return true }
        return row.values[i] != "refused" && row.values[i] != "closed"
    }

    /// Version keys for a library whose accepted versions are an explicit list of dotted versions:
    /// accepted → its key; a dotted version below the floor / after the ceiling → refused as such;
    /// anything else unknown.
    public static func listedVersions(_ accepted: [String], floor: String, ceiling: String)
        -> @Sendable (String) -> Result<VersionKey, ProfileVersionProblem> {
        let set = Set(accepted)
        let floorKey = VersionKey(dotted: floor)!, ceilingKey = VersionKey(dotted: ceiling)!
        return { v in
            guard let k = VersionKey(dotted: v) else { return .failure(.unknown) }
            if set.contains(v) { return .success(k) }
            if k < floorKey { return .failure(.belowFloor) }
            if ceilingKey < k { return .failure(.aboveCeiling) }
            return .failure(.unknown)
        }
    }
}

/// "on" or "off": how the listing names a Boolean switch value.
public func profileOnOff(_ value: Bool) -> String { value ? "on" : "off" }

/// A profile message (refused version, mismatched library) as an error value.
public struct ProfileMessage: Error, Sendable, Equatable {
    public var text: String
    public init(_ text: String) { self.text = text }
}
