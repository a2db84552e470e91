import XCTest
@testable import PanelSimCore

final class LayoutTests: XCTestCase {
    func testRoundingExamplesFromSpec() {
        XCTAssertEqual(roundedByDisplayScale(333.222, scale: 3), 1000.0 / 3)
        XCTAssertEqual(roundedByDisplayScale(333.5, scale: 3), 1001.0 / 3)
        XCTAssertEqual(roundedByDisplayScale(0.16666666666674246, scale: 3), 0)
        XCTAssertEqual(roundedByDisplayScale(-0.16666666666674246, scale: 3), 0)
        XCTAssertEqual(roundedByDisplayScale(0.16666666666666666, scale: 2), 0)
        XCTAssertEqual(roundedByDisplayScale(0.16666666666674246, scale: 6), 0.16666666666666666)
        XCTAssertEqual(roundedByDisplayScale(0.5, scale: 1), 1)
        XCTAssertEqual(roundedByDisplayScale(-0.5, scale: 2), -0.5)
        XCTAssertEqual(roundedByDisplayScale(-0.5, scale: 3), -0.66666666666666663)
        XCTAssertEqual(roundedByDisplayScale(333.5, scale: 1), 334)
    }

    /// layout-behavior.md §3.1 table of default positions.
    func testDefaultLayoutPositionsTable() {
        let cases: [(PanelEnvironment, [Double])] = [
            (Fixture.env(375, 667, scale: 2), [18, 333.5, 598, 767]),
            (Fixture.env(375, 667, scale: 3), [18, 333.66666666666669, 598, 767]),
            (Fixture.env(375, 812, Insets(top: 44, left: 0, bottom: 34, right: 0), scale: 3), [62, 411, 709, 912]),
            (Fixture.env(812, 375, Insets(top: 0, left: 44, bottom: 21, right: 44), scale: 2), [18, 177, 285, 475]),
        ]
        for (env, expected) in cases {
            let g = LayoutGeometry(panel: Fixture.defaultLayout(), environment: env)
            XCTAssertEqual([FloatingPanelState.full, .half, .tip, .hidden].map(g.position(of:)), expected, "\(env)")
        }
    }

    /// scenarios.md: B3 on D1 is full 100, half 422, tip 741, hidden 944.
    func testB3OnD1() {
        let g = LayoutGeometry(panel: Fixture.b3(), environment: Fixture.d1)
        XCTAssertEqual([FloatingPanelState.full, .half, .tip, .hidden].map(g.position(of:)), [100, 422, 741, 944])
        XCTAssertEqual(g.mostExpandedState, .full)
        XCTAssertEqual(g.leastExpandedState, .tip)
        XCTAssertEqual(g.sortedByCoordinate, [.full, .half, .tip])
        XCTAssertEqual(g.surfaceLength(at: 422), 744)
    }

    /// scenarios.md S8: 44.3 from the safe top on D2 rounds to 64.5.
    func testFractionalAnchorRoundsToPixelGrid() {
        var p = Fixture.b3()
        p.anchors[0] = AnchorEntry(state: .full, anchor: Fixture.inset(44.3, .top))
        XCTAssertEqual(LayoutGeometry(panel: p, environment: Fixture.d2).position(of: .full), 64.5)
    }

    func testHiddenDefaultAnchorPerPosition() {
        let env = Fixture.env(375, 667)
        let expected: [PanelPosition: Double] = [.bottom: 767, .top: -100, .right: 475, .left: -100]
        for position in PanelPosition.allCases {
            var p = FloatingPanelConfiguration()
            let edges: (ReferenceEdge, ReferenceEdge) = position.isVertical ? (.top, .bottom) : (.left, .right)
            p.position = position
            p.anchors = [
                AnchorEntry(state: .full, anchor: Fixture.inset(20, edges.0)),
                AnchorEntry(state: .tip, anchor: Fixture.inset(20, edges.1)),
            ]
            XCTAssertEqual(
                LayoutGeometry(panel: p, environment: env).position(of: .hidden), expected[position], "\(position)")
        }
    }

    func testIntrinsicAnchors() {
        var p = FloatingPanelConfiguration()
        p.intrinsicLength = 300
        p.anchors = [
            AnchorEntry(state: .full, anchor: .intrinsic(0, isFractional: false, guide: .safeArea)),
            AnchorEntry(state: .half, anchor: .intrinsic(0.5, isFractional: true, guide: .safeArea)),
        ]
        let env = Fixture.env(390, 844, Insets(top: 47, left: 0, bottom: 34, right: 0))
        var g = LayoutGeometry(panel: p, environment: env)
        XCTAssertEqual(g.position(of: .full), 844 - 34 - 300)
        XCTAssertEqual(g.position(of: .half), 844 - 34 - 300 + 150)
        XCTAssertEqual(g.surfaceLength(at: 0), 334)
        p.position = .top
        g = LayoutGeometry(panel: p, environment: env)
        XCTAssertEqual(g.position(of: .full), 47 + 300)
        XCTAssertEqual(g.position(of: .half), 47 + 150)
        XCTAssertEqual(g.sortedByCoordinate, [.half, .full])
    }

    func testSegmentLookup() {
        let g = LayoutGeometry(panel: Fixture.b3(), environment: Fixture.d1)
        XCTAssertTrue(g.segment(at: 422, forward: true) == (.half, .tip))
        XCTAssertTrue(g.segment(at: 422, forward: false) == (.full, .half))
        XCTAssertTrue(g.segment(at: 50, forward: true) == (nil, .full))
        XCTAssertTrue(g.segment(at: 800, forward: true) == (.tip, nil))
    }

    /// layout-behavior.md §3.9 rubber band examples.
    func testRubberBand() {
        XCTAssertEqual(rubberBand(100, 667), 50.810249307479182, accuracy: 1e-12)
        XCTAssertEqual(rubberBand(50, 667), 26.411087113031016, accuracy: 1e-12)
        XCTAssertEqual(rubberBand(300, 667), 132.27764423076925, accuracy: 1e-12)
        XCTAssertEqual(rubberBand(1000, 667), 301.43796220213642, accuracy: 1e-12)
        XCTAssertEqual(rubberBand(100, 375), 47.965116279069768, accuracy: 1e-12)
        XCTAssertEqual(rubberBand(100, 960), 52.02, accuracy: 0.005)  // physics.md §2 table
    }

    /// layout-behavior.md §8 item 6: one anchor full = 20, H = 667, cur = 120 forward → 0.25983935742971886.
    func testBackdropInterpolationOneAnchorQuirk() {
        var p = FloatingPanelConfiguration()
        p.anchors = [AnchorEntry(state: .full, anchor: Fixture.inset(20, .top))]
        let g = LayoutGeometry(panel: p, environment: Fixture.env(375, 667))
        XCTAssertEqual(g.interpolatedBackdropAlpha(at: 120, translation: 1), 0.25983935742971886)
        XCTAssertEqual(g.mostExpandedState, .full)
        XCTAssertEqual(g.leastExpandedState, .hidden)
    }

    func testBackdropInterpolationHalfway() {
        let g = LayoutGeometry(panel: Fixture.b3(), environment: Fixture.d1)
        XCTAssertEqual(g.interpolatedBackdropAlpha(at: 261, translation: -1), 0.3 * 0.5, accuracy: 1e-15)
        XCTAssertEqual(g.interpolatedBackdropAlpha(at: 100, translation: -1), 0.3)
        XCTAssertEqual(g.interpolatedBackdropAlpha(at: 600, translation: 1), 0)
    }

    /// The segment table gives, bit for bit, FloatingPanel's `getBackdropAlpha(at:with:)` evaluated
    /// directly from the sorted anchors (the formula of layout-behavior §3.12, as written before the
    /// table existed), at anchors, between them, beyond both ends and in both directions.
    func testBackdropInterpolationTableMatchesDirectFormula() {
        func direct(_ g: LayoutGeometry, _ location: Double, _ translation: Double) -> Double {
            let states = g.sortedByCoordinate
            let positions = states.map(g.position(of:))
            let alphas = states.map(g.panel.layoutBackdropAlpha(for:))
            let forward = translation >= 0
            var i = 0
            while i < positions.count, forward ? !(location < positions[i]) : !(location <= positions[i]) { i += 1 }
            let most = (g.position(of: g.mostExpandedState), g.panel.layoutBackdropAlpha(for: g.mostExpandedState))
            let least = (g.position(of: g.leastExpandedState), g.panel.layoutBackdropAlpha(for: g.leastExpandedState))
            let lower = i > 0 ? (positions[i - 1], alphas[i - 1]) : most
            let upper = i < positions.count ? (positions[i], alphas[i]) : least
            let (xp, ap) = forward ? lower : upper
            let (xn, an) = forward ? upper : lower
            if xp == xn { return ap }
            return ap + max(min(1, 1 - (xn - location) / (xn - xp)), 0) * (an - ap)
        }
        var oneAnchor = FloatingPanelConfiguration()
        oneAnchor.anchors = [AnchorEntry(state: .full, anchor: Fixture.inset(20, .top))]
        var alphas = Fixture.b3()
        alphas.backdropAlpha = ["full": 0.7, "half": 0.35, "tip": 0.1]
        var left = Fixture.defaultLayout(position: .left)
        left.anchors = [
            AnchorEntry(state: .full, anchor: Fixture.inset(300, .left, .superview)),
            AnchorEntry(state: .tip, anchor: Fixture.inset(60, .left, .superview)),
        ]
        left.backdropAlpha = ["full": 0.5, "tip": 0.2]
        let layouts: [(FloatingPanelConfiguration, PanelEnvironment)] = [
            (Fixture.b3(), Fixture.d1), (alphas, Fixture.d1), (Fixture.defaultLayout(), Fixture.d2),
            (oneAnchor, Fixture.env(375, 667)), (left, Fixture.env(812, 375, scale: 2)),
            (Fixture.defaultLayout(position: .top), Fixture.d1),
        ]
        for (panel, environment) in layouts {
            let g = LayoutGeometry(panel: panel, environment: environment)
            var locations = g.sortedByCoordinate.map(g.position(of:)) + [-1000, -0.5, 0, 1000, g.position(of: .hidden)]
            for k in 0...400 { locations.append(-50 + Double(k) * 2.3456789) }
            for location in locations {
                for translation in [-1.0, -0.0, 0, 3.5] {
                    let expected = direct(g, location, translation)
                    let actual = g.interpolatedBackdropAlpha(at: location, translation: translation)
                    XCTAssertEqual(
                        actual.bitPattern, expected.bitPattern,
                        "\(panel.position) at \(location), translation \(translation): \(actual) vs \(expected)")
                }
            }
        }
    }

    func testValidationRejectsO19Layouts() {
        var p = Fixture.b3()
        p.anchors[0] = AnchorEntry(state: .full, anchor: Fixture.inset(10, .left))
        XCTAssertThrowsError(try validate(Fixture.header(p, Fixture.d1))) {
            XCTAssertEqual(($0 as? ConfigurationError)?.field, "panel.anchors.full.edge")
        }
        p = Fixture.b3()
        p.initialState = FloatingPanelState(name: "lastQuart", order: 750)
        XCTAssertThrowsError(try validate(Fixture.header(p, Fixture.d1))) {
            XCTAssertEqual(($0 as? ConfigurationError)?.field, "panel.initialState")
        }
        p = Fixture.b3()
        p.anchors.append(
            AnchorEntry(state: FloatingPanelState(name: "other", order: 500), anchor: Fixture.inset(300, .bottom)))
        XCTAssertThrowsError(try validate(Fixture.header(p, Fixture.d1)))
        p = Fixture.b3()
        p.anchors = []
        XCTAssertThrowsError(try validate(Fixture.header(p, Fixture.d1)))
        p = Fixture.b3()
        p.anchors = [
            AnchorEntry(state: .full, anchor: Fixture.inset(300, .top)),
            AnchorEntry(state: .tip, anchor: Fixture.inset(300 - 47 + 47, .top)),
        ]
        XCTAssertThrowsError(try validate(Fixture.header(p, Fixture.d1)))
        XCTAssertNoThrow(try validate(Fixture.header(Fixture.b3(), Fixture.d1)))
    }
}
