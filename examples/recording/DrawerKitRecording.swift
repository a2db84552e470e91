// Recording a DrawerKit drawer with PanelSimRecorder: copy this file into a debug build of the app
// (README, "Recording on a device"). It compiles against DrawerKit where the app has it, and in the
// PanelSim repository against DrawerKitInterfaceStubs. DrawerKit and PanelSimCore both name a type
// `DrawerConfiguration` and `DrawerState`: DrawerKit's are used through the aliases below, PanelSim's
// through `PanelSimCore.`.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
#if canImport(DrawerKit)
    import DrawerKit
    /// DrawerKit's `DrawerState`.
    public typealias DrawerKitState = DrawerKit.DrawerState
#else
    import DrawerKitInterfaceStubs
    /// DrawerKit's `DrawerState`.
    public typealias DrawerKitState = DrawerKitInterfaceStubs.DrawerState
#endif
import Foundation
import PanelSimCore
import PanelSimRecorder

/// Records one DrawerKit drawer: starts a `PanelRecording` with a header read off the
/// `DrawerDisplayController`'s configuration and the presented view controller, observes the
/// drawer's on-screen top edge every frame and the target state of each transition
/// (`DrawerNotification.transitionWillStart`). DrawerKit keeps its pan recognizer internal, so
/// `ended` samples carry no velocity (the replay estimates it). Make the drawer calls through
/// `present()`, `dismiss()` and `setDrawerState(_:animated:completion:)` here, so that the trace
/// has the calls the replay needs.
@MainActor
public final class DrawerKitRecording {
    public let presenting: UIViewController
    public let presented: UIViewController & DrawerPresentable
    public let recording: PanelRecording
    private var tokens: [NotificationToken] = []

    /// Reads the header (DrawerKitHeaderBuilder): the configuration field by field, the presentable's
    /// heights and full-expansion override, DrawerKit's status bar height, the animation
    /// participants, the UIControls in the drawer and the pull-to-dismiss scroll view.
    /// - Parameters:
    ///   - timingCurve: the timing curve, when the configuration's provider is a spring (UIKit does
    ///     not expose a spring's damping ratio, so `UISpringTimingParameters()` and
    ///     `UISpringTimingParameters(dampingRatio:)` cannot be told apart).
    ///   - currentState: the drawer's state, when it is already presented (DrawerKit does not expose
    ///     it).
    ///   - container: the view the drawer is presented in (the window).
    public static func header(
        displayController: DrawerDisplayController, presenting: UIViewController,
        presented: UIViewController & DrawerPresentable, container: UIView,
        timingCurve: DrawerTimingCurve? = nil, currentState: PanelSimCore.DrawerState? = nil
    ) -> HeaderReading {
        let c = displayController.configuration
        var builder = DrawerKitHeaderBuilder(
            heightOfPartiallyExpandedDrawer: Double(presented.heightOfPartiallyExpandedDrawer))
        builder.drawer.heightOfCollapsedDrawer = Double(presented.heightOfCollapsedDrawer)
        builder.drawer.presented = presented.presentingViewController != nil
        builder.drawer.statusBarHeight = Double(DrawerGeometry.statusBarHeight)
        builder.drawer.participantPresenting = presenting is DrawerAnimationParticipant
        builder.drawer.participantPresented = presented is DrawerAnimationParticipant
        builder.drawer.controls = DrawerKitHeaderBuilder.controls(in: presented.view)
        if let scrollView = presented.drawerPresentationController?.scrollViewForPullToDismiss {
            builder.drawer.scrollView = ScrollViewConfiguration(reading: scrollView, in: presented.view)
        }
        if builder.drawer.presented {
            if let currentState {
                builder.drawer.initialState = currentState
            } else {
                builder.drawer.initialState = c.initialState.flatMap(state)
                builder.unread.append(
                    UnreadHeaderField(
                        field: "drawer.configuration.initialState",
                        reason:
                            "the drawer is already presented and DrawerKit does not expose its state; assumed the configured initial state",
                        remedy: "pass currentState:, or start recording before presenting the drawer"))
            }
        } else {
            builder.drawer.initialState = c.initialState.flatMap(state)
        }
        builder.drawer.totalDurationInSeconds = c.totalDurationInSeconds
        builder.drawer.durationIsProportionalToDistanceTraveled = c.durationIsProportionalToDistanceTraveled
        if let timingCurve {
            builder.drawer.timingCurveProvider = timingCurve
        } else if let cubic = c.timingCurveProvider.cubicTimingParameters,
            c.timingCurveProvider.timingCurveType == .cubic,
            cubic.animationCurve == .linear
        {
            builder.drawer.timingCurveProvider = .linear
        } else {
            builder.unread.append(
                UnreadHeaderField(
                    field: "drawer.configuration.timingCurveProvider",
                    reason:
                        "UIKit does not expose a spring's damping ratio (and PanelSim models no cubic curve but linear); assumed the system spring",
                    remedy:
                        "pass timingCurve: (.systemSpring for UISpringTimingParameters(), .dampingRatio(ζ), .linear)"))
        }
        switch presented.fullExpansionBehaviour ?? c.fullExpansionBehaviour {
        case .coversFullScreen: builder.drawer.fullExpansionBehaviour = .coversFullScreen
        case .doesNotCoverStatusBar: builder.drawer.fullExpansionBehaviour = .doesNotCoverStatusBar
        case .leavesCustomGap(let gap): builder.drawer.fullExpansionBehaviour = .leavesCustomGap(Double(gap))
        }
        builder.drawer.supportsPartialExpansion = c.supportsPartialExpansion
        builder.drawer.dismissesInStages = c.dismissesInStages
        builder.drawer.isDrawerDraggable = c.isDrawerDraggable
        builder.drawer.isFullyPresentableByDrawerTaps = c.isFullyPresentableByDrawerTaps
        builder.drawer.numberOfTapsForFullDrawerPresentation = c.numberOfTapsForFullDrawerPresentation
        builder.drawer.isDismissableByOutsideDrawerTaps = c.isDismissableByOutsideDrawerTaps
        builder.drawer.numberOfTapsForOutsideDrawerDismissal = c.numberOfTapsForOutsideDrawerDismissal
        builder.drawer.flickSpeedThreshold = Double(c.flickSpeedThreshold)
        builder.drawer.upperMarkGap = Double(c.upperMarkGap)
        builder.drawer.lowerMarkGap = Double(c.lowerMarkGap)
        builder.drawer.maximumCornerRadius = Double(c.maximumCornerRadius)
        switch c.cornerAnimationOption {
        case .maximumAtPartialY: builder.drawer.cornerAnimationOption = .maximumAtPartialY
        case .alwaysShowBelowStatusBar: builder.drawer.cornerAnimationOption = .alwaysShowBelowStatusBar
        case .none: builder.drawer.cornerAnimationOption = .none
        }
        builder.drawer.handleAutoAnimatesDimming = c.handleViewConfiguration?.autoAnimatesDimming
        let passthrough: [(PassthroughOptions, PanelSimCore.DrawerState)] =
            [(.collapsed, .collapsed), (.partiallyExpanded, .partiallyExpanded), (.fullyExpanded, .fullyExpanded)]
        builder.drawer.passthroughTouchesInStates = passthrough.filter { c.passthroughTouchesInStates.contains($0.0) }
            .map(\.1)
        return builder.reading(container: container)
    }

    /// Starts recording the drawer `presented` (shown or about to be shown by `presenting` through
    /// `displayController`) into a new file in `folder` (Documents when nil). `window` is the
    /// window the drawer is presented in (`PanelRecording.receiveEvents(from:)`). The other
    /// parameters are `header(…)`'s and `PanelRecording`'s.
    /// - Throws: `RecorderError` (unread header fields under `policy: .refuse`, file errors).
    public init(
        displayController: DrawerDisplayController, presenting: UIViewController,
        presented: UIViewController & DrawerPresentable, window: UIWindow,
        timingCurve: DrawerTimingCurve? = nil, currentState: PanelSimCore.DrawerState? = nil,
        policy: UnreadFieldPolicy = .refuse, folder: URL? = nil,
        clock: @escaping @MainActor () -> TimeInterval = { CACurrentMediaTime() }
    ) throws(RecorderError) {
        self.presenting = presenting
        self.presented = presented
        let reading = Self.header(
            displayController: displayController, presenting: presenting, presented: presented,
            container: window, timingCurve: timingCurve, currentState: currentState)
        recording = try PanelRecording(
            reading: reading, container: window, policy: policy, folder: folder, clock: clock)
        recording.receiveEvents(from: window)
        let recording = recording
        tokens.append(
            NotificationCenter.default.addObserver(name: DrawerNotification.transitionWillStartNotification) {
                (note: DrawerNotification, _: Any?) in
                guard case .transitionWillStart(let info) = note else { return }
                MainActor.assumeIsolated {
                    if let target = Self.state(info.targetDrawerState) {
                        recording.observe(PanelObservation(state: target.rawValue))
                    }
                }
            })
        recording.sampleEveryFrame { [weak presented, weak window] in
            guard let presented, let window, presented.presentingViewController != nil,
                let view = presented.view, let superview = view.superview
            else { return nil }
            let frame = (view.layer.presentation() ?? view.layer).frame
            return PanelObservation(location: Double(superview.convert(frame.origin, to: window).y))
        }
    }

    /// The presenting view controller's `present(presented, animated: true)`, recorded as `present`.
    public func present(completion: (() -> Void)? = nil) {
        recording.record(.drawerCall(.present))
        presenting.present(presented, animated: true, completion: completion)
    }

    /// The drawer's `dismiss(animated: true)`, recorded as `dismiss`.
    public func dismiss(completion: (() -> Void)? = nil) {
        recording.record(.drawerCall(.dismiss))
        presented.dismiss(animated: true, completion: completion)
    }

    /// `setDrawerState(_:animated:animateAlongside:completion:)` of the drawer's presentation
    /// controller, recorded as `setDrawerState` (with `completion` when one is passed).
    public func setDrawerState(_ state: DrawerKitState, animated: Bool = true, completion: (() -> Void)? = nil) {
        if let mapped = Self.state(state) {
            recording.record(.drawerCall(.setDrawerState(mapped, animated: animated, completion: completion != nil)))
        }
        presented.drawerPresentationController?.setDrawerState(
            state, animated: animated, animateAlongside: nil, completion: completion)
    }

    /// Ends the trace (`PanelRecording.finish()`) and stops observing DrawerKit's notifications.
    @discardableResult
    public func finish() throws(RecorderError) -> FinishedRecording {
        tokens = []
        return try recording.finish()
    }

    /// PanelSim's name of a DrawerKit state; nil for `transitioning`.
    static func state(_ state: DrawerKitState) -> PanelSimCore.DrawerState? {
        switch state {
        case .dismissed: return .dismissed
        case .collapsed: return .collapsed
        case .partiallyExpanded: return .partiallyExpanded
        case .fullyExpanded: return .fullyExpanded
        case .transitioning: return nil
        }
    }
}
