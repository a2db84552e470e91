/// A window that hands every event to a recording around its delivery.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif

/// A `UIWindow` that passes each event to `recording` before and after delivering it
/// (`PanelRecording.windowWillSend(_:)`, `windowDidSend(_:)`). Use it as the app's window in a debug
/// build; an app with a window subclass of its own makes the same two calls in its `sendEvent(_:)`.
@MainActor
open class RecordingWindow: UIWindow {
    /// The recording in progress, if any.
    public weak var recording: PanelRecording?

    open override func sendEvent(_ event: UIEvent) {
        let recording = recording
        recording?.windowWillSend(event)
        super.sendEvent(event)
        recording?.windowDidSend(event)
    }
}

extension PanelRecording {
    /// Has `window` pass its events to this recording: a `RecordingWindow` does from now on; any
    /// other window (an app's own subclass) must call `windowWillSend(_:)` and `windowDidSend(_:)`
    /// around `super.sendEvent(_:)` itself; nil does nothing. The adapters of examples/recording
    /// call it with the window they are given.
    public func receiveEvents(from window: UIWindow?) {
        (window as? RecordingWindow)?.recording = self
    }
}
