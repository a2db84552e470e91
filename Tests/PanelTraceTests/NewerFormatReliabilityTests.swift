import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

/// The newer formats at sizes an outside reliability run used: a UISheet header with 10⁵ custom
/// detents, UISheet messages that say what was expected.
final class NewerFormatReliabilityTests: XCTestCase {
    static let sheetEnvironment = #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}"#

    /// A UISheet header whose `detents` are `n` custom detents (identifiers `detent-0`…), then `extra`.
    static func sheetHeader(detents n: Int, extra: String = "") -> String {
        var text = #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "# + sheetEnvironment + #", "sheet": {"detents": ["#
        text.reserveCapacity(n * 60 + 300)
        for i in 0..<n {
            if i > 0 { text += ", " }
            text += #"{"identifier": "detent-\#(i)", "kind": "custom", "height": \#(100 + i % 600)}"#
        }
        return text + extra + "]}}\n"
    }

    /// 10⁵ custom detents (a 6 MB header) load: the identifiers are checked for uniqueness through
    /// a hash table (comparing each with every earlier one took 19.5 s; the time is in
    /// RELIABILITY.md, this test only loads the size).
    func testOneHundredThousandSheetDetentsLoad() throws {
        let text = Self.sheetHeader(detents: 100_000)
        XCTAssertGreaterThan(text.utf8.count, 6_000_000)
        let trace = try TraceLoader.parse(text: text, file: "detents.jsonl")
        let detents = try XCTUnwrap(trace.header.sheet?.detents)
        XCTAssertEqual(detents.count, 100_000)
        XCTAssertEqual(detents[99_999].identifier, "detent-99999")
        XCTAssertEqual(detents[99_999].kind, .height(Double(100 + 99_999 % 600)))
    }

    /// A duplicate among many detents is still found, and the message names the earlier position.
    func testDuplicateDetentAmongManyNamesTheEarlierPosition() {
        let text = Self.sheetHeader(detents: 5_000, extra: #", {"identifier": "detent-1234", "kind": "custom", "fraction": 0.5}"#)
        XCTAssertThrowsError(try TraceLoader.parse(text: text, file: "dup.jsonl")) { error in
            guard let e = error as? TraceError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.field, "sheet.detents[5000].identifier")
            XCTAssertTrue(e.message.contains("duplicate detent identifier 'detent-1234' (also sheet.detents[1234])"), e.description)
        }
        // A medium or large detent without an identifier takes its kind's name, which must be unique too.
        let kinds = #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "# + Self.sheetEnvironment
            + #", "sheet": {"detents": [{"kind": "medium"}, {"kind": "large"}, {"kind": "medium"}]}}"# + "\n"
        XCTAssertThrowsError(try TraceLoader.parse(text: kinds, file: "dup.jsonl")) { error in
            XCTAssertEqual((error as? TraceError)?.field, "sheet.detents[2].identifier")
        }
    }

    /// Each of the sheet header's refusals says what was expected.
    func testSheetRefusalsSayWhatWasExpected() {
        let head = #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "# + Self.sheetEnvironment + #", "sheet": "#
        let cases: [(String, String)] = [
            (#"{"keyboardPolicy": "uikit", "expandOnKeyboard": false}"#, "sheet.expandOnKeyboard"),
            (#"{"detents": [{"kind": "custom", "height": 100}]}"#, "sheet.detents[0].identifier"),
            (#"{"detents": [{"identifier": "a", "kind": "custom"}]}"#, "sheet.detents[0].height"),
            (#"{"detents": [{"identifier": "a", "kind": "custom", "height": 100, "fraction": 0.5}]}"#, "sheet.detents[0].fraction"),
        ]
        for (sheet, field) in cases {
            XCTAssertThrowsError(try TraceLoader.parse(text: head + sheet + "}\n", file: "s.jsonl"), sheet) { error in
                guard let e = error as? TraceError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.field, field, e.description)
                XCTAssertTrue(e.message.contains("expected "), e.description)
                XCTAssertEqual(e.line, 1)
            }
        }
    }
}
