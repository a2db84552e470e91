/// The trace header as the simulator sees it: environment, panel layout and behavior, the
/// declarative delegate and the recognizer options. Field names follow trace-format.md §1.1;
/// defaults are the contract's (FloatingPanel's `FloatingPanelBottomLayout` and
/// `FloatingPanelDefaultBehavior`).

/// A panel state: FloatingPanel `FloatingPanelState` (a name and an integer `order`).
///
/// FloatingPanel compares states by identity; here names are unique within a trace (the loader
/// enforces it), so equality by value is equivalent. Sorting is by `order` only.
public struct FloatingPanelState: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var order: Int
    public init(name: String, order: Int) {
        self.name = name
        self.order = order
    }
    public var description: String { name }

    /// Built-in states and their orders (FloatingPanel `State.swift`).
    public static let full = FloatingPanelState(name: "full", order: 1000)
    public static let half = FloatingPanelState(name: "half", order: 500)
    public static let tip = FloatingPanelState(name: "tip", order: 100)
    public static let hidden = FloatingPanelState(name: "hidden", order: 0)
    public static let builtIn: [FloatingPanelState] = [.full, .half, .tip, .hidden]
}

/// An anchor's reference edge (FloatingPanel `FloatingPanelReferenceEdge`).
public enum ReferenceEdge: String, Sendable, Equatable, CaseIterable { case top, left, bottom, right }

/// The rectangle an anchor measures from (FloatingPanel `FloatingPanelLayoutReferenceGuide`):
/// the container bounds (`superview`) or those bounds inset by the safe area (`safeArea`).
public enum ReferenceGuide: String, Sendable, Equatable, CaseIterable { case superview, safeArea }

/// The rectangle that bounds an adaptive anchor's content (FloatingPanel
/// `FloatingPanelLayoutContentBoundingGuide`, floatingpanel-layout-behavior.md §3.2): none, the
/// container bounds (`superview`) or those bounds inset by the safe area (`safeArea`).
public enum ContentBoundingGuide: String, Sendable, Equatable, CaseIterable { case none, superview, safeArea }

/// A layout anchor (FloatingPanel `FloatingPanelLayoutAnchor` / `FloatingPanelIntrinsicLayoutAnchor` /
/// `FloatingPanelAdaptiveLayoutAnchor`).
public enum LayoutAnchor: Sendable, Equatable {
    /// `absoluteInset` (pt) or `fractionalInset` (fraction of the reference rectangle's main dimension)
    /// from `edge` of the reference rectangle.
    case inset(Double, isFractional: Bool, edge: ReferenceEdge, guide: ReferenceGuide)
    /// `absoluteOffset` (pt) or `fractionalOffset` (fraction of `intrinsicLength`) from the fully
    /// shown intrinsic size.
    case intrinsic(Double, isFractional: Bool, guide: ReferenceGuide)
    /// `FloatingPanelAdaptiveLayoutAnchor` (floatingpanel-layout-behavior.md §3.4c): `absoluteOffset`
    /// (pt) or `fractionalOffset` (fraction of `contentLength`) from the fully shown content, where
    /// `contentLength` is the measured main dimension of the content layout guide (pt, a trace input
    /// since there is no view), bounded by `bounding`.
    case adaptive(
        Double, isFractional: Bool, contentLength: Double, guide: ReferenceGuide, bounding: ContentBoundingGuide)

    public var guide: ReferenceGuide {
        switch self {
        case .inset(_, _, _, let g), .intrinsic(_, _, let g), .adaptive(_, _, _, let g, _): return g
        }
    }
}

/// One entry of `panel.anchors`.
public struct AnchorEntry: Sendable, Equatable {
    public var state: FloatingPanelState
    public var anchor: LayoutAnchor
    public init(state: FloatingPanelState, anchor: LayoutAnchor) {
        self.state = state
        self.anchor = anchor
    }
}

/// `fpc.contentMode` (FloatingPanel `FloatingPanelController.ContentMode`).
public enum ContentMode: String, Sendable, Equatable { case `static`, fitToBounds }

/// `panel.behavior` (FloatingPanel `FloatingPanelBehavior` as answered by `FloatingPanelDefaultBehavior`).
public struct PanelBehavior: Sendable, Equatable {
    /// Spring damping input (per ms); ζ = ln(rate)/(−2π·f·0.001) for |v0| > 300 pt/s. Default
    /// 0.991 = UIScrollView `.fast` + 0.001 (FloatingPanel `Behavior.swift`).
    public var springDecelerationRate: Double = 0.991
    /// Spring response time T in s; ω = 2π/T. Default 0.4 s.
    public var springResponseTime: Double = 0.4
    /// Momentum projection rate r (per ms); projection (v/1000)·r/(1−r). Default 0.998
    /// (UIScrollView `.normal`; WWDC 2018 "Designing Fluid Interfaces").
    public var momentumProjectionRate: Double = 0.998
    /// Redirectional progress threshold for every pair of states, clamped to [0, 1]. Default 0.5.
    public var redirectionalProgress: Double = 0.5
    /// States for which `shouldProjectMomentum(_:to:)` answers true. Default none.
    public var projectsMomentumTo: [String] = []
    /// Edges for which `allowsRubberBanding(for:)` answers true; only "top" (min-coordinate side)
    /// and "bottom" (max-coordinate side) are ever asked. Default none.
    public var rubberBandingEdges: [String] = []
    /// Removal threshold on |velocity| / distance-to-hidden, 1/s. Default 5.5.
    public var removalInteractionVelocityThreshold: Double = 5.5
    public init() {}
}

/// `panel` of the trace header: the layout (FloatingPanel `FloatingPanelLayout`) and controller settings.
public struct FloatingPanelConfiguration: Sendable, Equatable {
    public var position: PanelPosition = .bottom
    /// Custom states declared in `panel.states` (built-ins are always known).
    public var states: [FloatingPanelState] = [FloatingPanelState(name: "lastQuart", order: 750)]
    /// `panel.anchors`, in file order. Required, non-empty.
    public var anchors: [AnchorEntry] = []
    public var initialState: FloatingPanelState = .half
    /// Main length of the surface's intrinsic content size, pt (intrinsic anchors, static size).
    public var intrinsicLength: Double = 420
    /// `layout.backdropAlpha(for:)` per state name; a state missing from the map gets 0.0.
    public var backdropAlpha: [String: Double] = ["full": 0.3, "half": 0.0, "tip": 0.0]
    public var contentMode: ContentMode = .static
    /// Depth of the grabber hit band along the main axis, pt. Default 36.
    public var grabberAreaOffset: Double = 36
    public var removalInteractionEnabled: Bool = false
    /// `backdrop.dismissalTapEnabled`.
    public var dismissalTapEnabled: Bool = false
    /// True: shown at `initialState` at t = 0 without animation; false: starts hidden.
    public var presented: Bool = true
    public var behavior = PanelBehavior()
    public init() {}

    /// The backdrop alpha the layout answers for `state` (0 when missing from the map).
    public func layoutBackdropAlpha(for state: FloatingPanelState) -> Double { backdropAlpha[state.name] ?? 0 }
}

/// `delegate.shouldRemove`: how `floatingPanel(_:shouldRemoveAt:with:)` is answered.
public enum RemovalAnswer: String, Sendable, Equatable {
    /// Not implemented: the behavior's velocity threshold decides.
    case `default`
    case always, never
}

/// A state plus an offset along the coordinate (trace `{"state": …, "offset": …}`).
public struct StateOffset: Sendable, Equatable {
    public var state: FloatingPanelState
    public var offset: Double
    public init(state: FloatingPanelState, offset: Double) {
        self.state = state
        self.offset = offset
    }
}

/// The app code a trace declares for `floatingPanelDidMove` (floatingpanel-core.md §9 O14).
public struct DidMoveRecipes: Sendable, Equatable {
    /// Clamp the surface between pos(min.state) + min.offset and pos(max.state) + max.offset while not attracting.
    public var clamp: (min: StateOffset, max: StateOffset)?
    /// Remove the panel once it is past pos(state) by more than offset toward hidden.
    public var dismissBeyond: StateOffset?
    public init(clamp: (min: StateOffset, max: StateOffset)? = nil, dismissBeyond: StateOffset? = nil) {
        self.clamp = clamp
        self.dismissBeyond = dismissBeyond
    }
    public static func == (a: DidMoveRecipes, b: DidMoveRecipes) -> Bool {
        a.clamp?.min == b.clamp?.min && a.clamp?.max == b.clamp?.max && a.dismissBeyond == b.dismissBeyond
    }
}

/// `delegate`: the declarative answers of the app's `FloatingPanelControllerDelegate`.
public struct FloatingPanelDelegateConfiguration: Sendable, Equatable {
    /// Answer of `floatingPanelShouldBeginDragging`. Default true.
    public var shouldBeginDragging: Bool = true
    /// `shouldAllowToScroll(_:in:)` answers true iff listed; nil = not implemented.
    public var scrollableStates: [String]? = nil
    /// Proposed target name → target `willEndDragging` forces.
    public var targetStateOverrides: [String: String] = [:]
    public var shouldRemove: RemovalAnswer = .default
    public var didMove: DidMoveRecipes? = nil
    /// `didChangeState.dismissIn`: remove the panel when one of these states is reported.
    public var dismissIn: [String] = []
    public init() {}
}
