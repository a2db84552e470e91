import Foundation
import PanelGolden
import PanelSimCore
import PanelTrace
import XCTest

/// Times written in milliseconds (`SampleTimeLint`): warned about by the replay that `check`,
/// `replay` and `assertPanelTrace` share, in memory and streaming, and never for a trace whose
/// times are seconds.
final class SampleTimeLintTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let dragTrace = repository.appendingPathComponent("traces/app/second-finger-during-drag.jsonl")

    /// `text`'s sample lines with every `"t"` multiplied by 1000: the same trace in milliseconds.
    private static func inMilliseconds(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { i, line -> String in
            guard i > 0, let range = line.range(of: #""t": ([0-9.]+)"#, options: .regularExpression) else {
                return String(line)
            }
            let seconds = Double(line[range].dropFirst(5))!
            return line.replacingCharacters(in: range, with: "\"t\": \(seconds * 1000)")
        }.joined(separator: "\n")
    }

    private func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "sample-time-lint-\(UUID().uuidString).jsonl"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func touch(_ phase: TouchPhase, _ seconds: Double, line: Int, id: Int = 0) -> TraceSample {
        TraceSample(
            time: Microseconds((seconds * 1_000_000).rounded()), line: line,
            kind: .touch(TouchSample(phase: phase, id: id, location: Point(x: 100, y: 400))))
    }

    /// A drag of `moves` moves `gap` s apart, from line 2 on.
    private func drag(moves: Int, gap: Double, from start: Double = 0, id: Int = 0) -> [TraceSample] {
        var samples = [touch(.began, start, line: 2, id: id)]
        for m in 1...moves { samples.append(touch(.moved, start + Double(m) * gap, line: 2 + m, id: id)) }
        samples.append(touch(.ended, start + Double(moves + 1) * gap, line: 3 + moves, id: id))
        return samples
    }

    func testMovesEightMillisecondsApartPassAndEightSecondsApartWarnWithTheFirstSlowLine() {
        XCTAssertNil(SampleTimeLint.warning(for: drag(moves: 30, gap: 0.008333)))
        let warning = SampleTimeLint.warning(for: drag(moves: 30, gap: 8.333))
        XCTAssertEqual(warning?.hasPrefix("line 3: 30 of 30 touch moves come a second or more after"), true, warning ?? "nil")
        XCTAssertEqual(warning?.hasSuffix("were the times written in milliseconds?"), true)
    }

    func testFewMovesOrAMinorityOfSlowMovesDoNotWarn() {
        // A minimized trace: three moves seconds apart.
        XCTAssertNil(SampleTimeLint.warning(for: drag(moves: 3, gap: 2)))
        // Eight slow moves: enough to warn.
        XCTAssertNotNil(SampleTimeLint.warning(for: drag(moves: 8, gap: 2)))
        // A finger resting between two quick drags: one slow move among 21.
        var samples = drag(moves: 10, gap: 0.008)
        samples.removeLast()
        samples.append(touch(.moved, 5, line: 100))
        for m in 1...10 { samples.append(touch(.moved, 5 + Double(m) * 0.008, line: 100 + m)) }
        XCTAssertNil(SampleTimeLint.warning(for: samples))
    }

    func testGapsAreMeasuredPerFingerAndFromTheFingersOwnLastSample() {
        // Two fingers, each moving every 8 ms, interleaved: no slow move.
        let a = drag(moves: 20, gap: 0.008, id: 0)
        let b = drag(moves: 20, gap: 0.008, from: 0.004, id: 1)
        let merged = (a + b).sorted { ($0.time, $0.line) < ($1.time, $1.line) }
        XCTAssertNil(SampleTimeLint.warning(for: merged))
        // A new touch after the first ended starts its own gaps: 10 s between two drags is no slow move.
        XCTAssertNil(SampleTimeLint.warning(for: drag(moves: 10, gap: 0.008) + drag(moves: 10, gap: 0.008, from: 10)))
    }

    /// No trace under `traces/` (real recordings, corpora, minimized soak traces) warns.
    func testNoRepositoryTraceWarns() throws {
        let files =
            FileManager.default.enumerator(
                at: Self.repository.appendingPathComponent("traces"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "jsonl" } ?? []
        var loaded = 0
        for url in files {
            guard let trace = try? TraceLoader.load(path: url.path).trace else { continue }
            loaded += 1
            XCTAssertNil(SampleTimeLint.warning(for: trace.samples), url.path)
        }
        XCTAssertGreaterThan(loaded, 500)
    }

    /// The pipeline behind `check`, `replay` and `assertPanelTrace` adds the warning after the
    /// system's own; the records are those of the same samples without it.
    func testTheSharedReplayWarnsForARecordingInMilliseconds() throws {
        let text = try String(contentsOf: Self.dragTrace, encoding: .utf8)
        let seconds = try TraceCheckPipeline.live.replay(
            path: Self.dragTrace.path, shown: "drag.jsonl", options: SimulationOptions())
        XCTAssertFalse(seconds.warningLines.contains { $0.contains("milliseconds") })

        let path = try temporaryFile(Self.inMilliseconds(text))
        let milliseconds = try TraceCheckPipeline.live.replay(path: path, shown: "ms.jsonl", options: SimulationOptions())
        XCTAssertEqual(milliseconds.result.warnings.count, seconds.result.warnings.count + 1)
        XCTAssertEqual(Array(milliseconds.result.warnings.dropLast()), seconds.result.warnings)
        XCTAssertEqual(milliseconds.result.warnings.last?.hasPrefix("line 3: "), true)
        XCTAssertTrue(milliseconds.warningLines.last?.contains("milliseconds") == true)
    }

    /// The streaming replay (large files) warns as the in-memory one does.
    func testTheStreamingReplayWarnsAsTheInMemoryReplayDoes() throws {
        let text = try String(contentsOf: Self.dragTrace, encoding: .utf8)
        for body in [text, Self.inMilliseconds(text)] {
            let path = try temporaryFile(body)
            let inMemory = try TraceCheckPipeline.live.replay(path: path, shown: "t.jsonl", options: SimulationOptions())
            let scanned = try StreamingReplay.scan(path: path, shown: "t.jsonl")
            var bytes: [UInt8] = []
            let (_, streamed) = try StreamingReplay.replay(scanned, shown: "t.jsonl", options: SimulationOptions()) {
                bytes += $0
            }
            XCTAssertEqual(streamed.warnings, inMemory.result.warnings)
            XCTAssertEqual(bytes, inMemory.bytes)
        }
    }
}
