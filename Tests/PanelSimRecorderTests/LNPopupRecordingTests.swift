import XCTest
import Foundation
import PanelSimUIKitStubs
import LNPopupControllerInterfaceStubs
import PanelSimRecordingAdapters
import PanelSimRecorder
import PanelGolden
import PanelTrace
import PanelSimCore

/// The LNPopup adapter driven by stub touches and a stub popup container.
final class LNPopupRecordingTests: RecorderTestCase {
    /// A popup container over a tab bar (83 pt), its bar presented closed, 64 pt tall.
    @MainActor
    static func makePopup(in window: UIWindow) -> UIViewController {
        let container = UIViewController()
        container.view.frame = window.bounds
        window.addSubview(container.view)
        let tabBar = UITabBar(frame: CGRect(x: 0, y: 761, width: 390, height: 83))
        container.view.addSubview(tabBar)
        container.stubSetBottomDockingView(tabBar)
        container.popupInteractionStyle = .customizedSnap(percent: 0.4)
        container.presentPopupBar(with: UIViewController(), animated: false)
        container.popupBar.frame = CGRect(x: 0, y: 697, width: 390, height: 64)
        container.view.addSubview(container.popupBar)
        container.popupContentView.frame = CGRect(x: 0, y: 761, width: 390, height: 0)
        container.view.addSubview(container.popupContentView)
        return container
    }

    func testTheHeaderIsReadFromTheContainerAndTheBarOnScreen() throws {
        let (reading, open) = onMain {
            let window = makeWindow()
            let container = Self.makePopup(in: window)
            let reading = LNPopupRecording.header(of: container, glass: false)
            container.openPopup(animated: false)
            return (reading, LNPopupRecording.header(of: container, glass: false))
        }
        let popup = try XCTUnwrap(reading.header.popup)
        XCTAssertEqual(reading.system, "lnpopup")
        XCTAssertEqual(popup.interactionStyle, .snap)
        XCTAssertEqual(popup.snapPercent, 0.4)
        XCTAssertEqual(popup.bottomBarKind, .tabBar)
        XCTAssertEqual(popup.bottomBarHeight, 83)
        XCTAssertEqual(popup.barHeight, 64)
        XCTAssertEqual(popup.barOffset, 0)
        XCTAssertEqual(popup.initialState, .barPresented)
        XCTAssertFalse(popup.glass)
        XCTAssertEqual(reading.unread, [])
        // Open, the bar is 0 pt tall (LNPopup's Q6): its height cannot be measured.
        XCTAssertEqual(open.header.popup?.initialState, .open)
        XCTAssertEqual(open.unread.map(\.field), ["popup.bar.height"])
    }

    func testAnUpwardFlickOnTheBarIsRecordedThenItsReplayGetsAGoldenAndPasses() throws {
        let folder = traces
        let path: String = try onMain {
            let window = makeWindow()
            let container = Self.makePopup(in: window)
            let clock = ManualClock(30)
            let recorder = try LNPopupRecording(
                container, window: window, glass: false, folder: folder, clock: clock.read)
            window.stubDeliver { event in
                clock.now = event.timestamp + 0.001
                guard event.allTouches?.contains(where: { $0.phase == .ended }) == true else { return }
                let pan = container.popupContentView.popupInteractionGestureRecognizer
                pan.stubSetState(.ended)
                pan.stubSetVelocity(CGPoint(x: 0, y: -2000))
            }
            Fingers(window).drag(x: 195, from: 730, to: 530, steps: 8, at: 30.2)
            container.stubSetPopupPresentationState(.open)
            container.popupContentView.layer.stubSetPresentationFrame(CGRect(x: 0, y: 0, width: 390, height: 844))
            recorder.recording.frameDidFire(.stub(timestamp: 30.8))
            clock.now = 31.5
            let finished = try recorder.finish()
            XCTAssertEqual(finished.refused, [])
            return finished.path
        }
        XCTAssertTrue((path as NSString).lastPathComponent.hasPrefix("lnpopup-"))
        let trace = try TraceLoader.load(path: path).trace
        XCTAssertEqual(trace.header.model, .lnPopup)
        let touches = trace.touches
        XCTAssertEqual(touches.count, 10)
        XCTAssertEqual(touches.first?.time, 200_000)
        XCTAssertEqual(touches.last?.touch.velocity, Point(x: 0, y: -2000))
        XCTAssertEqual(trace.observations.map(\.observed.state), ["open"])
        XCTAssertEqual(trace.observations.map(\.observed.location), [0])
        XCTAssertEqual(trace.observations.map(\.time), [800_000])

        let golden = try recordGoldenAndPass(path)
        // The replay starts with the content top at the docking line measured on screen (the tab
        // bar's top, 844 − 83) and, flicked up at the recorded velocity, ends open.
        let frames = golden.records.filter { $0.frameIndex != nil }
        XCTAssertEqual(frames.first?.frameLocation, 761)
        XCTAssertEqual(frames.first?.frameState, "barPresented")
        XCTAssertEqual(frames.last?.frameState, "open")
        XCTAssertEqual(frames.last?.frameLocation, 0)
        try assertRecoversCutFile(path)
    }
}
