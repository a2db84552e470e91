/// The display link behind `PanelRecording.sampleEveryFrame(_:)`.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import Foundation

/// Starts and stops the per-frame callback of a recording. `CADisplayLink` calls an Objective-C
/// selector, so it runs where the Objective-C runtime exists (iOS, and macOS against the stubs);
/// elsewhere there is no display and nothing is started.
enum FrameDriver {
    /// The object that keeps the display link, nil where there is none.
    @MainActor
    static func start(for recording: PanelRecording) -> AnyObject? {
        #if canImport(ObjectiveC)
            let target = DisplayLinkTarget(recording)
            let link = CADisplayLink(target: target, selector: #selector(DisplayLinkTarget.tick(_:)))
            link.add(to: .main, forMode: .common)
            target.link = link
            return target
        #else
            return nil
        #endif
    }

    /// Invalidates the display link `start` made (which releases its target).
    @MainActor
    static func stop(_ driver: AnyObject?) {
        #if canImport(ObjectiveC)
            (driver as? DisplayLinkTarget)?.link?.invalidate()
        #endif
    }
}

#if canImport(ObjectiveC)
    /// The display link's target: forwards each frame to the recording (held weakly, so that a
    /// recording nobody keeps ends its frames).
    @MainActor
    final class DisplayLinkTarget: NSObject {
        weak var recording: PanelRecording?
        var link: CADisplayLink?
        init(_ recording: PanelRecording) { self.recording = recording }
        @objc func tick(_ link: CADisplayLink) { recording?.frameDidFire(link) }
    }
#endif
