// Not UIKit API: how tests drive the stubs. UIKit fills these values in itself (a touch's phase,
// time and place, a view's safe area, a recognizer's state); a test sets them here, on the same
// objects the recorder reads through UIKit's own members. Compiled only where the stubs are.
#if !canImport(UIKit)
    import Foundation

    extension UIScreen {
        /// A screen with `scale` pixels per point and the given refresh rate and bounds.
        public static func stub(
            scale: CGFloat, maximumFramesPerSecond: Int,
            bounds: CGRect = CGRect(x: 0, y: 0, width: 390, height: 844)
        ) -> UIScreen {
            UIScreen(stubScale: scale, maximumFramesPerSecond: maximumFramesPerSecond, bounds: bounds)
        }
    }

    extension UIWindowScene {
        /// A window scene on `screen`.
        public static func stub(screen: UIScreen) -> UIWindowScene { UIWindowScene(stubScreen: screen) }
    }

    extension UIView {
        /// Sets what `safeAreaInsets` returns.
        public func stubSetSafeAreaInsets(_ insets: UIEdgeInsets) { stubSafeAreaInsets = insets }
        /// Sets what `traitCollection` returns for this view and the views below it.
        public func stubSetTraitCollection(_ traits: UITraitCollection) { stubTraitCollection = traits }
    }

    extension UIWindow {
        /// Runs `body` inside `sendEvent(_:)`, where UIKit delivers the event to views and
        /// recognizers (and so where a panel library calls its delegate).
        public func stubDeliver(_ body: @escaping @MainActor (UIEvent) -> Void) { stubDelivery = body }
    }

    extension UIScrollView {
        /// Sets what `isDecelerating` returns.
        public func stubSetDecelerating(_ decelerating: Bool) { stubDecelerating = decelerating }
    }

    extension UITouch {
        /// A touch as UIKit creates it at `began`, at `point` in `window`'s coordinates.
        public static func stubBegan(at point: CGPoint, timestamp: TimeInterval, in window: UIWindow) -> UITouch {
            UITouch(stubPhase: .began, timestamp: timestamp, locationInWindow: point, window: window)
        }
        /// Moves the same touch object on, as UIKit does between events.
        public func stubUpdate(_ phase: UITouch.Phase, to point: CGPoint, timestamp: TimeInterval) {
            stubPreviousLocationInWindow = stubLocationInWindow
            stubPhase = phase
            stubLocationInWindow = point
            stubTimestamp = timestamp
        }
    }

    extension UIEvent {
        /// A touch event carrying `touches`.
        public static func stubTouches(_ touches: Set<UITouch>, timestamp: TimeInterval) -> UIEvent {
            UIEvent(stubType: .touches, timestamp: timestamp, touches: touches)
        }
        /// An event of another type, without touches.
        public static func stub(type: UIEvent.EventType, timestamp: TimeInterval) -> UIEvent {
            UIEvent(stubType: type, timestamp: timestamp, touches: nil)
        }
    }

    extension UIViewController {
        /// Sets what `presentationController` returns (a custom presentation, such as a library's).
        public func stubSetPresentationController(_ controller: UIPresentationController) {
            stubCustomPresentationController = controller
        }
    }

    extension UIGestureRecognizer {
        /// Sets what `state` returns.
        public func stubSetState(_ state: UIGestureRecognizer.State) { stubState = state }
    }

    extension UIPanGestureRecognizer {
        /// Sets what `velocity(in:)` returns (pt/s).
        public func stubSetVelocity(_ velocity: CGPoint) { stubVelocity = velocity }
    }

    extension CALayer {
        /// Gives the layer a presentation layer with `frame` (what is on screen mid-animation).
        public func stubSetPresentationFrame(_ frame: CGRect) {
            let presented = CALayer()
            presented.frame = frame
            presented.bounds = CGRect(origin: .zero, size: frame.size)
            stubPresentation = presented
        }
    }

    extension CADisplayLink {
        /// A display link whose last frame was displayed at `timestamp` (s).
        public static func stub(timestamp: CFTimeInterval) -> CADisplayLink { CADisplayLink(stubTimestamp: timestamp) }
    }
#endif
