import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// The replay rules every newer system's soak checks (`ReplayRules`), both ways: the untampered
/// replay passes, a result tampered into a violation of the rule is reported under it.
final class ReplayRulesTests: XCTestCase {
    /// A short DrawerKit replay: a presented drawer moved to full by the app.
    private func drawerTrace() throws -> Trace {
        try SoakTestSupport.trace([
            #"{"format": "panelsim-trace", "version": 1, "model": "drawerkit", "name": "rules", "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, "drawer": {"heightOfPartiallyExpandedDrawer": 300}}"#,
            #"{"t": 0.1, "call": "setDrawerState", "state": "fullyExpanded"}"#,
        ])
    }

    private func keys(_ trace: Trace, _ a: SimulationResult, _ b: SimulationResult, pairs: [PairStep] = []) -> Set<
        String
    > {
        Set(ReplayRules.check(trace, a, again: b, pairs: pairs, variant: "test").violations.map(\.key))
    }

    func testRepeatReportsASecondReplayThatDiffersInOneBit() throws {
        let trace = try drawerTrace()
        let a = simulate(trace)
        let b = simulate(trace)
        XCTAssertEqual(keys(trace, a, b), [])
        var records = Array(b.records)
        let (i, f) = try XCTUnwrap(SoakTestSupport.frames(records).last { $0.frame.location > 0 })
        records[i] = .systemFrame(SoakTestSupport.setting(f, "location", .number(f.location.nextUp)))
        XCTAssertEqual(keys(trace, a, SimulationResult(records: records)), ["repeat@test:records"])
        XCTAssertEqual(
            keys(trace, a, SimulationResult(records: Array(b.records), warnings: ["extra"])), ["repeat@test:records"])
    }

    func testFiniteReportsANaNOrAnInfinity() throws {
        let trace = try drawerTrace()
        let a = simulate(trace)
        var records = Array(a.records)
        let (i, f) = try XCTUnwrap(SoakTestSupport.frames(records).last)
        records[i] = .systemFrame(SoakTestSupport.setting(f, "cornerRadius", .number(.nan)))
        let nan = SimulationResult(records: records)
        XCTAssertTrue(keys(trace, nan, nan).contains("finite@test:value"))
        records[i] = .systemFrame(SoakTestSupport.setting(f, "location", .number(.infinity)))
        let infinite = SimulationResult(records: records)
        XCTAssertEqual(keys(trace, infinite, infinite), ["finite@test:value"])
        XCTAssertGreaterThan(ReplayRules.check(trace, a, again: a, pairs: [], variant: "test").counts["finite"], 0)
    }

    func testBoundedReportsTheBudgetFramesOutOfOrderAndBursts() throws {
        let trace = try drawerTrace()
        let a = simulate(trace)
        XCTAssertEqual(keys(trace, a, a), [])
        let budget = SimulationResult(records: Array(a.records), budgetExceeded: true)
        XCTAssertEqual(keys(trace, budget, budget), ["bounded@test:budget"])
        var records = Array(a.records)
        let frames = SoakTestSupport.frames(records)
        records.append(.systemFrame(frames[0].frame))  // frame 0 again, at the end
        let reordered = SimulationResult(records: records)
        XCTAssertEqual(keys(trace, reordered, reordered), ["bounded@test:frame-order"])
        let burst = SimulationResult(
            records: Array(a.records)
                + Array(
                    repeating: .event(time: 2_000_000, .system(SystemEvent(name: "x"))),
                    count: ReplayRules.maximumEventsPerInstant + 1))
        XCTAssertEqual(keys(trace, burst, burst), ["bounded@test:burst"])
        let fewer = SimulationResult(
            records: Array(a.records)
                + Array(
                    repeating: .event(time: 2_000_000, .system(SystemEvent(name: "x"))),
                    count: ReplayRules.maximumEventsPerInstant))
        XCTAssertEqual(keys(trace, fewer, fewer), [])
    }

    func testPairsReportsAWillWithoutItsDidAndADidWithoutItsWill() {
        func keys(_ steps: [PairStep], atRest: Bool = true) -> [String] {
            ReplayRules.checkPairs(steps, atRest: atRest, variant: "test").violations.map(\.key)
        }
        let open = PairStep(.open, "a", at: 1)
        let close = PairStep(.close, "a", at: 2)
        let cancel = PairStep(.cancel, "a", at: 2)
        XCTAssertEqual(keys([open, close]), [])
        XCTAssertEqual(keys([open, cancel]), [], "a documented cancellation closes it")
        XCTAssertEqual(keys([open]), ["pairs@test:unclosed"])
        XCTAssertEqual(keys([open], atRest: false), [], "a replay cut short may still owe its did…")
        XCTAssertEqual(keys([close]), ["pairs@test:unopened"])
        XCTAssertEqual(keys([open, PairStep(.close, "b", at: 2)]), ["pairs@test:unopened", "pairs@test:unclosed"])
        XCTAssertEqual(ReplayRules.checkPairs([open, close], atRest: true, variant: "test").counts["pairs"], 2)
    }
}
