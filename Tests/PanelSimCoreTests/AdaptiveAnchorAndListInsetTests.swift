import XCTest
@testable import PanelSimCore

/// Adaptive anchors, a list with a system inset (FloatingPanel #602) and a list with a zero-size
/// frame. Expected values are worked out from the specs in the comments, not read back
/// from the simulator.
final class AdaptiveAnchorAndListInsetTests: XCTestCase {
    private func adaptive(
        _ v: Double, fractional: Bool = false, length: Double, _ guide: ReferenceGuide = .safeArea,
        bounding: ContentBoundingGuide = .none
    ) -> LayoutAnchor {
        .adaptive(v, isFractional: fractional, contentLength: length, guide: guide, bounding: bounding)
    }

    private func geometry(_ position: PanelPosition, _ anchors: [LayoutAnchor]) -> LayoutGeometry {
        var p = FloatingPanelConfiguration()
        p.position = position
        let states: [FloatingPanelState] = [.full, .half, .tip]
        p.anchors = zip(states, anchors).map { AnchorEntry(state: $0, anchor: $1) }
        return LayoutGeometry(panel: p, environment: Fixture.d1)
    }

    /// floatingpanel-layout-behavior.md §3.4c on D1 (390×844, safe 47/34): bottom panels return
    /// max(refLen − D + d, minPos) with refLen = 844 − 34 (safeArea) or 844 (superview).
    func testAdaptiveAnchorPositionsOfABottomPanel() {
        let g = geometry(
            .bottom,
            [
                adaptive(0, length: 500),  // 810 − 500 = 310
                adaptive(0.5, fractional: true, length: 500),  // 810 − 500 + 250 = 560
                adaptive(20, length: 100, .superview),
            ])  // 844 − 100 + 20 = 764
        XCTAssertEqual(g.position(of: .full), 310)
        XCTAssertEqual(g.position(of: .half), 560)
        XCTAssertEqual(g.position(of: .tip), 764)
        // §3.11 static surface: D of the most expanded anchor + the bottom safe inset = 534.
        XCTAssertEqual(g.surfaceLength(at: 310), 534)
        // The bounding guide stops a long content at the top of its rectangle: 810 − 900 = −90.
        XCTAssertEqual(geometry(.bottom, [adaptive(0, length: 900)]).position(of: .full), -90)
        XCTAssertEqual(geometry(.bottom, [adaptive(0, length: 900, bounding: .superview)]).position(of: .full), 0)
        XCTAssertEqual(geometry(.bottom, [adaptive(0, length: 900, bounding: .safeArea)]).position(of: .full), 47)
    }

    /// §3.4c for top panels: min(D − d, maxPos), the safe inset ignored (§8 item 3 quirk).
    func testAdaptiveAnchorPositionsOfATopPanel() {
        let g = geometry(
            .top,
            [
                adaptive(20, length: 300),  // 300 − 20 = 280 (not 327)
                adaptive(0.25, fractional: true, length: 300),
            ])  // 300 − 75 = 225
        XCTAssertEqual(g.position(of: .full), 280)
        XCTAssertEqual(g.position(of: .half), 225)
        XCTAssertEqual(geometry(.top, [adaptive(0, length: 1000)]).position(of: .full), 1000)
        XCTAssertEqual(geometry(.top, [adaptive(0, length: 1000, bounding: .superview)]).position(of: .full), 844)
        XCTAssertEqual(geometry(.top, [adaptive(0, length: 1000, bounding: .safeArea)]).position(of: .full), 810)
        // The reference edge is the panel's own (§3.3): the attraction shift uses the top inset.
        XCTAssertEqual(g.referenceEdge(of: adaptive(0, length: 1)), .top)
    }

    private func listReplay(
        _ sv: ScrollViewConfiguration, at state: FloatingPanelState, _ build: (inout SampleBuilder) -> Void
    ) -> SimulationResult {
        var p = Fixture.b3()
        p.initialState = state
        var header = Fixture.header(p, Fixture.d1)
        header.scrollView = sv
        var b = SampleBuilder()
        build(&b)
        return simulate(Trace(header: header, samples: b.samples))
    }

    /// FloatingPanel #602: a list under a 44 pt navigation bar. At show FloatingPanel writes
    /// contentInset := (0, 0, 34, 0) (§3.10 step 5), UIKit keeps its 44 on top, so
    /// adjustedContentInset.top = 44 and the pinning offset (§3.6.2, bottom) is (0, −44). With the
    /// list at its top (O = −44) a downward drag in the list moves the panel (content at its pinned
    /// edge: O − pin = 0) and the list stays at −44; +600 pt/s from about 400 → half (422, as S1).
    func testListUnderANavigationBarPinsAtMinus44() {
        var sv = ScrollViewConfiguration(
            frame: Rect(x: 0, y: 36, width: 390, height: 761), contentSize: Size(width: 390, height: 3000))
        sv.systemInset = Insets(top: 44, left: 0, bottom: 0, right: 0)
        sv.contentOffset = Point(x: 0, y: -44)
        let r = listReplay(sv, at: .full) {
            $0.drag(at: 0, x: 195, from: 400, to: 700, duration: 0.5, releaseVelocity: 600)
        }
        XCTAssertEqual(r.lastFrame?.state, "half")
        XCTAssertEqual(r.lastFrame?.location, 422)
        XCTAssertEqual(r.lastFrame?.contentOffset, -44)
        XCTAssertTrue(r.frames.allSatisfy { $0.contentOffset == -44 }, "the list never leaves its pinned offset −44")
        // Without the system inset the same list would be pinned at 0 (the #602 bug: 44 pt hidden).
        var plain = sv
        plain.systemInset = .zero
        let r0 = listReplay(plain, at: .full) {
            $0.drag(at: 0, x: 195, from: 400, to: 700, duration: 0.5, releaseVelocity: 600)
        }
        XCTAssertEqual(r0.lastFrame?.contentOffset, 0)
    }

    /// A `UIScrollView()` never laid out: frame (0, 0, 0, 0). Its frame contains no point (§3.3 b
    /// never applies), so a touch in the content is handled like a touch outside the list: the panel
    /// moves (full → half as S1) and io = the current offset keeps the list at 0; nothing is NaN.
    func testZeroSizeListContainsNoTouch() {
        let sv = ScrollViewConfiguration(
            frame: Rect(x: 0, y: 0, width: 0, height: 0), contentSize: Size(width: 390, height: 3000))
        let r = listReplay(sv, at: .full) {
            $0.drag(at: 0, x: 195, from: 400, to: 700, duration: 0.5, releaseVelocity: 600)
        }
        XCTAssertEqual(r.lastFrame?.state, "half")
        XCTAssertEqual(r.lastFrame?.location, 422)
        XCTAssertEqual(r.lastFrame?.contentOffset, 0)
        XCTAssertTrue(r.frames.allSatisfy { ($0.contentOffset ?? 0).isFinite && $0.location.isFinite })
        // The band of a zero-size list is 0 (no division by its size).
        XCTAssertEqual(rubberBand(0, 0), 0)
        XCTAssertEqual(rubberBand(50, 0), 0)
    }
}
