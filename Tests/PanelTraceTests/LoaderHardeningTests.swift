import XCTest
import PanelSimCore
@testable import PanelTrace

/// Inputs found by adversarial review: each must be a one-line error of the right kind.
final class LoaderHardeningTests: XCTestCase {
    private let header =
        #"{"format":"panelsim-trace","version":1,"environment":{"container":{"width":390,"height":844}},"panel":{"anchors":{"full":{"absoluteInset":53,"edge":"top"},"half":{"absoluteInset":388,"edge":"bottom"},"tip":{"absoluteInset":69,"edge":"bottom"}},"initialState":"half"}}"#

    private func error(_ lines: String...) -> TraceError? {
        do {
            _ = try TraceLoader.parse(text: ([header] + lines).joined(separator: "\n"), file: "t.jsonl")
            return nil
        } catch { return error }
    }

    func testSubMicrosecondDecreaseIsRejected() {
        let e = error(
            #"{"t": 0.0000004, "touch": "began", "x": 1, "y": 600}"#,
            #"{"t": 0.0000003, "touch": "ended", "x": 1, "y": 600}"#)
        XCTAssertEqual(e?.field, "t")
        XCTAssertEqual(e?.line, 3)
        XCTAssertTrue(e?.message.contains("backwards") ?? false)
    }

    func testHugeCoordinatesAndVelocitiesAreRejected() {
        XCTAssertEqual(error(#"{"t": 0, "touch": "began", "x": 195, "y": -1e308}"#)?.field, "y")
        XCTAssertEqual(
            error(#"{"t": 0, "touch": "began", "x": 195, "y": 600, "velocity": {"x": 0, "y": 1e12}}"#)?.field,
            "velocity.y")
        XCTAssertNil(error(#"{"t": 0, "touch": "began", "x": 195, "y": 600, "velocity": {"x": 0, "y": 1e7}}"#))
    }

    func testMoveToAStateWithoutAnchorIsRejected() {
        let e = error(#"{"t": 0.1, "call": "move", "to": "lastQuart"}"#)
        XCTAssertEqual(e?.field, "to")
        XCTAssertEqual(e?.line, 2)
        XCTAssertEqual(e?.kind, .invalid)
        XCTAssertNil(error(#"{"t": 0.1, "call": "move", "to": "hidden"}"#))
    }
}
