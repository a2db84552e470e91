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

/// What an LNPopup frame record reads from the system besides its animators: the values that
/// stay put while only animations run (`LNPopupSystem.frameSource`).
struct LNPopupFrameSource {
    let model: PopupChannels
    let timebase: ReplayTimebase
    let state: PopupPresentationState
    let internalState: PopupPresentationState
    let barExists: Bool
    let hasBottomBar: Bool
    /// The container height (pt): a bottom bar whose top is at or below it is hidden.
    let height: Double
    let contentOffset: Double?
    let isDragging: Bool

    /// Frame `index`, with the animators `animator` evaluated at the frame's exact time (L1).
    @inline(__always)
    func frame(index: Int, animator: AdditiveAnimator<PopupChannels, PopupCompletion>) -> LNPopupFrame {
        frame(shown: animator.presentation(of: model, at: timebase.frame(index)), animator: animator)
    }

    /// The frame that shows `v` (the model values plus what `animator` adds at its time).
    @inline(__always)
    func frame(shown v: PopupChannels, animator: AdditiveAnimator<PopupChannels, PopupCompletion>) -> LNPopupFrame {
        LNPopupFrame(
            location: v.location, state: state, internalState: internalState,
            barVisible: barExists && v.barHeight > 0, barTop: v.barTop, barHeight: v.barHeight,
            bottomBarTop: hasBottomBar ? v.bottomBarTop : nil,
            bottomBarVisible: hasBottomBar ? v.bottomBarTop < height : nil,
            contentOffset: contentOffset, isDragging: isDragging, isAnimating: !animator.isEmpty)
    }
}

extension LNPopupSystem {
    var frameSource: LNPopupFrameSource {
        @inline(__always) get {
            LNPopupFrameSource(
                model: model, timebase: timebase, state: publicState, internalState: internalState,
                barExists: barExists, hasBottomBar: geometry.hasBottomBar, height: geometry.height,
                contentOffset: hasScrollView ? scrollView.unsafelyUnwrapped.contentOffset.y : nil,
                isDragging: drag != nil)
        }
    }

    /// Records frame `index` when a channel changed (frame 0 always).
    @inline(__always)
    mutating func writeFrame(index: Int) {
        recorder.record(frameSource.frame(index: index, animator: animator), index: index)
    }

    /// While animators run, frames before the first one that completes one are steady unless a
    /// timer is pending or the scroll view decelerates (`stepFrame`).
    @inline(__always)
    func steadyFramesEnd(from index: Int) -> Int {
        animator.steadyFramesEnd(
            from: index, unless: !timers.isEmpty || (hasScrollView && scrollView.unsafelyUnwrapped.isAnimating))
    }

    mutating func recordSteadyFrames(_ frames: Range<Int>) -> Int {
        var run = PopupSteadyRun(source: frameSource, animator: animator)
        let end = recorder.recordRun(frames, &run)
        instant = timebase.frame(end - 1)
        return end
    }
}

/// LNPopup's steady frames (`LNPopupSystem.recordSteadyFrames`): the frame source's values, with
/// the location, the bar's top and height and the bottom bar's top moving with the animators (in
/// lanes 0 to 3; the bottom bar's top is 0 when there is no bottom bar). The bar's and the bottom
/// bar's visibility follow from them.
struct PopupSteadyRun: AnimatorSteadyRun {
    let source: LNPopupFrameSource
    let animator: AdditiveAnimator<PopupChannels, PopupCompletion>

    var model: PopupChannels { source.model }

    @inline(__always)
    func moving(_ shown: PopupChannels) -> SIMD4<Double> {
        SIMD4(shown.location, shown.barTop, shown.barHeight, source.hasBottomBar ? shown.bottomBarTop : 0)
    }

    @inline(__always)
    func frame(_ values: SIMD4<Double>) -> LNPopupFrame {
        source.frame(
            shown: PopupChannels(location: values[0], barTop: values[1], barHeight: values[2], bottomBarTop: values[3]),
            animator: animator)
    }

    /// Four channels and the bars' visibility bits in word 0 move: every frame is packed whole.
    static var laneWords: (Int, Int, Int)? { nil }
}
