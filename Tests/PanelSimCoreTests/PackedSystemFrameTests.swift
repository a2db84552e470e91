import XCTest
@testable import PanelSimCore

/// Packed system frames (`SystemFrameLayout`, `RecordList.appendPackedFrame`): read back as the
/// `SystemFrame` their channels describe, deduplicated as `SystemFrame.sameValues(as:)` says, with
/// value semantics for copies.
final class PackedSystemFrameTests: XCTestCase {
    /// A frame with every kind of channel: numbers, a name (or null), an optional number, an
    /// optional bool, and bools.
    struct TestFrame: PackedSystemFrame {
        var location: Double
        var state: UInt32
        var offset: Double?
        var visible: Bool?
        var dragging: Bool
        var animating: Bool

        static let layout = SystemFrameLayout(
            [.number("location"), .name("state"), .number("offset", optional: true), .bool("visible", optional: true),
             .bool("dragging"), .bool("animating")],
            vocabulary: ["rest", "moving"])

        func pack(into w: inout PackedFrameWriter) {
            w.number(location); w.name(state); w.number(offset); w.bool(visible); w.bool(dragging); w.bool(animating)
        }

        /// The channels the frame stands for, written out by hand.
        func expected(index: Int, names: [String]) -> SystemFrame {
            var channels = [RecordField("location", .number(location)),
                            RecordField("state", state == SystemFrameLayout.nullName ? .null : .string(names[Int(state)]))]
            if let offset { channels.append(RecordField("offset", .number(offset))) }
            if let visible { channels.append(RecordField("visible", .bool(visible))) }
            channels += [RecordField("dragging", .bool(dragging)), RecordField("animating", .bool(animating))]
            return SystemFrame(index: index, channels: channels)
        }
    }

    private func list() -> RecordList {
        var list = RecordList()
        list.usePackedFrames(TestFrame.layout)
        return list
    }

    func testLayoutPlacesChannels() {
        let layout = TestFrame.layout
        XCTAssertEqual(layout.wordCount, 4)           // bits, location, state, offset
        XCTAssertEqual(layout.numberWords, 0b1010)    // words 1 and 3 hold numbers
        XCTAssertEqual(layout.channels.map(\.key), ["location", "state", "offset", "visible", "dragging", "animating"])
    }

    func testFramesReadBackAsTheirChannels() {
        var records = list()
        XCTAssertEqual(records.names, ["rest", "moving"])   // the vocabulary comes first
        let custom = records.nameIndex("custom")
        let frames = [
            TestFrame(location: 422, state: 0, offset: nil, visible: nil, dragging: false, animating: false),
            TestFrame(location: -0.0, state: 1, offset: -47.5, visible: true, dragging: true, animating: false),
            TestFrame(location: 1e300, state: custom, offset: 0, visible: false, dragging: false, animating: true),
            TestFrame(location: 3, state: SystemFrameLayout.nullName, offset: nil, visible: false, dragging: true, animating: true),
        ]
        records.append(.event(time: 5, .system(SystemEvent(name: "between"))))
        for (k, f) in frames.enumerated() { XCTAssertTrue(records.appendPackedFrame(f, index: k, owned: true)) }
        XCTAssertEqual(records.count, 5)
        XCTAssertEqual(records.frameCount, 4)
        for (k, f) in frames.enumerated() {
            XCTAssertEqual(records[k + 1], .systemFrame(f.expected(index: k, names: records.names)), "frame \(k)")
        }
        guard case let .systemFrame(f1) = records[2], case let .number(x)? = f1["location"] else { return XCTFail() }
        XCTAssertEqual(x.sign, .minus)   // -0 keeps its sign
        XCTAssertEqual(records[0], .event(time: 5, .system(SystemEvent(name: "between"))))
    }

    func testRepeatedFramesAreDroppedAsSystemFrameSameValuesSays() {
        var records = list()
        let base = TestFrame(location: 0, state: 0, offset: 1, visible: true, dragging: false, animating: true)
        XCTAssertTrue(records.appendPackedFrame(base, index: 0))
        XCTAssertTrue(records.appendPackedFrame(base, index: 0), "frame 0 is always written")
        XCTAssertFalse(records.appendPackedFrame(base, index: 1))
        var negativeZero = base; negativeZero.location = -0.0
        XCTAssertFalse(records.appendPackedFrame(negativeZero, index: 2), "-0 == 0")
        var absent = base; absent.offset = nil
        XCTAssertTrue(records.appendPackedFrame(absent, index: 3), "a channel left out")
        var zeroOffset = base; zeroOffset.offset = 0
        XCTAssertTrue(records.appendPackedFrame(zeroOffset, index: 4), "present with 0 is not absent")
        var hidden = zeroOffset; hidden.visible = false
        XCTAssertTrue(records.appendPackedFrame(hidden, index: 5))
        var renamed = hidden; renamed.state = 1
        XCTAssertTrue(records.appendPackedFrame(renamed, index: 6))
        var nan = renamed; nan.location = .nan
        XCTAssertTrue(records.appendPackedFrame(nan, index: 7))
        XCTAssertTrue(records.appendPackedFrame(nan, index: 8), "NaN differs from itself")
        // Each written frame differs from the one before it exactly when SystemFrame says so.
        let frames = records.compactMap { if case let .systemFrame(f) = $0 { return f } else { return nil } }
        XCTAssertEqual(frames.map(\.index), [0, 0, 3, 4, 5, 6, 7, 8])
        for (a, b) in zip(frames.dropFirst(2), frames.dropFirst(3)) { XCTAssertFalse(a.sameValues(as: b)) }
        XCTAssertTrue(frames[0].sameValues(as: SystemFrame(index: 2, channels: negativeZeroChannels(base))))
    }

    private func negativeZeroChannels(_ f: TestFrame) -> [RecordField] {
        var g = f; g.location = -0.0
        return g.expected(index: 0, names: ["rest", "moving"]).channels
    }

    func testCopiesAreIndependent() {
        var producer = list()
        for k in 0..<10 { producer.appendPackedFrame(TestFrame(location: Double(k), state: 0, offset: nil, visible: nil, dragging: false, animating: false), index: k, owned: true) }
        var copy = producer
        for k in 10..<500 { producer.appendPackedFrame(TestFrame(location: Double(k), state: 1, offset: Double(k), visible: true, dragging: true, animating: true), index: k, owned: true) }
        XCTAssertEqual(copy.count, 10)
        copy.appendPackedFrame(TestFrame(location: -1, state: 0, offset: nil, visible: nil, dragging: false, animating: false), index: 10)
        XCTAssertEqual(producer.count, 500)
        guard case let .systemFrame(a) = producer[10], case let .systemFrame(b) = copy[10] else { return XCTFail() }
        XCTAssertEqual(a["location"], .number(10))
        XCTAssertEqual(b["location"], .number(-1))
        for k in 0..<500 {
            guard case let .systemFrame(f) = producer[k] else { return XCTFail("record \(k)") }
            XCTAssertEqual(f.index, k); XCTAssertEqual(f["location"], .number(Double(k)))
        }
        var reserved = copy
        reserved.reservePackedFrames(1000)
        reserved.appendPackedFrame(TestFrame(location: 7, state: 0, offset: nil, visible: nil, dragging: false, animating: false), index: 11, owned: true)
        XCTAssertEqual(copy.count, 11)
        XCTAssertEqual(reserved.count, 12)
    }

    /// The systems' state names: each place or state writes the index of its own name.
    func testSystemVocabulariesMatchTheirStates() {
        let drawer = DrawerKitFrame.layout.vocabulary
        for place in DrawerState.allCases.map(DrawerPlace.named) + [.transitioning(300)] {
            XCTAssertEqual(drawer[Int(place.frameNameIndex)], place.name)
        }
        let popup = LNPopupFrame.layout.vocabulary
        for state in PopupPresentationState.allCases { XCTAssertEqual(popup[state.rawValue], state.name) }
        XCTAssertEqual(UISheetFrame.layout.vocabulary, [])
    }
}
