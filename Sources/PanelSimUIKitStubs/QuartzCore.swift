// QuartzCore as the recorder uses it (see UIKitGeometry.swift for when this file is compiled).
// Transcribed from the iOS 17.0 SDK headers QuartzCore.framework/Headers/CABase.h
// (`CACurrentMediaTime`), CALayer.h (`frame`, `bounds`, `presentation()`) and CADisplayLink.h,
// as the Swift declarations of Apple's QuartzCore documentation
// (developer.apple.com/documentation/quartzcore/cadisplaylink) show them. `CADisplayLink`'s
// initializer takes an Objective-C selector, so it is declared only where the Objective-C runtime
// exists (macOS); on Linux the class has its properties and a stub initializer.
#if !canImport(UIKit)
    import Foundation

    /// `CACurrentMediaTime()`: the current time of the media clock, s since system start (the clock of
    /// `UITouch.timestamp`). The stub reads `ProcessInfo.systemUptime`.
    public func CACurrentMediaTime() -> CFTimeInterval { ProcessInfo.processInfo.systemUptime }

    /// `CALayer` (CALayer.h). Not isolated to the main actor (as in the SDK); the stub is not
    /// thread-safe and is used from the main thread only.
    open class CALayer: NSObject, @unchecked Sendable {
        var stubPresentation: CALayer?
        public override init() { super.init() }
        /// `frame`: the layer's rectangle in its superlayer's coordinates, pt.
        open var frame: CGRect = .zero
        /// `bounds`: the layer's rectangle in its own coordinates, pt.
        open var bounds: CGRect = .zero
        /// `presentation()`: the layer as currently displayed (mid-animation values), nil when it has
        /// not been displayed.
        open func presentation() -> Self? { stubPresentation.flatMap { $0 as? Self } }
    }

    /// `CADisplayLink` (CADisplayLink.h): a timer bound to the display's refresh.
    open class CADisplayLink: NSObject {
        #if canImport(ObjectiveC)
            /// `init(target:selector:)`: calls `sel` on `target` once per frame once added to a run loop.
            public init(target: Any, selector sel: Selector) { super.init() }
        #endif
        init(stubTimestamp: CFTimeInterval) {
            self.stubTimestamp = stubTimestamp
            super.init()
        }
        var stubTimestamp: CFTimeInterval = 0
        /// `timestamp`: when the last frame was displayed, s (the clock of `CACurrentMediaTime()`).
        open var timestamp: CFTimeInterval { stubTimestamp }
        /// `targetTimestamp` (iOS 10): when the next frame will be displayed, s.
        open var targetTimestamp: CFTimeInterval { stubTimestamp }
        open var isPaused = false
        open func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {}
        open func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {}
        open func invalidate() {}
    }
#endif
