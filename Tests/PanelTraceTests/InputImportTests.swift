import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

/// The getevent and pointer-event importers and the shared placement.
final class InputImportTests: XCTestCase {
    static var examples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/logs")
    }

    static func touches(_ samples: [TraceSample]) -> [(Microseconds, TouchPhase, Int, Double, Double)] {
        samples.compactMap { s in
            guard case .touch(let t) = s.kind else { return nil }
            return (s.time, t.phase, t.id, t.location.x, t.location.y)
        }
    }

    let origin = Point(x: 195, y: 522)

    func assertError(
        _ body: () throws -> Void, line: Int, field: String, _ fragment: String,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: sourceLine) { error in
            let e = error as! TraceError
            XCTAssertEqual(e.line, line, e.description, file: file, line: sourceLine)
            XCTAssertEqual(e.field, field, e.description, file: file, line: sourceLine)
            XCTAssertTrue(
                e.message.contains(fragment), "«\(e.description)» lacks «\(fragment)»", file: file, line: sourceLine)
            XCTAssertFalse(e.description.contains("\n"), file: file, line: sourceLine)
        }
    }

    // MARK: - Placement

    func testPlacementSwapsThenFlips() {
        let p = ImportPlacement(
            origin: Point(x: 10, y: 20), pointsPerUnit: 0.5, swapAxes: true, flipX: true, flipY: false)
        // (dx, dy) = (4, 2) px → (2, 1) pt → swapped (1, 2) → x flipped (−1, 2).
        XCTAssertEqual(p.place(x: 104, y: 202, x0: 100, y0: 200), Point(x: 9, y: 22))
        XCTAssertNil(p.place(x: 1e300, y: 0, x0: 0, y0: 0))
        XCTAssertThrowsError(try ImportPlacement(origin: .zero, pointsPerUnit: 0).validate(file: "f"))
        XCTAssertThrowsError(try ImportPlacement(origin: Point(x: .nan, y: 0), pointsPerUnit: 1).validate(file: "f"))
    }

    func testCSVImportHonoursFlips() throws {
        let csv = "t_ms,phase,x_px,y_px\n0,down,10,10\n8,move,13,4\n8,up,13,4\n"
        let flipped = try RealTraceCSV.importTouches(
            csv: csv, file: "g.csv",
            placement: ImportPlacement(origin: origin, pointsPerUnit: 1, flipX: true, flipY: true))
        XCTAssertEqual(Self.touches(flipped).last.map { [$0.3, $0.4] }, [192, 528])
    }

    // MARK: - getevent

    func testGeteventOneFingerFlick() throws {
        let text = try String(
            contentsOf: Self.examples.appendingPathComponent("flick-up.getevent.txt"), encoding: .utf8)
        let samples = try GeteventLog.importTouches(
            text: text, file: "flick.txt",
            placement: ImportPlacement(origin: origin, pointsPerUnit: 1.0 / 3))
        let t = Self.touches(samples)
        XCTAssertEqual(t.count, 14)
        XCTAssertEqual(t.first.map { [Double($0.0), $0.3, $0.4] }, [0, 195, 522])
        XCTAssertEqual(t.first?.1, .began)
        XCTAssertEqual(t.dropFirst().dropLast().map(\.1), Array(repeating: .moved, count: 12))
        XCTAssertEqual(t.map(\.2), Array(repeating: 0, count: 14))
        // Second frame: [51234.508333], y 0x73d = 1853 px → 522 + (1853 − 1900) / 3.
        XCTAssertEqual(t[1].0, 8_333)
        XCTAssertEqual(t[1].4, 522 + (1853.0 - 1900) / 3, accuracy: 1e-12)
        // Lift: ended at the last position (x 543 px, y 700 px), at the lift frame's time.
        let last = try XCTUnwrap(t.last)
        XCTAssertEqual(last.1, .ended)
        XCTAssertEqual(last.0, 108_329)
        XCTAssertEqual(last.3, 195 + 3.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(last.4, 522 + (700.0 - 1900) / 3, accuracy: 1e-12)
        XCTAssertEqual(t.map(\.0), t.map(\.0).sorted())
    }

    func testGeteventTwoFingersWithSlots() throws {
        let text = try String(
            contentsOf: Self.examples.appendingPathComponent("two-fingers.getevent.txt"), encoding: .utf8)
        let t = Self.touches(
            try GeteventLog.importTouches(
                text: text, file: "two.txt",
                placement: ImportPlacement(origin: origin, pointsPerUnit: 1)))
        let expected: [(Microseconds, TouchPhase, Int, Double, Double)] = [
            (0, .began, 0, 195, 522), (10_000, .moved, 0, 195, 492), (10_000, .began, 1, 495, 622),
            (20_000, .ended, 0, 195, 492), (20_000, .moved, 1, 495, 592), (30_000, .ended, 1, 495, 592),
        ]
        XCTAssertEqual(t.count, expected.count)
        for (a, b) in zip(t, expected) {
            XCTAssertTrue(a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4, "\(a) ≠ \(b)")
        }
    }

    func testGeteventNumericCodesAndReusedSlots() throws {
        // Plain `getevent -t` (no labels) and a slot whose contact is replaced in one frame.
        let text = """
            [     1.000000] 0003 0039 00000005
            [     1.000000] 0003 0035 00000064
            [     1.000000] 0003 0036 000000c8
            [     1.000000] 0000 0000 00000000
            [     1.016000] 0003 0039 00000006
            [     1.016000] 0003 0036 000000d2
            [     1.016000] 0000 0000 00000000
            [     1.032000] 0003 0039 ffffffff
            [     1.032000] 0000 0000 00000000
            """
        let t = Self.touches(
            try GeteventLog.importTouches(
                text: text, file: "n.txt",
                placement: ImportPlacement(origin: .zero, pointsPerUnit: 1)))
        XCTAssertEqual(t.map(\.1), [.began, .ended, .began, .ended])
        XCTAssertEqual(t.map(\.0), [0, 16_000, 16_000, 32_000])
        XCTAssertEqual(t.map(\.4), [0, 0, 10, 10])
    }

    func testGeteventMalformedLines() {
        let p = ImportPlacement(origin: origin, pointsPerUnit: 1)
        func run(_ text: String) throws { _ = try GeteventLog.importTouches(text: text, file: "bad.txt", placement: p) }
        let start =
            "[   10.000000] EV_ABS ABS_MT_TRACKING_ID 00000001\n[   10.000000] EV_ABS ABS_MT_POSITION_X 00000001\n[   10.000000] EV_ABS ABS_MT_POSITION_Y 00000001\n[   10.000000] EV_SYN SYN_REPORT 00000000\n"
        assertError(
            { try run(start + "10.01 EV_ABS ABS_MT_POSITION_X 00000002\n") }, line: 5, field: "timestamp",
            "expected a line starting with a timestamp")
        assertError(
            { try run(start + "[   10.0x1000] EV_ABS ABS_MT_POSITION_X 00000002\n") }, line: 5, field: "timestamp",
            "SECONDS.MICROS")
        assertError(
            { try run(start + "[   10.010000] EV_ABS ABS_MT_POSITION_X\n") }, line: 5, field: "",
            "expected TYPE CODE VALUE")
        assertError(
            { try run(start + "[   10.010000] EV_ABS ABS_MT_POSITION_X 0000zz02\n") }, line: 5, field: "value",
            "ABS_MT_POSITION_X: expected up to 8 hex digits, got \"0000zz02\"")
        assertError(
            { try run(start + "[   10.010000] ev_abs ABS_MT_POSITION_X 00000002\n") }, line: 5, field: "type",
            "expected an event type")
        assertError(
            { try run(start + "[   10.010000] EV_ABS abs_mt_position 00000002\n") }, line: 5, field: "code",
            "expected an event code")
        assertError(
            {
                try run(
                    start
                        + "[    9.000000] EV_ABS ABS_MT_POSITION_X 00000002\n[    9.000000] EV_SYN SYN_REPORT 00000000\n"
                )
            },
            line: 6, field: "timestamp", "expected times that never decrease")
        assertError(
            { try run(start + "[   10.010000] EV_SYN SYN_MT_REPORT 00000000\n") }, line: 5, field: "SYN_MT_REPORT",
            "protocol A is not supported")
        assertError(
            { try run(start + "[   10.010000] EV_SYN SYN_DROPPED 00000000\n") }, line: 5, field: "SYN_DROPPED",
            "dropped events")
        assertError(
            {
                try run(
                    start
                        + "[   10.010000] EV_ABS ABS_MT_SLOT 00000001\n[   10.010000] EV_ABS ABS_MT_TRACKING_ID 00000002\n[   10.010000] EV_ABS ABS_MT_POSITION_X 00000002\n[   10.010000] EV_SYN SYN_REPORT 00000000\n"
                )
            },
            line: 8, field: "ABS_MT_POSITION_Y", "contact 2 in slot 1 (started on line 6) has no y position")
        assertError(
            { try run("add device 1: /dev/input/event2\n  name:     \"ts\"\n") }, line: 0, field: "", "no events")
        assertError(
            { try run("[   10.000000] EV_KEY BTN_TOUCH DOWN\n[   10.000000] EV_SYN SYN_REPORT 00000000\n") }, line: 0,
            field: "ABS_MT_TRACKING_ID", "no contact started")
    }

    // MARK: - Pointer events

    func testPointerLog() throws {
        let text = try String(
            contentsOf: Self.examples.appendingPathComponent("drag-down.pointer.jsonl"), encoding: .utf8)
        let t = Self.touches(
            try PointerEventLog.importTouches(
                text: text, file: "p.jsonl",
                placement: ImportPlacement(origin: origin, pointsPerUnit: 1)))
        XCTAssertEqual(t.count, 12, "hover events of the mouse are skipped")
        XCTAssertEqual(t.first.map { [Double($0.0), $0.3, $0.4] }, [0, 195, 522])
        XCTAssertEqual(t[1].0, 8_300)
        XCTAssertEqual(t[1].3, 195.5)
        XCTAssertEqual(t[1].4, 540)
        XCTAssertEqual(t.last?.1, .ended)
        XCTAssertEqual(t.last?.0, 85_000)
        XCTAssertEqual(t.map(\.2), Array(repeating: 0, count: 12))
    }

    func testPointerTwoPointersAndCancel() throws {
        let text = """
            {"type": "pointerdown", "pointerId": 3, "clientX": 100, "clientY": 100, "timeStamp": 10}
            {"type": "pointerdown", "pointerId": 9, "clientX": 200, "clientY": 100, "timeStamp": 12.5}

            {"type": "pointermove", "pointerId": 9, "clientX": 210, "clientY": 90, "timeStamp": 20.25}
            {"type": "pointerup", "pointerId": 3, "clientX": 100, "clientY": 100, "timeStamp": 30}
            {"type": "pointercancel", "pointerId": 9, "timeStamp": 31}
            {"type": "pointerdown", "pointerId": 4, "clientX": 0, "clientY": 0, "timeStamp": 40}
            """
        let t = Self.touches(
            try PointerEventLog.importTouches(
                text: text, file: "p.jsonl",
                placement: ImportPlacement(origin: .zero, pointsPerUnit: 2)))
        XCTAssertEqual(t.map(\.1), [.began, .began, .moved, .ended, .cancelled, .began])
        XCTAssertEqual(t.map(\.2), [0, 1, 1, 0, 1, 0], "a new pointer takes the lowest free id")
        XCTAssertEqual(t.map(\.0), [0, 2_500, 10_250, 20_000, 21_000, 30_000])
        XCTAssertEqual(t[4].3, 220, "cancel lands at the pointer's last position")
        XCTAssertEqual(t[4].4, -20)
    }

    func testPointerMalformedLines() {
        let p = ImportPlacement(origin: origin, pointsPerUnit: 1)
        func run(_ text: String) throws {
            _ = try PointerEventLog.importTouches(text: text, file: "p.jsonl", placement: p)
        }
        let down = "{\"type\": \"pointerdown\", \"pointerId\": 1, \"clientX\": 1, \"clientY\": 2, \"timeStamp\": 5}\n"
        assertError(
            { try run(down + "{\"type\": \"pointermove\", \"pointerId\": 1, \"clientX\": 1,\n") }, line: 2, field: "",
            "invalid JSON at column")
        assertError({ try run(down + "[1, 2]\n") }, line: 2, field: "", "expected an object")
        assertError(
            { try run(down + "{\"type\": \"pointerwiggle\", \"pointerId\": 1}\n") }, line: 2, field: "type",
            "expected one of pointerdown, pointermove, pointerup, pointercancel")
        assertError(
            {
                try run(
                    down
                        + "{\"type\": \"pointermove\", \"pointerId\": \"a\", \"clientX\": 1, \"clientY\": 2, \"timeStamp\": 6}\n"
                )
            }, line: 2, field: "pointerId", "expected a number")
        assertError(
            { try run(down + "{\"type\": \"pointermove\", \"pointerId\": 1, \"clientY\": 2, \"timeStamp\": 6}\n") },
            line: 2, field: "clientX", "missing required field")
        assertError(
            { try run(down + "{\"type\": \"pointermove\", \"pointerId\": 1, \"clientX\": 1, \"clientY\": 2}\n") },
            line: 2, field: "timeStamp", "missing required field")
        assertError(
            {
                try run(
                    down
                        + "{\"type\": \"pointermove\", \"pointerId\": 1, \"clientX\": 1, \"clientY\": 2, \"timeStamp\": 4}\n"
                )
            }, line: 2, field: "timeStamp", "expected times that never decrease")
        assertError(
            {
                try run(
                    down
                        + "{\"type\": \"pointerup\", \"pointerId\": 2, \"clientX\": 1, \"clientY\": 2, \"timeStamp\": 6}\n"
                )
            }, line: 2, field: "pointerId", "contact 2 lifts without going down first")
        assertError({ try run(down + down) }, line: 2, field: "type", "goes down again while down since line 1")
        assertError(
            {
                try run(
                    down
                        + "{\"type\": \"pointermove\", \"pointerId\": 1, \"clientX\": 1e9, \"clientY\": 2, \"timeStamp\": 6}\n"
                )
            }, line: 2, field: "clientX", "magnitude ≤ 10000000")
        assertError(
            {
                try run(
                    "{\"type\": \"pointermove\", \"pointerId\": 1, \"clientX\": 1, \"clientY\": 2, \"timeStamp\": 6}\n")
            }, line: 0, field: "type", "no pointerdown")
    }
}
