// Recording an LNPopupController popup with PanelSimRecorder: copy this file into a debug build of
// the app (README, "Recording on a device"). It compiles against LNPopupController 4.5 where the app
// has it (LNPopupUI uses the same engine), and in the PanelSim repository against
// LNPopupControllerInterfaceStubs.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
#if canImport(LNPopupController)
    import LNPopupController
#else
    import LNPopupControllerInterfaceStubs
#endif
import Foundation
import PanelSimCore
import PanelSimRecorder

/// Records the popup of one popup presentation container: starts a `PanelRecording` with a header
/// read off LNPopupController (interaction style, bar and close-button styles, the bar and bottom
/// bar as measured on screen), takes the release velocity from the popup interaction recognizer,
/// and observes the popup content's top edge and the presentation state every frame. Make the popup
/// calls through `presentBar(with:openPopup:animated:)`, `openPopup(animated:)`,
/// `closePopup(animated:)` and `dismissBar(animated:)` here, so that the trace has the calls the
/// replay needs. LNPopup traces have no environment samples: record in one orientation.
@MainActor
public final class LNPopupRecording {
    public let container: UIViewController
    public let recording: PanelRecording

    /// Reads the header of the popup of `container` (LNPopupHeaderBuilder).
    /// - Parameters:
    ///   - glass: whether iOS 26's Liquid Glass design is on; nil reads it: on from iOS 27, on iOS 26
    ///     unless the app's Info.plist sets `UIDesignRequiresCompatibility`, off before.
    ///   - trackedScrollView: the list inside the popup content, frame written in content coordinates.
    public static func header(
        of container: UIViewController, glass: Bool? = nil, trackedScrollView: UIScrollView? = nil
    ) -> HeaderReading {
        var builder = LNPopupHeaderBuilder()
        switch container.popupInteractionStyle {
        case .default: builder.popup.interactionStyle = .default
        case .drag: builder.popup.interactionStyle = .drag
        case .snap: builder.popup.interactionStyle = .snap
        case .customizedSnap(let percent):
            builder.popup.interactionStyle = .snap
            builder.popup.snapPercent = percent
        case .scroll: builder.popup.interactionStyle = .scroll
        case .automatic: builder.popup.interactionStyle = .automatic
        case .none: builder.popup.interactionStyle = .none
        }
        builder.popup.glass = glass ?? designUsesGlass()
        switch container.popupBar.barStyle {
        case .default: builder.popup.barStyle = .default
        case .compact: builder.popup.barStyle = .compact
        case .prominent: builder.popup.barStyle = .prominent
        case .floating: builder.popup.barStyle = .floating
        case .floatingCompact: builder.popup.barStyle = .floatingCompact
        case .custom: builder.popup.barStyle = .custom
        @unknown default: builder.popup.barStyle = .default
        }
        let content = container.popupContentView
        switch content.popupCloseButtonStyle {
        case .default: builder.popup.closeButtonStyle = .default
        case .grabber: builder.popup.closeButtonStyle = .grabber
        case .chevron: builder.popup.closeButtonStyle = .chevron
        case .round: builder.popup.closeButtonStyle = .round
        case .glass: builder.popup.closeButtonStyle = .glass
        case .prominentGlass: builder.popup.closeButtonStyle = .prominentGlass
        case .none: builder.popup.closeButtonStyle = .none
        default:
            builder.popup.closeButtonStyle = .glass
            builder.unread.append(
                UnreadHeaderField(
                    field: "popup.closeButton.style",
                    reason:
                        "LNPopupCloseButton.Style \(content.popupCloseButtonStyle.rawValue) is not one PanelSim models; assumed glass",
                    remedy: "set header.popup.closeButtonStyle"))
        }
        let state = container.popupPresentationState
        switch state {
        case .barHidden: builder.popup.initialState = .barHidden
        case .open: builder.popup.initialState = .open
        default: builder.popup.initialState = .barPresented
        }
        if state == .open {
            builder.popup.closeButtonFrame = Rect(
                content.popupCloseButton.convert(content.popupCloseButton.bounds, to: content))
        }
        builder.measureBar(
            container.popupBar, barShowsClosed: state == .barPresented,
            bottomBar: container.bottomDockingViewForPopupBar, in: container.view)
        builder.scrollView = trackedScrollView.map { ScrollViewConfiguration(reading: $0, in: content) }
        return builder.reading(container: container.view)
    }

    /// Starts recording the popup of `container` into a new file in `folder` (Documents when nil);
    /// `window` is the popup's window (`PanelRecording.receiveEvents(from:)`). The other parameters
    /// are `header(of:…)`'s and `PanelRecording`'s.
    /// - Throws: `RecorderError` (unread header fields under `policy: .refuse`, file errors).
    public init(
        _ container: UIViewController, window: UIWindow, glass: Bool? = nil,
        trackedScrollView: UIScrollView? = nil,
        policy: UnreadFieldPolicy = .refuse, folder: URL? = nil,
        clock: @escaping @MainActor () -> TimeInterval = { CACurrentMediaTime() }
    ) throws(RecorderError) {
        self.container = container
        let reading = Self.header(of: container, glass: glass, trackedScrollView: trackedScrollView)
        recording = try PanelRecording(
            reading: reading, container: container.view, policy: policy, folder: folder, clock: clock)
        recording.receiveEvents(from: window)
        recording.releaseVelocity = { [weak container] in
            guard let container else { return nil }
            let pan = container.popupContentView.popupInteractionGestureRecognizer
            return pan.state == .ended ? pan.velocity(in: container.view) : nil
        }
        recording.sampleEveryFrame { [weak container] in
            guard let container, let root = container.view else { return nil }
            let state = container.popupPresentationState
            guard state != .barHidden else { return PanelObservation(state: "barHidden") }
            let content = container.popupContentView
            let frame = (content.layer.presentation() ?? content.layer).frame
            let top = content.superview.map { $0.convert(frame.origin, to: root).y } ?? frame.minY
            return PanelObservation(location: Double(top), state: state == .open ? "open" : "barPresented")
        }
    }

    /// Forward the tracked scroll view's `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) { recording.observeScroll(scrollView) }

    /// `presentPopupBar(with:openPopup:animated:completion:)`, recorded as `presentBar`.
    public func presentBar(
        with content: UIViewController, openPopup: Bool = false, animated: Bool = true, completion: (() -> Void)? = nil
    ) {
        recording.record(.popupCall(.presentBar(animated: animated, openPopup: openPopup)))
        container.presentPopupBar(with: content, openPopup: openPopup, animated: animated, completion: completion)
    }

    /// `openPopup(animated:completion:)`, recorded as `openPopup`.
    public func openPopup(animated: Bool = true, completion: (() -> Void)? = nil) {
        recording.record(.popupCall(.openPopup(animated: animated)))
        container.openPopup(animated: animated, completion: completion)
    }

    /// `closePopup(animated:completion:)`, recorded as `closePopup`.
    public func closePopup(animated: Bool = true, completion: (() -> Void)? = nil) {
        recording.record(.popupCall(.closePopup(animated: animated)))
        container.closePopup(animated: animated, completion: completion)
    }

    /// `dismissPopupBar(animated:completion:)`, recorded as `dismissBar`.
    public func dismissBar(animated: Bool = true, completion: (() -> Void)? = nil) {
        recording.record(.popupCall(.dismissBar(animated: animated)))
        container.dismissPopupBar(animated: animated, completion: completion)
    }

    /// Ends the trace (`PanelRecording.finish()`).
    @discardableResult
    public func finish() throws(RecorderError) -> FinishedRecording { try recording.finish() }

    /// Whether LNPopup runs in its Liquid Glass environment (lnpopup.md §3.3, L11): iOS 27, or
    /// iOS 26 without `UIDesignRequiresCompatibility` in the Info.plist.
    static func designUsesGlass() -> Bool {
        if #available(iOS 27.0, *) { return true }
        if #available(iOS 26.0, *) {
            return (Bundle.main.object(forInfoDictionaryKey: "UIDesignRequiresCompatibility") as? Bool) != true
        }
        return false
    }
}
