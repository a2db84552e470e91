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
    public init(frame: Rect, contentSize: Size) { self.frame = frame; self.contentSize = contentSize }
}

/// The live scroll view.
struct ScrollViewModel: Equatable {
    var frame: Rect
    var contentSize: Size
    var contentInset: Insets
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
        frame = c.frame; contentSize = c.contentSize; contentInset = c.contentInset
        contentOffset = c.contentOffset; bounces = c.bounces
        alwaysBounceVertical = c.alwaysBounceVertical; alwaysBounceHorizontal = c.alwaysBounceHorizontal
        decelerationRate = c.decelerationRate
        rawOffset = position.main(c.contentOffset)
    }

    var boundsSize: Size { frame.size }

    /// UIKit `fp_contentOffsetMax` with adjustedContentInset = contentInset (O11).
    var contentOffsetMax: Point {
        Point(x: max(contentSize.width + contentInset.right - boundsSize.width, 0),
              y: max(contentSize.height + contentInset.bottom - boundsSize.height, 0))
    }

    /// The offset range on the main axis (O6): [−inset.top, max(−inset.top, size + inset.bottom − bounds)].
    func range(_ position: PanelPosition) -> (min: Double, max: Double) {
        if position.isVertical {
            let lo = -contentInset.top
            return (lo, max(lo, contentSize.height + contentInset.bottom - boundsSize.height))
        }
        let lo = -contentInset.left
        return (lo, max(lo, contentSize.width + contentInset.right - boundsSize.width))
    }

    /// Content longer than the bounds, or always bouncing, on the main axis (the scroll pan can begin).
    func isScrollableContent(_ position: PanelPosition) -> Bool {
        position.isVertical ? (contentSize.height > boundsSize.height || alwaysBounceVertical)
                            : (contentSize.width > boundsSize.width || alwaysBounceHorizontal)
    }

    func mainOffset(_ position: PanelPosition) -> Double { position.main(contentOffset) }

    /// Sets the main-axis offset from outside (pin, setContentOffset, a driven sample): stops any
    /// deceleration and re-derives the raw finger offset u from the shown excess (O6).
    mutating func setMainOffset(_ value: Double, _ position: PanelPosition) {
        if position.isVertical { contentOffset.y = value } else { contentOffset.x = value }
        let (lo, hi) = range(position)
        let d = position.mainDimension(boundsSize)
        if value < lo { rawOffset = lo - Self.unbanded(lo - value, d) }
        else if value > hi { rawOffset = hi + Self.unbanded(value - hi, d) }
        else { rawOffset = value }
        isDecelerating = false
        returnsToEdge = false
        decelerationVelocity = 0
    }

    /// Inverse of the rubber band: the finger excess x that shows an excess y (y < d).
    static func unbanded(_ y: Double, _ d: Double) -> Double {
        y >= d ? Double.greatestFiniteMagnitude : y * d / (0.55 * (d - y))
    }

    /// O6: a `changed` sample moves the offset against the finger by `delta` (pt, main axis).
    mutating func pan(by delta: Double, _ position: PanelPosition) {
        rawOffset -= delta
        let (lo, hi) = range(position)
        let d = position.mainDimension(boundsSize)
        var shown = rawOffset
        if rawOffset < lo { shown = bounces ? lo - rubberBand(lo - rawOffset, d) : lo }
        else if rawOffset > hi { shown = bounces ? hi + rubberBand(rawOffset - hi, d) : hi }
        if !bounces { rawOffset = shown }
        if position.isVertical { contentOffset.y = shown } else { contentOffset.x = shown }
    }
}

extension ScrollViewModel {
    /// O7 for a panel system that owns its scroll view (the sheet, uisheet.md U29): one frame of
    /// deceleration (offset += w·(q − 1)/λ, w ← w·q; stops under one `pixel`, pt, or at an edge),
    /// or the return to the edge after a release beyond it. Same rule as FloatingPanel's
    /// `PanelCore.stepDeceleration` (floatingpanel-core.md §9 O7), on the vertical axis.
    mutating func stepDeceleration(pixel: Double) {
        let (lo, hi) = range(.bottom)
        if returnsToEdge {
            setMainOffset(min(max(contentOffset.y, lo), hi), .bottom)
            return
        }
        let q = decelerationQ, lambda = decelerationLambda, w = decelerationVelocity, start = decelerationStart
        let delta = w * (q - 1) / lambda
        var next = contentOffset.y + delta
        var stop = abs(delta) < pixel
        if next < lo || next > hi { next = min(max(next, lo), hi); stop = true }
        setMainOffset(next, .bottom)
        if !stop { isDecelerating = true; decelerationVelocity = w * q; decelerationStart = start }
    }
}
