/// LNPopup's frame records (lnpopup.md §2.3): what the frame channels hold and how a frame is
/// written.

/// One LNPopup frame: `location` (the content's top edge, pt), `state` (public) and
/// `internalState`, `barVisible`, `barTop` and `barHeight` (pt), with a bottom bar its
/// `bottomBarTop` (pt) and `bottomBarVisible`, with a scroll view its `contentOffset` (y, pt),
/// then `isDragging` and `isAnimating`, in that order. Positions are on-screen values (model plus
/// what the running animators still show).
struct LNPopupFrame: PackedSystemFrame {
    var location: Double
    var state: PopupPresentationState
    var internalState: PopupPresentationState
    var barVisible: Bool
    var barTop: Double
    var barHeight: Double
    var bottomBarTop: Double?
    var bottomBarVisible: Bool?
    var contentOffset: Double?
    var isDragging: Bool
    var isAnimating: Bool

    /// The state names by `PopupPresentationState.rawValue`.
    static let layout = SystemFrameLayout(
        [
            .number("location"), .name("state"), .name("internalState"), .bool("barVisible"), .number("barTop"),
            .number("barHeight"), .number("bottomBarTop", optional: true), .bool("bottomBarVisible", optional: true),
            .number("contentOffset", optional: true), .bool("isDragging"), .bool("isAnimating"),
        ],
        vocabulary: PopupPresentationState.allCases.sorted { $0.rawValue < $1.rawValue }.map(\.name))

    /// Field by field (`PackedSystemFrame`'s `==`), the location first: it changes most often.
    @inline(__always)
    static func == (a: LNPopupFrame, b: LNPopupFrame) -> Bool {
        a.location == b.location && a.state == b.state && a.internalState == b.internalState
            && a.barVisible == b.barVisible
            && a.barTop == b.barTop && a.barHeight == b.barHeight && a.bottomBarTop == b.bottomBarTop
            && a.bottomBarVisible == b.bottomBarVisible && a.contentOffset == b.contentOffset
            && a.isDragging == b.isDragging
            && a.isAnimating == b.isAnimating
    }

    @inline(__always)
    func pack(into w: inout PackedFrameWriter) {
        w.number(location)
        w.name(UInt32(state.rawValue))
        w.name(UInt32(internalState.rawValue))
        w.bool(barVisible)
        w.number(barTop)
        w.number(barHeight)
        w.number(bottomBarTop)
        w.bool(bottomBarVisible)
        w.number(contentOffset)
        w.bool(isDragging)
        w.bool(isAnimating)
    }
}

extension LNPopupSystem {
    /// Records frame `index` when a channel changed (frame 0 always), with the animators evaluated
    /// at the frame's exact time (L1).
    mutating func writeFrame(index: Int) {
        let v = animator.presentation(of: model, at: timebase.frame(index))
        let bottomBar = geometry.hasBottomBar
        recorder.record(
            LNPopupFrame(
                location: v.location, state: publicState, internalState: internalState,
                barVisible: barExists && v.barHeight > 0,
                barTop: v.barTop, barHeight: v.barHeight,
                bottomBarTop: bottomBar ? v.bottomBarTop : nil,
                bottomBarVisible: bottomBar ? v.bottomBarTop < geometry.height : nil,
                contentOffset: hasScrollView ? scrollView.unsafelyUnwrapped.contentOffset.y : nil,
                isDragging: drag != nil, isAnimating: !animator.isEmpty), index: index)
    }
}
