// UIKit's view controllers and presentation controllers as the recorder and the adapters use them
// (see UIKitGeometry.swift for when this file is compiled); the sheet presentation controller is in
// UISheet/UISheetPresentationController.swift. Transcribed from the iOS 17.0 SDK headers
// UIKit.framework/Headers/UIViewController.h and UIPresentationController.h. Protocols whose
// members are all `@optional` are declared without members: nothing here calls them, and Linux has
// no Objective-C runtime for optional requirements. The stub's `present(_:animated:completion:)`
// only links the two view controllers and puts the presented view in the presenting window (no
// transition).
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
            stubPresentationController = stubDefaultPresentationController()
        }
        return stubPresentationController
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
#endif
