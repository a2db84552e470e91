/// The header of a FloatingPanel recording from what an app reads off its FloatingPanelController.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import PanelSimCore

/// One anchor of the live layout: its state and the surface location FloatingPanel computes for it.
public struct AnchorLocation: Sendable, Equatable {
    public var state: FloatingPanelState
    /// `surfaceLocation(for: state)` on the panel's main axis (y for top/bottom panels, x for
    /// left/right), pt in the controller's view coordinates.
    public var location: Double
    public init(state: FloatingPanelState, location: Double) {
        self.state = state
        self.location = location
    }
}

/// Builds the header of a FloatingPanel trace (`model` floatingpanel, trace-format.md §1.1) from the
/// values an app reads off its `FloatingPanelController` (the FloatingPanel adapter in
/// examples/recording fills it). Optional fields are the ones FloatingPanel may not let an app
/// read: left nil, they are reported as unread with the assumption made.
///
/// Anchors are written as they resolved on the recorded device, not as the layout declares them:
/// FloatingPanel keeps an anchor's inset, edge and fractional flag internal, but
/// `surfaceLocation(for:)` (public) gives the location each anchor resolves to, and an absolute
/// inset from the top (left) edge of the superview reproduces that location exactly for the
/// recorded container (floatingpanel-layout-behavior.md §3.4: location = inset for `.top`/`.left`
/// edges with the `superview` guide). A layout that depends on the container size is re-read when
/// the container changes (the adapter's `layoutDidChange`).
public struct FloatingPanelHeaderBuilder: Sendable {
    /// `layout.position`.
    public var position: PanelPosition = .bottom
    /// Every state of `layout.anchors` with its surface location.
    public var anchors: [AnchorLocation] = []
    /// The state shown when recording starts (`fpc.state`), or `layout.initialState` when hidden.
    public var initialState: FloatingPanelState = .half
    /// Whether the panel is shown when recording starts (`fpc.state != .hidden`).
    public var presented = true
    /// `layout.backdropAlpha(for:)` per state name; nil when it could not be read.
    public var backdropAlpha: [String: Double]? = nil
    /// The behavior's answers; nil when they could not be read.
    public var behavior: PanelBehavior? = nil
    /// The app delegate's declared answers; nil when the app did not describe its delegate.
    public var delegate: FloatingPanelDelegateConfiguration? = nil
    /// `fpc.contentMode`.
    public var contentMode: ContentMode = .static
    /// `fpc.surfaceView.grabberAreaOffset`, pt.
    public var grabberAreaOffset = 36.0
    /// `fpc.isRemovalInteractionEnabled`.
    public var removalInteractionEnabled = false
    /// `fpc.backdropView.dismissalTapGestureRecognizer.isEnabled`.
    public var dismissalTapEnabled = false
    /// The tracked scroll view (`fpc.trackingScrollView`), frame in surface coordinates.
    public var scrollView: ScrollViewConfiguration? = nil
    /// Fields the adapter found unreadable beyond the optional ones above.
    public var unread: [UnreadHeaderField] = []

    public init() {}

    /// The anchors as absolute insets from the top (top/bottom panels) or left (left/right) edge
    /// of the superview, in descending state order (the order of trace-format.md's example).
    public var layoutAnchors: [AnchorEntry] {
        let edge: ReferenceEdge = position.isVertical ? .top : .left
        return anchors.sorted { ($0.state.order, $0.state.name) > ($1.state.order, $1.state.name) }.map {
            AnchorEntry(
                state: $0.state, anchor: .inset($0.location, isFractional: false, edge: edge, guide: .superview))
        }
    }

    /// The header for the panel in `container` (`fpc.view`), its environment read from the
    /// container's window (`PanelEnvironment.read(from:unread:)`).
    @MainActor
    public func reading(container: UIView) -> HeaderReading {
        var environmentUnread: [UnreadHeaderField] = []
        let environment = PanelEnvironment.read(from: container, unread: &environmentUnread)
        var panel = FloatingPanelConfiguration()
        panel.position = position
        panel.anchors = layoutAnchors
        panel.states = anchors.map(\.state).filter { !FloatingPanelState.builtIn.contains($0) }
            .sorted { ($0.order, $0.name) > ($1.order, $1.name) }
        panel.initialState = initialState
        panel.contentMode = contentMode
        panel.grabberAreaOffset = grabberAreaOffset
        panel.removalInteractionEnabled = removalInteractionEnabled
        panel.dismissalTapEnabled = dismissalTapEnabled
        panel.presented = presented
        var reading = HeaderReading(
            system: "floatingpanel",
            header: TraceHeader(name: "recording", environment: environment, panel: panel),
            unread: environmentUnread)
        if let backdropAlpha {
            reading.header.panel.backdropAlpha = backdropAlpha
        } else {
            reading.markUnread(
                "panel.backdropAlpha",
                "backdropAlpha(for:) is an optional requirement of FloatingPanelLayout that only a FloatingPanelBottomLayout lets PanelSim call; assumed FloatingPanelBottomLayout's (0.3 at full, 0 elsewhere)",
                remedy: "pass backdropAlpha: (your layout's backdropAlpha(for:)) to the adapter")
        }
        if let behavior {
            reading.header.panel.behavior = behavior
        } else {
            reading.markUnread(
                "panel.behavior",
                "the behavior is not a FloatingPanelDefaultBehavior, whose members PanelSim can read; those of another FloatingPanelBehavior are optional requirements; assumed FloatingPanelDefaultBehavior's",
                remedy: "pass behavior: (a PanelBehavior with your behavior's values) to the adapter")
        }
        if let delegate {
            reading.header.delegate = delegate
        } else {
            reading.markUnread(
                "delegate",
                "the answers of the app's FloatingPanelControllerDelegate (shouldBeginDragging, shouldAllowToScroll, willEndDragging's target, shouldRemoveAt, didMove and didChangeState recipes) are app code; assumed none implemented",
                remedy:
                    "pass delegate: (a FloatingPanelDelegateConfiguration describing your delegate; FloatingPanelDelegateConfiguration() when it implements none of them) to the adapter"
            )
        }
        reading.header.scrollView = scrollView
        reading.unread += unread
        return reading
    }
}
