// UIKit's view hierarchy as the recorder and the adapters use it (see UIKitGeometry.swift for
// when this file is compiled). Transcribed from the iOS 17.0 SDK headers
// UIKit.framework/Headers/UIResponder.h, UIView.h, UIWindow.h, UIScreen.h, UIScene.h,
// UIWindowScene.h, UITraitCollection.h, UIScrollView.h, UIControl.h, UIButton.h, UITabBar.h, UIToolbar.h and
// UIDevice.h, as the Swift declarations of Apple's UIKit documentation show them
// (developer.apple.com/documentation/uikit/<type>): the members used, with their Swift names and
// types; `NS_SWIFT_UI_ACTOR` classes are `@preconcurrency @MainActor`, as Swift imports them from
// Objective-C. The bodies are the stubs' own: a view's
// frame and bounds are stored (no layout, no transforms), and the read-only values UIKit computes
// (safe area, trait collection, screen metrics) are set with the `stub…` members of
// StubControls.swift, which are not UIKit API.
#if !canImport(UIKit)
    import Foundation

    /// `UIResponder` (UIResponder.h).
    @preconcurrency @MainActor
    open class UIResponder: NSObject {
        public override init() { super.init() }
    }

    /// `UIView` (UIView.h).
    @preconcurrency @MainActor
    open class UIView: UIResponder {
        /// `layer`: the view's backing layer; `frame` and `bounds` are the layer's.
        public let layer: CALayer
        var stubSafeAreaInsets: UIEdgeInsets?
        var stubTraitCollection: UITraitCollection?
        private(set) weak var parent: UIView?
        private(set) var children: [UIView] = []

        public init(frame: CGRect) {
            layer = CALayer()
            super.init()
            layer.frame = frame
            layer.bounds = CGRect(origin: .zero, size: frame.size)
        }

        public convenience override init() { self.init(frame: .zero) }

        /// `frame`: the view's rectangle in its superview's coordinates (pt).
        open var frame: CGRect {
            get { layer.frame }
            set {
                layer.frame = newValue
                layer.bounds.size = newValue.size
            }
        }

        /// `bounds`: the view's rectangle in its own coordinates (pt).
        open var bounds: CGRect {
            get { layer.bounds }
            set {
                layer.bounds = newValue
                layer.frame.size = newValue.size
            }
        }

        open var alpha: CGFloat = 1
        open var isHidden = false
        open var isUserInteractionEnabled = true
        open var gestureRecognizers: [UIGestureRecognizer]?

        open var superview: UIView? { parent }
        open var subviews: [UIView] { children }

        /// `window`: the window at the root of the view's hierarchy, nil when there is none.
        open var window: UIWindow? {
            var view: UIView = self
            while let up = view.parent { view = up }
            return view as? UIWindow
        }

        /// `safeAreaInsets` (iOS 11): the part of the superview's safe-area insets this view's frame
        /// overlaps (as UIKit propagates them), unless set with `stubSetSafeAreaInsets`.
        open var safeAreaInsets: UIEdgeInsets {
            if let stubSafeAreaInsets { return stubSafeAreaInsets }
            guard let parent else { return .zero }
            let s = parent.safeAreaInsets
            let b = parent.bounds
            return UIEdgeInsets(
                top: max(0, s.top - (frame.minY - b.minY)), left: max(0, s.left - (frame.minX - b.minX)),
                bottom: max(0, s.bottom - (b.maxY - frame.maxY)), right: max(0, s.right - (b.maxX - frame.maxX)))
        }

        /// `traitCollection` (`UITraitEnvironment`): the view's own, else its superview's, else the
        /// window screen's.
        open var traitCollection: UITraitCollection {
            stubTraitCollection ?? parent?.traitCollection ?? window?.screen.traitCollection
                ?? UITraitCollection(displayScale: 0)
        }

        open func addSubview(_ view: UIView) {
            view.removeFromSuperview()
            children.append(view)
            view.parent = self
        }

        open func removeFromSuperview() {
            parent?.children.removeAll { $0 === self }
            parent = nil
        }

        open func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {
            gestureRecognizers = (gestureRecognizers ?? []) + [gestureRecognizer]
            gestureRecognizer.attachedView = self
        }

        /// `convert(_:to:)`: a point in this view's coordinates in `view`'s (the window's when nil).
        open func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
            let inWindow = originInRoot(self)
            let target = view.map(originInRoot) ?? .zero
            return CGPoint(x: point.x + inWindow.x - target.x, y: point.y + inWindow.y - target.y)
        }

        /// `convert(_:from:)`.
        open func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
            (view ?? window ?? self).convert(point, to: self)
        }

        /// `convert(_:to:)` for rectangles (no transforms: the origin moves, the size is kept).
        open func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
            CGRect(origin: convert(rect.origin, to: view), size: rect.size)
        }

        /// `convert(_:from:)` for rectangles.
        open func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
            CGRect(origin: convert(rect.origin, from: view), size: rect.size)
        }

        /// Where this view's coordinate origin lies in the root view's coordinates.
        private func originInRoot(_ view: UIView) -> CGPoint {
            var x = -view.bounds.minX
            var y = -view.bounds.minY
            var v = view
            while let up = v.parent {
                x += v.frame.minX - up.bounds.minX
                y += v.frame.minY - up.bounds.minY
                v = up
            }
            return CGPoint(x: x, y: y)
        }
    }

    /// `UIScene` (UIScene.h).
    @preconcurrency @MainActor
    open class UIScene: UIResponder {}

    /// `UIWindowScene` (UIWindowScene.h).
    @preconcurrency @MainActor
    open class UIWindowScene: UIScene {
        let stubScreen: UIScreen
        init(stubScreen: UIScreen) {
            self.stubScreen = stubScreen
            super.init()
        }
        /// `screen`: the screen the scene is on.
        open var screen: UIScreen { stubScreen }
    }

    /// `UIWindow` (UIWindow.h).
    @preconcurrency @MainActor
    open class UIWindow: UIView {
        var stubScreen = UIScreen(stubScale: 3, maximumFramesPerSecond: 60)
        var stubDelivery: (@MainActor (UIEvent) -> Void)?

        public override init(frame: CGRect) { super.init(frame: frame) }

        public init(windowScene: UIWindowScene) {
            super.init(frame: CGRect(origin: .zero, size: windowScene.screen.stubBounds.size))
            self.windowScene = windowScene
            stubScreen = windowScene.screen
        }

        open weak var windowScene: UIWindowScene?
        open var rootViewController: UIViewController? {
            didSet {
                if let view = rootViewController?.view { addSubview(view) }
            }
        }
        /// `screen`: the screen the window is displayed on.
        open var screen: UIScreen {
            get { windowScene?.screen ?? stubScreen }
            set { stubScreen = newValue }
        }

        /// `sendEvent(_:)`: dispatches an event to the window's views and gesture recognizers. The stub
        /// runs what `stubDeliver(_:)` installed (the part of an app's reaction a test wants).
        open func sendEvent(_ event: UIEvent) { stubDelivery?(event) }

        open func makeKeyAndVisible() {}
    }

    /// `UIScreen` (UIScreen.h).
    @preconcurrency @MainActor
    open class UIScreen: NSObject {
        let stubScale: CGFloat
        let stubMaximumFramesPerSecond: Int
        let stubBounds: CGRect
        init(
            stubScale: CGFloat, maximumFramesPerSecond: Int,
            bounds: CGRect = CGRect(x: 0, y: 0, width: 390, height: 844)
        ) {
            self.stubScale = stubScale
            self.stubMaximumFramesPerSecond = maximumFramesPerSecond
            self.stubBounds = bounds
            super.init()
        }
        /// `scale`: pixels per point.
        open var scale: CGFloat { stubScale }
        /// `maximumFramesPerSecond` (iOS 10.3): the display's highest refresh rate, frames per second.
        open var maximumFramesPerSecond: Int { stubMaximumFramesPerSecond }
        open var bounds: CGRect { stubBounds }
        /// `traitCollection` (`UITraitEnvironment`).
        open var traitCollection: UITraitCollection { UITraitCollection(displayScale: stubScale) }
    }

    /// `UITraitCollection` (UITraitCollection.h): only `displayScale`.
    open class UITraitCollection: NSObject, @unchecked Sendable {
        private let scale: CGFloat
        init(stubScale: CGFloat) {
            scale = stubScale
            super.init()
        }
        /// `init(displayScale:)`.
        public convenience init(displayScale scale: CGFloat) { self.init(stubScale: scale) }
        /// `displayScale`: pixels per point (0 when unspecified).
        open var displayScale: CGFloat { scale }
    }

    /// `UIScrollView` (UIScrollView.h).
    @preconcurrency @MainActor
    open class UIScrollView: UIView {
        var stubDecelerating = false
        /// `contentOffset`: the bounds origin (pt).
        open var contentOffset: CGPoint {
            get { bounds.origin }
            set { bounds.origin = newValue }
        }
        open var contentSize: CGSize = .zero
        open var contentInset: UIEdgeInsets = .zero
        /// `adjustedContentInset` (iOS 11): `contentInset` plus the safe-area part UIKit adds; the
        /// stub adds none.
        open var adjustedContentInset: UIEdgeInsets { contentInset }
        open var isDecelerating: Bool { stubDecelerating }
        open var bounces = true
        open var alwaysBounceVertical = false
        open var alwaysBounceHorizontal = false
        open var isDirectionalLockEnabled = false
    }

    /// `UIControl` (UIControl.h).
    @preconcurrency @MainActor
    open class UIControl: UIView {}

    /// `UIButton` (UIButton.h).
    @preconcurrency @MainActor
    open class UIButton: UIControl {}

    /// `UITabBar` (UITabBar.h).
    @preconcurrency @MainActor
    open class UITabBar: UIView {}

    /// `UIToolbar` (UIToolbar.h).
    @preconcurrency @MainActor
    open class UIToolbar: UIView {}

    /// `UIDevice` (UIDevice.h).
    @preconcurrency @MainActor
    open class UIDevice: NSObject {
        /// `current`: the device the app runs on.
        open class var current: UIDevice { shared }
        private static let shared = UIDevice()
        /// `model`, e.g. "iPhone".
        open var model: String { "iPhone" }
        /// `systemName`, e.g. "iOS".
        open var systemName: String { "iOS" }
        /// `systemVersion`, e.g. "17.4".
        open var systemVersion: String { "17.0" }
    }
#endif
