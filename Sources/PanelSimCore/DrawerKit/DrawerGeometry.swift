/// DrawerKit's geometry and decisions (drawerkit.md §3.1, §3.4, §3.7, §3.8): positions of the
/// states, the marks, state from position, the release decision table, the triangular
/// corner/handle function and animation durations. All positions are the y (pt, container
/// coordinates, y down) of the drawer's top edge. Pure values; every member is O(1).

/// DrawerKit's `DrawerState`, including `transitioning(currentDrawerY:)`.
enum DrawerPlace: Sendable, Equatable {
    case named(DrawerState)
    /// Between the named positions, at y (pt).
    case transitioning(Double)

    /// The result-file name (`"transitioning"` for any position in between).
    var name: String {
        switch self {
        case .named(let s): return s.rawValue
        case .transitioning: return "transitioning"
        }
    }
    /// DrawerKit's `DrawerState` equality: named states by case, two `transitioning` values when
    /// their positions are within 0.5 pt (`PresentationController+Utilities.swift`).
    func sameState(as other: DrawerPlace) -> Bool {
        switch (self, other) {
        case (.named(let a), .named(let b)): return a == b
        case (.transitioning(let a), .transitioning(let b)): return DrawerGeometry.equal(a, b)
        default: return false
        }
    }
    static let dismissed = DrawerPlace.named(.dismissed)
    static let collapsed = DrawerPlace.named(.collapsed)
    static let partiallyExpanded = DrawerPlace.named(.partiallyExpanded)
    static let fullyExpanded = DrawerPlace.named(.fullyExpanded)
}

struct DrawerGeometry: Sendable, Equatable {
    /// Container height H (pt).
    let height: Double
    let fullY: Double, partialHeight: Double, partialY: Double
    let collapsedHeight: Double, collapsedY: Double
    let upperMarkY: Double, lowerMarkY: Double
    let statusBarHeight: Double
    let supportsPartialExpansion: Bool, dismissesInStages: Bool
    /// Screen heights per second; 0 disables flicks.
    let flickSpeedThreshold: Double
    let maximumCornerRadius: Double
    let cornerAnimationOption: CornerAnimationOption
    let totalDuration: Double, proportionalDuration: Bool
    /// DK-S1: state(y) recognizes `collapsed` (rule 4); false for DrawerKit 0.7.0 (profiles.md §3.3).
    var recognizesCollapsed = true

    /// The geometry of `drawer` in a container of height `height` with the status bar height of
    /// drawerkit.md §5 D10 (`drawer.statusBarHeight`, else `safeAreaTop`).
    init(_ drawer: DrawerConfiguration, height: Double, safeAreaTop: Double) {
        self.height = height
        statusBarHeight = drawer.statusBarHeight ?? safeAreaTop
        switch drawer.fullExpansionBehaviour {
        case .coversFullScreen: fullY = 0
        case .doesNotCoverStatusBar: fullY = statusBarHeight
        case .leavesCustomGap(let g): fullY = g
        }
        partialHeight = min(max(0, drawer.heightOfPartiallyExpandedDrawer), height)
        partialY = height - partialHeight
        collapsedHeight = min(max(0, drawer.heightOfCollapsedDrawer), height)
        collapsedY = height - collapsedHeight
        upperMarkY = max(partialY - drawer.upperMarkGap, fullY)
        lowerMarkY = min(partialY + drawer.lowerMarkGap, height)
        supportsPartialExpansion = drawer.supportsPartialExpansion
        dismissesInStages = drawer.dismissesInStages
        flickSpeedThreshold = drawer.flickSpeedThreshold
        maximumCornerRadius = drawer.maximumCornerRadius
        cornerAnimationOption = drawer.cornerAnimationOption
        totalDuration = drawer.totalDurationInSeconds
        proportionalDuration = drawer.durationIsProportionalToDistanceTraveled
    }

    /// DrawerKit's position equality: |a − b| ≤ 0.5 pt.
    static func equal(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 0.5 }

    /// `currentDrawerY`'s clamp to [fullY, H].
    func clamp(_ y: Double) -> Double { min(max(y, fullY), height) }

    /// `drawerPositionY(for:)`.
    func position(_ place: DrawerPlace) -> Double {
        switch place {
        case .named(.dismissed): return height
        case .named(.collapsed): return collapsedY
        case .named(.partiallyExpanded): return partialY
        case .named(.fullyExpanded): return fullY
        case .transitioning(let y): return y
        }
    }

    /// `drawerState(for:)`, rules tested in order (§3.1).
    func place(at y: Double) -> DrawerPlace {
        if y < fullY || Self.equal(y, fullY) { return .fullyExpanded }
        if y > height || Self.equal(y, height) { return .dismissed }
        if Self.equal(y, partialY) { return .partiallyExpanded }
        if recognizesCollapsed && Self.equal(y, collapsedY) { return .collapsed }
        return .transitioning(y)
    }

    /// The final state of the release table: `collapsed` when there is a collapsed height and the
    /// drawer dismisses in stages, else `dismissed` (§3.4; Q17).
    var finalState: DrawerState { collapsedHeight > 0 && dismissesInStages ? .collapsed : .dismissed }

    /// `nextStateFrom(currentState:speedY:)` (§3.4): `speedY` in screen heights per second,
    /// positive downward. First matching row wins; comparisons are exact as in DrawerKit.
    func nextState(from current: DrawerPlace, speedY: Double) -> DrawerState {
        let y = position(current)
        let still = speedY == 0
        let up = speedY < 0
        let down = speedY > 0
        let quick = flickSpeedThreshold != 0 && abs(speedY) > flickSpeedThreshold
        let aboveUpper = y < upperMarkY
        let aboveLower = y < lowerMarkY
        if up && quick { return .fullyExpanded }
        if down && quick { return finalState }
        if aboveUpper && (up || still) { return .fullyExpanded }
        if aboveUpper && down { return supportsPartialExpansion && dismissesInStages ? .partiallyExpanded : finalState }
        if aboveLower && down { return finalState }
        if aboveLower && (up || still) { return supportsPartialExpansion ? .partiallyExpanded : .fullyExpanded }
        return finalState
    }

    /// The triangular function of §3.7: 0 at full and at H, 1 at partial.
    func triangular(_ place: DrawerPlace) -> Double {
        let y = position(place)
        if partialY == fullY || partialY == height || fullY == height { return 0 }
        if supportsPartialExpansion {
            return y < partialY ? (y - fullY) / (partialY - fullY) : 1 - (y - partialY) / (height - partialY)
        }
        return 1 - (y - fullY) / (height - fullY)
    }

    /// `cornerRadius(at:)` clamped to [0, maximumCornerRadius] as every write is (§3.7). Inlined:
    /// the drag calls it on every moved sample.
    @inline(__always)
    func cornerRadius(at place: DrawerPlace) -> Double {
        let r: Double
        switch cornerAnimationOption {
        case .none: r = maximumCornerRadius
        case .maximumAtPartialY: r = maximumCornerRadius * triangular(place)
        case .alwaysShowBelowStatusBar:
            r = maximumCornerRadius * min(position(place), statusBarHeight) / statusBarHeight
        }
        return min(max(r, 0), maximumCornerRadius)
    }

    /// An animation's duration (s) from y0 to y1 (§3.8): the total duration, times |y1 − y0|/H when
    /// durations are proportional to the distance.
    func duration(from y0: Double, to y1: Double) -> Double {
        proportionalDuration ? totalDuration * abs(y1 - y0) / height : totalDuration
    }
}

extension DrawerConfiguration {
    /// The drawer's named positions (y of its top edge, pt) in `environment`, from the top:
    /// fullyExpanded, partiallyExpanded, collapsed (only with a collapsed height) and dismissed (H),
    /// with the geometry of drawerkit.md §3.1 (reports draw them as anchors).
    public func anchorPositions(environment: PanelEnvironment) -> [(String, Double)] {
        let g = DrawerGeometry(self, height: environment.container.height, safeAreaTop: environment.safeArea.top)
        var out: [(String, Double)] = [("fullyExpanded", g.fullY), ("partiallyExpanded", g.partialY)]
        if g.collapsedHeight > 0 { out.append(("collapsed", g.collapsedY)) }
        out.append(("dismissed", g.height))
        return out
    }
}
