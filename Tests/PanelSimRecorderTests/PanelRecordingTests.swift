import XCTest
import Foundation
import PanelSimUIKitStubs
import PanelSimRecorder
import PanelTrace
import PanelSimCore

/// The system-agnostic recording: fingers, time, observations, the environment, files.
final class PanelRecordingTests: RecorderTestCase {
    /// A FloatingPanel header for a full-window container (the plainest one to record against).
    @MainActor
    static func reading(for container: UIView) -> HeaderReading {
        var builder = FloatingPanelHeaderBuilder()
        builder.anchors = [AnchorLocation(state: .full, location: 65), AnchorLocation(state: .half, location: 428)]
        builder.backdropAlpha = [:]
        builder.behavior = PanelBehavior()
        builder.delegate = FloatingPanelDelegateConfiguration()
        return builder.reading(container: container)
    }

    @MainActor
    static func start(_ window: RecordingWindow, folder: URL, clock: ManualClock) throws -> PanelRecording {
        let container = UIView(frame: window.bounds)
        window.addSubview(container)
        let recording = try PanelRecording(
            reading: reading(for: container), container: container, folder: folder,
            date: Date(timeIntervalSince1970: 1_706_711_101), device: "iPhone15,2", clock: clock.read)
        window.recording = recording
        return recording
    }

    /// A recording in a new window, its media clock at 10 s.
    @MainActor
    static func start(folder: URL) throws -> (window: RecordingWindow, clock: ManualClock, recording: PanelRecording) {
        let window = makeWindow()
        let clock = ManualClock(10)
        return (window, clock, try start(window, folder: folder, clock: clock))
    }

    func testFingersTakeTheLowestFreeIdAndKeepItUntilTheyLift() throws {
        let folder = traces
        let path: String = try onMain {
            let (window, _, recording) = try Self.start(folder: folder)
            let fingers = Fingers(window)
            fingers.down("a", 100, 500, at: 10.1)  // 0
            fingers.down("b", 200, 500, at: 10.2)  // 1
            fingers.move("b", 200, 480, at: 10.3)  // stationary a is not written
            fingers.up("a", 100, 500, at: 10.4)  // 0 is free again
            fingers.down("c", 300, 500, at: 10.5)  // 0
            fingers.up("b", 200, 480, at: 10.6, cancelled: true)
            fingers.up("c", 300, 500, at: 10.7)
            return try recording.finish().path
        }
        let touches = try TraceLoader.load(path: path).trace.touches
        XCTAssertEqual(touches.map(\.touch.id), [0, 1, 1, 0, 0, 1, 0])
        XCTAssertEqual(touches.map(\.touch.phase), [.began, .began, .moved, .ended, .began, .cancelled, .ended])
        XCTAssertEqual(touches.map(\.touch.location.x), [100, 200, 200, 100, 300, 200, 300])
        XCTAssertEqual(touches.map(\.time), [100_000, 200_000, 300_000, 400_000, 500_000, 600_000, 700_000])
    }

    func testTimeNeverGoesBackwardsAndIsTheTouchesOwn() throws {
        let folder = traces
        let path: String = try onMain {
            let (window, clock, recording) = try Self.start(folder: folder)
            let fingers = Fingers(window)
            fingers.down("a", 100, 500, at: 10.1)
            clock.now = 10.2
            recording.observe(PanelObservation(location: 428))
            // Delivered after the observation, stamped before it: written at the observation's time.
            fingers.move("a", 100, 490, at: 10.15)
            fingers.up("a", 100, 480, at: 10.25)
            clock.now = 10.3
            return try recording.finish().path
        }
        let trace = try TraceLoader.load(path: path).trace
        XCTAssertEqual(trace.samples.map(\.time), [100_000, 200_000, 200_000, 250_000, 300_000])
        XCTAssertEqual(trace.touches.map(\.touch.location.y), [500, 490, 480])
    }

    func testTouchesOfOtherEventsAndOtherWindowsAreNotRecorded() throws {
        let folder = traces
        let count: Int = try onMain {
            let (window, _, recording) = try Self.start(folder: folder)
            let other = makeWindow()
            Fingers(other).drag(x: 10, from: 10, to: 20, steps: 2, at: 10.1)
            window.sendEvent(UIEvent.stub(type: .motion, timestamp: 10.2))
            // A finger already down when recording starts: its moves and end are not recorded.
            let early = UITouch.stubBegan(at: CGPoint(x: 5, y: 5), timestamp: 9, in: window)
            early.stubUpdate(.moved, to: CGPoint(x: 5, y: 6), timestamp: 10.3)
            window.sendEvent(UIEvent.stubTouches([early], timestamp: 10.3))
            return try recording.finish().sampleCount
        }
        XCTAssertEqual(count, 1)  // end only
    }

    func testObservationsAreWrittenOnceUntilTheyChangeAndRefusalsAreKept() throws {
        let folder = traces
        let (finished, recording): (FinishedRecording, String) = try onMain {
            let (_, clock, recording) = try Self.start(folder: folder)
            let list = UIScrollView(frame: CGRect(x: 0, y: 0, width: 390, height: 600))
            list.contentSize = CGSize(width: 390, height: 3000)
            clock.now = 10.1
            recording.observe(PanelObservation(location: 428, state: "half"))
            recording.observe(PanelObservation(location: 428, state: "half"))
            recording.observeScroll(list)
            recording.observeScroll(list)
            list.contentOffset = CGPoint(x: 0, y: 12)
            list.stubSetDecelerating(true)
            recording.observeScroll(list)
            // A move to a state the layout has no anchor for: refused, not written, the rest goes on.
            recording.record(.call(.move(to: .tip, animated: true)))
            recording.record(.call(.move(to: .full, animated: true)))
            clock.now = 10.2
            return (try recording.finish(), recording.path)
        }
        XCTAssertEqual(finished.path, recording)
        XCTAssertEqual(finished.refused.count, 1)
        XCTAssertEqual(finished.refused.first?.field, "to")
        XCTAssertEqual(finished.refused.first?.line, 5)
        let kinds = try TraceLoader.load(path: finished.path).trace.samples.map(\.kind)
        XCTAssertEqual(
            kinds,
            [
                .observed(ObservedSample(location: 428, state: "half")),
                .scroll(
                    ScrollSample(
                        contentOffset: Point(x: 0, y: 0), contentSize: Size(width: 390, height: 3000),
                        isDecelerating: false)),
                .scroll(
                    ScrollSample(
                        contentOffset: Point(x: 0, y: 12), contentSize: Size(width: 390, height: 3000),
                        isDecelerating: true)),
                .call(.move(to: .full, animated: true)),
                .end,
            ])
        XCTAssertEqual(finished.sampleCount, kinds.count)
    }

    func testAChangeOfTheContainerIsAnEnvironmentSample() throws {
        let folder = traces
        let path: String = try onMain {
            let (window, clock, recording) = try Self.start(folder: folder)
            clock.now = 10.1
            recording.containerDidChangeLayout()  // unchanged: nothing
            window.stubSetSafeAreaInsets(UIEdgeInsets(top: 59, left: 0, bottom: 34, right: 0))
            recording.containerDidChangeLayout()
            return try recording.finish().path
        }
        let trace = try TraceLoader.load(path: path).trace
        guard case .environment(let environment) = trace.samples.first?.kind else {
            return XCTFail("expected an environment sample")
        }
        XCTAssertEqual(environment.safeArea.top, 59)
        XCTAssertEqual(environment.frameRate, 120)
        XCTAssertEqual(trace.samples.count, 2)
    }

    func testOneFilePerRecordingNamedBySystemTimeAndDevice() throws {
        XCTAssertEqual(
            RecordingFile.name(
                system: "uisheet", date: Date(timeIntervalSince1970: 1_706_711_101), device: "iPhone15,2"),
            "uisheet-20240131-142501-iPhone15_2.jsonl")
        XCTAssertEqual(
            RecordingFile.name(system: "lnpopup", date: Date(timeIntervalSince1970: 0), device: ""),
            "lnpopup-19700101-000000-unknown.jsonl")
        XCTAssertFalse(RecordingFile.deviceModel.isEmpty)
        let folder = traces
        let (first, second, header): (String, String, TraceHeader) = try onMain {
            let window = makeWindow()
            let clock = ManualClock(10)
            let a = try Self.start(window, folder: folder, clock: clock)
            let b = try Self.start(window, folder: folder, clock: clock)
            try a.finish()
            try b.finish()
            // Finishing twice is harmless.
            XCTAssertEqual(try a.finish().sampleCount, 1)
            return (a.path, b.path, a.header)
        }
        XCTAssertEqual((first as NSString).lastPathComponent, "floatingpanel-20240131-142501-iPhone15_2.jsonl")
        XCTAssertEqual((second as NSString).lastPathComponent, "floatingpanel-20240131-142501-iPhone15_2-2.jsonl")
        XCTAssertEqual(header.name, "floatingpanel-20240131-142501-iPhone15_2")
        XCTAssertEqual(header.source.origin, "PanelSimRecorder")
        XCTAssertTrue(header.source.device.hasPrefix("iPhone15,2 "))
        // Closed and complete when finish returns: the file ends with the end line and its newline.
        let text = try String(contentsOfFile: first, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\"end\": true}\n"), text)
    }

    func testAContainerOutsideAWindowLeavesTheFrameRateUnread() throws {
        let (reading, error) = onMain {
            let container = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 568))
            container.stubSetTraitCollection(UITraitCollection(displayScale: 2))
            let reading = Self.reading(for: container)
            var refusal: RecorderError?
            do throws(RecorderError) {
                _ = try PanelRecording(
                    reading: reading, container: container, folder: URL(fileURLWithPath: "/nonexistent/x"))
            } catch { refusal = error }
            return (reading, refusal)
        }
        XCTAssertEqual(reading.header.environment.container, Size(width: 320, height: 568))
        XCTAssertEqual(reading.header.environment.displayScale, 2)
        XCTAssertEqual(reading.unread.map(\.field), ["environment.frameRate"])
        guard case .headerFieldsMissing(let missing)? = error else { return XCTFail("expected headerFieldsMissing") }
        XCTAssertEqual(missing.fields.map(\.field), ["environment.frameRate"])
    }
}
