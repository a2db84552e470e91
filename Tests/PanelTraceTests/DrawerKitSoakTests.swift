import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// DrawerKit's soak checker (K1–K5 of drawerkit.md §6), each rule both ways: a legitimate replay
/// passes (and the rule was evaluated on it), the same replay tampered into a violation is
/// reported under that rule (K5 compares the given replay with a replay at half the duration, so a
/// tampered decision is also a K5 violation: the tests ask for the rule they tamper). Plus the
/// generator (deterministic, valid), a narrowing and a bounded soak.
final class DrawerKitSoakTests: XCTestCase {
    let soak = DrawerKitSoak()

    /// Device D1 (390 × 844, safe area 47/34, 120 Hz) with partial height 300 (partialY 544).
    static let header =
        #"{"format": "panelsim-trace", "version": 1, "model": "drawerkit", "name": "k", "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, "drawer": {"heightOfPartiallyExpandedDrawer": 300, "participants": ["presenting", "presented"]}}"#

    /// A drag from partial (544) up by 20 pt steps, released with velocity 0 at 364: full (row 3 above the upper mark).
    func dragTrace() throws -> Trace {
        var lines = [Self.header, #"{"t": 0.1, "touch": "began", "x": 195, "y": 600}"#]
        for k in 1...12 {
            lines.append(#"{"t": \#(0.1 + Double(k) / 120), "touch": "moved", "x": 195, "y": \#(600 - 20 * k)}"#)
        }
        lines.append(#"{"t": 0.21, "touch": "ended", "x": 195, "y": 360, "velocity": {"x": 0, "y": 0}}"#)
        return try SoakTestSupport.trace(lines)
    }

    func callTrace() throws -> Trace {
        try SoakTestSupport.trace([
            Self.header, #"{"t": 0.1, "call": "setDrawerState", "state": "fullyExpanded", "completion": true}"#,
        ])
    }

    func testK1RestOnANamedStatesPosition() throws {
        let trace = try callTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "K1"), 0)
        let last = try XCTUnwrap(SoakTestSupport.frames(records).last)
        XCTAssertEqual(last.frame.location, 0)
        let moved = SoakTestSupport.tamper(records, frameAt: last.index) {
            SoakTestSupport.setting($0, "location", .number(5))
        }
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, moved).contains("K1@drawerkit:rest"))
        let unnamed = SoakTestSupport.tamper(records, frameAt: last.index) {
            SoakTestSupport.setting($0, "state", .string("transitioning"))
        }
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, unnamed).contains("K1@drawerkit:state"))
    }

    func testK2TransitionRecordsPairAndKeepTheirOrder() throws {
        let trace = try callTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "K2"), 0)
        var unfinished = records
        unfinished.remove(at: try XCTUnwrap(SoakTestSupport.event(records, "transitionDidFinish")))
        XCTAssertTrue(SoakTestSupport.rules(soak, trace, unfinished).contains("K2"))
        var swapped = records
        let prepare = try XCTUnwrap(SoakTestSupport.event(records, "prepare"))
        swapped.swapAt(prepare, try XCTUnwrap(SoakTestSupport.event(records, "animateAlong")))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, swapped).contains("K2@drawerkit:start-order"))
        var noCompletion = records
        noCompletion.remove(at: try XCTUnwrap(SoakTestSupport.event(records, "completion")))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, noCompletion).contains("K2@drawerkit:completion"))
    }

    func testK3DragStaysInRangeAndFollowsTheFinger() throws {
        let trace = try dragTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [])
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "K3"), 5)
        let dragging = SoakTestSupport.frames(records).filter { $0.frame["isDragging"] == .bool(true) }
        let mid = dragging[dragging.count / 2]
        let off = SoakTestSupport.tamper(records, frameAt: mid.index) {
            SoakTestSupport.setting($0, "location", .number($0.location + 3))
        }
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, off).contains("K3@drawerkit:follow"))
        let above = SoakTestSupport.tamper(records, frameAt: mid.index) {
            SoakTestSupport.setting($0, "location", .number(-5))
        }
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, above).contains("K3@drawerkit:bound"))
    }

    func testK4NothingAfterTheDismissalAndNoTransitionAfterOneToDismissed() throws {
        let trace = try SoakTestSupport.trace([
            Self.header,
            #"{"t": 0.1, "call": "setDrawerState", "state": "dismissed"}"#,
            #"{"t": 0.3, "call": "setDrawerState", "state": "partiallyExpanded"}"#,
        ])
        let records = SoakTestSupport.replay(trace)
        XCTAssertEqual(SoakTestSupport.rules(soak, trace, records), [], "the second call is ignored (D3)")
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "K4"), 0)
        let end = try XCTUnwrap(SoakTestSupport.event(records, "dismissalTransitionDidEnd"))
        var after = records
        after.append(.event(time: 3_000_000, .system(SystemEvent(name: "drawerExteriorTapped"))))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, after).contains("K4@drawerkit:after-end"))
        // A transition to partiallyExpanded started after the one to dismissed (tampered in).
        var late = records
        guard
            case .event(let t, .system(let start)) = late[
                try XCTUnwrap(SoakTestSupport.event(records, "transitionWillStart"))]
        else { return XCTFail() }
        var other = start
        other.fields = start.fields.map {
            $0.key == "targetDrawerState" ? RecordField($0.key, .string("partiallyExpanded")) : $0
        }
        late.insert(.event(time: t + 1, .system(other)), at: end)
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, late).contains("K4@drawerkit:after-dismissal"))
    }

    func testK5HalvingTheDurationChangesNoDecision() throws {
        let trace = try dragTrace()
        let records = SoakTestSupport.replay(trace)
        XCTAssertGreaterThan(SoakTestSupport.count(soak, trace, "K5"), 0)
        let release = try XCTUnwrap(
            records.indices.first { i in
                if case .event(_, .system(let e)) = records[i] {
                    return e.name == "handleDrawerDrag" && e["nextState"] != nil
                } else {
                    return false
                }
            })
        var decided = records
        guard case .event(let t, .system(let e)) = decided[release] else { return XCTFail() }
        var other = e
        other.fields = e.fields.map { $0.key == "nextState" ? RecordField($0.key, .string("partiallyExpanded")) : $0 }
        decided[release] = .event(time: t, .system(other))
        XCTAssertTrue(SoakTestSupport.keys(soak, trace, decided).contains("K5@drawerkit:decisions"))
    }

    /// K1's narrowing: a partial height above fullY rests at the clamped position DrawerKit writes
    /// (drawerkit.md §3.0); a rest elsewhere is still held to pos(state).
    func testK1NarrowingsHoldOnlyWhereDrawerKitPutsTheDrawer() throws {
        let high = try SoakTestSupport.trace([
            #"{"format": "panelsim-trace", "version": 1, "model": "drawerkit", "name": "k", "environment": {"container": {"width": 375, "height": 667}, "safeArea": {"top": 20, "left": 0, "bottom": 0, "right": 0}, "displayScale": 3, "frameRate": 120}, "drawer": {"heightOfPartiallyExpandedDrawer": 672.5, "configuration": {"fullExpansionBehaviour": "doesNotCoverStatusBar"}}}"#,
            #"{"t": 0.1, "call": "setDrawerState", "state": "fullyExpanded"}"#,
            #"{"t": 1.0, "call": "setDrawerState", "state": "partiallyExpanded"}"#,
        ])
        let records = SoakTestSupport.replay(high)
        let last = try XCTUnwrap(SoakTestSupport.frames(records).last)
        XCTAssertEqual(last.frame.state, "partiallyExpanded")
        XCTAssertEqual(last.frame.location, 20, "written through the clamp [fullY, H]")
        XCTAssertEqual(SoakTestSupport.rules(soak, high, records), [])
        let between = SoakTestSupport.tamper(records, frameAt: last.index) {
            SoakTestSupport.setting($0, "location", .number(10))
        }
        XCTAssertTrue(SoakTestSupport.keys(soak, high, between).contains("K1@drawerkit:rest"))
    }

    /// Seed 29: a transition still running when UIKit's (shorter) dismissal completes finishes
    /// with it, before dismissalTransitionDidEnd, the presentation's last record (K4).
    func testRegressionTransitionEndsWithTheDismissal() throws {
        let trace = try SoakTestSupport.regression("drawerkit", "soak-29-K4-transition-ends-with-dismissal")
        let names = SoakTestSupport.eventNames(SoakTestSupport.replay(trace))
        XCTAssertEqual(names.last, "dismissalTransitionDidEnd")
        XCTAssertEqual(names.filter { $0 == "transitionDidFinish" }.count, 2)
        XCTAssertEqual(soak.checkAll(trace).violations, [])
    }

    func testGeneratorIsDeterministicAndValid() throws {
        try SoakTestSupport.assertGeneratorIsDeterministicAndValid(soak)
    }

    /// A bounded soak: 40 seeds, no violation, every rule evaluated.
    func testBoundedSoakHoldsEveryRule() {
        let counts = SoakTestSupport.boundedSoak(soak, seeds: 1...40)
        for rule in soak.rules.map(\.id) + ReplayRules.rules.map(\.id) { XCTAssertGreaterThan(counts[rule], 0, rule) }
    }
}
