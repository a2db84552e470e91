import XCTest
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
@testable import PanelSimCLI
import PanelGolden
import PanelTrace

/// The command line around the reports: colour on terminals only, notes first, the report
/// folder's index, the record command of a MISSING report, `diff --trace`.
final class ReportCommandLineTests: CLITestCase {
    /// A fake trace whose golden has frame 2 3 pt off (a FAIL).
    private func failing(_ name: String = "a") throws {
        try write("100\n", "traces/\(name).jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        let golden = read("golden/\(name).golden.jsonl")!
        try write(
            golden.replacingOccurrences(of: #""frame": 2, "location": 100"#, with: #""frame": 2, "location": 103"#),
            "golden/\(name).golden.jsonl")
    }

    /// Runs `panelsim args…` (fake traces) with standard output on a pseudo-terminal and returns
    /// what the terminal received.
    private func runOnTerminal(_ args: [String], env: [String: String] = [:]) throws -> String {
        #if canImport(Glibc)
            var master: Int32 = -1
            var slave: Int32 = -1
            guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw XCTSkip("no pseudo-terminal") }
            let received = Received()
            let fd = master
            let reader = Thread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = Glibc.read(fd, &buffer, buffer.count)
                    if n <= 0 { break }
                    received.append(buffer[0..<n])
                }
                received.done.signal()
            }
            reader.start()
            let sink = FileHandleSink(FileHandle(fileDescriptor: slave, closeOnDealloc: false))
            XCTAssertTrue(sink.isTerminal)
            _ = PanelSimCommand.run(
                arguments: args, environment: env, stdout: sink, stderr: StringSink(),
                workingDirectory: root, services: FakeTraces.services)
            close(slave)
            received.done.wait()
            close(master)
            return String(decoding: received.bytes, as: UTF8.self)
        #else
            throw XCTSkip("pseudo-terminals are opened with Glibc's openpty here")
        #endif
    }

    private final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var bytes: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
        func append(_ b: ArraySlice<UInt8>) {
            lock.lock()
            bytes += b
            lock.unlock()
        }
    }

    /// `--color auto` colours on a terminal only: not with `NO_COLOR` set, not into a pipe or a
    /// capture; `--color always` wins over both, `--color never` over a terminal.
    func testColourOnATerminalNoneWithNoColorOrWhenPiped() throws {
        try failing()
        let esc = "\u{1B}["
        let terminal = try runOnTerminal(["check", "--record", "never"])
        XCTAssertTrue(terminal.contains("\(esc)1;31mFAIL\(esc)0m traces/a.jsonl"), terminal)
        XCTAssertTrue(terminal.contains("    \(esc)90mexpected: 103\(esc)0m"), "golden values in the golden's grey")
        XCTAssertTrue(
            terminal.contains("    \(esc)34mactual:   100  (|error| 3)\(esc)0m"), "actual values in the actual's blue")
        XCTAssertTrue(terminal.contains("    \(esc)90m- #4 {"), "golden context rows grey")
        XCTAssertTrue(terminal.contains("  \(esc)1mfirst divergence at record 4"), "the first divergence stands out")
        XCTAssertTrue(terminal.contains("\(esc)1;31m0 passed, 1 failed\(esc)0m"), terminal)
        XCTAssertFalse(try runOnTerminal(["check", "--record", "never"], env: ["NO_COLOR": "1"]).contains(esc))
        XCTAssertFalse(try runOnTerminal(["check", "--record", "never", "--color", "never"]).contains(esc))
        XCTAssertTrue(
            try runOnTerminal(["check", "--record", "never", "--color", "always"], env: ["NO_COLOR": "1"]).contains(esc)
        )
        XCTAssertTrue(
            try runOnTerminal(["check", "--record", "never"], env: ["NO_COLOR": ""]).contains(esc),
            "an empty NO_COLOR does not count")
        // Captured or piped: plain.
        XCTAssertFalse(runFake(["check", "--record", "never"]).stdout.contains(esc))
        let pipe = Pipe()
        let piped = FileHandleSink(pipe.fileHandleForWriting)
        XCTAssertFalse(piped.isTerminal)
        _ = PanelSimCommand.run(
            arguments: ["check", "--record", "never"], environment: [:], stdout: piped, stderr: StringSink(),
            workingDirectory: root, services: FakeTraces.services)
        try pipe.fileHandleForWriting.close()
        XCTAssertFalse(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains(esc))
        XCTAssertTrue(
            runFake(["check", "--record", "never", "--color", "always"]).stdout.contains("\(esc)1;31mFAIL\(esc)0m"))
        XCTAssertEqual(runFake(["check", "--color", "sometimes"]).code, 2)
        XCTAssertEqual(runFake(["replay", "traces/a.jsonl", "-o", "a.result.jsonl"]).code, 0)
        let diff = runFake(["diff", "golden/a.golden.jsonl", "a.result.jsonl", "--color", "always"])
        XCTAssertTrue(diff.stdout.hasPrefix("\(esc)1;31mDIFFERENT\(esc)0m golden/a.golden.jsonl"), diff.stdout)
    }

    /// The note that explains most failures (the trace was edited since the golden was blessed)
    /// comes right after the status line, and leads the HTML report's headline box.
    func testTheEditedSinceBlessedNoteComesFirst() throws {
        try write("100 half\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        try write("100 tip\n", "traces/a.jsonl")
        let r = runFake(["check", "--record", "never", "--report-dir", "reports"])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "FAIL traces/a.jsonl")
        XCTAssertTrue(lines[1].hasPrefix("  note: trace edited since the golden was blessed"), r.stdout)
        let html = try XCTUnwrap(read("reports/a.html"))
        let verdict = try XCTUnwrap(
            html.components(separatedBy: "<div class=\"verdict fail\">").dropFirst().first?.components(
                separatedBy: "</div>"
            ).first)
        XCTAssertTrue(
            verdict.contains("<p class=\"note\">⚠ Trace edited since the golden was blessed (golden sha256:"), verdict)
    }

    /// `check --report-dir DIR` writes `DIR/index.html`: every failing and missing trace first,
    /// with its headline and a link to its report, then errors and skips, then the passes; the
    /// same run gives the same bytes.
    func testReportDirWritesAnIndexLinkingEveryFailure() throws {
        try write("200\n", "traces/b.jsonl")
        try failing("a")
        try write("300\n", "traces/sub/c d.jsonl")  // no golden: MISSING
        try write("UNSUPPORTED\n", "traces/u.jsonl")
        let r = runFake(["check", "--record", "never", "--report-dir", "reports"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.hasSuffix("report index: reports/index.html\n1 passed, 2 failed, 1 skipped\n"), r.stdout)
        let index = try XCTUnwrap(read("reports/index.html"))
        for link in ["href=\"a.html\"", "href=\"sub/c%20d.html\""] { XCTAssertTrue(index.contains(link), link) }
        XCTAssertTrue(exists("reports/a.html") && exists("reports/sub/c d.html"))
        XCTAssertTrue(
            index.contains(
                "<span class=\"why\">Frame 2 at t = 0.016667 s differs: location golden 103 pt, actual 100 pt (Δ −3 pt).</span>"
            ), index)
        XCTAssertTrue(
            index.contains("To record it: panelsim check &#39;traces/sub/c d.jsonl&#39; --record missing"), index)
        XCTAssertTrue(index.contains("scroll: not supported yet"), "a skip with its reason")
        let failing = try XCTUnwrap(index.range(of: "<h2>Failing (2)</h2>"))
        let skips = try XCTUnwrap(index.range(of: "<h2>Errors and skips (1)</h2>"))
        let passing = try XCTUnwrap(index.range(of: "<h2>Passing (1)</h2>"))
        XCTAssertLessThan(failing.lowerBound, skips.lowerBound)
        XCTAssertLessThan(skips.lowerBound, passing.lowerBound)
        _ = runFake(["check", "--record", "never", "--report-dir", "reports"])
        XCTAssertEqual(read("reports/index.html"), index)
    }

    /// A MISSING report gives the command that records the golden, and `report` of the same trace
    /// writes the same bytes as `check --report-dir` (for a FAIL too).
    func testMissingReportGivesTheRecordCommandAndMatchesReport() throws {
        try failing("a")
        try write("300\n", "traces/m.jsonl")
        _ = runFake(["check", "--record", "never", "--report-dir", "reports"])
        let missing = try XCTUnwrap(read("reports/m.html"))
        XCTAssertTrue(
            missing.contains(
                "To record it: <code>panelsim check traces/m.jsonl --record missing</code> (or <code>panelsim check traces/m.jsonl --record pending</code> to review it first)."
            ), missing)
        XCTAssertEqual(runFake(["report", "traces/m.jsonl", "-o", "m.html"]).code, 0)
        XCTAssertEqual(read("m.html"), missing)
        XCTAssertEqual(runFake(["report", "traces/a.jsonl", "-o", "a.html"]).code, 1)
        XCTAssertEqual(read("a.html"), read("reports/a.html"))
    }

    /// `diff --report OUT --trace TRACE` draws the trace's finger samples and the layout's anchors
    /// like `report` does; `--trace` alone is a usage error.
    func testDiffReportDrawsTheFingerAndAnchorsWhenGivenTheTrace() throws {
        let repo = RepositoryCorpusTests.root
        let trace = try String(contentsOfFile: repo + "/traces/flicks/flick-d1-full-to-half-500.jsonl", encoding: .utf8)
        try write(trace, "traces/f.jsonl")
        XCTAssertEqual(run(["replay", "traces/f.jsonl", "-o", "f.result.jsonl"]).code, 0)
        let result = try XCTUnwrap(read("f.result.jsonl"))
        try write(
            result.replacingOccurrences(of: #""frame": 4, "location": 120"#, with: #""frame": 4, "location": 123"#),
            "g.jsonl")
        XCTAssertEqual(run(["diff", "g.jsonl", "f.result.jsonl", "--report", "plain.html"]).code, 1)
        XCTAssertEqual(
            run(["diff", "g.jsonl", "f.result.jsonl", "--report", "traced.html", "--trace", "traces/f.jsonl"]).code, 1)
        let plain = try XCTUnwrap(read("plain.html"))
        let traced = try XCTUnwrap(read("traced.html"))
        for needle in [
            "finger (touch samples)", "<title>anchor full 100 pt</title>", "<title>anchor half 422 pt</title>",
        ] {
            XCTAssertFalse(plain.contains(needle), needle)
            XCTAssertTrue(traced.contains(needle), needle)
        }
        XCTAssertEqual(run(["diff", "g.jsonl", "f.result.jsonl", "--trace", "traces/f.jsonl"]).code, 2)
    }
}
