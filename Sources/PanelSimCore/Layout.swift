/// Layout geometry (FloatingPanel `LayoutAdapter`): anchor positions, state orderings, segments,
/// surface size, backdrop alpha and the attraction constraint's coordinate space.
///
/// Every position is a *surface location*: the main-axis coordinate (pt) of the surface's moving
/// edge in the container (bottom panel: its top edge; top: bottom edge; right: left edge; left:
/// right edge). Sources: floatingpanel-layout-behavior.md §3, floatingpanel-core.md §1.
public struct LayoutGeometry: Sendable, Equatable {
    public var panel: PanelConfiguration
    public var environment: PanelEnvironment

    /// Anchor states sorted by ascending order (FloatingPanel `sortedAnchorStates`).
    public let sortedByOrder: [PanelState]
    /// Anchor states in ascending on-screen coordinate (FloatingPanel `sortedAnchorStatesByCoordinate`):
    /// ascending order for top/left panels, descending for bottom/right.
    public let sortedByCoordinate: [PanelState]

    public init(panel: PanelConfiguration, environment: PanelEnvironment) {
        self.panel = panel; self.environment = environment
        let byOrder = panel.anchors.map(\.state).sorted { $0.order < $1.order }
        sortedByOrder = byOrder
        sortedByCoordinate = panel.position.expandsTowardLowerCoordinate ? byOrder.reversed() : byOrder
    }

    private var position_: PanelPosition { panel.position }
    /// M: the container's main dimension, pt.
    public var mainDimension: Double { position_.mainDimension(environment.container) }
    /// One device pixel, pt (1/displayScale).
    public var pixel: Double { 1 / environment.displayScale }

    /// Snaps a value to the pixel grid (FloatingPanel `rounded(by:)`).
    public func rounded(_ v: Double) -> Double { roundedByDisplayScale(v, scale: environment.displayScale) }

    /// The anchor of `state`, or nil when the layout has none (hidden without a `hidden` key).
    public func anchor(of state: PanelState) -> LayoutAnchor? {
        panel.anchors.first { $0.state == state }?.anchor
    }

    /// True when `state` is an anchor state.
    public func hasAnchor(_ state: PanelState) -> Bool { anchor(of: state) != nil }

    /// Valid states: the anchor states plus hidden (FloatingPanel `validStates`).
    public func isValid(_ state: PanelState) -> Bool { state == .hidden || hasAnchor(state) }

    /// FloatingPanel's default hidden anchor: 100 pt beyond the panel's own edge, superview guide.
    public var defaultHiddenAnchor: LayoutAnchor {
        .inset(-100, isFractional: false, edge: position_.ownEdge, guide: .superview)
    }

    /// The anchor used for `state`: its own, or the default hidden anchor.
    public func effectiveAnchor(of state: PanelState) -> LayoutAnchor { anchor(of: state) ?? defaultHiddenAnchor }

    /// The reference rectangle of a guide: container bounds, or bounds inset by the safe area.
    public func referenceRect(_ guide: ReferenceGuide) -> Rect {
        let c = environment.container
        switch guide {
        case .superview: return Rect(x: 0, y: 0, width: c.width, height: c.height)
        case .safeArea:
            let s = environment.safeArea
            return Rect(x: s.left, y: s.top, width: c.width - s.left - s.right, height: c.height - s.top - s.bottom)
        }
    }

    /// The unrounded anchor position (FloatingPanel `LayoutAdapter._position(for:)`).
    public func rawPosition(of anchor: LayoutAnchor) -> Double {
        switch anchor {
        case let .inset(inset, isFractional, edge, guide):
            let r = referenceRect(guide)
            let d = isFractional ? position_.mainDimension(r.size) * inset : inset
            switch edge {
            case .top: return r.minY + d
            case .left: return r.minX + d
            case .bottom: return r.maxY - d
            case .right: return r.maxX - d
            }
        case let .intrinsic(offset, isFractional, guide):
            let length = panel.intrinsicLength
            let d = isFractional ? length * offset : offset
            let sideInset = guide == .safeArea ? position_.ownInset(environment.safeArea) : 0
            if position_.expandsTowardLowerCoordinate {
                return mainDimension - sideInset - length + d
            } else {
                return sideInset + length - d
            }
        }
    }

    /// pos(state): the surface location of `state`'s anchor (or the default hidden anchor), rounded
    /// by display scale (FloatingPanel `LayoutAdapter.position(for:)`).
    public func position(of state: PanelState) -> Double { rounded(rawPosition(of: effectiveAnchor(of: state))) }

    /// First state of `sortedByCoordinate` (hidden if none).
    public var leastCoordinateState: PanelState { sortedByCoordinate.first ?? .hidden }
    /// Last state of `sortedByCoordinate` (hidden if none).
    public var mostCoordinateState: PanelState { sortedByCoordinate.last ?? .hidden }
    /// The only anchor if there is one, else the highest order (FloatingPanel `mostExpandedState`).
    public var mostExpandedState: PanelState {
        sortedByOrder.count == 1 ? sortedByOrder[0] : (sortedByOrder.last ?? .hidden)
    }
    /// Hidden if there is one anchor, else the lowest order (FloatingPanel `leastExpandedState`).
    public var leastExpandedState: PanelState {
        sortedByOrder.count == 1 ? .hidden : (sortedByOrder.first ?? .hidden)
    }

    /// FloatingPanel `segment(at:forward:)` over `sortedByCoordinate`.
    /// Forward: first index with p < pos; backward: first index with p ≤ pos.
    /// Returns (lower, upper); a point exactly on anchor A gives (A, next) forward, (prev, A) backward.
    /// - Complexity: O(anchors).
    public func segment(at p: Double, forward: Bool) -> (lower: PanelState?, upper: PanelState?) {
        let s = sortedByCoordinate
        let index = s.firstIndex { forward ? p < position(of: $0) : p <= position(of: $0) }
        guard let i = index else { return (s.last, nil) }
        return i == 0 ? (nil, s[0]) : (s[i - 1], s[i])
    }

    /// Main length of the surface, pt (floatingpanel-core.md §1.7, layout-behavior §3.11).
    /// `location` matters only in `fitToBounds` mode.
    public func surfaceLength(at location: Double) -> Double {
        let m = mainDimension
        if panel.contentMode == .fitToBounds {
            return position_.expandsTowardLowerCoordinate ? m - location : location
        }
        if case let .intrinsic(_, _, guide)? = anchor(of: mostExpandedState) {
            return panel.intrinsicLength + (guide == .safeArea ? position_.ownInset(environment.safeArea) : 0)
        }
        return position_.expandsTowardLowerCoordinate ? m - position(of: leastCoordinateState) : position(of: mostCoordinateState)
    }

    /// The surface frame in the container when its moving edge is at `location`. The cross axis
    /// spans the safe area (FloatingPanel's default `prepareLayout`; floatingpanel-core.md §9 O17).
    public func surfaceFrame(at location: Double) -> Rect {
        let length = surfaceLength(at: location)
        let c = environment.container, s = environment.safeArea
        switch position_ {
        case .bottom: return Rect(x: s.left, y: location, width: c.width - s.left - s.right, height: length)
        case .top: return Rect(x: s.left, y: location - length, width: c.width - s.left - s.right, height: length)
        case .right: return Rect(x: location, y: s.top, width: length, height: c.height - s.top - s.bottom)
        case .left: return Rect(x: location - length, y: s.top, width: length, height: c.height - s.top - s.bottom)
        }
    }

    /// `getBackdropAlpha(for:)`: 0 for hidden, else the layout's value (used at snaps).
    public func snappedBackdropAlpha(for state: PanelState) -> Double {
        state == .hidden ? 0 : panel.layoutBackdropAlpha(for: state)
    }

    /// `getBackdropAlpha(at:with:)`: the alpha interpolated between the two anchors around `location`
    /// while dragging or attracting. `translation` (pt) only gives the direction (≥ 0: forward).
    /// Missing segment ends fall back to the most/least expanded state (order-based, a FloatingPanel quirk).
    /// Source: FloatingPanel `Core.getBackdropAlpha(at:with:)`; layout-behavior §3.12.
    public func interpolatedBackdropAlpha(at location: Double, translation: Double) -> Double {
        let forward = translation >= 0
        let seg = segment(at: location, forward: forward)
        let lower = seg.lower ?? mostExpandedState
        let upper = seg.upper ?? leastExpandedState
        let pre = forward ? lower : upper
        let next = forward ? upper : lower
        let xn = position(of: next), xp = position(of: pre)
        let an = panel.layoutBackdropAlpha(for: next), ap = panel.layoutBackdropAlpha(for: pre)
        if xp == xn { return ap }
        return ap + max(min(1, 1 - (xn - location) / (xn - xp)), 0) * (an - ap)
    }

    /// The reference edge of an anchor: its own edge, or the panel's edge for intrinsic anchors.
    public func referenceEdge(of anchor: LayoutAnchor) -> ReferenceEdge {
        if case let .inset(_, _, edge, _) = anchor { return edge }
        return position_.ownEdge
    }

    /// The shift between a location and the attraction constraint's constant for `state`'s anchor
    /// (floatingpanel-core.md §4.6, layout-behavior §3.10): constant = location − shift on set-up.
    /// Left panels use the opposite safe-area side on set-up (a FloatingPanel quirk).
    func attractionSetUpShift(for state: PanelState) -> Double {
        let anchor = effectiveAnchor(of: state)
        let g = anchor.guide == .safeArea ? 1.0 : 0.0
        let s = environment.safeArea, c = environment.container
        switch referenceEdge(of: anchor) {
        case .top: return g * s.top
        case .bottom: return c.height - g * s.bottom
        case .left: return position_ == .left ? g * s.right : g * s.left
        case .right: return position_ == .left ? c.width - g * s.left : c.width - g * s.right
        }
    }

    /// The getter's conversion of an attraction constant back to a location (floatingpanel-core.md §1.5,
    /// layout-behavior §3.8): location = constant + shift, using the non-swapped safe-area sides.
    func attractionGetterShift(for state: PanelState) -> Double {
        let anchor = effectiveAnchor(of: state)
        let g = anchor.guide == .safeArea ? 1.0 : 0.0
        let s = environment.safeArea, c = environment.container
        switch referenceEdge(of: anchor) {
        case .top: return g * s.top
        case .bottom: return c.height - g * s.bottom
        case .left: return g * s.left
        case .right: return c.width - g * s.right
        }
    }
}

/// Checks a header against what the simulator can replay deterministically
/// (floatingpanel-core.md §9 O19): a non-empty anchor map, edges on the panel's axis, unique state
/// orders among anchors, an initial state that is an anchor or hidden, and (with two or more
/// anchors) least and most expanded anchors at different positions.
/// - Throws: `ConfigurationError` naming the header field.
public func validate(_ header: TraceHeader) throws(ConfigurationError) {
    let panel = header.panel
    guard !panel.anchors.isEmpty else {
        throw ConfigurationError(field: "panel.anchors", message: "expected at least one anchor")
    }
    for entry in panel.anchors {
        if case let .inset(_, _, edge, _) = entry.anchor, !panel.position.accepts(edge) {
            throw ConfigurationError(field: "panel.anchors.\(entry.state.name).edge",
                                     message: "edge '\(edge.rawValue)' is off the axis of a \(panel.position.rawValue) panel (expected \(panel.position.isVertical ? "top or bottom" : "left or right"))")
        }
    }
    let sorted = panel.anchors.map(\.state).sorted { ($0.order, $0.name) < ($1.order, $1.name) }
    for (a, b) in zip(sorted, sorted.dropFirst()) where a.order == b.order {
        throw ConfigurationError(field: "panel.anchors",
                                 message: "states '\(a.name)' and '\(b.name)' share order \(a.order); FloatingPanel sorts them nondeterministically")
    }
    let geometry = LayoutGeometry(panel: panel, environment: header.environment)
    guard geometry.isValid(panel.initialState) else {
        throw ConfigurationError(field: "panel.initialState",
                                 message: "'\(panel.initialState.name)' is neither an anchor state nor hidden")
    }
    if panel.anchors.count >= 2,
       geometry.position(of: geometry.leastExpandedState) == geometry.position(of: geometry.mostExpandedState) {
        throw ConfigurationError(field: "panel.anchors",
                                 message: "least and most expanded anchors are both at \(geometry.position(of: geometry.mostExpandedState)) pt")
    }
    let env = header.environment
    guard env.container.width > 0, env.container.height > 0 else {
        throw ConfigurationError(field: "environment.container", message: "expected a positive width and height")
    }
    guard env.displayScale > 0 else {
        throw ConfigurationError(field: "environment.displayScale", message: "expected a positive number")
    }
    guard env.frameRate > 0 else {
        throw ConfigurationError(field: "environment.frameRate", message: "expected a positive integer")
    }
}
