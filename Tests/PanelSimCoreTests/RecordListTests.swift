import XCTest
@testable import PanelSimCore

/// `RecordList` stores records packed; reading them back must give exactly what was appended.
final class RecordListTests: XCTestCase {
    private let records: [ResultRecord] = [
        .event(time: 0, .didChangeState(state: "half")),
        .event(time: 0, .didMove(location: 422)),
        .frame(
            FrameRecord(
                index: 0, location: 422, state: "half", backdropAlpha: 0.15, isAttracting: false, isDragging: false)),
        .event(time: 8_333, .willEndDragging(velocity: Point(x: 0, y: -1200), proposed: "full", target: "full")),
        .event(time: 8_333, .didMove(location: -0.0)),
        .frame(
            FrameRecord(
                index: 1, location: 421.5, state: "full", backdropAlpha: 0.3, contentOffset: -47,
                isAttracting: true, isDragging: false, scrollLocked: true)),
        .frame(
            FrameRecord(
                index: 2, location: 420, state: "half", backdropAlpha: 0.2, contentOffset: 0,
                isAttracting: false, isDragging: true, scrollLocked: false)),
        .event(time: 16_667, .didRemove),
    ]

    func testRoundTrip() {
        let list = RecordList(records)
        XCTAssertEqual(Array(list), records)
        XCTAssertEqual(list.count, records.count)
        XCTAssertEqual(list.frameCount, 3)
        // -0.0 keeps its sign (the result file writes it as -0).
        guard case .event(_, .didMove(let x)) = list[4] else { return XCTFail() }
        XCTAssertEqual(x.sign, .minus)
        // Optional fields come back as nil where they were nil, and as values where they were set.
        guard case .frame(let f0) = list[2], case .frame(let f2) = list[6] else { return XCTFail() }
        XCTAssertNil(f0.contentOffset)
        XCTAssertNil(f0.scrollLocked)
        XCTAssertEqual(f2.contentOffset, 0)
        XCTAssertEqual(f2.scrollLocked, false)
    }

    /// Copies share storage until one appends: value semantics, including across growth and
    /// for the core's unchecked (`owned`) appends.
    func testCopiesAreIndependent() {
        var a = RecordList(records)
        let snapshot = a
        a.append(.event(time: 1, .didRemove))  // checked append on shared storage: copies first
        XCTAssertEqual(Array(snapshot), records)
        XCTAssertEqual(a.count, records.count + 1)

        // The producer appends owned (no check) while a copy of it exists; the copy keeps its
        // records, and appending to the copy leaves the producer's alone.
        var producer = RecordList()
        for i in 0..<10 { producer.appendDidMove(time: Int64(i), location: Double(i), owned: true) }
        var copy = producer
        for i in 10..<100 { producer.appendDidMove(time: Int64(i), location: Double(i), owned: true) }  // grows past 16
        XCTAssertEqual(copy.count, 10)
        copy.append(.event(time: 99, .didRemove))
        XCTAssertEqual(producer.count, 100)
        for i in 0..<100 {
            guard case .event(let t, .didMove(let x)) = producer[i] else { return XCTFail("record \(i)") }
            XCTAssertEqual(t, Int64(i))
            XCTAssertEqual(x, Double(i))
        }
        XCTAssertEqual(copy.count, 11)
        guard case .event(99, .didRemove) = copy[10], case .event(9, .didMove(9)) = copy[9] else { return XCTFail() }

        // reserveCapacity on shared storage also detaches.
        var reserved = snapshot
        reserved.reserveCapacity(4)
        reserved.append(.event(time: 2, .didRemove))
        XCTAssertEqual(Array(snapshot), records)
    }

    func testEqualityComparesRecordsNotStorage() {
        // Same records, names first seen in a different order: equal; one field changed: not equal.
        var a = RecordList()
        a.append(records[2])
        a.append(records[5])
        var b = RecordList()
        _ = b.nameIndex("full")
        b.append(records[2])
        b.append(records[5])
        XCTAssertEqual(a, b)
        var c = RecordList()
        c.append(records[2])
        c.append(records[6])
        XCTAssertNotEqual(a, c)
    }

    func testMoreStateNamesThanSixteenBitsHold() {
        // A trace may bring any number of states (invalidateLayout can add new ones); 70,000
        // distinct names must index and read back.
        var list = RecordList()
        for i in 0..<70_000 {
            list.append(
                .frame(
                    FrameRecord(
                        index: i, location: Double(i), state: "s\(i)", backdropAlpha: 0,
                        isAttracting: false, isDragging: false)))
        }
        guard case .frame(let f) = list[69_999] else { return XCTFail() }
        XCTAssertEqual(f.state, "s69999")
        XCTAssertEqual(list.names.count, 70_000)
        // Names seen before the table switched from a scan to a dictionary are still found.
        for early in ["s0", "s7", "s8", "s9"] {
            list.append(
                .frame(
                    FrameRecord(
                        index: 70_000, location: 0, state: early, backdropAlpha: 0,
                        isAttracting: false, isDragging: false)))
            guard case .frame(let g) = list[list.count - 1] else { return XCTFail() }
            XCTAssertEqual(g.state, early)
        }
        XCTAssertEqual(list.names.count, 70_000)
    }

    func testFrameDeduplicationComparesValuesNotIndex() {
        var list = RecordList()
        list.append(records[2])
        let e = list.entry(0)
        var same = e
        same.integer = 7
        XCTAssertTrue(e.sameFrameValues(as: same))
        var moved = e
        moved.location = 421
        XCTAssertFalse(e.sameFrameValues(as: moved))
        var offsetOnly = e
        offsetOnly.contentOffset = 5  // ignored while the frame has no scroll view
        XCTAssertTrue(e.sameFrameValues(as: offsetOnly))
    }
}
