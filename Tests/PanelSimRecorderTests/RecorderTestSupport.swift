import XCTest
import Foundation
import PanelSimUIKitStubs
import PanelSimRecorder
import PanelSimCLI
import PanelGolden
import PanelTrace
import PanelSimCore

/// A media clock the test moves by hand (s since system start).
@MainActor
final class ManualClock {
    var now: TimeInterval
    init(_ now: TimeInterval) { self.now = now }
    var read: @MainActor () -> TimeInterval { { self.now } }
}

/// A phone as the stubs describe it: a 390 × 844 pt window on a 3× screen of `framesPerSecond`,
/// safe area (47, 0, 34, 0); a `RecordingWindow` unless `make` builds another window class.
@MainActor
func makeWindow<Window: UIWindow>(
    framesPerSecond: Int = 120, size: CGSize = CGSize(width: 390, height: 844),
    safeArea: UIEdgeInsets = UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0),
    _ make: (UIWindowScene) -> Window = { RecordingWindow(windowScene: $0) }
) -> Window {
    let screen = UIScreen.stub(
        scale: 3, maximumFramesPerSecond: framesPerSecond, bounds: CGRect(origin: .zero, size: size))
    let window = make(.stub(screen: screen))
    window.stubSetSafeAreaInsets(safeArea)
    return window
}

/// Sends touch events to a window the way UIKit does: one `UITouch` object per finger for its whole
/// life, every finger down in each event (the ones that did not change as `stationary`).
@MainActor
final class Fingers {
    let window: UIWindow
    private var touches: [String: UITouch] = [:]
    init(_ window: UIWindow) { self.window = window }

    func down(_ finger: String, _ x: CGFloat, _ y: CGFloat, at t: TimeInterval) {
        let touch = UITouch.stubBegan(at: CGPoint(x: x, y: y), timestamp: t, in: window)
        touches[finger] = touch
        send(touch, at: t)
    }

    func move(_ finger: String, _ x: CGFloat, _ y: CGFloat, at t: TimeInterval) {
        let touch = touches[finger]!
        touch.stubUpdate(.moved, to: CGPoint(x: x, y: y), timestamp: t)
        send(touch, at: t)
    }

    func up(_ finger: String, _ x: CGFloat, _ y: CGFloat, at t: TimeInterval, cancelled: Bool = false) {
        let touch = touches[finger]!
        touch.stubUpdate(cancelled ? .cancelled : .ended, to: CGPoint(x: x, y: y), timestamp: t)
        send(touch, at: t)
        touches[finger] = nil
    }

    /// A vertical drag of finger "a" from y0 to y1 in `steps` moves 8 ms apart, starting at t0.
    func drag(x: CGFloat, from y0: CGFloat, to y1: CGFloat, steps: Int, at t0: TimeInterval) {
        down("a", x, y0, at: t0)
        for k in 1...steps {
            move("a", x, y0 + (y1 - y0) * CGFloat(k) / CGFloat(steps), at: t0 + 0.008 * Double(k))
        }
        up("a", x, y1, at: t0 + 0.008 * Double(steps + 1))
    }

    private func send(_ changed: UITouch, at t: TimeInterval) {
        for touch in touches.values where touch !== changed {
            touch.stubUpdate(.stationary, to: touch.location(in: nil), timestamp: touch.timestamp)
        }
        window.sendEvent(UIEvent.stubTouches(Set(touches.values).union([changed]), timestamp: t))
    }
}

/// A fresh folder per test under the temporary directory, with `traces/` for recordings.
class RecorderTestCase: XCTestCase {
    var root = ""
    var traces: URL { URL(fileURLWithPath: root).appendingPathComponent("traces") }

    override func setUpWithError() throws {
        root =
            FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-recorder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    /// Runs `panelsim check ARGS…` in-process in `root`.
    func check(_ args: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let out = StringSink()
        let err = StringSink()
        let code = PanelSimCommand.run(
            arguments: ["check"] + args, environment: [:], stdout: out, stderr: err, workingDirectory: root)
        return (code, out.text, err.text)
    }

    /// Checks a recorded trace the way README's walk does: the first `check --record missing`
    /// writes its golden (exit 0, `NEW`), the second `check --record never` passes against it.
    /// Returns the golden.
    func recordGoldenAndPass(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> ResultDocument
    {
        let name = (path as NSString).lastPathComponent
        let golden = root + "/golden/" + String(name.dropLast(6)) + ".golden.jsonl"
        XCTAssertFalse(FileManager.default.fileExists(atPath: golden), file: file, line: line)
        let first = check(["traces", "--record", "missing"])
        XCTAssertEqual(first.code, 0, first.stdout + first.stderr, file: file, line: line)
        XCTAssertTrue(
            first.stdout.contains("NEW traces/\(name)") || first.stdout.contains("NEW \(name)"), first.stdout,
            file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: golden), "no golden at \(golden)", file: file, line: line)
        let second = check(["traces", "--record", "never"])
        XCTAssertEqual(second.code, 0, second.stdout + second.stderr, file: file, line: line)
        XCTAssertTrue(second.stdout.contains("1 passed, 0 failed"), second.stdout, file: file, line: line)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        return try ResultFile.read(text: text, file: golden)
    }

    /// Cuts `path` in the middle of its last sample line and loads it with `TraceRecovery`: the
    /// recovered trace is the complete lines, the cut line is reported dropped.
    func assertRecoversCutFile(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let full = try TraceLoader.load(path: path)
        let lastLineStart = bytes.dropLast().lastIndex(of: 0x0A)! + 1
        let cut = Array(bytes[..<(lastLineStart + (bytes.count - lastLineStart) / 2)])
        let cutPath = root + "/cut.jsonl"
        try Data(cut).write(to: URL(fileURLWithPath: cutPath))
        XCTAssertThrowsError(try TraceLoader.load(path: cutPath), file: file, line: line)
        let recovered = try TraceRecovery.loadRecovering(path: cutPath)
        XCTAssertTrue(recovered.droppedPartialLine, file: file, line: line)
        XCTAssertEqual(recovered.droppedLine, full.trace.samples.count + 1, file: file, line: line)
        XCTAssertEqual(recovered.loaded.trace.samples, Array(full.trace.samples.dropLast()), file: file, line: line)
        XCTAssertEqual(recovered.loaded.trace.header, full.trace.header, file: file, line: line)
    }
}

/// Runs `body` on the main actor (XCTest runs test methods on the main thread).
func onMain<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T { try MainActor.assumeIsolated(body) }

extension Trace {
    /// The touch samples, in order.
    var touches: [(time: Microseconds, touch: TouchSample)] {
        samples.compactMap { if case .touch(let t) = $0.kind { return ($0.time, t) } else { return nil } }
    }
    /// The observed samples, in order.
    var observations: [(time: Microseconds, observed: ObservedSample)] {
        samples.compactMap { if case .observed(let o) = $0.kind { return ($0.time, o) } else { return nil } }
    }
}
