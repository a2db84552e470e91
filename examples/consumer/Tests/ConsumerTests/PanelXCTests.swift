import XCTest
import PanelSimTesting

/// One XCTest per recorded trace: the golden is golden/<name>.golden.jsonl beside traces/.
final class PanelXCTests: XCTestCase {
    func testFlickUpLandsInFull() {
        assertPanelTrace("traces/flick-up.jsonl")
    }

    func testSlowDragDownWithLooserLocationTolerance() {
        assertPanelTrace("traces/slow-drag-down.jsonl", tolerances: ["location=0.01", "velocity=abs:1e-6,rel:1e-5"])
    }

    func testOutcomeCanBeInspected() {
        let outcome = assertPanelTrace("traces/move-to-full.jsonl")
        XCTAssertTrue(outcome.passed)
        XCTAssertEqual(outcome.goldenName, "golden/move-to-full.golden.jsonl")
    }
}
