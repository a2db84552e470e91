// LNPopupController's public API as the LNPopup recording adapter (examples/recording) uses it, so
// that the adapter compiles without the library: `#if canImport(LNPopupController) import
// LNPopupController #else import LNPopupControllerInterfaceStubs #endif`. Never a product; its
// module name differs from the library's so that an app may depend on both PanelSim and
// LNPopupController.
//
// Transcribed from LNPopupController 4.5.6 (github.com/LeoNatan/LNPopupController, tag 4.5.6,
// commit de8fe3baabd68532504e4a9daf48f058973dbd73), public headers under
// LNPopupController/LNPopupController/: UIViewController+LNPopupSupport.h
// (`UIViewController.PopupPresentationState`, `popupBar`, `popupContentView`,
// `popupPresentationState`, `popupPresentationDelegate`, `popupContentViewController`,
// `bottomDockingViewForPopupBar`, `LNPopupPresentationDelegate`), LNPopupBar.h (`LNPopupBar`,
// `LNPopupBar.Style`, `barStyle`, `effectiveBarStyle`), LNPopupContentView.h
// (`LNPopupContentView`, `LNPopupInteractionPanGestureRecognizer`, `popupInteractionGestureRecognizer`,
// `popupCloseButtonStyle`, `effectivePopupCloseButtonStyle`, `popupCloseButton`) and
// LNPopupCloseButton.h (`LNPopupCloseButton`, `LNPopupCloseButton.Style`); and the Swift overlay
// LNPopupController+Swift/LNPopupController+Swift.swift (`UIViewController.PopupInteractionStyle`,
// `popupInteractionStyle`, `effectivePopupInteractionStyle`, `presentPopupBar(with:openPopup:
// animated:completion:)`, `openPopup(animated:completion:)`, `closePopup(animated:completion:)`,
// `dismissPopupBar(animated:completion:)`). Built in the Swift 5 language mode.
//
// Differences: `LNPopupPresentationDelegate`'s members are all optional and are not declared (Linux
// has no Objective-C runtime); the deprecated and unavailable enum cases are left out. The bodies
// are the stub's: LNPopup keeps its state in associated objects and lays the bar out itself; here
// the state is in a table and a test sets frames and states (`stub…` members, not LNPopup API).
#if !canImport(LNPopupController)
    import Foundation
    #if canImport(UIKit)
        import UIKit
    #else
        import PanelSimUIKitStubs
    #endif

    /// `LNPopupInteractionPanGestureRecognizer` (LNPopupContentView.h).
    public class LNPopupInteractionPanGestureRecognizer: UIPanGestureRecognizer {}

    /// `LNPopupCloseButton` (LNPopupCloseButton.h).
    public class LNPopupCloseButton: UIButton {
        /// `LNPopupCloseButton.Style` (`LNPopupCloseButtonStyle`), raw values as in the header.
        public enum Style: Int {
            case `default` = 0
            case chevron = 1
            case grabber = 2
            case glass = 0x100
            case clearGlass = 0x101
            case prominentGlass = 0x102
            case prominentClearGlass = 0x103
            case shinyGlass = 0x104
            case none = 0xFFFF
            /// Deprecated in the header (iOS 26) but still a style.
            case round = 0x10000
        }
    }

    /// `LNPopupBar` (LNPopupBar.h).
    public class LNPopupBar: UIView {
        /// `LNPopupBar.Style` (`LNPopupBarStyle`), raw values as in the header.
        public enum Style: Int {
            case `default` = 0
            case compact = 1
            case prominent = 2
            case floatingCompact = 8
            case floating = 9
            case custom = 0xFFFF
        }
        public var barStyle: Style = .default
        /// The style in effect (`default` resolved); the stub resolves it to `floating`.
        public var effectiveBarStyle: Style { barStyle == .default ? .floating : barStyle }
    }

    /// `LNPopupContentView` (LNPopupContentView.h).
    public class LNPopupContentView: UIView {
        public let popupInteractionGestureRecognizer = LNPopupInteractionPanGestureRecognizer()
        public var popupCloseButtonStyle: LNPopupCloseButton.Style = .default
        /// The close-button style in effect; the stub resolves `default` to `grabber`.
        public var effectivePopupCloseButtonStyle: LNPopupCloseButton.Style {
            popupCloseButtonStyle == .default ? .grabber : popupCloseButtonStyle
        }
        public let popupCloseButton = LNPopupCloseButton(frame: .zero)
    }

    /// `LNPopupPresentationDelegate` (UIViewController+LNPopupSupport.h); all its members are optional.
    public protocol LNPopupPresentationDelegate: NSObjectProtocol {}

    /// Where the stub keeps what LNPopup keeps in associated objects of a view controller.
    final class PopupStubState {
        let bar = LNPopupBar(frame: .zero)
        let contentView = LNPopupContentView(frame: .zero)
        var presentationState = UIViewController.PopupPresentationState.barHidden
        var interactionStyle = UIViewController.PopupInteractionStyle.default
        weak var delegate: LNPopupPresentationDelegate?
        var content: UIViewController?
        var dockingView: UIView?
    }

    private var popupStubStates: [ObjectIdentifier: PopupStubState] = [:]

    extension UIViewController {
        /// `UIViewController.PopupPresentationState` (`LNPopupPresentationState`).
        public enum PopupPresentationState: Int {
            case barHidden = 0
            case barPresented = 1
            case open = 3
        }

        /// `UIViewController.PopupInteractionStyle` (LNPopupController+Swift.swift).
        public enum PopupInteractionStyle {
            case `default`
            case drag
            case snap
            case customizedSnap(percent: Double)
            case scroll
            case automatic
            case none
        }

        var popupStub: PopupStubState {
            if let state = popupStubStates[ObjectIdentifier(self)] { return state }
            let state = PopupStubState()
            popupStubStates[ObjectIdentifier(self)] = state
            return state
        }

        public var popupBar: LNPopupBar { popupStub.bar }
        public var popupContentView: LNPopupContentView { popupStub.contentView }
        public var popupPresentationState: UIViewController.PopupPresentationState { popupStub.presentationState }
        public var popupInteractionStyle: PopupInteractionStyle {
            get { popupStub.interactionStyle }
            set { popupStub.interactionStyle = newValue }
        }
        public var effectivePopupInteractionStyle: PopupInteractionStyle {
            if case .default = popupStub.interactionStyle { return .drag }
            return popupStub.interactionStyle
        }
        public var popupPresentationDelegate: LNPopupPresentationDelegate? {
            get { popupStub.delegate }
            set { popupStub.delegate = newValue }
        }
        public var popupContentViewController: UIViewController? { popupStub.content }
        /// The view the bar docks above (a tab bar or toolbar), nil for the container's bottom.
        public var bottomDockingViewForPopupBar: UIView? { popupStub.dockingView }

        public func presentPopupBar(
            with contentViewController: UIViewController, openPopup: Bool = false, animated: Bool = true,
            completion: (() -> Void)? = nil
        ) {
            popupStub.content = contentViewController
            popupStub.presentationState = openPopup ? .open : .barPresented
            completion?()
        }
        public func openPopup(animated: Bool = true, completion: (() -> Void)? = nil) {
            popupStub.presentationState = .open
            completion?()
        }
        public func closePopup(animated: Bool = true, completion: (() -> Void)? = nil) {
            popupStub.presentationState = .barPresented
            completion?()
        }
        public func dismissPopupBar(animated: Bool = true, completion: (() -> Void)? = nil) {
            popupStub.presentationState = .barHidden
            popupStub.content = nil
            completion?()
        }

        /// Not LNPopup API: sets `popupPresentationState` (as a gesture or an animation ending would).
        public func stubSetPopupPresentationState(_ state: UIViewController.PopupPresentationState) {
            popupStub.presentationState = state
        }
        /// Not LNPopup API: sets what `bottomDockingViewForPopupBar` returns.
        public func stubSetBottomDockingView(_ view: UIView?) { popupStub.dockingView = view }
    }
#endif
