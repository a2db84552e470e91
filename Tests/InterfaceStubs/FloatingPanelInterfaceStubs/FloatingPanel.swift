// FloatingPanel's public API as the FloatingPanel recording adapter (examples/recording) uses it,
// so that the adapter compiles without the library: `#if canImport(FloatingPanel) import
// FloatingPanel #else import FloatingPanelInterfaceStubs #endif`. Never a product; its module name
// differs from the library's so that an app may depend on both PanelSim and FloatingPanel.
//
// Transcribed from FloatingPanel 3.2.2 (github.com/scenee/FloatingPanel, tag 3.2.2, commit
// 7efcc769e0ffe62f530e9276ab26309f758b7cc3): Sources/Controller.swift (FloatingPanelController,
// FloatingPanelControllerDelegate), Layout.swift (FloatingPanelLayout, FloatingPanelBottomLayout),
// LayoutAnchoring.swift (FloatingPanelLayoutAnchoring, FloatingPanelLayoutAnchor),
// LayoutProperties.swift (FloatingPanelReferenceEdge, FloatingPanelLayoutReferenceGuide),
// Position.swift, State.swift, Behavior.swift (FloatingPanelBehavior,
// FloatingPanelDefaultBehavior), SurfaceView.swift (grabberAreaOffset), BackdropView.swift
// (dismissalTapGestureRecognizer) and Core.swift (FloatingPanelPanGestureRecognizer). Built in the
// Swift 5 language mode, as the library is.
//
// Differences, all forced by Linux having no Objective-C runtime: `@objc` is dropped, and the
// `@objc optional` requirements of FloatingPanelControllerDelegate, FloatingPanelLayout
// (`prepareLayout`, `backdropAlpha(for:)`) and FloatingPanelBehavior are not declared (the adapter
// never calls an optional requirement; it reads FloatingPanelBottomLayout's and
// FloatingPanelDefaultBehavior's own members). `layoutConstraints(_:for:)` of
// FloatingPanelLayoutAnchoring is not declared (it returns Auto Layout constraints, which the
// stubs do not have). The bodies are the stub's: FloatingPanel computes surface locations from
// the layout; here a test sets them (`stubSetSurfaceLocation`, not FloatingPanel API).
#if !canImport(FloatingPanel)
    import Foundation
    #if canImport(UIKit)
        import UIKit
    #else
        import PanelSimUIKitStubs
    #endif

    /// `FloatingPanelState` (State.swift): a name and an order; compared by identity.
    open class FloatingPanelState: NSObject, RawRepresentable {
        public typealias RawValue = String
        public let rawValue: RawValue
        public let order: Int
        required public init?(rawValue: RawValue) {
            self.rawValue = rawValue
            order = 0
            super.init()
        }
        public init(rawValue: RawValue, order: Int) {
            self.rawValue = rawValue
            self.order = order
            super.init()
        }
        public override var description: String { rawValue }
        public static let full = FloatingPanelState(rawValue: "full", order: 1000)
        public static let half = FloatingPanelState(rawValue: "half", order: 500)
        public static let tip = FloatingPanelState(rawValue: "tip", order: 100)
        public static let hidden = FloatingPanelState(rawValue: "hidden", order: 0)
    }

    /// `FloatingPanelPosition` (Position.swift).
    public enum FloatingPanelPosition: Int {
        case top, left, bottom, right
    }

    /// `FloatingPanelReferenceEdge` (LayoutProperties.swift).
    public enum FloatingPanelReferenceEdge: Int {
        case top, left, bottom, right
    }

    /// `FloatingPanelLayoutReferenceGuide` (LayoutProperties.swift).
    public enum FloatingPanelLayoutReferenceGuide: Int {
        case superview = 0
        case safeArea = 1
    }

    /// `FloatingPanelLayoutAnchoring` (LayoutAnchoring.swift).
    public protocol FloatingPanelLayoutAnchoring: AnyObject {
        var referenceGuide: FloatingPanelLayoutReferenceGuide { get }
    }

    /// `FloatingPanelLayoutAnchor` (LayoutAnchoring.swift): an inset from an edge of a reference
    /// rectangle. Its inset, edge and absolute flag are internal in FloatingPanel.
    final public class FloatingPanelLayoutAnchor: NSObject, FloatingPanelLayoutAnchoring {
        public init(
            absoluteInset: CGFloat, edge: FloatingPanelReferenceEdge, referenceGuide: FloatingPanelLayoutReferenceGuide
        ) {
            inset = absoluteInset
            referenceEdge = edge
            self.referenceGuide = referenceGuide
            isAbsolute = true
        }
        public init(
            fractionalInset: CGFloat, edge: FloatingPanelReferenceEdge,
            referenceGuide: FloatingPanelLayoutReferenceGuide
        ) {
            inset = fractionalInset
            referenceEdge = edge
            self.referenceGuide = referenceGuide
            isAbsolute = false
        }
        let inset: CGFloat
        let isAbsolute: Bool
        public let referenceGuide: FloatingPanelLayoutReferenceGuide
        let referenceEdge: FloatingPanelReferenceEdge
    }

    /// `FloatingPanelLayout` (Layout.swift), without its optional requirements.
    public protocol FloatingPanelLayout: AnyObject {
        var position: FloatingPanelPosition { get }
        var initialState: FloatingPanelState { get }
        var anchors: [FloatingPanelState: FloatingPanelLayoutAnchoring] { get }
    }

    /// `FloatingPanelBottomLayout` (Layout.swift).
    open class FloatingPanelBottomLayout: NSObject, FloatingPanelLayout {
        public override init() { super.init() }
        open var initialState: FloatingPanelState { .half }
        open var anchors: [FloatingPanelState: FloatingPanelLayoutAnchoring] {
            [
                .full: FloatingPanelLayoutAnchor(absoluteInset: 18.0, edge: .top, referenceGuide: .safeArea),
                .half: FloatingPanelLayoutAnchor(fractionalInset: 0.5, edge: .bottom, referenceGuide: .safeArea),
                .tip: FloatingPanelLayoutAnchor(absoluteInset: 69.0, edge: .bottom, referenceGuide: .safeArea),
            ]
        }
        open var position: FloatingPanelPosition { .bottom }
        open func backdropAlpha(for state: FloatingPanelState) -> CGFloat { state == .full ? 0.3 : 0.0 }
    }

    /// `FloatingPanelBehavior` (Behavior.swift); all its requirements are optional.
    public protocol FloatingPanelBehavior: AnyObject {}

    /// `FloatingPanelDefaultBehavior` (Behavior.swift).
    open class FloatingPanelDefaultBehavior: FloatingPanelBehavior {
        public init() {}
        /// `UIScrollView.DecelerationRate.fast` (0.99) + 0.001.
        open var springDecelerationRate: CGFloat { 0.99 + 0.001 }
        open var springResponseTime: CGFloat { 0.4 }
        /// `UIScrollView.DecelerationRate.normal` (0.998).
        open var momentumProjectionRate: CGFloat { 0.998 }
        open func redirectionalProgress(
            _ fpc: FloatingPanelController, from: FloatingPanelState, to: FloatingPanelState
        ) -> CGFloat { 0.5 }
        open func allowsRubberBanding(for edge: UIRectEdge) -> Bool { false }
        open var removalInteractionVelocityThreshold: CGFloat = 5.5
    }

    /// `FloatingPanelControllerDelegate` (Controller.swift); all its requirements are optional.
    public protocol FloatingPanelControllerDelegate: AnyObject {}

    /// `FloatingPanelPanGestureRecognizer` (Core.swift).
    public class FloatingPanelPanGestureRecognizer: UIPanGestureRecognizer {}

    /// `SurfaceView` (SurfaceView.swift).
    public class SurfaceView: UIView {
        /// The depth of the grabber area along the main axis, pt.
        public var grabberAreaOffset: CGFloat = 36.0
    }

    /// `BackdropView` (BackdropView.swift).
    open class BackdropView: UIView {
        public var dismissalTapGestureRecognizer: UITapGestureRecognizer
        public init() {
            dismissalTapGestureRecognizer = UITapGestureRecognizer()
            super.init(frame: .zero)
            dismissalTapGestureRecognizer.isEnabled = false
        }
    }

    /// `FloatingPanelController` (Controller.swift).
    open class FloatingPanelController: UIViewController {
        /// `FloatingPanelController.ContentMode`.
        public enum ContentMode: Int {
            case `static`
            case fitToBounds
        }

        public weak var delegate: FloatingPanelControllerDelegate?
        public let surfaceView = SurfaceView(frame: .zero)
        public var backdropView = BackdropView()
        public let panGestureRecognizer = FloatingPanelPanGestureRecognizer()
        public var layout: FloatingPanelLayout = FloatingPanelBottomLayout()
        public var behavior: FloatingPanelBehavior = FloatingPanelDefaultBehavior()
        public var isRemovalInteractionEnabled = false
        public var contentMode: ContentMode = .static
        var stubState = FloatingPanelState.hidden
        var stubLocations: [FloatingPanelState: CGPoint] = [:]
        var stubScrollView: UIScrollView?

        public init(delegate: FloatingPanelControllerDelegate? = nil) {
            super.init(nibName: nil, bundle: nil)
            self.delegate = delegate
        }

        /// The current state.
        public var state: FloatingPanelState { stubState }
        public var isAttracting: Bool { false }
        /// The scroll view the controller tracks.
        public var trackingScrollView: UIScrollView? { stubScrollView }

        /// The surface's position in the controller's view for `state`: the top-left corner of the
        /// surface for bottom and right panels, bottom-left for top panels, top-right for left panels.
        public func surfaceLocation(for state: FloatingPanelState) -> CGPoint { stubLocations[state] ?? .zero }

        /// The surface's current position (same corners as `surfaceLocation(for:)`).
        public var surfaceLocation: CGPoint {
            get { stubLocations[stubState] ?? .zero }
            set {}
        }

        public func track(scrollView: UIScrollView) { stubScrollView = scrollView }
        public func untrack(scrollView: UIScrollView) { if stubScrollView === scrollView { stubScrollView = nil } }
        public func move(to: FloatingPanelState, animated: Bool, completion: (() -> Void)? = nil) {
            stubState = to
            completion?()
        }
        public func show(animated: Bool = false, completion: (() -> Void)? = nil) {
            stubState = layout.initialState
            completion?()
        }
        public func hide(animated: Bool = false, completion: (() -> Void)? = nil) {
            stubState = .hidden
            completion?()
        }
        public func invalidateLayout() {}
    }

    extension FloatingPanelController {
        /// Not FloatingPanel API: sets what `surfaceLocation(for:)` returns for `state`.
        public func stubSetSurfaceLocation(_ location: CGPoint, for state: FloatingPanelState) {
            stubLocations[state] = location
        }
        /// Not FloatingPanel API: sets the current state (as an attraction or `move(to:)` would).
        public func stubSetState(_ state: FloatingPanelState) { stubState = state }
    }
#endif
