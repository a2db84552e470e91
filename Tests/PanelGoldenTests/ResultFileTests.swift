import XCTest
import PanelGolden
import PanelSimCore
import PanelTrace

/// A small result covering every record shape.
enum Fixtures {
    static let header = ResultHeader(
        trace: "handoff-at-content-top",
        traceDigest: "sha256:" + String(repeating: "ab", count: 32),
        frameRate: 120, displayScale: 3)

    static let records: [ResultRecord] = [
        .event(time: 0, .didChangeState(state: "half")),
        .event(time: 0, .didMove(location: 412.5)),
        .frame(
            FrameRecord(
                index: 0, location: 412.5, state: "half", backdropAlpha: 0, isAttracting: false, isDragging: false)),
        .event(time: 208_333, .shouldBeginDragging(result: true)),
        .event(time: 208_333, .willBeginDragging(state: "full")),
        .frame(
            FrameRecord(
                index: 25, location: 100, state: "full", backdropAlpha: 0.3, contentOffset: 0,
                isAttracting: false, isDragging: true)),
        .event(time: 500_000, .willEndDragging(velocity: Point(x: 0, y: 600), proposed: "half", target: "half")),
        .event(time: 500_000, .didEndDragging(willAttract: true)),
        .event(time: 500_000, .willBeginAttracting(to: "half")),
        .event(time: 500_000, .didChangeState(state: "half")),
        .frame(
            FrameRecord(
                index: 60, location: 333.6666666666667, state: "half", backdropAlpha: 0.15,
                contentOffset: -2.5, isAttracting: true, isDragging: false)),
        .event(time: 858_333, .didEndAttracting),
        .event(time: 900_000, .shouldRemove(velocity: Point(x: 0, y: 6.25), result: false)),
        .event(time: 1_000_000, .willRemove),
        .event(time: 1_000_000, .didRemove),
    ]

    static var document: ResultDocument { ResultDocument(header: header, records: records) }
}

final class ResultFileTests: XCTestCase {
    func testContractLines() {
        let text = ResultFile.render(Fixtures.document)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.count, Fixtures.records.count + 2)  // header + records + "" after the final \n
        XCTAssertEqual(lines.last, "")
        XCTAssertEqual(
            lines[0],
            #"{"format": "panelsim-result", "version": 1, "trace": "handoff-at-content-top", "traceDigest": "sha256:\#(String(repeating: "ab", count: 32))", "engine": "panelsim 0.1.0", "frameRate": 120, "displayScale": 3}"#
        )
        let expected = [
            #"{"t": 0.000000, "event": "didChangeState", "state": "half"}"#,
            #"{"t": 0.000000, "event": "didMove", "location": 412.5}"#,
            #"{"t": 0.000000, "frame": 0, "location": 412.5, "state": "half", "backdropAlpha": 0, "isAttracting": false, "isDragging": false}"#,
            #"{"t": 0.208333, "event": "shouldBeginDragging", "result": true}"#,
            #"{"t": 0.208333, "event": "willBeginDragging", "state": "full"}"#,
            #"{"t": 0.208333, "frame": 25, "location": 100, "state": "full", "backdropAlpha": 0.3, "contentOffset": 0, "isAttracting": false, "isDragging": true}"#,
            #"{"t": 0.500000, "event": "willEndDragging", "velocity": {"x": 0, "y": 600}, "proposed": "half", "target": "half"}"#,
            #"{"t": 0.500000, "event": "didEndDragging", "willAttract": true}"#,
            #"{"t": 0.500000, "event": "willBeginAttracting", "to": "half"}"#,
            #"{"t": 0.500000, "event": "didChangeState", "state": "half"}"#,
            #"{"t": 0.500000, "frame": 60, "location": 333.6666666666667, "state": "half", "backdropAlpha": 0.15, "contentOffset": -2.5, "isAttracting": true, "isDragging": false}"#,
            #"{"t": 0.858333, "event": "didEndAttracting"}"#,
            #"{"t": 0.900000, "event": "shouldRemove", "velocity": {"x": 0, "y": 6.25}, "result": false}"#,
            #"{"t": 1.000000, "event": "willRemove"}"#,
            #"{"t": 1.000000, "event": "didRemove"}"#,
        ]
        XCTAssertEqual(Array(lines[1..<(lines.count - 1)]), expected)
    }

    func testFrameTimeUsesHeaderFrameRate() {
        let f = ResultRecord.frame(
            FrameRecord(index: 1, location: 0, state: "tip", backdropAlpha: 0, isAttracting: false, isDragging: false))
        XCTAssertTrue(ResultFile.line(for: f, frameRate: 60).hasPrefix(#"{"t": 0.016667, "frame": 1,"#))
        XCTAssertTrue(ResultFile.line(for: f, frameRate: 120).hasPrefix(#"{"t": 0.008333, "frame": 1,"#))
    }

    func testRoundTrip() throws {
        let text = ResultFile.render(Fixtures.document)
        let back = try ResultFile.read(text: text, file: "x.golden.jsonl")
        XCTAssertEqual(back, Fixtures.document)
        XCTAssertEqual(ResultFile.render(back), text)
    }

    /// Non-default simulator options are written in the header (and only then), read back, and a
    /// golden of one mode does not pass for a replay of another.
    func testSimulatorOptionsInTheHeader() throws {
        var doc = Fixtures.document
        doc.header.simulator = ["driveScroll", "panelHandlerFirst"]
        let text = ResultFile.render(doc)
        XCTAssertTrue(
            text.hasPrefix(
                #"{"format": "panelsim-result", "version": 1, "trace": "handoff-at-content-top", "traceDigest": "sha256:\#(String(repeating: "ab", count: 32))", "simulator": ["driveScroll", "panelHandlerFirst"], "engine": "panelsim 0.1.0","#
            ), text)
        XCTAssertEqual(try ResultFile.read(text: text, file: "x.golden.jsonl"), doc)
        XCTAssertFalse(ResultFile.render(Fixtures.document).contains("simulator"))
        let c = Comparator.compare(expected: Fixtures.document, actual: doc)
        XCTAssertEqual(c.firstDivergence?.channel, .header)
        XCTAssertEqual(c.firstDivergence?.expected, "simulator defaults")
        XCTAssertEqual(c.firstDivergence?.actual, "simulator driveScroll, panelHandlerFirst")
        XCTAssertThrowsError(
            try ResultFile.read(
                text: text.replacingOccurrences(of: #"["driveScroll", "panelHandlerFirst"]"#, with: "1"),
                file: "x.golden.jsonl"))
    }

    func testRoundTripRandomNumbers() throws {
        var rng = SplitMix64(seed: 7)
        var records: [ResultRecord] = []
        for k in 0..<2000 {
            let x = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (rng.next() % 2 == 0 ? 1 : -1)
            records.append(
                .frame(
                    FrameRecord(
                        index: k, location: x, state: "s\(k % 3)",
                        backdropAlpha: Double(rng.next() >> 11) / Double(1 << 53),
                        contentOffset: k % 2 == 0 ? nil : x / 3,
                        isAttracting: k % 5 == 0, isDragging: k % 7 == 0)))
            records.append(.event(time: Int64(k) * 8_333 + 1, .didMove(location: x)))
        }
        let doc = ResultDocument(header: Fixtures.header, records: records)
        let back = try ResultFile.read(text: ResultFile.render(doc), file: "r")
        XCTAssertEqual(back, doc)
    }

    func testEscapedNames() throws {
        var header = Fixtures.header
        header.trace = "quote \" backslash \\ tab \t newline \n bell \u{07} é"
        XCTAssertEqual(ResultFile.quoted(header.trace), #""quote \" backslash \\ tab \t newline \n bell \u0007 é""#)
        let doc = ResultDocument(header: header, records: [.event(time: 0, .didChangeState(state: "a\"b"))])
        XCTAssertEqual(try ResultFile.read(text: ResultFile.render(doc), file: "r"), doc)
    }

    func testBlankLinesIgnoredAndKeyOrderFree() throws {
        let text =
            ResultFile.headerLine(Fixtures.header) + "\n\n"
            + #"{"event": "didMove", "location": 1.5, "t": 0.25}"# + "\n  \n"
        let doc = try ResultFile.read(text: text, file: "r")
        XCTAssertEqual(doc.records, [.event(time: 250_000, .didMove(location: 1.5))])
    }

    func testNullReadsAsNaN() throws {
        let text =
            ResultFile.headerLine(Fixtures.header) + "\n" + #"{"t": 0, "event": "didMove", "location": null}"# + "\n"
        let doc = try ResultFile.read(text: text, file: "r")
        guard case .event(_, .didMove(let x)) = doc.records[0] else { return XCTFail() }
        XCTAssertTrue(x.isNaN)
    }

    private func assertReadError(
        _ body: String, line: Int, contains fragment: String,
        file: StaticString = #filePath, fileLine: UInt = #line
    ) {
        let text = ResultFile.headerLine(Fixtures.header) + "\n" + body
        do {
            _ = try ResultFile.read(text: text, file: "g.golden.jsonl")
            XCTFail("no error for \(body)", file: file, line: fileLine)
        } catch {
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: fileLine)
            XCTAssertTrue(
                error.description.hasPrefix("g.golden.jsonl:\(line): "), error.description, file: file, line: fileLine)
            XCTAssertTrue(
                error.message.contains(fragment), "\(error.message) lacks \(fragment)", file: file, line: fileLine)
        }
    }

    func testReadErrorsCarryLineNumbers() {
        let ok = #"{"t": 0, "event": "didEndAttracting"}"# + "\n"
        assertReadError(ok + "{\"t\": 0, \n", line: 3, contains: "column")
        assertReadError(ok + #"{"t": 0, "event": "didFly"}"# + "\n", line: 3, contains: "unknown event \"didFly\"")
        assertReadError(#"{"t": 0, "event": "didMove"}"#, line: 2, contains: "missing field \"location\"")
        assertReadError(#"{"t": 0, "event": "didEndDragging", "willAttract": 1}"#, line: 2, contains: "willAttract")
        assertReadError(
            #"{"t": 0.5, "frame": 1, "location": 0, "state": "tip", "backdropAlpha": 0, "isAttracting": false, "isDragging": false}"#,
            line: 2, contains: "does not match frame 1")
        assertReadError(#"{"t": 0, "location": 3}"#, line: 2, contains: "\"event\" or \"frame\"")
        // Frame indices whose time would overflow 64-bit µs (where `frameTime` would trap) or
        // that are negative.
        // Times beyond 2·10⁸ s or negative: the comparator subtracts two files' times.
        assertReadError(
            #"{"t": -9223372036854.775, "event": "didRemove"}"#, line: 2,
            contains: "field \"t\" must be a time in 0…200000000 s, got -9223372036854.775000")
        assertReadError(
            #"{"t": 200000000.000001, "event": "didRemove"}"#, line: 2,
            contains: "field \"t\" must be a time in 0…200000000 s")
        for index in ["161675914819328", "4611686018427387", "-1"] {
            assertReadError(
                #"{"t": 0, "frame": "# + index
                    + #", "location": 0, "state": "tip", "backdropAlpha": 0, "isAttracting": false, "isDragging": false}"#,
                line: 2, contains: "field \"frame\" must be an integer in 0…2000000000000, got \(index)")
        }
        assertReadError(#"[1, 2]"#, line: 2, contains: "object")
        assertReadError(#"{"t": "soon", "event": "didRemove"}"#, line: 2, contains: "\"t\"")
        assertReadError(
            #"{"t": 0, "event": "shouldRemove", "velocity": {"x": 0}, "result": true}"#, line: 2, contains: "\"y\"")
    }

    func testHeaderErrors() {
        XCTAssertThrowsError(try ResultFile.read(text: "\n\n", file: "e")) { error in
            XCTAssertTrue("\(error)".contains("empty result file"))
        }
        XCTAssertThrowsError(try ResultFile.read(text: #"{"format": "panelsim-trace", "version": 1}"#, file: "e")) {
            error in
            XCTAssertEqual((error as? ResultFileError)?.line, 1)
            XCTAssertTrue("\(error)".contains("not a result file"))
        }
    }

    /// An error quoting a key with an escaped line break stays on one line.
    func testErrorsStayOnOneLine() {
        // A carriage return, and a line feed (a key `ev\nt` followed by a NUL byte, as the result
        // fuzz target writes it).
        for escape in [#"\r"#, #"\n"#] {
            let text = #"{"fo"# + escape + #"mat": 1 f}"# + "\n"
            XCTAssertThrowsError(try ResultFile.read(text: text, file: "g")) { error in
                let description = "\(error)"
                XCTAssertFalse(description.contains("\r") || description.contains("\n"), description.debugDescription)
                XCTAssertTrue(description.hasPrefix("g:1: "), description)
                XCTAssertTrue(description.contains("fo" + escape + "mat"), description)
            }
        }
    }

    func testHeaderFrameRateIsBounded() {
        for rate in ["0", "10001", "4611686018427387"] {
            let text =
                #"{"format": "panelsim-result", "version": 1, "trace": "x", "traceDigest": "sha256:0", "engine": "e", "frameRate": "#
                + rate + #", "displayScale": 3}"# + "\n"
                + #"{"t": 1, "frame": 2, "location": 0, "state": "tip", "backdropAlpha": 0, "isAttracting": false, "isDragging": false}"#
                + "\n"
            XCTAssertThrowsError(try ResultFile.read(text: text, file: "g")) { error in
                XCTAssertEqual(
                    "\(error)",
                    "g:1: frameRate must be an integer in 1…10000 (a trace's environment.frameRate), got \(rate)")
            }
        }
    }

    func testOtherVersionReadsHeaderOnly() throws {
        let text =
            #"{"format": "panelsim-result", "version": 2, "trace": "x", "newField": [1]}"# + "\n"
            + #"{"some": "future record"}"# + "\n"
        let doc = try ResultFile.read(text: text, file: "v2")
        XCTAssertEqual(doc.header.version, 2)
        XCTAssertEqual(doc.header.trace, "x")
        XCTAssertEqual(doc.records, [])
        XCTAssertEqual(try ResultFile.readHeader(text: text, file: "v2").version, 2)
    }
}
