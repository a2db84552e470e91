import PanelSimCore

extension LNPopupSoak {
    /// The rules of P1–P6 that an older LNPopupController breaks (profiles.md §4.2), each where its
    /// switch has the older value:
    /// * P5's drag-start checks (`animating`, `ignored`) at 4.0.9–4.5.0: LN-S1 lets a pan on the
    ///   open content through during a re-open and LN-S4's `gesturesIgnored` flag does not exist
    ///   yet, so the pan starts a drag while the re-open's animator runs (profiles.md §3.2.3 LN-S4
    ///   "Before", `4.5.0 LNPopupController.mm:1155`).
    /// * P1's rest location, P4's drag formulas and P6's release order at 4.0.9–4.5.0, on a replay
    ///   where P5 saw such a drag start: consequences of that drag (see each exemption).
    /// * P2's `barVisible` check at 4.0.0–4.5.3 when the style does not resolve to snap: LN-S8
    ///   `snapOnly` applies the bar's height and alpha only in snap style, so the bar keeps its
    ///   height while open (§3.2.3 LN-S8 "Before", `4.5.3 LNPopupController.mm:574–586`). The
    ///   table of §4.2 names drag and scroll; `none` resolves to no snap either, so it is covered.
    public static let exemptions: [SoakExemption<LNPopupProfile>] = [
        SoakExemption("P5", kinds: ["animating", "ignored"], source: "LN-S4 gesturesIgnored off, LN-S1 contentOnly (profiles.md §3.2.3, §4.2)") { v, _ in
            !v.gesturesIgnored && v.touchesDuringOpen == .contentOnly
        },
        // The drag that P5 saw start during a re-open: its start request found the internal state
        // transitioning and changed nothing (lnpopup.md §3.4 step 1); when the re-open completes
        // first, the release requests the state the popup is already in and nothing moves the
        // content back (at rest off its state's position, P1); while the re-open runs, the drag's
        // frames carry the animator's remaining offset and its rubber band starts where the
        // re-open caught it (P4's formulas assume a drag from the rest position).
        SoakExemption("P1", kinds: ["location"], onlyWith: ["P5:animating", "P5:ignored"],
                      source: "LN-S4 gesturesIgnored off (profiles.md §3.2.3 LN-S4 Before; lnpopup.md §3.4 step 1)") { v, _ in
            !v.gesturesIgnored && v.touchesDuringOpen == .contentOnly
        },
        SoakExemption("P4", kinds: ["follow", "snap"], onlyWith: ["P5:animating", "P5:ignored"],
                      source: "LN-S4 gesturesIgnored off (profiles.md §3.2.3 LN-S4 Before, §3.9)") { v, _ in
            !v.gesturesIgnored && v.touchesDuringOpen == .contentOnly
        },
        // The same drag's release (or snap threshold) is queued behind the running re-open and
        // starts at its completion (profiles.md §3.2.3 LN-S4 Before; lnpopup.md §3.8), not at once.
        SoakExemption("P6", kinds: ["release"], onlyWith: ["P5:animating", "P5:ignored"],
                      source: "LN-S4 gesturesIgnored off (profiles.md §3.2.3 LN-S4 Before; lnpopup.md §3.8)") { v, _ in
            !v.gesturesIgnored && v.touchesDuringOpen == .contentOnly
        },
        SoakExemption("P2", kinds: ["bar"], source: "LN-S8 barHeightAllStyles snapOnly (profiles.md §3.2.3, §4.2)") { v, trace in
            guard !v.barHeightAllStyles else { return false }
            switch trace.header.popup?.interactionStyle ?? .default {
            case .snap: return false
            case .default: return v.defaultStyle != .snap
            default: return true
            }
        },
    ]
}
