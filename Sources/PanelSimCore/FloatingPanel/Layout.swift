/// Layout geometry (FloatingPanel `LayoutAdapter`): anchor positions, state orderings, segments,
/// surface size, backdrop alpha and the attraction constraint's coordinate space.
///
/// Every position is a *surface location*: the main-axis coordinate (pt) of the surface's moving
/// edge in the container (bottom panel: its top edge; top: bottom edge; right: left edge; left:
/// right edge). Sources: floatingpanel-layout-behavior.md §3, floatingpanel-core.md §1.
public struct LayoutGeometry: Sendable, Equatable {
    /// The layout. Assigning it (or any of its fields) rebuilds the derived tables.
    public var panel: PanelConfiguration {
        get { storage.panel }
        set { storage = Storage(panel: newValue, environment: storage.environment, rawAnchors: storage.rawAnchors) }
    }
    /// The container and display. Assigning it rebuilds the derived tables.
    public var environment: PanelEnvironment {
        get { storage.environment }
        set { storage = Storage(panel: storage.panel, environment: newValue, rawAnchors: storage.rawAnchors) }
    }
    /// True when pos(state) is the raw anchor position (FloatingPanel before 3.2.1, profiles.md
    /// FP-S13); false (the default) when it is rounded by display scale (floatingpanel-core.md §1.1).
    public var rawAnchors: Bool { storage.rawAnchors }

    /// Anchor states sorted by ascending order (FloatingPanel `sortedAnchorStates`).
    public var sortedByOrder: [PanelState] { storage.sortedByOrder }
    /// Anchor states in ascending on-screen coordinate (FloatingPanel `sortedAnchorStatesByCoordinate`):
    /// ascending order for top/left panels, descending for bottom/right.
    public var sortedByCoordinate: [PanelState] { storage.sortedByCoordinate }

    /// Per-anchor values computed once per layout (the per-frame paths look them up instead of
    /// recomputing anchors). A pure function of `panel` and `environment`; assigning either builds
    /// a new table, so it is never stale. Immutable and shared: copying a geometry is one retain.
    private final class Storage: Sendable {
        let panel: PanelConfiguration
        let environment: PanelEnvironment
        let rawAnchors: Bool
        let sortedByOrder: [PanelState]
        let sortedByCoordinate: [PanelState]
        /// `panel.anchors` states, file order, and per entry: pos(state), layout backdrop alpha,
        /// attraction getter and set-up shifts.
        let states: [PanelState]
        let positions: [Double]
        /// `positions` rounded by display scale (the same array unless `rawAnchors`), and the
        /// default hidden anchor's: what `surfaceLocation(for:)` answers.
        let roundedPositions: [Double]
        let roundedOtherPosition: Double
        /// The rounded positions in `sortedByCoordinate` order: the anchors of the backdrop alpha.
        let alphaCoordinatePositions: [Double]
        let alphas: [Double]
        let getterShifts: [Double]
        let setUpShifts: [Double]
        /// The same for a state without an anchor (the default hidden anchor).
        let otherPosition: Double, otherGetterShift: Double, otherSetUpShift: Double
        /// Positions and alphas in `sortedByCoordinate` order.
        let coordinatePositions: [Double]
        let coordinateAlphas: [Double]
        /// pos and alpha of `mostExpandedState` and `leastExpandedState`.
        let mostExpanded: (position: Double, alpha: Double), leastExpanded: (position: Double, alpha: Double)
        /// The surface's main-axis length when it does not depend on the location (content mode
        /// `static`), nil for `fitToBounds`.
        let staticSurfaceLength: Double?
        /// `interpolatedBackdropAlpha`'s segments: entry 2·i + (forward ? 1 : 0) for the segment
        /// index i = `segmentIndex(at:forward:)` (0 … anchors), so that a frame looks its segment up
        /// instead of choosing its ends and subtracting them again.
        let alphaSegments: [AlphaSegment]

        /// - Complexity: O(anchors log anchors) (the sort; every lookup while building is hashed).
        init(panel: PanelConfiguration, environment: PanelEnvironment, rawAnchors: Bool = false) {
            self.panel = panel; self.environment = environment; self.rawAnchors = rawAnchors
            let byOrder = panel.anchors.map(\.state).sorted { $0.order < $1.order }
            sortedByOrder = byOrder
            sortedByCoordinate = panel.position.expandsTowardLowerCoordinate ? byOrder.reversed() : byOrder
            // The formulas live on LayoutGeometry; a table-less geometry evaluates them directly.
            let g = LayoutGeometry(uncached: panel, environment: environment)
            let states = panel.anchors.map(\.state)
            let roundedPositions = panel.anchors.map { g.rounded(g.rawPosition(of: $0.anchor)) }
            let positions = rawAnchors ? panel.anchors.map { g.rawPosition(of: $0.anchor) } : roundedPositions
            self.states = states
            self.positions = positions
            self.roundedPositions = roundedPositions
            alphas = panel.anchors.map { panel.layoutBackdropAlpha(for: $0.state) }
            getterShifts = panel.anchors.map { g.attractionShift(of: $0.anchor, setUp: false) }
            setUpShifts = panel.anchors.map { g.attractionShift(of: $0.anchor, setUp: true) }
            let roundedOtherPosition = g.rounded(g.rawPosition(of: g.defaultHiddenAnchor))
            let otherPosition = rawAnchors ? g.rawPosition(of: g.defaultHiddenAnchor) : roundedOtherPosition
            self.otherPosition = otherPosition
            self.roundedOtherPosition = roundedOtherPosition
            otherGetterShift = g.attractionShift(of: g.defaultHiddenAnchor, setUp: false)
            otherSetUpShift = g.attractionShift(of: g.defaultHiddenAnchor, setUp: true)
            // The first entry of each anchor state, hashed: looking each sorted state up by a scan
            // made building the table quadratic in the number of anchors.
            var firstIndex: [PanelState: Int] = [:]
            firstIndex.reserveCapacity(states.count)
            for (i, s) in states.enumerated() where firstIndex[s] == nil { firstIndex[s] = i }
            func pos(_ s: PanelState) -> Double {
                if let i = firstIndex[s] { return positions[i] }
                return otherPosition
            }
            func roundedPos(_ s: PanelState) -> Double {
                if let i = firstIndex[s] { return roundedPositions[i] }
                return roundedOtherPosition
            }
            coordinatePositions = sortedByCoordinate.map(pos)
            let alphaPositions = rawAnchors ? sortedByCoordinate.map(roundedPos) : coordinatePositions
            alphaCoordinatePositions = alphaPositions
            coordinateAlphas = sortedByCoordinate.map { panel.layoutBackdropAlpha(for: $0) }
            let most = byOrder.count == 1 ? byOrder[0] : (byOrder.last ?? .hidden)
            let least = byOrder.count == 1 ? .hidden : (byOrder.first ?? .hidden)
            mostExpanded = (pos(most), panel.layoutBackdropAlpha(for: most))
            leastExpanded = (pos(least), panel.layoutBackdropAlpha(for: least))
            alphaSegments = AlphaSegment.table(coordinatePositions: alphaPositions, coordinateAlphas: coordinateAlphas,
                                               mostExpanded: rawAnchors ? (roundedPos(most), mostExpanded.alpha) : mostExpanded,
                                               leastExpanded: rawAnchors ? (roundedPos(least), leastExpanded.alpha) : leastExpanded)
            if panel.contentMode == .fitToBounds {
                staticSurfaceLength = nil
            } else if case let .intrinsic(_, _, guide)? = panel.anchors.first(where: { $0.state == most })?.anchor {
                staticSurfaceLength = panel.intrinsicLength + (guide == .safeArea ? panel.position.ownInset(environment.safeArea) : 0)
            } else if case let .adaptive(_, _, length, guide, _)? = panel.anchors.first(where: { $0.state == most })?.anchor {
                // §3.11: surface = D + the own-side safe inset (an equality without a bounding guide; with
                // one UIKit makes it ≤, and the largest value it allows is taken: D is the measured size).
                staticSurfaceLength = length + (guide == .safeArea ? panel.position.ownInset(environment.safeArea) : 0)
            } else {
                let leastCoordinate = sortedByCoordinate.first ?? .hidden, mostCoordinate = sortedByCoordinate.last ?? .hidden
                staticSurfaceLength = panel.position.expandsTowardLowerCoordinate
                    ? panel.position.mainDimension(environment.container) - pos(leastCoordinate) : pos(mostCoordinate)
            }
        }

        /// The storage of a geometry used only to evaluate formulas while a table is built.
        init(uncached panel: PanelConfiguration, environment: PanelEnvironment) {
            self.panel = panel; self.environment = environment; rawAnchors = false
            roundedPositions = []; roundedOtherPosition = 0; alphaCoordinatePositions = []
            sortedByOrder = []; sortedByCoordinate = []; states = []; positions = []; alphas = []
            getterShifts = []; setUpShifts = []; otherPosition = 0; otherGetterShift = 0; otherSetUpShift = 0
            coordinatePositions = []; coordinateAlphas = []; mostExpanded = (0, 0); leastExpanded = (0, 0)
            staticSurfaceLength = nil; alphaSegments = []
        }
    }
    private var storage: Storage

    /// - Parameter rawAnchors: pos(state) unrounded, as FloatingPanel before 3.2.1 computed it in
    ///   its rules (profiles.md FP-S13); `roundedPosition(of:)` is then what `surfaceLocation(for:)`
    ///   answers, and the backdrop alpha interpolates between rounded anchors.
    public init(panel: PanelConfiguration, environment: PanelEnvironment, rawAnchors: Bool = false) {
        storage = Storage(panel: panel, environment: environment, rawAnchors: rawAnchors)
    }

    private init(uncached panel: PanelConfiguration, environment: PanelEnvironment) {
        storage = Storage(uncached: panel, environment: environment)
    }

    /// Equal layouts: the derived tables are functions of these two.
    public static func == (a: LayoutGeometry, b: LayoutGeometry) -> Bool {
        a.storage === b.storage || (a.panel == b.panel && a.environment == b.environment && a.rawAnchors == b.rawAnchors)
    }

    /// Index of `state` in `panel.anchors` (the first entry with that state), nil when it has none.
    /// - Complexity: O(anchors), comparing the integer order before the name.
    @inline(__always)
    private func index(of state: PanelState) -> Int? {
        let states = storage.states
        for i in states.indices where states[i].order == state.order && states[i].name == state.name { return i }
        return nil
    }

    /// The panel's position (`panel.position`), read from the table without copying the layout.
    public var panelPosition: PanelPosition { storage.panel.position }
    /// M: the container's main dimension, pt.
    public var mainDimension: Double { panelPosition.mainDimension(storage.environment.container) }
    /// One device pixel, pt (1/displayScale).
    public var pixel: Double { 1 / storage.environment.displayScale }

    /// Snaps a value to the pixel grid (FloatingPanel `rounded(by:)`).
    @inline(__always)
    public func rounded(_ v: Double) -> Double { roundedByDisplayScale(v, scale: storage.environment.displayScale) }

    /// The anchor of `state`, or nil when the layout has none (hidden without a `hidden` key).
    public func anchor(of state: PanelState) -> LayoutAnchor? {
        index(of: state).map { panel.anchors[$0].anchor }
    }

    /// True when `state` is an anchor state.
    /// - Complexity: O(anchors), from the cached storage.
    public func hasAnchor(_ state: PanelState) -> Bool { index(of: state) != nil }

    /// Valid states: the anchor states plus hidden (FloatingPanel `validStates`).
    public func isValid(_ state: PanelState) -> Bool { state == .hidden || hasAnchor(state) }

    /// FloatingPanel's default hidden anchor: 100 pt beyond the panel's own edge, superview guide.
    public var defaultHiddenAnchor: LayoutAnchor {
        .inset(-100, isFractional: false, edge: panelPosition.ownEdge, guide: .superview)
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
            let d = isFractional ? panelPosition.mainDimension(r.size) * inset : inset
            switch edge {
            case .top: return r.minY + d
            case .left: return r.minX + d
            case .bottom: return r.maxY - d
            case .right: return r.maxX - d
            }
        case let .intrinsic(offset, isFractional, guide):
            let length = panel.intrinsicLength
            let d = isFractional ? length * offset : offset
            let sideInset = guide == .safeArea ? panelPosition.ownInset(environment.safeArea) : 0
            if panelPosition.expandsTowardLowerCoordinate {
                return mainDimension - sideInset - length + d
            } else {
                return sideInset + length - d
            }
        case let .adaptive(offset, isFractional, length, guide, bounding):
            // §3.4c: the safe inset applies to bottom/right panels only (top/left ignore it, a quirk).
            let d = isFractional ? length * offset : offset
            let bounds: Rect? = bounding == .none ? nil : referenceRect(bounding == .safeArea ? .safeArea : .superview)
            if panelPosition.expandsTowardLowerCoordinate {
                let reference = mainDimension - (guide == .safeArea ? panelPosition.ownInset(environment.safeArea) : 0)
                let minPosition = bounds.map { panelPosition.isVertical ? $0.minY : $0.minX } ?? -Double.infinity
                return max(reference - length + d, minPosition)
            } else {
                let maxPosition = bounds.map { panelPosition.isVertical ? $0.maxY : $0.maxX } ?? Double.infinity
                return min(length - d, maxPosition)
            }
        }
    }

    /// pos(state): the surface location of `state`'s anchor (or the default hidden anchor), rounded
    /// by display scale (FloatingPanel `LayoutAdapter.position(for:)`).
    /// - Complexity: O(anchors) comparisons; the positions themselves are computed once per layout.
    public func position(of state: PanelState) -> Double {
        if let i = index(of: state) { return storage.positions[i] }
        return storage.otherPosition
    }

    /// `surfaceLocation(for:)`: pos(state) rounded by display scale, also with `rawAnchors`.
    public func roundedPosition(of state: PanelState) -> Double {
        if let i = index(of: state) { return storage.roundedPositions[i] }
        return storage.roundedOtherPosition
    }

    /// Positions of `sortedByCoordinate`, in its order (pt).
    var coordinatePositions: [Double] { storage.coordinatePositions }
    /// `position(of: mostExpandedState)` and `position(of: leastExpandedState)` from the table (pt).
    var mostExpandedPosition: Double { storage.mostExpanded.position }
    var leastExpandedPosition: Double { storage.leastExpanded.position }
    /// `position(of: leastCoordinateState)` and `position(of: mostCoordinateState)`, from the table:
    /// the smallest and largest anchor surface locations on the main axis (pt, container coordinates).
    public var leastCoordinatePosition: Double { storage.coordinatePositions.first ?? storage.otherPosition }
    public var mostCoordinatePosition: Double { storage.coordinatePositions.last ?? storage.otherPosition }
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
        let i = segmentIndex(at: p, forward: forward)
        guard i < s.count else { return (s.last, nil) }
        return i == 0 ? (nil, s[0]) : (s[i - 1], s[i])
    }

    /// The first index of `sortedByCoordinate` with p < pos (forward) or p ≤ pos (backward);
    /// `sortedByCoordinate.count` when there is none.
    @inline(__always)
    func segmentIndex(at p: Double, forward: Bool) -> Int { Self.segmentIndex(in: storage.coordinatePositions, at: p, forward: forward) }

    /// The first index of the ascending `positions` with p < pos (forward) or p ≤ pos (backward);
    /// `positions.count` when there is none.
    @inline(__always)
    static func segmentIndex(in positions: [Double], at p: Double, forward: Bool) -> Int {
        var i = 0
        if forward {
            while i < positions.count, !(p < positions[i]) { i += 1 }
        } else {
            while i < positions.count, !(p <= positions[i]) { i += 1 }
        }
        return i
    }

    /// Main length of the surface, pt (floatingpanel-core.md §1.7, layout-behavior §3.11).
    /// `location` matters only in `fitToBounds` mode.
    public func surfaceLength(at location: Double) -> Double {
        if let length = storage.staticSurfaceLength { return length }
        return panelPosition.expandsTowardLowerCoordinate ? mainDimension - location : location
    }

    /// FloatingPanel's grabber area test (floatingpanel-core.md §1.8, `SurfaceView.grabberAreaFrame`
    /// and `grabberAreaContains`): true when `local`, a point in surface coordinates (pt, origin at
    /// the surface's top-left corner, y down), lies in the band `panel.grabberAreaOffset` pt deep
    /// along the moving edge of a surface of size `surfaceSize` (pt). A point past the moving edge
    /// counts as on it: bottom/right clamp it up to 0, top/left down to the size less one device
    /// pixel. The band's cross axis is the surface's full width (height).
    @inline(__always)
    public func grabberAreaContains(_ local: Point, surfaceSize size: Size) -> Bool {
        let depth = panel.grabberAreaOffset
        var q = local
        let band: Rect
        switch panelPosition {
        case .bottom: q.y = max(q.y, 0); band = Rect(x: 0, y: 0, width: size.width, height: depth)
        case .top: q.y = min(q.y, size.height - pixel); band = Rect(x: 0, y: size.height - depth, width: size.width, height: depth)
        case .left: q.x = min(q.x, size.width - pixel); band = Rect(x: size.width - depth, y: 0, width: depth, height: size.height)
        case .right: q.x = max(q.x, 0); band = Rect(x: 0, y: 0, width: depth, height: size.height)
        }
        return band.contains(q)
    }

    /// The surface frame in the container when its moving edge is at `location`. The cross axis
    /// spans the safe area (FloatingPanel's default `prepareLayout`; floatingpanel-core.md §9 O17).
    public func surfaceFrame(at location: Double) -> Rect {
        let length = surfaceLength(at: location)
        let c = environment.container, s = environment.safeArea
        switch panelPosition {
        case .bottom: return Rect(x: s.left, y: location, width: c.width - s.left - s.right, height: length)
        case .top: return Rect(x: s.left, y: location - length, width: c.width - s.left - s.right, height: length)
        case .right: return Rect(x: location, y: s.top, width: length, height: c.height - s.top - s.bottom)
        case .left: return Rect(x: location - length, y: s.top, width: length, height: c.height - s.top - s.bottom)
        }
    }

    /// `getBackdropAlpha(for:)`: 0 for hidden, else the layout's value (used at snaps).
    public func snappedBackdropAlpha(for state: PanelState) -> Double {
        if state == .hidden { return 0 }
        if let i = index(of: state) { return storage.alphas[i] }
        return panel.layoutBackdropAlpha(for: state)
    }

    /// `getBackdropAlpha(at:with:)`: the alpha interpolated between the two anchors around `location`
    /// while dragging or attracting. `translation` (pt) only gives the direction (≥ 0: forward).
    /// Missing segment ends fall back to the most/least expanded state (order-based, a FloatingPanel quirk).
    /// Source: FloatingPanel `Core.getBackdropAlpha(at:with:)`; layout-behavior §3.12.
    ///
    /// With xp, ap the position and alpha of the anchor the panel moves from (lower for forward,
    /// upper backward) and xn, an the one it moves to: ap when xp = xn, else
    /// ap + max(min(1, 1 − (xn − location)/(xn − xp)), 0)·(an − ap). The segment's ends, xn − xp and
    /// an − ap are looked up from a table made with the layout (`AlphaSegment`), the same values.
    /// - Complexity: O(anchors) comparisons to find the segment, on the cached positions.
    @inline(__always)
    public func interpolatedBackdropAlpha(at location: Double, translation: Double) -> Double {
        let forward = translation >= 0
        // The segment between the rounded anchors (the same as `segmentIndex` unless `rawAnchors`).
        let i = Self.segmentIndex(in: storage.alphaCoordinatePositions, at: location, forward: forward)
        let segment = storage.alphaSegments[2 &* i &+ (forward ? 1 : 0)]
        if segment.isPoint { return segment.startAlpha }
        return segment.startAlpha + max(min(1, 1 - (segment.end - location) / segment.length), 0) * segment.alphaChange
    }

    /// The reference edge of an anchor: its own edge, or the panel's edge for intrinsic and adaptive anchors.
    public func referenceEdge(of anchor: LayoutAnchor) -> ReferenceEdge {
        if case let .inset(_, _, edge, _) = anchor { return edge }
        return panelPosition.ownEdge
    }

    /// The shift between a location and the attraction constraint's constant for `state`'s anchor
    /// (floatingpanel-core.md §4.6, layout-behavior §3.10): constant = location − shift on set-up.
    /// Left panels use the opposite safe-area side on set-up (a FloatingPanel quirk).
    func attractionSetUpShift(for state: PanelState) -> Double {
        if let i = index(of: state) { return storage.setUpShifts[i] }
        return storage.otherSetUpShift
    }

    /// The getter's conversion of an attraction constant back to a location (floatingpanel-core.md §1.5,
    /// layout-behavior §3.8): location = constant + shift, using the non-swapped safe-area sides.
    func attractionGetterShift(for state: PanelState) -> Double {
        if let i = index(of: state) { return storage.getterShifts[i] }
        return storage.otherGetterShift
    }

    /// The attraction shift of one anchor: the reference edge's coordinate in the container, inset by
    /// the safe area for `safeArea` anchors (pt). On set-up (`setUp`) a left panel takes the opposite
    /// safe-area side, a FloatingPanel quirk; the getter does not.
    fileprivate func attractionShift(of anchor: LayoutAnchor, setUp: Bool) -> Double {
        let g = anchor.guide == .safeArea ? 1.0 : 0.0
        let s = environment.safeArea, c = environment.container
        let swapSides = setUp && panelPosition == .left
        switch referenceEdge(of: anchor) {
        case .top: return g * s.top
        case .bottom: return c.height - g * s.bottom
        case .left: return g * (swapSides ? s.right : s.left)
        case .right: return c.width - g * (swapSides ? s.left : s.right)
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
        // `half` is FloatingPanel's default initial state (FloatingPanelLayout.initialState), and
        // the one a header without `initialState` gets.
        let states = panel.anchors.map { "'\($0.state.name)'" }.joined(separator: ", ")
        let isDefault = panel.initialState.name == PanelState.half.name
        throw ConfigurationError(field: "panel.initialState",
                                 message: "'\(panel.initialState.name)' is neither an anchor state nor hidden"
                                    + (isDefault ? " (half is the default when panel.initialState is not given); name one of \(states)" : ""))
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

/// One segment of `LayoutGeometry.interpolatedBackdropAlpha`: the anchor a panel moves from (its
/// surface location xp, pt, and backdrop alpha ap) and the one it moves to (xn, an), with
/// xn − xp and an − ap computed once.
struct AlphaSegment: Sendable {
    /// xp (pt) and ap.
    var start: Double, startAlpha: Double
    /// xn (pt).
    var end: Double
    /// xn − xp (pt) and an − ap.
    var length: Double, alphaChange: Double
    /// xp == xn: the alpha is ap wherever the panel is.
    var isPoint: Bool

    /// The segments for every segment index i (0 … n, n = anchors) and direction, at 2·i + (forward ? 1 : 0).
    /// Around index i the lower anchor is sorted entry i − 1 and the upper one entry i; a missing end
    /// falls back to the most expanded state below and the least expanded one above (order-based, a
    /// FloatingPanel quirk; layout-behavior §3.12). Forward moves from lower to upper.
    /// - Parameters: positions (pt) and alphas in `sortedByCoordinate` order, and the (position,
    ///   alpha) of the most and least expanded states.
    static func table(coordinatePositions positions: [Double], coordinateAlphas alphas: [Double],
                      mostExpanded: (position: Double, alpha: Double),
                      leastExpanded: (position: Double, alpha: Double)) -> [AlphaSegment] {
        let n = positions.count
        var table: [AlphaSegment] = []
        table.reserveCapacity(2 * (n + 1))
        for i in 0...n {
            let lowerPosition = i > 0 ? positions[i - 1] : mostExpanded.position
            let lowerAlpha = i > 0 ? alphas[i - 1] : mostExpanded.alpha
            let upperPosition = i < n ? positions[i] : leastExpanded.position
            let upperAlpha = i < n ? alphas[i] : leastExpanded.alpha
            for forward in [false, true] {
                let xp = forward ? lowerPosition : upperPosition, ap = forward ? lowerAlpha : upperAlpha
                let xn = forward ? upperPosition : lowerPosition, an = forward ? upperAlpha : lowerAlpha
                table.append(AlphaSegment(start: xp, startAlpha: ap, end: xn, length: xn - xp, alphaChange: an - ap,
                                          isPoint: xp == xn))
            }
        }
        return table
    }
}
