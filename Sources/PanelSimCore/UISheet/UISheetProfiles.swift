/// UISheetPresentationController's version profiles (profiles.md §3.4): iOS 15 against iOS 16–18,
/// which differ (for what a trace can express) only in the availability of custom detents. The
/// layout of uisheet.md is used at both points; the model reads no switch.

/// The gate values of one UISheet profile point.
public struct UISheetProfile: Sendable, Equatable {
    /// US-G1 customDetents: `Detent.custom(identifier:resolver:)` exists (iOS 16.0+).
    public var customDetents: Bool
}

/// The UISheet profile table and catalog.
public enum UISheetProfiles {
    /// 15 and 16 (profiles.md §3.4).
    public static let table = ProfileTable<UISheetProfile>(
        points: [
            ("15", "15.x", UISheetProfile(customDetents: false)),
            ("16", "16.x – 18.x", UISheetProfile(customDetents: true)),
        ],
        switches: [
            ProfileSwitch(
                "US-G1", "customDetents", value: { $0.customDetents ? "open" : "refused" },
                copy: { $0.customDetents = $1.customDetents })
        ],
        defaultPoint: "16")

    /// An iOS version `MAJOR[.MINOR[.PATCH]]`: 15 – 18 accepted, below 15 not modelled, above 18
    /// (iOS 26, whose geometry is an option, not a profile) not studied.
    static func key(_ v: String) -> Result<VersionKey, ProfileVersionProblem> {
        guard v.split(separator: ".", omittingEmptySubsequences: false).count <= 3, let k = VersionKey(dotted: v) else {
            return .failure(.unknown)
        }
        if k.components[0] < 15 { return .failure(.belowFloor) }
        if k.components[0] > 18 { return .failure(.aboveCeiling) }
        return .success(k)
    }

    /// Points, version mapping, the gate US-G1, and the refusal of `sheet.simulator.variant: "ios26"`
    /// with a named profile (a trace cannot claim two OS versions, profiles.md §2.5).
    public static let catalog = ProfileCatalog(
        library: PanelModel.uiSheet, table: table, floor: "15", ceiling: "18", releasedRange: "iOS 15–18",
        key: { key($0) },
        gates: { trace, profile in
            guard let sheet = trace.header.sheet else { return nil }
            if sheet.simulator.variant == .ios26 {
                return ProfileGateViolation(
                    line: 1, field: "sheet.simulator.variant",
                    message:
                        "ios26 is not a profile point and cannot be combined with uisheet \(profile.version) (a trace cannot claim two OS versions)",
                    gate: "US-variant")
            }
            guard !table.values(for: profile).customDetents else { return nil }
            func custom(_ detents: [SheetDetent]) -> Int? { detents.firstIndex { $0.kindName == "custom" } }
            if let i = custom(sheet.detents) {
                return ProfileGateViolation(
                    line: 1, field: "sheet.detents[\(i)]",
                    message: "a custom detent needs uisheet 16 (not in \(profile.version))", gate: "US-G1")
            }
            for s in trace.samples {
                if case .setDetents(let detents, _)? = s.kind.sheetCall, let i = custom(detents) {
                    return ProfileGateViolation(
                        line: s.line, field: "detents[\(i)]",
                        message: "a custom detent needs uisheet 16 (not in \(profile.version))", gate: "US-G1")
                }
            }
            return nil
        })
}
