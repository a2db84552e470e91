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
            (nil, "all", "true", .all),  // the variable beats CI
            (nil, "", "true", .never),  // empty variable counts as unset
            ("failed", "all", nil, .failed),  // the flag beats the variable
            ("missing", nil, "true", .missing),  // the flag beats CI
            ("never", "missing", nil, .never),
        ]
        for (flag, variable, ci, expected) in table {
            var env: [String: String] = [:]
            if let variable { env["PANELSIM_RECORD"] = variable }
            if let ci { env["CI"] = ci }
            XCTAssertEqual(
                try RecordMode.resolve(flag: flag, environment: env), expected,
                "flag \(flag ?? "-") env \(variable ?? "-") CI \(ci ?? "-")")
        }
    }

    func testInvalidValues() {
        XCTAssertThrowsError(try RecordMode.resolve(flag: "sometimes", environment: [:])) { error in
            XCTAssertEqual(
                "\(error)",
                "invalid record mode 'sometimes' from --record (expected never, missing, failed, all or pending)")
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
        XCTAssertEqual(
            try RecordMode.resolve(flag: nil, environment: ["PANELSIM_RECORD": "pending", "CI": "1"]), .pending)
    }
}

final class AtomicFileTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root =
            FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-atomic-\(UUID().uuidString)").path
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

/// `GoldenLocation`: the golden folder beside the nearest `traces` folder, from the path as
/// written, its absolute path or its links resolved.
final class GoldenLocationTests: XCTestCase {
    func testThePathAsWritten() {
        func folder(_ path: String, cwd: String = "/w") -> String {
            GoldenLocation.place(folder: path, workingDirectory: cwd).goldenFolder
        }
        XCTAssertEqual(folder("traces"), "golden")
        XCTAssertEqual(folder("traces/flicks"), "golden/flicks")
        XCTAssertEqual(folder("Tests/My/traces"), "Tests/My/golden")
        XCTAssertEqual(folder("./Tests/My/traces/a/"), "Tests/My/golden/a")
        XCTAssertEqual(folder("/abs/traces/a"), "/abs/golden/a")
        XCTAssertEqual(folder("/traces"), "/golden")
        XCTAssertEqual(folder("../traces"), "../golden")
        // Inside a traces folder: from the absolute path, shown relative to the working directory.
        XCTAssertEqual(folder(".", cwd: "/p/Tests/My/traces"), "../golden")
        XCTAssertEqual(folder(".", cwd: "/p/traces/a/b"), "../../../golden/a/b")
        XCTAssertEqual(folder("traces/../x", cwd: "/p"), "traces/../x/golden")  // no traces folder: x itself
        // Outside any traces folder: golden inside the folder given.
        XCTAssertEqual(folder("recordings"), "recordings/golden")
        XCTAssertFalse(GoldenLocation.place(folder: "recordings", workingDirectory: "/w").inTracesFolder)
    }

    func testTraceFiles() {
        func golden(_ path: String, cwd: String = "/w") -> String {
            GoldenLocation.golden(ofTrace: path, workingDirectory: cwd)
        }
        XCTAssertEqual(golden("traces/a.jsonl"), "golden/a.golden.jsonl")
        XCTAssertEqual(golden("Tests/My/traces/sub/a.jsonl"), "Tests/My/golden/sub/a.golden.jsonl")
        XCTAssertEqual(golden("a.jsonl", cwd: "/p/Tests/My/traces"), "../golden/a.golden.jsonl")
        XCTAssertEqual(golden("rec/a.jsonl"), "rec/golden/a.golden.jsonl")
        XCTAssertEqual(golden("a.jsonl"), "golden/a.golden.jsonl")
        XCTAssertEqual(golden("/rec/a.jsonl"), "/rec/golden/a.golden.jsonl")
        // A file named traces is not a folder.
        XCTAssertEqual(golden("x/traces"), "x/golden/traces.golden.jsonl")
        let p = GoldenLocation.place(file: "Tests/My/traces/sub/a.jsonl", workingDirectory: "/w")
        XCTAssertEqual(p.traceRoot, "Tests/My/traces")
        XCTAssertEqual(p.below, "sub/a.jsonl")
    }

    func testLinksAreResolvedWhenNeeded() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panelsim-location-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/traces/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: "traces/sub")
        XCTAssertEqual(GoldenLocation.place(folder: "link", workingDirectory: base).goldenFolder, "golden/sub")
    }
}
