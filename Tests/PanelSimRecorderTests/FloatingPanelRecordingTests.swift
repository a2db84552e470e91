import XCTest
import Foundation
import PanelSimUIKitStubs
import FloatingPanelInterfaceStubs
import PanelSimRecordingAdapters
import PanelSimRecorder
import PanelGolden
import PanelTrace
import PanelSimCore

/// The FloatingPanel adapter driven by stub touches and a stub FloatingPanelController: the header
/// it reads, the trace it writes, and `check` on that trace.
final class FloatingPanelRecordingTests: RecorderTestCase {
    /// Surface locations the stub panel reports for full, half and tip (y, pt): a bottom panel on a
    /// 390 × 844 container.
    static let anchorYs: [Double] = [65, 428, 741]

    @MainActor
    static func makePanel(in window: UIWindow) -> FloatingPanelController {
        let fpc = FloatingPanelController()
        fpc.view.frame = window.bounds
        window.addSubview(fpc.view)
        for (state, y) in zip([FloatingPanelLibraryState.full, .half, .tip], anchorYs) {
            fpc.stubSetSurfaceLocation(CGPoint(x: 0, y: y), for: state)
        }
        fpc.stubSetState(.half)
        return fpc
    }

    func testTheHeaderIsReadFromTheLivePanel() throws {
        let reading = onMain {
            let window = makeWindow()
            let fpc = Self.makePanel(in: window)
            fpc.surfaceView.grabberAreaOffset = 44
            fpc.isRemovalInteractionEnabled = true
            return FloatingPanelRecording.header(of: fpc)
        }
        let panel = reading.header.panel
        XCTAssertEqual(reading.system, "floatingpanel")
        XCTAssertEqual(panel.anchors.map(\.state), [.full, .half, .tip])
        for (entry, y) in zip(panel.anchors, Self.anchorYs) {
            XCTAssertEqual(entry.anchor, .inset(y, isFractional: false, edge: .top, guide: .superview))
        }
        // The anchors resolve, in PanelSim's layout, to the locations the panel reported.
        let geometry = LayoutGeometry(panel: panel, environment: reading.header.environment)
        XCTAssertEqual(
            [PanelSimCore.FloatingPanelState.full, .half, .tip].map { geometry.position(of: $0) }, Self.anchorYs)
        XCTAssertEqual(panel.initialState, .half)
        XCTAssertTrue(panel.presented)
        XCTAssertEqual(panel.states, [])
        XCTAssertEqual(panel.backdropAlpha, ["full": 0.3, "half": 0, "tip": 0])
        XCTAssertEqual(panel.behavior.springDecelerationRate, 0.991, accuracy: 1e-12)
        XCTAssertEqual(panel.behavior.removalInteractionVelocityThreshold, 5.5)
        XCTAssertEqual(panel.grabberAreaOffset, 44)
        XCTAssertTrue(panel.removalInteractionEnabled)
        XCTAssertEqual(reading.header.environment.container, Size(width: 390, height: 844))
        XCTAssertEqual(reading.header.environment.safeArea, Insets(top: 47, left: 0, bottom: 34, right: 0))
        XCTAssertEqual(reading.header.environment.displayScale, 3)
        XCTAssertEqual(reading.header.environment.frameRate, 120)
        // The delegate's answers are app code: reported, with what to pass.
        XCTAssertEqual(reading.unread.map(\.field), ["delegate"])
        XCTAssertTrue(reading.unread[0].remedy.contains("delegate:"))
    }

    func testWhatCannotBeReadIsReportedAndRefusedUnlessAccepted() throws {
        final class CustomLayout: FloatingPanelLayout {
            var position: FloatingPanelPosition { .bottom }
            var initialState: FloatingPanelLibraryState { .tip }
            var anchors: [FloatingPanelLibraryState: FloatingPanelLayoutAnchoring] {
                [
                    .full: FloatingPanelLayoutAnchor(absoluteInset: 0, edge: .top, referenceGuide: .superview),
                    .tip: FloatingPanelLayoutAnchor(absoluteInset: 100, edge: .bottom, referenceGuide: .superview),
                ]
            }
        }
        final class CustomBehavior: FloatingPanelBehavior {}
        let folder = traces
        let (fields, error, assumed) = try onMain {
            let window = makeWindow()
            let fpc = Self.makePanel(in: window)
            fpc.layout = CustomLayout()
            fpc.stubSetState(.tip)
            fpc.behavior = CustomBehavior()
            let fields = FloatingPanelRecording.header(of: fpc).unread.map(\.field)
            var refusal: RecorderError?
            do throws(RecorderError) { _ = try FloatingPanelRecording(fpc, folder: folder) } catch { refusal = error }
            let recorder = try FloatingPanelRecording(fpc, policy: .recordAssumptions, folder: folder)
            try recorder.finish()
            return (fields, refusal, recorder.recording.header.description)
        }
        XCTAssertEqual(fields, ["panel.backdropAlpha", "panel.behavior", "delegate"])
        guard case .headerFieldsMissing(let missing)? = error else {
            return XCTFail("expected headerFieldsMissing, got \(String(describing: error))")
        }
        XCTAssertEqual(missing.fields.map(\.field), fields)
        XCTAssertTrue(missing.description.hasPrefix("3 header fields could not be read"))
        for field in fields { XCTAssertTrue(assumed.contains(field + " ("), assumed) }
        // Refused: no file; accepted: one file.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 1)
    }

    func testAFlickIsRecordedThenItsReplayGetsAGoldenAndPasses() throws {
        let folder = traces
        let path: String = try onMain {
            let window = makeWindow()
            let fpc = Self.makePanel(in: window)
            let clock = ManualClock(1000)
            let recorder = try FloatingPanelRecording(
                fpc, window: window, delegate: FloatingPanelDelegateConfiguration(), folder: folder, clock: clock.read)
            // What FloatingPanel does inside sendEvent: its pan ends with a velocity and the
            // attraction to full starts (delegate calls the app forwards).
            window.stubDeliver { event in
                clock.now = event.timestamp + 0.002
                guard event.allTouches?.contains(where: { $0.phase == .ended }) == true else { return }
                fpc.panGestureRecognizer.stubSetState(.ended)
                fpc.panGestureRecognizer.stubSetVelocity(CGPoint(x: 0, y: -1500))
                fpc.stubSetState(.full)
                recorder.panelDidChangeState()
                recorder.panelDidMove()
            }
            Fingers(window).drag(x: 195, from: 450, to: 350, steps: 6, at: 1000.1)
            clock.now = 1001
            let finished = try recorder.finish()
            XCTAssertEqual(finished.refused, [])
            return finished.path
        }
        XCTAssertTrue((path as NSString).lastPathComponent.hasPrefix("floatingpanel-"))
        let trace = try TraceLoader.load(path: path).trace
        XCTAssertEqual(trace.header.source.kind, "recorded")
        XCTAssertEqual(trace.header.recognizer.velocity, .recorded)
        // Touches: began, six moves, ended; one finger (id 0); times from UITouch.timestamp.
        let touches = trace.touches
        XCTAssertEqual(touches.map(\.touch.phase), [.began] + Array(repeating: .moved, count: 6) + [.ended])
        XCTAssertEqual(Set(touches.map(\.touch.id)), [0])
        XCTAssertEqual(touches.map(\.time), (0...7).map { 100_000 + 8_000 * Int64($0) })
        XCTAssertEqual(touches.first?.touch.location, Point(x: 195, y: 450))
        XCTAssertEqual(touches.last?.touch.location, Point(x: 195, y: 350))
        XCTAssertEqual(touches.last?.touch.velocity, Point(x: 0, y: -1500))
        XCTAssertEqual(touches.dropLast().compactMap(\.touch.velocity), [])
        // The delegate calls made while UIKit delivered the release come after it, 2 ms later.
        let endedLine = trace.samples.first {
            if case .touch(let t) = $0.kind { return t.phase == .ended } else { return false }
        }!.line
        let observations = trace.observations
        XCTAssertEqual(observations.map(\.observed.state), ["full", nil])
        XCTAssertEqual(observations.map(\.observed.location), [nil, 65])
        XCTAssertTrue(
            trace.samples.filter { if case .observed = $0.kind { return true } else { return false } }.allSatisfy {
                $0.line > endedLine
            })
        XCTAssertEqual(observations.first?.time, 158_000)
        XCTAssertEqual(trace.samples.last?.kind, .end)
        XCTAssertEqual(trace.samples.last?.time, 1_000_000)

        let golden = try recordGoldenAndPass(path)
        // The replay starts at the anchor the panel reported for its state and, thrown upward with
        // the recorded velocity, ends at full's.
        let frames = golden.records.filter { $0.frameIndex != nil }
        XCTAssertEqual(frames.first?.frameLocation, 428)
        XCTAssertEqual(frames.last?.frameState, "full")
        XCTAssertEqual(frames.last?.frameLocation, 65)
        XCTAssertTrue(
            golden.records.contains {
                if case .event(_, .willEndDragging(let v, _, _)) = $0 {
                    return v == Point(x: 0, y: -1500)
                } else {
                    return false
                }
            })
        try assertRecoversCutFile(path)
    }

    func testALayoutChangeRecordsTheNewEnvironmentAndAnchors() throws {
        let folder = traces
        let path: String = try onMain {
            let window = makeWindow()
            let fpc = Self.makePanel(in: window)
            let clock = ManualClock(5)
            let recorder = try FloatingPanelRecording(
                fpc, window: window, delegate: FloatingPanelDelegateConfiguration(), folder: folder, clock: clock.read)
            // Rotated to landscape: the container and safe area change, the anchors move.
            clock.now = 5.5
            window.frame = CGRect(x: 0, y: 0, width: 844, height: 390)
            fpc.view.frame = window.bounds
            window.stubSetSafeAreaInsets(UIEdgeInsets(top: 0, left: 47, bottom: 21, right: 47))
            for (state, y) in zip([FloatingPanelLibraryState.full, .half, .tip], [20.0, 184, 300]) {
                fpc.stubSetSurfaceLocation(CGPoint(x: 0, y: y), for: state)
            }
            recorder.layoutDidChange()
            clock.now = 6
            return try recorder.finish().path
        }
        let trace = try TraceLoader.load(path: path).trace
        XCTAssertEqual(trace.samples.count, 3)
        guard case .environment(let environment) = trace.samples[0].kind else {
            return XCTFail("expected the environment first")
        }
        XCTAssertEqual(environment.container, Size(width: 844, height: 390))
        XCTAssertEqual(environment.safeArea, Insets(top: 0, left: 47, bottom: 21, right: 47))
        guard case .call(.invalidateLayout(let panel)) = trace.samples[1].kind else {
            return XCTFail("expected invalidateLayout")
        }
        let geometry = LayoutGeometry(panel: panel, environment: environment)
        XCTAssertEqual(
            [PanelSimCore.FloatingPanelState.full, .half, .tip].map { geometry.position(of: $0) }, [20, 184, 300])
        XCTAssertEqual(trace.samples[1].time, 500_000)
    }
}
