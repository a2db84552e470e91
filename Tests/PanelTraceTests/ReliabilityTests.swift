import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

/// Reliability on hostile input (fuzzing, malformed traces): every importer refuses at the input line what the loader would refuse, malformed
/// samples are refused with file, line, field and what was expected, the state table is linear in
/// the number of states, and importer messages blame the right field.
final class ReliabilityTests: XCTestCase {
    func assertError(
        _ body: () throws -> Void, line: Int, field: String, _ fragment: String,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: sourceLine) { error in
            guard let e = error as? TraceError else { return XCTFail("\(error)", file: file, line: sourceLine) }
            XCTAssertEqual(e.line, line, e.description, file: file, line: sourceLine)
            XCTAssertEqual(e.field, field, e.description, file: file, line: sourceLine)
            XCTAssertTrue(
                e.message.contains(fragment), "«\(e.description)» lacks «\(fragment)»", file: file, line: sourceLine)
            XCTAssertFalse(e.description.contains("\n"), file: file, line: sourceLine)
        }
    }

    static let header =
        #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}, "initialState": "half"}, "scrollView": {"frame": {"x": 0, "y": 36, "width": 390, "height": 761}, "contentSize": {"width": 390, "height": 3000}}}"#

    /// The samples as a loadable trace text, loaded back (what `replay` of an import reads).
    func writtenAndLoaded(_ samples: [TraceSample]) throws -> Trace {
        let header = try TraceLoader.parse(text: Self.header + "\n", file: "h.jsonl").header
        return try TraceLoader.parse(
            text: TraceWriter.write(Trace(header: header, samples: samples)), file: "imported.jsonl")
    }

    // MARK: - 1. Importers refuse what the loader refuses

    func testCSVImportRefusesTimesBeyondTheLoaderBound() throws {
        let placement = ImportPlacement(origin: Point(x: 195, y: 522), pointsPerUnit: 1)
        // 10^8 s after the down row is the last time the loader takes …
        let edge = "t_ms,phase,x_px,y_px\n5,down,10,10\n100000000005,move,10,12\n100000000005,up,10,12\n"
        let samples = try RealTraceCSV.importTouches(csv: edge, file: "edge.csv", placement: placement)
        XCTAssertEqual(try writtenAndLoaded(samples).samples.last?.time, TraceLoader.maxTime)
        // … one ms later is refused at its row, naming the column.
        let beyond = "t_ms,phase,x_px,y_px\n0,down,10,10\n100000000001,move,10,12\n100000000002,up,10,12\n"
        assertError(
            { _ = try RealTraceCSV.importTouches(csv: beyond, file: "big.csv", placement: placement) },
            line: 3, field: "t_ms", "within 100000000 s")
    }

    func testAxisScrollImportRefusesTimesBeyondTheLoaderBound() throws {
        let edge = "t_ms,phase,scroll_delta\n-7,scroll,1\n99999999993,scroll,1\n"
        let samples = try AxisScrollCSV.importScroll(
            csv: edge, file: "edge.csv", pointsPerUnit: 1, start: .zero, vertical: true)
        XCTAssertEqual(try writtenAndLoaded(samples).samples.last?.time, TraceLoader.maxTime)
        assertError(
            {
                _ = try AxisScrollCSV.importScroll(
                    csv: "t_ms,phase,scroll_delta\n0,scroll,1\n100000000001,scroll,1\n",
                    file: "big.csv", pointsPerUnit: 1, start: .zero, vertical: true)
            },
            line: 3, field: "t_ms", "within 100000000 s")
        // Times far apart whose difference does not fit in 64 bits: an error, not a trap.
        assertError(
            {
                _ = try AxisScrollCSV.importScroll(
                    csv: "t_ms,phase,scroll_delta\n-9000000000000000,scroll,1\n9000000000000000,scroll,1\n",
                    file: "far.csv", pointsPerUnit: 1, start: .zero, vertical: true)
            },
            line: 3, field: "t_ms", "within 100000000 s")
    }

    // MARK: - 5. Importer messages blame the right field

    func testPointerImportBlamesTimeStampForATimeOutOfRange() {
        let placement = ImportPlacement(origin: Point(x: 195, y: 522), pointsPerUnit: 1)
        let log = """
            {"type": "pointerdown", "pointerId": 1, "clientX": 10, "clientY": 10, "timeStamp": 0}
            {"type": "pointermove", "pointerId": 1, "clientX": 10, "clientY": 12, "timeStamp": 100000000001}
            """
        assertError(
            { _ = try PointerEventLog.importTouches(text: log, file: "p.jsonl", placement: placement) },
            line: 2, field: "timeStamp", "within 100000000 s of the first down")
        let backwards = """
            {"type": "pointerdown", "pointerId": 1, "clientX": 10, "clientY": 10, "timeStamp": 5}
            {"type": "pointerup", "pointerId": 1, "clientX": 10, "clientY": 12, "timeStamp": 4}
            """
        assertError(
            { _ = try PointerEventLog.importTouches(text: backwards, file: "p.jsonl", placement: placement) },
            line: 2, field: "timeStamp", "never decrease")
        let far = """
            {"type": "pointerdown", "pointerId": 1, "clientX": 10, "clientY": 10, "timeStamp": 0}
            {"type": "pointerup", "pointerId": 1, "clientX": 1000, "clientY": 12, "timeStamp": 4}
            """
        let magnified = ImportPlacement(origin: Point(x: 195, y: 522), pointsPerUnit: 1e5)
        assertError(
            { _ = try PointerEventLog.importTouches(text: far, file: "p.jsonl", placement: magnified) },
            line: 2, field: "clientX", "after scaling")
    }

    func testGeteventImportBlamesTheTimestampForATimeOutOfRange() {
        let placement = ImportPlacement(origin: Point(x: 195, y: 522), pointsPerUnit: 1)
        let log = """
            [       1.000000] EV_ABS ABS_MT_TRACKING_ID 00000001
            [       1.000000] EV_ABS ABS_MT_POSITION_X 00000010
            [       1.000000] EV_ABS ABS_MT_POSITION_Y 00000010
            [       1.000000] EV_SYN SYN_REPORT 00000000
            [       1.000000] EV_ABS ABS_MT_POSITION_Y 00000012
            [100000002.000000] EV_SYN SYN_REPORT 00000000
            """
        assertError(
            { _ = try GeteventLog.importTouches(text: log, file: "g.txt", placement: placement) },
            line: 6, field: "timestamp", "within 100000000 s of the first down")
    }

    // MARK: - 3. Malformed samples are refused with file, line, field and what was expected

    func load(_ lines: String...) throws -> Trace {
        try TraceLoader.parse(text: ([Self.header] + lines).joined(separator: "\n") + "\n", file: "m.jsonl")
    }

    func testScrollSampleWithoutContentOffsetIsRefused() throws {
        XCTAssertNoThrow(try load(#"{"t": 0.1, "scroll": {"contentOffset": {"x": 0, "y": 12}}}"#))
        assertError(
            { _ = try self.load(#"{"t": 0.1, "scroll": {"isDecelerating": true}}"#) },
            line: 2, field: "scroll.contentOffset", "missing required field (expected the content offset")
        assertError(
            { _ = try self.load(#"{"t": 0.1, "scroll": {}}"#) }, line: 2, field: "scroll.contentOffset",
            "missing required field")
        assertError(
            { _ = try self.load(#"{"t": 0.1, "scroll": {"contentOffset": null}}"#) }, line: 2,
            field: "scroll.contentOffset", "expected an object")
    }

    func testObservedBackdropAlphaOutsideZeroToOneIsRefused() throws {
        XCTAssertNoThrow(
            try load(#"{"t": 0.1, "observed": {"backdropAlpha": 1}}"#, #"{"t": 0.2, "observed": {"backdropAlpha": 0}}"#)
        )
        assertError(
            { _ = try self.load(#"{"t": 0.1, "observed": {"backdropAlpha": 2}}"#) },
            line: 2, field: "observed.backdropAlpha", "expected a number in [0, 1], got 2")
        assertError(
            { _ = try self.load(#"{"t": 0.1, "observed": {"backdropAlpha": -0.5}}"#) },
            line: 2, field: "observed.backdropAlpha", "expected a number in [0, 1], got -0.5")
    }

    /// Every other ranged sample field is checked against its stated range the same way.
    func testOtherSampleFieldsAreRangeChecked() {
        let cases: [(String, String, String)] = [
            (#"{"t": -1, "touch": "began", "x": 1, "y": 2}"#, "t", "expected a time ≥ 0 s"),
            (#"{"t": 0, "touch": "began", "id": -1, "x": 1, "y": 2}"#, "id", "expected an integer ≥ 0"),
            (#"{"t": 0, "touch": "began", "x": 1e8, "y": 2}"#, "x", "magnitude ≤ 10000000"),
            (
                #"{"t": 0, "scroll": {"contentOffset": {"x": 0, "y": 0}, "contentSize": {"width": -1, "height": 0}}}"#,
                "scroll.contentSize.width", "a number ≥ 0"
            ),
            (#"{"t": 0, "call": "setContentSize", "height": -3}"#, "height", "a number ≥ 0"),
            (#"{"t": 0, "observed": {"location": 1e9}}"#, "observed.location", "magnitude ≤ 10000000"),
            (
                #"{"t": 0, "environment": {"safeArea": {"top": -1, "left": 0, "bottom": 0, "right": 0}}}"#,
                "environment.safeArea.top", "a number ≥ 0"
            ),
            (
                #"{"t": 0, "call": "invalidateLayout", "panel": {"backdropAlpha": {"full": 1.5}}}"#,
                "panel.backdropAlpha.full", "a number in [0, 1]"
            ),
            (
                #"{"t": 0, "call": "track", "scrollView": {"frame": {"x": 0, "y": 0, "width": -1, "height": 1}, "contentSize": {"width": 1, "height": 1}}}"#,
                "scrollView.frame.width", "a number ≥ 0"
            ),
        ]
        for (line, field, fragment) in cases {
            assertError({ _ = try self.load(line) }, line: 2, field: field, fragment)
        }
    }

    // MARK: - 2. Linear in the number of states

    /// A bounded test of size, not time: building the state table of n states takes n + 4 hashed
    /// steps (the check against all earlier names took n²/2 comparisons: 5·10⁹ for 10⁵ states,
    /// 4.5·10⁶ for the 3,000 here).
    func testStateTableIsLinearInTheNumberOfStates() {
        let n = 3_000
        let states = (0..<n).map { FloatingPanelState(name: "s\($0)", order: 2000 + $0) }
        let table = StateTable(states)
        XCTAssertEqual(table.buildSteps, n + FloatingPanelState.builtIn.count)
        XCTAssertEqual(table.lookup("s2999")?.order, 2000 + 2_999)
        XCTAssertEqual(table.lookup("full"), .full)
        // Error messages list a bounded number of names.
        XCTAssertTrue(
            table.listing.hasSuffix(", … (\(n + 4 - StateTable.listedNames) more)"), String(table.listing.suffix(40)))
        XCTAssertEqual(
            StateTable([FloatingPanelState(name: "lastQuart", order: 750)]).listing,
            "full, lastQuart, half, tip, hidden")
    }

    /// The reproducers of the outside run load: 10⁵ states (each with an anchor), and 1,100
    /// states with 420 `invalidateLayout` lines.
    func testLargeStateTablesLoad() throws {
        func header(states n: Int, anchors: Bool) -> String {
            var states: [String] = []
            var anchorText: [String] = []
            for i in 0..<n {
                states.append(#"{"name": "s\#(i)", "order": \#(2000 + i)}"#)
                if anchors { anchorText.append(#""s\#(i)": {"absoluteInset": \#(100 + i % 300), "edge": "top"}"#) }
            }
            let base =
                #""full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}"#
            return
                #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"states": ["#
                + states.joined(separator: ", ") + #"], "anchors": {"# + ([base] + anchorText).joined(separator: ", ")
                + #"}, "initialState": "half"}}"#
        }
        let big = try TraceLoader.parse(
            text: header(states: 100_000, anchors: true) + "\n" + #"{"t": 0, "call": "move", "to": "s99999"}"# + "\n",
            file: "big.jsonl")
        XCTAssertEqual(big.header.panel.states.count, 100_000)
        XCTAssertEqual(big.header.panel.anchors.count, 100_003)

        var lines = [header(states: 1_100, anchors: true)]
        for k in 0..<420 {
            lines.append(
                #"{"t": \#(Double(k) / 100), "call": "invalidateLayout", "panel": {"intrinsicLength": \#(300 + k % 7)}}"#
            )
            lines.append(#"{"t": \#(Double(k) / 100), "call": "move", "to": "s\#(k)", "animated": false}"#)
        }
        let many = try TraceLoader.parse(text: lines.joined(separator: "\n") + "\n", file: "many.jsonl")
        XCTAssertEqual(many.samples.count, 840)
    }

    /// An `invalidateLayout` patch without `states` is read over the layout in force (O(patch));
    /// the result and every error are those of reading the merged layout whole.
    func testLayoutPatchesReadOverTheLayoutInForceMatchTheMergedReading() {
        let header =
            #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"states": [{"name": "lastQuart", "order": 750}, {"name": "peek", "order": 50}], "anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "peek": {"absoluteInset": 20, "edge": "bottom"}}, "initialState": "half", "backdropAlpha": {"full": 0.3, "peek": 0.1}}}"#
        let patches = [
            #"{"intrinsicLength": 300}"#, #"{"intrinsicLength": -1}"#, #"{"initialState": "peek"}"#,
            #"{"initialState": "tip"}"#,
            #"{"anchors": {"full": {"absoluteInset": 60, "edge": "top"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}}"#,
            #"{"anchors": {"lastQuart": {"fractionalInset": 0.25, "edge": "bottom"}, "half": {"absoluteInset": 300, "edge": "bottom"}}}"#,
            #"{"anchors": {"nope": {"absoluteInset": 1, "edge": "top"}}}"#, #"{"anchors": {}}"#,
            #"{"anchors": {"full": {"absoluteInset": 1, "edge": "left"}}}"#,
            #"{"backdropAlpha": {"half": 0.2}}"#, #"{"backdropAlpha": {"half": 2}}"#, #"{"backdropAlpha": {"zz": 0}}"#,
            #"{"states": [{"name": "peek", "order": 50}]}"#, #"{"states": []}"#,
            #"{"states": [{"name": "x", "order": 1}]}"#,
            #"{"behavior": {"projectsMomentumTo": ["peek", "full"]}}"#,
            #"{"behavior": {"projectsMomentumTo": ["zz"]}}"#,
            #"{"position": "top"}"#, #"{"position": "left"}"#, #"{"contentMode": "fitToBounds"}"#,
            #"{"presented": false}"#,
            #"{"grabberAreaOffset": 10, "removalInteractionEnabled": true}"#, #"{"unknown": 1}"#, #"{}"#,
        ]
        let moves = ["full", "half", "tip", "peek", "lastQuart", "hidden"]
        var rng = SplitMix64(seed: 0x19_0002)
        var loaded = 0
        var failed = 0
        for _ in 0..<600 {
            var lines = [header]
            for k in 0..<(1 + rng.below(5)) {
                if rng.below(3) == 0 {
                    lines.append(
                        #"{"t": \#(k), "call": "move", "to": "\#(moves[rng.below(moves.count)])", "animated": false}"#)
                } else {
                    lines.append(
                        #"{"t": \#(k), "call": "invalidateLayout", "panel": \#(patches[rng.below(patches.count)])}"#)
                }
            }
            let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
            func outcome(_ fast: Bool) -> Result<Trace, TraceError> {
                do throws(TraceError) {
                    return .success(try TraceLoader.parse(utf8: bytes, file: "p.jsonl", fastPath: fast))
                } catch { return .failure(error) }
            }
            let fast = outcome(true)
            let general = outcome(false)
            XCTAssertEqual(fast, general, lines.joined(separator: "\n"))
            if case .success = general { loaded += 1 } else { failed += 1 }
        }
        XCTAssertGreaterThan(loaded, 50)
        XCTAssertGreaterThan(failed, 50)
    }

    /// The recorder reads a layout change back as the loader reads it, so it refuses what the
    /// loader would refuse (such as an `invalidateLayout` with a backdrop alpha of 2, which no
    /// replay could load).
    func testRecorderRefusesLayoutChangesTheLoaderRefuses() throws {
        let header = try TraceLoader.parse(text: Self.header + "\n", file: "h.jsonl").header
        let sink = MemoryTraceSink()
        let recorder = try TraceRecorder(header: header, sink: sink, file: "rec.jsonl")
        var panel = header.panel
        panel.backdropAlpha = ["full": 2]
        XCTAssertThrowsError(try recorder.append(at: 0.1, .call(.invalidateLayout(panel)))) { error in
            let e = error as! TraceError
            XCTAssertEqual(e.description, "rec.jsonl:2: panel.backdropAlpha.full: expected a number in [0, 1], got 2")
        }
        panel.backdropAlpha = ["full": 0.5]
        try recorder.append(at: 0.1, .call(.invalidateLayout(panel)))
        try recorder.append(at: 0.2, .call(.move(to: .full, animated: false)))
        try recorder.close()
        let loaded = try TraceLoader.parse(text: String(decoding: sink.bytes, as: UTF8.self), file: "rec.jsonl")
        XCTAssertEqual(loaded.samples.count, 2)
    }
}
