import XCTest
import PanelSimCore
@testable import PanelTrace

final class CSVImportTests: XCTestCase {
    /// `<repository root>/Tests/Fixtures`, found from this file's path: the real recordings the
    /// tests read (`real-traces/`, sources and licenses in its NOTICE.md).
    static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // PanelTraceTests
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("Fixtures").standardizedFileURL
    }

    private func importCSV(_ csv: String, ppu: Double = 1, origin: Point = Point(x: 0, y: 0), swap: Bool = false)
        throws(TraceError) -> [TraceSample]
    {
        try RealTraceCSV.importTouches(csv: csv, file: "g.csv", pointsPerUnit: ppu, origin: origin, swapAxes: swap)
    }

    private func assertError(
        _ csv: String, line: Int, field: String, _ fragment: String,
        sourceFile: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        do {
            _ = try importCSV(csv)
            XCTFail("expected an error", file: sourceFile, line: sourceLine)
        } catch {
            XCTAssertEqual(error.line, line, "\(error)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(error.field, field, "\(error)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(error.file, "g.csv", file: sourceFile, line: sourceLine)
            XCTAssertTrue(
                error.message.contains(fragment), "«\(error.message)» lacks «\(fragment)»", file: sourceFile,
                line: sourceLine)
        }
    }

    func testFlutterGesture01() throws {
        let url = Self.fixturesDirectory.appendingPathComponent(
            "real-traces/flutter-velocity_tracker_data/g01_pointer1.csv")
        let csv = try String(contentsOf: url, encoding: .utf8)
        let origin = Point(x: 195, y: 522)
        let samples = try RealTraceCSV.importTouches(csv: csv, file: url.path, pointsPerUnit: 1, origin: origin)
        XCTAssertEqual(samples.count, 51)
        // First row: 0,down,270.0,538.2857055664062
        XCTAssertEqual(
            samples.first,
            TraceSample(time: 0, line: 0, kind: .touch(TouchSample(phase: .began, id: 0, location: origin))))
        // Second row: 10,move,270.0,538.2857055664062 (no motion yet)
        XCTAssertEqual(
            samples[1], TraceSample(time: 10_000, kind: .touch(TouchSample(phase: .moved, location: origin))))
        // Last row: 442,up,260.28570556640625,521.7142944335938, without velocity.
        let last = try XCTUnwrap(samples.last)
        XCTAssertEqual(last.time, 442_000)
        guard case .touch(let touch) = last.kind else { return XCTFail() }
        XCTAssertEqual(touch.phase, .ended)
        XCTAssertNil(touch.velocity)
        XCTAssertEqual(touch.location.x, 195 + (260.28570556640625 - 270.0))
        XCTAssertEqual(touch.location.y, 522 + (521.7142944335938 - 538.2857055664062))
        XCTAssertEqual(
            samples.dropFirst().dropLast().filter {
                if case .touch(let t) = $0.kind { return t.phase == .moved } else { return false }
            }.count, 49)
        XCTAssertEqual(samples.map(\.time), samples.map(\.time).sorted())
    }

    func testEveryRealTouchCSVImports() throws {
        let dirs = ["flutter-velocity_tracker_data", "aosp-VelocityTracker_test"]
        for dir in dirs {
            let url = Self.fixturesDirectory.appendingPathComponent("real-traces/" + dir)
            let files = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".csv") }
                .sorted()
            XCTAssertFalse(files.isEmpty, dir)
            for f in files {
                let csv = try String(contentsOf: url.appendingPathComponent(f), encoding: .utf8)
                XCTAssertNoThrow(try importCSV(csv, ppu: 1.0 / 2.625, origin: Point(x: 195, y: 500)), f)
            }
        }
    }

    func testScalingSwapAndTimeRounding() throws {
        let csv =
            "t_ms,phase,x_px,y_px\r\n0.2,down,10,20\r\n1.0005,move,13,24\r\n1.0004,move,13,24\r\n\r\n2.0014999,up,13,30\r\n"
        // 1.0004 ms rounds to 1000 µs, before 1.0005 ms (1001 µs): backwards.
        assertError(csv, line: 4, field: "t_ms", "never decrease")
        let ok = "t_ms,phase,x_px,y_px\n0.0004,down,10,20\n1.0005,move,13,24\n1.0009,move,13,24\n2.0014999,up,13,30\n"
        let s = try importCSV(ok, ppu: 0.5, origin: Point(x: 100, y: 200))
        XCTAssertEqual(s.map(\.time), [0, 1001, 1001, 2001])
        XCTAssertEqual(s[1].kind, .touch(TouchSample(phase: .moved, location: Point(x: 101.5, y: 202))))
        let swapped = try importCSV(ok, ppu: 0.5, origin: Point(x: 100, y: 200), swap: true)
        XCTAssertEqual(swapped[3].kind, .touch(TouchSample(phase: .ended, location: Point(x: 105, y: 201.5))))
        // Timing is relative to the down row.
        let shifted = try importCSV("t_ms,phase,x_px,y_px\n100,down,0,0\n108.5,up,0,1\n")
        XCTAssertEqual(shifted.map(\.time), [0, 8500])
    }

    func testErrorsNameLineAndColumn() {
        assertError("", line: 0, field: "", "empty file")
        assertError("t,phase,x,y\n0,down,1,2\n", line: 1, field: "", "expected the header row t_ms,phase,x_px,y_px")
        assertError(
            "t_ms,phase,x_px,y_px\n0,move,1,2\n5,up,1,2\n", line: 2, field: "phase", "expected the first row to be down"
        )
        assertError(
            "t_ms,phase,x_px,y_px\n0,down,1,2\n5,move,1,2\n", line: 3, field: "phase", "expected the last row to be up")
        assertError("t_ms,phase,x_px,y_px\n0,down,1,2\n", line: 2, field: "phase", "expected the last row to be up")
        assertError("t_ms,phase,x_px,y_px\n", line: 1, field: "", "expected at least a down and an up row")
        assertError(
            "t_ms,phase,x_px,y_px\n0,down,293,\n1,up,293,\n", line: 2, field: "y_px",
            "column 4: expected a number, got an empty field")
        assertError(
            "t_ms,phase,x_px,y_px\n0,down,1,2\n1,hover,1,2\n2,up,1,2\n", line: 3, field: "phase",
            "column 2: expected down, move or up")
        assertError(
            "t_ms,phase,x_px,y_px\n0,down,1,2\nabc,move,1,2\n2,up,1,2\n", line: 3, field: "t_ms",
            "column 1: expected a decimal number")
        assertError(
            "t_ms,phase,x_px,y_px\n0,down,1e999,2\n2,up,1,2\n", line: 2, field: "x_px",
            "column 3: expected a finite decimal number")
        assertError(
            "t_ms,phase,x_px,y_px\n0,down,1,2\n1,down,1,2\n2,up,1,2\n", line: 3, field: "phase", "one gesture per file")
        assertError(
            "t_ms,phase,x_px,y_px\n0,down,1,2\n1,up,1,2\n2,move,1,2\n", line: 4, field: "phase",
            "nothing after the up row")
        assertError("t_ms,phase,x_px,y_px\n0,down,1,2,3\n", line: 2, field: "", "expected 4 comma-separated fields")
        XCTAssertThrowsError(
            try RealTraceCSV.importTouches(
                csv: "t_ms,phase,x_px,y_px\n0,down,1,2\n1,up,1,2\n", file: "g.csv",
                pointsPerUnit: 0, origin: .zero))
    }

    func testImportedSamplesMakeALoadableTrace() throws {
        let url = Self.fixturesDirectory.appendingPathComponent(
            "real-traces/flutter-velocity_tracker_data/g06_pointer6.csv")
        let csv = try String(contentsOf: url, encoding: .utf8)
        let samples = try RealTraceCSV.importTouches(
            csv: csv, file: "g06", pointsPerUnit: 1, origin: Point(x: 195, y: 500))
        let header = try TraceLoader.parse(text: Fixtures.minimalHeader, file: "g06.jsonl").header
        let text = TraceWriter.write(Trace(header: header, samples: samples))
        let reloaded = try TraceLoader.parse(text: text, file: "g06.jsonl")
        XCTAssertEqual(reloaded.samples.count, samples.count)
    }
}
