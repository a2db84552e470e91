import PanelSimCore

/// Invariant G6's mirror (scenarios.md): a bottom-panel trace mapped onto a top, left or right panel
/// with the axis and coordinates flipped: safe-area sides, anchor edges, velocities, rubber-band
/// edges and clamp offsets mapped; a tracked list's frame, size, insets and offsets mapped so that
/// its pinned edge moves to the end of the content on top/left panels. Shared by the corpus tests
/// (`MirrorCorpusTests`) and the random-gesture soak (`InvariantChecker.checkMirrors`).
public struct Mirror: Sendable {
    public let position: PanelPosition
    /// The bottom trace's container height (its main dimension) in force.
    public var h: Double

    /// A mirror onto `position` of a bottom trace whose container height (main dimension) is `h` pt.
    public init(position: PanelPosition, h: Double) { self.position = position; self.h = h }

    public func point(_ p: Point) -> Point {
        switch position {
        case .bottom: return p
        case .top: return Point(x: p.x, y: h - p.y)
        case .right: return Point(x: p.y, y: p.x)
        case .left: return Point(x: h - p.y, y: p.x)
        }
    }
    public func velocity(_ v: Point) -> Point {
        switch position {
        case .bottom: return v
        case .top: return Point(x: v.x, y: -v.y)
        case .right: return Point(x: v.y, y: v.x)
        case .left: return Point(x: -v.y, y: v.x)
        }
    }
    public var flips: Bool { position == .top || position == .left }

    /// How far (pt) a flipped mirror moves each anchor (and each touch point) toward lower coordinates, and the same as a
    /// fraction (of a main dimension or an intrinsic length, 280–1400 pt in practice). Pixel rounding
    /// (floatingpanel-core.md §0.2) rounds a half-pixel tie away from zero on both panels, so an
    /// anchor of the bottom panel on a tie rounds toward higher coordinates and its mirror image
    /// must round toward lower ones. The nudge is far below a pixel and above the rounding's 1e-9
    /// truncation: it decides ties (for anchors at positive coordinates, as every bottom-panel anchor
    /// on the screen is) and leaves every other rounded position unchanged.
    /// It is a power of two (2^-20 ≈ 9.5e-7 pt) so that the mirrored touch points h − y − nudge of
    /// coordinates on a binary grid (the soak's are mostly multiples of 1/8 pt) stay exactly
    /// representable: their differences (translations, begin-threshold distances) are then exactly
    /// the bottom trace's, and the velocity estimators see exactly the same motion. With 1e-6 a
    /// finger held still had an estimated velocity of 6.8e-27 pt/s instead of 0 (the least-squares
    /// mean of equal inexact values is not exact) and a release took another target (seed 9560);
    /// a recognition distance exactly at the begin threshold came out a hair off, so the pan began a
    /// sample early or late (56940, 61775).
    static let nudge = 0x1p-20
    static let fractionalNudge = 1e-9
    public func environment(_ e: PanelEnvironment) -> PanelEnvironment {
        var m = e
        let s = e.safeArea
        switch position {
        case .bottom: break
        case .top: m.safeArea = Insets(top: s.bottom, left: s.left, bottom: s.top, right: s.right)
        case .right:
            m.container = Size(width: e.container.height, height: e.container.width)
            m.safeArea = Insets(top: s.left, left: s.top, bottom: s.right, right: s.bottom)
        case .left:
            m.container = Size(width: e.container.height, height: e.container.width)
            m.safeArea = Insets(top: s.left, left: s.bottom, bottom: s.right, right: s.top)
        }
        return m
    }
    public func edge(_ e: ReferenceEdge) -> ReferenceEdge {
        switch (position, e) {
        case (.top, .top): return .bottom
        case (.top, _): return .top
        case (.right, .top): return .left
        case (.right, _): return .right
        case (.left, .top): return .right
        case (.left, _): return .left
        default: return e
        }
    }
    public func panel(_ p: PanelConfiguration) -> PanelConfiguration {
        var m = p
        m.position = position
        m.anchors = p.anchors.map { entry in
            switch entry.anchor {
            case let .inset(v, fractional, e, guide):
                let mirrored = edge(e)
                guard flips else { return AnchorEntry(state: entry.state, anchor: .inset(v, isFractional: fractional, edge: mirrored, guide: guide)) }
                // Toward lower coordinates: a min-side inset shrinks, a max-side inset grows.
                let minSide = mirrored == .top || mirrored == .left
                let nudge = (fractional ? Self.fractionalNudge : Self.nudge) * (minSide ? -1 : 1)
                return AnchorEntry(state: entry.state, anchor: .inset(v + nudge, isFractional: fractional, edge: mirrored, guide: guide))
            case let .intrinsic(v, fractional, guide) where flips:
                // Top/left: base + L − d, so a larger d is a lower coordinate.
                return AnchorEntry(state: entry.state, anchor: .intrinsic(v + (fractional ? Self.fractionalNudge : Self.nudge), isFractional: fractional, guide: guide))
            case let .adaptive(v, fractional, length, guide, bounding) where flips:
                // Top/left: min(length − d, bound), so a larger d is a lower coordinate.
                return AnchorEntry(state: entry.state, anchor: .adaptive(v + (fractional ? Self.fractionalNudge : Self.nudge), isFractional: fractional,
                                                                         contentLength: length, guide: guide, bounding: bounding))
            default:
                return entry
            }
        }
        if flips {
            m.behavior.rubberBandingEdges = p.behavior.rubberBandingEdges.map { $0 == "top" ? "bottom" : $0 == "bottom" ? "top" : $0 }
        }
        return m
    }
    public func trace(_ t: Trace) -> Trace {
        var header = t.header
        header.panel = panel(t.header.panel)
        header.environment = environment(t.header.environment)
        if flips, var recipes = header.delegate.didMove, let clamp = recipes.clamp {
            // Clamp offsets are along the coordinate: on a flipped axis "min" and "max" swap ends.
            recipes.clamp = (min: StateOffset(state: clamp.max.state, offset: -clamp.max.offset),
                             max: StateOffset(state: clamp.min.state, offset: -clamp.min.offset))
            header.delegate.didMove = recipes
        }
        let length = LayoutGeometry(panel: t.header.panel, environment: t.header.environment).surfaceLength(at: 0)
        header.scrollView = t.header.scrollView.map { scrollView($0, surfaceLength: length) }
        var list = t.header.scrollView
        var mirror = self
        let samples = t.samples.map { s -> TraceSample in
            var m = s
            let point = mirror.point, environment = mirror.environment
            switch s.kind {
            case let .touch(touch):
                // Hit tests are half-open (UIKit's point(inside:), the grabber band and the list's
                // frame, core §1.8): [a, b) flips to (h − b, h − a], so a finger exactly on an edge
                // of the bottom panel would land exactly on the excluded edge of its mirror. Moving
                // every mirrored point by `nudge` toward lower coordinates keeps each hit test's
                // answer (translations, being differences, are unchanged).
                var location = point(touch.location)
                if position == .top { location.y -= Self.nudge }
                if position == .left { location.x -= Self.nudge }
                m.kind = .touch(TouchSample(phase: touch.phase, id: touch.id, location: location,
                                            velocity: touch.velocity.map(velocity)))
            case let .call(.invalidateLayout(p)): m.kind = .call(.invalidateLayout(panel(p)))
            case let .environment(e):
                m.kind = .environment(environment(e))
                mirror.h = e.container.height
            case let .call(.track(c)):
                list = c
                m.kind = .call(.track(scrollView(c, surfaceLength: length)))
            case .call(.untrack): list = nil
            case let .call(.setContentSize(w, hh)):
                if var c = list { c.contentSize = Size(width: w ?? c.contentSize.width, height: hh ?? c.contentSize.height); list = c }
                let swapped = position.isVertical ? (w, hh) : (hh, w)
                m.kind = .call(.setContentSize(width: swapped.0, height: swapped.1))
            case let .call(.setContentOffset(x, y, animated)):
                // Only the main axis (y of the bottom trace) is ever set by the corpus.
                guard let c = list, let y else { break }
                let o = offset(Point(x: x ?? 0, y: y), size: c.contentSize, bounds: c.frame.size, inset: adjustedInset(c))
                m.kind = .call(position.isVertical ? .setContentOffset(x: x, y: o.y, animated: animated)
                                                   : .setContentOffset(x: o.x, y: x, animated: animated))
            case let .scroll(sample):
                guard let c = list else { break }
                m.kind = .scroll(ScrollSample(contentOffset: sample.contentOffset.map { offset($0, size: c.contentSize, bounds: c.frame.size, inset: adjustedInset(c)) },
                                              contentSize: sample.contentSize.map(size), isDecelerating: sample.isDecelerating))
            default: break
            }
            return m
        }
        return Trace(header: header, samples: samples)
    }
    public func location(_ bottom: Double) -> Double { flips ? h - bottom : bottom }

    /// A content offset of the bottom trace's list (size `size`, bounds `bounds`, insets `inset`)
    /// on the mirrored panel: the distance from the pinned edge is kept, measured from the end of
    /// the content on top/left panels, where the insets swap sides: O' = hi' − (O + inset.top) with
    /// hi' = max(−inset.bottom, size + inset.top − bounds), which is size − bounds − O when the
    /// content is longer than the bounds.
    public func offset(_ o: Point, size: Size, bounds: Size, inset: Insets = .zero) -> Point {
        let hi = max(-inset.bottom, size.height + inset.top - bounds.height)
        let flipped = hi - (o.y + inset.top)
        switch position {
        case .bottom: return o
        case .top: return Point(x: o.x, y: flipped)
        case .right: return Point(x: o.y, y: o.x)
        case .left: return Point(x: flipped, y: o.x)
        }
    }
    /// UIKit's adjusted content inset of the bottom trace's list (contentInset + systemInset), which
    /// bounds its offsets: the inset a mirrored offset is measured against.
    func adjustedInset(_ c: ScrollViewConfiguration) -> Insets {
        Insets(top: c.contentInset.top + c.systemInset.top, left: c.contentInset.left + c.systemInset.left,
               bottom: c.contentInset.bottom + c.systemInset.bottom, right: c.contentInset.right + c.systemInset.right)
    }
    public func size(_ s: Size) -> Size { position.isVertical ? s : Size(width: s.height, height: s.width) }
    public func insets(_ i: Insets) -> Insets {
        switch position {
        case .bottom: return i
        case .top: return Insets(top: i.bottom, left: i.left, bottom: i.top, right: i.right)
        case .right: return Insets(top: i.left, left: i.top, bottom: i.right, right: i.bottom)
        case .left: return Insets(top: i.left, left: i.bottom, bottom: i.right, right: i.top)
        }
    }
    /// The list's frame inside a surface of main length `length`: flipped within the surface on
    /// top/left panels, axes swapped on left/right panels.
    public func scrollView(_ c: ScrollViewConfiguration, surfaceLength length: Double) -> ScrollViewConfiguration {
        let f = c.frame
        let frame: Rect
        switch position {
        case .bottom: frame = f
        case .top: frame = Rect(x: f.minX, y: length - f.maxY, width: f.size.width, height: f.size.height)
        case .right: frame = Rect(x: f.minY, y: f.minX, width: f.size.height, height: f.size.width)
        case .left: frame = Rect(x: length - f.maxY, y: f.minX, width: f.size.height, height: f.size.width)
        }
        var m = ScrollViewConfiguration(frame: frame, contentSize: size(c.contentSize))
        m.contentInset = insets(c.contentInset)
        m.systemInset = insets(c.systemInset)
        m.contentOffset = offset(c.contentOffset, size: c.contentSize, bounds: c.frame.size, inset: adjustedInset(c))
        m.bounces = c.bounces
        m.alwaysBounceVertical = position.isVertical ? c.alwaysBounceVertical : c.alwaysBounceHorizontal
        m.alwaysBounceHorizontal = position.isVertical ? c.alwaysBounceHorizontal : c.alwaysBounceVertical
        m.decelerationRate = c.decelerationRate
        return m
    }
}

