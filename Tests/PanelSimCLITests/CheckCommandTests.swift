import XCTest
@testable import PanelSimCLI
import PanelGolden

/// `panelsim check` against fake trace services: record modes, outcomes, exit codes.
final class CheckCommandTests: CLITestCase {
    func testMissingGoldenInEachMode() throws {
        let cases: [(args: [String], env: [String: String], code: Int32, line: String, written: Bool)] = [
            (["--record", "never"], [:], 1, "MISSING traces/a.jsonl (no golden)", false),
            ([], ["CI": "true"], 1, "MISSING traces/a.jsonl (no golden)", false),
            ([], [:], 0, "NEW traces/a.jsonl (golden written)", true),
            (["--record", "missing"], ["CI": "1"], 0, "NEW traces/a.jsonl (golden written)", true),
            (["--record", "failed"], [:], 0, "NEW traces/a.jsonl (golden written)", true),
            ([], ["PANELSIM_RECORD": "all", "CI": "1"], 0, "NEW traces/a.jsonl (golden written)", true),
        ]
        for c in cases {
            // An empty golden folder: the record modes, not the missing-folder guard
            // (testMissingDefaultGoldenFolderIsNotBlessed), decide.
            try? FileManager.default.removeItem(atPath: root + "/golden")
            try FileManager.default.createDirectory(atPath: root + "/golden", withIntermediateDirectories: true)
            try write("100\n", "traces/a.jsonl")
            let r = runFake(["check"] + c.args, env: c.env)
            XCTAssertEqual(r.code, c.code, "\(c)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, c.line, r.stdout)
            XCTAssertEqual(lines.last, c.written ? "1 passed, 0 failed (1 golden written)" : "0 passed, 1 failed", r.stdout)
            XCTAssertEqual(exists("golden/a.golden.jsonl"), c.written, "\(c)")
        }
    }

    func testWrittenGoldenIsTheReplayResult() throws {
        try write("100\n", "traces/sub/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        let golden = try XCTUnwrap(read("golden/sub/a.golden.jsonl"))
        XCTAssertEqual(golden, runFake(["replay", "traces/sub/a.jsonl"]).stdout)
        XCTAssertEqual(runFake(["check", "--record", "never"]).stdout, "PASS traces/sub/a.jsonl\n1 passed, 0 failed\n")
        XCTAssertEqual(allFiles(), ["golden/sub/a.golden.jsonl", "traces/sub/a.jsonl"])  // no temp files left
    }

    /// `check` without arguments at a package's root, whose traces are in its test targets,
    /// names those folders.
    func testCheckAtAPackageRootNamesTheTestTargetsTraces() throws {
        XCTAssertFalse(runFake(["check"]).stderr.contains("test targets"))
        try write("100\n", "Tests/MyPanelTests/traces/a.jsonl")
        try write("100\n", "Tests/Other Tests/traces/b.jsonl")
        try write("x\n", "Tests/NoTraces/x.swift")
        let r = runFake(["check"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.hasPrefix("error: trace directory 'traces' does not exist or is not a directory; the package's test targets have "
                                         + "trace folders (Tests/MyPanelTests/traces, Tests/Other Tests/traces): panelsim check Tests/MyPanelTests/traces\n"),
                      r.stderr)
    }

    func testEditedGoldenFailsWithReport() throws {
        try write("100\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        let golden = read("golden/a.golden.jsonl")!
        try write(golden.replacingOccurrences(of: #""frame": 2, "location": 100"#, with: #""frame": 2, "location": 100.5"#),
                  "golden/a.golden.jsonl")
        let r = runFake(["check"], env: ["CI": "1"])
        XCTAssertEqual(r.code, 1)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "FAIL traces/a.jsonl")
        XCTAssertEqual(lines[1], "  first divergence at record 4 (line 6), t = 0.016667 s, frame 2: location")
        XCTAssertEqual(lines[2], "    expected: 100.5")
        XCTAssertEqual(lines[3], "    actual:   100  (|error| 0.5)")
        XCTAssertTrue(r.stdout.contains("  - #4 {\"t\": 0.016667, \"frame\": 2, \"location\": 100.5,"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  + #4 {\"t\": 0.016667, \"frame\": 2, \"location\": 100,"), r.stdout)
        XCTAssertEqual(lines[lines.count - 2], "0 passed, 1 failed")
        // Where the golden is and how to accept the change, after the report.
        XCTAssertEqual(lines[lines.count - 3], "  golden: golden/a.golden.jsonl; if the new behavior is right, rewrite it with "
                       + "panelsim check traces/a.jsonl --record failed (or --record pending to review it first)")
        // Run from elsewhere with --golden, the command keeps the golden folder.
        try FileManager.default.moveItem(atPath: root + "/golden", toPath: root + "/other")
        let moved = runFake(["check", "traces/a.jsonl", "--golden", "other"])
        XCTAssertTrue(moved.stdout.contains("  golden: other/a.golden.jsonl; if the new behavior is right, rewrite it with "
                                            + "panelsim check traces/a.jsonl --golden other --record failed"), moved.stdout)
        try FileManager.default.moveItem(atPath: root + "/other", toPath: root + "/golden")
        // The golden is untouched without recording; `--record failed` rewrites it.
        XCTAssertTrue(read("golden/a.golden.jsonl")!.contains("100.5"))
        let rec = runFake(["check", "--record", "failed"])
        XCTAssertEqual(rec.code, 0)
        XCTAssertTrue(rec.stdout.hasPrefix("UPDATED traces/a.jsonl (golden rewritten)\n  first divergence"), rec.stdout)
        XCTAssertTrue(rec.stdout.hasSuffix("1 passed, 0 failed (1 rewritten)\n"), rec.stdout)
        XCTAssertEqual(read("golden/a.golden.jsonl"), golden)
    }

    func testEventChangeShowsEventDiff() throws {
        try write("100 half\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        try write("100 tip\n", "traces/a.jsonl")
        let r = runFake(["check"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.contains("first divergence at record 0 (line 2), t = 0.000000 s, event didChangeState: state"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  note: trace edited since the golden was blessed"), r.stdout)
    }

    func testRecordAllRewritesOnlyChangedBytes() throws {
        try write("100\n", "traces/a.jsonl")
        try write("200\n", "traces/b.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        try write("100.0000001\n", "traces/a.jsonl")    // within tolerance, different bytes
        let r = runFake(["check", "--record", "all"])
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.stdout, """
            UPDATED traces/a.jsonl (golden rewritten; it matched within tolerances)
              note: trace edited since the golden was blessed (golden sha256:4, trace sha256:12)
              note: trace parameters changed since the golden was blessed (golden sha256:80dd9eaa16ff226e845d31f408505fff155ac8d820b1eaa9e8c9ddba8f94dda5, trace sha256:a8fb7cc923d52853ec16cd068f04c47d5a230bdf5e5f7a83f5e57f077c30d347)
            PASS traces/b.jsonl
            2 passed, 0 failed (1 rewritten)

            """)
        XCTAssertTrue(read("golden/a.golden.jsonl")!.contains("100.0000001"))
    }

    func testOutcomesOrderSummaryAndExitPrecedence() throws {
        try write("100\n", "traces/b.jsonl")
        try write("100\n", "traces/a/z.jsonl")
        try write("100\n", "traces/B.jsonl")
        try write("ignored\n", "traces/.hidden/x.jsonl")
        try write("ignored\n", "traces/x.golden.jsonl")
        try write("ignored\n", "traces/notes.txt")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)

        // Unsupported only → 125.
        try write("UNSUPPORTED\n", "traces/u.jsonl")
        var r = runFake(["check", "--record", "never"])
        XCTAssertEqual(r.code, 125, r.stdout)
        XCTAssertEqual(r.stdout, """
            PASS traces/B.jsonl
            PASS traces/a/z.jsonl
            PASS traces/b.jsonl
            SKIP traces/u.jsonl:2: scroll: not supported yet
            3 passed, 0 failed, 1 skipped

            """)

        // Bad input beats unsupported → 2.
        try write("{oops\n", "traces/v.jsonl")
        r = runFake(["check", "--record", "never"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stdout.contains("ERROR traces/v.jsonl:1: invalid JSON at column 1\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("3 passed, 0 failed, 1 skipped, 1 error\n"), r.stdout)

        // A regression beats bad input → 1.
        try write("100\n", "traces/w.jsonl")
        r = runFake(["check", "--record", "never"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.hasSuffix("3 passed, 1 failed, 1 skipped, 1 error\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("MISSING traces/w.jsonl (no golden)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("MISSING traces/v.jsonl") == false)
    }

    /// `check traces/sub` compares with golden/sub (paths are relative to the trace folder), as
    /// the whole-corpus check does; an explicit `--golden` is taken as given.
    func testSubfolderChecksAgainstTheSameGoldenSubfolder() throws {
        try write("100\n", "traces/sub/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)   // writes golden/sub/a.golden.jsonl
        XCTAssertNotNil(read("golden/sub/a.golden.jsonl"))
        for folder in ["traces/sub", "traces/sub/", "traces/sub//", "./traces/sub"] {
            let r = runFake(["check", folder, "--record", "never"])
            XCTAssertEqual(r.code, 0, folder)
            XCTAssertTrue(r.stdout.hasSuffix("1 passed, 0 failed\n"), "\(folder): \(r.stdout)")
            XCTAssertFalse(r.stdout.contains("sub//"), r.stdout)
        }
        // With the default record mode nothing is written at golden/'s top level.
        XCTAssertEqual(runFake(["check", "traces/sub"]).code, 0)
        XCTAssertNil(read("golden/a.golden.jsonl"))
        let explicit = runFake(["check", "traces/sub", "--golden", "golden", "--record", "never"])
        XCTAssertTrue(explicit.stdout.contains("MISSING traces/sub/a.jsonl (no golden)"), explicit.stdout)
        // A symbolic link to the subfolder names the same folder.
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "traces/sub")
        let linked = runFake(["check", "link", "--record", "never"])
        XCTAssertTrue(linked.stdout.hasSuffix("1 passed, 0 failed\n"), linked.stdout)
        // An empty folder name is a usage error, not the working directory.
        XCTAssertEqual(runFake(["check", ""]).code, 2)
    }

    /// Something at a golden's path that is not a readable file is an ERROR, never MISSING (so no
    /// record mode writes over it); traces the listing leaves out are named in warnings.
    func testUnusableGoldenAndUnlistedTraces() throws {
        try write("100\n", "traces/a.jsonl")
        try FileManager.default.createDirectory(atPath: root + "/golden/a.golden.jsonl", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/traces/gone.jsonl", withDestinationPath: "nowhere.jsonl")
        let r = runFake(["check"])
        XCTAssertEqual(r.code, 2, r.stdout)
        XCTAssertEqual(r.stdout, """
            ERROR traces/a.jsonl: cannot read the golden golden/a.golden.jsonl: is a directory
            warning: skipped traces/gone.jsonl: a broken symbolic link
            0 passed, 0 failed, 1 error

            """)
    }

    /// Goldens recorded in one simulator mode are not compared with replays of another: the mode
    /// is in the result header.
    func testSimulatorOptionsSeparateGoldens() throws {
        try write("100\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        let r = runFake(["check", "--drive-scroll", "--record", "never"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.hasPrefix("FAIL traces/a.jsonl\n  header differs: expected simulator defaults, actual simulator driveScroll\n"), r.stdout)
        XCTAssertEqual(runFake(["check", "--drive-scroll", "--record", "failed"]).code, 0)
        XCTAssertTrue(read("golden/a.golden.jsonl")!.contains(#""simulator": ["driveScroll"], "#))
        XCTAssertEqual(runFake(["check", "--drive-scroll", "--record", "never"]).code, 0)
    }

    func testUnreferencedGoldensAreListed() throws {
        try write("100\n", "traces/a.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        try write("x", "golden/old/gone.golden.jsonl")
        try write("x", "golden/readme.md")
        let r = runFake(["check"])
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.stdout, """
            PASS traces/a.jsonl
            warning: unreferenced golden golden/old/gone.golden.jsonl (no trace traces/old/gone.jsonl)
            1 passed, 0 failed

            """)
        // With jobs the golden folder is listed beside the checks: the same report.
        try write("100\n", "traces/b.jsonl")
        XCTAssertEqual(runFake(["check", "--record", "missing"]).code, 0)
        let parallel = runFake(["check", "--jobs", "2"])
        XCTAssertEqual(parallel.stdout, """
            PASS traces/a.jsonl
            PASS traces/b.jsonl
            warning: unreferenced golden golden/old/gone.golden.jsonl (no trace traces/old/gone.jsonl)
            2 passed, 0 failed

            """)
    }

    func testUnreadableAndOtherVersionGoldens() throws {
        try write("100\n", "traces/a.jsonl")
        try write("100\n", "traces/b.jsonl")
        try write("{\"format\": \"panelsim-result\", \"version\": 1\n", "golden/a.golden.jsonl")
        try write("{\"format\": \"panelsim-result\", \"version\": 7}\n", "golden/b.golden.jsonl")
        var r = runFake(["check"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stdout.hasPrefix("ERROR traces/a.jsonl: unreadable golden: golden/a.golden.jsonl:1: column"), r.stdout)
        XCTAssertTrue(r.stdout.contains("SKIP traces/b.jsonl: golden format version 7, this build writes 1\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("0 passed, 0 failed, 1 skipped, 1 error\n"), r.stdout)
        r = runFake(["check", "--record", "failed"])
        XCTAssertEqual(r.code, 0, r.stdout)
        XCTAssertTrue(r.stdout.contains("UPDATED traces/b.jsonl (golden rewritten; it was format version 7)\n"), r.stdout)
        XCTAssertEqual(runFake(["check", "--record", "never"]).code, 0)
    }

    /// Checking nothing is an error (exit 2), so that a wrong folder or a mistyped --filter does
    /// not pass CI, as an empty folder is for PanelSimTesting's `PanelTraces`; an empty shard of a
    /// non-empty selection is not.
    func testEmptyTraceDirectory() throws {
        try FileManager.default.createDirectory(atPath: root + "/t", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/g", withIntermediateDirectories: true)   // a --golden that does not exist is a usage error
        let r = runFake(["check", "t", "--golden", "g", "--summary-json", "s.json"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stdout, "0 passed, 0 failed, no traces\n")
        XCTAssertEqual(r.stderr, "error: no *.jsonl traces under t: nothing was checked\nwrote s.json\n")
        XCTAssertTrue(read("s.json")!.contains(#""exitCode": 2"#), read("s.json")!)
        // A filter that matches nothing.
        try write("100\n", "t/a.jsonl")
        XCTAssertEqual(runFake(["check", "t", "--golden", "g"]).code, 0)
        let f = runFake(["check", "t", "--golden", "g", "--filter", "b*", "--filter", "c*"])
        XCTAssertEqual(f.code, 2)
        XCTAssertEqual(f.stderr, "error: no *.jsonl traces under t match --filter b*, c*: nothing was checked\n")
        XCTAssertEqual(f.stdout, "0 passed, 0 failed, no traces\n")
        // An empty shard of one trace: a warning, exit 0 (the other shard checks it).
        let shard = runFake(["check", "t", "--golden", "g", "--shard", "2/2", "--summary-json", "s2.json"])
        XCTAssertEqual(shard.code, 0, shard.stderr)
        XCTAssertEqual(shard.stdout, "warning: no traces in shard 2/2 (fewer traces than shards)\n0 passed, 0 failed\n")
        XCTAssertEqual(runFake(["check", "t", "--golden", "g", "--shard", "1/2", "--summary-json", "s1.json"]).code, 0)
        XCTAssertEqual(runFake(["merge-summaries", "s1.json", "s2.json"]).code, 0)
        // Summaries with no trace at all merge into an error too.
        let m = runFake(["merge-summaries", "s.json"])
        XCTAssertEqual(m.code, 2)
        XCTAssertEqual(m.stdout, "0 passed, 0 failed, no traces\n")
    }

    /// With the default golden folder missing (a check run from the wrong folder, or a new
    /// project) and the default record mode `missing`, `check` does not create ./golden and bless
    /// every trace (NEW … 1 passed). As for an explicit --golden that does not exist, it is a
    /// usage error that writes nothing and says how to record, unless recording was asked for
    /// (--record or PANELSIM_RECORD).
    func testMissingDefaultGoldenFolderIsNotBlessed() throws {
        try write("100\n", "traces/sub/a.jsonl")
        for (args, env) in [([String](), [String: String]()), (["traces/sub"], [:]), (["traces/sub/a.jsonl"], [:]),
                            ([], ["CI": "true"]), (["--filter", "sub/*"], [:])] {
            let r = runFake(["check"] + args, env: env)
            XCTAssertEqual(r.code, 2, "\(args) \(env)")
            XCTAssertEqual(r.stdout, "")
            XCTAssertTrue(r.stderr.hasPrefix("error: golden directory 'golden' does not exist, so every trace would be recorded as its own golden; "
                                             + "check from the folder that holds traces/ and golden/, or record the goldens with --record missing "
                                             + "(or PANELSIM_RECORD=missing)\nUsage: panelsim check "), "\(args) \(env): \(r.stderr)")
            XCTAssertEqual(allFiles(), ["traces/sub/a.jsonl"], "nothing written")
            XCTAssertFalse(exists("golden"))
        }
        // Asked for: recorded.
        XCTAssertEqual(runFake(["check"], env: ["PANELSIM_RECORD": "missing"]).code, 0)
        XCTAssertTrue(exists("golden/sub/a.golden.jsonl"))
        try FileManager.default.removeItem(atPath: root + "/golden")
        let never = runFake(["check", "--record", "never"])
        XCTAssertEqual(never.code, 1)
        XCTAssertFalse(exists("golden"))
        XCTAssertEqual(runFake(["check", "traces/sub", "--record", "missing"]).code, 0)
        XCTAssertTrue(exists("golden/sub/a.golden.jsonl"))
        // Once golden/ exists, a new subfolder of traces records into it as before.
        try write("200\n", "traces/new/b.jsonl")
        let r = runFake(["check", "traces/new"])
        XCTAssertEqual(r.stdout, "NEW traces/new/b.jsonl (golden written)\n1 passed, 0 failed (1 golden written)\n")
        // Trace files outside a `traces` folder: their golden folder is the file's folder + golden.
        try write("300\n", "elsewhere/c.jsonl")
        let files = runFake(["check", "elsewhere/c.jsonl"])
        XCTAssertEqual(files.code, 2)
        XCTAssertTrue(files.stderr.hasPrefix("error: golden directory 'elsewhere/golden' does not exist"), files.stderr)
    }

    func testGoldenWriteFailureIsAnError() throws {
        try write("100\n", "traces/a.jsonl")
        try write("not a directory", "golden")
        let r = runFake(["check"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("golden directory 'golden' is a file"), r.stderr)
    }
}
