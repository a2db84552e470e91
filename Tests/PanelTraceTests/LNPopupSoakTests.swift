import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// LNPopup's soak checker (P1–P6 of lnpopup.md §6), each rule both ways: a legitimate replay
/// passes (and the rule was evaluated on it), the same replay tampered into a violation is reported
/// under that rule. Plus the generator (deterministic, valid), the model's rule for a touch that an
/// animation overruns, and a bounded soak.
final class LNPopupSoakTests: XCTestCase {
    let soak = LNPopupSoak()

    /// Device D1 with a 83 pt tab bar (dock 761), `style` interaction.
    static func header(style: String = "default", initial: String = "barPresented") -> String {
        #"{"format": "panelsim-trace", "version": 1, "model": "lnpopup", "name": "p", "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, "popup": {"interactionStyle": "\#(style)", "bottomBar": {"kind": "tabBar", "height": 83}, "initialState": "\#(initial)"}}"#
    }

    func openTrace() throws -> Trace {
        try SoakTestSupport.trace([Self.header(), #"{"t": 0.1, "call": "openPopup"}"#])
    }

    /// A drag down the open content by 20 pt steps from y 300, released moving down: closes.
    /// Sample times are frame k's time floored to whole µs, so that each lands on its own frame.
    func dragTrace(style: String = "default", steps: Int = 10, velocity: Double = 600) throws -> Trace {
        func t(_ k: Int) -> Double { ((0.1 + Double(k) / 120) * 1e6).rounded(.down) / 1e6 }
        var lines = [Self.header(style: style, initial: "open"), #"{"t": 0.1, "touch": "began", "x": 195, "y": 300}"#]
        for k in 1...steps {
            lines.append(
                #"{"t": \#(t(k)), "touch": "moved", "x": 195, "y": \#(300 + 20 * k), "velocity": {"x": 0, "y": \#(velocity)}}"#
            )
        }
        lines.append(
            #"{"t": \#(t(steps + 1)), "touch": "ended", "x": 195, "y": \#(300 + 20 * steps), "velocity": {"x": 0, "y": \#(velocity)}}"#
        )
        return try SoakTestSupport.trace(lines)
    }

    func testP1AndP2AtRest() throws {
        let trace = try openTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "P1"), 0)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "P2"), 0)
        let last = try XCTUnwrap(SoakTestSupport.frames(records).last)
        XCTAssertEqual(last.frame.state, "open")
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "internalState", .string("transitioning"))
                }), ["P1@lnpopup:state"])
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "location", .number(5))
                }), ["P1@lnpopup:location"])
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "barVisible", .bool(true))
                }), ["P2@lnpopup:bar"])
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "bottomBarVisible", .bool(true))
                }), ["P2@lnpopup:bottom-bar"])
    }

    func testP3WillAndDidPair() throws {
        let trace = try openTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "P3"), 0)
        var unclosed = records
        unclosed.remove(at: try XCTUnwrap(SoakTestSupport.event(records, "didOpenPopup")))
        XCTAssertEqual(SoakTestSupport.keys(soak, trace, unclosed), ["P3@lnpopup:unclosed"])
        var unopened = records
        unopened.append(
            .event(
                time: 2_000_000,
                .system(SystemEvent(name: "didClosePopup", fields: [RecordField("animated", .bool(true))]))))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, unopened).contains("P3@lnpopup:unopened"))
        // Q3's doubled willOpenPopup counts once.
        let doubled = try SoakTestSupport.trace([
            Self.header(initial: "barHidden"), #"{"t": 0.1, "call": "presentBar", "openPopup": true}"#,
        ])
        XCTAssertEqual(SoakTestSupport.rules(soak, doubled, SoakTestSupport.replay(doubled)), [])
    }

    func testP4DragFollowsTheFingerWithinTheDockingLine() throws {
        let trace = try dragTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "P4"), 3)
        let dragging = SoakTestSupport.frames(records).filter { $0.frame["isDragging"] == .bool(true) }
        let mid = try XCTUnwrap(dragging.dropFirst(2).first)
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: mid.index) {
                    SoakTestSupport.setting($0, "location", .number($0.location + 4))
                }), ["P4@lnpopup:follow"])
        XCTAssertTrue(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: mid.index) {
                    SoakTestSupport.setting($0, "location", .number(-5))
                }
            ).contains("P4@lnpopup:bound"))
        // Snap from open: the rubber band R(x) < x; a frame that follows the finger 1:1 is reported.
        let snap = try dragTrace(style: "snap", steps: 3, velocity: 100)
        let snapRecords = SoakTestSupport.replay(snap)
        XCTAssertEqual(SoakTestSupport.rules(soak, snap, snapRecords), [])
        let pulled = try XCTUnwrap(SoakTestSupport.frames(snapRecords).last { $0.frame["isDragging"] == .bool(true) })
        XCTAssertLessThan(pulled.frame.location, 40)
        let keys = SoakTestSupport.keys(
            soak, snap,
            SoakTestSupport.tamper(snapRecords, frameAt: pulled.index) {
                SoakTestSupport.setting($0, "location", .number(60))
            })
        XCTAssertTrue(keys.contains("P4@lnpopup:snap") && keys.contains("P4@lnpopup:follow"), "\(keys)")
    }

    func testP5NoDragDuringAnAnimationAndStateChangesOnlyAtCompletions() throws {
        let trace = try openTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "P5"), 0)
        // A drag start written while the opening animates.
        var during = records
        let frame = try XCTUnwrap(
            SoakTestSupport.frames(records).first { $0.frame["isAnimating"] == .bool(true) && $0.frame.index > 20 })
        during.insert(
            .event(
                time: frameTime(frame.frame.index, frameRate: 120) + 100,
                .system(
                    SystemEvent(
                        name: "willBeginDragging",
                        fields: [
                            RecordField("state", .string("barPresented")),
                            RecordField("recognizer", .string("interaction")),
                        ]))),
            at: frame.index + 1)
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, during).contains("P5@lnpopup:animating"))
        // The public state shown as open before its didChangeState.
        let early = SoakTestSupport.tamper(records, frameAt: frame.index) {
            SoakTestSupport.setting($0, "state", .string("open"))
        }
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, early).contains("P5@lnpopup:state"))
    }

    func testP6CompletionOrderAndTheReleasesOwnOpenOrClose() throws {
        let trace = try openTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "P6"), 0)
        var swapped = records
        swapped.swapAt(
            try XCTUnwrap(SoakTestSupport.event(records, "didChangeState", after: 3)),
            try XCTUnwrap(SoakTestSupport.event(records, "didOpenPopup")))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, swapped).contains("P6@lnpopup:did-open"))
        let drag = try dragTrace()
        let dragRecords = SoakTestSupport.replay(drag)
        XCTAssertNotNil(SoakTestSupport.event(dragRecords, "willClosePopup"))
        var late = dragRecords
        let close = late.remove(at: try XCTUnwrap(SoakTestSupport.event(dragRecords, "willClosePopup")))
        late.append(close)
        XCTAssertTrue(SoakTestSupport.keys(soak, drag, late).contains("P6@lnpopup:release"))
    }

    /// With L13 a call made while a finger rests runs at once; the finger, down when the close's
    /// animator starts, is ignored from then on: it does not start a drag against the running
    /// animator (P5), and the popup closes.
    func testATouchDownWhenAnAnimationStartsIsIgnored() throws {
        var lines = [
            Self.header(style: "default", initial: "open"), #"{"t": 0.1, "touch": "began", "x": 195, "y": 300}"#,
            #"{"t": 0.15, "call": "closePopup"}"#,
        ]
        for k in 1...10 {
            lines.append(#"{"t": \#(0.2 + Double(k) / 120), "touch": "moved", "x": 195, "y": \#(300 + 20 * k)}"#)
        }
        lines.append(#"{"t": 0.3, "touch": "ended", "x": 195, "y": 500}"#)
        let trace = try SoakTestSupport.trace(lines)
        let records = SoakTestSupport.replay(trace)
        XCTAssertNil(SoakTestSupport.event(records, "willBeginDragging"))
        XCTAssertEqual(SoakTestSupport.frames(records).last?.frame.state, "barPresented")
        XCTAssertEqual(soak.checkAll(trace).violations, [])
    }

    /// Seed 347: the same rule on the soak's finding (a landscape toolbar popup).
    func testRegressionFingerOverrunByAClose() throws {
        let trace = try SoakTestSupport.regression("lnpopup", "soak-347-P5-finger-overrun-by-close")
        let records = SoakTestSupport.replay(trace)
        XCTAssertFalse(SoakTestSupport.eventNames(records).contains("willBeginDragging"))
        XCTAssertEqual(SoakTestSupport.frames(records).last?.frame.state, "barPresented")
        XCTAssertEqual(soak.checkAll(trace).violations, [])
    }

    func testGeneratorIsDeterministicAndValid() throws {
        try SoakTestSupport.assertGeneratorIsDeterministicAndValid(soak)
    }

    /// A bounded soak: 40 seeds, no violation, every rule evaluated.
    func testBoundedSoakHoldsEveryRule() {
        let counts = SoakTestSupport.boundedSoak(soak, seeds: 1...40)
        for rule in soak.rules.map(\.id) { XCTAssertGreaterThan(counts[rule], 0, rule) }
    }
}
