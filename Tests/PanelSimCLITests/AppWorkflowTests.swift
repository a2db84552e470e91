import XCTest
import Foundation
@testable import PanelSimCLI
import PanelGolden

/// The commands in an app's own repository: traces in `Tests/MyPanelTests/traces`, goldens in
/// `Tests/MyPanelTests/golden`, commands run from the package root and from the test folder.
final class AppWorkflowTests: CLITestCase {
    let tests = "Tests/MyPanelTests"

    /// `panelsim ARGS` with the fake services, run in `folder` (relative to `root`).
    func runFake(_ args: [String], in folder: String, env: [String: String] = [:]) -> RunResult {
        let out = StringSink()
        let err = StringSink()
        let code = PanelSimCommand.run(
            arguments: args, environment: env, stdout: out, stderr: err,
            workingDirectory: folder.isEmpty ? root : root + "/" + folder, services: FakeTraces.services)
        return RunResult(code: code.rawValue, stdout: out.text, stderr: err.text)
    }

    /// The folder and the file argument of `check` find the same golden, from the package root,
    /// from the test folder and from inside the traces folder.
    func testFolderAndFileArgumentsFindTheSameGoldenFromEveryFolder() throws {
        try write("100\n", "\(tests)/traces/fp-flick.jsonl")
        try write("200\n", "\(tests)/traces/sub/fp-drag.jsonl")
        let first = runFake(["check", "\(tests)/traces", "--record", "missing"], in: "")
        XCTAssertEqual(first.code, 0, first.stdout + first.stderr)
        XCTAssertEqual(
            allFiles().filter { $0.contains("golden") },
            ["\(tests)/golden/fp-flick.golden.jsonl", "\(tests)/golden/sub/fp-drag.golden.jsonl"])
        let runs: [(folder: String, args: [String], shown: String)] = [
            ("", ["\(tests)/traces"], "\(tests)/traces/fp-flick.jsonl"),
            ("", ["\(tests)/traces/fp-flick.jsonl"], "\(tests)/traces/fp-flick.jsonl"),
            ("", ["./\(tests)/traces/"], "./\(tests)/traces/fp-flick.jsonl"),
            (tests, ["traces"], "traces/fp-flick.jsonl"),
            (tests, ["traces/fp-flick.jsonl"], "traces/fp-flick.jsonl"),
            (tests + "/traces", ["."], "fp-flick.jsonl"),
            (tests + "/traces", ["fp-flick.jsonl"], "fp-flick.jsonl"),
            (tests + "/traces/sub", ["."], "fp-drag.jsonl"),
            (tests + "/golden", ["../traces/sub"], "../traces/sub/fp-drag.jsonl"),
        ]
        for run in runs {
            let r = runFake(["check"] + run.args + ["--record", "never"], in: run.folder)
            XCTAssertEqual(r.code, 0, "\(run): \(r.stdout)\(r.stderr)")
            XCTAssertTrue(r.stdout.contains("PASS \(run.shown)\n"), "\(run): \(r.stdout)")
            XCTAssertFalse(r.stdout.contains("NEW"), "\(run): \(r.stdout)")
        }
        // In a consumer layout the missing-folder guard names the rule's golden folder.
        try FileManager.default.removeItem(atPath: root + "/\(tests)/golden")
        let guarded = runFake(["check", "\(tests)/traces"], in: "")
        XCTAssertEqual(guarded.code, 2)
        XCTAssertTrue(
            guarded.stderr.hasPrefix("error: golden directory '\(tests)/golden' does not exist"), guarded.stderr)
    }

    /// Every path `check --record pending` prints works pasted as printed where it ran; `review`
    /// and `accept` without a path find the pending golden from the package root.
    func testPrintedPendingCommandsWorkAsPrinted() throws {
        try write("100\n", "\(tests)/traces/fp-flick.jsonl")
        XCTAssertEqual(runFake(["check", "\(tests)/traces", "--record", "missing"], in: "").code, 0)
        let goldenFile = "\(tests)/golden/fp-flick.golden.jsonl"
        let golden = try XCTUnwrap(read(goldenFile))
        try write(golden.replacingOccurrences(of: #""location": 100"#, with: #""location": 103"#), goldenFile)
        for folder in ["", tests] {
            let traces = folder.isEmpty ? "\(tests)/traces" : "traces"
            let pending = runFake(["check", traces, "--record", "pending"], in: folder)
            XCTAssertEqual(pending.code, 1)
            let line = try XCTUnwrap(
                pending.stdout.split(separator: "\n").first { $0.contains("accept it with panelsim accept ") })
            let printed = String(line[line.range(of: "panelsim accept ")!.upperBound...].prefix { $0 != " " })
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: (folder.isEmpty ? root : root + "/" + folder) + "/" + printed),
                printed)
            // review, from the package root, without a path.
            let review = runFake(
                ["review", "--reject-all", "--report-dir", "/tmp/panelsim-review-\(UUID().uuidString)"], in: "")
            XCTAssertTrue(review.stdout.contains("[1/1] \(tests)/golden/fp-flick.golden.jsonl.new"), review.stdout)
            XCTAssertTrue(review.stdout.hasSuffix("0 accepted, 1 rejected, 0 pending\n"), review.stdout)
            XCTAssertEqual(runFake(["check", traces, "--record", "pending"], in: folder).code, 1)
            let accepted = runFake(["accept", printed], in: folder)
            XCTAssertEqual(accepted.code, 0, accepted.stderr)
            XCTAssertTrue(accepted.stdout.hasPrefix("accepted "), accepted.stdout)
            XCTAssertEqual(runFake(["check", traces, "--record", "never"], in: folder).code, 0)
            try write(golden.replacingOccurrences(of: #""location": 100"#, with: #""location": 103"#), goldenFile)
        }
        // accept by trace and by traces folder, from the package root.
        XCTAssertEqual(runFake(["check", "\(tests)/traces", "--record", "pending"], in: "").code, 1)
        XCTAssertEqual(
            runFake(["accept", "\(tests)/traces"], in: "").stdout,
            "accepted \(tests)/golden/fp-flick.golden.jsonl (rewritten from \(tests)/golden/fp-flick.golden.jsonl.new)\n"
        )
        try write(golden.replacingOccurrences(of: #""location": 100"#, with: #""location": 103"#), goldenFile)
        XCTAssertEqual(runFake(["check", "\(tests)/traces", "--record", "pending"], in: "").code, 1)
        XCTAssertEqual(runFake(["reject", "\(tests)/traces/fp-flick.jsonl"], in: "").code, 0)
        XCTAssertEqual(runFake(["accept"], in: "").stdout, "no pending goldens under .\n")
    }

    /// `accept` on a file that is not a result file names the file and what a result file starts with.
    func testAcceptOnANonResultFileSaysWhatWasExpected() throws {
        try write("100\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        try write("notes about the panel\n", "golden/a.golden.jsonl.new")
        let r = runFake(["accept", "golden/a.golden.jsonl.new"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.hasPrefix("error: golden/a.golden.jsonl.new:1: "), r.stderr)
        XCTAssertTrue(
            r.stderr.contains(
                "not a result file (a result file starts with a header line {\"format\": \"panelsim-result\""), r.stderr
        )
    }

    /// `check --bisect`: 0 pass, 1 a regression, 125 a revision that cannot be evaluated, 128 a
    /// usage error; it never writes.
    func testCheckBisectExitCodes() throws {
        let traces = "\(tests)/traces"
        XCTAssertEqual(runFake(["check", traces, "--bisect"], in: "").code, 125, "no traces folder yet")
        try write("100\n", "\(traces)/fp-flick.jsonl")
        let noGoldens = runFake(["check", traces, "--bisect"], in: "", env: ["PANELSIM_RECORD": "missing"])
        XCTAssertEqual(noGoldens.code, 125, "no golden folder yet: \(noGoldens.stdout)")
        XCTAssertFalse(exists("\(tests)/golden"), "--bisect never writes")
        XCTAssertEqual(runFake(["check", "\(traces)/fp-flick.jsonl", "--bisect"], in: "").code, 125)
        XCTAssertEqual(runFake(["check", traces, "--record", "missing"], in: "").code, 0)
        XCTAssertEqual(runFake(["check", traces, "--bisect"], in: "").code, 0)
        try write("300\n", "\(traces)/new.jsonl")
        XCTAssertEqual(
            runFake(["check", traces, "--bisect"], in: "").code, 125, "a trace without a golden at this revision")
        try FileManager.default.removeItem(atPath: root + "/\(traces)/new.jsonl")
        try write("INVALID\n", "\(traces)/broken.jsonl")
        XCTAssertEqual(runFake(["check", traces, "--bisect"], in: "").code, 125, "a trace that does not load")
        try write("101\n", "\(traces)/fp-flick.jsonl")
        XCTAssertEqual(runFake(["check", traces, "--bisect"], in: "").code, 1, "a regression wins")
        for args in [["--bisect", "--nope"], ["--bisect", "--record", "missing"], ["--bisect", "--jobs", "0"]] {
            XCTAssertEqual(runFake(["check", traces] + args, in: "").code, 128, "\(args)")
        }
        XCTAssertEqual(
            runFake(["check", traces, "--jobs", "0"], in: "").code, 2, "without --bisect a usage error is 2")
    }

    /// Two changed DrawerKit parameters that each diverge on their own are both named, with the
    /// harmless one left out; the FloatingPanel trace of the mixed folder is skipped and counted.
    func testBisectNamesEveryCulpritAndSkipsOtherModels() throws {
        let repo = RepositoryCorpusTests.root
        try FileManager.default.createDirectory(atPath: root + "/mixed", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: repo + "/traces/drawerkit/flick/d1-partial-up.jsonl", toPath: root + "/mixed/d1-partial-up.jsonl")
        try FileManager.default.copyItem(
            atPath: repo + "/traces/flicks/flick-d1-full-to-half-500.jsonl", toPath: root + "/mixed/fp.jsonl")
        try write(
            #"{"drawer": {"configuration": {"maximumCornerRadius": 15, "totalDurationInSeconds": 0.4, "numberOfTapsForOutsideDrawerDismissal": 1}}}"#,
            "A.json")
        try write(
            #"{"drawer": {"configuration": {"maximumCornerRadius": 30, "totalDurationInSeconds": 0.6, "numberOfTapsForOutsideDrawerDismissal": 2}}}"#,
            "B.json")
        let r = run(["bisect", "--base", "A.json", "--changed", "B.json", "mixed"])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            Array(lines.prefix(12)),
            [
                "skipped 1 trace of other models (floatingpanel 1): A and B change no section of theirs",
                "drawerkit: 1 trace",
                "changed parameters (3):",
                "  drawer.configuration.maximumCornerRadius: 15 -> 30",
                "  drawer.configuration.numberOfTapsForOutsideDrawerDismissal: 1 -> 2",
                "  drawer.configuration.totalDurationInSeconds: 0.4 -> 0.6",
                "diverging alone (2 of 3):",
                "  drawer.configuration.maximumCornerRadius: 15 -> 30 (1 of 1 trace)",
                "  drawer.configuration.totalDurationInSeconds: 0.4 -> 0.6 (1 of 1 trace)",
                "culprits (2 of 3, 7 evaluations):",
                "  drawer.configuration.maximumCornerRadius: 15 -> 30",
                "  drawer.configuration.totalDurationInSeconds: 0.4 -> 0.6",
            ])
        XCTAssertTrue(lines[12].hasPrefix("first diverging trace: mixed/d1-partial-up.jsonl"), lines[12])
    }
}
