import PanelSimCore

extension LNPopupSoak {
    /// The rules of P1–P6 that an older LNPopupController breaks (profiles.md §4.2), each where its
    /// switch has the older value:
    /// * P5's drag-start checks (`animating`, `ignored`) at 4.0.9–4.5.0: LN-S1 lets a pan on the
    ///   open content through during a re-open and LN-S4's `gesturesIgnored` flag does not exist
    ///   yet, so the pan starts a drag while the re-open's animator runs (profiles.md §3.2.3 LN-S4
    ///   "Before", `4.5.0 LNPopupController.mm:1155`).
    /// * On a replay where P5 saw such a drag start, what follows from that drag (`lnPopupDragConsequences`).
    /// * P2's `barVisible` check at 4.0.0–4.5.3 when the style does not resolve to snap: LN-S8
    ///   `snapOnly` applies the bar's height and alpha only in snap style, so the bar keeps its
    ///   height while open (§3.2.3 LN-S8 "Before", `4.5.3 LNPopupController.mm:574–586`). The
    ///   table of §4.2 names drag and scroll; `none` resolves to no snap either, so it is covered.
    public static let exemptions: [SoakExemption<LNPopupProfile>] = [
        SoakExemption("P5", kinds: ["animating", "ignored"], source: "LN-S4 gesturesIgnored off, LN-S1 contentOnly (profiles.md §3.2.3, §4.2)") { v, _ in
            lacksGestureIgnoring(v)
        },
    ] + lnPopupDragConsequences + [
        SoakExemption("P2", kinds: ["bar"], source: "LN-S8 barHeightAllStyles snapOnly (profiles.md §3.2.3, §4.2)") { v, trace in
            guard !v.barHeightAllStyles else { return false }
            switch trace.header.popup?.interactionStyle ?? .default {
            case .snap: return false
            case .default: return v.defaultStyle != .snap
            default: return true
            }
        },
    ]

    /// LN-S4 "Before" with LN-S1 `contentOnly` (4.0.9–4.5.0): pans on the open content reach
    /// LNPopup during a re-open and nothing ignores them.
    static func lacksGestureIgnoring(_ v: LNPopupProfile) -> Bool { !v.gesturesIgnored && v.touchesDuringOpen == .contentOnly }

    /// What a drag that started during a re-open (P5 `animating` or `ignored` on the same replay)
    /// does at 4.0.9–4.5.0, each a consequence of rules the 4.5.6 model shares with those versions:
    /// * its start request finds the internal state transitioning and changes nothing (lnpopup.md
    ///   §3.4 step 1); when the re-open completes first, the release requests the state the popup is
    ///   already in and nothing moves the content or the bottom bar back (P1 `location`, P2 `bar`
    ///   and `bottom-bar`: at rest off the state's geometry);
    /// * while the re-open runs, the drag's frames carry the animator's remaining offset (§3.9) and
    ///   the rubber band starts where the re-open caught it (P4 `follow`, `snap`);
    /// * its release or snap threshold is queued behind the running re-open and starts at its
    ///   completion (§3.8), not at once (P6 `release`);
    /// * a `dismissBar` queued behind the re-open cancels the drag when it starts (§3.11), without
    ///   `willEndDragging` (P3 `unclosed`; lnpopup.md Q12, which L13 keeps out of reach at 4.5.6).
    static let lnPopupDragConsequences: [SoakExemption<LNPopupProfile>] = [
        ("P1", ["location"]), ("P2", ["bar", "bottom-bar"]), ("P3", ["unclosed"]), ("P4", ["follow", "snap"]), ("P6", ["release"]),
    ].map { rule, kinds in
        SoakExemption(rule, kinds: kinds, onlyWith: ["P5:animating", "P5:ignored"],
                      source: "LN-S4 gesturesIgnored off: a consequence of a drag started during a re-open (profiles.md §3.2.3 LN-S4)") { v, _ in
            lacksGestureIgnoring(v)
        }
    }
}
