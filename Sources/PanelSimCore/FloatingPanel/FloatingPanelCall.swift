/// A programmatic call by the app on a FloatingPanel (`call` samples of a FloatingPanel trace).
public enum FloatingPanelCall: Sendable, Equatable {
    /// `move(to:animated:)`.
    case move(to: FloatingPanelState, animated: Bool)
    /// `show(animated:)`.
    case show(animated: Bool)
    /// `hide(animated:)`.
    case hide(animated: Bool)
    /// The internal `remove()` (removePanelFromParent(animated: true)).
    case remove
    /// The backdrop's dismissal tap handler.
    case tapBackdrop
    /// The scroll view's own `setContentOffset(_:animated:)` (pt); a nil axis keeps its value.
    case setContentOffset(x: Double?, y: Double?, animated: Bool)
    /// The scroll view's `contentSize` (pt); a nil dimension keeps its value.
    case setContentSize(width: Double?, height: Double?)
    /// `track(scrollView:)` with a new scroll view.
    indirect case track(ScrollViewConfiguration)
    /// `untrack(scrollView:)`.
    case untrack
    /// Replace the layout (the trace's partial `panel` merged over the current one: each named field
    /// replaces that field whole), then `invalidateLayout()`.
    indirect case invalidateLayout(FloatingPanelConfiguration)
}
