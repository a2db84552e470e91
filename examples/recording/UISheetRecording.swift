// Recording a UISheetPresentationController sheet with PanelSimRecorder: copy this file into a
// debug build of the app (README, "Recording on a device"). It needs only UIKit (in the PanelSim
// repository, the UIKit interface stubs).
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import Foundation
import PanelSimCore
import PanelSimRecorder

/// Records one sheet: starts a `PanelRecording` with a header read off the
/// `UISheetPresentationController` (UISheetHeaderBuilder), observes the sheet's on-screen top edge
/// every frame and the selected detent the delegate reports. UIKit keeps the sheet's pan recognizer
/// private, so `ended` samples carry no velocity (the replay estimates it). Forward from your
/// `UISheetPresentationControllerDelegate`:
///
///     func sheetPresentationControllerDidChangeSelectedDetentIdentifier(_ sheet: UISheetPresentationController) {
///         recorder?.sheetDidChangeSelectedDetentIdentifier()
///     }
///
/// and from the tracked scroll view's delegate `recorder?.scrollViewDidScroll(scrollView)`. Make the
/// sheet calls through `present(from:animated:)`, `dismiss(animated:)` and
/// `selectDetent(_:animateChanges:)` here, so that the trace has the calls the replay needs.
@MainActor
public final class UISheetRecording {
    public let sheet: UISheetPresentationController
    public let recording: PanelRecording

    /// Starts recording `sheet` (configured, presented or not yet) shown in `window`, into a new
    /// file in `folder` (Documents when nil; `window`: `PanelRecording.receiveEvents(from:)`). The
    /// other parameters are `UISheetHeaderBuilder.reading(…)`'s and `PanelRecording`'s.
    /// - Throws: `RecorderError` (unread header fields under `policy: .refuse`, file errors).
    public init(
        _ sheet: UISheetPresentationController, window: UIWindow, trackedScrollView: UIScrollView? = nil,
        shouldDismiss: SheetShouldDismiss? = nil, customHeights: [String: Double] = [:],
        policy: UnreadFieldPolicy = .refuse, folder: URL? = nil,
        clock: @escaping @MainActor () -> TimeInterval = { CACurrentMediaTime() }
    ) throws(RecorderError) {
        self.sheet = sheet
        let reading = UISheetHeaderBuilder.reading(
            sheet: sheet, container: window, trackedScrollView: trackedScrollView,
            shouldDismiss: shouldDismiss, customHeights: customHeights)
        recording = try PanelRecording(
            reading: reading, container: window, policy: policy, folder: folder, clock: clock)
        recording.receiveEvents(from: window)
        let presented = sheet.presentedViewController
        recording.sampleEveryFrame { [weak presented, weak window] in
            guard let presented, let window, presented.presentingViewController != nil,
                let view = presented.view, let superview = view.superview
            else { return nil }
            let frame = (view.layer.presentation() ?? view.layer).frame
            return PanelObservation(location: Double(superview.convert(frame.origin, to: window).y))
        }
    }

    /// Forward `sheetPresentationControllerDidChangeSelectedDetentIdentifier(_:)`.
    public func sheetDidChangeSelectedDetentIdentifier() {
        recording.observe(PanelObservation(state: sheet.selectedDetentIdentifier.map(UISheetHeaderBuilder.traceName)))
    }

    /// Forward the tracked scroll view's `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) { recording.observeScroll(scrollView) }

    /// `presenting.present(sheet's view controller, animated:)`, recorded as `present`.
    public func present(from presenting: UIViewController, animated: Bool, completion: (() -> Void)? = nil) {
        recording.record(.sheetCall(.present(animated: animated)))
        presenting.present(sheet.presentedViewController, animated: animated, completion: completion)
    }

    /// The sheet's `dismiss(animated:)`, recorded as `dismiss`.
    public func dismiss(animated: Bool, completion: (() -> Void)? = nil) {
        recording.record(.sheetCall(.dismiss(animated: animated)))
        sheet.presentedViewController.dismiss(animated: animated, completion: completion)
    }

    /// Sets `selectedDetentIdentifier` (inside `animateChanges` when asked), recorded as
    /// `selectDetent`.
    public func selectDetent(_ identifier: UISheetPresentationController.Detent.Identifier?, animateChanges: Bool) {
        recording.record(
            .sheetCall(.selectDetent(identifier.map(UISheetHeaderBuilder.traceName), animateChanges: animateChanges)))
        if animateChanges {
            sheet.animateChanges { sheet.selectedDetentIdentifier = identifier }
        } else {
            sheet.selectedDetentIdentifier = identifier
        }
    }

    /// Call when the answer your `presentationControllerShouldDismiss(_:)` gives changes (a form
    /// that becomes dirty: false; saved: true), recorded as `setShouldDismiss` (uisheet.md §2.2).
    /// Needs a recording started with `shouldDismiss` `.always` or `.never` (the answer at the
    /// start); with `.default` the recorder refuses the sample (`FinishedRecording.refused`, field
    /// `call`), as the loader would.
    public func shouldDismissDidChange(_ answer: Bool) {
        recording.record(.sheetCall(.setShouldDismiss(answer)))
    }

    /// Ends the trace (`PanelRecording.finish()`).
    @discardableResult
    public func finish() throws(RecorderError) -> FinishedRecording { try recording.finish() }
}
