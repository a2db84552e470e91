import XCTest
import Foundation
import PanelSimUIKitStubs
import PanelSimRecordingAdapters
import PanelSimRecorder
import PanelGolden
import PanelTrace
import PanelSimCore

/// The sheet adapter driven by stub touches and a stub UISheetPresentationController.
final class UISheetRecordingTests: RecorderTestCase {
    /// A presenting controller in `window` and a sheet with five detents (one inactive) and a list.
    @MainActor
    static func makeSheet(in window: UIWindow) -> (
        presenting: UIViewController, sheet: UISheetPresentationController, list: UIScrollView
    ) {
        let presenting = UIViewController()
        presenting.view.frame = window.bounds
        window.addSubview(presenting.view)
        let content = UIViewController()
        let list = UIScrollView(frame: CGRect(x: 0, y: 20, width: 390, height: 700))
        list.contentSize = CGSize(width: 390, height: 2000)
        content.view.addSubview(list)
        let sheet = content.sheetPresentationController!
        sheet.detents = [
            .custom(identifier: .init("small")) { _ in 150 },
            .custom(identifier: .init("third")) { $0.maximumDetentValue / 3 },
            .custom(identifier: .init("never")) { _ in nil },
            .medium(), .large(),
        ]
        sheet.selectedDetentIdentifier = .medium
        sheet.largestUndimmedDetentIdentifier = .init("small")
        sheet.prefersGrabberVisible = true
        return (presenting, sheet, list)
    }

    func testDetentsAreResolvedForTheRecordedContainer() throws {
        let (reading, unreadWithoutAnswer) = onMain {
            let window = makeWindow()
            let (_, sheet, list) = Self.makeSheet(in: window)
            return (
                UISheetHeaderBuilder.reading(
                    sheet: sheet, container: window, trackedScrollView: list, shouldDismiss: .default),
                UISheetHeaderBuilder.reading(sheet: sheet, container: window).unread.map(\.field)
            )
        }
        let sheet = try XCTUnwrap(reading.header.sheet)
        XCTAssertEqual(reading.system, "uisheet")
        // M = 844 − (47 + 10) − 34 (uisheet.md §3.1); the resolver's third of it is written as a height.
        XCTAssertEqual(
            UISheetHeaderBuilder.maximumDetentValue(
                environment: reading.header.environment,
                prefersEdgeAttachedInCompactHeight: false), 753)
        XCTAssertEqual(
            sheet.detents,
            [
                SheetDetent(identifier: "small", kind: .height(150)),
                SheetDetent(identifier: "third", kind: .height(251)),
                SheetDetent(identifier: "never", kind: .height(0), inactive: true),
                .medium, .large,
            ])
        XCTAssertEqual(sheet.selectedDetentIdentifier, "medium")
        XCTAssertEqual(sheet.largestUndimmedDetentIdentifier, "small")
        XCTAssertTrue(sheet.prefersGrabberVisible)
        XCTAssertFalse(sheet.presented)
        XCTAssertEqual(reading.header.scrollView?.frame, Rect(x: 0, y: 20, width: 390, height: 700))
        XCTAssertEqual(reading.header.scrollView?.contentSize, Size(width: 390, height: 2000))
        XCTAssertEqual(reading.unread, [])
        XCTAssertEqual(unreadWithoutAnswer, ["sheetDelegate.shouldDismiss"])
    }

    func testAPresentedSheetDraggedToADetentIsRecordedThenItsReplayGetsAGoldenAndPasses() throws {
        let folder = traces
        let path: String = try onMain {
            let window = makeWindow()
            let (presenting, sheet, list) = Self.makeSheet(in: window)
            let clock = ManualClock(2000)
            let recorder = try UISheetRecording(
                sheet, window: window, trackedScrollView: list, shouldDismiss: .default,
                folder: folder, clock: clock.read)
            window.stubDeliver { event in
                clock.now = event.timestamp + 0.001
                guard event.allTouches?.contains(where: { $0.phase == .ended }) == true else { return }
                sheet.selectedDetentIdentifier = .init("third")
                recorder.sheetDidChangeSelectedDetentIdentifier()
            }
            clock.now = 2000.1
            recorder.present(from: presenting, animated: true)
            let view = sheet.presentedViewController.view!
            view.layer.stubSetPresentationFrame(CGRect(x: 0, y: 388.333, width: 390, height: 455.667))
            recorder.recording.frameDidFire(.stub(timestamp: 2000.6))
            Fingers(window).drag(x: 195, from: 395, to: 495, steps: 20, at: 2001)
            clock.now = 2002
            recorder.selectDetent(.large, animateChanges: true)
            clock.now = 2003
            let finished = try recorder.finish()
            XCTAssertEqual(finished.refused, [])
            return finished.path
        }
        XCTAssertTrue((path as NSString).lastPathComponent.hasPrefix("uisheet-"))
        let trace = try TraceLoader.load(path: path).trace
        XCTAssertEqual(trace.header.model, .uiSheet)
        XCTAssertEqual(trace.samples.first?.kind, .sheetCall(.present(animated: true)))
        XCTAssertEqual(trace.samples.first?.time, 100_000)
        XCTAssertEqual(trace.observations.map(\.observed.location), [388.333, nil])
        XCTAssertEqual(trace.observations.map(\.observed.state), [nil, "third"])
        XCTAssertEqual(trace.touches.count, 22)
        XCTAssertEqual(trace.touches.first?.time, 1_000_000)
        XCTAssertTrue(
            trace.samples.contains {
                $0.kind == .sheetCall(.selectDetent("large", animateChanges: true)) && $0.time == 2_000_000
            })

        let golden = try recordGoldenAndPass(path)
        // Presented by the recorded call, the sheet rests at the selected detent's offset as PanelSim
        // resolves the detents read from the live sheet, before the finger comes down at t = 1 s.
        let offsets = Dictionary(
            uniqueKeysWithValues: trace.header.sheet!.detentOffsets(environment: trace.header.environment).map {
                ($0.0, $0.1)
            })
        let beforeDrag = golden.records.filter { ($0.frameIndex ?? .max) < 120 }
        XCTAssertEqual(try XCTUnwrap(beforeDrag.last?.frameLocation), try XCTUnwrap(offsets["medium"]), accuracy: 1e-5)
        XCTAssertEqual(beforeDrag.last?.frameState, "medium")
        // The slow drag settles on a detent (not a dismissal), so the recorded `selectDetent` call
        // then selects large.
        XCTAssertFalse(
            golden.records.contains {
                if case .event(_, .system(let e)) = $0 { return e.name == "willDismiss" } else { return false }
            })
        XCTAssertEqual(golden.records.last { $0.frameIndex != nil }?.frameState, "large")
        try assertRecoversCutFile(path)
    }

    /// An app's own window subclass (not a `RecordingWindow`) that forwards its events to the
    /// recording around `super.sendEvent`, as the README says, records the same touches as a
    /// `RecordingWindow`; without the forwarding no touch is recorded.
    func testAnAppsOwnWindowSubclassThatForwardsRecordsTheSameTouches() throws {
        let root = traces
        let paths: [String] = try onMain {
            try ["recording-window", "own-window", "own-window-not-forwarding"].map { kind in
                let own = kind == "recording-window" ? nil : makeWindow { ForwardingWindow(windowScene: $0) }
                own?.forwards = kind == "own-window"
                let window: UIWindow = own ?? makeWindow()
                let (presenting, sheet, list) = Self.makeSheet(in: window)
                let clock = ManualClock(2000)
                let recorder = try UISheetRecording(
                    sheet, window: window, trackedScrollView: list, shouldDismiss: .default,
                    folder: root.appendingPathComponent(kind), clock: clock.read)
                own?.recording = recorder.recording
                window.stubDeliver { event in clock.now = event.timestamp + 0.001 }
                clock.now = 2000.1
                recorder.present(from: presenting, animated: true)
                Fingers(window).drag(x: 195, from: 395, to: 495, steps: 20, at: 2001)
                clock.now = 2002
                return try recorder.finish().path
            }
        }
        let touches = try paths.map { try TraceLoader.load(path: $0).trace.touches }
        XCTAssertEqual(touches[0].count, 22)
        XCTAssertEqual(touches[1].map(\.time), touches[0].map(\.time))
        XCTAssertEqual(touches[1].map(\.touch), touches[0].map(\.touch))
        XCTAssertEqual(touches[2].count, 0)
    }

    /// A changed `presentationControllerShouldDismiss` answer is recorded as `setShouldDismiss`
    /// when the recording starts with an answer (`always`), and refused naming the call's line and
    /// field when it starts with the `default` delegate.
    func testAChangedDismissAnswerIsRecordedOnlyForADelegateThatAnswers() throws {
        let folder = traces
        let (path, refused): (String, [TraceError]) = try onMain {
            let window = makeWindow()
            let (presenting, sheet, list) = Self.makeSheet(in: window)
            let clock = ManualClock(10)
            let recorder = try UISheetRecording(
                sheet, window: window, trackedScrollView: list, shouldDismiss: .always,
                folder: folder, clock: clock.read)
            recorder.present(from: presenting, animated: false)
            clock.now = 10.5
            recorder.shouldDismissDidChange(false)
            clock.now = 11
            let answered = try recorder.finish()
            XCTAssertEqual(answered.refused, [])
            let window2 = makeWindow()
            let (presenting2, sheet2, _) = Self.makeSheet(in: window2)
            let plain = try UISheetRecording(
                sheet2, window: window2, shouldDismiss: .default, folder: folder, clock: clock.read)
            plain.present(from: presenting2, animated: false)
            plain.shouldDismissDidChange(false)
            return (answered.path, try plain.finish().refused)
        }
        let trace = try TraceLoader.load(path: path).trace
        XCTAssertEqual(trace.header.sheet?.shouldDismiss, .always)
        XCTAssertTrue(trace.samples.contains { $0.kind == .sheetCall(.setShouldDismiss(false)) && $0.time == 500_000 })
        XCTAssertEqual(refused.map(\.field), ["call"])
        XCTAssertEqual(refused.first?.line, 3)
    }
}

/// An app's own window subclass that passes its events to a recording itself when `forwards`.
@MainActor
final class ForwardingWindow: UIWindow {
    weak var recording: PanelRecording?
    var forwards = true

    override func sendEvent(_ event: UIEvent) {
        let recording = forwards ? recording : nil
        recording?.windowWillSend(event)
        super.sendEvent(event)
        recording?.windowDidSend(event)
    }
}
