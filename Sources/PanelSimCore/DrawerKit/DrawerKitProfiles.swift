/// DrawerKit's version profiles (profiles.md §3.3): the last release 0.7.0 against the master
/// commit `bc1c220` that drawerkit.md models. `DrawerKitSystem` reads `profile`.

/// The switch and gate values of one DrawerKit profile point (profiles.md §3.3.1).
public struct DrawerKitProfile: Sendable, Equatable {
    /// DK-S1 collapsedRecognized: state(y) has its rule 4 (a drawer at collapsedY is `collapsed`);
    /// off (0.7.0): it is `transitioning(collapsedY)` wherever a state is derived from a position.
    public var collapsedRecognized: Bool
    /// DK-S2 tapAvailability: §3.2's rule (true); 0.7.0: both tap recognizers are enabled iff the
    /// target is partiallyExpanded.
    public var masterTapAvailability: Bool
    /// DK-G1 setDrawerState: the call exists.
    public var setDrawerState: Bool
}

/// The DrawerKit profile table and catalog.
public enum DrawerKitProfiles {
    /// 0.7.0 and master (profiles.md §3.3.1).
    public static let table = ProfileTable<DrawerKitProfile>(
        points: [
            (
                "0.7.0", "0.7.0 (v0.7.0)",
                DrawerKitProfile(collapsedRecognized: false, masterTapAvailability: false, setDrawerState: false)
            ),
            (
                "master", "master, bc1c220",
                DrawerKitProfile(collapsedRecognized: true, masterTapAvailability: true, setDrawerState: true)
            ),
        ],
        switches: [
            ProfileSwitch(
                "DK-S1", "collapsedRecognized", value: { $0.collapsedRecognized ? "new" : "old" },
                copy: { $0.collapsedRecognized = $1.collapsedRecognized }),
            ProfileSwitch(
                "DK-S2", "tapAvailability", value: { $0.masterTapAvailability ? "new" : "old" },
                copy: { $0.masterTapAvailability = $1.masterTapAvailability }),
            ProfileSwitch(
                "DK-G1", "setDrawerState", value: { $0.setDrawerState ? "open" : "closed" },
                copy: { $0.setDrawerState = $1.setDrawerState }),
        ],
        defaultPoint: "master")

    /// The master commit's full hash; any prefix of 7 or more hex digits names it.
    static let masterCommit = "bc1c220b10f2e59c84cc455db0456f413a86b9c6"

    /// `0.7.0`/`v0.7.0` and `master`/`bc1c220…` (profiles.md §2.2); a dotted version below 0.7.0 is
    /// below the floor, one above it (never released) unknown.
    static func key(_ v: String) -> Result<VersionKey, ProfileVersionProblem> {
        if v == "0.7.0" || v == "v0.7.0" { return .success(VersionKey([0, 7, 0])) }
        if v == "master" || (v.count >= 7 && v.count <= masterCommit.count && masterCommit.hasPrefix(v)) {
            return .success(VersionKey([Int.max]))
        }
        let dotted = v.hasPrefix("v") ? String(v.dropFirst()) : v
        if let k = VersionKey(dotted: dotted), k < VersionKey([0, 7, 0]) { return .failure(.belowFloor) }
        return .failure(.unknown)
    }

    /// Points, version mapping and the gate DK-G1.
    public static let catalog = ProfileCatalog(
        library: PanelModel.drawerKit, table: table, floor: "0.7.0", ceiling: "master (bc1c220)",
        releasedRange: "0.7.0 and master",
        key: { key($0) },
        gates: { trace, profile in
            guard !table.values(for: profile).setDrawerState else { return nil }
            for s in trace.samples {
                if case .setDrawerState? = s.kind.drawerCall {
                    return ProfileGateViolation(
                        line: s.line, field: "call",
                        message: "setDrawerState needs drawerkit master (not in \(profile.version))",
                        gate: "DK-G1")
                }
            }
            return nil
        })
}
