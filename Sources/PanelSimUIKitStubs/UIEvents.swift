// UIKit's touches, events and gesture recognizers as the recorder and the adapters use them (see
// UIKitGeometry.swift for when this file is compiled). Transcribed from the iOS 17.0 SDK headers
// UIKit.framework/Headers/UITouch.h, UIEvent.h, UIGestureRecognizer.h, UIPanGestureRecognizer.h
// and UITapGestureRecognizer.h, as the Swift declarations of Apple's UIKit documentation show
// them; all `NS_SWIFT_UI_ACTOR`, so `@preconcurrency @MainActor`. `init(target:action:)` is not transcribed: it
// takes an Objective-C selector, which Linux has no runtime for. What UIKit fills in (a touch's
// phase, time and place; a recognizer's state and velocity) is set with the `stub…` members of
// StubControls.swift, which are not UIKit API.
#if !canImport(UIKit)
    import Foundation

    /// `UITouch` (UITouch.h). UIKit keeps one object per finger from `began` to `ended`/`cancelled`.
    @preconcurrency @MainActor
    open class UITouch: NSObject {
        /// `UITouch.Phase` (`UITouchPhase`), raw values as in UITouch.h.
        public enum Phase: Int, Sendable {
            case began, moved, stationary, ended, cancelled
            /// iOS 13.4: a pointer entering, moving in or leaving a region without contact.
            case regionEntered, regionMoved, regionExited
        }
        var stubTimestamp: TimeInterval
        var stubPhase: Phase
        var stubLocationInWindow: CGPoint
        var stubPreviousLocationInWindow: CGPoint
        weak var stubWindow: UIWindow?

        init(stubPhase: Phase, timestamp: TimeInterval, locationInWindow: CGPoint, window: UIWindow?) {
            stubTimestamp = timestamp
            self.stubPhase = stubPhase
            stubLocationInWindow = locationInWindow
            stubPreviousLocationInWindow = locationInWindow
            stubWindow = window
            super.init()
        }

        /// `timestamp`: when the touch changed, s since system start (the clock of
        /// `CACurrentMediaTime()` and `CADisplayLink.timestamp`).
        open var timestamp: TimeInterval { stubTimestamp }
        open var phase: UITouch.Phase { stubPhase }
        open var tapCount: Int { 1 }
        open var window: UIWindow? { stubWindow }
        open var view: UIView? { stubWindow }
        /// `location(in:)`: the touch's point in `view`'s coordinates (the window's when nil), pt.
        open func location(in view: UIView?) -> CGPoint {
            guard let view else { return stubLocationInWindow }
            return view.convert(stubLocationInWindow, from: stubWindow)
        }
        /// `previousLocation(in:)`.
        open func previousLocation(in view: UIView?) -> CGPoint {
            guard let view else { return stubPreviousLocationInWindow }
            return view.convert(stubPreviousLocationInWindow, from: stubWindow)
        }
    }

    /// `UIEvent` (UIEvent.h).
    @preconcurrency @MainActor
    open class UIEvent: NSObject {
        /// `UIEvent.EventType` (`UIEventType`), raw values as in UIEvent.h.
        public enum EventType: Int, Sendable {
            case touches = 0
            case motion = 1
            case remoteControl = 2
            case presses = 3
            /// iOS 13.4.
            case scroll = 10
            case hover = 11
            case transform = 14
        }
        let stubType: EventType
        let stubTimestamp: TimeInterval
        let stubTouches: Set<UITouch>?
        init(stubType: EventType, timestamp: TimeInterval, touches: Set<UITouch>?) {
            self.stubType = stubType
            stubTimestamp = timestamp
            stubTouches = touches
            super.init()
        }
        open var type: UIEvent.EventType { stubType }
        /// `timestamp`: when the event occurred, s since system start.
        open var timestamp: TimeInterval { stubTimestamp }
        /// `allTouches`: every touch of the event, in no particular order.
        open var allTouches: Set<UITouch>? { stubTouches }
    }

    /// `UIGestureRecognizer` (UIGestureRecognizer.h).
    @preconcurrency @MainActor
    open class UIGestureRecognizer: NSObject {
        /// `UIGestureRecognizer.State` (`UIGestureRecognizerState`).
        public enum State: Int, Sendable {
            case possible, began, changed, ended, cancelled, failed
            /// `recognized` is `ended`.
            public static var recognized: State { .ended }
        }
        weak var attachedView: UIView?
        var stubState = State.possible
        public override init() { super.init() }
        /// `state` (read-only outside UIGestureRecognizerSubclass.h).
        open var state: UIGestureRecognizer.State { stubState }
        open var isEnabled = true
        /// `view`: the view the recognizer is attached to.
        open var view: UIView? { attachedView }
    }

    /// `UIPanGestureRecognizer` (UIPanGestureRecognizer.h).
    @preconcurrency @MainActor
    open class UIPanGestureRecognizer: UIGestureRecognizer {
        var stubVelocity = CGPoint.zero
        /// `velocity(in:)`: the pan's velocity in `view`'s coordinate system, pt/s (the stub has no
        /// transforms, so it is the same in every view).
        open func velocity(in view: UIView?) -> CGPoint { stubVelocity }
    }

    /// `UITapGestureRecognizer` (UITapGestureRecognizer.h).
    @preconcurrency @MainActor
    open class UITapGestureRecognizer: UIGestureRecognizer {
        open var numberOfTapsRequired = 1
    }
#endif
