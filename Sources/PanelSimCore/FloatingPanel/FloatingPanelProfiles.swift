/// FloatingPanel's version profiles (profiles.md §3.1): the switches by which 2.0.0 – 3.2.0 differ
/// from the 3.2.2 model of floatingpanel-core.md, their values at each profile point, and the
/// gates. `PanelCore` reads `profile`; nothing else in the model names a version.

/// The switch and gate values of one FloatingPanel profile point (profiles.md §3.1.1).
public struct FloatingPanelProfile: Sendable, Equatable {
    /// FP-S5: which content offset `startInteraction` captures as io.
    public enum OffsetCapture: String, Sendable, Equatable {
        /// ≤ 2.5.1 and 2.6.0 – 2.6.6: every touch outside the grabber band pins to the pinning offset.
        case pin
        /// 2.5.2 – 2.5.5: every such touch keeps the current offset.
        case current
        /// 2.7.0 on: §3.3 step 2 a–c.
        case new
    }
    /// FP-S6: how the tracked list is pinned around a release and during springs.
    public enum ListPinning: String, Sendable, Equatable {
        /// ≤ 2.2.x: no per-frame pin; one pin after the release's sample; deceleration stopped when
        /// the release attracts to a state other than the one named `full`.
        case toggleFull = "toggle(full)"
        /// 2.3.0 – 2.6.5: as `toggleFull`, comparing with the most expanded state.
        case toggle
        /// 2.6.6: the pin after the release's sample, no deceleration stop.
        case async
        /// 2.7.0 on: every attraction frame pins (§4.4).
        case perFrame
    }

    /// FP-S1 removalThreshold: the default removal threshold (1/s); nil = the behavior's field.
    public var removalThreshold: Double?
    /// FP-S2 moveAnimatorLeak.
    public var moveAnimatorLeak: Bool
    /// FP-S3 negativePinToZero.
    public var negativePinToZero: Bool
    /// FP-S4 scrollFailureRule: true = `a ≤ −30` only (new), false = `a ≤ −30 or a > 0` (old).
    public var newScrollFailureRule: Bool
    /// FP-S5 offsetCapture.
    public var offsetCapture: OffsetCapture
    /// FP-S6 listPinning.
    public var listPinning: ListPinning
    /// FP-S7 eventOrder: true = F4, F5 and §6.2 G of the system spec (new).
    public var newEventOrder: Bool
    /// FP-S8 scrollHandleRule: true = §3.5, §3.2 step 3, §3.3, §3.7 of the system spec (new).
    public var newScrollHandleRule: Bool
    /// FP-S9 exactAnchorStateBug: an exact release does not assign `state`.
    public var exactAnchorStateBug: Bool
    /// FP-S10 clampAboveZero: §3.4.2's clamp also requires the surface location before the sample > 0.
    public var clampAboveZero: Bool
    /// FP-S11 clearOffsetAfterAttraction: io := nil at the end of an attraction or exact release.
    public var clearOffsetAfterAttraction: Bool
    /// FP-S12 anchorTolerance: true = |offset(from: state)| < 1 in §3.5 step 3, false = exactly 0.
    public var anchorTolerance: Bool
    /// FP-S13 anchorRounding: true = pos(state) rounded everywhere, false = raw in the core's rules.
    public var roundedAnchors: Bool
    /// FP-S14 invalidateStateReset: an invalidation that removes the current state resets it (§5.4 step 3).
    public var invalidateStateReset: Bool
    /// FP-S15 ioAtTrack: tracking a scroll view sets io := its content offset (§2 rule 2).
    public var ioAtTrack: Bool
    /// FP-G1 … FP-G5: the feature exists at this point.
    public var adaptiveAnchors: Bool, removalThresholdField: Bool, customStates: Bool, contentBoundingGuide: Bool,
        scrollableStates: Bool

    /// The removal threshold a default `shouldRemove` uses with `behavior` (FP-S1).
    public func removalThreshold(_ behavior: PanelBehavior) -> Double {
        removalThreshold ?? behavior.removalInteractionVelocityThreshold
    }
}

/// The FloatingPanel profile table and catalog.
public enum FloatingPanelProfiles {
    /// The points of profiles.md §3.1.1, oldest first, with their switch and gate values.
    public static let table: ProfileTable<FloatingPanelProfile> = {
        let floor = FloatingPanelProfile(
            removalThreshold: 10, moveAnimatorLeak: true, negativePinToZero: false, newScrollFailureRule: false,
            offsetCapture: .pin, listPinning: .toggleFull, newEventOrder: false, newScrollHandleRule: false,
            exactAnchorStateBug: false, clampAboveZero: true, clearOffsetAfterAttraction: false, anchorTolerance: false,
            roundedAnchors: false, invalidateStateReset: false, ioAtTrack: false,
            adaptiveAnchors: false, removalThresholdField: false, customStates: false, contentBoundingGuide: false,
            scrollableStates: false)
        var p = floor
        var points: [(name: String, versions: String, values: FloatingPanelProfile)] = [("2.0.0", "2.0.0", p)]
        func add(_ name: String, _ versions: String, _ change: (inout FloatingPanelProfile) -> Void) {
            change(&p)
            points.append((name, versions, p))
        }
        add("2.0.1", "2.0.1") {
            $0.removalThreshold = 5.5
            $0.moveAnimatorLeak = false
        }
        add("2.1.0", "2.1.0") { $0.adaptiveAnchors = true }
        add("2.2.0", "2.2.0") {
            $0.removalThresholdField = true
            $0.removalThreshold = nil
        }
        add("2.3.0", "2.3.0 – 2.5.1") {
            $0.customStates = true
            $0.listPinning = .toggle
        }
        add("2.5.2", "2.5.2 – 2.5.5") {
            $0.offsetCapture = .current
            $0.ioAtTrack = true
        }
        add("2.6.0", "2.6.0 – 2.6.2") {
            $0.contentBoundingGuide = true
            $0.offsetCapture = .pin
        }
        add("2.6.3", "2.6.3") { $0.negativePinToZero = true }
        add("2.6.4", "2.6.4, 2.6.5") { $0.newScrollFailureRule = true }
        add("2.6.6", "2.6.6") {
            $0.negativePinToZero = false
            $0.listPinning = .async
        }
        add("2.7.0", "2.7.0") {
            $0.offsetCapture = .new
            $0.listPinning = .perFrame
            $0.newEventOrder = true
        }
        add("2.8.0", "2.8.0") {
            $0.newScrollHandleRule = true
            $0.scrollableStates = true
        }
        add("2.8.1", "2.8.1") {
            $0.exactAnchorStateBug = true
            $0.invalidateStateReset = true
        }
        add("2.8.2", "2.8.2, 2.8.3") { $0.exactAnchorStateBug = false }
        add("2.8.4", "2.8.4 – 2.8.6") { $0.clampAboveZero = false }
        add("2.8.7", "2.8.7") { $0.clearOffsetAfterAttraction = true }
        add("2.8.8", "2.8.8, 3.0.0 – 3.2.0") { $0.anchorTolerance = true }
        add("3.2.1", "3.2.1, 3.2.2") { $0.roundedAnchors = true }
        typealias P = FloatingPanelProfile
        func flag(
            _ id: String, _ name: String, _ key: WritableKeyPath<P, Bool> & Sendable, on: String = "on",
            off: String = "off"
        )
            -> ProfileSwitch<P>
        {
            ProfileSwitch(
                id, name, value: { $0[keyPath: key] ? on : off }, copy: { $0[keyPath: key] = $1[keyPath: key] })
        }
        func gate(_ id: String, _ name: String, _ key: WritableKeyPath<P, Bool> & Sendable) -> ProfileSwitch<P> {
            flag(id, name, key, on: "open", off: "refused")
        }
        return ProfileTable(
            points: points,
            switches: [
                ProfileSwitch(
                    "FP-S1", "removalThreshold",
                    value: { $0.removalThreshold.map { $0 == 10 ? "10" : "5.5" } ?? "field" },
                    copy: { $0.removalThreshold = $1.removalThreshold }),
                flag("FP-S2", "moveAnimatorLeak", \.moveAnimatorLeak),
                flag("FP-S3", "negativePinToZero", \.negativePinToZero),
                flag("FP-S4", "scrollFailureRule", \.newScrollFailureRule, on: "new", off: "old"),
                ProfileSwitch(
                    "FP-S5", "offsetCapture", value: { $0.offsetCapture.rawValue },
                    copy: { $0.offsetCapture = $1.offsetCapture }),
                ProfileSwitch(
                    "FP-S6", "listPinning", value: { $0.listPinning.rawValue },
                    copy: { $0.listPinning = $1.listPinning }),
                flag("FP-S7", "eventOrder", \.newEventOrder, on: "new", off: "old"),
                flag("FP-S8", "scrollHandleRule", \.newScrollHandleRule, on: "new", off: "old"),
                flag("FP-S9", "exactAnchorStateBug", \.exactAnchorStateBug),
                flag("FP-S10", "clampAboveZero", \.clampAboveZero),
                flag("FP-S11", "clearOffsetAfterAttraction", \.clearOffsetAfterAttraction),
                flag("FP-S12", "anchorTolerance", \.anchorTolerance, on: "<1 pt", off: "exact"),
                flag("FP-S13", "anchorRounding", \.roundedAnchors, on: "rounded", off: "raw"),
                flag("FP-S14", "invalidateStateReset", \.invalidateStateReset),
                flag("FP-S15", "ioAtTrack", \.ioAtTrack),
                gate("FP-G1", "adaptiveAnchors", \.adaptiveAnchors),
                gate("FP-G2", "removalThresholdField", \.removalThresholdField),
                gate("FP-G3", "customStates", \.customStates),
                gate("FP-G4", "contentBoundingGuide", \.contentBoundingGuide),
                gate("FP-G5", "scrollableStates", \.scrollableStates),
            ], defaultPoint: "3.2.1")
    }()

    /// The release tags of profiles.md §2.2 (2.0.0 … 3.2.2).
    static let releasedVersions: [String] =
        ["2.0.0", "2.0.1", "2.1.0", "2.2.0", "2.3.0", "2.3.1", "2.4.0", "2.4.1"] + (0...5).map { "2.5.\($0)" }
        + (0...6).map { "2.6.\($0)" } + ["2.7.0"] + (0...8).map { "2.8.\($0)" } + [
            "3.0.0", "3.0.1", "3.1.0", "3.2.0", "3.2.1", "3.2.2",
        ]

    /// Points, version mapping (released tags 2.0.0 – 3.2.2) and the gates FP-G1 … FP-G5.
    public static let catalog = ProfileCatalog(
        library: PanelModel.floatingPanel, table: table, floor: "2.0.0", ceiling: "3.2.2", releasedRange: "2.0.0–3.2.2",
        key: ProfileCatalog.listedVersions(releasedVersions, floor: "2.0.0", ceiling: "3.2.2"),
        gates: { trace, profile in gateViolation(trace, profile) })

    /// The first use, in the header then in file order, of a feature `profile` lacks (profiles.md §3.1.2).
    static func gateViolation(_ trace: Trace, _ profile: TraceProfile) -> ProfileGateViolation? {
        guard let header = trace.header.floatingPanel else { return nil }
        let v = table.values(for: profile)
        func needs(_ line: Int, _ field: String, _ what: String, _ opens: String, _ gate: String)
            -> ProfileGateViolation
        {
            ProfileGateViolation(
                line: line, field: field, message: "\(what) needs floatingpanel \(opens) (not in \(profile.version))",
                gate: gate)
        }
        func check(_ panel: FloatingPanelConfiguration, line: Int, prefix: String) -> ProfileGateViolation? {
            for entry in panel.anchors {
                let field = "\(prefix).anchors.\(entry.state.name)"
                if case .adaptive(_, _, _, _, let bounding) = entry.anchor {
                    if !v.adaptiveAnchors {
                        return needs(line, field + ".adaptive", "an adaptive anchor", "2.1.0", "FP-G1")
                    }
                    if bounding != .none && !v.contentBoundingGuide {
                        return needs(
                            line, field + ".adaptive.contentBoundingGuide", "contentBoundingGuide \(bounding.rawValue)",
                            "2.6.0", "FP-G4")
                    }
                }
                if !v.customStates && !FloatingPanelState.builtIn.contains(where: { $0.name == entry.state.name }) {
                    return needs(line, field, "an anchor for the custom state \(entry.state.name)", "2.3.0", "FP-G3")
                }
            }
            // FP-G2: before 2.2.0 the threshold is a constant; a value other than the contract's
            // default (5.5, read as "not set") and the version's constant cannot be honoured.
            let t = panel.behavior.removalInteractionVelocityThreshold
            if !v.removalThresholdField, t != PanelBehavior().removalInteractionVelocityThreshold,
                t != v.removalThreshold
            {
                return needs(
                    line, "\(prefix).behavior.removalInteractionVelocityThreshold",
                    "removalInteractionVelocityThreshold \(t)", "2.2.0", "FP-G2")
            }
            return nil
        }
        if let found = check(header.panel, line: 1, prefix: "panel") { return found }
        if header.delegate.scrollableStates != nil && !v.scrollableStates {
            return needs(1, "delegate.scrollableStates", "scrollableStates (shouldAllowToScroll)", "2.8.0", "FP-G5")
        }
        for s in trace.samples {
            if case .call(.invalidateLayout(let panel)) = s.kind,
                let found = check(panel, line: s.line, prefix: "panel")
            {
                return found
            }
        }
        return nil
    }
}
