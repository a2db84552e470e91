/// FloatingPanel's replay options (floatingpanel-core.md §9 O3, O8 and the opt-in frame channels):
/// `SimulationOptions.floatingPanel`. FloatingPanel's result headers record those away from their
/// defaults (`nonDefaultNames`).
public struct FloatingPanelOptions: Sendable, Equatable {
    /// O8 option: apply `scroll` samples to the scroll view (as outside `setContentOffset`, size
    /// and `isDecelerating`) instead of the finger-driven model of O6/O7. Default: observations only.
    public var driveScroll = false
    /// O3 option: run Core's panel-pan handler before the scroll view's pan and Core's scroll handler
    /// for each touch sample. Default false: scroll view, then Core's scroll handler, then the panel.
    public var panelHandlerFirst = false
    /// Opt-in frame channel: frames carry the tracked scroll view's `contentInset` as FloatingPanel
    /// writes it (floatingpanel-core.md §3.10 `adjustScrollContentInsetIfNeeded`, and the safe-area
    /// observation of §5.2), so that it can be checked. Default false: frames have no such channel
    /// and results are byte-identical to those made before it existed.
    public var recordContentInset = false
    /// Not FloatingPanel: for the invariant checker's mirror comparison (scenarios.md G6) only. On a
    /// top or left panel, the three rules where FloatingPanel's arithmetic is not the mirror image
    /// of a bottom or right panel's are replaced by that mirror image, so that a difference between
    /// a bottom replay and its mirror that these rules explain can be told from any other:
    /// 1. the laid-out frame edge (floatingpanel-core.md §1.6/§9 O2) and every rounding of it use
    ///    the mirror image of FloatingPanel's `rounded(by:)` (`Extensions.swift`: truncation toward
    ///    zero at 1e-9, then half away from zero). On the positive coordinates of every panel that
    ///    truncates toward lower coordinates and sends a half-pixel tie toward higher ones: toward
    ///    the most expanded side and toward hidden on a bottom/right panel, the other way round on a
    ///    top/left one. Here a top/left panel truncates toward the most expanded side and rounds a
    ///    tie toward hidden (`mirroredRoundedByDisplayScale`);
    /// 2. startInteraction's inset-area test (§3.3 step 2b; FloatingPanel `Core.startInteraction`,
    ///    `case .top, .left`) adds `contentOffsetMax` where a bottom/right panel adds
    ///    −adjustedContentInset.top (.left); here it adds −adjustedContentInset.bottom (.right), the
    ///    mirror image of the bottom panel's test;
    /// 3. the interaction constraint is anchored to the container's top (left) edge for every
    ///    position (FloatingPanel `LayoutAdapter.startInteraction`), so a container change keeps a
    ///    top/left panel's moving edge where a bottom/right one's moves with the far edge; here
    ///    its constant follows the container's main dimension.
    /// Bottom and right panels are unaffected. Default false.
    public var mirrorImageArithmetic = false
    public init() {}

    /// The options set away from their defaults (O8 `driveScroll`, O3 `panelHandlerFirst`, the
    /// `contentInset` frame channel), by
    /// name, in that order: what a result file records so that goldens of different modes are not
    /// compared with each other. The settle budget is not an option of the command line.
    public var nonDefaultNames: [String] {
        (driveScroll ? ["driveScroll"] : []) + (panelHandlerFirst ? ["panelHandlerFirst"] : [])
            + (recordContentInset ? ["contentInset"] : []) + (mirrorImageArithmetic ? ["mirrorImageArithmetic"] : [])
    }
}

extension SimulationOptions {
    /// `floatingPanel.driveScroll` (§9 O8).
    public var driveScroll: Bool {
        get { floatingPanel.driveScroll }
        set { floatingPanel.driveScroll = newValue }
    }
    /// `floatingPanel.panelHandlerFirst` (§9 O3).
    public var panelHandlerFirst: Bool {
        get { floatingPanel.panelHandlerFirst }
        set { floatingPanel.panelHandlerFirst = newValue }
    }
    /// `floatingPanel.recordContentInset` (the opt-in `contentInset` frame channel).
    public var recordContentInset: Bool {
        get { floatingPanel.recordContentInset }
        set { floatingPanel.recordContentInset = newValue }
    }
    /// `floatingPanel.mirrorImageArithmetic` (the invariant checker's mirror comparison).
    public var mirrorImageArithmetic: Bool {
        get { floatingPanel.mirrorImageArithmetic }
        set { floatingPanel.mirrorImageArithmetic = newValue }
    }
    /// `floatingPanel.nonDefaultNames`.
    public var nonDefaultNames: [String] { floatingPanel.nonDefaultNames }
}
