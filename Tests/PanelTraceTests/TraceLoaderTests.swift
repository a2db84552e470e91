import XCTest
import PanelSimCore
@testable import PanelTrace

/// Test fixtures shared by the loader, writer and fuzz tests.
enum Fixtures {
    static let minimalHeader =
        #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": {"absoluteInset": 18, "edge": "top"}, "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "superview"}}}}"#

    /// The contract example's header (trace-format.md §1.1) without `scrollView`.
    static let fullHeader = """
        {"format": "panelsim-trace", "version": 1, "name": "handoff-at-content-top", "description": "free text", \
        "source": {"kind": "synthetic", "origin": "free text", "device": "free text"}, \
        "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, \
        "panel": {"position": "bottom", "states": [{"name": "lastQuart", "order": 750}], \
        "anchors": {"full": {"absoluteInset": 18, "edge": "top", "referenceGuide": "safeArea"}, "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}, "lastQuart": {"fractionalOffset": 0.75, "referenceGuide": "superview"}}, \
        "initialState": "half", "intrinsicLength": 420, "backdropAlpha": {"full": 0.3, "half": 0.0, "tip": 0.0}, "contentMode": "static", "grabberAreaOffset": 36, \
        "removalInteractionEnabled": false, "backdrop": {"dismissalTapEnabled": false}, "presented": true, \
        "behavior": {"springDecelerationRate": 0.991, "springResponseTime": 0.4, "momentumProjectionRate": 0.998, "redirectionalProgress": 0.5, "projectsMomentumTo": [], "rubberBandingEdges": [], "removalInteractionVelocityThreshold": 5.5}}, \
        "delegate": {"shouldBeginDragging": true, "scrollableStates": ["full"], "targetStateOverrides": {}, "shouldRemove": "default", \
        "didMove": {"clamp": {"min": {"state": "full", "offset": -6}, "max": {"state": "tip", "offset": 6}}, "dismissBeyond": {"state": "half", "offset": 40}}, \
        "didChangeState": {"dismissIn": ["tip"]}}, \
        "recognizer": {"velocity": "recorded", "beginThreshold": 10}}
        """

    static let samples = """
        {"t": 0.000, "touch": "began", "x": 195, "y": 400}
        {"t": 0.008, "touch": "moved", "x": 195, "y": 406.5}
        {"t": 0.010, "touch": "began", "id": 1, "x": 20, "y": 30}
        {"t": 0.012, "touch": "stationary", "x": 195, "y": 406.5}
        {"t": 0.020, "touch": "cancelled", "id": 1, "x": 20, "y": 30}
        {"t": 0.500, "touch": "ended", "x": 195, "y": 700, "velocity": {"x": 0, "y": 600}}
        {"t": 1.000, "call": "move", "to": "full", "animated": true}
        {"t": 1.100, "call": "hide"}
        {"t": 1.200, "call": "show", "animated": false}
        {"t": 2.000, "call": "tapBackdrop"}
        {"t": 2.500, "observed": {"location": 412.5, "state": "half", "contentOffset": 120}}
        {"t": 2.600, "call": "remove"}
        {"t": 3.000, "end": true}
        """

    static var validTrace: String { fullHeader + "\n" + samples + "\n" }
}

final class TraceLoaderTests: XCTestCase {
    private func load(_ text: String, file: String = "traces/t.jsonl") throws(TraceError) -> Trace {
        try TraceLoader.parse(text: text, file: file)
    }

    /// Asserts that loading `text` fails on `line` at `field` (and `kind`), and that the message
    /// contains every fragment.
    private func assertError(
        _ text: String, line: Int, field: String, kind: TraceError.Kind = .invalid,
        _ fragments: String..., sourceFile: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        do {
            let t = try load(text)
            XCTFail("expected an error, loaded \(t.samples.count) samples", file: sourceFile, line: sourceLine)
        } catch {
            XCTAssertEqual(error.line, line, "line: \(error)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(error.field, field, "field: \(error)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(error.kind, kind, "kind: \(error)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(error.file, "traces/t.jsonl", file: sourceFile, line: sourceLine)
            for f in fragments {
                XCTAssertTrue(
                    error.message.contains(f), "message «\(error.message)» lacks «\(f)»", file: sourceFile,
                    line: sourceLine)
            }
            XCTAssertFalse(error.description.contains("\n"), file: sourceFile, line: sourceLine)
        }
    }

    /// The minimal header with `panel` members added (JSON text without braces).
    private func header(panel extra: String = "", top extraTop: String = "") -> String {
        var h = Fixtures.minimalHeader
        if !extra.isEmpty {
            h = h.replacingOccurrences(of: #""panel": {"anchors""#, with: #""panel": {"# + extra + #", "anchors""#)
        }
        if !extraTop.isEmpty { h = String(h.dropLast()) + ", " + extraTop + "}" }
        return h
    }

    private let began = #"{"t": 0, "touch": "began", "x": 1, "y": 2}"#

    // MARK: Valid traces

    func testMinimalHeaderGetsContractDefaults() throws {
        let trace = try load(Fixtures.minimalHeader + "\n", file: "traces/flings/short-flick.jsonl")
        let h = trace.header
        XCTAssertEqual(h.name, "short-flick")
        XCTAssertEqual(h.description, "")
        XCTAssertEqual(h.source, TraceSource())
        XCTAssertEqual(h.environment, PanelEnvironment(container: Size(width: 390, height: 844)))
        XCTAssertEqual(h.environment.safeArea, Insets(top: 47, left: 0, bottom: 34, right: 0))
        XCTAssertEqual(h.environment.displayScale, 3)
        XCTAssertEqual(h.environment.frameRate, 120)
        var expectedPanel = FloatingPanelConfiguration()
        expectedPanel.anchors = [
            AnchorEntry(state: .full, anchor: .inset(18, isFractional: false, edge: .top, guide: .safeArea)),
            AnchorEntry(state: .half, anchor: .inset(0.5, isFractional: true, edge: .bottom, guide: .safeArea)),
            AnchorEntry(state: .tip, anchor: .inset(69, isFractional: false, edge: .bottom, guide: .superview)),
        ]
        XCTAssertEqual(h.panel, expectedPanel)
        XCTAssertEqual(h.panel.states, [FloatingPanelState(name: "lastQuart", order: 750)])
        XCTAssertEqual(h.panel.initialState, .half)
        XCTAssertEqual(h.panel.backdropAlpha, ["full": 0.3, "half": 0.0, "tip": 0.0])
        XCTAssertTrue(h.panel.presented)
        XCTAssertEqual(h.panel.behavior, PanelBehavior())
        XCTAssertEqual(h.delegate, FloatingPanelDelegateConfiguration())
        XCTAssertNil(h.delegate.scrollableStates)
        XCTAssertNil(h.delegate.didMove)
        XCTAssertEqual(h.recognizer, RecognizerConfiguration())
        XCTAssertEqual(trace.samples, [])
    }

    func testFullContractExampleLoads() throws {
        let trace = try load(Fixtures.validTrace)
        let h = trace.header
        XCTAssertEqual(h.name, "handoff-at-content-top")
        XCTAssertEqual(h.source.device, "free text")
        XCTAssertEqual(h.panel.anchors.count, 4)
        XCTAssertEqual(
            h.panel.anchors[3],
            AnchorEntry(
                state: FloatingPanelState(name: "lastQuart", order: 750),
                anchor: .intrinsic(0.75, isFractional: true, guide: .superview)))
        XCTAssertEqual(h.delegate.scrollableStates, ["full"])
        XCTAssertEqual(h.delegate.didMove?.clamp?.min, StateOffset(state: .full, offset: -6))
        XCTAssertEqual(h.delegate.didMove?.clamp?.max, StateOffset(state: .tip, offset: 6))
        XCTAssertEqual(h.delegate.didMove?.dismissBeyond, StateOffset(state: .half, offset: 40))
        XCTAssertEqual(h.delegate.dismissIn, ["tip"])

        let s = trace.samples
        XCTAssertEqual(s.count, 13)
        XCTAssertEqual(
            s[0],
            TraceSample(time: 0, line: 2, kind: .touch(TouchSample(phase: .began, location: Point(x: 195, y: 400)))))
        XCTAssertEqual(s[1].time, 8000)
        XCTAssertEqual(
            s[2],
            TraceSample(
                time: 10_000, line: 4, kind: .touch(TouchSample(phase: .began, id: 1, location: Point(x: 20, y: 30)))))
        XCTAssertEqual(
            s[5],
            TraceSample(
                time: 500_000, line: 7,
                kind: .touch(TouchSample(phase: .ended, location: Point(x: 195, y: 700), velocity: Point(x: 0, y: 600)))
            ))
        XCTAssertEqual(s[6].kind, .call(.move(to: .full, animated: true)))
        XCTAssertEqual(s[7].kind, .call(.hide(animated: true)))
        XCTAssertEqual(s[8].kind, .call(.show(animated: false)))
        XCTAssertEqual(s[9].kind, .call(.tapBackdrop))
        XCTAssertEqual(s[10].kind, .observed(ObservedSample(location: 412.5, state: "half", contentOffset: 120)))
        XCTAssertEqual(s[11].kind, .call(.remove))
        XCTAssertEqual(s[12], TraceSample(time: 3_000_000, line: 14, kind: .end))
    }

    func testBlankLinesCRLFAndBOM() throws {
        let text = "\u{FEFF}\n  \r\n" + Fixtures.minimalHeader + "\r\n\n\t\n" + began + "\r\n"
        let trace = try load(text)
        XCTAssertEqual(trace.samples.count, 1)
        XCTAssertEqual(trace.samples[0].line, 6)
    }

    func testSecondsToMicrosecondsIsExact() throws {
        let cases: [(String, Int64)] = [
            ("0.0000005", 1), ("0.0000004", 0), ("1e-3", 1000), ("2.5e-1", 250_000),
            ("0.1", 100_000), ("0.3", 300_000), ("1.0000015", 1_000_002),
            ("0.208333", 208_333), ("12E0", 12_000_000), ("-0", 0),
        ]
        for (text, micros) in cases {
            let trace = try load(Fixtures.minimalHeader + "\n" + #"{"t": \#(text), "end": true}"#)
            XCTAssertEqual(trace.samples[0].time, micros, text)
        }
    }

    func testEqualTimesKeepFileOrderAndHalfMicrosecondsRound() throws {
        let text =
            Fixtures.minimalHeader + "\n" + #"""
                {"t": 0.0000015, "touch": "began", "x": 0, "y": 0}
                {"t": 0.000002, "touch": "moved", "x": 0, "y": 1}
                {"t": 0.000002, "touch": "moved", "x": 0, "y": 2}
                """#
        let s = try load(text).samples
        XCTAssertEqual(s.map(\.time), [2, 2, 2])
        XCTAssertEqual(s.map(\.line), [2, 3, 4])
    }

    func testFingerCanGoDownAgainAfterEnded() throws {
        let text =
            Fixtures.minimalHeader + "\n" + began + "\n" + #"""
                {"t": 0.1, "touch": "ended", "x": 1, "y": 2}
                {"t": 0.2, "touch": "began", "x": 1, "y": 2}
                """#
        XCTAssertEqual(try load(text).samples.count, 3)
    }

    // MARK: One test per malformed-trace category

    func testMissingHeader() {
        assertError("", line: 0, field: "", "empty trace")
        assertError("\n\n", line: 0, field: "", "empty trace")
        assertError("\n" + began + "\n", line: 2, field: "format", "missing header", "found a sample")
        assertError(#"{"version": 1}"#, line: 1, field: "format", "missing required field", "panelsim-trace")
        assertError("[1, 2]", line: 1, field: "", "expected the header object", "got an array")
    }

    func testWrongFormat() {
        let text = Fixtures.minimalHeader.replacingOccurrences(of: "panelsim-trace", with: "panelsim-result")
        assertError(text, line: 1, field: "format", #"expected "panelsim-trace""#, #"got a string ("panelsim-result")"#)
        assertError(#"{"format": 1, "version": 1}"#, line: 1, field: "format", "got a number (1)")
    }

    func testWrongVersion() {
        let v2 = Fixtures.minimalHeader.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
        assertError(v2, line: 1, field: "version", kind: .unsupported, "version 2", "not supported yet")
        let v0 = Fixtures.minimalHeader.replacingOccurrences(of: #""version": 1"#, with: #""version": 0"#)
        assertError(v0, line: 1, field: "version", "expected 1, got 0")
        let vs = Fixtures.minimalHeader.replacingOccurrences(of: #""version": 1"#, with: #""version": "1""#)
        assertError(vs, line: 1, field: "version", "expected a number, got a string")
        let vf = Fixtures.minimalHeader.replacingOccurrences(of: #""version": 1"#, with: #""version": 1.5"#)
        assertError(vf, line: 1, field: "version", "expected 1, got 1.5")
        let none = Fixtures.minimalHeader.replacingOccurrences(of: #""version": 1, "#, with: "")
        assertError(none, line: 1, field: "version", "missing required field")
    }

    func testWrongTypes() {
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(of: #""width": 390"#, with: #""width": "390""#),
            line: 1, field: "environment.container.width", #"expected a number, got a string ("390")"#)
        assertError(
            header(panel: #""presented": "yes""#), line: 1, field: "panel.presented", "expected true or false",
            "got a string")
        assertError(
            header(panel: #""states": {"name": "x"}"#), line: 1, field: "panel.states",
            "expected an array, got an object")
        assertError(
            header(panel: #""position": "middle""#), line: 1, field: "panel.position",
            "expected one of top, left, bottom, right", #""middle""#)
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": "195", "y": 400}"#,
            line: 2, field: "x", #"expected a number, got a string ("195")"#)
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": "0", "touch": "began", "x": 195, "y": 400}"#,
            line: 2, field: "t", "expected a number, got a string")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": 195, "y": null}"#,
            line: 2, field: "y", "expected a number, got null")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "id": 1.5, "x": 1, "y": 2}"#,
            line: 2, field: "id", "expected an integer ≥ 0, got 1.5")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "id": -1, "x": 1, "y": 2}"#,
            line: 2, field: "id", "expected an integer ≥ 0, got -1")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "id": 1e30, "x": 1, "y": 2}"#,
            line: 2, field: "id", "expected an integer ≥ 0")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": 1, "y": 2, "velocity": {"x": 1}}"#,
            line: 2, field: "velocity.y", "missing required field")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "pressed", "x": 1, "y": 2}"#,
            line: 2, field: "touch", "expected one of began, moved, stationary, ended, cancelled")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "end": false}"#, line: 2, field: "end",
            "expected true, got false")
        assertError(Fixtures.minimalHeader + "\n" + "[]", line: 2, field: "", "expected a sample object")
    }

    func testNaNLikeAndOverflowingNumbers() {
        // The field being parsed is named, and NaN/Infinity explained.
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": NaN, "y": 2}"#,
            line: 2, field: "x", "invalid JSON at column 33",
            "NaN is not a JSON number (JSON has no NaN or Infinity; expected a finite number)")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": "NaN", "y": 2}"#,
            line: 2, field: "x", #"expected a number, got a string ("NaN")"#)
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": 1e999, "y": 2}"#,
            line: 2, field: "x", "expected a finite number, got 1e999")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": -1e999, "y": 2}"#,
            line: 2, field: "x", "expected a finite number")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1e999, "end": true}"#, line: 2, field: "t",
            "expected a finite number")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1e300, "end": true}"#, line: 2, field: "t",
            "expected a time ≤ 100000000 s")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": -0.5, "end": true}"#, line: 2, field: "t",
            "expected a time ≥ 0 s, got -0.5")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(of: #""height": 844"#, with: #""height": 1e400"#),
            line: 1, field: "environment.container.height", "expected a finite number")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""absoluteInset": 18"#, with: #""absoluteInset": Infinity"#),
            line: 1, field: "panel.anchors.full.absoluteInset", "invalid JSON", "Infinity is not a JSON number")
    }

    func testTimeGoingBackwards() {
        let text =
            Fixtures.minimalHeader + "\n" + #"""
                {"t": 0.5, "touch": "began", "x": 1, "y": 2}
                {"t": 0.6, "touch": "moved", "x": 1, "y": 3}

                {"t": 0.55, "touch": "moved", "x": 1, "y": 4}
                """#
        assertError(text, line: 5, field: "t", "t = 0.55 s", "t = 0.6 s", "line 3")
        // Times that differ in text but not after rounding to 1 µs are equal, not backwards.
        let same = Fixtures.minimalHeader + "\n" + #"{"t": 0.0000006, "end": true}"# + "\n"
        XCTAssertNoThrow(try load(same))
    }

    func testUnknownState() {
        assertError(
            header(panel: #""initialState": "ful""#), line: 1, field: "panel.initialState",
            "unknown state 'ful' (known: full, lastQuart, half, tip, hidden)")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(of: #""tip": {"#, with: #""top": {"#),
            line: 1, field: "panel.anchors.top", "unknown state 'top'")
        assertError(
            header(panel: #""backdropAlpha": {"mid": 0.5}"#), line: 1, field: "panel.backdropAlpha.mid",
            "unknown state 'mid'")
        assertError(
            header(panel: #""behavior": {"projectsMomentumTo": ["full", "x"]}"#), line: 1,
            field: "panel.behavior.projectsMomentumTo[1]", "unknown state 'x'")
        assertError(
            header(top: #""delegate": {"scrollableStates": ["Full"]}"#), line: 1, field: "delegate.scrollableStates[0]",
            "unknown state 'Full'")
        assertError(
            header(top: #""delegate": {"targetStateOverrides": {"half": "x"}}"#), line: 1,
            field: "delegate.targetStateOverrides.half", "unknown state 'x'")
        assertError(
            header(top: #""delegate": {"targetStateOverrides": {"x": "half"}}"#), line: 1,
            field: "delegate.targetStateOverrides.x", "unknown state 'x'")
        assertError(
            header(
                top:
                    #""delegate": {"didMove": {"clamp": {"min": {"state": "full", "offset": 0}, "max": {"state": "q", "offset": 0}}}}"#
            ),
            line: 1, field: "delegate.didMove.clamp.max.state", "unknown state 'q'")
        assertError(
            header(top: #""delegate": {"didMove": {"dismissBeyond": {"state": "q", "offset": 0}}}"#),
            line: 1, field: "delegate.didMove.dismissBeyond.state", "unknown state 'q'")
        assertError(
            header(top: #""delegate": {"didChangeState": {"dismissIn": ["q"]}}"#),
            line: 1, field: "delegate.didChangeState.dismissIn[0]", "unknown state 'q'")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1, "call": "move", "to": "quarter"}"#,
            line: 2, field: "to", "unknown state 'quarter'")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1, "observed": {"state": "q"}}"#,
            line: 2, field: "observed.state", "unknown state 'q'")
        // Custom states are known once declared; an empty list removes the default lastQuart.
        XCTAssertNoThrow(try load(header(panel: #""states": [{"name": "mid", "order": 600}], "initialState": "half""#)))
        // A declared state that is not an anchor cannot be the initial state (floatingpanel-core.md §9 O19).
        assertError(
            header(panel: #""states": [{"name": "mid", "order": 600}], "initialState": "mid""#), line: 1,
            field: "panel.initialState", "'mid' is neither an anchor state nor hidden")
        assertError(
            header(panel: #""states": [], "initialState": "lastQuart""#), line: 1, field: "panel.initialState",
            "unknown state 'lastQuart' (known: full, half, tip, hidden)")
    }

    func testStateDeclarations() {
        assertError(
            header(panel: #""states": [{"name": "full", "order": 900}]"#), line: 1, field: "panel.states[0].name",
            "collides with the built-in state full")
        assertError(
            header(panel: #""states": [{"name": "a", "order": 1}, {"name": "a", "order": 2}]"#), line: 1,
            field: "panel.states[1].name", "duplicate state 'a'", "panel.states[0]")
        assertError(
            header(panel: #""states": [{"name": "a", "order": 1.5}]"#), line: 1, field: "panel.states[0].order",
            "expected an integer")
        assertError(
            header(panel: #""states": [{"name": "a"}]"#), line: 1, field: "panel.states[0].order",
            "missing required field")
    }

    func testUnknownAnchorKind() {
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""full": {"absoluteInset": 18"#, with: #""full": {"absInset": 18"#),
            line: 1, field: "panel.anchors.full.absInset",
            "unknown anchor kind 'absInset'", "absoluteInset, fractionalInset, absoluteOffset, fractionalOffset")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""full": {"absoluteInset": 18, "edge": "top"}"#, with: #""full": {"edge": "top"}"#),
            line: 1, field: "panel.anchors.full", "missing anchor kind")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""absoluteInset": 18"#, with: #""absoluteInset": 18, "fractionalInset": 0.1"#),
            line: 1, field: "panel.anchors.full.fractionalInset", "exactly one anchor kind")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""absoluteInset": 18, "edge": "top""#, with: #""absoluteInset": 18"#),
            line: 1, field: "panel.anchors.full.edge", "missing required field")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(of: #""edge": "top""#, with: #""edge": "up""#),
            line: 1, field: "panel.anchors.full.edge", "expected one of top, left, bottom, right")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""absoluteInset": 18, "edge": "top""#, with: #""absoluteOffset": 18, "edge": "top""#),
            line: 1, field: "panel.anchors.full.edge", "take no edge")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""referenceGuide": "superview""#, with: #""referenceGuide": "window""#),
            line: 1, field: "panel.anchors.tip.referenceGuide", "expected one of superview, safeArea")
        assertError(
            #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {}}}"#,
            line: 1, field: "panel.anchors", "expected at least one anchor")
    }

    func testTouchSequence() {
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "ended", "x": 1, "y": 2}"#,
            line: 2, field: "touch", "'ended' for finger 0 without a preceding 'began'")
        assertError(
            Fixtures.minimalHeader + "\n" + began + "\n" + #"{"t": 0, "touch": "moved", "id": 2, "x": 1, "y": 2}"#,
            line: 3, field: "touch", "'moved' for finger 2 without a preceding 'began'")
        assertError(
            Fixtures.minimalHeader + "\n" + began + "\n" + began, line: 3, field: "touch", "already down since line 2")
        assertError(
            Fixtures.minimalHeader + "\n" + began + "\n" + #"{"t": 0, "touch": "cancelled", "x": 1, "y": 2}"# + "\n"
                + #"{"t": 0, "touch": "stationary", "x": 1, "y": 2}"#, line: 4, field: "touch",
            "without a preceding 'began'")
    }

    func testUnsupportedFeatures() throws {
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#), line: 1,
            field: "version", kind: .unsupported, "not supported yet")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1, "call": "mvoe", "to": "full"}"#,
            line: 2, field: "call", "unknown call 'mvoe'", "did you mean 'move'?")
    }

    func testLayoutAndEnvironmentChangesMergeOverTheCurrentOnes() throws {
        let t = try load(
            Fixtures.minimalHeader + "\n"
                + [
                    #"{"t": 1, "call": "invalidateLayout", "panel": {"anchors": {"full": {"absoluteInset": 100, "edge": "top"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}, "initialState": "tip"}}"#,
                    #"{"t": 1.5, "environment": {"container": {"width": 844, "height": 390}}}"#,
                    #"{"t": 2, "call": "move", "to": "tip"}"#,
                ].joined(separator: "\n"))
        guard case .call(.invalidateLayout(let panel)) = t.samples[0].kind else { return XCTFail() }
        XCTAssertEqual(panel.anchors.map(\.state.name), ["full", "tip"])
        XCTAssertEqual(panel.initialState, .tip)
        guard case .environment(let env) = t.samples[1].kind else { return XCTFail() }
        XCTAssertEqual(env.container, Size(width: 844, height: 390))
        XCTAssertEqual(env.safeArea, Insets(top: 47, left: 0, bottom: 34, right: 0), "unnamed fields keep their values")
        // half is gone after the invalidation: moving to it is an error at its line.
        assertError(
            Fixtures.minimalHeader + "\n"
                + #"{"t": 1, "call": "invalidateLayout", "panel": {"anchors": {"full": {"absoluteInset": 100, "edge": "top"}}, "initialState": "full"}}"#
                + "\n" + #"{"t": 2, "call": "move", "to": "half"}"#, line: 3, field: "to", "neither an anchor")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1, "environment": {"frameRate": 60}}"#, line: 2,
            field: "environment.frameRate", "cannot change")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1, "call": "invalidateLayout", "panel": {"anchorz": {}}}"#, line: 2,
            field: "panel.anchorz", "unknown key")
        assertError(
            Fixtures.minimalHeader + "\n"
                + #"{"t": 1, "call": "invalidateLayout", "panel": {"anchors": {"full": {"absoluteInset": 10, "edge": "left"}}}}"#,
            line: 2, field: "panel.anchors.full.edge", "off the axis")
    }

    func testScrollViewHeaderSamplesAndCalls() throws {
        let sv =
            #""scrollView": {"frame": {"x": 0, "y": 36, "width": 390, "height": 761}, "contentSize": {"width": 390, "height": 3000}, "contentOffset": {"x": 0, "y": 120}, "bounces": false}"#
        let t = try load(
            header(top: sv) + "\n"
                + [
                    #"{"t": 0.6, "scroll": {"contentOffset": {"x": 0, "y": 120}, "isDecelerating": true}}"#,
                    #"{"t": 1, "call": "setContentOffset", "y": 300, "animated": false}"#,
                    #"{"t": 1, "call": "setContentSize", "height": 2000}"#,
                    #"{"t": 1, "call": "untrack"}"#,
                    #"{"t": 1, "call": "track", "scrollView": {"frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "contentSize": {"width": 10, "height": 20}}}"#,
                ].joined(separator: "\n"))
        let c = try XCTUnwrap(t.header.scrollView)
        XCTAssertEqual(c.frame, Rect(x: 0, y: 36, width: 390, height: 761))
        XCTAssertEqual(c.contentOffset, Point(x: 0, y: 120))
        XCTAssertFalse(c.bounces)
        XCTAssertEqual(c.decelerationRate, 0.998)
        XCTAssertEqual(t.samples.count, 5)
        XCTAssertEqual(
            t.samples[0].kind, .scroll(ScrollSample(contentOffset: Point(x: 0, y: 120), isDecelerating: true)))
        XCTAssertEqual(t.samples[1].kind, .call(.setContentOffset(x: nil, y: 300, animated: false)))
        XCTAssertEqual(t.samples[2].kind, .call(.setContentSize(width: nil, height: 2000)))
        XCTAssertEqual(t.samples[3].kind, .call(.untrack))
        XCTAssertNoThrow(try load(header(top: #""scrollView": null"#)))
        assertError(
            header(top: #""scrollView": {"frame": {"x": 0, "y": 36, "width": 390, "height": 761}}"#), line: 1,
            field: "scrollView.contentSize", "missing required field")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1, "call": "setContentOffset"}"#, line: 2, field: "y",
            "missing required field")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 1, "scroll": {"contentOffset": {"x": 0, "y": "a"}}}"#, line: 2,
            field: "scroll.contentOffset.y", "expected")
    }

    func testUnknownKeysAreRejected() {
        assertError(
            header(top: #""descripton": "x""#), line: 1, field: "descripton", "unknown key 'descripton'",
            "did you mean 'description'?")
        assertError(
            header(panel: #""intrinsicLenght": 300"#), line: 1, field: "panel.intrinsicLenght",
            "did you mean 'intrinsicLength'?")
        assertError(
            header(top: #""recognizer": {"velocity": "lsq2", "threshold": 3}"#), line: 1, field: "recognizer.threshold",
            "unknown key 'threshold'")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "x": 1, "y": 2, "z": 3}"#, line: 2, field: "z",
            "unknown key 'z'")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "tuch": "began", "x": 1, "y": 2}"#, line: 2, field: "tuch",
            "did you mean 'touch'?")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "touch": "began", "call": "remove", "x": 1, "y": 2}"#,
            line: 2, field: "call", "exactly one sample kind")
        assertError(Fixtures.minimalHeader + "\n" + #"{"t": 0}"#, line: 2, field: "", "missing sample kind")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"touch": "began", "x": 1, "y": 2}"#, line: 2, field: "t",
            "missing required field")
        assertError(Fixtures.minimalHeader + "\n" + Fixtures.minimalHeader, line: 2, field: "format", "second header")
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 0, "call": "remove", "animated": true}"#, line: 2,
            field: "animated", "unknown key")
    }

    func testValueRanges() {
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(of: #""width": 390"#, with: #""width": 0"#),
            line: 1, field: "environment.container.width", "expected a number > 0, got 0")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""height": 844}"#, with: #""height": 844}, "frameRate": 59.94"#),
            line: 1, field: "environment.frameRate", "expected a positive integer", "59.94")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""height": 844}"#, with: #""height": 844}, "frameRate": 0"#),
            line: 1, field: "environment.frameRate", "expected a positive integer")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""height": 844}"#, with: #""height": 844}, "frameRate": 1e18"#),
            line: 1, field: "environment.frameRate", "expected a positive integer ≤ 10000")
        XCTAssertNoThrow(try load(Fixtures.minimalHeader + "\n" + #"{"t": 100000000, "end": true}"#))
        assertError(
            Fixtures.minimalHeader + "\n" + #"{"t": 100000000.0000005, "end": true}"#, line: 2, field: "t",
            "expected a time ≤ 100000000 s")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""height": 844}"#, with: #""height": 844}, "displayScale": 0"#),
            line: 1, field: "environment.displayScale", "expected a number > 0")
        assertError(
            Fixtures.minimalHeader.replacingOccurrences(
                of: #""height": 844}"#, with: #""height": 844}, "safeArea": {"top": 1}"#),
            line: 1, field: "environment.safeArea.left", "missing required field")
        assertError(
            header(top: #""recognizer": {"beginThreshold": -1}"#), line: 1, field: "recognizer.beginThreshold",
            "expected a number ≥ 0")
        assertError(
            header(top: #""recognizer": {"velocity": "kalman"}"#), line: 1, field: "recognizer.velocity",
            "expected one of recorded, lsq2, impulse, ios")
        assertError(
            header(top: #""delegate": {"shouldRemove": "sometimes"}"#), line: 1, field: "delegate.shouldRemove",
            "expected one of default, always, never")
        assertError(
            header(panel: #""behavior": {"rubberBandingEdges": ["top", "front"]}"#), line: 1,
            field: "panel.behavior.rubberBandingEdges[1]", "expected one of top, bottom, left, right")
        assertError(
            header(panel: #""behavior": {"momentumProjectionRate": 1}"#), line: 1,
            field: "panel.behavior.momentumProjectionRate", "expected a number in (0, 1)")
        assertError(
            header(panel: #""backdropAlpha": {"full": 1.5}"#), line: 1, field: "panel.backdropAlpha.full",
            "expected a number in [0, 1]")
        assertError(
            header(panel: #""contentMode": "fit""#), line: 1, field: "panel.contentMode",
            "expected one of static, fitToBounds")
    }

    func testEndMustBeLast() {
        let text = Fixtures.minimalHeader + "\n" + #"{"t": 1, "end": true}"# + "\n\n" + #"{"t": 2, "call": "remove"}"#
        assertError(text, line: 4, field: "end", "nothing may follow the 'end' sample (line 2)")
    }

    func testJSONSyntaxErrorNamesLineAndColumn() {
        let text = Fixtures.minimalHeader + "\n" + began + "\n" + #"{"t": 0.1, "touch": "moved", "x": 1, "y": 2,}"#
        assertError(text, line: 3, field: "", "invalid JSON at column 45", "expected a string key after ','")
    }

    func testRecordedRealisticRanges() throws {
        // Intrinsic anchors, all positions and the remaining header switches load as written.
        let h = header(
            panel:
                #""position": "left", "contentMode": "fitToBounds", "presented": false, "removalInteractionEnabled": true, "backdrop": {"dismissalTapEnabled": true}, "grabberAreaOffset": 0, "intrinsicLength": 0"#,
            top:
                #""recognizer": {"velocity": "impulse", "beginThreshold": 0}, "delegate": {"shouldBeginDragging": false, "shouldRemove": "never", "scrollableStates": null, "didMove": null, "didChangeState": null}"#
        )
        let leftAnchors =
            #""anchors": {"full": {"absoluteInset": 18, "edge": "right"}, "half": {"fractionalInset": 0.5, "edge": "left", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "left", "referenceGuide": "superview"}}"#
        let t = try load(
            h.replacingOccurrences(
                of:
                    #""anchors": {"full": {"absoluteInset": 18, "edge": "top"}, "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "superview"}}"#,
                with: leftAnchors))
        XCTAssertEqual(t.header.panel.position, .left)
        XCTAssertEqual(t.header.panel.contentMode, .fitToBounds)
        XCTAssertFalse(t.header.panel.presented)
        XCTAssertTrue(t.header.panel.removalInteractionEnabled)
        XCTAssertTrue(t.header.panel.dismissalTapEnabled)
        XCTAssertEqual(t.header.recognizer.velocity, .impulse)
        XCTAssertEqual(t.header.delegate.shouldRemove, .never)
        XCTAssertFalse(t.header.delegate.shouldBeginDragging)
        XCTAssertNil(t.header.delegate.scrollableStates)
    }

    // MARK: Files

    private func temporaryFile(_ bytes: [UInt8], name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panelsim-trace-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func testLoadFromDiskWithDigest() throws {
        let bytes = Array(Fixtures.validTrace.utf8)
        let path = try temporaryFile(bytes, name: "disk-trace.jsonl")
        let loaded = try TraceLoader.load(path: path)
        XCTAssertEqual(loaded.path, path)
        XCTAssertEqual(loaded.digest, "sha256:" + SHA256.hex(bytes))
        XCTAssertEqual(loaded.trace, try load(Fixtures.validTrace))
        // The default name comes from the file stem.
        let minimal = try temporaryFile(Array((Fixtures.minimalHeader + "\n").utf8), name: "my-flick.jsonl")
        XCTAssertEqual(try TraceLoader.load(path: minimal).trace.header.name, "my-flick")
    }

    func testLoadErrors() throws {
        XCTAssertThrowsError(try TraceLoader.load(path: "/nonexistent/dir/x.jsonl")) { error in
            guard let e = error as? TraceError else { return XCTFail() }
            XCTAssertEqual(e.kind, .io)
            XCTAssertEqual(e.line, 0)
            XCTAssertEqual(e.description, "/nonexistent/dir/x.jsonl: no such file (expected a readable trace file)")
        }
        XCTAssertThrowsError(try TraceLoader.load(path: FileManager.default.temporaryDirectory.path)) { error in
            XCTAssertEqual((error as? TraceError)?.kind, .io)
        }
        var bytes = Array((Fixtures.minimalHeader + "\n").utf8)
        bytes += Array(#"{"t": 0, "observed": {"state": "h"#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8) + [0x0A]
        let path = try temporaryFile(bytes, name: "bad-utf8.jsonl")
        XCTAssertThrowsError(try TraceLoader.load(path: path)) { error in
            guard let e = error as? TraceError else { return XCTFail() }
            XCTAssertEqual(e.kind, .invalid)
            XCTAssertEqual(e.line, 2)
            XCTAssertTrue(e.message.contains("invalid UTF-8 at column 34"), e.message)
        }
    }

    func testDescriptionFormat() {
        let e = TraceError(
            file: "a.jsonl", line: 3, field: "panel.anchors.full.edge", message: "expected one of top, bottom")
        XCTAssertEqual(e.description, "a.jsonl:3: panel.anchors.full.edge: expected one of top, bottom")
        XCTAssertEqual(
            TraceError(file: "a.jsonl", line: 0, field: "", message: "m", kind: .io).description, "a.jsonl: m")
        XCTAssertEqual(TraceError(file: "a", line: 2, field: "", message: "x\ny").description, "a:2: x\\ny")
    }

    func testStemOfFileNames() {
        XCTAssertEqual(TraceLoader.stem(of: "traces/a/b.jsonl"), "b")
        XCTAssertEqual(TraceLoader.stem(of: "b"), "b")
        XCTAssertEqual(TraceLoader.stem(of: ".hidden"), ".hidden")
        XCTAssertEqual(TraceLoader.stem(of: "x.y.jsonl"), "x.y")
    }
}
