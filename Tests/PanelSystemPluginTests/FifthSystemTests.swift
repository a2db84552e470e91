import XCTest
import Foundation
import PanelGolden
import PanelSimCLI
import PanelSimCore
import PanelSimTesting
import PanelTrace

/// A fifth panel system (`TwoDetentSheet`, defined in this test target only) registered without any
/// change to `Sources/`: the core replays it, `replay`, `check`, `diff`, `report` and
/// `assertPanelTrace` work on its traces in-process, and `soak`, `bench-corpus` and the help texts
/// find it through its command description.
final class FifthSystemTests: XCTestCase {
    static let header = #"{"format": "panelsim-trace", "version": 1, "model": "twodetent", "name": "snap-to-large", "environment": {"container": {"width": 390, "height": 844}, "displayScale": 3, "frameRate": 60}, "twoDetent": {"small": 500, "large": 100, "snapDuration": 0.25}}"#
    /// A drag from y = 600 to 380 (the sheet follows from 500 to 280), released at t = 0.2 s.
    static let trace = header + "\n" + [
        #"{"t": 0, "touch": "began", "x": 195, "y": 600}"#,
        #"{"t": 0.1, "touch": "moved", "x": 195, "y": 400}"#,
        #"{"t": 0.2, "touch": "ended", "x": 195, "y": 380}"#,
    ].joined(separator: "\n") + "\n"

    var root = ""
    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-fifth-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/traces", withIntermediateDirectories: true)
        try Self.trace.write(toFile: root + "/traces/snap.jsonl", atomically: true, encoding: .utf8)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    func run(_ args: [String]) -> (code: Int32, stdout: String, stderr: String) {
        let out = StringSink(), err = StringSink()
        let code = withTwoDetentSheet {
            PanelSimCommand.run(arguments: args, environment: ["CI": "", "NO_COLOR": "1"], stdout: out, stderr: err, workingDirectory: root)
        }
        return (code, out.text, err.text)
    }

    /// The frames follow the spec of `TwoDetentSheet` worked out by hand: the finger's 220 pt
    /// upward travel moves the sheet from 500 to 280; 280 is nearer 100 than 500, so the snap runs
    /// from 280 to 100 over 0.25 s from t₀ = 0.2 s, e.g. l(13/60 s) = 280 − 180·(1/60)/0.25 = 268.
    func testTheCoreReplaysARegisteredSystem() throws {
        let trace = try withTwoDetentSheet { try TraceLoader.parse(text: Self.trace, file: "snap.jsonl") }
        XCTAssertEqual(trace.header.model.rawValue, "twodetent")
        let result = simulate(trace)
        let frames = result.records.compactMap { r -> SystemFrame? in if case .systemFrame(let f) = r { return f } else { return nil } }
        func location(_ k: Int) -> Double? { frames.last { $0.index <= k }?.location }
        XCTAssertEqual(location(0), 500)
        XCTAssertEqual(try XCTUnwrap(location(6)), 300, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(location(12)), 280, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(location(13)), 268, accuracy: 1e-9)
        XCTAssertEqual(frames.last?.location, 100)
        XCTAssertEqual(frames.last?.state, "large")
        // The snap arrives at the first frame k with (k/60 − 0.2)/0.25 ≥ 1: k = 27 (t = 0.45 s) up to rounding.
        let events = result.records.compactMap { r -> (Microseconds, String)? in if case let .event(t, e) = r { return (t, e.name) } else { return nil } }
        XCTAssertEqual(events.map(\.1), ["didSnap"])
        let arrival = try XCTUnwrap(events.first?.0)
        XCTAssertTrue([450_000, 466_667].contains(arrival), "didSnap at \(arrival) µs")
    }

    func testTheTraceWriterRoundTripsItsHeaderAndCalls() throws {
        try withTwoDetentSheet {
            var trace = try TraceLoader.parse(text: Self.trace, file: "snap.jsonl")
            trace.samples.append(TraceSample(time: 1_000_000, kind: .systemCall(TwoDetentSnap(toLarge: false))))
            let text = TraceWriter.write(trace)
            XCTAssertTrue(text.contains(#""twoDetent": {"small": 500, "large": 100, "snapDuration": 0.25}"#), text)
            XCTAssertTrue(text.contains(#""call": "snap", "to": "small""#), text)
            XCTAssertEqual(try TraceLoader.parse(text: text, file: "round-trip.jsonl").samples.map(\.kind), trace.samples.map(\.kind))
        }
    }

    func testUnregisteredItsTracesAreErrorsNamingTheField() {
        // Its section is an unknown key, and without it its model is not a known one.
        XCTAssertThrowsError(try TraceLoader.parse(text: Self.trace, file: "snap.jsonl")) { error in
            XCTAssertEqual((error as? TraceError)?.line, 1)
            XCTAssertEqual((error as? TraceError)?.field, "twoDetent")
        }
        let bare = Self.trace.replacingOccurrences(of: #", "twoDetent": {"small": 500, "large": 100, "snapDuration": 0.25}"#, with: "")
        XCTAssertThrowsError(try TraceLoader.parse(text: bare, file: "snap.jsonl")) { error in
            XCTAssertEqual((error as? TraceError)?.line, 1)
            XCTAssertEqual((error as? TraceError)?.field, "model")
        }
    }

    func testCommandsWorkOnItsTraces() throws {
        // replay
        let replayed = run(["replay", "traces/snap.jsonl"])
        XCTAssertEqual(replayed.code, 0, replayed.stderr)
        XCTAssertTrue(replayed.stdout.contains(#""model": "twodetent""#), replayed.stdout)
        XCTAssertTrue(replayed.stdout.contains(#""didSnap""#), replayed.stdout)
        // check: record the golden, then pass against it
        let recorded = run(["check", "traces", "--golden", "golden", "--record", "missing"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/golden/snap.golden.jsonl"), recorded.stdout + recorded.stderr)
        let checked = run(["check", "traces", "--golden", "golden"])
        XCTAssertEqual(checked.code, 0, checked.stdout + checked.stderr)
        // a changed trace fails against the golden, on the location channel of its frames
        let nudged = Self.trace.replacingOccurrences(of: #""y": 380"#, with: #""y": 420"#)
        try nudged.write(toFile: root + "/traces/snap.jsonl", atomically: true, encoding: .utf8)
        let failed = run(["check", "traces", "--golden", "golden"])
        XCTAssertEqual(failed.code, 1, failed.stdout + failed.stderr)
        XCTAssertTrue(failed.stdout.contains("location"), failed.stdout)
        // diff of the golden and the new replay
        XCTAssertEqual(run(["replay", "traces/snap.jsonl", "-o", "actual.jsonl"]).code, 0)
        let diffed = run(["diff", "golden/snap.golden.jsonl", "actual.jsonl"])
        XCTAssertEqual(diffed.code, 1, diffed.stdout + diffed.stderr)
        // report: the system's own subtitle and anchors
        let reported = run(["report", "traces/snap.jsonl", "--golden", "golden/snap.golden.jsonl", "-o", "report.html"])
        XCTAssertEqual(reported.code, 1, reported.stderr)
        let html = try String(contentsOfFile: root + "/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("two-detent sheet"))
        XCTAssertTrue(html.contains(">large<") || html.contains("large"), "anchors drawn")
    }

    func testAssertPanelTraceWorksOnItsTraces() throws {
        try withTwoDetentSheet {
            let golden = root + "/golden/snap.golden.jsonl"
            XCTAssertEqual(run(["check", "traces", "--golden", "golden", "--record", "missing"]).code == 2, false)
            XCTAssertTrue(FileManager.default.fileExists(atPath: golden))
            let outcome = assertPanelTrace(root + "/traces/snap.jsonl", golden: golden, record: .never)
            XCTAssertTrue(outcome.passed, "\(outcome)")
        }
    }

    func testSoakRunsItsRegisteredSoak() throws {
        let soaked = run(["soak", "--model", "twodetent", "--count", "12", "--out", "findings"])
        XCTAssertEqual(soaked.code, 0, soaked.stdout + soaked.stderr)
        XCTAssertTrue(soaked.stdout.hasPrefix("soak: twodetent seeds 1…12: 12 traces ("), soaked.stdout)
        XCTAssertTrue(soaked.stdout.contains("rule checks: TD1 12, "), soaked.stdout)
        XCTAssertTrue(soaked.stdout.hasSuffix("no violations\n"), soaked.stdout)
        XCTAssertEqual(run(["soak", "--model", "twodetent", "--count", "12", "--jobs", "2", "--out", "findings"]).stdout, soaked.stdout)
        // A trace file of its model is checked with its checker.
        let file = run(["soak", "traces/snap.jsonl"])
        XCTAssertEqual(file.code, 0, file.stdout + file.stderr)
        XCTAssertEqual(file.stdout, "traces/snap.jsonl: no violations\n")
        // Its soak takes no profile.
        let profiled = run(["soak", "--model", "twodetent", "--profile", "floatingpanel@3.2.1"])
        XCTAssertEqual(profiled.code, 2)
        XCTAssertTrue(profiled.stderr.contains("--profile floatingpanel@3.2.1 applies to --model floatingpanel, not to --model twodetent"), profiled.stderr)
    }

    func testUnregisteredItsSoakIsUnknown() {
        let out = StringSink(), err = StringSink()
        let code = PanelSimCommand.run(arguments: ["soak", "--model", "twodetent"], environment: ["CI": "", "NO_COLOR": "1"],
                                       stdout: out, stderr: err, workingDirectory: root)
        XCTAssertEqual(code, 2)
        XCTAssertTrue(err.text.contains("--model must be one of floatingpanel, drawerkit, uisheet, lnpopup, got 'twodetent'"), err.text)
    }

    func testHelpTextsListItFromTheRegistry() throws {
        let soakHelp = run(["help", "soak"]).stdout
        XCTAssertTrue(soakHelp.contains("lnpopup or\n") || soakHelp.contains("lnpopup or twodetent"), soakHelp)
        XCTAssertTrue(soakHelp.contains("twodetent."), soakHelp)
        XCTAssertTrue(soakHelp.replacingOccurrences(of: "\n", with: " ").contains("LNPopup P1–P6, TwoDetent TD1;"), soakHelp)
        let overview = run(["--help"]).stdout.split(separator: "\n\n")[0].replacingOccurrences(of: "\n", with: " ")
        XCTAssertTrue(overview.contains("LNPopupController / LNPopupUI and a test target's two-detent sheet)"), overview)
        let bisectHelp = run(["help", "bisect"]).stdout.replacingOccurrences(of: "\n", with: " ")
        XCTAssertTrue(bisectHelp.contains("LNPopup popup, scrollView; TwoDetent twoDetent; and environment"), bisectHelp)
    }

    func testBenchCorpusWritesItsCoreWorkload() throws {
        let written = run(["bench-corpus", "corpus", "0"])
        XCTAssertEqual(written.code, 0, written.stderr)
        let text = try String(contentsOfFile: root + "/corpus/core-twodetent.jsonl", encoding: .utf8)
        XCTAssertEqual(text, TwoDetentSoak.text(drags: 50, seed: 1))
        let trace = try withTwoDetentSheet { try TraceLoader.parse(text: text, file: "core-twodetent.jsonl") }
        XCTAssertEqual(trace.samples.count, 50 * 12)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/corpus/core-drawerkit.jsonl"))
    }
}
