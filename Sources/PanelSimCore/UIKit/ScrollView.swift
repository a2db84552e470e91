/// The tracked scroll view as FloatingPanel sees it (UIKit `UIScrollView`), headless.
///
/// Offsets and insets follow UIKit: `contentOffset` is the content point at the bounds' origin
/// (pt); scrolling toward the end of the content increases it. The model scrolls along the panel's
/// main axis only. Where UIKit's exact behavior is not public the rule is floatingpanel-core.md §9
/// O6 (finger-driven offset and rubber band), O7 (deceleration) and O11 (insets); each constant
/// names its source.

/// `scrollView` of a trace header (and of a `track` call): the scroll view's initial state.
public struct ScrollViewConfiguration: Sendable, Equatable {
    /// Frame in surface coordinates (pt).
    public var frame: Rect
    /// Size of the content (pt).
    public var contentSize: Size
    /// `contentInset` before FloatingPanel adjusts it (§3.10), pt, each side ≥ 0 inward.
    public var contentInset: Insets = .zero
    /// The inset UIKit adds on top of `contentInset` (pt, each side ≥ 0 inward), e.g. a navigation
    /// bar over a list inside a navigation controller (FloatingPanel #602):
    /// adjustedContentInset = contentInset + systemInset. FloatingPanel never writes it. Default zero.
    public var systemInset: Insets = .zero
    /// `contentOffset` (pt): the content point at the bounds' origin; larger = scrolled toward the end.
    public var contentOffset: Point = .zero
    /// UIKit `bounces`: rubber band past the edges while dragged.
    public var bounces = true
    /// UIKit `alwaysBounceVertical` / `alwaysBounceHorizontal`: scrollable even when the content fits.
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    /// `decelerationRate`: velocity factor per ms (UIScrollView `.normal` = 0.998, physics.md §1).
    /// Not a contract field; an added one, default 0.998.
    public var decelerationRate = 0.998
    public init(frame: Rect, contentSize: Size) {
        self.frame = frame
        self.contentSize = contentSize
    }
}

/// The live scroll view.
struct ScrollViewModel: Equatable {
    var frame: Rect
    var contentSize: Size
    var contentInset: Insets
    /// The inset UIKit adds to `contentInset` (the configuration's `systemInset`).
    var systemInset: Insets
    var contentOffset: Point
    var bounces: Bool
    var alwaysBounceVertical: Bool
    var alwaysBounceHorizontal: Bool
    var decelerationRate: Double
    var showsVerticalScrollIndicator = true
    var showsHorizontalScrollIndicator = true
    var isDirectionalLockEnabled = false
    /// The finger-driven offset before rubber banding (O6), main axis.
    var rawOffset: Double
    /// The offset range (`range(_:)`, main axis) that `rawOffset` was derived against. When the
    /// range changes under it (FloatingPanel rewrites `contentInset`, §3.10; the content size
    /// changes), the next pan re-derives `rawOffset` from the shown offset first, so an offset
    /// left beyond the new edge continues from where it is shown instead of jumping.
    var rawRange: (min: Double, max: Double)
    /// Deceleration velocity of the offset (pt/s, main axis) while `isDecelerating`.
    var decelerationVelocity: Double = 0
    var isDecelerating = false
    /// Time (µs) the deceleration started; stepped from the first frame after it.
    var decelerationStart: Microseconds = 0
    /// Per-frame velocity factor q = r^(1000·h) and λ = 1000·ln r (1/s), computed once when a
    /// deceleration starts (O7), so the per-frame step is + − × ÷ only. Until then (e.g. a driven
    /// `isDecelerating` sample) q = 1 makes every step 0.
    var decelerationQ = 1.0
    var decelerationLambda = 1.0
    /// Set while the offset springs back to an edge at the next frame (released beyond an edge, O7).
    var returnsToEdge = false

    init(_ c: ScrollViewConfiguration, position: PanelPosition) {
        frame = c.frame
        contentSize = c.contentSize
        contentInset = c.contentInset
        systemInset = c.systemInset
        contentOffset = c.contentOffset
        bounces = c.bounces
        alwaysBounceVertical = c.alwaysBounceVertical
        alwaysBounceHorizontal = c.alwaysBounceHorizontal
        decelerationRate = c.decelerationRate
        rawOffset = position.main(c.contentOffset)
        rawRange = (0, 0)
        rawRange = range(position)
    }

    static func == (a: ScrollViewModel, b: ScrollViewModel) -> Bool {
        a.frame == b.frame && a.contentSize == b.contentSize && a.contentInset == b.contentInset
            && a.systemInset == b.systemInset
            && a.contentOffset == b.contentOffset && a.bounces == b.bounces
            && a.alwaysBounceVertical == b.alwaysBounceVertical && a.alwaysBounceHorizontal == b.alwaysBounceHorizontal
            && a.decelerationRate == b.decelerationRate
            && a.showsVerticalScrollIndicator == b.showsVerticalScrollIndicator
            && a.showsHorizontalScrollIndicator == b.showsHorizontalScrollIndicator
            && a.isDirectionalLockEnabled == b.isDirectionalLockEnabled && a.rawOffset == b.rawOffset
            && a.rawRange.min == b.rawRange.min && a.rawRange.max == b.rawRange.max
            && a.decelerationVelocity == b.decelerationVelocity && a.isDecelerating == b.isDecelerating
            && a.decelerationStart == b.decelerationStart && a.decelerationQ == b.decelerationQ
            && a.decelerationLambda == b.decelerationLambda && a.returnsToEdge == b.returnsToEdge
    }

    var boundsSize: Size { frame.size }

    /// UIKit `adjustedContentInset`: `contentInset` plus the inset UIKit adds (`systemInset`). With
    /// no system inset it equals `contentInset` (O11).
    var adjustedContentInset: Insets {
        Insets(
            top: contentInset.top + systemInset.top, left: contentInset.left + systemInset.left,
            bottom: contentInset.bottom + systemInset.bottom, right: contentInset.right + systemInset.right)
    }

    /// UIKit `fp_contentOffsetMax` (§3.6.2), from the adjusted inset.
    var contentOffsetMax: Point {
        let inset = adjustedContentInset
        return Point(
            x: max(contentSize.width + inset.right - boundsSize.width, 0),
            y: max(contentSize.height + inset.bottom - boundsSize.height, 0))
    }

    /// The offset range on the main axis (O6): [−inset.top, max(−inset.top, size + inset.bottom − bounds)],
    /// with UIKit's adjusted inset (= contentInset without a system inset).
    func range(_ position: PanelPosition) -> (min: Double, max: Double) {
        let inset = adjustedContentInset
        if position.isVertical {
            let lo = -inset.top
            return (lo, max(lo, contentSize.height + inset.bottom - boundsSize.height))
        }
        let lo = -inset.left
        return (lo, max(lo, contentSize.width + inset.right - boundsSize.width))
    }

    /// Content longer than the bounds, or always bouncing, on the main axis (the scroll pan can begin).
    func isScrollableContent(_ position: PanelPosition) -> Bool {
        position.isVertical
            ? (contentSize.height > boundsSize.height || alwaysBounceVertical)
            : (contentSize.width > boundsSize.width || alwaysBounceHorizontal)
    }

    func mainOffset(_ position: PanelPosition) -> Double { position.main(contentOffset) }

    /// Sets the main-axis offset from outside (pin, setContentOffset, a driven sample): stops any
    /// deceleration and re-derives the raw finger offset u from the shown excess (O6).
    mutating func setMainOffset(_ value: Double, _ position: PanelPosition) {
        if position.isVertical { contentOffset.y = value } else { contentOffset.x = value }
        let (lo, hi) = range(position)
        let d = position.mainDimension(boundsSize)
        deriveRawOffset(from: value, lo: lo, hi: hi, d: d)
        isDecelerating = false
        returnsToEdge = false
        decelerationVelocity = 0
    }

    /// Sets `rawOffset` to the finger offset that shows `value` in the range [lo, hi] (O6), and
    /// records that range.
    mutating func deriveRawOffset(from value: Double, lo: Double, hi: Double, d: Double) {
        if value < lo {
            rawOffset = lo - Self.unbanded(lo - value, d)
        } else if value > hi {
            rawOffset = hi + Self.unbanded(value - hi, d)
        } else {
            rawOffset = value
        }
        rawRange = (lo, hi)
    }

    /// Inverse of the rubber band: the finger excess x that shows an excess y (y < d). For y ≥ d no
    /// finite x shows it (the band approaches d and never reaches it); `pan(by:_:)` then holds the
    /// offset instead of deriving a finger excess from this value.
    static func unbanded(_ y: Double, _ d: Double) -> Double {
        // y ≥ d covers a zero-size scroll view (d = 0): no finite finger excess shows it.
        y >= d ? Double.greatestFiniteMagnitude : y * d / (0.55 * (d - y))
    }

    /// O6: a `changed` sample moves the offset against the finger by `delta` (pt, main axis).
    mutating func pan(by delta: Double, _ position: PanelPosition) {
        let (lo, hi) = range(position)
        let d = position.mainDimension(boundsSize)
        if lo != rawRange.min || hi != rawRange.max {
            deriveRawOffset(from: mainOffset(position), lo: lo, hi: hi, d: d)
        }
        // An offset set from outside at d or more past an edge (setContentOffset, a content size
        // or inset change) is beyond anything the band can show (b(x) < d for every finger excess
        // x, O6): there is no finger offset to continue from. The offset stays where it is shown
        // (the band's slope tends to 0 as x grows) until the pan ends, and O7 returns it to the
        // edge; deriving u = ∞ would make it jump to edge ± d at the first sample.
        let shownNow = mainOffset(position)
        if bounces, (shownNow < lo && lo - shownNow >= d) || (shownNow > hi && shownNow - hi >= d) {
            rawOffset = shownNow
            return
        }
        rawOffset -= delta
        var shown = rawOffset
        if rawOffset < lo {
            shown = bounces ? lo - rubberBand(lo - rawOffset, d) : lo
        } else if rawOffset > hi {
            shown = bounces ? hi + rubberBand(rawOffset - hi, d) : hi
        }
        if !bounces { rawOffset = shown }
        if position.isVertical { contentOffset.y = shown } else { contentOffset.x = shown }
    }
}

extension ScrollViewModel {
    /// True while the offset decelerates or springs back to an edge.
    var isAnimating: Bool { isDecelerating || returnsToEdge }

    /// The scroll view's pan ended with the finger's main-axis `velocity` (pt/s) at `now` µs (O7):
    /// released beyond an edge, the offset returns to it at the next frame; inside the range it
    /// decelerates with q = r^(1000/frameRate) per frame (r = `decelerationRate` per ms).
    mutating func endPan(velocity: Double, at now: Microseconds, frameRate: Int, _ position: PanelPosition) {
        let (lo, hi) = range(position)
        let offset = mainOffset(position)
        // Keep u consistent with the shown offset (O6): beyond an edge the shown offset is the
        // band's image of u, not u itself. Storing the shown value as u would make a touch that
        // grabs the list again before it returns (O7: at the next frame; a touch-down stops the
        // return) jump it toward the edge, against the finger.
        deriveRawOffset(from: offset, lo: lo, hi: hi, d: position.mainDimension(boundsSize))
        if offset < lo || offset > hi {
            returnsToEdge = true
            decelerationStart = now
        } else if velocity != 0 {
            isDecelerating = true
            decelerationVelocity = -velocity
            decelerationStart = now
            decelerationLambda = 1000 * DeterministicMath.log(decelerationRate)
            decelerationQ = DeterministicMath.exp(decelerationLambda * (1 / Double(frameRate)))
        }
    }

    /// One display frame of deceleration at `frameTime` µs (O7): the offset advances by
    /// w·(q − 1)/λ, the velocity becomes w·q; it stops when a step is below one `pixel` (pt) or at an
    /// edge. Frames at or before the start time do nothing.
    mutating func stepDeceleration(frameTime: Microseconds, pixel: Double, _ position: PanelPosition) {
        guard isAnimating, decelerationStart < frameTime else { return }
        let (lo, hi) = range(position)
        if returnsToEdge {
            setMainOffset(min(max(mainOffset(position), lo), hi), position)
            return
        }
        let q = decelerationQ
        let lambda = decelerationLambda
        let start = decelerationStart
        let w = decelerationVelocity
        let delta = w * (q - 1) / lambda
        var next = mainOffset(position) + delta
        var stop = abs(delta) < pixel
        if next < lo || next > hi {
            next = min(max(next, lo), hi)
            stop = true
        }
        setMainOffset(next, position)
        if !stop {
            isDecelerating = true
            decelerationVelocity = w * q
            decelerationStart = start
        }
    }

    /// A touch down stops the deceleration (iOS's tap-to-stop, O7).
    mutating func stopDeceleration() {
        isDecelerating = false
        returnsToEdge = false
        decelerationVelocity = 0
    }
}

/// UIScrollView's rubber band: b(x) = (1 − 1/(x·0.55/d + 1))·d, x = distance past the edge (pt),
/// d = the container's main dimension (pt). Source: FloatingPanel `Layout.swift`
/// `rubberBandEffect(for:base:)`, citing @chpwn's 0.55 coefficient (physics.md §2).
public func rubberBand(_ x: Double, _ d: Double) -> Double {
    // A zero-size scroll view (never laid out) has no band: it cannot show an offset past its edge.
    guard d > 0 else { return 0 }
    return (1 - (1 / ((x * 0.55 / d) + 1))) * d
}
