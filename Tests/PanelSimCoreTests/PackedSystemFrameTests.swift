import XCTest
@testable import PanelSimCore

/// Packed system frames (`SystemFrameLayout`, `RecordList.appendPackedFrame`, `SystemRecorder`):
/// read back as the `SystemFrame` their channels describe, deduplicated as
/// `SystemFrame.sameValues(as:)` says, with value semantics for copies.
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
        XCTAssertEqual(layout.channels.map(\.word), [1, 2, 3, 0, 0, 0])
        XCTAssertEqual(layout.channels.map(\.presenceBit), [-1, -1, 0, 1, -1, -1])
        XCTAssertEqual(layout.channels.map(\.valueBit), [-1, -1, -1, 2, 3, 4])
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
        for (k, f) in frames.enumerated() { records.appendPackedFrame(f, index: k, owned: true) }
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
        var recorder = SystemRecorder<TestFrame>()
        let base = TestFrame(location: 0, state: 0, offset: 1, visible: true, dragging: false, animating: true)
        recorder.record(base, index: 0)
        recorder.record(base, index: 0)   // frame 0 is always written
        recorder.record(base, index: 1)
        var negativeZero = base; negativeZero.location = -0.0
        recorder.record(negativeZero, index: 2)   // -0 == 0
        var absent = base; absent.offset = nil
        recorder.record(absent, index: 3)   // a channel left out
        var zeroOffset = base; zeroOffset.offset = 0
        recorder.record(zeroOffset, index: 4)   // present with 0 is not absent
        var hidden = zeroOffset; hidden.visible = false
        recorder.record(hidden, index: 5)
        var noVisibility = hidden; noVisibility.visible = nil
        recorder.record(noVisibility, index: 6)
        var renamed = noVisibility; renamed.state = 1
        recorder.record(renamed, index: 7)
        var nan = renamed; nan.location = .nan
        recorder.record(nan, index: 8)
        recorder.record(nan, index: 9)   // NaN differs from itself
        let frames = recorder.finish().records.compactMap { if case let .systemFrame(f) = $0 { return f } else { return nil } }
        XCTAssertEqual(frames.map(\.index), [0, 0, 3, 4, 5, 6, 7, 8, 9])
        // The recorder drops a frame exactly when SystemFrame.sameValues says it repeats the last one.
        for (a, b) in zip(frames.dropFirst(), frames.dropFirst(2)) { XCTAssertFalse(a.sameValues(as: b)) }
        let names = ["rest", "moving"]
        XCTAssertTrue(frames[1].sameValues(as: base.expected(index: 1, names: names)))
        XCTAssertTrue(frames[1].sameValues(as: negativeZero.expected(index: 2, names: names)))
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

    /// A streaming replay takes the recorder's records between samples (`SystemRecorder.takeRecords`):
    /// the pieces, in order, are the records of a recorder that kept them all; a name looked up
    /// before a hand-over keeps its index after it; the frame after a hand-over is still compared
    /// with the last one recorded before it; a piece handed over is not changed by later records.
    func testRecorderHandsOverItsRecordsInPiecesWithTheSameNames() {
        func run(_ recorder: inout SystemRecorder<TestFrame>, takingAt points: Set<Int>, into pieces: inout [RecordList]) {
            let custom = recorder.nameIndex("custom")
            var step = 0
            func take() {
                if points.contains(step), let piece = recorder.takeRecords() { pieces.append(piece) }
                step += 1
            }
            recorder.record(TestFrame(location: 1, state: custom, offset: nil, visible: nil, dragging: false, animating: false), index: 0)
            take()
            recorder.emit("began", [RecordField("state", .string("custom"))], at: 10)
            take()
            // The same values as the last frame: dropped, also right after a hand-over.
            recorder.record(TestFrame(location: 1, state: custom, offset: nil, visible: nil, dragging: false, animating: false), index: 1)
            take()
            recorder.record(TestFrame(location: 2, state: recorder.nameIndex("custom"), offset: 3, visible: true, dragging: true, animating: false), index: 2)
            take()
            let later = recorder.nameIndex("later")   // a name entered after a hand-over
            recorder.record(TestFrame(location: 2, state: later, offset: 3, visible: true, dragging: true, animating: false), index: 3)
            take()
            recorder.record(TestFrame(location: 2, state: custom, offset: nil, visible: false, dragging: false, animating: true), index: 4)
            take()
        }
        var whole = SystemRecorder<TestFrame>()
        var none: [RecordList] = []
        run(&whole, takingAt: [], into: &none)
        let expected = Array(whole.finish().records)
        XCTAssertEqual(expected.compactMap(\.frameIndex), [0, 2, 3, 4])
        for points in [Set(0..<6), [0], [1, 3], [2], [4, 5]] as [Set<Int>] {
            var recorder = SystemRecorder<TestFrame>()
            var pieces: [RecordList] = []
            run(&recorder, takingAt: points, into: &pieces)
            if points.contains(5) { XCTAssertNil(recorder.takeRecords(), "nothing recorded since the last hand-over") }
            pieces.append(recorder.finish().records)
            XCTAssertGreaterThan(pieces.count, 1, "\(points)")
            XCTAssertEqual(pieces.flatMap { Array($0) }, expected, "hand-overs after steps \(points)")
            XCTAssertTrue(pieces.allSatisfy { $0.names.starts(with: ["rest", "moving", "custom"]) }, "\(points)")
        }
    }

    /// A system frame type's `==` must say what `SystemFrame.sameValues(as:)` says of the frames'
    /// views: checked on frames that differ from a base in one channel at a time (−0 for 0 and NaN
    /// among them).
    private func assertEqualityMatchesViews<F: PackedSystemFrame>(_ base: F, _ variants: [F], names: [String],
                                                                file: StaticString = #filePath, line: UInt = #line) {
        func view(_ f: F) -> SystemFrame {
            var list = RecordList()
            list.usePackedFrames(F.layout)
            for n in names where !F.layout.vocabulary.contains(n) { _ = list.nameIndex(n) }
            list.appendPackedFrame(f, index: 0)
            guard case let .systemFrame(frame) = list[0] else { fatalError("not a system frame") }
            return frame
        }
        for (i, v) in ([base] + variants).enumerated() {
            XCTAssertEqual(base == v, view(base).sameValues(as: view(v)), "variant \(i)", file: file, line: line)
            XCTAssertEqual(v == v, view(v).sameValues(as: view(v)), "variant \(i) with itself", file: file, line: line)
        }
    }

    func testSystemFrameEqualityMatchesTheirViews() {
        let d = DrawerKitFrame(location: 0, state: 2, cornerRadius: 15, handleAlpha: 1, contentOffset: nil,
                               isDragging: false, isAnimating: true, presented: true)
        var dv: [DrawerKitFrame] = []
        var x = d; x.location = -0.0; dv.append(x)
        x = d; x.location = .nan; dv.append(x)
        x = d; x.state = 4; dv.append(x)
        x = d; x.cornerRadius = 14; dv.append(x)
        x = d; x.handleAlpha = nil; dv.append(x)
        x = d; x.contentOffset = 0; dv.append(x)
        x = d; x.isDragging = true; dv.append(x)
        x = d; x.isAnimating = false; dv.append(x)
        x = d; x.presented = false; dv.append(x)
        assertEqualityMatchesViews(d, dv, names: [])

        let p = LNPopupFrame(location: 760, state: .barPresented, internalState: .transitioning, barVisible: true, barTop: 696,
                             barHeight: 64, bottomBarTop: 761, bottomBarVisible: true, contentOffset: nil, isDragging: false,
                             isAnimating: true)
        var pv: [LNPopupFrame] = []
        var y = p; y.location = 759; pv.append(y)
        y = p; y.state = .open; pv.append(y)
        y = p; y.internalState = .open; pv.append(y)
        y = p; y.barVisible = false; pv.append(y)
        y = p; y.barTop = -0.0; pv.append(y)
        y = p; y.barHeight = .nan; pv.append(y)
        y = p; y.bottomBarTop = nil; pv.append(y)
        y = p; y.bottomBarVisible = false; pv.append(y)
        y = p; y.bottomBarVisible = nil; pv.append(y)
        y = p; y.contentOffset = -47; pv.append(y)
        y = p; y.isDragging = true; pv.append(y)
        y = p; y.isAnimating = false; pv.append(y)
        assertEqualityMatchesViews(p, pv, names: [])

        let s = UISheetFrame(location: 388, state: 0, dimming: 1, backdropAlpha: 0.2, contentOffset: 0, isDragging: false,
                             isAttracting: true, presented: true)
        var sv: [UISheetFrame] = []
        var z = s; z.location = 388.5; sv.append(z)
        z = s; z.state = SystemFrameLayout.nullName; sv.append(z)
        z = s; z.state = 1; sv.append(z)
        z = s; z.dimming = 0.5; sv.append(z)
        z = s; z.backdropAlpha = 0; sv.append(z)
        z = s; z.contentOffset = nil; sv.append(z)
        z = s; z.contentOffset = -0.0; sv.append(z)
        z = s; z.isDragging = true; sv.append(z)
        z = s; z.isAttracting = false; sv.append(z)
        z = s; z.presented = false; sv.append(z)
        assertEqualityMatchesViews(s, sv, names: ["medium", "large"])
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
