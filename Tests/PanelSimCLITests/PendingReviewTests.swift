import XCTest
@testable import PanelSimCLI
import PanelGolden

/// Pending goldens (`--record pending`), review / accept / reject, no accidental
/// blessing, `check FILE…` and `--filter`, quiet output, annotations.
final class PendingReviewTests: CLITestCase {
    /// A corpus of one trace with a golden, then the golden nudged by 3 pt.
    private func nudged() throws -> String {
        try write("100\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        let golden = read("golden/a.golden.jsonl")!
        try write(golden.replacingOccurrences(of: #""frame": 2, "location": 100"#, with: #""frame": 2, "location": 103"#),
                  "golden/a.golden.jsonl")
        return read("golden/a.golden.jsonl")!
    }

    func testPendingThenAcceptAndReject() throws {
        let bad = try nudged()
        let r = runFake(["check", "--record", "pending"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.hasPrefix("FAIL traces/a.jsonl\n  pending: wrote golden/a.golden.jsonl.new"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("0 passed, 1 failed (1 pending)\n"), r.stdout)
        XCTAssertEqual(read("golden/a.golden.jsonl"), bad)
        XCTAssertTrue(exists("golden/a.golden.jsonl.new"))
        // Left over: a warning; never a golden (not unreferenced).
        let again = runFake(["check", "--record", "never"])
        XCTAssertTrue(again.stdout.contains("  warning: pending golden golden/a.golden.jsonl.new left over"), again.stdout)
        XCTAssertFalse(again.stdout.contains("unreferenced"), again.stdout)
        // Reject: the failure stays.
        let rej = runFake(["reject"])
        XCTAssertEqual(rej.code, 0)
        XCTAssertEqual(rej.stdout, "rejected golden/a.golden.jsonl.new (removed; golden/a.golden.jsonl unchanged)\n")
        XCTAssertEqual(runFake(["check", "--record", "never"]).code, 1)
        // Accept (by trace path): check passes, no .new left.
        XCTAssertEqual(runFake(["check"], env: ["PANELSIM_RECORD": "pending"]).code, 1)
        let acc = runFake(["accept", "traces/a.jsonl"])
        XCTAssertEqual(acc.code, 0, acc.stderr)
        XCTAssertEqual(acc.stdout, "accepted golden/a.golden.jsonl (rewritten from golden/a.golden.jsonl.new)\n")
        XCTAssertEqual(runFake(["check", "--record", "never"]).stdout, "PASS traces/a.jsonl\n1 passed, 0 failed\n")
        XCTAssertEqual(allFiles(), ["golden/a.golden.jsonl", "traces/a.jsonl"])
        XCTAssertEqual(runFake(["accept", "golden/a.golden.jsonl"]).code, 2)   // nothing pending for it
        XCTAssertEqual(runFake(["accept"]).stdout, "no pending goldens under .\n")
    }

    /// `accept` does not move just any file named NAME.golden.jsonl.new over the golden (a
    /// truncated or header-only one that `review` refuses): it parses the whole pending file
    /// first, as `review` does, and refuses a malformed one (exit 2), leaving
    /// the golden and the pending file as they were; the other pending goldens are accepted.
    func testAcceptRefusesAMalformedPendingGolden() throws {
        let good = try nudged()
        XCTAssertEqual(runFake(["check", "--record", "pending"]).code, 1)
        let pending = read("golden/a.golden.jsonl.new")!
        let lines = pending.split(separator: "\n", omittingEmptySubsequences: false)
        let cases: [(String, String)] = [
            (#"{"format": "panelsim-result", "version": 1}"# + "\n", "golden/a.golden.jsonl.new:1: missing field \"frameRate\""),
            (lines[0] + "\n" + lines[1].prefix(20), "golden/a.golden.jsonl.new:2: "),
            ("", "golden/a.golden.jsonl.new"),
        ]
        for (text, message) in cases {
            try write(text, "golden/a.golden.jsonl.new")
            for args in [["accept", "golden/a.golden.jsonl.new"], ["accept"], ["accept", "traces/a.jsonl"]] {
                let r = runFake(args)
                XCTAssertEqual(r.code, 2, "\(args) \(text.debugDescription)")
                XCTAssertTrue(r.stderr.hasPrefix("error: " + message), r.stderr)
                XCTAssertTrue(r.stderr.contains("not accepted; golden/a.golden.jsonl unchanged"), r.stderr)
                XCTAssertEqual(r.stdout, "")
                XCTAssertEqual(read("golden/a.golden.jsonl"), good, "the golden is untouched")
                XCTAssertEqual(read("golden/a.golden.jsonl.new"), text, "the pending file is untouched")
            }
        }
        // One bad pending golden does not hold back a good one; the run still exits 2.
        try write("200\n", "traces/b.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "pending"]).code, 1)
        try write(cases[0].0, "golden/a.golden.jsonl.new")
        let both = runFake(["accept"])
        XCTAssertEqual(both.code, 2)
        XCTAssertEqual(both.stdout, "accepted golden/b.golden.jsonl (new golden from golden/b.golden.jsonl.new)\n")
        XCTAssertEqual(read("golden/a.golden.jsonl"), good)
        // A valid pending golden is still accepted.
        try write(pending, "golden/a.golden.jsonl.new")
        XCTAssertEqual(runFake(["accept"]).code, 0)
        XCTAssertEqual(read("golden/a.golden.jsonl"), pending)
    }

    func testPendingForAMissingGoldenAndReviewAll() throws {
        try write("100\n", "traces/a.jsonl")
        try write("200\n", "traces/b.jsonl")
        let r = runFake(["check", "--record", "pending"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.hasSuffix("0 passed, 2 failed (2 pending)\n"), r.stdout)
        XCTAssertFalse(exists("golden/a.golden.jsonl"))
        let review = runFake(["review", "--accept-all", "--report-dir", "rev"])
        XCTAssertEqual(review.code, 0, review.stderr)
        XCTAssertTrue(review.stdout.contains("[1/2] golden/a.golden.jsonl.new\n  new golden"), review.stdout)
        XCTAssertTrue(review.stdout.contains("  report: "), review.stdout)
        XCTAssertTrue(review.stdout.hasSuffix("2 accepted, 0 rejected, 0 pending\n"), review.stdout)
        XCTAssertTrue(exists("rev/golden_a.html"))
        XCTAssertEqual(runFake(["check", "--record", "never"]).code, 0)
    }

    /// Without --report-dir, each review writes its reports into a new folder of its own in the
    /// temporary folder, and prints it first.
    func testEachReviewHasItsOwnReportFolder() throws {
        try write("100\n", "traces/a.jsonl")
        var folders: [String] = []
        for _ in 0..<2 {
            XCTAssertEqual(runFake(["check", "--record", "pending"]).code, 1)
            let review = runFake(["review", "--reject-all"])
            XCTAssertEqual(review.code, 0, review.stderr)
            let first = try XCTUnwrap(review.stdout.split(separator: "\n").first)
            XCTAssertTrue(first.hasPrefix("reports: ") && first.hasSuffix(" (a new folder for this review)"), review.stdout)
            let folder = String(first.dropFirst("reports: ".count).prefix { $0 != " " })
            XCTAssertTrue(folder.contains("/panelsim-review-"), folder)
            XCTAssertTrue(review.stdout.contains("  report: \(folder)/golden_a.html\n"), review.stdout)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/golden_a.html"))
            folders.append(folder)
        }
        XCTAssertNotEqual(folders[0], folders[1])
        for folder in folders { try FileManager.default.removeItem(atPath: folder) }
    }

    func testMissingGoldenFolderAndWrongGoldenAreNotBlessed() throws {
        try write("100\n", "traces/flicks/a.jsonl")
        let r = runFake(["check", "--golden", "goldne"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("golden directory 'goldne' does not exist"), r.stderr)
        XCTAssertEqual(allFiles(), ["traces/flicks/a.jsonl"])
        XCTAssertEqual(runFake(["check", "--golden", "goldne", "--record", "missing"]).code, 0)   // explicit: recorded
        XCTAssertTrue(exists("goldne/flicks/a.golden.jsonl"))
        // A subfolder against the root golden folder: its goldens live in golden/flicks.
        try FileManager.default.createDirectory(atPath: root + "/golden", withIntermediateDirectories: true)
        let sub = runFake(["check", "traces/flicks", "--golden", "golden"])
        XCTAssertEqual(sub.code, 2)
        XCTAssertTrue(sub.stderr.contains("its goldens are in 'golden/flicks'"), sub.stderr)
        // A golden of another trace: ERROR in every mode but all.
        try write("200\n", "traces/flicks/b.jsonl")
        XCTAssertEqual(runFake(["check", "traces/flicks"]).code, 0)
        try FileManager.default.removeItem(atPath: root + "/golden/flicks/b.golden.jsonl")
        try FileManager.default.copyItem(atPath: root + "/golden/flicks/a.golden.jsonl", toPath: root + "/golden/flicks/b.golden.jsonl")
        for mode in ["never", "missing", "failed", "pending"] {
            let e = runFake(["check", "traces/flicks", "--record", mode])
            XCTAssertEqual(e.code, 2, mode)
            XCTAssertTrue(e.stdout.contains("ERROR traces/flicks/b.jsonl: the golden golden/flicks/b.golden.jsonl belongs to another trace"), e.stdout)
            XCTAssertFalse(exists("golden/flicks/b.golden.jsonl.new"), mode)
        }
        XCTAssertEqual(runFake(["check", "traces/flicks", "--record", "all"]).code, 0)
        XCTAssertEqual(runFake(["check", "traces/flicks", "--record", "never"]).code, 0)
    }

    func testCheckFilesFilterQuietAndAnnotations() throws {
        try write("100\n", "traces/x/a.jsonl")
        try write("200\n", "traces/x/b.jsonl")
        try write("300\n", "traces/y/c.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        XCTAssertEqual(runFake(["check", "traces/x/b.jsonl"]).stdout, "PASS traces/x/b.jsonl\n1 passed, 0 failed\n")
        XCTAssertEqual(runFake(["check", "traces/y/c.jsonl", "traces/x/a.jsonl"]).stdout,
                       "PASS traces/x/a.jsonl\nPASS traces/y/c.jsonl\n2 passed, 0 failed\n")
        XCTAssertEqual(runFake(["check", "--filter", "*/b*", "--filter", "y/*"]).stdout,
                       "PASS traces/x/b.jsonl\nPASS traces/y/c.jsonl\n2 passed, 0 failed\n")
        XCTAssertEqual(runFake(["check", "traces/x/nope.jsonl"]).code, 2)
        XCTAssertEqual(runFake(["check", "--quiet"]).stdout, "3 passed, 0 failed\n")
        // A failure: quiet prints it; annotations point at the trace.
        let golden = read("golden/x/b.golden.jsonl")!
        try write(golden.replacingOccurrences(of: #""frame": 2, "location": 200"#, with: #""frame": 2, "location": 203"#),
                  "golden/x/b.golden.jsonl")
        let r = runFake(["check", "-q", "--annotations", "github", "--junit", "j.xml"], env: ["CI": "1"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.hasPrefix("FAIL traces/x/b.jsonl\n  first divergence"), r.stdout)
        XCTAssertTrue(r.stdout.contains("::error file=traces/x/b.jsonl,line=2,title=panelsim%3A first divergence at record 4 (line 6)%2C t = 0.016667 s%2C frame 2%3A location::"), r.stdout)
        XCTAssertTrue(read("j.xml")!.contains("<failure message=\"FAIL traces/x/b.jsonl: first divergence at record 4 (line 6), t = 0.016667 s, frame 2: location\""), read("j.xml")!)
    }

    /// `--shard` splits the traces `check` was asked for (the files given, or those --filter
    /// keeps), not the whole folder: with a filter or files, no shard checks traces outside
    /// them.
    func testShardsSplitTheSelectedTraces() throws {
        for name in ["a", "b", "c", "d"] { try write("100\n", "traces/x/\(name).jsonl") }
        try write("100\n", "traces/y/e.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        XCTAssertEqual(runFake(["check", "--filter", "y/*", "--shard", "1/2"]).stdout, "PASS traces/y/e.jsonl\n1 passed, 0 failed\n")
        XCTAssertEqual(runFake(["check", "--filter", "x/*", "--shard", "2/2"]).stdout,
                       "PASS traces/x/b.jsonl\nPASS traces/x/d.jsonl\n2 passed, 0 failed\n")
        XCTAssertEqual(runFake(["check", "traces/x/c.jsonl", "traces/y/e.jsonl", "--shard", "1/2"]).stdout,
                       "PASS traces/x/c.jsonl\n1 passed, 0 failed\n")
        // Without a selection, the shards of the whole folder are as before.
        XCTAssertEqual(runFake(["check", "--shard", "2/2", "--record", "never"]).stdout,
                       "PASS traces/x/b.jsonl\nPASS traces/x/d.jsonl\n2 passed, 0 failed\n")
    }

    func testUnreferencedFailAndDeleteAreInTheSummary() throws {
        try write("100\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        try FileManager.default.copyItem(atPath: root + "/golden/a.golden.jsonl", toPath: root + "/golden/gone.golden.jsonl")
        let f = runFake(["check", "--unreferenced", "fail"])
        XCTAssertEqual(f.code, 1)
        XCTAssertTrue(f.stdout.hasSuffix("1 passed, 0 failed, 1 unreferenced golden\n"), f.stdout)
        let d = runFake(["check", "--unreferenced", "delete"])
        XCTAssertEqual(d.code, 0)
        XCTAssertTrue(d.stdout.contains("deleted unreferenced golden golden/gone.golden.jsonl (no trace traces/gone.jsonl)\n"), d.stdout)
        XCTAssertTrue(d.stdout.hasSuffix("1 passed, 0 failed (1 deleted)\n"), d.stdout)
        XCTAssertFalse(exists("golden/gone.golden.jsonl"))
    }

    func testReportExitsOneWhenDifferentAndShowsThePlotFirst() throws {
        _ = try nudged()
        let r = runFake(["report", "traces/a.jsonl", "-o", "r.html"])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "wrote r.html (differs from the golden)\n")
        let html = try XCTUnwrap(read("r.html"))
        let plot = try XCTUnwrap(html.range(of: "<svg class=\"plot wide\""))
        let text = try XCTUnwrap(html.range(of: "<pre>"))
        XCTAssertLessThan(plot.lowerBound, text.lowerBound, "the plot comes before the text report")
        for needle in ["class=\"verdict fail\"", "golden events", "actual events", "Residual: actual − golden", "Zoom at the first difference",
                       "<details>", "<span class=\"g\">", "<span class=\"a\">", "<svg class=\"plot narrow\""] {
            XCTAssertTrue(html.contains(needle), needle)
        }
        for external in ["<script", "src=", "href=", "@import", "url(", "break-all"] { XCTAssertFalse(html.contains(external), external) }
        XCTAssertEqual(runFake(["report", "traces/a.jsonl", "-o", "r2.html"]).code, 1)
        XCTAssertEqual(read("r2.html"), html, "byte-deterministic")
        // The same state has the same colour whatever the layout.
        XCTAssertEqual(HTMLReport.stateColor("half", strong: true), HTMLReport.stateColor("half", strong: true))
        XCTAssertNotEqual(HTMLReport.stateColor("half", strong: true), HTMLReport.stateColor("full", strong: true))
    }
}
