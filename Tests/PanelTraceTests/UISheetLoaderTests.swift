import XCTest
import PanelSimCore
@testable import PanelTrace

/// The sheet's contract extension (uisheet.md §2): every invalid case of §2.4 is refused with its
/// line and field, the defaults of §2.1 apply, and the writer round-trips every sheet trace.
final class UISheetLoaderTests: XCTestCase {
    static let env =
        #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}"#

    static func header(_ sheet: String, extra: String = "") -> String {
        #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "name": "t", "# + env + #", "sheet": "# + sheet
            + extra + "}"
    }

    func load(_ text: String) throws -> Trace { try TraceLoader.parse(text: text, file: "s.jsonl") }

    func assertRefused(
        _ text: String, line: Int, field: String, _ contains: String = "", file: StaticString = #filePath,
        lineNumber: UInt = #line
    ) {
        XCTAssertThrowsError(try load(text), file: file, line: lineNumber) { error in
            guard let e = error as? TraceError else {
                return XCTFail("not a TraceError: \(error)", file: file, line: lineNumber)
            }
            XCTAssertEqual(e.line, line, e.description, file: file, line: lineNumber)
            XCTAssertEqual(e.field, field, e.description, file: file, line: lineNumber)
            XCTAssertEqual(e.kind, .invalid, e.description, file: file, line: lineNumber)
            if !contains.isEmpty {
                XCTAssertTrue(e.description.contains(contains), e.description, file: file, line: lineNumber)
            }
            XCTAssertTrue(
                e.description.hasPrefix("s.jsonl:\(line): \(field): "), e.description, file: file, line: lineNumber)
        }
    }

    func testDefaults() throws {
        let t = try load(Self.header("{}") + "\n")
        let s = try XCTUnwrap(t.header.sheet)
        XCTAssertEqual(t.header.model, .uiSheet)
        XCTAssertEqual(s, SheetConfiguration())
        XCTAssertEqual(s.detents, [.large])
        XCTAssertNil(s.selectedDetentIdentifier)
        XCTAssertTrue(s.prefersScrollingExpandsWhenScrolledToEdge)
        XCTAssertEqual(s.shouldDismiss, .default)
        XCTAssertEqual(s.keyboardPolicy, .uikit)
        XCTAssertEqual(s.detentOffsets(environment: t.header.environment).map(\.1), [57])
    }

    func testEveryInvalidCaseOfSection2_4() {
        let d = #"{"detents": "#
        assertRefused(Self.header(d + "[]}"), line: 1, field: "sheet.detents", "empty detents")
        assertRefused(
            Self.header(d + #"[{"kind": "medium"}, {"identifier": "medium", "kind": "large"}]}"#), line: 1,
            field: "sheet.detents[1].identifier", "duplicate")
        assertRefused(
            Self.header(d + #"[{"identifier": "x", "kind": "small"}]}"#), line: 1, field: "sheet.detents[0].kind")
        assertRefused(
            Self.header(d + #"[{"kind": "custom", "height": 100}]}"#), line: 1, field: "sheet.detents[0].identifier")
        assertRefused(
            Self.header(d + #"[{"identifier": "x", "kind": "custom"}]}"#), line: 1, field: "sheet.detents[0].height",
            "neither")
        assertRefused(
            Self.header(d + #"[{"identifier": "x", "kind": "custom", "height": 1, "fraction": 0.5}]}"#), line: 1,
            field: "sheet.detents[0].fraction", "both")
        assertRefused(
            Self.header(d + #"[{"identifier": "x", "kind": "custom", "height": -1}]}"#), line: 1,
            field: "sheet.detents[0].height")
        assertRefused(
            Self.header(d + #"[{"identifier": "x", "kind": "custom", "fraction": 1.5}]}"#), line: 1,
            field: "sheet.detents[0].fraction")
        assertRefused(Self.header("{}", extra: #", "panel": {}"#), line: 1, field: "panel", "does not belong")
        assertRefused(Self.header("{}", extra: #", "delegate": {}"#), line: 1, field: "delegate", "does not belong")
        assertRefused(Self.header(#"{"keyboardPolicy": "lift"}"#), line: 1, field: "sheet.keyboardPolicy")
        assertRefused(
            Self.header("{}", extra: #", "sheetDelegate": {"shouldDismiss": "sometimes"}"#), line: 1,
            field: "sheetDelegate.shouldDismiss")
        let h = Self.header("{}")
        assertRefused(
            h + "\n" + #"{"t": 0.1, "environment": {"displayScale": 2}}"#, line: 2, field: "environment.displayScale")
        assertRefused(
            h + "\n" + #"{"t": 0.1, "environment": {"frameRate": 60}}"#, line: 2, field: "environment.frameRate")
        // A sheet section in a FloatingPanel trace, and malformed calls and keyboards.
        assertRefused(
            #"{"format": "panelsim-trace", "version": 1, "# + Self.env + #", "sheet": {}}"#, line: 1, field: "sheet",
            "uisheet")
        assertRefused(h + "\n" + #"{"t": 0.1, "call": "selectDetent", "identifier": 3}"#, line: 2, field: "identifier")
        assertRefused(
            h + "\n" + #"{"t": 0.1, "call": "selectDetnt", "identifier": "large"}"#, line: 2, field: "call",
            "did you mean 'selectDetent'")
        assertRefused(
            h + "\n" + #"{"t": 0.1, "call": "setDetents", "detents": []}"#, line: 2, field: "detents", "empty")
        assertRefused(
            h + "\n" + #"{"t": 0.1, "environment": {"keyboard": {"height": -1}}}"#, line: 2,
            field: "environment.keyboard.height")
        assertRefused(
            h + "\n" + #"{"t": 0.1, "environment": {"keyboard": {}}}"#, line: 2, field: "environment.keyboard.height")
        assertRefused(
            Self.header(#"{"simulator": {"projectionRate": 1}}"#), line: 1, field: "sheet.simulator.projectionRate")
        assertRefused(
            Self.header(#"{"simulator": {"mediumValue": "half"}}"#), line: 1, field: "sheet.simulator.mediumValue")
    }

    /// §2.2: `setShouldDismiss` is invalid input where the delegate does not implement
    /// `presentationControllerShouldDismiss(_:)` (`sheetDelegate.shouldDismiss` absent or
    /// `"default"`); with `always` or `never` it is read with its `value`.
    func testSetShouldDismissNeedsADelegateThatAnswers() throws {
        let call = #"{"t": 0.1, "call": "setShouldDismiss", "value": false}"#
        assertRefused(
            Self.header("{}") + "\n" + call, line: 2, field: "call", "sheetDelegate.shouldDismiss is \"default\"")
        assertRefused(
            Self.header("{}", extra: #", "sheetDelegate": {"shouldDismiss": "default"}"#) + "\n" + call, line: 2,
            field: "call")
        for answer in ["always", "never"] {
            let h = Self.header("{}", extra: #", "sheetDelegate": {"shouldDismiss": ""# + answer + #""}"#)
            let t = try load(h + "\n" + call + "\n" + #"{"t": 0.2, "call": "setShouldDismiss", "value": true}"#)
            XCTAssertEqual(
                t.samples.map(\.kind), [.sheetCall(.setShouldDismiss(false)), .sheetCall(.setShouldDismiss(true))])
            assertRefused(
                h + "\n" + #"{"t": 0.1, "call": "setShouldDismiss"}"#, line: 2, field: "value", "true or false")
            assertRefused(h + "\n" + #"{"t": 0.1, "call": "setShouldDismiss", "value": "no"}"#, line: 2, field: "value")
            assertRefused(
                h + "\n" + #"{"t": 0.1, "call": "setShouldDismiss", "value": true, "animated": true}"#, line: 2,
                field: "animated")
        }
    }

    func testUnknownIdentifiersAreAcceptedWithWarnings() throws {
        let t = try load(
            Self.header(#"{"detents": [{"kind": "medium"}, {"kind": "large"}], "selectedDetentIdentifier": "nope"}"#)
                + "\n" + #"{"t": 0.1, "call": "selectDetent", "identifier": "gone"}"#)
        let r = simulate(t)
        XCTAssertTrue(r.warnings.contains { $0.contains("'gone' names no active detent") }, "\(r.warnings)")
        guard case .systemFrame(let f)? = r.records.first else { return XCTFail() }
        XCTAssertEqual(f.location, 388 + 1.0 / 3, accuracy: 1e-9)  // the smallest detent is shown (§3.2)
        XCTAssertEqual(f["state"], .string("nope"))
    }

    func testAliasAndVelocityOption() throws {
        let t = try load(
            #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "# + Self.env
                + #", "sheet": {"expandOnKeyboard": false}, "recognizer": {"velocity": "uikitSheet"}}"#)
        XCTAssertEqual(t.header.sheet?.keyboardPolicy, .liftSelected)
        XCTAssertEqual(t.header.sheet?.simulator.uikitSheetVelocity, true)
        XCTAssertEqual(t.header.optionNames(SimulationOptions()), ["uisheet.velocity=uikitSheet"])
        // FloatingPanel traces do not know the sheet's filter.
        XCTAssertThrowsError(
            try load(
                #"{"format": "panelsim-trace", "version": 1, "# + Self.env
                    + #", "panel": {"anchors": {"full": {"absoluteInset": 0, "edge": "top", "referenceGuide": "superview"}}}, "recognizer": {"velocity": "uikitSheet"}}"#
            ))
    }

    /// Every corpus trace written back and read again gives the same trace (and the same replay).
    func testWriterRoundTripsTheCorpus() throws {
        for (name, trace) in try UISheetCorpusTests.traces() {
            let text = TraceWriter.write(trace)
            let again = try TraceLoader.parse(text: text, file: name)
            XCTAssertEqual(again.header, trace.header, name)
            XCTAssertEqual(again.samples.map(\.kind), trace.samples.map(\.kind), name)
            XCTAssertEqual(simulate(again).records, simulate(trace).records, name)
        }
    }
}
