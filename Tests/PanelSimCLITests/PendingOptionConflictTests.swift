import XCTest
import Foundation
@testable import PanelSimCLI
import PanelGolden
import PanelSimCore
import PanelTrace

/// Two `check --record pending` runs with different simulator options on one golden folder: the
/// second refuses before writing anything, and a pending golden of other options is never
/// replaced or removed by a replay with other options.
final class PendingOptionConflictTests: CLITestCase {
    /// Five traces with goldens of the default options; the goldens of the first two nudged so
    /// that they fail.
    private func corpus() throws {
        for k in 0..<5 {
            let trace = FidelityTuneTests.flick(
                "t\(k)", y0: 600, dy: -40 - 10 * Double(k), moves: 5, velocity: -1500 - 100 * Double(k))
            try write(TraceWriter.write(trace), "traces/t\(k).jsonl")
        }
        XCTAssertEqual(run(["check", "--record", "missing"]).code, 0)
        for k in 0..<2 {
            let golden = try XCTUnwrap(read("golden/t\(k).golden.jsonl"))
            try write(
                golden.replacingOccurrences(of: #""frame": 0, "location": "#, with: #""frame": 0, "location": 1"#),
                "golden/t\(k).golden.jsonl")
        }
    }

    func testASecondPendingRunWithOtherOptionsRefusesAndWritesNothing() throws {
        try corpus()
        let first = run(["check", "--record", "pending"])
        XCTAssertEqual(first.code, 1, first.stdout)
        XCTAssertTrue(first.stdout.hasSuffix("3 passed, 2 failed (2 pending)\n"), first.stdout)
        let before = allFiles()
        let pending = try XCTUnwrap(read("golden/t0.golden.jsonl.new"))
        // With --drive-scroll every trace would fail (its golden records other options) and get a
        // pending golden: three beside the first run's two. Refused before anything is written.
        let second = run(["check", "--record", "pending", "--drive-scroll"])
        XCTAssertEqual(second.code, 2, second.stdout + second.stderr)
        XCTAssertTrue(
            second.stderr.contains(
                "error: 2 pending goldens under golden were recorded with the default simulator options (e.g. golden/t0.golden.jsonl.new); this run uses simulator options driveScroll"
            ), second.stderr)
        XCTAssertTrue(second.stdout.hasSuffix("0 passed, 0 failed, refused\n"), second.stdout)
        XCTAssertEqual(allFiles(), before)
        XCTAssertEqual(read("golden/t0.golden.jsonl.new"), pending)
        // The same options run again; other record modes are not pending runs and go on.
        XCTAssertEqual(run(["check", "--record", "pending"]).code, 1)
        XCTAssertEqual(run(["check", "--drive-scroll"]).code, 1)
        // Once the pending goldens are reviewed away, the other options may record theirs.
        XCTAssertEqual(run(["reject"]).code, 0)
        let third = run(["check", "--record", "pending", "--drive-scroll"])
        XCTAssertEqual(third.code, 1, third.stderr)
        XCTAssertTrue(third.stdout.hasSuffix("0 passed, 5 failed (5 pending)\n"), third.stdout)
    }

    /// The per-golden rule (also what `assertPanelTrace` with PANELSIM_RECORD=pending follows): a
    /// pending golden of other options is kept, with an error where it would be replaced and a
    /// warning where a passing replay would remove it.
    func testAPendingGoldenOfOtherOptionsIsNeitherReplacedNorRemoved() throws {
        try corpus()
        XCTAssertEqual(run(["check", "--record", "pending", "--drive-scroll"]).code, 1)
        let pending = try XCTUnwrap(read("golden/t0.golden.jsonl.new"))
        XCTAssertTrue(pending.contains(#""simulator": ["driveScroll"]"#), String(pending.prefix(300)))
        let trace = try TraceLoader.load(path: root + "/traces/t0.jsonl")
        let replayed = TraceCheckPipeline.live.replay(trace, options: SimulationOptions())
        func evaluate(_ golden: String) -> GoldenVerdict {
            GoldenCheck.evaluate(
                actual: replayed.document, actualBytes: replayed.bytes, goldenPath: root + "/golden/" + golden,
                goldenName: "golden/" + golden, traceName: "traces/t0.jsonl", mode: .pending,
                tolerances: .default, warnings: [])
        }
        // Failing (the nudged golden): would write a pending golden; refused.
        let failing = evaluate("t0.golden.jsonl")
        XCTAssertEqual(failing.status, .error)
        XCTAssertEqual(
            failing.lines.first,
            "ERROR traces/t0.jsonl: the pending golden golden/t0.golden.jsonl.new was recorded with simulator options driveScroll, this replay with the default simulator options; it was kept: review it first (panelsim review, accept or reject), or record with its options"
        )
        XCTAssertNil(failing.wrotePending)
        XCTAssertEqual(read("golden/t0.golden.jsonl.new"), pending)
        // Passing (the golden made equal to the replay): the pending golden stays, with a warning.
        try write(String(decoding: replayed.bytes, as: UTF8.self), "golden/t0.golden.jsonl")
        let passing = evaluate("t0.golden.jsonl")
        XCTAssertEqual(passing.status, .pass)
        XCTAssertTrue(
            passing.lines.contains {
                $0.hasPrefix(
                    "  warning: the pending golden golden/t0.golden.jsonl.new was recorded with simulator options driveScroll"
                )
            }, "\(passing.lines)")
        XCTAssertEqual(read("golden/t0.golden.jsonl.new"), pending)
    }
}
