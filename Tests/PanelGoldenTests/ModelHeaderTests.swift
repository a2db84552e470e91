import XCTest
import PanelSimCore
import PanelGolden

/// The result header's `model` (trace-format.md §1.1a): written only for systems other than
/// FloatingPanel, read back, and compared: a golden of one panel system never passes against a
/// result of another, even when the records are alike.
final class ModelHeaderTests: XCTestCase {
    func document(_ model: PanelModel) -> ResultDocument {
        var header = ResultHeader(trace: "t", traceDigest: "sha256:0", frameRate: 120, displayScale: 3)
        header.model = model
        let frame = SystemFrame(
            index: 0,
            channels: [RecordField("location", .number(544)), RecordField("state", .string("partiallyExpanded"))])
        return ResultDocument(header: header, records: model == .floatingPanel ? [] : [.systemFrame(frame)])
    }

    func testModelRoundTripsAndIsAbsentForFloatingPanel() throws {
        for model in GoldenSystems.registered.map(\.model) {
            let text = ResultFile.render(document(model))
            XCTAssertEqual(text.contains("\"model\""), model != .floatingPanel, model.rawValue)
            XCTAssertEqual(try ResultFile.read(text: text, file: "r").header.model, model)
        }
    }

    func testAGoldenOfAnotherModelDiverges() {
        let comparison = Comparator.compare(expected: document(.drawerKit), actual: document(.uiSheet))
        XCTAssertEqual(comparison.status, .failed)
        XCTAssertEqual(comparison.firstDivergence?.channel, .header)
        XCTAssertEqual(comparison.firstDivergence?.expected, "model drawerkit")
        XCTAssertEqual(comparison.firstDivergence?.actual, "model uisheet")
        XCTAssertEqual(Comparator.compare(expected: document(.uiSheet), actual: document(.uiSheet)).status, .passed)
    }
}
