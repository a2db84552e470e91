import XCTest
import Foundation
@testable import PanelSimCLI
import PanelGolden
import PanelTrace

/// Tolerances per run and per folder, diff, reports, summaries, JUnit, unreferenced
/// policy, --jobs, --shard and merge-summaries.
final class ReportsAndScaleOutTests: CLITestCase {
    /// A golden whose frame 2 is 0.5 pt off.
    private func offByHalf() throws {
        try write("100\n", "traces/sub/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        let golden = read("golden/sub/a.golden.jsonl")!
        try write(
            golden.replacingOccurrences(of: #""frame": 2, "location": 100"#, with: #""frame": 2, "location": 100.5"#),
            "golden/sub/a.golden.jsonl")
    }

    func testToleranceFilesNearestWinsAndCommandLineWins() throws {
        try offByHalf()
        XCTAssertEqual(runFake(["check", "--record", "never"]).code, 1)
        try write("location = 1\n", "traces/panelsim.tolerances")
        XCTAssertEqual(runFake(["check", "--record", "never"]).stdout, "PASS traces/sub/a.jsonl\n1 passed, 0 failed\n")
        try write("location = abs:0.1  # tighter here\n", "traces/sub/panelsim.tolerances")
        XCTAssertEqual(runFake(["check", "--record", "never"]).code, 1)  // nearest file wins
        XCTAssertEqual(runFake(["check", "--record", "never", "--tolerance", "location=0.6"]).code, 0)  // flag wins
        XCTAssertEqual(
            runFake([
                "check", "--record", "never", "--tolerance", "location=0.6",
                "--tolerance", "location=rel:1e-9",
            ]).code, 1)  // repeatable, last wins
        try write("location = lots\n", "traces/sub/panelsim.tolerances")
        let r = runFake(["check", "--record", "never"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(
            r.stdout.hasPrefix(
                "ERROR traces/sub/a.jsonl: traces/sub/panelsim.tolerances:1: tolerance 'location = lots': 'lots' is not a non-negative number\n"
            ), r.stdout)
    }

    func testDiffExitCodes() throws {
        try offByHalf()
        XCTAssertEqual(runFake(["replay", "traces/sub/a.jsonl", "-o", "a.result.jsonl"]).code, 0)
        let d = runFake(["diff", "golden/sub/a.golden.jsonl", "a.result.jsonl"])
        XCTAssertEqual(d.code, 1)
        XCTAssertTrue(
            d.stdout.hasPrefix(
                "DIFFERENT golden/sub/a.golden.jsonl a.result.jsonl\n  first divergence at record 4 (line 6), t = 0.016667 s, frame 2: location\n"
            ), d.stdout)
        XCTAssertTrue(
            d.stdout.contains("  events, states and decisions: identical (only continuous values differ)\n"), d.stdout)
        let same = runFake(["diff", "golden/sub/a.golden.jsonl", "a.result.jsonl", "--tolerance", "location=0.5"])
        XCTAssertEqual(same.code, 0, same.stdout)
        XCTAssertTrue(same.stdout.hasPrefix("SAME "))
        XCTAssertEqual(runFake(["diff", "golden/sub/a.golden.jsonl", "nope.jsonl"]).code, 2)
        try write("{\"format\": \"panelsim-result\", \"version\": 2}\n", "v2.jsonl")
        let v2 = runFake(["diff", "v2.jsonl", "a.result.jsonl"])
        XCTAssertEqual(v2.code, 2)
        XCTAssertTrue(v2.stderr.contains("format version 2"), v2.stderr)
        XCTAssertEqual(runFake(["diff", "a.result.jsonl"]).code, 2)
    }

    /// `diff` and `report` do not stop at "header differs: …" when the headers differ (here:
    /// another displayScale): the first divergence, the event diff and the HTML report's
    /// divergence marker are still there.
    func testHeaderDifferenceKeepsTheRestOfTheComparison() throws {
        try offByHalf()
        let golden = read("golden/sub/a.golden.jsonl")!
        try write(
            golden.replacingOccurrences(of: #""displayScale": 3}"#, with: #""displayScale": 2}"#),
            "golden/sub/a.golden.jsonl")
        XCTAssertEqual(runFake(["replay", "traces/sub/a.jsonl", "-o", "a.result.jsonl"]).code, 0)
        let d = runFake(["diff", "golden/sub/a.golden.jsonl", "a.result.jsonl", "--report", "diff.html"])
        XCTAssertEqual(d.code, 1)
        XCTAssertTrue(
            d.stdout.hasPrefix(
                """
                DIFFERENT golden/sub/a.golden.jsonl a.result.jsonl
                  header differs: expected displayScale 2, actual displayScale 3
                  first divergence at record 4 (line 6), t = 0.016667 s, frame 2: location
                    expected: 100.5
                    actual:   100  (|error| 0.5)
                  events, states and decisions: identical (only continuous values differ)

                """), d.stdout)
        XCTAssertTrue(d.stdout.contains("  context (- golden, + actual):\n"), d.stdout)
        let headline =
            #"<b>Frame 2</b> at <b>t = 0.016667 s</b> differs: <b>location</b> golden <span class="g">100.5 pt</span>, actual <span class="a">100 pt</span> (<span class="d">Δ −0.5 pt</span>)."#
        for html in [read("diff.html")!] {
            XCTAssertTrue(
                html.contains("differs: first difference, marked events, residual</span>"),
                "the legend entry of the divergence marker")
            XCTAssertTrue(
                html.contains(
                    #"Header differs: expected <span class="g">displayScale 2</span>, actual <span class="a">displayScale 3</span>. "#
                ), html)
            XCTAssertTrue(html.contains(headline), html)
        }
        let r = runFake(["report", "traces/sub/a.jsonl", "-o", "r.html"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(read("r.html")!.contains("differs: first difference, marked events, residual</span>"))
        XCTAssertTrue(read("r.html")!.contains(headline))
    }

    func testReportDirSummaryJUnitAndUnreferenced() throws {
        try write("200\n", "traces/b.jsonl")
        try offByHalf()
        try write("UNSUPPORTED\n", "traces/u.jsonl")
        try write("x\n", "golden/old/gone.golden.jsonl")
        let args = [
            "check", "--record", "never", "--report-dir", "reports", "--summary-json", "out/s.json", "--junit",
            "out/j.xml",
        ]
        let r = runFake(args)
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.contains("  report: reports/sub/a.html\n"), r.stdout)
        XCTAssertTrue(
            r.stdout.contains(
                "warning: unreferenced golden golden/old/gone.golden.jsonl (no trace traces/old/gone.jsonl)\n"))
        let html = try XCTUnwrap(read("reports/sub/a.html"))
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg") && html.contains("first divergence"))
        for external in ["<script", "src=", "href=", "@import", "url("] {
            XCTAssertFalse(html.contains(external), external)
        }
        XCTAssertFalse(exists("reports/b.html"))  // only failing traces get one
        let summary = try XCTUnwrap(read("out/s.json"))
        XCTAssertTrue(
            summary.hasPrefix(
                #"{"format": "panelsim-check-summary", "version": 1, "shard": null, "passed": 1, "failed": 1, "skipped": 1, "errors": 0, "written": 0, "rewritten": 0, "exitCode": 1, "unreferencedFails": false, "unreferenced": ["golden/old/gone.golden.jsonl"],"#
            ), summary)
        let junit = try XCTUnwrap(read("out/j.xml"))
        XCTAssertTrue(
            junit.contains(#"<testsuites name="panelsim" tests="3" failures="1" errors="0" skipped="1">"#), junit)
        XCTAssertTrue(
            junit.contains(#"<testcase classname="traces.sub" name="a.jsonl" file="traces/sub/a.jsonl">"#), junit)
        XCTAssertTrue(junit.contains(#"<failure message="FAIL traces/sub/a.jsonl: first divergence at record "#), junit)
        XCTAssertTrue(junit.contains("&quot;"), "report text is escaped")

        // Deterministic: a second run writes the same bytes.
        _ = runFake(args)
        XCTAssertEqual(read("reports/sub/a.html"), html)
        XCTAssertEqual(read("out/s.json"), summary)

        // --unreferenced fail turns the leftover golden into a failure on its own.
        try write("100\n", "traces/sub/a.jsonl")
        try FileManager.default.removeItem(atPath: root + "/traces/u.jsonl")
        _ = runFake(["check", "--record", "failed"])
        XCTAssertEqual(runFake(["check", "--record", "never"]).code, 0)
        let strict = runFake(["check", "--record", "never", "--unreferenced", "fail", "--junit", "j.xml"])
        XCTAssertEqual(strict.code, 1)
        XCTAssertTrue(strict.stdout.contains("error: unreferenced golden golden/old/gone.golden.jsonl"), strict.stdout)
        XCTAssertTrue(read("j.xml")!.contains(#"name="unreferenced goldens""#))
    }

    func testUsageErrorsOfNewOptions() throws {
        try FileManager.default.createDirectory(atPath: root + "/traces", withIntermediateDirectories: true)
        for (args, message) in [
            (["check", "--jobs", "0"], "--jobs must be a whole number from 1 to 1024, got '0'"),
            (["check", "--shard", "3/2"], "--shard must be I/N with 1 <= I <= N, got '3/2'"),
            (["check", "--shard", "1"], "--shard must be I/N with 1 <= I <= N, got '1'"),
            (["check", "--unreferenced", "maybe"], "--unreferenced must be warn, fail or delete, got 'maybe'"),
            (
                ["check", "--tolerance", "speed=1"],
                "unknown tolerance channel 'speed' (channels: location, contentOffset, backdropAlpha, velocity, time)"
            ),
            (["bisect", "--base", "a.json", "t.jsonl"], "missing --changed B.json"),
            (["merge-summaries"], "missing SUMMARY files"),
            (["report"], "missing TRACE"),
        ] {
            let r = runFake(args)
            XCTAssertEqual(r.code, 2, "\(args)")
            XCTAssertEqual(r.stderr.split(separator: "\n").first.map(String.init), "error: " + message, "\(args)")
        }
    }

    func testHelpOfNewCommands() {
        let top = run(["--help"]).stdout
        for row in [
            "  diff                    Compare two result files within tolerances.\n",
            "  report                  Write an HTML report of one trace against its golden.\n",
            "  bisect                  Find which changed parameters make traces diverge.\n",
            "  merge-summaries         Merge check --summary-json files from CI shards.\n",
        ] {
            XCTAssertTrue(top.contains(row), row)
        }
        let check = run(["help", "check"]).stdout
        for option in [
            "  --tolerance CHANNEL=VALUE\n                          Tolerance of a channel (repeatable; wins over files):\n",
            "  --jobs, -j N            Replay N traces in parallel (default 1). Output is\n",
            "  --shard I/N             Check only the traces at sorted positions p with\n",
            "  --report-dir DIR        Write an HTML report per failing or missing trace:\n",
            "  --summary-json FILE     Write a JSON summary (mergeable with merge-summaries).\n",
            "  --junit FILE            Write a JUnit XML report.\n",
            "  --unreferenced POLICY   warn (default), fail (unreferenced goldens make the run\n",
            "panelsim.tolerances",
        ] {
            XCTAssertTrue(check.contains(option), option)
        }
        XCTAssertTrue(
            run(["help", "diff"]).stdout.contains(
                "USAGE: panelsim diff A B [--tolerance CHANNEL=VALUE]... [--report OUT [--trace TRACE]] [--color WHEN]\n"
            ))
        XCTAssertTrue(
            check.contains("  --color WHEN            auto (default: when standard output is a terminal and\n"), check)
        XCTAssertTrue(
            run(["help", "report"]).stdout.contains(
                "USAGE: panelsim report TRACE [--golden G] [-o OUT] [--tolerance CHANNEL=VALUE]... [--profile LIBRARY@VERSION]\n"
            ))
        XCTAssertTrue(
            run(["help", "bisect"]).stdout.contains(
                "USAGE: panelsim bisect --base A.json --changed B.json TRACE... [--tolerance CHANNEL=VALUE]... [--profile LIBRARY@VERSION]...\n"
            ))
        XCTAssertTrue(
            run(["help", "merge-summaries"]).stdout.contains(
                "USAGE: panelsim merge-summaries SUMMARY... [-o OUT] [--junit OUT]\n"))
    }

    func testDeltaDebuggingFindsMinimalSubset() {
        var tests = 0
        let one = DeltaDebugging.ddmin(Array(0..<16)) { s in
            tests += 1
            return s.contains(11)
        }
        XCTAssertEqual(one, [11])
        XCTAssertLessThan(tests, 16)
        XCTAssertEqual(DeltaDebugging.ddmin(Array(0..<10)) { $0.contains(2) && $0.contains(7) }, [2, 7])
        XCTAssertEqual(DeltaDebugging.ddmin([5]) { _ in true }, [5])
    }
}

/// The same features against the repository's real corpus and the real simulator.
final class CorpusScaleOutTests: XCTestCase {
    static var root: String { RepositoryCorpusTests.root }

    private func run(_ args: [String], cwd: String = CorpusScaleOutTests.root) -> RunResult {
        let out = StringSink()
        let err = StringSink()
        let code = PanelSimCommand.run(
            arguments: args, environment: [:], stdout: out, stderr: err, workingDirectory: cwd)
        return RunResult(code: code, stdout: out.text, stderr: err.text)
    }

    func testJobsOutputIdenticalToSerial() {
        let serial = run(["check", "--record", "never"])
        let parallel = run(["check", "--record", "never", "--jobs", "8"])
        XCTAssertEqual(serial.code, 0)
        XCTAssertEqual(parallel.stdout, serial.stdout)
        XCTAssertEqual(parallel.code, serial.code)
        // The in-process API gives the same outcomes.
        let api = CheckRunner.run(
            traceDirectory: Self.root + "/traces", goldenDirectory: Self.root + "/golden", jobs: 4)
        XCTAssertEqual(api.exitCode, .success)
        // One outcome line per trace (indented lines are warnings and reports), then the summary.
        XCTAssertEqual(api.traces.count, serial.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count - 1)
    }

    func testShardsCoverTheCorpusAndMerge() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-shards-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let whole = run([
            "check", "--record", "never", "--summary-json", tmp + "/all.json", "--junit", tmp + "/all.xml",
        ])
        var lines: [String] = []
        for i in 1...3 {
            let r = run([
                "check", "--record", "never", "--shard", "\(i)/3", "--jobs", "2", "--summary-json", tmp + "/s\(i).json",
            ])
            XCTAssertEqual(r.code, 0, r.stdout)
            lines += r.stdout.split(separator: "\n").dropLast().map(String.init)
        }
        XCTAssertEqual(lines.sorted(), whole.stdout.split(separator: "\n").dropLast().map(String.init).sorted())
        let merged = run([
            "merge-summaries", tmp + "/s2.json", tmp + "/s1.json", tmp + "/s3.json",
            "-o", tmp + "/merged.json", "--junit", tmp + "/merged.xml",
        ])
        XCTAssertEqual(merged.code, 0)
        XCTAssertEqual(merged.stdout, whole.stdout.split(separator: "\n").last.map { $0 + "\n" })
        let all = try String(contentsOfFile: tmp + "/all.json", encoding: .utf8)
        let m = try String(contentsOfFile: tmp + "/merged.json", encoding: .utf8)
        XCTAssertEqual(m, all.replacingOccurrences(of: #""shard": null"#, with: #""shard": "merged""#))
        XCTAssertEqual(
            try String(contentsOfFile: tmp + "/merged.xml", encoding: .utf8),
            try String(contentsOfFile: tmp + "/all.xml", encoding: .utf8))
        let dup = run(["merge-summaries", tmp + "/s1.json", tmp + "/s1.json"])
        XCTAssertEqual(dup.code, 2)
        // A lost shard is an error, not a smaller corpus.
        let partial = run(["merge-summaries", tmp + "/s1.json", tmp + "/s3.json"])
        XCTAssertEqual(partial.code, 2)
        XCTAssertEqual(partial.stderr, "error: shard 2/3 is missing (2 of 3 shards given)\n")
        // Shards of different shardings do not merge.
        XCTAssertEqual(
            run(["check", "--record", "never", "--shard", "1/2", "--summary-json", tmp + "/h1.json"]).code, 0)
        let mixed = run(["merge-summaries", tmp + "/h1.json", tmp + "/s2.json", tmp + "/s3.json"])
        XCTAssertEqual(mixed.code, 2)
        XCTAssertEqual(mixed.stderr, "error: the summaries come from different shardings (/2, /3)\n")
        // Shards next to a whole run's summary are refused too.
        let withWhole = run(["merge-summaries", tmp + "/all.json", tmp + "/s1.json"])
        XCTAssertEqual(withWhole.code, 2)
        XCTAssertEqual(withWhole.stderr, "error: shard summaries cannot be merged with unsharded or merged ones\n")
    }

    func testReportOfARealTrace() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panelsim-report-\(UUID().uuidString).html"
        ).path
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let r = run(["report", "traces/flicks/flick-d1-half-to-full-1500.jsonl", "-o", tmp])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "wrote \(tmp) (matches the golden)\n")
        let html = try String(contentsOfFile: tmp, encoding: .utf8)
        XCTAssertTrue(html.contains(">full 100</text>") && html.contains(">half 422</text>"), "anchor lines")
        XCTAssertTrue(html.contains(">willBeginAttracting</text>"), "events on the time axis")
        XCTAssertTrue(html.contains("<span class=\"badge pass\">PASS</span>"))
        let again = run(["report", "traces/flicks/flick-d1-half-to-full-1500.jsonl"])
        XCTAssertEqual(again.stdout, html)
    }

    /// Several harmless parameter changes and one that changes behavior: bisect names that one.
    func testParameterBisectNamesTheCulprit() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-bisect-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        try
            #"{"panel": {"behavior": {"springResponseTime": 0.4, "removalInteractionVelocityThreshold": 5.5}, "grabberAreaOffset": 36}, "delegate": {"shouldRemove": "default"}, "recognizer": {"velocity": "recorded"}}"#
            .write(toFile: tmp + "/A.json", atomically: true, encoding: .utf8)
        try
            #"{"panel": {"behavior": {"springResponseTime": 0.3, "removalInteractionVelocityThreshold": 7}, "grabberAreaOffset": 20}, "delegate": {"shouldRemove": "never"}, "recognizer": {"velocity": "recorded", "beginThreshold": 10}}"#
            .write(toFile: tmp + "/B.json", atomically: true, encoding: .utf8)
        let traces = [
            "traces/flicks/flick-d1-full-to-half-500.jsonl", "traces/flicks/flick-d1-half-to-full-1500.jsonl",
        ]
        let r = run(["bisect", "--base", tmp + "/A.json", "--changed", tmp + "/B.json"] + traces)
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "changed parameters (5):")
        let culprit = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("culprit") })
        XCTAssertTrue(lines[culprit].hasPrefix("culprit (1 of 5, "), lines[culprit])
        XCTAssertEqual(lines[culprit + 1], "  panel.behavior.springResponseTime: 0.4 -> 0.3")
        XCTAssertTrue(
            lines[culprit + 2].hasPrefix("first diverging trace: traces/flicks/flick-d1-full-to-half-500.jsonl"),
            lines[culprit + 2])
        XCTAssertTrue(lines[culprit + 3].contains("first divergence at record"), lines[culprit + 3])
        XCTAssertTrue(r.stdout.contains("frame "), "names the first diverging frame")
        XCTAssertEqual(
            run(["bisect", "--base", tmp + "/A.json", "--changed", tmp + "/B.json"] + traces).stdout, r.stdout)

        // Nothing but harmless changes: exit 0.
        try
            #"{"panel": {"behavior": {"springResponseTime": 0.4, "removalInteractionVelocityThreshold": 7}, "grabberAreaOffset": 20}, "delegate": {"shouldRemove": "never"}}"#
            .write(toFile: tmp + "/C.json", atomically: true, encoding: .utf8)
        let none = run(["bisect", "--base", tmp + "/A.json", "--changed", tmp + "/C.json"] + traces)
        XCTAssertEqual(none.code, 0, none.stdout + none.stderr)
        XCTAssertTrue(
            none.stdout.hasSuffix(
                "no divergence: every trace gives the same result with \(tmp)/A.json and \(tmp)/C.json\n"))
        try #"{"layout": {}}"#.write(toFile: tmp + "/bad.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(run(["bisect", "--base", tmp + "/bad.json", "--changed", tmp + "/B.json"] + traces).code, 2)
    }

    /// Parameter bisect takes each trace's own model's sections (`drawer`, `sheet`, `popup`), as
    /// the README says, instead of refusing them as keys outside environment, panel, recognizer
    /// and delegate.
    func testParameterBisectOnDrawerKitSheetAndPopupTraces() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-bisect-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        func patch(_ name: String, _ json: String) throws -> String {
            try json.write(toFile: tmp + "/" + name, atomically: true, encoding: .utf8)
            return tmp + "/" + name
        }
        let cases: [(String, String, [String], String)] = [
            (
                #"{"drawer": {"configuration": {"flickSpeedThreshold": 3, "numberOfTapsForOutsideDrawerDismissal": 1}}}"#,
                #"{"drawer": {"configuration": {"flickSpeedThreshold": 100, "numberOfTapsForOutsideDrawerDismissal": 2}}}"#,
                ["traces/drawerkit/flick/d1-partial-up.jsonl", "traces/drawerkit/limits/d1-not-draggable.jsonl"],
                "  drawer.configuration.flickSpeedThreshold: 3 -> 100"
            ),
            (
                #"{"sheet": {"preferredCornerRadius": 10, "simulator": {"projectionRate": 0.99}}}"#,
                #"{"sheet": {"preferredCornerRadius": 20, "simulator": {"projectionRate": 0.2}}}"#,
                ["traces/uisheet/x2/x2-option-no-fast-rule.jsonl"], "  sheet.simulator.projectionRate: 0.99 -> 0.2"
            ),
            (
                #"{"popup": {"snapPercent": 0.32, "closeButton": {"style": "default"}}}"#,
                #"{"popup": {"snapPercent": 0.1, "closeButton": {"style": "chevron"}}}"#,
                ["traces/lnpopup/s3/snap-pull-30-tab.jsonl"], "  popup.snapPercent: 0.32 -> 0.1"
            ),
        ]
        for (k, (a, b, traces, culprit)) in cases.enumerated() {
            let r = run(
                ["bisect", "--base", try patch("A\(k).json", a), "--changed", try patch("B\(k).json", b)] + traces)
            XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
            let lines = r.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "changed parameters (2):")
            let at = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("culprit (1 of 2") }, r.stdout)
            XCTAssertEqual(lines[at + 1], culprit)
            XCTAssertTrue(lines[at + 2].hasPrefix("first diverging trace: " + traces[0]), r.stdout)
        }
        // A section of another model: named with the trace, exit 2.
        let wrong = run([
            "bisect", "--base", tmp + "/A0.json", "--changed", tmp + "/B0.json",
            "traces/flicks/flick-d1-full-to-half-500.jsonl",
        ])
        XCTAssertEqual(wrong.code, 2)
        XCTAssertEqual(
            wrong.stderr,
            "error: \(tmp)/A0.json: the \"drawer\" section does not belong in traces/flicks/flick-d1-full-to-half-500.jsonl, "
                + "a floatingpanel trace (its sections: environment, recognizer, panel, delegate, scrollView)\n")
        let unknown = run([
            "bisect", "--base", try patch("bad.json", #"{"layout": {}}"#), "--changed", tmp + "/B0.json",
            "traces/flicks/flick-d1-full-to-half-500.jsonl",
        ])
        XCTAssertEqual(unknown.code, 2)
        XCTAssertEqual(
            unknown.stderr,
            "error: \(tmp)/bad.json: key \"layout\" is not a header section bisect can change (expected environment, "
                + "recognizer (every model); panel, delegate, scrollView (floatingpanel); drawer (drawerkit); sheet, sheetDelegate, "
                + "scrollView (uisheet); popup, scrollView (lnpopup))\n")
    }

    /// How a patch applies: fields replace the section's fields whole, except in
    /// drawer.configuration and the simulator objects, whose fields are set one by one.
    func testHeaderPatchKeepsTheTracesOtherConfigurationFields() throws {
        func object(_ text: String) throws -> JSONObject {
            guard case .object(let o) = try JSON.parse(text) else { throw CocoaError(.coderInvalidValue) }
            return o
        }
        let header = try object(
            #"{"model": "drawerkit", "drawer": {"heightOfPartiallyExpandedDrawer": 300, "configuration": {"initialState": "fullyExpanded", "upperMarkGap": 10}, "simulator": {"midTransition": "shipped"}}}"#
        )
        let patched = HeaderPatch.apply(
            try object(
                #"{"drawer": {"heightOfCollapsedDrawer": 100, "configuration": {"upperMarkGap": 20, "lowerMarkGap": 30}, "simulator": {"physicalSpring": true}}}"#
            ), to: header)
        XCTAssertEqual(
            HeaderPatch.render(.object(patched)),
            #"{"model": "drawerkit", "drawer": {"heightOfPartiallyExpandedDrawer": 300, "configuration": {"initialState": "fullyExpanded", "upperMarkGap": 20, "lowerMarkGap": 30}, "simulator": {"midTransition": "shipped", "physicalSpring": true}, "heightOfCollapsedDrawer": 100}}"#
        )
        // FloatingPanel's behavior is still replaced whole (as invalidateLayout).
        let panel = try object(
            #"{"panel": {"anchors": {}, "behavior": {"springResponseTime": 0.4, "momentumProjectionRate": 0.99}}}"#)
        XCTAssertEqual(
            HeaderPatch.render(
                .object(
                    HeaderPatch.apply(try object(#"{"panel": {"behavior": {"springResponseTime": 0.3}}}"#), to: panel))),
            #"{"panel": {"anchors": {}, "behavior": {"springResponseTime": 0.3}}}"#)
    }
}
