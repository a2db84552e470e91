/// The `drawer` section of a DrawerKit trace header and DrawerKit's calls (drawerkit.md §2).
/// Field names are DrawerKit's own (`DrawerConfiguration`, `DrawerPresentable`); values are applied
/// as property assignments on a default configuration, so DrawerKit's initializer clamping does not
/// apply (drawerkit.md §4 Q1). Lengths in pt, durations in s, y grows downward.

/// DrawerKit's `DrawerState` without its `transitioning(y)` payload: the named states a trace can
/// ask for, and the name every event and frame uses.
public enum DrawerState: String, Sendable, Equatable, CaseIterable {
    case dismissed, collapsed, partiallyExpanded, fullyExpanded
}

/// `configuration.timingCurveProvider` (drawerkit.md §2.1, §3.8).
public enum DrawerTimingCurve: Sendable, Equatable {
    /// `UISpringTimingParameters()`: the system spring (ζ = 4.564354645876384).
    case systemSpring
    /// `UISpringTimingParameters(dampingRatio: ζ)`, ζ > 0.
    case dampingRatio(Double)
    /// `UICubicTimingParameters(animationCurve: .linear)`.
    case linear
}

/// `configuration.fullExpansionBehaviour`: the top y of the fully expanded drawer (§3.1).
public enum FullExpansionBehaviour: Sendable, Equatable {
    /// fullY = 0.
    case coversFullScreen
    /// fullY = statusBarHeight.
    case doesNotCoverStatusBar
    /// fullY = the gap (pt, ≥ 0).
    case leavesCustomGap(Double)
}

/// `configuration.cornerAnimationOption` (§3.7).
public enum CornerAnimationOption: String, Sendable, Equatable, CaseIterable {
    case maximumAtPartialY, alwaysShowBelowStatusBar, none
}

/// drawerkit.md §5 D3: what happens when a state change arrives while a dismissal is under way.
public enum DrawerMidTransitionPolicy: String, Sendable, Equatable, CaseIterable {
    /// Default: once a transition to `dismissed` starts, the drawer is terminal (B25 fixed).
    case dismissalIsTerminal
    /// DrawerKit as shipped: nothing blocks; an older dismissal still dismisses (B25 as reported).
    case shipped
}

/// drawerkit.md §5 D1: how spring timing curves map onto the animator's duration.
public enum DrawerSpringTiming: String, Sendable, Equatable, CaseIterable {
    /// Default: the spring's time axis is stretched so that it settles exactly at the duration.
    case stretched
    /// Option `physicalSpring`: the system spring in real time (ω₀ = √(1000/3) rad/s), completing
    /// at its own settling time.
    case physicalSpring
}

/// The `drawer` header section (drawerkit.md §2.1). Defaults are DrawerKit's own.
public struct DrawerConfiguration: Sendable, Equatable {
    /// `heightOfPartiallyExpandedDrawer` (pt, required).
    public var heightOfPartiallyExpandedDrawer: Double
    /// `heightOfCollapsedDrawer` (pt). Default 0.
    public var heightOfCollapsedDrawer: Double = 0
    /// Presented before t = 0 and at rest (D12). Default true.
    public var presented = true
    /// `DrawerGeometry.statusBarHeight` (pt); nil: `environment.safeArea.top` (D10).
    public var statusBarHeight: Double? = nil
    /// Participants with `DrawerAnimationActions`: `presenting` and/or `presented`, in that order.
    public var participantPresenting = false
    public var participantPresented = true
    /// UIControl frames inside the drawer (drawer coordinates): drawer taps there are not seen.
    public var controls: [Rect] = []
    /// `content.scrollView`: the `scrollViewForPullToDismiss` (§3.14), frame in drawer coordinates;
    /// nil for none. It behaves as UIKit's scroll view does everywhere in PanelSim (finger-driven
    /// offset with rubber band, deceleration: floatingpanel-core.md §9 O6–O7).
    public var scrollView: ScrollViewConfiguration? = nil

    // DrawerConfiguration
    /// nil: `partiallyExpanded` when partial expansion is supported, else `fullyExpanded`.
    public var initialState: DrawerState? = nil
    public var totalDurationInSeconds: Double = 0.4
    public var durationIsProportionalToDistanceTraveled = false
    public var timingCurveProvider: DrawerTimingCurve = .systemSpring
    public var fullExpansionBehaviour: FullExpansionBehaviour = .coversFullScreen
    public var supportsPartialExpansion = true
    public var dismissesInStages = true
    public var isDrawerDraggable = true
    public var isFullyPresentableByDrawerTaps = true
    public var numberOfTapsForFullDrawerPresentation = 1
    public var isDismissableByOutsideDrawerTaps = true
    public var numberOfTapsForOutsideDrawerDismissal = 1
    /// Screen heights per second; 0 disables flicks.
    public var flickSpeedThreshold: Double = 3
    public var upperMarkGap: Double = 40
    public var lowerMarkGap: Double = 40
    public var maximumCornerRadius: Double = 15
    public var cornerAnimationOption: CornerAnimationOption = .maximumAtPartialY
    /// nil: no handle view (no `handleAlpha` channel); else its `autoAnimatesDimming`.
    public var handleAutoAnimatesDimming: Bool? = true
    /// States in which touches outside the drawer pass through to the presenting view.
    public var passthroughTouchesInStates: [DrawerState] = [.collapsed, .partiallyExpanded]

    // drawer.simulator (drawerkit.md §5)
    public var midTransition: DrawerMidTransitionPolicy = .dismissalIsTerminal
    public var springTiming: DrawerSpringTiming = .stretched

    public init(heightOfPartiallyExpandedDrawer: Double) {
        self.heightOfPartiallyExpandedDrawer = heightOfPartiallyExpandedDrawer
    }

    /// The simulator options away from their defaults, by name (recorded in result headers so that
    /// goldens of different option sets are not compared with each other).
    public var nonDefaultSimulatorNames: [String] {
        (midTransition == .shipped ? ["midTransition=shipped"] : [])
            + (springTiming == .physicalSpring ? ["physicalSpring"] : [])
    }
}

/// A DrawerKit call sample (drawerkit.md §2.2).
public enum DrawerCall: Sendable, Equatable {
    /// `setDrawerState(_:animated:completion:)`; `animated` is ignored like DrawerKit ignores it
    /// (Q2); `completion`: the app passes a completion closure (a `completion` record).
    case setDrawerState(DrawerState, animated: Bool, completion: Bool)
    /// `present(_:animated: true)` by the presenting view controller.
    case present
    /// `dismiss(animated: true)` by the presented view controller.
    case dismiss
    /// A recognized drawer tap at a container point (x nil: the container's mid-width).
    case tapDrawer(x: Double?, y: Double)
    /// A recognized outside tap at a container point.
    case tapOutside(x: Double?, y: Double)
}
