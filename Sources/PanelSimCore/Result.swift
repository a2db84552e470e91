/// What a replay produces (trace-format.md §2): delegate events and frames, in call order.

/// One delegate call, named as FloatingPanel's delegate method without the `floatingPanel` prefix.
public enum DelegateEvent: Sendable, Equatable {
    /// `floatingPanelShouldBeginDragging`, with the delegate's answer.
    case shouldBeginDragging(result: Bool)
    /// `floatingPanelWillBeginDragging`; `state` is the panel state at the call.
    case willBeginDragging(state: String)
    /// `floatingPanelDidMove`; `location` is the surface location (main axis, pt).
    case didMove(location: Double)
    /// `floatingPanelWillEndDragging(_:withVelocity:targetState:)`: pan velocity (pt/s, container
    /// axes), the target FloatingPanel proposed and the target after the delegate's override.
    case willEndDragging(velocity: Point, proposed: String, target: String)
    /// `floatingPanelDidEndDragging(_:willAttract:)`.
    case didEndDragging(willAttract: Bool)
    /// `floatingPanelWillBeginAttracting(_:to:)`.
    case willBeginAttracting(to: String)
    /// `floatingPanelDidEndAttracting`.
    case didEndAttracting
    /// `floatingPanelDidChangeState`; fires on every assignment, also to the same value.
    case didChangeState(state: String)
    /// `floatingPanel(_:shouldRemoveAt:with:)`: the removal vector (1/s) and the answer.
    case shouldRemove(velocity: Point, result: Bool)
    /// `floatingPanelWillRemove`.
    case willRemove
    /// `floatingPanelDidRemove`.
    case didRemove

    /// The result-file event name.
    public var name: String {
        switch self {
        case .shouldBeginDragging: return "shouldBeginDragging"
        case .willBeginDragging: return "willBeginDragging"
        case .didMove: return "didMove"
        case .willEndDragging: return "willEndDragging"
        case .didEndDragging: return "didEndDragging"
        case .willBeginAttracting: return "willBeginAttracting"
        case .didEndAttracting: return "didEndAttracting"
        case .didChangeState: return "didChangeState"
        case .shouldRemove: return "shouldRemove"
        case .willRemove: return "willRemove"
        case .didRemove: return "didRemove"
        }
    }
}

/// The panel as seen at the end of display frame `index`.
public struct FrameRecord: Sendable, Equatable {
    /// Frame number k; the frame's time is k / frameRate.
    public var index: Int
    /// Surface location (main axis, pt): FloatingPanel `surfaceLocation`.
    public var location: Double
    public var state: String
    /// `backdropView.alpha`, 0…1.
    public var backdropAlpha: Double
    /// Tracked scroll view's content offset (main axis, pt); nil without a scroll view.
    public var contentOffset: Double?
    public var isAttracting: Bool
    /// FloatingPanel `interactionInProgress`.
    public var isDragging: Bool
    /// FloatingPanel `scrollLocked` (the tracked scroll view is locked); nil without a scroll view.
    public var scrollLocked: Bool?
    public init(index: Int, location: Double, state: String, backdropAlpha: Double,
                contentOffset: Double? = nil, isAttracting: Bool, isDragging: Bool, scrollLocked: Bool? = nil) {
        self.index = index; self.location = location; self.state = state
        self.backdropAlpha = backdropAlpha; self.contentOffset = contentOffset
        self.isAttracting = isAttracting; self.isDragging = isDragging; self.scrollLocked = scrollLocked
    }

    /// True when everything but the index is equal.
    public func sameValues(as other: FrameRecord) -> Bool {
        location == other.location && state == other.state && backdropAlpha == other.backdropAlpha
            && contentOffset == other.contentOffset && isAttracting == other.isAttracting
            && isDragging == other.isDragging && scrollLocked == other.scrollLocked
    }
}

/// One record of a result, with its time.
public enum ResultRecord: Sendable, Equatable {
    /// A delegate event at `time` µs (the time of the sample or frame that caused it).
    case event(time: Microseconds, DelegateEvent)
    /// A frame; its time is `frameTime(index, frameRate)`.
    case frame(FrameRecord)
}

/// The time of frame `index` at `frameRate` Hz in µs, rounded half up: frame k is at k/frameRate s
/// (floatingpanel-core.md §9 O1), computed from k, never accumulated.
public func frameTime(_ index: Int, frameRate: Int) -> Microseconds {
    let num = Int64(index) * 1_000_000
    let rate = Int64(frameRate)
    return (2 * num + rate) / (2 * rate)
}

/// The outcome of replaying one trace.
public struct SimulationResult: Sendable, Equatable {
    public var records: [ResultRecord]
    /// Non-fatal notes (e.g. ignored fingers), in the order they arose.
    public var warnings: [String]
    /// True when the 10 s settle budget past the last sample ran out (no `end` sample).
    public var budgetExceeded: Bool
    public init(records: [ResultRecord] = [], warnings: [String] = [], budgetExceeded: Bool = false) {
        self.records = records; self.warnings = warnings; self.budgetExceeded = budgetExceeded
    }
}
