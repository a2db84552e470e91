/// The sheet's frame records (uisheet.md §2.3): what the frame channels hold and how a frame is
/// written.

/// One sheet frame: `location` (the sheet's top edge, pt), `state` (the selected detent's
/// identifier, or null), `dimming` (0…1), `backdropAlpha` (dimming × the dimming view's alpha), with
/// a tracked scroll view its `contentOffset` (y, pt), then `isDragging`, `isAttracting` and
/// `presented`, in that order.
struct UISheetFrame: PackedSystemFrame {
    var location: Double
    /// The identifier's index in the record list's name table, or `SystemFrameLayout.nullName`.
    var state: UInt32
    var dimming: Double
    var backdropAlpha: Double
    var contentOffset: Double?
    var isDragging: Bool
    var isAttracting: Bool
    var presented: Bool

    static let layout = SystemFrameLayout(
        [
            .number("location"), .name("state"), .number("dimming"), .number("backdropAlpha"),
            .number("contentOffset", optional: true), .bool("isDragging"), .bool("isAttracting"), .bool("presented"),
        ])

    /// Field by field (`PackedSystemFrame`'s `==`), the location first: it changes most often.
    @inline(__always)
    static func == (a: UISheetFrame, b: UISheetFrame) -> Bool {
        a.location == b.location && a.state == b.state && a.dimming == b.dimming && a.backdropAlpha == b.backdropAlpha
            && a.contentOffset == b.contentOffset && a.isDragging == b.isDragging && a.isAttracting == b.isAttracting
            && a.presented == b.presented
    }

    @inline(__always)
    func pack(into w: inout PackedFrameWriter) {
        w.number(location)
        w.name(state)
        w.number(dimming)
        w.number(backdropAlpha)
        w.number(contentOffset)
        w.bool(isDragging)
        w.bool(isAttracting)
        w.bool(presented)
    }
}

/// What a sheet frame record reads from the system besides its displayed offset and dimming: the
/// values that stay put while only the sheet spring runs (`UISheetSystem.frameSource`).
struct UISheetFrameSource {
    let presented: Bool
    /// The container height (pt): the location of a sheet that is not presented.
    let height: Double
    let state: UInt32
    let dimmingAlpha: Double
    let contentOffset: Double?
    let isDragging: Bool
    let isAttracting: Bool

    /// The frame that shows the sheet at `y` (the location: the displayed offset, or `height`)
    /// dimmed `dimming` (0…1).
    @inline(__always)
    func frame(location y: Double, dimming: Double) -> UISheetFrame {
        UISheetFrame(
            location: y, state: state, dimming: dimming, backdropAlpha: dimming * dimmingAlpha,
            contentOffset: contentOffset, isDragging: isDragging, isAttracting: isAttracting, presented: presented)
    }
}

extension UISheetSystem {
    /// The frame values that do not move with the spring; looks the selected detent's name up
    /// once after the selection changed (`frameStateName`).
    var frameSource: UISheetFrameSource {
        @inline(__always) mutating get {
            let state: UInt32
            if let cached = frameStateName {
                state = cached
            } else {
                state = recorder.nameIndex(sheet.selectedDetentIdentifier)
                frameStateName = state
            }
            return UISheetFrameSource(
                presented: presented, height: geometry.height, state: state, dimmingAlpha: options.dimmingAlpha,
                contentOffset: hasScrollView ? scrollView.unsafelyUnwrapped.contentOffset.y : nil,
                isDragging: sheetDragging, isAttracting: animation != nil)
        }
    }

    /// Records frame `index` when a channel changed (frame 0 always); `displayed` is the sheet's
    /// on-screen offset at the frame's time (`displayed(at:)`, pt). The dimming is the running
    /// fade's value (§3.8 item 6), which ends here once it reaches its end value, else item 2's.
    @inline(__always)
    mutating func writeFrame(index: Int, displayed: Double) {
        let y = presented ? displayed : geometry.height
        var dim = 0.0
        if presented {
            if let f = fade {
                let (fraction, done) = f.value(at: instant, timebase)
                dim = fraction
                if done { fade = nil }
            } else {
                dim = dimming(at: y)
            }
        }
        recorder.record(frameSource.frame(location: y, dimming: dim), index: index)
    }

    /// While the spring runs without a dimming fade or a moving scroll view, every frame until it
    /// comes to rest is steady (`stepFrame`); `recordSteadyFrames` finds that frame as it goes.
    @inline(__always)
    func steadyFramesEnd(from index: Int) -> Int {
        animation == nil || fade != nil || (hasScrollView && scrollView.unsafelyUnwrapped.isAnimating)
            ? index : Int.max
    }

    /// The frames `stepFrame` would record while the spring runs, up to the first at which it is
    /// at rest (which `stepFrame` completes): `SheetSteadyRun`.
    mutating func recordSteadyFrames(_ frames: Range<Int>) -> Int {
        var run = SheetSteadyRun(
            source: frameSource, band: dimmingBand, animation: animation.unsafelyUnwrapped, timebase: timebase)
        let end = recorder.recordRun(frames, &run)
        springStates = run.states
        springFrames = run.statesFrames
        if end > frames.lowerBound { instant = timebase.frame(end - 1) }
        return end
    }
}

/// The sheet's steady frames while its spring runs alone (`UISheetSystem.recordSteadyFrames`):
/// each frame places the sheet at the spring's displacement (lane 0: the location, `height` when
/// not presented; lane 1: the dimming, 0 when not presented; lane 2: the backdrop alpha), and the
/// run ends at the first frame at which the spring is at rest (`SheetAnimation.isAtRest`), which
/// `stepFrame` completes.
struct SheetSteadyRun: MovingChannelRun {
    let source: UISheetFrameSource
    let band: DimmingBand
    let animation: SheetAnimation
    let timebase: ReplayTimebase
    /// The spring's states at the frames `statesFrames`, handed back to
    /// `UISheetSystem.springStates` (evaluated as `stepFrame` does): the last block evaluated.
    var states = (displacement: DeterministicMath.Lanes(), velocity: DeterministicMath.Lanes())
    var statesFrames = 0..<0

    /// Evaluated out of line, once per four frames, so that the loop around it keeps its values
    /// in registers.
    @inline(never)
    mutating func values(fromFrame k: Int) -> MovingChannelBlock {
        states = animation.states(fromFrame: k, timebase)
        statesFrames = k..<(k &+ 4)
        var count = 0
        while count < 4
            && !SheetAnimation.isAtRest(displacement: states.displacement[count], velocity: states.velocity[count])
        {
            count &+= 1
        }
        return MovingChannelBlock(
            frame0: moving(states.displacement[0]), frame1: moving(states.displacement[1]),
            frame2: moving(states.displacement[2]), frame3: moving(states.displacement[3]), count: count)
    }

    @inline(__always)
    private func moving(_ displacement: Double) -> SIMD4<Double> {
        guard source.presented else { return SIMD4(source.height, 0, 0 * source.dimmingAlpha, 0) }
        let y = animation.target + displacement
        let dimming = band.dimming(at: y)
        return SIMD4(y, dimming, dimming * source.dimmingAlpha, 0)
    }

    @inline(__always)
    func frame(_ values: SIMD4<Double>) -> UISheetFrame { source.frame(location: values[0], dimming: values[1]) }

    /// `UISheetFrame.pack`'s words 1, 3 and 4: location, dimming, backdrop alpha (the dimming
    /// times the dimming view's alpha, as `frame` computes it); the bits, state and content
    /// offset stay put.
    static var laneWords: (Int, Int, Int)? { (1, 3, 4) }
}
