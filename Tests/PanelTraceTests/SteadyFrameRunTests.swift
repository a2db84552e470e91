import Foundation
import XCTest
import PanelTrace
@testable import PanelSimCore

/// A panel system replayed one frame at a time: every frame through `runFrame`, with the protocol's
/// default `runFrames`, so none of the steady runs of `RecordingPanelSystem.runFrames`.
private struct FrameByFrame<Inner: PanelSystem>: PanelSystem {
    var inner: Inner
    mutating func start() { inner.start() }
    mutating func reserveRecords(_ n: Int) { inner.reserveRecords(n) }
    mutating func process(_ sample: TraceSample) { inner.process(sample) }
    mutating func process(at sample: UnsafePointer<TraceSample>) { inner.process(at: sample) }
    mutating func reachEnd(at time: Microseconds) { inner.reachEnd(at: time) }
    mutating func runFrame(index: Int, time: Microseconds) -> Bool { inner.runFrame(index: index, time: time) }
    var isTouchDown: Bool { inner.isTouchDown }
    mutating func finish() -> (records: RecordList, warnings: [String]) { inner.finish() }
}

private func replayFrameByFrame<C: SystemReplayConfiguration>(_ configuration: C, _ trace: Trace) -> SimulationResult {
    let options = SimulationOptions()
    return replay(FrameByFrame(inner: configuration.makeSystem(for: trace, options: options)), trace: trace, options: options)
}

/// One channel for `AdditiveAnimator` tests.
private struct Offset: AdditiveChannels {
    var value: Double
    func adding(_ delta: Offset, scaledBy r: Double) -> Offset { Offset(value: value + delta.value * r) }
}

/// The steady runs of DrawerKit, LNPopup and UISheet (frames recorded as one run while only
/// animations move; the sheet's run ends at the frame its spring comes to rest) give the records
/// that stepping every frame gives.
final class SteadyFrameRunTests: XCTestCase {
    private static var tracesRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("traces")
    }

    /// Every trace of the three systems under `traces/`: the replay equals the frame-by-frame
    /// replay record for record, with the same warnings and settle-budget outcome.
    func testEveryNewerSystemTraceRecordsWhatFrameByFrameSteppingRecords() throws {
        let files =
            FileManager.default.enumerator(at: Self.tracesRoot, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "jsonl" }.sorted { $0.path < $1.path } ?? []
        var compared: [String: Int] = [:]
        var animatedFrames = 0
        for url in files {
            guard let trace = try? TraceLoader.load(path: url.path).trace else { continue }
            guard !(trace.header.system is FloatingPanelHeader),
                let configuration = trace.header.system as? any SystemReplayConfiguration
            else { continue }
            let model = type(of: trace.header.system).model.rawValue
            let expected = replayFrameByFrame(configuration, trace)
            let actual = simulate(trace)
            let name = url.lastPathComponent
            XCTAssertEqual(actual.records.count, expected.records.count, "\(name): record count")
            XCTAssertTrue(actual.records == expected.records, "\(name): records differ")
            XCTAssertEqual(actual.warnings, expected.warnings, "\(name): warnings")
            XCTAssertEqual(actual.budgetExceeded, expected.budgetExceeded, "\(name): budget")
            compared[model, default: 0] += 1
            for record in actual.records {
                if case .systemFrame(let f) = record, f.channels.contains(where: { $0.key == "isAnimating" && $0.value == .bool(true) })
                    || f.channels.contains(where: { $0.key == "isAttracting" && $0.value == .bool(true) })
                {
                    animatedFrames += 1
                }
            }
        }
        XCTAssertGreaterThan(compared[PanelModel.drawerKit.rawValue] ?? 0, 20)
        XCTAssertGreaterThan(compared[PanelModel.lnPopup.rawValue] ?? 0, 20)
        XCTAssertGreaterThan(compared[PanelModel.uiSheet.rawValue] ?? 0, 20)
        XCTAssertGreaterThan(animatedFrames, 1_000, "the traces animate, so steady runs were taken")
    }

    /// `firstCompletionFrame()` is the first frame at which `removeCompleted(at:from:)` finds an
    /// animation, found by trying every frame.
    func testFirstCompletionFrameIsTheFirstFrameThatCompletesAnAnimation() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % n
        }
        for rate in [60, 90, 120, 240] {
            let timebase = ReplayTimebase(frameRate: rate)
            for _ in 0..<300 {
                var animator = AdditiveAnimator<Offset, Int>(timebase: timebase)
                for i in 0..<Int(next(3) + 1) {
                    // A sample instant (whole µs) or a frame instant; durations from 0 to 0.5 s.
                    let start =
                        next(2) == 0
                        ? timebase.sample(Microseconds(next(2_000_000))) : timebase.frame(Int(next(200)))
                    let duration = Double(next(500_001)) / 1e6
                    animator.add(start: start, timing: .linear(duration: duration), delta: Offset(value: 1), completion: i)
                }
                var bruteForce = -1
                for k in 0..<10_000 {
                    var probe = animator
                    var i = 0
                    if probe.removeCompleted(at: timebase.frame(k), from: &i) != nil {
                        bruteForce = k
                        break
                    }
                }
                XCTAssertEqual(animator.firstCompletionFrame(), bruteForce, "rate \(rate)")
            }
        }
        XCTAssertEqual(AdditiveAnimator<Offset, Int>(timebase: ReplayTimebase(frameRate: 60)).firstCompletionFrame(), Int.max)
    }
}
