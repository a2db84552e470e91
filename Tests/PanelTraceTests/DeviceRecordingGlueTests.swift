import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

/// The PanelTrace calls a recording on a device makes (PanelSimRecorder's `PanelRecording`: a
/// `TraceRecorder` over a `BackgroundTraceSink` of a `FileTraceSink`, times clamped so that they
/// never decrease), with literal values where an app reads UIKit: the trace they write loads.
final class DeviceRecordingGlueTests: XCTestCase {
    func testTheReadmeGlueWritesALoadableTrace() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("glue-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var panel = FloatingPanelConfiguration()
        panel.anchors = [
            AnchorEntry(state: .full, anchor: .inset(18, isFractional: false, edge: .top, guide: .safeArea)),
            AnchorEntry(state: .half, anchor: .inset(0.5, isFractional: true, edge: .bottom, guide: .safeArea)),
            AnchorEntry(state: .tip, anchor: .inset(69, isFractional: false, edge: .bottom, guide: .safeArea)),
        ]
        panel.initialState = FloatingPanelState(name: "half", order: 500)
        let environment = PanelEnvironment(
            container: Size(width: 390, height: 844),
            safeArea: Insets(top: 47, left: 0, bottom: 34, right: 0),
            displayScale: 3,
            frameRate: 120)
        var header = TraceHeader(name: "device-recording", environment: environment, panel: panel)
        header.source.kind = "recorded"
        header.source.device = "iPhone"
        header.recognizer.velocity = .recorded
        let recorder = try TraceRecorder(
            header: header, sink: BackgroundTraceSink(FileTraceSink(path: path)), file: path)

        var last = 0.0
        func time(_ clock: Double) -> Double {
            last = max(last, clock)
            return last
        }
        try recorder.append(
            at: time(0.000), .touch(TouchSample(phase: .began, id: 0, location: Point(x: 195, y: 600), velocity: nil)))
        try recorder.append(
            at: time(0.008), .touch(TouchSample(phase: .moved, id: 0, location: Point(x: 195, y: 580), velocity: nil)))
        try recorder.append(at: time(0.010), .observed(ObservedSample(location: 402, backdropAlpha: 0.1)))
        // A touch stamped before the observation delivered after it: clamped, not refused.
        try recorder.append(
            at: time(0.009), .touch(TouchSample(phase: .moved, id: 0, location: Point(x: 195, y: 560), velocity: nil)))
        try recorder.append(
            at: time(0.017),
            .touch(
                TouchSample(
                    phase: .ended, id: 0, location: Point(x: 195, y: 560),
                    velocity: Point(x: 0, y: -1800))))
        try recorder.append(at: time(0.020), .observed(ObservedSample(state: "full")))
        try recorder.append(
            at: time(0.030),
            .scroll(
                ScrollSample(
                    contentOffset: Point(x: 0, y: 0),
                    contentSize: Size(width: 390, height: 2000),
                    isDecelerating: false)))
        try recorder.append(at: time(0.5), .end)
        try recorder.close()

        let loaded = try TraceLoader.load(path: path)
        XCTAssertEqual(loaded.trace.samples.count, 8)
        XCTAssertEqual(loaded.trace.samples.map(\.time), [0, 8_000, 10_000, 10_000, 17_000, 20_000, 30_000, 500_000])
        XCTAssertEqual(loaded.trace.header.recognizer.velocity, .recorded)
    }
}
