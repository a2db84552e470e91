/// LNPopupController's version profiles (profiles.md §3.2): the switches by which 4.0.0 – 4.5.5
/// differ from the 4.5.6 model of lnpopup.md, their values at each profile point, and the gate.
/// The model reads `LNPopupSystem.profile`; nothing else in the model names a version.

/// The switch values of one LNPopup profile point (profiles.md §3.2.1).
public struct LNPopupProfile: Sendable, Equatable {
    /// LN-S1: which touches an animated open lets through.
    public enum TouchesDuringOpen: String, Sendable, Equatable {
        /// ≤ 4.0.8: every animated open or close locks the window (touches and tap calls ignored).
        case locked
        /// 4.0.9 on: during an open the bar and the content accept touches (L7).
        case contentOnly
    }
    /// LN-S5: the damping (and seed) of the 0.5 s close animator.
    public enum CloseSpring: String, Sendable, Equatable {
        /// ≤ 4.5.1: every close 0.85 when the style resolved then is snap, else 1.
        case styleBased85
        /// 4.5.2: gesture closes 0.85, others 1, the close before `dismissBar` 0.85 in snap style.
        case gesture85
        /// 4.5.3: as `gesture85` with 0.87.
        case gesture87
        /// 4.5.4 – 4.5.5: a gesture close with v.y ≠ 0 uses 0.9 seeded with v.y / (3·H); v.y = 0
        /// uses 0.87; every other close 1.
        case seeded
        /// 4.5.6: gesture closes 0.87 unseeded, others 1 (lnpopup.md §3.9).
        case unseeded87
    }

    /// LN-S1 touchesDuringOpen.
    public var touchesDuringOpen: TouchesDuringOpen
    /// LN-S2 zeroTranslationIgnored: a `changed` sample with translation (0, 0) is ignored (Q4).
    public var zeroTranslationIgnored: Bool
    /// LN-S3 verticalOnlyBarPan: the closed bar's pan tests |v.y| > |v.x| at `began`.
    public var verticalOnlyBarPan: Bool
    /// LN-S4 gesturesIgnored: the `gesturesIgnored` flag exists (§3.5.6).
    public var gesturesIgnored: Bool
    /// LN-S5 closeSpring.
    public var closeSpring: CloseSpring
    /// LN-S6 defaultStyle: what `default` resolves to (`snap`, or `automatic`'s resolution).
    public var defaultStyle: PopupInteractionStyle
    /// LN-S7 releaseRule (the option `popup.simulator.releaseRule` overrides it).
    public var releaseRule: PopupReleaseRule
    /// LN-S8 barHeightAllStyles: the bar's height follows the state in every style (false: only
    /// when the style resolved at the transition is snap).
    public var barHeightAllStyles: Bool
    /// LN-G1 automaticStyle: `interactionStyle: "automatic"` exists.
    public var automaticStyle: Bool
}

/// The LNPopup profile table and catalog.
public enum LNPopupProfiles {
    /// The points of profiles.md §3.2.1, oldest first, with their switch values.
    public static let table: ProfileTable<LNPopupProfile> = {
        typealias P = LNPopupProfile
        let floor = P(
            touchesDuringOpen: .locked, zeroTranslationIgnored: false, verticalOnlyBarPan: false,
            gesturesIgnored: false,
            closeSpring: .styleBased85, defaultStyle: .snap, releaseRule: .legacy, barHeightAllStyles: false,
            automaticStyle: false)
        var p409 = floor
        p409.touchesDuringOpen = .contentOnly
        var p421 = p409
        p421.zeroTranslationIgnored = true
        var p430 = p421
        p430.verticalOnlyBarPan = true
        var p451 = p430
        p451.gesturesIgnored = true
        var p452 = p451
        p452.closeSpring = .gesture85
        var p453 = p452
        p453.closeSpring = .gesture87
        var p454 = p453
        p454.closeSpring = .seeded
        p454.barHeightAllStyles = true
        p454.automaticStyle = true
        var p456 = p454
        p456.closeSpring = .unseeded87
        p456.defaultStyle = .automatic
        p456.releaseRule = .current
        return ProfileTable(
            points: [
                ("4.0.0", "4.0.0 – 4.0.8", floor), ("4.0.9", "4.0.9 – 4.2.0", p409), ("4.2.1", "4.2.1 – 4.2.6", p421),
                ("4.3.0", "4.3.0 – 4.5.0", p430), ("4.5.1", "4.5.1", p451), ("4.5.2", "4.5.2, 4.5.2.1", p452),
                ("4.5.3", "4.5.3", p453), ("4.5.4", "4.5.4, 4.5.5", p454), ("4.5.6", "4.5.6, 4.5.6.1", p456),
            ],
            switches: [
                ProfileSwitch(
                    "LN-S1", "touchesDuringOpen", value: { $0.touchesDuringOpen.rawValue },
                    copy: { $0.touchesDuringOpen = $1.touchesDuringOpen }),
                ProfileSwitch(
                    "LN-S2", "zeroTranslationIgnored", value: { profileOnOff($0.zeroTranslationIgnored) },
                    copy: { $0.zeroTranslationIgnored = $1.zeroTranslationIgnored }),
                ProfileSwitch(
                    "LN-S3", "verticalOnlyBarPan", value: { profileOnOff($0.verticalOnlyBarPan) },
                    copy: { $0.verticalOnlyBarPan = $1.verticalOnlyBarPan }),
                ProfileSwitch(
                    "LN-S4", "gesturesIgnored", value: { profileOnOff($0.gesturesIgnored) },
                    copy: { $0.gesturesIgnored = $1.gesturesIgnored }),
                ProfileSwitch(
                    "LN-S5", "closeSpring", value: { $0.closeSpring.rawValue },
                    copy: { $0.closeSpring = $1.closeSpring }),
                ProfileSwitch(
                    "LN-S6", "defaultStyle", value: { $0.defaultStyle.rawValue },
                    copy: { $0.defaultStyle = $1.defaultStyle }),
                ProfileSwitch(
                    "LN-S7", "releaseRule", value: { $0.releaseRule == .legacy ? "old" : "new" },
                    copy: { $0.releaseRule = $1.releaseRule }),
                ProfileSwitch(
                    "LN-S8", "barHeightAllStyles", value: { $0.barHeightAllStyles ? "all" : "snapOnly" },
                    copy: { $0.barHeightAllStyles = $1.barHeightAllStyles }),
                ProfileSwitch(
                    "LN-G1", "automaticStyle", value: { $0.automaticStyle ? "open" : "refused" },
                    copy: { $0.automaticStyle = $1.automaticStyle }),
            ],
            defaultPoint: "4.5.6")
    }()

    /// The release tags of profiles.md §2.2 (4.0.0 … 4.5.6.1).
    static let releasedVersions: [String] =
        (0...10).map { "4.0.\($0)" } + ["4.1.0", "4.1.1"] + (0...6).map { "4.2.\($0)" } + (0...7).map { "4.3.\($0)" }
        + (0...11).map { "4.4.\($0)" } + [
            "4.5.0", "4.5.1", "4.5.2", "4.5.2.1", "4.5.3", "4.5.4", "4.5.5", "4.5.6", "4.5.6.1",
        ]

    /// Points, version mapping (released tags 4.0.0 – 4.5.6.1) and the gate LN-G1.
    public static let catalog = ProfileCatalog(
        library: PanelModel.lnPopup, table: table, floor: "4.0.0", ceiling: "4.5.6.1", releasedRange: "4.0.0–4.5.6.1",
        key: ProfileCatalog.listedVersions(releasedVersions, floor: "4.0.0", ceiling: "4.5.6.1"),
        gates: { trace, profile in
            guard let popup = trace.header.popup, popup.interactionStyle == .automatic,
                !table.values(for: profile).automaticStyle
            else { return nil }
            return ProfileGateViolation(
                line: 1, field: "popup.interactionStyle",
                message: "automatic needs lnpopup 4.5.4 (not in \(profile.version))", gate: "LN-G1")
        })
}
