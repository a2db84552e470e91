/// DrawerKit's frame records (drawerkit.md §2.3): what the frame channels hold and how a frame is
/// written.

/// One DrawerKit frame: `location` (the drawer's on-screen y, pt), `state`, `cornerRadius` (pt),
/// `handleAlpha` (when `handleAutoAnimatesDimming` is set), `contentOffset` (the pull-to-dismiss
/// scroll view's y, pt, when there is one), `isDragging`, `isAnimating` and `presented`, in that
/// order.
struct DrawerKitFrame: PackedSystemFrame {
    var location: Double
    /// Position of the state's name in `layout.vocabulary` (`DrawerPlace.frameNameIndex`).
    var state: UInt32
    var cornerRadius: Double
    var handleAlpha: Double?
    var contentOffset: Double?
    var isDragging: Bool
    var isAnimating: Bool
    var presented: Bool

    static let layout = SystemFrameLayout(
        [
            .number("location"), .name("state"), .number("cornerRadius"), .number("handleAlpha", optional: true),
            .number("contentOffset", optional: true), .bool("isDragging"), .bool("isAnimating"), .bool("presented"),
        ],
        vocabulary: DrawerState.allCases.map(\.rawValue) + ["transitioning"])

    /// Field by field (`PackedSystemFrame`'s `==`), the location first: it changes most often.
    @inline(__always)
    static func == (a: DrawerKitFrame, b: DrawerKitFrame) -> Bool {
        a.location == b.location && a.state == b.state && a.cornerRadius == b.cornerRadius
            && a.handleAlpha == b.handleAlpha
            && a.contentOffset == b.contentOffset && a.isDragging == b.isDragging && a.isAnimating == b.isAnimating
            && a.presented == b.presented
    }

    @inline(__always)
    func pack(into w: inout PackedFrameWriter) {
        w.number(location)
        w.name(state)
        w.number(cornerRadius)
        w.number(handleAlpha)
        w.number(contentOffset)
        w.bool(isDragging)
        w.bool(isAnimating)
        w.bool(presented)
    }
}

extension DrawerPlace {
    /// Position of `name` in `DrawerKitFrame.layout.vocabulary`: the `DrawerState` cases in
    /// declaration order, then `transitioning`.
    var frameNameIndex: UInt32 {
        switch self {
        case .named(.dismissed): return 0
        case .named(.collapsed): return 1
        case .named(.partiallyExpanded): return 2
        case .named(.fullyExpanded): return 3
        case .transitioning: return 4
        }
    }
}

/// What a DrawerKit frame record reads from the system besides its animators: the values that
/// stay put while only animations run (`DrawerKitSystem.frameSource`).
struct DrawerKitFrameSource {
    let model: DrawerChannels
    let timebase: ReplayTimebase
    let presented: Bool
    /// The container height (pt): the location of a drawer that is not presented.
    let height: Double
    let state: UInt32
    let recordsHandleAlpha: Bool
    let contentOffset: Double?
    let isDragging: Bool

    /// Frame `index`: the model values plus what `animator` still shows at the frame's exact time
    /// (§3.9).
    @inline(__always)
    func frame(index: Int, animator: AdditiveAnimator<DrawerChannels, DrawerCompletion>) -> DrawerKitFrame {
        frame(shown: animator.presentation(of: model, at: timebase.frame(index)), animator: animator)
    }

    /// The frame that shows `shown` (the model values plus what `animator` adds at its time).
    @inline(__always)
    func frame(shown: DrawerChannels, animator: AdditiveAnimator<DrawerChannels, DrawerCompletion>) -> DrawerKitFrame {
        frame(shown: shown, location: presented ? shown.y : height, animator: animator)
    }

    /// The frame that shows `shown` at `location` (its y when presented, else `height`).
    @inline(__always)
    func frame(
        shown: DrawerChannels, location: Double, animator: AdditiveAnimator<DrawerChannels, DrawerCompletion>
    ) -> DrawerKitFrame {
        DrawerKitFrame(
            location: location, state: state, cornerRadius: shown.cornerRadius,
            handleAlpha: recordsHandleAlpha ? shown.handleAlpha : nil, contentOffset: contentOffset,
            isDragging: isDragging, isAnimating: !animator.isEmpty, presented: presented)
    }
}

extension DrawerKitSystem {
    var frameSource: DrawerKitFrameSource {
        @inline(__always) get {
            DrawerKitFrameSource(
                model: model, timebase: timebase, presented: presented, height: geometry.height,
                state: presented ? target.frameNameIndex : DrawerPlace.dismissed.frameNameIndex,
                recordsHandleAlpha: recordsHandleAlpha,
                contentOffset: hasScrollView ? scrollView.unsafelyUnwrapped.contentOffset.y : nil,
                isDragging: panActive)
        }
    }

    /// Records frame `index` when a channel changed (frame 0 always).
    @inline(__always)
    mutating func writeFrame(index: Int) {
        recorder.record(frameSource.frame(index: index, animator: animator), index: index)
    }

    /// While animators run, frames before the first one that completes one are steady unless a
    /// dismissal waits to start or the scroll view decelerates (`stepFrame`).
    @inline(__always)
    func steadyFramesEnd(from index: Int) -> Int {
        animator.steadyFramesEnd(
            from: index, unless: dismissalRequested || (hasScrollView && scrollView.unsafelyUnwrapped.isAnimating))
    }

    mutating func recordSteadyFrames(_ frames: Range<Int>) -> Int {
        var run = DrawerSteadyRun(source: frameSource, animator: animator)
        let end = recorder.recordRun(frames, &run)
        instant = timebase.frame(end - 1)
        return end
    }
}

/// DrawerKit's steady frames (`DrawerKitSystem.recordSteadyFrames`): the frame source's values,
/// with the location, corner radius and handle alpha moving with the animators. Lanes: 0 the
/// location (`height` when not presented), 1 the corner radius, 2 the handle alpha (0 when it is
/// not recorded, whose word is then 0), 3 unused (0).
struct DrawerSteadyRun: AnimatorSteadyRun {
    let source: DrawerKitFrameSource
    let animator: AdditiveAnimator<DrawerChannels, DrawerCompletion>

    var model: DrawerChannels { source.model }

    @inline(__always)
    func moving(_ shown: DrawerChannels) -> SIMD4<Double> {
        SIMD4(
            source.presented ? shown.y : source.height, shown.cornerRadius,
            source.recordsHandleAlpha ? shown.handleAlpha : 0, 0)
    }

    @inline(__always)
    func frame(_ values: SIMD4<Double>) -> DrawerKitFrame {
        source.frame(
            shown: DrawerChannels(y: values[0], cornerRadius: values[1], handleAlpha: values[2]),
            location: values[0], animator: animator)
    }

    /// `DrawerKitFrame.pack`'s words 1, 3 and 4: location, corner radius, handle alpha (0 when
    /// absent, as lane 2 then is); the bits, state and content offset stay put.
    static var laneWords: (Int, Int, Int)? { (1, 3, 4) }
}
