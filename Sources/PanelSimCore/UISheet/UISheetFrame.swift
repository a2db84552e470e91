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

extension UISheetSystem {
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
        let state: UInt32
        if let cached = frameStateName {
            state = cached
        } else {
            state = recorder.nameIndex(sheet.selectedDetentIdentifier)
            frameStateName = state
        }
        recorder.record(
            UISheetFrame(
                location: y, state: state, dimming: dim, backdropAlpha: dim * options.dimmingAlpha,
                contentOffset: hasScrollView ? scrollView.unsafelyUnwrapped.contentOffset.y : nil,
                isDragging: sheetDragging, isAttracting: animation != nil,
                presented: presented), index: index)
    }
}
