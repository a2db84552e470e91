// UIKit's view controllers, presentation controllers and sheets as the recorder and the adapters
// use them (see UIKitGeometry.swift for when this file is compiled). Transcribed from the iOS 17.0
// SDK headers UIKit.framework/Headers/UIViewController.h, UIPresentationController.h and
// UISheetPresentationController.h, with the Swift refinements of Apple's UIKit documentation
// (developer.apple.com/documentation/uikit/uisheetpresentationcontroller/detent: `Detent`,
// `Detent.Identifier`, `custom(identifier:resolver:)` and `resolvedValue(in:)` returning
// `CGFloat?`, `preferredCornerRadius: CGFloat?`). Protocols whose members are all `@optional` are
// declared without members: nothing here calls them, and Linux has no Objective-C runtime for
// optional requirements. The stub's `present(_:animated:completion:)` only links the two view
// controllers and puts the presented view in the presenting window (no transition).
#if !canImport(UIKit)
import Foundation

/// `UIViewController` (UIViewController.h).
@preconcurrency @MainActor
open class UIViewController: UIResponder {
    private var loadedView: UIView?
    weak var stubPresenting: UIViewController?
    var stubPresented: UIViewController?
    private var stubPresentationController: UIPresentationController?
    var stubCustomPresentationController: UIPresentationController?

    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { super.init() }
    public convenience override init() { self.init(nibName: nil, bundle: nil) }

    /// `view`: created on first access.
    open var view: UIView! {
        get {
            if loadedView == nil { loadView() }
            return loadedView
        }
        set { loadedView = newValue }
    }
    open var isViewLoaded: Bool { loadedView != nil }
    open func loadView() { loadedView = UIView(frame: CGRect(x: 0, y: 0, width: 390, height: 844)) }

    open var isModalInPresentation = false
    open var presentedViewController: UIViewController? { stubPresented }
    open var presentingViewController: UIViewController? { stubPresenting }

    /// `presentationController`: the controller managing this view controller's presentation
    /// (a sheet's by default, as for `.automatic`/`.pageSheet` in UIKit).
    open var presentationController: UIPresentationController? {
        if let stubCustomPresentationController { return stubCustomPresentationController }
        if stubPresentationController == nil {
            stubPresentationController = UISheetPresentationController(presentedViewController: self, presenting: stubPresenting)
        }
        return stubPresentationController
    }

    /// `sheetPresentationController` (iOS 15).
    open var sheetPresentationController: UISheetPresentationController? {
        presentationController as? UISheetPresentationController
    }

    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        stubPresented = viewControllerToPresent
        viewControllerToPresent.stubPresenting = self
        viewControllerToPresent.presentationController?.stubPresentingViewController = self
        viewControllerToPresent.presentationController?.stubContainerView = view.window
        if let window = view.window { window.addSubview(viewControllerToPresent.view) }
        completion?()
    }

    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        let presented = stubPresented ?? self
        presented.view.removeFromSuperview()
        presented.stubPresenting?.stubPresented = nil
        presented.stubPresenting = nil
        completion?()
    }
}

/// `UIAdaptivePresentationControllerDelegate` (UIPresentationController.h); its members are all
/// optional.
@preconcurrency @MainActor
public protocol UIAdaptivePresentationControllerDelegate: NSObjectProtocol {}

/// `UIPresentationController` (UIPresentationController.h).
@preconcurrency @MainActor
open class UIPresentationController: NSObject {
    private let presented: UIViewController
    weak var stubPresentingViewController: UIViewController?

    public init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
        presented = presentedViewController
        stubPresentingViewController = presentingViewController
        super.init()
    }

    open weak var delegate: (any UIAdaptivePresentationControllerDelegate)?
    open var presentedViewController: UIViewController { presented }
    open var presentingViewController: UIViewController { stubPresentingViewController! }
    weak var stubContainerView: UIView?
    /// `containerView`: the view the presentation happens in (the window), nil before presenting.
    open var containerView: UIView? { stubContainerView }
    /// `presentedView`: the presented view controller's view while presented.
    open var presentedView: UIView? { stubPresentingViewController == nil ? nil : presented.view }
}

/// `UISheetPresentationControllerDelegate` (UISheetPresentationController.h); its member
/// (`sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)`) is optional.
@preconcurrency @MainActor
public protocol UISheetPresentationControllerDelegate: UIAdaptivePresentationControllerDelegate {}

/// `UISheetPresentationControllerDetentResolutionContext` (iOS 16).
@preconcurrency @MainActor
public protocol UISheetPresentationControllerDetentResolutionContext: NSObjectProtocol {
    /// The trait collection of the sheet's container view.
    var containerTraitCollection: UITraitCollection { get }
    /// The largest value a detent can have, pt.
    var maximumDetentValue: CGFloat { get }
}

/// `UISheetPresentationController` (iOS 15).
@preconcurrency @MainActor
open class UISheetPresentationController: UIPresentationController {
    /// `UISheetPresentationController.Detent` (`UISheetPresentationControllerDetent`).
    @preconcurrency @MainActor
    open class Detent: NSObject {
        /// `Detent.Identifier` (`UISheetPresentationControllerDetentIdentifier`).
        public struct Identifier: Hashable, RawRepresentable, Sendable {
            public let rawValue: String
            public init(_ rawValue: String) { self.rawValue = rawValue }
            public init(rawValue: String) { self.rawValue = rawValue }
            /// `UISheetPresentationControllerDetentIdentifierMedium`.
            public static let medium = Identifier("com.apple.UIKit.medium")
            /// `UISheetPresentationControllerDetentIdentifierLarge`.
            public static let large = Identifier("com.apple.UIKit.large")
        }
        private let detentIdentifier: Identifier
        private let resolver: ((any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?)?

        private init(identifier: Identifier, resolver: ((any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?)?) {
            detentIdentifier = identifier; self.resolver = resolver
            super.init()
        }

        /// `medium()`: about half the screen's height; inactive in compact height.
        open class func medium() -> UISheetPresentationController.Detent { Detent(identifier: .medium, resolver: nil) }
        /// `large()`: the full-height sheet.
        open class func large() -> UISheetPresentationController.Detent { Detent(identifier: .large, resolver: nil) }
        /// `custom(identifier:resolver:)` (iOS 16): the resolver returns a height above the bottom
        /// safe area (pt), or nil for an inactive detent.
        public static func custom(identifier: UISheetPresentationController.Detent.Identifier? = nil,
                                  resolver: @escaping (any UISheetPresentationControllerDetentResolutionContext) -> CGFloat?) -> UISheetPresentationController.Detent {
            Detent(identifier: identifier ?? Identifier(UUID().uuidString), resolver: resolver)
        }
        /// `identifier` (iOS 16).
        open var identifier: UISheetPresentationController.Detent.Identifier { detentIdentifier }
        /// `resolvedValue(in:)` (iOS 16): the detent's value in `context`, nil when inactive. The
        /// stub resolves `large` to the context's maximum and `medium` to half of it.
        public func resolvedValue(in context: any UISheetPresentationControllerDetentResolutionContext) -> CGFloat? {
            if let resolver { return resolver(context) }
            return detentIdentifier == .large ? context.maximumDetentValue : context.maximumDetentValue / 2
        }
    }

    open var detents: [UISheetPresentationController.Detent] = [.large()]
    open var selectedDetentIdentifier: UISheetPresentationController.Detent.Identifier?
    open var largestUndimmedDetentIdentifier: UISheetPresentationController.Detent.Identifier?
    open var prefersScrollingExpandsWhenScrolledToEdge = true
    open var prefersEdgeAttachedInCompactHeight = false
    open var widthFollowsPreferredContentSizeWhenEdgeAttached = false
    open var prefersGrabberVisible = false
    /// `preferredCornerRadius`: nil for the system radius.
    open var preferredCornerRadius: CGFloat?
    /// `animateChanges(_:)`: the stub runs `changes` at once.
    open func animateChanges(_ changes: () -> Void) { changes() }
    /// `invalidateDetents()` (iOS 16).
    open func invalidateDetents() {}
}
#endif
