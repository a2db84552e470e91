// UIKit's sheet presentation controller as the recorder and the adapters use it (see
// UIKitGeometry.swift for when this file is compiled). Transcribed from the iOS 17.0 SDK headers
// UIKit.framework/Headers/UISheetPresentationController.h and UIViewController.h
// (`sheetPresentationController`), with the Swift refinements of Apple's UIKit documentation
// (developer.apple.com/documentation/uikit/uisheetpresentationcontroller/detent: `Detent`,
// `Detent.Identifier`, `custom(identifier:resolver:)` and `resolvedValue(in:)` returning
// `CGFloat?`, `preferredCornerRadius: CGFloat?`). Protocols whose members are all `@optional` are
// declared without members (UIPresentation.swift says why).
#if !canImport(UIKit)
import Foundation

extension UIViewController {
    /// `sheetPresentationController` (iOS 15).
    public var sheetPresentationController: UISheetPresentationController? {
        presentationController as? UISheetPresentationController
    }

    /// The presentation controller a view controller gets when none is set: a sheet's, as for the
    /// `.automatic` and `.pageSheet` presentation styles in UIKit (UIViewController.h).
    func stubDefaultPresentationController() -> UIPresentationController {
        UISheetPresentationController(presentedViewController: self, presenting: stubPresenting)
    }
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
