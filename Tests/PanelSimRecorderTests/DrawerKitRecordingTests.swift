import XCTest
import Foundation
import PanelSimUIKitStubs
import DrawerKitInterfaceStubs
import PanelSimRecordingAdapters
import PanelSimRecorder
import PanelGolden
import PanelTrace
import PanelSimCore

/// A view controller presented as a drawer, 300 pt tall when partially expanded.
final class TestDrawer: UIViewController, DrawerPresentable, DrawerAnimationParticipant {
    nonisolated var heightOfPartiallyExpandedDrawer: CGFloat { 300 }
    nonisolated var heightOfCollapsedDrawer: CGFloat { 80 }
}

/// The DrawerKit adapter driven by stub touches, a stub presentation and DrawerKit's notifications.
final class DrawerKitRecordingTests: RecorderTestCase {
    /// A presenting controller in `window`, a drawer with one button, and DrawerKit's controller.
    @MainActor
    static func makeDrawer(
        in window: UIWindow, configure: (inout DrawerKitInterfaceStubs.DrawerConfiguration) -> Void = { _ in }
    )
        -> (UIViewController, TestDrawer, DrawerDisplayController)
    {
        let presenting = UIViewController()
        presenting.view.frame = window.bounds
        window.addSubview(presenting.view)
        let drawer = TestDrawer()
        drawer.view.frame = CGRect(x: 0, y: 544, width: 390, height: 300)
        let button = UIButton(frame: CGRect(x: 20, y: 20, width: 100, height: 44))
        drawer.view.addSubview(button)
        var configuration = DrawerKitInterfaceStubs.DrawerConfiguration()
        configuration.timingCurveProvider = UICubicTimingParameters(animationCurve: .linear)
        configure(&configuration)
        let display = DrawerDisplayController(
            presentingViewController: presenting, presentedViewController: drawer,
            configuration: configuration)
        DrawerGeometry.stubStatusBarHeight = 47
        return (presenting, drawer, display)
    }

    func testTheHeaderIsReadFromTheConfigurationAndTheDrawer() throws {
        let (linear, spring, springGiven) = onMain {
            let window = makeWindow()
            let (presenting, drawer, display) = Self.makeDrawer(in: window) {
                $0.flickSpeedThreshold = 2
                $0.passthroughTouchesInStates = [.collapsed]
                $0.fullExpansionBehaviour = .leavesCustomGap(gap: 60)
                $0.handleViewConfiguration = nil
            }
            let linear = DrawerKitRecording.header(
                displayController: display, presenting: presenting, presented: drawer, container: window)
            let (p2, d2, springDisplay) = Self.makeDrawer(in: window) {
                $0.timingCurveProvider = UISpringTimingParameters()
            }
            let spring = DrawerKitRecording.header(
                displayController: springDisplay, presenting: p2, presented: d2, container: window)
            let springGiven = DrawerKitRecording.header(
                displayController: springDisplay, presenting: p2, presented: d2,
                container: window, timingCurve: .dampingRatio(0.8))
            return (linear, spring, springGiven)
        }
        let d = try XCTUnwrap(linear.header.drawer)
        XCTAssertEqual(linear.system, "drawerkit")
        XCTAssertEqual(d.heightOfPartiallyExpandedDrawer, 300)
        XCTAssertEqual(d.heightOfCollapsedDrawer, 80)
        XCTAssertFalse(d.presented)
        XCTAssertEqual(d.statusBarHeight, 47)
        XCTAssertEqual(d.participantPresenting, false)
        XCTAssertEqual(d.participantPresented, true)
        XCTAssertEqual(d.controls, [Rect(x: 20, y: 20, width: 100, height: 44)])
        XCTAssertEqual(d.timingCurveProvider, .linear)
        XCTAssertEqual(d.flickSpeedThreshold, 2)
        XCTAssertEqual(d.passthroughTouchesInStates, [.collapsed])
        XCTAssertEqual(d.fullExpansionBehaviour, .leavesCustomGap(60))
        XCTAssertNil(d.handleAutoAnimatesDimming)
        XCTAssertEqual(linear.unread, [])
        XCTAssertEqual(spring.unread.map(\.field), ["drawer.configuration.timingCurveProvider"])
        XCTAssertEqual(springGiven.unread, [])
        XCTAssertEqual(springGiven.header.drawer?.timingCurveProvider, .dampingRatio(0.8))
    }

    func testAPresentationAndADragAreRecordedThenTheReplayGetsAGoldenAndPasses() throws {
        let folder = traces
        let path: String = try onMain {
            let window = makeWindow()
            let (presenting, drawer, display) = Self.makeDrawer(in: window)
            let clock = ManualClock(500)
            let recorder = try DrawerKitRecording(
                displayController: display, presenting: presenting, presented: drawer,
                window: window, folder: folder, clock: clock.read)
            window.stubDeliver { event in clock.now = event.timestamp + 0.001 }
            clock.now = 500.05
            recorder.present()
            NotificationCenter.default.stubPost(
                notification: DrawerNotification.transitionWillStart(
                    info: .stub(
                        configuration: display.configuration, start: .dismissed, target: .partiallyExpanded,
                        end: .partiallyExpanded,
                        isPresenting: true, startingFrame: CGRect(x: 0, y: 844, width: 390, height: 300),
                        endingFrame: CGRect(x: 0, y: 544, width: 390, height: 300), containerBounds: window.bounds)))
            // Two display frames mid-animation and at rest (presentation-layer frames).
            drawer.view.layer.stubSetPresentationFrame(CGRect(x: 0, y: 700, width: 390, height: 300))
            recorder.recording.frameDidFire(.stub(timestamp: 500.2))
            drawer.view.layer.stubSetPresentationFrame(CGRect(x: 0, y: 544, width: 390, height: 300))
            recorder.recording.frameDidFire(.stub(timestamp: 500.5))
            recorder.recording.frameDidFire(.stub(timestamp: 500.508))
            Fingers(window).drag(x: 195, from: 600, to: 380, steps: 10, at: 500.8)
            clock.now = 502
            let finished = try recorder.finish()
            XCTAssertEqual(finished.refused, [])
            return finished.path
        }
        XCTAssertTrue((path as NSString).lastPathComponent.hasPrefix("drawerkit-"))
        let trace = try TraceLoader.load(path: path).trace
        XCTAssertEqual(trace.header.model, .drawerKit)
        XCTAssertEqual(trace.samples.first?.kind, .drawerCall(.present))
        XCTAssertEqual(trace.samples.first?.time, 50_000)
        XCTAssertEqual(trace.observations.map(\.observed.state), ["partiallyExpanded", nil, nil])
        // The unchanged third frame is not written again.
        XCTAssertEqual(trace.observations.map(\.observed.location), [nil, 700, 544])
        XCTAssertEqual(trace.observations.map(\.time), [50_000, 200_000, 500_000])
        let touches = trace.touches
        XCTAssertEqual(touches.count, 12)
        XCTAssertEqual(touches.first?.time, 800_000)
        XCTAssertNil(touches.last?.touch.velocity)
        XCTAssertEqual(trace.samples.last?.time, 2_000_000)

        let golden = try recordGoldenAndPass(path)
        // Presented by the recorded call, the drawer comes to rest at the partially expanded height
        // the presentable reported (844 − 300) before the finger touches it.
        let beforeDrag = golden.records.filter { ($0.frameIndex ?? .max) < 96 }
        XCTAssertEqual(beforeDrag.first?.frameState, "dismissed")
        XCTAssertEqual(beforeDrag.last?.frameLocation, 544)
        XCTAssertEqual(beforeDrag.last?.frameState, "partiallyExpanded")
        try assertRecoversCutFile(path)
    }
}
