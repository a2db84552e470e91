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

/// What a sheet frame record reads from the system besides the sheet's displayed offset and a
/// running dimming fade: the values that stay put while only the sheet spring runs
/// (`UISheetSystem.frameSource(state:)`).
struct UISheetFrameSource {
    let presented: Bool
    /// The container height (pt): the location of a sheet that is not presented.
    let height: Double
    let dimmingBand: DimmingBand
    /// The dimming view's alpha at full dimming (`SheetSimulatorOptions.dimmingAlpha`).
    let dimmingAlpha: Double
    let state: UInt32
    let contentOffset: Double?
    let isDragging: Bool
    let isAttracting: Bool

    /// The frame of a sheet shown at `displayed` (pt), dimmed `fadeDimming` by a running fade or,
    /// without one, as its dimming band has it at that offset (§3.8 items 2 and 6).
    @inline(__always)
    func frame(displayed: Double, fadeDimming: Double?) -> UISheetFrame {
        let y = presented ? displayed : height
        let dim = presented ? (fadeDimming ?? dimmingBand.dimming(at: y)) : 0
        return UISheetFrame(
            location: y, state: state, dimming: dim, backdropAlpha: dim * dimmingAlpha, contentOffset: contentOffset,
            isDragging: isDragging, isAttracting: isAttracting, presented: presented)
    }
}

extension UISheetSystem {
    /// The frame source with the frames' `state` name index `state`.
    @inline(__always)
    func frameSource(state: UInt32) -> UISheetFrameSource {
        UISheetFrameSource(
            presented: presented, height: geometry.height, dimmingBand: dimmingBand, dimmingAlpha: options.dimmingAlpha,
            state: state, contentOffset: hasScrollView ? scrollView.unsafelyUnwrapped.contentOffset.y : nil,
            isDragging: sheetDragging, isAttracting: animation != nil)
    }

    /// Records frame `index` when a channel changed (frame 0 always); `displayed` is the sheet's
    /// on-screen offset at the frame's time (`displayed(at:)`, pt). The dimming is the running
    /// fade's value (§3.8 item 6), which ends here once it reaches its end value, else item 2's.
    @inline(__always)
    mutating func writeFrame(index: Int, displayed: Double) {
        var fadeDimming: Double?
        if presented, let f = fade {
            let (fraction, done) = f.value(at: instant, timebase)
            fadeDimming = fraction
            if done { fade = nil }
        }
        let state: UInt32
        if let cached = frameStateName {
            state = cached
        } else {
            state = recorder.nameIndex(sheet.selectedDetentIdentifier)
            frameStateName = state
        }
        recorder.record(frameSource(state: state).frame(displayed: displayed, fadeDimming: fadeDimming), index: index)
    }

    /// While the sheet spring runs with no dimming fade and no scroll deceleration, every frame up
    /// to the one where the spring settles is steady (`stepFrame`); `recordSteadyFrames` finds
    /// that frame.
    func steadyFramesEnd(from index: Int) -> Int {
        if animation == nil || fade != nil || frameStateName == nil
            || (hasScrollView && scrollView.unsafelyUnwrapped.isAnimating)
        {
            return index
        }
        return .max
    }

    /// The steady frames up to the one where the sheet spring settles (|d| < 0.1 pt and
    /// |v| < 5 pt/s, `stepFrame`), which `stepFrame` then completes.
    mutating func recordSteadyFrames(_ frames: Range<Int>) -> Int {
        let source = frameSource(state: frameStateName.unsafelyUnwrapped)
        let animation = self.animation.unsafelyUnwrapped
        let timebase = self.timebase
        let end = recorder.recordRun(frames) { k -> UISheetFrame? in
            let (d, v) = animation.state(at: timebase.frame(k), timebase)
            if abs(d) < 0.1 && abs(v) < 5 { return nil }
            return source.frame(displayed: animation.target + d, fadeDimming: nil)
        }
        if end > frames.lowerBound { instant = timebase.frame(end - 1) }
        return end
    }
}
