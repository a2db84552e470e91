import XCTest
import Foundation
import PanelGolden

final class RecordModeTests: XCTestCase {
    func testResolutionTable() throws {
        // (flag, PANELSIM_RECORD, CI, expected)
        let table: [(String?, String?, String?, RecordMode)] = [
            (nil, nil, nil, .missing),
            (nil, nil, "true", .never),
            (nil, nil, "1", .never),
            (nil, nil, "", .missing),
            (nil, nil, "false", .missing),
            (nil, nil, "0", .missing),
            (nil, "all", nil, .all),
            (nil, "all", "true", .all),          // the variable beats CI
            (nil, "", "true", .never),           // empty variable counts as unset
            ("failed", "all", nil, .failed),     // the flag beats the variable
            ("missing", nil, "true", .missing),  // the flag beats CI
            ("never", "missing", nil, .never),
        ]
        for (flag, variable, ci, expected) in table {
            var env: [String: String] = [:]
            if let variable { env["PANELSIM_RECORD"] = variable }
            if let ci { env["CI"] = ci }
            XCTAssertEqual(try RecordMode.resolve(flag: flag, environment: env), expected,
                           "flag \(flag ?? "-") env \(variable ?? "-") CI \(ci ?? "-")")
        }
    }

    func testInvalidValues() {
        XCTAssertThrowsError(try RecordMode.resolve(flag: "sometimes", environment: [:])) { error in
            XCTAssertEqual("\(error)", "invalid record mode 'sometimes' from --record (expected never, missing, failed, all or pending)")
        }
        XCTAssertThrowsError(try RecordMode.resolve(flag: nil, environment: ["PANELSIM_RECORD": "ALL"])) { error in
            XCTAssertTrue("\(error)".contains("from PANELSIM_RECORD"))
        }
        // A valid flag hides an invalid variable.
        XCTAssertEqual(try RecordMode.resolve(flag: "all", environment: ["PANELSIM_RECORD": "bogus"]), .all)
    }

    func testModeProperties() {
        XCTAssertEqual(RecordMode.allCases.map(\.writesMissing), [false, true, true, true, false])
        XCTAssertEqual(RecordMode.allCases.map(\.rewritesFailed), [false, false, true, true, false])
        XCTAssertEqual(RecordMode.allCases.map(\.rewritesAll), [false, false, false, true, false])
        XCTAssertEqual(RecordMode.allCases.map(\.writesPending), [false, false, false, false, true])
        XCTAssertEqual(try RecordMode.resolve(flag: nil, environment: ["PANELSIM_RECORD": "pending", "CI": "1"]), .pending)
    }
}

final class AtomicFileTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    private func entries(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    func testWritesCreatesParentsAndLeavesNoTemporaryFile() throws {
        let path = root + "/a/b/c.golden.jsonl"
        try AtomicFile.write("one\n", to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "one\n")
        try AtomicFile.write("two é\n", to: path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "two é\n")
        XCTAssertEqual(entries(root + "/a/b"), ["c.golden.jsonl"])
    }

    func testEmptyText() throws {
        try AtomicFile.write("", to: root + "/empty")
        XCTAssertEqual(FileManager.default.contents(atPath: root + "/empty"), Data())
    }

    func testFailureLeavesNothingBehind() throws {
        // The target is an existing directory: rename fails, the temporary file is removed.
        try FileManager.default.createDirectory(atPath: root + "/d/x", withIntermediateDirectories: true)
        try "keep".write(toFile: root + "/d/x/inner", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try AtomicFile.write("new", to: root + "/d/x")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot write \(self.root)/d/x: rename failed"), "\(error)")
        }
        XCTAssertEqual(entries(root + "/d"), ["x"])
        // A parent that is a file cannot be created.
        try "f".write(toFile: root + "/file", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try AtomicFile.write("new", to: root + "/file/sub/g"))
    }
}
