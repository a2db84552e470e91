import XCTest
import PanelSimCore
import PanelTrace

/// Edge cases of the DrawerKit model checked against drawerkit.md, each with the outcome the spec
/// gives.
final class DrawerKitEdgeCaseTests: XCTestCase {
    static let env =
        #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}"#

    func replay(_ drawer: String, _ samples: [String], environment: String = env) throws -> SimulationResult {
        let text =
            #"{"format": "panelsim-trace", "version": 1, "model": "drawerkit", "name": "t", "# + environment
            + #", "drawer": "# + drawer + "}\n" + samples.joined(separator: "\n") + "\n"
        return simulate(try TraceLoader.parse(text: text, file: "t.jsonl"))
    }
    func events(_ r: SimulationResult) -> [(Microseconds, String)] {
        r.records.compactMap { if case .event(let t, let e) = $0 { return (t, e.name) } else { return nil } }
    }
    func last(_ r: SimulationResult) throws -> SystemFrame {
        try XCTUnwrap(r.records.compactMap { if case .systemFrame(let f) = $0 { return f } else { return nil } }.last)
    }

    /// §3.10: `dismiss` calls are processed during UIKit transitions; D3: the dismissal completes.
    /// A dismiss during the presentation starts when the presentation ends (0.5 s) and ends at 0.9 s.
    func testDismissDuringPresentationWaitsForIt() throws {
        let r = try replay(
            #"{"heightOfPartiallyExpandedDrawer": 300, "presented": false}"#,
            [
                #"{"t": 0.1, "call": "present"}"#, #"{"t": 0.2, "call": "dismiss"}"#,
                #"{"t": 1.0, "call": "setDrawerState", "state": "fullyExpanded"}"#, #"{"t": 1.5, "call": "dismiss"}"#,
            ])
        let e = events(r)
        XCTAssertEqual(e.first { $0.1 == "presentationTransitionDidEnd" }?.0, 500_000)
        XCTAssertEqual(e.first { $0.1 == "dismissalTransitionWillBegin" }?.0, 500_000)
        XCTAssertEqual(e.filter { $0.1 == "dismissalTransitionDidEnd" }.map(\.0), [900_000])
        XCTAssertEqual(e.last?.1, "dismissalTransitionDidEnd")
        let f = try last(r)
        XCTAssertEqual(f.state, "dismissed")
        XCTAssertEqual(f["presented"], .bool(false))
    }

    /// K4 through setDrawerState alone: the slide to dismissed ends during the presentation; the
    /// dismissal it requests runs after the presentation and ends the presentation.
    func testSlideToDismissedDuringPresentationStillDismisses() throws {
        let r = try replay(
            #"{"heightOfPartiallyExpandedDrawer": 300, "presented": false, "configuration": {"initialState": "fullyExpanded", "durationIsProportionalToDistanceTraveled": true}}"#,
            [
                #"{"t": 0.1, "call": "present"}"#,
                #"{"t": 0.11, "call": "setDrawerState", "state": "partiallyExpanded"}"#,
                #"{"t": 0.12, "call": "setDrawerState", "state": "dismissed"}"#,
            ])
        XCTAssertEqual(events(r).filter { $0.1 == "dismissalTransitionDidEnd" }.count, 1)
        XCTAssertEqual(events(r).last?.1, "dismissalTransitionDidEnd")
        XCTAssertEqual(try last(r)["presented"], .bool(false))
    }

    /// §3.6 step 7: a completion writes its own transition's end alpha. collapsed → full (ends
    /// 0.458 s) overlapped by full → partial (ends 0.408 s): the older completion comes last and
    /// leaves triangular(full) = 0.
    func testLateCompletionWritesItsOwnHandleAlpha() throws {
        let r = try replay(
            #"{"heightOfPartiallyExpandedDrawer": 300, "heightOfCollapsedDrawer": 100, "configuration": {"initialState": "collapsed", "durationIsProportionalToDistanceTraveled": true}}"#,
            [
                #"{"t": 0.1, "call": "setDrawerState", "state": "fullyExpanded"}"#,
                #"{"t": 0.15, "call": "setDrawerState", "state": "partiallyExpanded"}"#,
            ])
        let f = try last(r)
        XCTAssertEqual(f.location, 544)
        XCTAssertEqual(f["handleAlpha"], .number(0))
    }

    /// D10/D13: the status bar height is the header's; an environment sample changes only the
    /// container (no NaN corner radius, full does not move).
    func testEnvironmentKeepsTheStatusBarHeight() throws {
        let r = try replay(
            #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"fullExpansionBehaviour": "doesNotCoverStatusBar", "cornerAnimationOption": "alwaysShowBelowStatusBar"}}"#,
            [
                #"{"t": 0.1, "environment": {"safeArea": {"top": 0, "left": 0, "bottom": 0, "right": 0}}}"#,
                #"{"t": 0.2, "call": "setDrawerState", "state": "fullyExpanded"}"#,
            ])
        let f = try last(r)
        XCTAssertEqual(f.location, 47)
        XCTAssertEqual(f["cornerRadius"], .number(15))
    }

    /// §2.1: without a safe area in the header the status bar height is 0.
    func testStatusBarHeightWithoutSafeArea() throws {
        let noSafeArea = #""environment": {"container": {"width": 390, "height": 844}}"#
        let r = try replay(
            #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"initialState": "fullyExpanded", "fullExpansionBehaviour": "doesNotCoverStatusBar"}}"#,
            [], environment: noSafeArea)
        XCTAssertEqual(try last(r).location, 0)
        XCTAssertThrowsError(
            try replay(
                #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"cornerAnimationOption": "alwaysShowBelowStatusBar"}}"#,
                [], environment: noSafeArea)
        ) { error in
            XCTAssertEqual((error as? TraceError)?.field, "drawer.configuration.cornerAnimationOption")
        }
    }

    /// §2.2: DrawerKit observations are location and state (a list's contentOffset); no backdrop.
    func testObservedBackdropAlphaRefused() {
        XCTAssertThrowsError(
            try replay(
                #"{"heightOfPartiallyExpandedDrawer": 300}"#, [#"{"t": 0.1, "observed": {"backdropAlpha": 0.5}}"#])
        ) { error in
            XCTAssertEqual((error as? TraceError)?.field, "observed.backdropAlpha")
            XCTAssertEqual((error as? TraceError)?.line, 2)
        }
    }
}
