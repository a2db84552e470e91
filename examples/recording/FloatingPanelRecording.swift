// Recording a FloatingPanel panel with PanelSimRecorder: copy this file into a debug build of the
// app (README, "Recording on a device"). It compiles against FloatingPanel 3.x where the app has
// it, and in the PanelSim repository against FloatingPanelInterfaceStubs. FloatingPanel and
// PanelSimCore both name a type `FloatingPanelState`: the library's is used through the alias
// below, PanelSim's as `PanelSimCore.FloatingPanelState`.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
#if canImport(FloatingPanel)
    import FloatingPanel
    /// FloatingPanel's `FloatingPanelState`.
    public typealias FloatingPanelLibraryState = FloatingPanel.FloatingPanelState
#else
    import FloatingPanelInterfaceStubs
    /// FloatingPanel's `FloatingPanelState`.
    public typealias FloatingPanelLibraryState = FloatingPanelInterfaceStubs.FloatingPanelState
#endif
import Foundation
import PanelSimCore
import PanelSimRecorder

/// Records one `FloatingPanelController`: starts a `PanelRecording` with a header read off the
/// controller, takes the release velocity from its pan recognizer, and turns the delegate calls the
/// app forwards into observations. Forward from your `FloatingPanelControllerDelegate`:
///
///     func floatingPanelDidMove(_ fpc: FloatingPanelController) { recorder?.panelDidMove() }
///     func floatingPanelDidChangeState(_ fpc: FloatingPanelController) { recorder?.panelDidChangeState() }
///
/// and from the tracked scroll view's delegate `recorder?.scrollViewDidScroll(scrollView)`. Make
/// programmatic moves through `move(to:animated:)`, `show(animated:)` and `hide(animated:)` here,
/// so that the trace has the calls the replay needs.
@MainActor
public final class FloatingPanelRecording {
    public let fpc: FloatingPanelController
    public let recording: PanelRecording

    /// Reads the header of `fpc` (FloatingPanelHeaderBuilder): position, anchors at their surface
    /// locations, state, backdrop alphas, behavior, content mode, grabber area, removal and
    /// dismissal settings, tracked scroll view, environment.
    /// - Parameters:
    ///   - backdropAlpha: your layout's `backdropAlpha(for:)`, when the layout is not a
    ///     `FloatingPanelBottomLayout` (whose own is read).
    ///   - behavior: your behavior's values, when it is not a `FloatingPanelDefaultBehavior` (whose
    ///     members are read).
    ///   - delegate: what your `FloatingPanelControllerDelegate` answers
    ///     (`FloatingPanelDelegateConfiguration()` when it implements none of the answering methods).
    public static func header(
        of fpc: FloatingPanelController,
        backdropAlpha: ((FloatingPanelLibraryState) -> CGFloat)? = nil,
        behavior: PanelBehavior? = nil,
        delegate: FloatingPanelDelegateConfiguration? = nil
    ) -> HeaderReading {
        let layout = fpc.layout
        var builder = FloatingPanelHeaderBuilder()
        builder.position = position(layout.position)
        let states = layout.anchors.keys.sorted { ($0.order, $0.rawValue) < ($1.order, $1.rawValue) }
        builder.anchors = states.map {
            AnchorLocation(state: panelState($0), location: mainAxis(fpc.surfaceLocation(for: $0), layout.position))
        }
        builder.presented = fpc.state != .hidden
        builder.initialState = panelState(fpc.state == .hidden ? layout.initialState : fpc.state)
        let alpha =
            backdropAlpha ?? (layout as? FloatingPanelBottomLayout).map { layout in { layout.backdropAlpha(for: $0) } }
        if let alpha {
            builder.backdropAlpha = Dictionary(uniqueKeysWithValues: states.map { ($0.rawValue, Double(alpha($0))) })
        }
        builder.behavior = behavior
        if behavior == nil, let defaultBehavior = fpc.behavior as? FloatingPanelDefaultBehavior {
            builder.behavior = read(defaultBehavior, fpc: fpc, states: states, unread: &builder.unread)
        }
        builder.delegate = delegate
        builder.contentMode = fpc.contentMode == .fitToBounds ? .fitToBounds : .static
        builder.grabberAreaOffset = Double(fpc.surfaceView.grabberAreaOffset)
        builder.removalInteractionEnabled = fpc.isRemovalInteractionEnabled
        builder.dismissalTapEnabled = fpc.backdropView.dismissalTapGestureRecognizer.isEnabled
        builder.scrollView = fpc.trackingScrollView.map { ScrollViewConfiguration(reading: $0, in: fpc.surfaceView) }
        return builder.reading(container: fpc.view)
    }

    /// Starts recording `fpc` into a new file in `folder` (Documents when nil); `window`, when
    /// given, is the panel's window (`PanelRecording.receiveEvents(from:)`). The other parameters
    /// are `header(of:…)`'s and `PanelRecording`'s.
    /// - Throws: `RecorderError` (unread header fields under `policy: .refuse`, file errors).
    public init(
        _ fpc: FloatingPanelController, window: UIWindow? = nil,
        backdropAlpha: ((FloatingPanelLibraryState) -> CGFloat)? = nil, behavior: PanelBehavior? = nil,
        delegate: FloatingPanelDelegateConfiguration? = nil, policy: UnreadFieldPolicy = .refuse, folder: URL? = nil,
        clock: @escaping @MainActor () -> TimeInterval = { CACurrentMediaTime() }
    ) throws(RecorderError) {
        self.fpc = fpc
        let reading = Self.header(of: fpc, backdropAlpha: backdropAlpha, behavior: behavior, delegate: delegate)
        recording = try PanelRecording(
            reading: reading, container: fpc.view, policy: policy, folder: folder, clock: clock)
        recording.releaseVelocity = { [weak fpc] in
            guard let fpc, fpc.panGestureRecognizer.state == .ended else { return nil }
            return fpc.panGestureRecognizer.velocity(in: fpc.view)
        }
        recording.receiveEvents(from: window)
    }

    /// Forward `floatingPanelDidMove(_:)`: the surface location, backdrop alpha and list offset.
    public func panelDidMove() {
        recording.observe(
            PanelObservation(
                location: Self.mainAxis(fpc.surfaceLocation, fpc.layout.position),
                contentOffset: fpc.trackingScrollView.map { Self.mainAxis($0.contentOffset, fpc.layout.position) },
                backdropAlpha: Double(fpc.backdropView.alpha)))
    }

    /// Forward `floatingPanelDidChangeState(_:)`.
    public func panelDidChangeState() {
        recording.observe(PanelObservation(state: fpc.state.rawValue))
    }

    /// Forward the tracked scroll view's `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) { recording.observeScroll(scrollView) }

    /// `fpc.move(to:animated:completion:)`, recorded as a `move` call.
    public func move(to state: FloatingPanelLibraryState, animated: Bool, completion: (() -> Void)? = nil) {
        recording.record(.call(.move(to: Self.panelState(state), animated: animated)))
        fpc.move(to: state, animated: animated, completion: completion)
    }

    /// `fpc.show(animated:completion:)`, recorded as a `show` call.
    public func show(animated: Bool, completion: (() -> Void)? = nil) {
        recording.record(.call(.show(animated: animated)))
        fpc.show(animated: animated, completion: completion)
    }

    /// `fpc.hide(animated:completion:)`, recorded as a `hide` call.
    public func hide(animated: Bool, completion: (() -> Void)? = nil) {
        recording.record(.call(.hide(animated: animated)))
        fpc.hide(animated: animated, completion: completion)
    }

    /// Call after the container's size or safe area changed (e.g. from `viewWillTransition(to:with:)`
    /// once laid out): records the new environment and the anchors' new locations (an
    /// `invalidateLayout` call), since the anchors were written for the old geometry.
    public func layoutDidChange() {
        recording.containerDidChangeLayout()
        var panel = recording.header.panel
        panel.anchors = Self.header(of: fpc, delegate: FloatingPanelDelegateConfiguration()).header.panel.anchors
        recording.record(.call(.invalidateLayout(panel)))
    }

    /// Ends the trace (`PanelRecording.finish()`).
    @discardableResult
    public func finish() throws(RecorderError) -> FinishedRecording { try recording.finish() }

    // MARK: Reading FloatingPanel's values

    static func panelState(_ state: FloatingPanelLibraryState) -> PanelSimCore.FloatingPanelState {
        PanelSimCore.FloatingPanelState(name: state.rawValue, order: state.order)
    }

    static func position(_ position: FloatingPanelPosition) -> PanelPosition {
        switch position {
        case .top: return .top
        case .left: return .left
        case .bottom: return .bottom
        case .right: return .right
        }
    }

    /// The main-axis coordinate of a point: y for top and bottom panels, x for left and right.
    static func mainAxis(_ point: CGPoint, _ position: FloatingPanelPosition) -> Double {
        position == .top || position == .bottom ? Double(point.y) : Double(point.x)
    }

    /// A `FloatingPanelDefaultBehavior`'s (or subclass's) answers. Redirectional progress is one
    /// number in PanelSim: answers that differ between pairs of states are reported unread.
    /// `shouldProjectMomentum(_:to:)` is not a member of `FloatingPanelDefaultBehavior`, so a
    /// subclass's answer cannot be read (reported unread); the class itself answers it for no state.
    static func read(
        _ behavior: FloatingPanelDefaultBehavior, fpc: FloatingPanelController, states: [FloatingPanelLibraryState],
        unread: inout [UnreadHeaderField]
    ) -> PanelBehavior {
        var b = PanelBehavior()
        b.springDecelerationRate = Double(behavior.springDecelerationRate)
        b.springResponseTime = Double(behavior.springResponseTime)
        b.momentumProjectionRate = Double(behavior.momentumProjectionRate)
        b.removalInteractionVelocityThreshold = Double(behavior.removalInteractionVelocityThreshold)
        b.rubberBandingEdges = [("top", UIRectEdge.top), ("bottom", UIRectEdge.bottom)]
            .filter { behavior.allowsRubberBanding(for: $0.1) }.map(\.0)
        var progress: [Double] = []
        for from in states {
            for to in states where to !== from {
                progress.append(Double(behavior.redirectionalProgress(fpc, from: from, to: to)))
            }
        }
        if let first = progress.first {
            b.redirectionalProgress = first
            if progress.contains(where: { $0 != first }) {
                unread.append(
                    UnreadHeaderField(
                        field: "panel.behavior.redirectionalProgress",
                        reason:
                            "redirectionalProgress(_:from:to:) answers differ between pairs of states and PanelSim has one value; assumed \(first)",
                        remedy: "pass behavior: with the value to replay"))
            }
        }
        if type(of: behavior) != FloatingPanelDefaultBehavior.self {
            unread.append(
                UnreadHeaderField(
                    field: "panel.behavior.projectsMomentumTo",
                    reason:
                        "shouldProjectMomentum(_:to:) of a FloatingPanelDefaultBehavior subclass is an optional requirement PanelSim cannot call; assumed no state",
                    remedy: "pass behavior: with projectsMomentumTo set"))
        }
        return b
    }
}
