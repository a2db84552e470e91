import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// The sheet's soak checker (SH1–SH8 of uisheet.md §5), each rule both ways: a legitimate replay
/// passes (and the rule was evaluated on it), the same replay tampered into a violation is reported
/// under that rule. Plus the generator (deterministic, valid), narrowings and a bounded soak.
final class UISheetSoakTests: XCTestCase {
    let soak = UISheetSoak()

    /// Device D1, detents medium (388.333) and large (57).
    static func header(_ sheet: String = "", delegate: String = "", scrollView: String = "") -> String {
        #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "name": "s", "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, "sheet": {"detents": [{"identifier": "medium", "kind": "medium"}, {"identifier": "large", "kind": "large"}]\#(sheet)}\#(delegate)\#(scrollView)}"#
    }

    /// A finger from (195, y0) moving `dy` per sample (`steps` samples at 120 Hz), lifted with `velocity`.
    static func drag(from y0: Double, dy: Double, steps: Int, velocity: Double = 0, at t0: Double = 0.1) -> [String] {
        var lines = [#"{"t": \#(t0), "touch": "began", "x": 195, "y": \#(y0)}"#]
        for k in 1...steps {
            lines.append(#"{"t": \#(t0 + Double(k) / 120), "touch": "moved", "x": 195, "y": \#(y0 + dy * Double(k))}"#)
        }
        lines.append(
            #"{"t": \#(t0 + Double(steps) / 120), "touch": "ended", "x": 195, "y": \#(y0 + dy * Double(steps)), "velocity": {"x": 0, "y": \#(velocity)}}"#
        )
        return lines
    }

    func testSH1RestOnTheShownDetent() throws {
        let trace = try SoakTestSupport.trace([
            Self.header(), #"{"t": 0.1, "call": "selectDetent", "identifier": "large", "animateChanges": true}"#,
        ])
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH1"), 0)
        let last = try XCTUnwrap(SoakTestSupport.frames(records).last)
        XCTAssertEqual(last.frame.location, 57)
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "location", .number(60))
                }), ["SH1@uisheet:rest"])
    }

    func testSH2SelectionRecordsAndTheStateChannel() throws {
        let trace = try SoakTestSupport.trace([Self.header()] + Self.drag(from: 400, dy: -20, steps: 12))
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH2"), 0)
        let i = try XCTUnwrap(SoakTestSupport.event(records, "didChangeSelectedDetentIdentifier"))
        guard case .event(let t, .system(let e)) = records[i] else { return XCTFail() }
        var unchanged = records
        unchanged[i] = .event(
            time: t, .system(SystemEvent(name: e.name, fields: [RecordField("identifier", .string("medium"))])))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, unchanged).contains("SH2@uisheet:unchanged"))
        var late = records
        late[i] = .event(time: t + 1, .system(e))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, late).contains("SH2@uisheet:cause"))
        let last = try XCTUnwrap(SoakTestSupport.frames(records).last)
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "state", .string("medium"))
                }), ["SH2@uisheet:state"])
    }

    func testSH3DismissalRecordsAndNothingAfterThem() throws {
        let trace = try SoakTestSupport.trace([Self.header()] + Self.drag(from: 400, dy: 20, steps: 8, velocity: 2000))
        let records = SoakTestSupport.replay(trace)
        XCTAssertNotNil(SoakTestSupport.event(records, "didDismiss"))
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH3"), 0)
        var unopened = records
        unopened.remove(at: try XCTUnwrap(SoakTestSupport.event(records, "willDismiss")))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, unopened).contains("SH3@uisheet:unopened"))
        var after = records
        after.append(.event(time: 9_000_000, .system(SystemEvent(name: "didAttemptToDismiss"))))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, after).contains("SH3@uisheet:after-dismiss"))
        let last = try XCTUnwrap(SoakTestSupport.frames(records).last)
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "location", .number(800))
                }), ["SH3@uisheet:gone"])
    }

    /// A modal sheet pulled 240 pt down from medium: refused, rubber-banded, didAttemptToDismiss.
    func modalPull() throws -> Trace {
        try SoakTestSupport.trace(
            [Self.header(#", "isModalInPresentation": true"#)] + Self.drag(from: 400, dy: 20, steps: 12))
    }

    func testSH4ModalStaysInItsBandAndWritesNoDismissalRecord() throws {
        let trace = try modalPull()
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH4"), 0)
        let dragging = try XCTUnwrap(SoakTestSupport.frames(records).last { $0.frame["isDragging"] == .bool(true) })
        XCTAssertLessThan(dragging.frame.location, 388.334 + 196.75)
        XCTAssertTrue(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: dragging.index) {
                    SoakTestSupport.setting($0, "location", .number(388.334 + 200))
                }
            ).contains("SH4@uisheet:band"))
        var record = records
        record.insert(.event(time: 200_000, .system(SystemEvent(name: "willDismiss"))), at: dragging.index)
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, record).contains("SH4@uisheet:record"))
    }

    func testSH5PlainDragFollowsTheFinger() throws {
        let trace = try SoakTestSupport.trace([Self.header()] + Self.drag(from: 400, dy: -20, steps: 12))
        let records = SoakTestSupport.replay(trace)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH5"), 5)
        let dragging = SoakTestSupport.frames(records).filter { $0.frame["isDragging"] == .bool(true) }
        let mid = dragging[dragging.count / 2]
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: mid.index) {
                    SoakTestSupport.setting($0, "location", .number($0.location + 2))
                }), ["SH5@uisheet:follow"])
    }

    func testSH6HandOffMovesTheSheetOrTheContent() throws {
        let list =
            #", "scrollView": {"frame": {"x": 0, "y": 20, "width": 390, "height": 767}, "contentSize": {"width": 390, "height": 3000}}"#
        let trace = try SoakTestSupport.trace(
            [Self.header(#", "selectedDetentIdentifier": "large""#, scrollView: list)]
                + Self.drag(from: 200, dy: 20, steps: 10))
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH6"), 3)
        let dragging = SoakTestSupport.frames(records).filter { $0.frame["isDragging"] == .bool(true) }
        let mid = dragging[dragging.count / 2]
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: mid.index) {
                    SoakTestSupport.setting($0, "contentOffset", .number(5))
                }), ["SH6@uisheet:both"])
    }

    func testSH7AttemptOnlyAfterARefusedPull() throws {
        let trace = try modalPull()
        let records = SoakTestSupport.replay(trace)
        let attempt = try XCTUnwrap(SoakTestSupport.event(records, "didAttemptToDismiss"))
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH7"), 0)
        var late = records
        let e = late.remove(at: attempt)
        guard case .event(let t, let payload) = e else { return XCTFail() }
        late.append(.event(time: t + 5_000_000, payload))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, late).contains("SH7@uisheet:cause"))
        // The same pull without the modal flag: dismissible, no refusal; an attempt written there is reported.
        let free = try SoakTestSupport.trace([Self.header()] + Self.drag(from: 400, dy: 20, steps: 5))
        var freeRecords = SoakTestSupport.replay(free)
        XCTAssertEqual(SoakTestSupport.rules(soak, free, freeRecords), [])
        freeRecords.append(.event(time: 100_000 + 5 * 8_333, .system(SystemEvent(name: "didAttemptToDismiss"))))
        XCTAssertTrue(SoakTestSupport.rules(soak, free, freeRecords).contains("SH7"))
    }

    func testSH8DimmingBounds() throws {
        let trace = try SoakTestSupport.trace([
            Self.header(), #"{"t": 0.1, "call": "selectDetent", "identifier": "large", "animateChanges": true}"#,
        ])
        let records = SoakTestSupport.replay(trace)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "SH8"), 0)
        let last = try XCTUnwrap(SoakTestSupport.frames(records).last)
        XCTAssertEqual(last.frame["dimming"], .number(1))
        XCTAssertTrue(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "dimming", .number(1.5))
                }
            ).contains("SH8@uisheet:range"))
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: last.index) {
                    SoakTestSupport.setting($0, "dimming", .number(0.5))
                }), ["SH8@uisheet:dimmed"])
        let undimmed = try SoakTestSupport.trace([Self.header(#", "largestUndimmedDetentIdentifier": "medium""#)])
        let u = SoakTestSupport.replay(undimmed)
        XCTAssertEqual(SoakTestSupport.rules(soak, undimmed, u), [])
        let first = try XCTUnwrap(SoakTestSupport.frames(u).first)
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, undimmed,
                SoakTestSupport.tamper(u, frameAt: first.index) {
                    SoakTestSupport.setting($0, "dimming", .number(0.2))
                }), ["SH8@uisheet:undimmed"])
    }

    /// §3.8 item 6: a dimming change inside `animateChanges` with the sheet still fades; SH8 takes
    /// the fade's values between the old and the new fraction, and item 2 again once it is over.
    func testSH8DimmingFade() throws {
        let trace = try SoakTestSupport.trace([
            Self.header(#", "largestUndimmedDetentIdentifier": "medium""#),
            #"{"t": 0.1, "call": "setModalInPresentation", "value": false}"#,
            #"{"t": 0.3, "call": "setLargestUndimmedDetent", "identifier": null, "animateChanges": true}"#,
            #"{"t": 1.5, "call": "setModalInPresentation", "value": false}"#,
        ])
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        let frames = SoakTestSupport.frames(records)
        func dimming(_ f: SystemFrame) -> Double? {
            if case .number(let d)? = f["dimming"] { return d }
            return nil
        }
        let fading = try XCTUnwrap(frames.first { dimming($0.frame).map { $0 > 0 && $0 < 1 } ?? false })
        XCTAssertEqual(dimming(try XCTUnwrap(frames.last).frame), 1)
        // The same intermediate value before the call, or after the fade reached 1, is a violation.
        let before = try XCTUnwrap(frames.first)
        XCTAssertTrue(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: before.index) {
                    SoakTestSupport.setting($0, "dimming", .number(0.5))
                }
            ).contains("SH8@uisheet:undimmed"))
        let done = try XCTUnwrap(frames.last)
        XCTAssertGreaterThan(done.index, fading.index)
        XCTAssertEqual(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: done.index) {
                    SoakTestSupport.setting($0, "dimming", .number(0.5))
                }), ["SH8@uisheet:dimmed"])
        XCTAssertTrue(
            SoakTestSupport.keys(
                soak, trace,
                SoakTestSupport.tamper(records, frameAt: fading.index) {
                    SoakTestSupport.setting($0, "dimming", .number(-0.1))
                }
            ).contains("SH8@uisheet:fade"))
        // Seed 14643: an immediate change and a fade between two frames; the fade starts from the
        // immediate change's value (0), not from the last frame's (1).
        let chained = try SoakTestSupport.trace([
            Self.header(),
            #"{"t": 0.3001, "call": "setLargestUndimmedDetent", "identifier": "large", "animateChanges": false}"#,
            #"{"t": 0.3002, "call": "setLargestUndimmedDetent", "identifier": null, "animateChanges": true}"#,
        ])
        let c = SoakTestSupport.replay(chained)
        XCTAssertEqual(SoakTestSupport.rules(soak, chained, c), [])
        XCTAssertTrue(
            SoakTestSupport.frames(c).contains { f in
                if case .number(let d)? = f.frame["dimming"] { return d > 0 && d < 0.5 }
                return false
            })
    }

    /// The model bugs the soak found, each a regression trace with its golden: a rotation during a
    /// grabber's dismissal (seed 190), a dimming tap during the app's dismissal (358), new detents
    /// under a hand-off (296), a release with no detent left (7735, a trap), a grabber tap with no
    /// detent (9295, a trap), a full-screen sheet lifted by the keyboard (68275), a hand-off that
    /// caught the sheet in a band (121345).
    func testRegressionTraces() throws {
        let rotation = try SoakTestSupport.regression("uisheet", "soak-190-pairs-rotation-during-grabber-dismissal")
        let r1 = SoakTestSupport.replay(rotation)
        XCTAssertEqual(SoakTestSupport.eventNames(r1), ["willDismiss", "didDismiss"])
        XCTAssertEqual(SoakTestSupport.frames(r1).last?.frame.location, 390)
        let tap = try SoakTestSupport.regression("uisheet", "soak-358-SH3-dimming-tap-during-app-dismissal")
        let r2 = SoakTestSupport.replay(tap)
        XCTAssertEqual(SoakTestSupport.eventNames(r2), [])
        XCTAssertEqual(SoakTestSupport.frames(r2).last?.frame["presented"], .bool(false))
        let handOff = try SoakTestSupport.regression("uisheet", "soak-296-SH6-detents-change-under-hand-off")
        let r3 = SoakTestSupport.replay(handOff)
        let last = try XCTUnwrap(SoakTestSupport.frames(r3).last { $0.frame["isDragging"] == .bool(true) })
        XCTAssertEqual(last.frame.location, 316, "kept at the top-most candidate, not banded above it")
        let trap = try SoakTestSupport.regression("uisheet", "soak-7735-trap-release-without-detents")
        let r4 = SoakTestSupport.replay(trap)
        XCTAssertEqual(SoakTestSupport.frames(r4).last?.frame.location, 667)
        XCTAssertEqual(SoakTestSupport.frames(r4).last?.frame["presented"], .bool(true))
        let grabber = try SoakTestSupport.regression("uisheet", "soak-9295-trap-grabber-without-detents")
        let r5 = simulate(grabber)
        XCTAssertTrue(r5.warnings.contains { $0.contains("tapGrabber ignored: no active detent") }, "\(r5.warnings)")
        let lift = try SoakTestSupport.regression("uisheet", "soak-68275-SH6-full-screen-lift")
        let r6 = SoakTestSupport.replay(lift)
        let rest = try XCTUnwrap(
            SoakTestSupport.frames(r6).last {
                $0.frame["isAttracting"] == .bool(false) && $0.frame["isDragging"] == .bool(false)
                    && $0.frame.index < 240
            })
        XCTAssertEqual(rest.frame.location, 0, "the full-screen sheet stays at 0 with the keyboard (liftSelected)")
        let caught = try SoakTestSupport.regression("uisheet", "soak-121345-SH6-hand-off-caught-in-band")
        let r7 = SoakTestSupport.frames(SoakTestSupport.replay(caught))
        let firstDrag = try XCTUnwrap(r7.firstIndex { $0.frame["isDragging"] == .bool(true) })
        XCTAssertLessThan(
            abs(r7[firstDrag].frame.location - r7[firstDrag - 1].frame.location), 3,
            "no jump when the hand-off first moves the caught sheet")
        for t in [rotation, tap, handOff, trap, grabber, lift, caught] {
            XCTAssertEqual(soak.checkAll(t).violations, [], t.header.name)
        }
    }

    func testGeneratorIsDeterministicAndValid() throws {
        try SoakTestSupport.assertGeneratorIsDeterministicAndValid(soak)
    }

    /// A bounded soak: 40 seeds, no violation, every rule evaluated.
    func testBoundedSoakHoldsEveryRule() {
        let counts = SoakTestSupport.boundedSoak(soak, seeds: 1...40)
        for rule in soak.rules.map(\.id) where rule != "SH7" { XCTAssertGreaterThan(counts[rule], 0, rule) }
    }
}
