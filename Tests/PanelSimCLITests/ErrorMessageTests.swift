import XCTest
import Foundation
@testable import PanelSimCLI
import PanelGolden
import PanelTrace

/// Error messages name the field, the line, the reason and the way out: each says what was
/// wrong, where, and what was expected.
final class ErrorMessageTests: CLITestCase {
    /// A trace with a recorded golden: traces/a.jsonl, golden/a.golden.jsonl.
    private func recorded() throws -> String {
        try write(LiveCommandTests.trace, "traces/a.jsonl")
        XCTAssertEqual(run(["check", "--record", "missing"]).code, 0)
        return try XCTUnwrap(read("golden/a.golden.jsonl"))
    }

    /// NaN and Infinity: the parser names the field and says they are not JSON numbers.
    func testNaNInATraceNamesTheField() throws {
        var lines = LiveCommandTests.trace.split(separator: "\n").map(String.init)
        lines[2] = #"{"t": 0.05, "touch": "moved", "x": 195, "y": NaN}"#
        try write(lines.joined(separator: "\n") + "\n", "n.jsonl")
        let r = run(["replay", "n.jsonl"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "n.jsonl:3: y: invalid JSON at column 46: NaN is not a JSON number "
                       + "(JSON has no NaN or Infinity; expected a finite number)\n")
        lines[2] = #"{"t": 0.05, "touch": "moved", "x": 195, "y": 600, "velocity": {"x": 0, "y": -Infinity}}"#
        try write(lines.joined(separator: "\n") + "\n", "n.jsonl")
        XCTAssertEqual(run(["replay", "n.jsonl"]).stderr, "n.jsonl:3: velocity.y: invalid JSON at column 77: -Infinity is not a JSON number "
                       + "(JSON has no NaN or Infinity; expected a finite number)\n")
    }

    /// Bytes that are not UTF-8 in a golden: the path as given and the line, worded as the trace
    /// loader words it (not the absolute path without a line).
    func testGoldenThatIsNotUTF8NamesTheLine() throws {
        let golden = try recorded()
        var bytes = Array(golden.utf8)
        let secondLine = bytes.firstIndex(of: 0x0A)! + 1
        bytes[secondLine + 3] = 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: root + "/golden/a.golden.jsonl"))
        let check = run(["check", "--record", "never"])
        XCTAssertEqual(check.code, 2)
        XCTAssertTrue(check.stdout.hasPrefix("ERROR traces/a.jsonl: golden/a.golden.jsonl:2: invalid UTF-8 at column 4 "
                                             + "(expected UTF-8 encoded text, found byte 0xFF)\n"), check.stdout)
        XCTAssertFalse(check.stdout.contains(root), check.stdout)
        let diff = run(["diff", "golden/a.golden.jsonl", "golden/a.golden.jsonl"])
        XCTAssertEqual(diff.stderr, "error: golden/a.golden.jsonl:2: invalid UTF-8 at column 4 (expected UTF-8 encoded text, found byte 0xFF)\n")
    }

    /// A wrong type in a golden says what it got.
    func testWrongTypeInAGoldenSaysWhatItGot() throws {
        let golden = try recorded()
        try write(golden.replacingOccurrences(of: #""frame": 0, "location": "#, with: #""frame": 0, "location": "far", "x": "#),
                  "golden/a.golden.jsonl")
        let r = run(["diff", "golden/a.golden.jsonl", "golden/a.golden.jsonl"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.hasPrefix("error: golden/a.golden.jsonl:"), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix(#": field "location" must be a number, got a string ("far")"# + "\n"), r.stderr)
        try write(golden.replacingOccurrences(of: #""isDragging": false}"#, with: #""isDragging": 0}"#), "golden/a.golden.jsonl")
        XCTAssertTrue(run(["diff", "golden/a.golden.jsonl", "golden/a.golden.jsonl"]).stderr
            .hasSuffix(#": field "isDragging" must be true or false, got a number (0)"# + "\n"))
        // A NaN written by another tool: the field is named here too.
        try write(golden.replacingOccurrences(of: #""frame": 0, "location": "#, with: #""frame": 0, "location": NaN, "x": "#),
                  "golden/a.golden.jsonl")
        XCTAssertTrue(run(["diff", "golden/a.golden.jsonl", "golden/a.golden.jsonl"]).stderr
            .contains(": location: column "), "the field of the JSON error")
    }

    /// `report --golden` on a path that cannot be read says why; the path is as given.
    func testReportGoldenThatCannotBeReadSaysWhy() throws {
        _ = try recorded()
        let missing = run(["report", "traces/a.jsonl", "--golden", "nope.jsonl", "-o", "r.html"])
        XCTAssertEqual(missing.code, 2)
        XCTAssertEqual(missing.stderr, "error: cannot read nope.jsonl: no such file or directory\n")
        let folder = run(["report", "traces/a.jsonl", "--golden", "golden", "-o", "r.html"])
        XCTAssertEqual(folder.stderr, "error: cannot read golden: is a directory\n")
        XCTAssertEqual(run(["diff", "nope.jsonl", "golden/a.golden.jsonl"]).stderr, "error: cannot read nope.jsonl: no such file or directory\n")
    }

    /// A folder that cannot be created says why.
    func testFolderThatCannotBeCreatedSaysWhy() throws {
        try write(LiveCommandTests.trace, "traces/a.jsonl")
        try write("a file\n", "out")
        let r = run(["replay", "traces/a.jsonl", "-o", "out/sub/a.jsonl"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "cannot write out/sub/a.jsonl: cannot create the folder out/sub (a file is in the way)\n")
        XCTAssertEqual(run(["replay", "traces/a.jsonl", "-o", "out/a.jsonl"]).stderr,
                       "cannot write out/a.jsonl: cannot create the folder out (a file is in the way)\n")
    }

    /// `tune --param` out of range says which values are accepted.
    func testTuneParameterOutOfRangeSaysWhatIsAccepted() throws {
        try write(LiveCommandTests.trace, "t.jsonl")
        for (param, accepted) in [("springDecelerationRate=0...1", "(0 is not in 0 < x < 1 (per ms))"),
                                  ("springResponseTime=0.1...200", "(200 is not in 0 < x ≤ 100 (s))"),
                                  ("redirectionalProgress=-1", "(-1 is not in 0 ≤ x ≤ 1)")] {
            let r = run(["tune", "t.jsonl", "--param", param])
            XCTAssertEqual(r.code, 2, param)
            XCTAssertTrue(r.stderr.contains("is outside the values the simulator accepts " + accepted), r.stderr)
        }
    }

    /// A --template that is not a trace header says it is the template.
    func testTemplateThatIsNotJSONSaysItIsTheTemplate() throws {
        try write("down,0,0\n", "t.json")
        let synth = run(["synth", "--template", "t.json", "down 1,2; up"])
        XCTAssertEqual(synth.code, 2)
        XCTAssertTrue(synth.stderr.hasPrefix("t.json:1: invalid JSON at column 1: "), synth.stderr)
        XCTAssertTrue(synth.stderr.hasSuffix(" (the --template file: expected a trace header line, {\"format\": \"panelsim-trace\", \"version\": 1, …})\n"), synth.stderr)
        try write("t_ms,phase,x_px,y_px\n0,down,1,2\n8,up,1,2\n", "g.csv")
        let imp = run(["import", "csv", "g.csv", "--points-per-unit", "1", "--template", "t.json"])
        XCTAssertEqual(imp.code, 2)
        XCTAssertTrue(imp.stderr.contains("(the --template file: "), imp.stderr)
        XCTAssertEqual(run(["synth", "--template", "none.json", "down 1,2; up"]).stderr,
                       "error: cannot read none.json: no such file or directory (the --template file)\n")
    }

    /// MISSING says how to record the golden.
    func testMissingSaysHowToRecord() throws {
        try FileManager.default.createDirectory(atPath: root + "/golden", withIntermediateDirectories: true)
        try write(LiveCommandTests.trace, "traces/a.jsonl")
        let r = run(["check"], env: ["CI": "true"])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stdout, """
            MISSING traces/a.jsonl (no golden)
              to record it, run check again with --record missing (writes golden/a.golden.jsonl), or with --record pending to review it first
            0 passed, 1 failed

            """)
        XCTAssertFalse(exists("golden/a.golden.jsonl"))
    }

    /// uisheet.md §2.2: `setShouldDismiss` where the delegate does not implement
    /// `presentationControllerShouldDismiss(_:)` is invalid input: `check` and `replay` exit 2 and
    /// name the file, the call's line and the field; with `"always"` the same trace checks.
    func testSetShouldDismissWithTheDefaultDelegateExits2() throws {
        func trace(_ delegate: String) -> String {
            #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "name": "dirty", "environment": {"container": {"width": 390, "height": 844}}, "sheet": {"detents": [{"identifier": "medium", "kind": "medium"}, {"identifier": "large", "kind": "large"}]}"#
                + delegate + "}\n"
                + #"{"t": 0.1, "touch": "began", "x": 195, "y": 500}"# + "\n"
                + #"{"t": 0.2, "call": "setShouldDismiss", "value": false}"# + "\n"
                + #"{"t": 0.3, "touch": "ended", "x": 195, "y": 500}"# + "\n"
        }
        try write(trace(""), "traces/dirty.jsonl")
        let check = run(["check", "--record", "never"])
        XCTAssertEqual(check.code, 2, check.stdout)
        XCTAssertTrue(check.stdout.contains("ERROR traces/dirty.jsonl:3: call: setShouldDismiss "), check.stdout)
        XCTAssertTrue(check.stdout.contains(#"sheetDelegate.shouldDismiss is "default""#), check.stdout)
        let replay = run(["replay", "traces/dirty.jsonl"])
        XCTAssertEqual(replay.code, 2)
        XCTAssertTrue(replay.stderr.hasPrefix("traces/dirty.jsonl:3: call: "), replay.stderr)
        try write(trace(#", "sheetDelegate": {"shouldDismiss": "always"}"#), "traces/dirty.jsonl")
        XCTAssertEqual(run(["check", "--record", "missing"]).code, 0)
    }

    /// Header mistakes that have one usual cause say it: FloatingPanel's `delegate` section in a
    /// sheet trace, FloatingPanel's default initial state missing from the anchors, a DrawerKit
    /// timing curve name that is not one of the three forms.
    func testHeaderMistakesNameTheUsualCause() throws {
        let repo = RepositoryCorpusTests.root
        let sheet = try String(contentsOfFile: repo + "/traces/uisheet/x6/x6-select-instant.jsonl", encoding: .utf8)
        try write(sheet.replacingOccurrences(of: #""recognizer": {"#, with: #""delegate": {"shouldDismiss": "always"}, "recognizer": {"#), "d.jsonl")
        let delegate = run(["replay", "d.jsonl"])
        XCTAssertEqual(delegate.code, 2)
        XCTAssertTrue(delegate.stderr.hasPrefix("d.jsonl:1: delegate: a 'delegate' section does not belong in a uisheet trace; "
                                                + #"expected a "sheetDelegate" section for the sheet's delegate"#), delegate.stderr)

        try write(#"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "#
                  + #""panel": {"anchors": {"full": {"absoluteInset": 18, "edge": "top"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}}}"# + "\n", "h.jsonl")
        let half = run(["replay", "h.jsonl"])
        XCTAssertEqual(half.code, 2)
        XCTAssertEqual(half.stderr, "h.jsonl:1: panel.initialState: 'half' is neither an anchor state nor hidden "
                       + "(half is the default when panel.initialState is not given); name one of 'full', 'tip'\n")

        let drawer = try String(contentsOfFile: repo + "/traces/drawerkit/durations/d1-partial-to-full-linear-0.25.jsonl", encoding: .utf8)
        try write(drawer.replacingOccurrences(of: #""timingCurveProvider": "linear""#, with: #""timingCurveProvider": "spring""#), "k.jsonl")
        let curve = run(["replay", "k.jsonl"])
        XCTAssertEqual(curve.code, 2)
        XCTAssertTrue(curve.stderr.contains(#"timingCurveProvider: expected "systemSpring", "linear" or {"dampingRatio": ζ}, got a string ("spring")"#), curve.stderr)
    }

    /// A refused tapDimming says which of uisheet.md §3.8's conditions refused it.
    func testARefusedDimmingTapNamesItsReason() throws {
        let sheet = try String(contentsOfFile: RepositoryCorpusTests.root + "/traces/uisheet/x6/x6-select-instant.jsonl", encoding: .utf8)
        try write(sheet + #"{"t": 1.0, "call": "tapDimming"}"# + "\n", "t.jsonl")
        let r = run(["replay", "t.jsonl"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "warning: t.jsonl: line 3: tapDimming not accepted: the sheet is at its top margin (uisheet.md §3.8)\n")
    }
}
