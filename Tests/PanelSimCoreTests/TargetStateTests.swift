import XCTest
@testable import PanelSimCore

/// physics.md / FloatingPanel `CoreTests.test_targetState_3positionsFromFull`: 375×667 bottom panel,
/// full 20 from top, half 250 from bottom, tip 60 from bottom (superview) → 20 / 417 / 607.
final class TargetStateTests: XCTestCase {
    private func core(state: FloatingPanelState) -> PanelCore {
        var p = FloatingPanelConfiguration()
        p.anchors = [
            AnchorEntry(state: .full, anchor: Fixture.inset(20, .top, .superview)),
            AnchorEntry(state: .half, anchor: Fixture.inset(250, .bottom, .superview)),
            AnchorEntry(state: .tip, anchor: Fixture.inset(60, .bottom, .superview)),
        ]
        p.initialState = state
        var c = PanelCore(header: Fixture.header(p, Fixture.env(375, 667, scale: 3)))
        c.start(presented: true)
        return c
    }

    func testUpstreamTargetStateTable() {
        let cases: [(FloatingPanelState, Double, Double, FloatingPanelState)] = [
            (.full, 20, 500, .half), (.full, 20, 100, .full), (.full, 20, 1000, .half), (.full, 20, 3000, .half),
            (.half, 417, 1000, .tip), (.half, 417, -1000, .full), (.half, 417, 100, .half), (.half, 417, -100, .half),
            (.tip, 607, -500, .half), (.tip, 607, -100, .tip), (.tip, 607, -1000, .half), (.tip, 607, -3000, .half),
            (.full, 30, 100, .full),
        ]
        for (state, y, v, expected) in cases {
            XCTAssertEqual(
                core(state: state).targetState(from: y, velocity: v), expected, "from \(state) at \(y) with v \(v)")
        }
    }

    func testProjectsMomentumAllowsSkippingAnAnchor() {
        var c = core(state: .tip)
        c.geometry.panel.behavior.projectsMomentumTo = ["full"]
        XCTAssertEqual(c.targetState(from: 607, velocity: -3000), .full)
    }

    func testRedirectionalProgressThresholdIsStrict() {
        // From half (417) toward full (20): progress = 0.499·|v| / 397. Exactly 0.5 stays at half.
        var c = core(state: .half)
        c.geometry.panel.behavior.redirectionalProgress = 0.25
        XCTAssertEqual(c.targetState(from: 417, velocity: -150), .half)  // 74.85/397 = 0.19
        XCTAssertEqual(c.targetState(from: 417, velocity: -250), .full)  // 124.75/397 = 0.31
    }
}
