import XCTest
import Foundation
import PanelGolden
import PanelTrace
import PanelSimCLI
import PanelSimCore
@testable import PanelSimTesting

/// The work of `assertPanelTrace` (`PanelTraceCheck.evaluate`), in a temporary folder laid out as
/// a user's test target: `traces/flick.jsonl` beside the test file, goldens in `golden/`.
final class PanelTraceCheckTests: XCTestCase {
    /// The repository root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let corpusTrace = "flicks/flick-d1-half-to-full-1500"

    var base = ""

    override func setUpWithError() throws {
        base = try Self.temporaryTraces(copying: "traces/\(Self.corpusTrace).jsonl", as: "flick.jsonl")
    }

    /// A new temporary folder holding `traces/NAME`, a copy of the repository's file `path`.
    static func temporaryTraces(copying path: String, as name: String) throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panelsim-testing-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: base + "/traces", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository + "/" + path, toPath: base + "/traces/" + name)
        return base
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: base)
    }

    /// A developer machine: no `CI`, no `PANELSIM_RECORD`.
    let local: [String: String] = [:]
    var goldenPath: String { base + "/golden/flick.golden.jsonl" }

    func evaluate(
        _ trace: String = "traces/flick.jsonl", golden: String? = nil, tolerances: [String] = [],
        record: RecordMode? = nil, simulation: SimulationOptions = SimulationOptions(),
        env: [String: String] = [:]
    ) -> PanelTraceOutcome {
        PanelTraceCheck.evaluate(
            trace: trace, baseFolder: base, golden: golden, tolerances: tolerances, record: record,
            simulation: simulation, environment: env)
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Moves every frame location of the golden by `points` (the "nudged by 3 pt" golden).
    func nudgeGolden(by points: Double) throws {
        let lines = try read(goldenPath).split(separator: "\n", omittingEmptySubsequences: false).map {
            line -> String in
            guard line.contains("\"frame\""),
                let r = line.range(of: #""location": [0-9.]+"#, options: .regularExpression)
            else {
                return String(line)
            }
            let value = Double(line[r].dropFirst("\"location\": ".count))! + points
            return line.replacingCharacters(in: r, with: "\"location\": \(CanonicalNumber.format(value))")
        }
        try lines.joined(separator: "\n").write(toFile: goldenPath, atomically: true, encoding: .utf8)
    }

    /// The README's first test, then its "Options" call as written. The options call names a
    /// golden of its own (sharing the first call's would fail on `header differs: expected
    /// simulator defaults, actual simulator driveScroll`), so it records once and then passes,
    /// like the first.
    func testTheReadmeExamplesPassAsWritten() throws {
        XCTAssertEqual(evaluate("traces/flick.jsonl", env: local).status, .new)
        XCTAssertEqual(evaluate("traces/flick.jsonl", env: local).status, .pass)
        func options(_ golden: String) -> PanelTraceOutcome {
            evaluate(
                "traces/flick.jsonl", golden: golden, tolerances: ["location=0.01", "velocity=abs:1e-6,rel:1e-5"],
                record: .missing, simulation: .init(driveScroll: true), env: local)
        }
        XCTAssertEqual(options("golden/flick-drive-scroll.golden.jsonl").status, .new)
        XCTAssertEqual(options("golden/flick-drive-scroll.golden.jsonl").status, .pass)
        // The first call's golden is another simulator mode's: why the README gives the call its own.
        let shared = options("golden/flick.golden.jsonl")
        XCTAssertEqual(shared.status, .fail)
        XCTAssertTrue(
            shared.lines.contains("  header differs: expected simulator defaults, actual simulator driveScroll"),
            shared.lines.joined(separator: "\n"))
        let readme = try read(Self.repository + "/README.md")
        XCTAssertTrue(
            readme.contains(#"golden: "golden/flick-drive-scroll.golden.jsonl","#), "the README's Options snippet")
    }

    /// `record: .pending` (and `PANELSIM_RECORD=pending`) leaves the golden alone and
    /// writes the actual result beside it; the assertion fails and says how to accept it.
    func testPendingModeWritesBesideTheGolden() throws {
        XCTAssertEqual(evaluate(env: local).status, .new)
        try nudgeGolden(by: 3)
        let nudged = try read(goldenPath)
        let outcome = evaluate(env: ["PANELSIM_RECORD": "pending"])
        XCTAssertEqual(outcome.status, .fail)
        XCTAssertEqual(outcome.recordMode, .pending)
        XCTAssertFalse(outcome.wroteGolden)
        XCTAssertEqual(try read(goldenPath), nudged)
        XCTAssertTrue(FileManager.default.fileExists(atPath: goldenPath + ".new"))
        let message = try XCTUnwrap(outcome.failureMessage)
        // Every path is absolute: the command works pasted in any folder.
        XCTAssertTrue(
            message.contains("the golden is untouched; the actual result is pending in \(goldenPath).new"), message)
        XCTAssertTrue(message.contains("panelsim accept \(goldenPath).new"), message)
        // The accept command is given once, the reject command once.
        XCTAssertEqual(message.components(separatedBy: "panelsim accept ").count, 2, message)
        XCTAssertEqual(message.components(separatedBy: "panelsim reject ").count, 2, message)
        // Accepting it (a rename) makes the assertion pass.
        XCTAssertEqual(rename(goldenPath + ".new", goldenPath), 0)
        XCTAssertEqual(evaluate(record: .pending, env: local).status, .pass)
    }

    /// The record rule: a golden this call writes passes, as `check` counts it.
    func testFirstRunRecordsTheGoldenAndPasses() throws {
        let first = evaluate(env: local)
        XCTAssertEqual(first.status, .new)
        XCTAssertTrue(first.wroteGolden)
        XCTAssertEqual(first.recordMode, .missing)
        // The golden is the committed corpus golden of the same trace file, byte for byte.
        XCTAssertEqual(try read(goldenPath), try read(Self.repository + "/golden/\(Self.corpusTrace).golden.jsonl"))
        XCTAssertEqual(first.actualResult, try read(goldenPath))
        XCTAssertEqual(first.lines, ["NEW \(base)/traces/flick.jsonl (golden written)"])
        XCTAssertNil(first.failureMessage)
        XCTAssertTrue(first.passed)

        let second = evaluate(env: local)
        XCTAssertEqual(second.status, .pass)
        XCTAssertNil(second.failureMessage)
        XCTAssertFalse(second.wroteGolden)
        XCTAssertEqual(second.lines, ["PASS \(base)/traces/flick.jsonl"])
        XCTAssertNil(second.htmlReport)
    }

    func testNudgedGoldenFailsWithCheckText() throws {
        XCTAssertEqual(evaluate(env: local).status, .new)
        try nudgeGolden(by: 3)
        let before = try read(goldenPath)
        let outcome = evaluate(env: local)
        XCTAssertEqual(outcome.status, .fail)
        XCTAssertFalse(outcome.wroteGolden)
        XCTAssertEqual(try read(goldenPath), before, "missing mode never rewrites a failing golden")
        let message = try XCTUnwrap(outcome.failureMessage)
        for fragment in [
            "FAIL \(base)/traces/flick.jsonl\n", "  first divergence at record ", ": location\n", "(|error| 3)",
            "  max error per channel:", "    location       3 at record", "  context (- golden, + actual):",
            "  golden: \(goldenPath).", "PANELSIM_RECORD=failed",
        ] {
            XCTAssertTrue(message.contains(fragment), "«\(fragment)» missing from:\n\(message)")
        }
        // The lines are exactly what `panelsim check` prints for the trace (given by its absolute path).
        let out = StringSink()
        let err = StringSink()
        let code = PanelSimCommand.run(
            arguments: ["check", base + "/traces", "--record", "never"], environment: [:], stdout: out, stderr: err,
            workingDirectory: base)
        XCTAssertEqual(code, 1)
        // `check` adds one line after the report naming the golden and its accept command (the
        // message says the same in the test's terms).
        var printed = out.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let accept =
            "  golden: \(goldenPath); if the new behavior is right, rewrite it with panelsim check \(base)/traces/flick.jsonl --record failed"
        let acceptIndex = try XCTUnwrap(printed.firstIndex { $0.hasPrefix(accept) }, out.text)
        printed.remove(at: acceptIndex)
        XCTAssertEqual(
            printed.joined(separator: "\n"), (outcome.lines + ["0 passed, 1 failed"]).joined(separator: "\n") + "\n")
        XCTAssertTrue(message.hasPrefix(outcome.lines.joined(separator: "\n") + "\n"))
        // The HTML report shows the failure report; the actual result is what a golden would hold.
        let html = try XCTUnwrap(outcome.htmlReport)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"), String(html.prefix(40)))
        XCTAssertTrue(html.contains("first divergence"))
        XCTAssertNotEqual(outcome.actualResult, before)
    }

    func testCIWithoutGoldenFailsAndWritesNothing() throws {
        let outcome = evaluate(env: ["CI": "true"])
        XCTAssertEqual(outcome.status, .missing)
        XCTAssertEqual(outcome.recordMode, .never)
        XCTAssertFalse(outcome.wroteGolden)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: base + "/golden"), "nothing is written, not even the folder")
        let message = try XCTUnwrap(outcome.failureMessage)
        XCTAssertTrue(message.hasPrefix("MISSING \(base)/traces/flick.jsonl (no golden)\n"), message)
        XCTAssertTrue(
            message.contains("no golden at \(goldenPath); nothing was written in record mode never (CI is set)"),
            message)
        XCTAssertTrue(message.contains("PANELSIM_RECORD=missing"), message)
        XCTAssertNotNil(outcome.htmlReport)
    }

    func testAdviceUnderTheRecordArgumentNamesTheArgument() throws {
        // The argument wins over PANELSIM_RECORD, so the message must not send the user there.
        let missing = try XCTUnwrap(evaluate(record: .never, env: ["PANELSIM_RECORD": "missing"]).failureMessage)
        XCTAssertTrue(missing.contains("nothing was written in record mode never (the record: argument)."), missing)
        XCTAssertTrue(missing.contains("To record it, pass record: .missing in this call once"), missing)
        XCTAssertFalse(missing.contains("PANELSIM_RECORD=missing"), missing)

        XCTAssertEqual(evaluate(env: local).status, .new)
        try nudgeGolden(by: 3)
        let failed = try XCTUnwrap(evaluate(record: .missing, env: local).failureMessage)
        XCTAssertTrue(failed.contains("rewrite the golden: pass record: .failed in this call once"), failed)
        XCTAssertFalse(failed.contains("PANELSIM_RECORD=failed"), failed)
        // Chosen by the environment, the advice names the environment variable.
        let byEnvironment = try XCTUnwrap(evaluate(env: ["PANELSIM_RECORD": "never"]).failureMessage)
        XCTAssertTrue(byEnvironment.contains("run this test once with PANELSIM_RECORD=failed"), byEnvironment)
    }

    func testRecordModeFollowsCheckRules() throws {
        // The argument wins over the environment.
        XCTAssertEqual(evaluate(record: .never, env: ["PANELSIM_RECORD": "all"]).status, .missing)
        XCTAssertTrue(
            try XCTUnwrap(evaluate(record: .never, env: [:]).failureMessage).contains(
                "record mode never (the record: argument)"))
        // PANELSIM_RECORD wins over CI.
        let recorded = evaluate(env: ["PANELSIM_RECORD": "missing", "CI": "1"])
        XCTAssertEqual(recorded.status, .new)
        XCTAssertEqual(recorded.recordMode, .missing)
        XCTAssertTrue(recorded.passed)
        // CI=false and an empty PANELSIM_RECORD count as unset.
        XCTAssertEqual(evaluate(env: ["CI": "false", "PANELSIM_RECORD": ""]).recordMode, .missing)
        // failed rewrites a failing golden, and the rewrite passes (the record rule).
        try nudgeGolden(by: 3)
        let rewritten = evaluate(env: ["PANELSIM_RECORD": "failed"])
        XCTAssertEqual(rewritten.status, .updated)
        XCTAssertTrue(rewritten.wroteGolden)
        XCTAssertEqual(try read(goldenPath), rewritten.actualResult)
        XCTAssertNil(rewritten.failureMessage)
        XCTAssertEqual(evaluate(env: ["PANELSIM_RECORD": "failed"]).status, .pass)
        // all rewrites only when the bytes would change: a pass stays a pass.
        XCTAssertEqual(evaluate(record: .all, env: [:]).status, .pass)
        // An invalid mode is an error naming its source.
        let invalid = evaluate(env: ["PANELSIM_RECORD": "sometimes"])
        XCTAssertEqual(invalid.status, .error)
        XCTAssertNil(invalid.recordMode)
        XCTAssertEqual(
            invalid.failureMessage,
            "ERROR \(base)/traces/flick.jsonl: invalid record mode 'sometimes' from PANELSIM_RECORD (expected never, missing, failed, all or pending)"
        )
    }

    func testTolerancesUseCheckSyntaxAndFiles() throws {
        XCTAssertEqual(evaluate(env: local).status, .new)
        try nudgeGolden(by: 3)
        XCTAssertEqual(evaluate(tolerances: ["location=3.5"], env: local).status, .pass)
        XCTAssertEqual(evaluate(tolerances: ["location=abs:2"], env: local).status, .fail)
        let bad = evaluate(tolerances: ["speed=1"], env: local)
        XCTAssertEqual(bad.status, .error)
        XCTAssertTrue(
            try XCTUnwrap(bad.failureMessage).contains("unknown tolerance channel 'speed'"), bad.failureMessage ?? "")
        // A panelsim.tolerances file in the traces folder applies; the argument wins over it.
        try "location = 5\n".write(toFile: base + "/traces/panelsim.tolerances", atomically: true, encoding: .utf8)
        XCTAssertEqual(evaluate(env: local).status, .pass)
        XCTAssertEqual(evaluate(tolerances: ["location=1"], env: local).status, .fail)
        try "location = nope\n".write(toFile: base + "/traces/panelsim.tolerances", atomically: true, encoding: .utf8)
        XCTAssertTrue(try XCTUnwrap(evaluate(env: local).failureMessage).contains("traces/panelsim.tolerances:1:"))
    }

    func testBadInputNamesTheFile() throws {
        let missing = evaluate("traces/nope.jsonl", env: local)
        XCTAssertEqual(missing.status, .error)
        XCTAssertTrue(
            try XCTUnwrap(missing.failureMessage).hasPrefix("ERROR \(base)/traces/nope.jsonl"),
            missing.failureMessage ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/golden/nope.golden.jsonl"))

        let header = try read(base + "/traces/flick.jsonl").split(separator: "\n")[0]
        try (header + "\n{\"t\": 0, \"touch\": \"tap\", \"x\": 1, \"y\": 2}\n").write(
            toFile: base + "/traces/bad.jsonl", atomically: true, encoding: .utf8)
        let bad = evaluate("traces/bad.jsonl", env: local)
        XCTAssertEqual(bad.status, .error)
        XCTAssertTrue(
            try XCTUnwrap(bad.failureMessage).hasPrefix("ERROR \(base)/traces/bad.jsonl:2: touch:"),
            bad.failureMessage ?? "")

        // A folder where the golden should be is an error in every mode, never overwritten.
        try FileManager.default.createDirectory(atPath: goldenPath, withIntermediateDirectories: true)
        let blocked = evaluate(record: .all, env: local)
        XCTAssertEqual(blocked.status, .error)
        XCTAssertEqual(
            blocked.failureMessage,
            "ERROR \(base)/traces/flick.jsonl: cannot read the golden \(goldenPath): is a directory")

        // An unreadable golden names the golden file and line.
        try FileManager.default.removeItem(atPath: goldenPath)
        try "not json\n".write(toFile: goldenPath, atomically: true, encoding: .utf8)
        XCTAssertTrue(
            try XCTUnwrap(evaluate(env: local).failureMessage).hasPrefix(
                "ERROR \(base)/traces/flick.jsonl: unreadable golden: \(goldenPath):1:"))
    }

    func testGoldenLayoutAndOverride() throws {
        func golden(_ trace: String) -> String { TracePlace(trace: trace, golden: nil, baseFolder: "/b").goldenName }
        XCTAssertEqual(golden("traces/flick.jsonl"), "golden/flick.golden.jsonl")
        XCTAssertEqual(golden("traces/a/b.jsonl"), "golden/a/b.golden.jsonl")
        XCTAssertEqual(golden("x/traces/b.jsonl"), "x/golden/b.golden.jsonl")
        XCTAssertEqual(golden("/abs/traces/b.jsonl"), "/abs/golden/b.golden.jsonl")
        XCTAssertEqual(golden("b.jsonl"), "golden/b.golden.jsonl")
        XCTAssertEqual(golden("rec/b.jsonl"), "rec/golden/b.golden.jsonl")
        XCTAssertEqual(golden("/rec/b.jsonl"), "/rec/golden/b.golden.jsonl")
        let place = TracePlace(trace: "traces/a/b.jsonl", golden: nil, baseFolder: "/b")
        XCTAssertEqual(place.goldenPath, "/b/golden/a/b.golden.jsonl")
        XCTAssertEqual(place.tracePath, "/b/traces/a/b.jsonl")
        XCTAssertEqual(place.toleranceRoot, "/b/traces")
        XCTAssertEqual(place.relativeToToleranceRoot, "a/b.jsonl")
        XCTAssertEqual(TracePlace(trace: "b.jsonl", golden: nil, baseFolder: "/b").toleranceRoot, "/b")

        let chosen = evaluate(golden: "expected/flick.result.jsonl", env: local)
        XCTAssertEqual(chosen.status, .new)
        XCTAssertTrue(FileManager.default.fileExists(atPath: base + "/expected/flick.result.jsonl"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: goldenPath))
        XCTAssertEqual(chosen.goldenName, "expected/flick.result.jsonl")
    }

    func testSimulatorOptionsAreRecordedAndCompared() throws {
        XCTAssertEqual(evaluate(env: local).status, .new)
        let other = evaluate(simulation: SimulationOptions(driveScroll: true), env: local)
        XCTAssertEqual(other.status, .fail, "a golden of the default mode fails against a driveScroll replay")
        XCTAssertTrue(try XCTUnwrap(other.failureMessage).contains("header differs"), other.failureMessage ?? "")
        XCTAssertTrue(
            try XCTUnwrap(other.actualResult).hasPrefix("{")
                && other.actualResult!.contains("\"simulator\": [\"driveScroll\"]"))
    }

    func testFolderFromFilePath() {
        XCTAssertEqual(PanelTestPaths.folder(ofFile: "/a/b/T.swift"), "/a/b")
        XCTAssertEqual(PanelTestPaths.folder(ofFile: "/T.swift"), "/")
        XCTAssertEqual(PanelTestPaths.resolve("traces/x.jsonl", against: "/a"), "/a/traces/x.jsonl")
        XCTAssertEqual(PanelTestPaths.resolve("/t/x.jsonl", against: "/a"), "/t/x.jsonl")
    }
}

/// `PanelTraceCheck.evaluate(profile:)` on a copy of the LN-G1 gate trace (an `automatic` popup,
/// its header naming lnpopup 4.5.4) in a temporary `traces/` folder: where the golden goes, the
/// point in its header, and the refusals.
final class PanelTraceCheckProfileTests: XCTestCase {
    var base = ""
    override func setUpWithError() throws {
        base = try PanelTraceCheckTests.temporaryTraces(
            copying: "traces/profiles/lnpopup/gates/ln-g1-automatic-style.4.5.4.jsonl", as: "popup.jsonl")
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: base) }

    func evaluate(_ profile: String?, golden: String? = nil, record: RecordMode = .missing) -> PanelTraceOutcome {
        PanelTraceCheck.evaluate(
            trace: "traces/popup.jsonl", baseFolder: base, golden: golden, record: record,
            profile: profile, environment: [:])
    }

    func testTheGoldenLivesWhereCheckLooksAndRecordsThePoint() throws {
        let recorded = evaluate("lnpopup@4.5.5")
        XCTAssertEqual(recorded.status, .new, recorded.lines.joined(separator: "\n"))
        XCTAssertEqual(recorded.goldenPath, base + "/golden/popup.golden.jsonl")
        XCTAssertEqual(recorded.goldenPath, evaluate(nil, record: .never).goldenPath)
        let header = try XCTUnwrap(
            String(contentsOfFile: recorded.goldenPath, encoding: .utf8).split(separator: "\n").first)
        XCTAssertTrue(header.contains(#""profile": {"library": "lnpopup", "point": "4.5.4"}"#), String(header))
        // 4.5.4 and 4.5.5 are one point (PI3); 4.5.6 is another.
        XCTAssertEqual(evaluate("lnpopup@4.5.4", record: .never).status, .pass)
        let other = evaluate("lnpopup@4.5.6", record: .never)
        XCTAssertEqual(other.status, .fail)
        XCTAssertNotNil(other.failureMessage)
        // Per-version goldens side by side, as `check --profile … --golden DIR` keeps them.
        XCTAssertEqual(evaluate("lnpopup@4.5.6", golden: "golden-4.5.6/popup.golden.jsonl").status, .new)
        XCTAssertEqual(
            evaluate("lnpopup@4.5.6", golden: "golden-4.5.6/popup.golden.jsonl", record: .never).status, .pass)
    }

    func testRefusalsAreErrorsAndWriteNothing() throws {
        for (profile, text) in [
            ("lnpopup@4.5.3", "popup.interactionStyle: automatic needs lnpopup 4.5.4 (not in 4.5.3)"),
            ("lnpopup@4.5.7", "after the ceiling 4.5.6.1"),
            ("floatingpanel@2.8.1", "the trace is a lnpopup trace, not floatingpanel"),
            ("popup@1.0", "unknown library \"popup\""),
        ] {
            let outcome = evaluate(profile)
            XCTAssertEqual(outcome.status, .error, profile)
            XCTAssertTrue(
                outcome.failureMessage?.contains(text) ?? false, "\(profile): \(outcome.failureMessage ?? "passed")")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: base + "/golden"))
    }
}
