// DrawerKit's public API as the DrawerKit recording adapter (examples/recording) uses it, so that
// the adapter compiles without the library: `#if canImport(DrawerKit) import DrawerKit #else
// import DrawerKitInterfaceStubs #endif`. Never a product; its module name differs from the
// library's so that an app may depend on both PanelSim and DrawerKit.
//
// Transcribed from DrawerKit (github.com/babylonhealth/DrawerKit, master at commit
// bc1c220b10f2e59c84cc455db0456f413a86b9c6, "Make drawerFullY public (#104)", after tag 0.7.0; the
// snapshot drawerkit.md §1 studies), files under DrawerKit/DrawerKit/Public API/:
// DrawerDisplayController.swift, DrawerNotifications.swift, Notifications.swift,
// Protocols/DrawerPresentable.swift, DrawerAnimationParticipant.swift,
// DrawerPresentationControlling.swift, Structs/DrawerConfiguration.swift, DrawerState.swift,
// HandleViewConfiguration.swift, DrawerAnimationActions.swift, DrawerAnimationInfo.swift,
// DrawerGeometry.swift, and Internal API/PresentationContainerView.swift (`PassthroughOptions`,
// public). Built in the Swift 5 language mode, as the library is.
//
// Not transcribed: DrawerBorderConfiguration's and DrawerShadowConfiguration's members (the
// adapter passes them through untouched), `DrawerAnimationInfo.endPosition`, and
// `DrawerGeometry.userInterfaceOrientation`. The bodies are the stub's: DrawerKit reads
// `statusBarHeight` from `UIApplication` and posts its notifications itself; here a test sets and
// posts them (`stub…` members, not DrawerKit API).
#if !canImport(DrawerKit)
    import Foundation
    #if canImport(UIKit)
        import UIKit
    #else
        import PanelSimUIKitStubs
    #endif

    /// `DrawerState` (Structs/DrawerState.swift).
    public enum DrawerState: Equatable {
        case dismissed
        case collapsed
        case partiallyExpanded
        case fullyExpanded
        case transitioning(currentDrawerY: CGFloat)
    }

    /// `PassthroughOptions` (Internal API/PresentationContainerView.swift).
    public struct PassthroughOptions: OptionSet {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let collapsed = PassthroughOptions(rawValue: 1 << 0)
        public static let partiallyExpanded = PassthroughOptions(rawValue: 1 << 1)
        public static let fullyExpanded = PassthroughOptions(rawValue: 1 << 2)
        public static let all: PassthroughOptions = [.collapsed, .partiallyExpanded, .fullyExpanded]
    }

    /// `DrawerBorderConfiguration` (Structs/DrawerBorderConfiguration.swift); members not transcribed.
    public struct DrawerBorderConfiguration {}

    /// `DrawerShadowConfiguration` (Structs/DrawerShadowConfiguration.swift); members not transcribed.
    public struct DrawerShadowConfiguration {}

    /// `HandleViewConfiguration` (Structs/HandleViewConfiguration.swift).
    public struct HandleViewConfiguration {
        public enum CornerRadius: Equatable {
            case automatic
            case custom(radius: CGFloat)
        }
        public var autoAnimatesDimming: Bool
        public var backgroundColor: UIColor
        public var size: CGSize
        public var top: CGFloat
        public var cornerRadius: CornerRadius
        public init(
            autoAnimatesDimming: Bool = true, backgroundColor: UIColor = .gray,
            size: CGSize = CGSize(width: 40, height: 6),
            top: CGFloat = 8, cornerRadius: CornerRadius = .automatic
        ) {
            self.autoAnimatesDimming = autoAnimatesDimming
            self.backgroundColor = backgroundColor == .clear ? .gray : backgroundColor
            let validated = CGSize(width: max(0, size.width), height: max(0, size.height))
            self.size = validated.width == 0 || validated.height == 0 ? CGSize(width: 40, height: 6) : validated
            self.top = max(0, top)
            switch cornerRadius {
            case .automatic: self.cornerRadius = .automatic
            case .custom(let radius): self.cornerRadius = .custom(radius: max(0, radius))
            }
        }
    }

    /// `DrawerConfiguration` (Structs/DrawerConfiguration.swift).
    public struct DrawerConfiguration {
        public enum FullExpansionBehaviour: Equatable {
            case coversFullScreen
            case doesNotCoverStatusBar
            case leavesCustomGap(gap: CGFloat)
        }

        public enum CornerAnimationOption {
            case maximumAtPartialY
            case alwaysShowBelowStatusBar
            case none
        }

        public var initialState: DrawerState?
        public var totalDurationInSeconds: TimeInterval
        public var durationIsProportionalToDistanceTraveled: Bool
        public var timingCurveProvider: UITimingCurveProvider
        public var fullExpansionBehaviour: FullExpansionBehaviour
        public var supportsPartialExpansion: Bool
        public var dismissesInStages: Bool
        public var isDrawerDraggable: Bool
        public var isFullyPresentableByDrawerTaps: Bool
        public var numberOfTapsForFullDrawerPresentation: Int
        public var isDismissableByOutsideDrawerTaps: Bool
        public var numberOfTapsForOutsideDrawerDismissal: Int
        public var flickSpeedThreshold: CGFloat
        public var upperMarkGap: CGFloat
        public var lowerMarkGap: CGFloat
        public var maximumCornerRadius: CGFloat
        public var cornerAnimationOption: CornerAnimationOption
        public var handleViewConfiguration: HandleViewConfiguration?
        public var drawerBorderConfiguration: DrawerBorderConfiguration?
        public var drawerShadowConfiguration: DrawerShadowConfiguration?
        public var passthroughTouchesInStates: PassthroughOptions

        /// The initializer's validation is DrawerKit's (a non-positive duration becomes 0.4, negative
        /// gaps, radii, thresholds and tap counts become 0, a zero custom gap covers the full screen).
        public init(
            initialState: DrawerState? = nil,
            totalDurationInSeconds: TimeInterval = 0.4,
            durationIsProportionalToDistanceTraveled: Bool = false,
            timingCurveProvider: UITimingCurveProvider = UISpringTimingParameters(),
            fullExpansionBehaviour: FullExpansionBehaviour = .coversFullScreen,
            supportsPartialExpansion: Bool = true,
            dismissesInStages: Bool = true,
            isDrawerDraggable: Bool = true,
            isFullyPresentableByDrawerTaps: Bool = true,
            numberOfTapsForFullDrawerPresentation: Int = 1,
            isDismissableByOutsideDrawerTaps: Bool = true,
            numberOfTapsForOutsideDrawerDismissal: Int = 1,
            flickSpeedThreshold: CGFloat = 3,
            upperMarkGap: CGFloat = 40,
            lowerMarkGap: CGFloat = 40,
            maximumCornerRadius: CGFloat = 15,
            cornerAnimationOption: CornerAnimationOption = .maximumAtPartialY,
            handleViewConfiguration: HandleViewConfiguration? = HandleViewConfiguration(),
            drawerBorderConfiguration: DrawerBorderConfiguration? = nil,
            drawerShadowConfiguration: DrawerShadowConfiguration? = nil,
            passthroughTouchesInStates: PassthroughOptions = [.collapsed, .partiallyExpanded]
        ) {
            self.initialState = initialState
            self.totalDurationInSeconds = totalDurationInSeconds > 0 ? totalDurationInSeconds : 0.4
            self.durationIsProportionalToDistanceTraveled = durationIsProportionalToDistanceTraveled
            self.timingCurveProvider = timingCurveProvider
            switch fullExpansionBehaviour {
            case .coversFullScreen, .doesNotCoverStatusBar:
                self.fullExpansionBehaviour = fullExpansionBehaviour
            case .leavesCustomGap(let gap):
                let validated = max(0, gap)
                self.fullExpansionBehaviour = validated == 0 ? .coversFullScreen : .leavesCustomGap(gap: validated)
            }
            self.supportsPartialExpansion = supportsPartialExpansion
            self.dismissesInStages = dismissesInStages
            self.isDrawerDraggable = isDrawerDraggable
            self.isFullyPresentableByDrawerTaps = isFullyPresentableByDrawerTaps
            self.numberOfTapsForFullDrawerPresentation = max(0, numberOfTapsForFullDrawerPresentation)
            self.isDismissableByOutsideDrawerTaps = isDismissableByOutsideDrawerTaps
            self.numberOfTapsForOutsideDrawerDismissal = max(0, numberOfTapsForOutsideDrawerDismissal)
            self.flickSpeedThreshold = max(0, flickSpeedThreshold)
            self.upperMarkGap = max(0, upperMarkGap)
            self.lowerMarkGap = max(0, lowerMarkGap)
            self.maximumCornerRadius = max(0, maximumCornerRadius)
            self.cornerAnimationOption = cornerAnimationOption
            self.handleViewConfiguration = handleViewConfiguration
            self.drawerBorderConfiguration = drawerBorderConfiguration
            self.drawerShadowConfiguration = drawerShadowConfiguration
            self.passthroughTouchesInStates = passthroughTouchesInStates
        }
    }

    /// `DrawerPresentable` (Protocols/DrawerPresentable.swift).
    public protocol DrawerPresentable: AnyObject {
        var heightOfPartiallyExpandedDrawer: CGFloat { get }
        var heightOfCollapsedDrawer: CGFloat { get }
        var fullExpansionBehaviour: DrawerConfiguration.FullExpansionBehaviour? { get }
    }

    public extension DrawerPresentable {
        var heightOfCollapsedDrawer: CGFloat { return 0 }
        var fullExpansionBehaviour: DrawerConfiguration.FullExpansionBehaviour? { return nil }
    }

    /// `DrawerAnimationActions` (Structs/DrawerAnimationActions.swift); its closures are internal.
    public struct DrawerAnimationActions {
        public typealias PrepareHandler = (_ info: DrawerAnimationInfo) -> Void
        public typealias AnimateAlongHandler = (_ info: DrawerAnimationInfo) -> Void
        public typealias CleanupHandler = (_ info: DrawerAnimationInfo) -> Void
        public init(
            prepare: PrepareHandler? = nil, animateAlong: AnimateAlongHandler? = nil, cleanup: CleanupHandler? = nil
        ) {
            self.prepare = prepare
            self.animateAlong = animateAlong
            self.cleanup = cleanup
        }
        let prepare: PrepareHandler?
        let animateAlong: AnimateAlongHandler?
        let cleanup: CleanupHandler?
    }

    /// `DrawerAnimationParticipant` (Protocols/DrawerAnimationParticipant.swift).
    public protocol DrawerAnimationParticipant: AnyObject {
        var drawerAnimationActions: DrawerAnimationActions { get }
    }

    extension DrawerAnimationParticipant {
        public var drawerAnimationActions: DrawerAnimationActions { DrawerAnimationActions() }
    }

    /// `DrawerGeometry` (Structs/DrawerGeometry.swift).
    public struct DrawerGeometry {
        public let containerBounds: CGRect
        public let startingFrame: CGRect
        public let endingFrame: CGRect
        public let navigationBarHeight: CGFloat
        public let heightOfPartiallyExpandedDrawer: CGFloat
        /// The status bar's height (DrawerKit reads `UIApplication.shared.statusBarFrame`), pt.
        public static var statusBarHeight: CGFloat { stubStatusBarHeight }
        /// Not DrawerKit API: what `statusBarHeight` returns.
        nonisolated(unsafe) public static var stubStatusBarHeight: CGFloat = 0
    }

    /// `DrawerAnimationInfo` (Structs/DrawerAnimationInfo.swift).
    public struct DrawerAnimationInfo {
        public let configuration: DrawerConfiguration
        public let geometry: DrawerGeometry
        public let actualDurationInSeconds: TimeInterval
        public let isPresenting: Bool
        public let startDrawerState: DrawerState
        public let targetDrawerState: DrawerState
        public let endDrawerState: DrawerState
    }

    /// `DrawerDisplayController` (DrawerDisplayController.swift).
    public final class DrawerDisplayController: NSObject {
        public let configuration: DrawerConfiguration
        weak private(set) var presentingVC: UIViewController?
        weak private(set) var presentedVC: (UIViewController & DrawerPresentable)?
        let inDebugMode: Bool

        public init(
            presentingViewController: UIViewController,
            presentedViewController: (UIViewController & DrawerPresentable),
            configuration: DrawerConfiguration = DrawerConfiguration(),
            inDebugMode: Bool = false
        ) {
            presentingVC = presentingViewController
            presentedVC = presentedViewController
            self.configuration = configuration
            self.inDebugMode = inDebugMode
            super.init()
            presentedViewController.stubSetPresentationController(
                StubDrawerPresentationController(
                    presentedViewController: presentedViewController, presenting: presentingViewController))
        }
    }

    /// `DrawerPresentationControlling` (Protocols/DrawerPresentationControlling.swift).
    public protocol DrawerPresentationControlling: AnyObject {
        var scrollViewForPullToDismiss: UIScrollView? { get set }
        func setDrawerState(
            _ state: DrawerState, animated: Bool, animateAlongside: (() -> Void)?, completion: (() -> Void)?)
    }

    extension UIViewController {
        /// The drawer's presentation controller while this view controller is presented as a drawer.
        public var drawerPresentationController: DrawerPresentationControlling? {
            presentationController as? DrawerPresentationControlling
        }
    }

    /// The stub's presentation controller (DrawerKit's own `PresentationController` is internal).
    final class StubDrawerPresentationController: UIPresentationController, DrawerPresentationControlling {
        weak var scrollViewForPullToDismiss: UIScrollView?
        func setDrawerState(
            _ state: DrawerState, animated: Bool, animateAlongside: (() -> Void)?, completion: (() -> Void)?
        ) {
            completion?()
        }
    }

    /// `NotificationEnum` (Notifications.swift).
    public protocol NotificationEnum {
        var name: Notification.Name { get }
    }

    /// `NotificationToken` (Notifications.swift): removes its observer when released.
    public class NotificationToken {
        public let token: NSObjectProtocol
        public let center: NotificationCenter
        init(token: NSObjectProtocol, center: NotificationCenter) {
            self.token = token
            self.center = center
        }
        deinit { center.removeObserver(token) }
    }

    extension NotificationCenter {
        private static let notificationKey = "notificationKey"

        /// Observes DrawerKit's typed notifications (the value rides in `userInfo`).
        public func addObserver<A: NotificationEnum>(
            name: Notification.Name, object: Any? = nil, queue: OperationQueue? = nil,
            using block: @escaping (A, Any?) -> Void
        ) -> NotificationToken {
            let token = addObserver(
                forName: name, object: object, queue: queue,
                using: { note in
                    guard let value = note.userInfo?[NotificationCenter.notificationKey] as? A else {
                        fatalError("incorrect notification key type")
                    }
                    block(value, object)
                })
            return NotificationToken(token: token, center: self)
        }

        /// Not DrawerKit API (DrawerKit's `post(notification:object:)` is internal): posts `notification`
        /// as DrawerKit does.
        public func stubPost(notification: NotificationEnum, object: Any? = nil) {
            post(name: notification.name, object: object, userInfo: [NotificationCenter.notificationKey: notification])
        }
    }

    /// `DrawerNotification` (DrawerNotifications.swift).
    public enum DrawerNotification: NotificationEnum {
        case transitionWillStart(info: DrawerAnimationInfo)
        case transitionDidFinish(info: DrawerAnimationInfo)
        case drawerInteriorTapped
        case drawerExteriorTapped

        public var name: Notification.Name {
            switch self {
            case .transitionWillStart: return DrawerNotification.transitionWillStartNotification
            case .transitionDidFinish: return DrawerNotification.transitionDidFinishNotification
            case .drawerInteriorTapped: return DrawerNotification.drawerInteriorTappedNotification
            case .drawerExteriorTapped: return DrawerNotification.drawerExteriorTappedNotification
            }
        }

        public static let transitionWillStartNotification = Notification.Name(
            rawValue: "DrawerNotification.transitionWillStart")
        public static let transitionDidFinishNotification = Notification.Name(
            rawValue: "DrawerNotification.transitionDidFinish")
        public static let drawerInteriorTappedNotification = Notification.Name(
            rawValue: "DrawerNotification.drawerInteriorTapped")
        public static let drawerExteriorTappedNotification = Notification.Name(
            rawValue: "DrawerNotification.drawerExteriorTapped")
    }

    extension DrawerAnimationInfo {
        /// Not DrawerKit API (the initializer is internal): an info as DrawerKit passes it.
        public static func stub(
            configuration: DrawerConfiguration, start: DrawerState, target: DrawerState, end: DrawerState,
            isPresenting: Bool, startingFrame: CGRect, endingFrame: CGRect, containerBounds: CGRect
        ) -> DrawerAnimationInfo {
            DrawerAnimationInfo(
                configuration: configuration,
                geometry: DrawerGeometry(
                    containerBounds: containerBounds, startingFrame: startingFrame, endingFrame: endingFrame,
                    navigationBarHeight: 0, heightOfPartiallyExpandedDrawer: 0),
                actualDurationInSeconds: configuration.totalDurationInSeconds, isPresenting: isPresenting,
                startDrawerState: start, targetDrawerState: target, endDrawerState: end)
        }
    }
#endif
