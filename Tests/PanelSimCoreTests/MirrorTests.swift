import XCTest
@testable import PanelSimCore

/// G6 (scenarios.md): a bottom-panel replay mirrored onto top, left and right panels (axis and
/// coordinates flipped) gives the same target states, removal decisions and event order.
final class MirrorTests: XCTestCase {
    private let h = 844.0, w = 390.0

    private func layout(_ position: PanelPosition) -> FloatingPanelConfiguration {
        var p = FloatingPanelConfiguration()
        p.position = position
        let insets: [(FloatingPanelState, Double, Bool)] = [(.full, 100, true), (.half, 422, true), (.tip, 103, false)]
        p.anchors = insets.map { state, d, fromTop in
            // Bottom panel: `fromTop` insets measure from the top edge. Mirrored: from the far edge.
            let edge: ReferenceEdge
            switch position {
            case .bottom: edge = fromTop ? .top : .bottom
            case .top: edge = fromTop ? .bottom : .top
            case .right: edge = fromTop ? .left : .right
            case .left: edge = fromTop ? .right : .left
            }
            return AnchorEntry(state: state, anchor: .inset(d, isFractional: false, edge: edge, guide: .superview))
        }
        p.removalInteractionEnabled = true
        return p
    }

    private func environment(_ position: PanelPosition) -> PanelEnvironment {
        let size = position.isVertical ? Size(width: w, height: h) : Size(width: h, height: w)
        return PanelEnvironment(container: size, safeArea: .zero, displayScale: 3, frameRate: 120)
    }

    /// Maps a bottom-panel main coordinate and cross coordinate to a point for `position`.
    private func point(_ position: PanelPosition, main: Double, cross: Double) -> Point {
        switch position {
        case .bottom: return Point(x: cross, y: main)
        case .top: return Point(x: cross, y: h - main)
        case .right: return Point(x: main, y: cross)
        case .left: return Point(x: h - main, y: cross)
        }
    }

    private func velocity(_ position: PanelPosition, _ v: Double) -> Point {
        switch position {
        case .bottom: return Point(x: 0, y: v)
        case .top: return Point(x: 0, y: -v)
        case .right: return Point(x: v, y: 0)
        case .left: return Point(x: -v, y: 0)
        }
    }

    private func replay(_ position: PanelPosition, start: FloatingPanelState, from y0: Double, by dy: Double, v: Double)
        -> SimulationResult
    {
        var p = layout(position)
        p.initialState = start
        var samples = [
            TraceSample(
                time: 0, kind: .touch(TouchSample(phase: .began, location: point(position, main: y0, cross: 195))))
        ]
        for i in 1...8 {
            samples.append(
                TraceSample(
                    time: Microseconds(i) * 8333,
                    kind: .touch(
                        TouchSample(
                            phase: .moved, location: point(position, main: y0 + dy * Double(i) / 8, cross: 195),
                            velocity: velocity(position, v)))))
        }
        samples.append(
            TraceSample(
                time: 8 * 8333,
                kind: .touch(
                    TouchSample(
                        phase: .ended, location: point(position, main: y0 + dy, cross: 195),
                        velocity: velocity(position, v)))))
        return simulate(
            Trace(header: TraceHeader(name: "mirror", environment: environment(position), panel: p), samples: samples))
    }

    func testFlicksAndRemovalMirrorOnAllPositions() {
        let cases: [(FloatingPanelState, Double, Double, Double)] = [
            (.half, 600, -80, -1500), (.half, 600, 80, 1500), (.half, 600, 40, 200), (.full, 300, 80, 4000),
            (.tip, 780, -60, -600), (.tip, 780, 50, 2000), (.tip, 780, 50, 600), (.half, 600, 200, 2600),
        ]
        var removals = 0
        for (start, y0, dy, v) in cases {
            let reference = replay(.bottom, start: start, from: y0, by: dy, v: v)
            let referenceEvents = reference.records.compactMap { r -> String? in
                if case .event(_, let e) = r {
                    return e.name == "didMove" ? nil : e.name + stateSuffix(e)
                } else {
                    return nil
                }
            }
            if referenceEvents.contains("didRemove") { removals += 1 }
            let finalBottom = reference.records.compactMap {
                if case .frame(let f) = $0 { return f } else { return nil }
            }.last!
            for position in [PanelPosition.top, .left, .right] {
                let mirrored = replay(position, start: start, from: y0, by: dy, v: v)
                let events = mirrored.records.compactMap { r -> String? in
                    if case .event(_, let e) = r {
                        return e.name == "didMove" ? nil : e.name + stateSuffix(e)
                    } else {
                        return nil
                    }
                }
                XCTAssertEqual(events, referenceEvents, "\(position) \(start) \(dy) \(v)")
                let final = mirrored.records.compactMap { if case .frame(let f) = $0 { return f } else { return nil } }
                    .last!
                XCTAssertEqual(final.state, finalBottom.state, "\(position)")
                let expectedLocation =
                    position.expandsTowardLowerCoordinate ? finalBottom.location : h - finalBottom.location
                XCTAssertEqual(final.location, expectedLocation, "\(position)")
            }
        }
        XCTAssertEqual(removals, 2, "the case list covers both removal decisions")
    }

    private func stateSuffix(_ e: DelegateEvent) -> String {
        switch e {
        case .didChangeState(let s): return "(\(s))"
        case .willEndDragging(_, let p, let t): return "(\(p)->\(t))"
        case .didEndDragging(let a): return "(\(a))"
        default: return ""
        }
    }
}
