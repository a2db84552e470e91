import XCTest
@testable import PanelSimCLI
import PanelGolden
import PanelSimCore
import PanelTrace

/// Commands with the real loader (`TraceLoader`) and the real `simulate`. Tests marked PENDING
/// skip themselves while `simulate` is the stub that returns no records.
final class LiveCommandTests: CLITestCase {
    static let header =
        #"{"format": "panelsim-trace", "version": 1, "name": "flick-to-full", "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": {"absoluteInset": 18, "edge": "top", "referenceGuide": "safeArea"}, "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}}}"#

    static let trace =
        header + "\n" + """
            {"t": 0.000, "touch": "began", "x": 195, "y": 600}
            {"t": 0.016, "touch": "moved", "x": 195, "y": 580}
            {"t": 0.033, "touch": "moved", "x": 195, "y": 540}
            {"t": 0.050, "touch": "moved", "x": 195, "y": 480}
            {"t": 0.066, "touch": "ended", "x": 195, "y": 440, "velocity": {"x": 0, "y": -2400}}
            {"t": 1.500, "end": true}

            """

    /// True while `simulate` is the stub (no records at all).
    private var simulatorPending: Bool {
        let loaded = try? TraceLoader.parse(text: Self.trace, file: "t.jsonl")
        return loaded.map { simulate($0).records.isEmpty } ?? true
    }

    func testReplayTwiceIsByteIdentical() throws {
        try write(Self.trace, "traces/flick.jsonl")
        let first = run(["replay", "traces/flick.jsonl"])
        let second = run(["replay", "traces/flick.jsonl"])
        XCTAssertEqual(first.code, 0, first.stderr)
        XCTAssertEqual(first.stdout, second.stdout)
        XCTAssertTrue(
            first.stdout.hasPrefix(
                #"{"format": "panelsim-result", "version": 1, "trace": "flick-to-full", "traceDigest": "sha256:"#))
        XCTAssertTrue(
            first.stdout.contains(#", "engine": "panelsim 0.1.0", "frameRate": 120, "displayScale": 3}"# + "\n"))
        // -o writes the same bytes, atomically, creating directories.
        XCTAssertEqual(run(["replay", "traces/flick.jsonl", "-o", "out/r.jsonl"]).code, 0)
        XCTAssertEqual(read("out/r.jsonl"), first.stdout)
        XCTAssertEqual(allFiles(), ["out/r.jsonl", "traces/flick.jsonl"])
        // The output reads back and equals itself under the comparator.
        let doc = try ResultFile.read(text: first.stdout, file: "r")
        XCTAssertTrue(Comparator.compare(expected: doc, actual: doc).passed)
    }

    func testReplayResultHasPresentationAndFrames() throws {
        try XCTSkipIf(simulatorPending, "PENDING: simulate() is still a stub")
        try write(Self.trace, "traces/flick.jsonl")
        let r = run(["replay", "traces/flick.jsonl"])
        let doc = try ResultFile.read(text: r.stdout, file: "r")
        // trace-format.md §2: a presented trace starts with didChangeState then didMove at t = 0.
        guard doc.records.count >= 2, case .event(0, .didChangeState(state: "half")) = doc.records[0],
            case .event(0, .didMove) = doc.records[1]
        else {
            return XCTFail("no presentation records: \(r.stdout.prefix(500))")
        }
        XCTAssertTrue(doc.records.contains { if case .frame = $0 { return true } else { return false } })
        XCTAssertTrue(
            doc.records.contains { if case .event(_, .willEndDragging) = $0 { return true } else { return false } })
    }

    func testReplayBadTraceIsOneLineOnStderr() throws {
        try write(Self.header + "\n" + #"{"t": 0, "touch": "wiggled", "x": 1, "y": 2}"# + "\n", "bad.jsonl")
        let r = run(["replay", "bad.jsonl"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.hasPrefix("bad.jsonl:2: touch: "), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)

        let missing = run(["replay", "nope.jsonl"])
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.stderr.hasPrefix("nope.jsonl: "), missing.stderr)
    }

    func testReplayUnsupportedTraceExits125() throws {
        let v2 = Self.header.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
        XCTAssertNotEqual(v2, Self.header)
        try write(v2 + "\n", "v2.jsonl")
        let r = run(["replay", "v2.jsonl"])
        XCTAssertEqual(r.code, 125, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("v2.jsonl:1: "), r.stderr)
        try write(v2 + "\n", "traces/v2.jsonl")
        let c = run(["check", "--record", "missing"])
        XCTAssertEqual(c.code, 125)
        XCTAssertTrue(c.stdout.hasPrefix("SKIP traces/v2.jsonl:1: "), c.stdout)
    }

    func testCheckEndToEndAndEditedGolden() throws {
        try write(Self.trace, "traces/flick.jsonl")
        var r = run(["check", "--record", "missing"])
        XCTAssertEqual(r.stdout, "NEW traces/flick.jsonl (golden written)\n1 passed, 0 failed (1 golden written)\n")
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(read("golden/flick.golden.jsonl"), run(["replay", "traces/flick.jsonl"]).stdout)
        r = run(["check"], env: ["CI": "true"])
        XCTAssertEqual(r.stdout, "PASS traces/flick.jsonl\n1 passed, 0 failed\n")
        XCTAssertEqual(r.code, 0)

        // Editing the golden's header is a regression.
        let golden = read("golden/flick.golden.jsonl")!
        try write(
            golden.replacingOccurrences(of: #""displayScale": 3}"#, with: #""displayScale": 2}"#),
            "golden/flick.golden.jsonl")
        r = run(["check"], env: ["CI": "true"])
        XCTAssertEqual(r.code, 1, r.stdout)
        XCTAssertTrue(r.stdout.hasPrefix("FAIL traces/flick.jsonl\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("0 passed, 1 failed\n"), r.stdout)
    }

    func testEditedGoldenFrameIsARegression() throws {
        try XCTSkipIf(simulatorPending, "PENDING: simulate() is still a stub")
        try write(Self.trace, "traces/flick.jsonl")
        XCTAssertEqual(run(["check", "--record", "missing"]).code, 0)
        let golden = read("golden/flick.golden.jsonl")!
        var lines = golden.split(separator: "\n").map(String.init)
        let index = try XCTUnwrap(lines.firstIndex { $0.contains(#""frame": 30, "location": "#) })
        let doc = try ResultFile.read(text: golden, file: "g")
        guard case .frame(let f) = doc.records[index - 1] else { return XCTFail() }
        lines[index] = lines[index].replacingOccurrences(
            of: #""location": \#(CanonicalNumber.format(f.location))"#,
            with: #""location": \#(CanonicalNumber.format(f.location + 1))"#)
        try write(lines.joined(separator: "\n") + "\n", "golden/flick.golden.jsonl")
        let r = run(["check"], env: ["CI": "1"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(
            r.stdout.contains(
                "first divergence at record \(index - 1) (line \(index + 1)), t = 0.250000 s, frame 30: location"),
            r.stdout)
    }

    func testImportCSV() throws {
        try write(Self.header + "\n", "template.json")
        try write("t_ms,phase,x_px,y_px\n0,down,10,20\n8,move,10,26\n16,up,10,26\n", "g.csv")
        let r = run([
            "import", "csv", "g.csv", "--points-per-unit", "1/2", "--template", "template.json", "-o", "traces/g.jsonl",
        ])
        XCTAssertEqual(r.code, 0, r.stderr)
        let trace = try TraceLoader.load(path: root + "/traces/g.jsonl").trace
        XCTAssertEqual(trace.header.name, "flick-to-full")  // the template's name
        let y0 =
            LayoutGeometry(panel: trace.header.panel, environment: trace.header.environment)
            .position(of: trace.header.panel.initialState) + 100
        XCTAssertEqual(
            trace.samples.map(\.kind),
            [
                .touch(TouchSample(phase: .began, location: Point(x: 195, y: y0))),
                .touch(TouchSample(phase: .moved, location: Point(x: 195, y: y0 + 3))),
                .touch(TouchSample(phase: .ended, location: Point(x: 195, y: y0 + 3))),
            ])
        XCTAssertEqual(trace.samples.map(\.time), [0, 8_000, 16_000])
        // The imported trace replays.
        XCTAssertEqual(run(["replay", "traces/g.jsonl"]).code, 0)

        // A template without a name takes the recording's name.
        try write(
            #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}}}"#
                + "\n", "t2.json")
        let out = run(["import", "csv", "g.csv", "--points-per-unit", "1", "--template", "t2.json"])
        XCTAssertEqual(out.code, 0, out.stderr)
        let t2 = try TraceLoader.parse(text: out.stdout, file: "x.jsonl")
        XCTAssertEqual(t2.header.name, "g")
        XCTAssertEqual(t2.header.source.kind, "recorded")

        // Bad CSV: the importer's one-line error, exit 2.
        try write("t_ms,phase,x_px,y_px\n0,move,1,2\n", "bad.csv")
        let bad = run(["import", "csv", "bad.csv", "--points-per-unit", "1", "--template", "template.json"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("bad.csv:2: "), bad.stderr)
    }
}
