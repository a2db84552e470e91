import XCTest
@testable import PanelSimCore

/// Behavior families of scenarios.md and the canonical sequences of floatingpanel-core.md §6.2,
/// replayed end to end through `simulate`.
final class ScenarioTests: XCTestCase {
    private func replay(
        _ panel: FloatingPanelConfiguration, _ env: PanelEnvironment = Fixture.d1,
        configure: (inout TraceHeader) -> Void = { _ in }, _ build: (inout SampleBuilder) -> Void
    ) -> SimulationResult {
        var header = Fixture.header(panel, env)
        configure(&header)
        var b = SampleBuilder()
        build(&b)
        return simulate(Trace(header: header, samples: b.samples))
    }

    private func b3(at state: FloatingPanelState) -> FloatingPanelConfiguration {
        var p = Fixture.b3()
        p.initialState = state
        return p
    }

    func testPresentationRecordsAtTimeZero() {
        let r = replay(b3(at: .half)) { $0.end(0.1) }
        XCTAssertEqual(Array(r.eventNames.prefix(2)), ["didChangeState", "didMove"])
        XCTAssertEqual(r.frames.first?.location, 422)
        XCTAssertEqual(r.frames.first?.index, 0)
        XCTAssertEqual(r.frames.count, 1, "nothing moves: only frame 0 is written")
    }

    /// §6.2 A: half → fast upward release → full, with F2 and F5.
    func testFlickUpFromHalfAttractsToFull() {
        let r = replay(b3(at: .half)) {
            $0.drag(at: 0, x: 195, from: 700, to: 600, duration: 0.1, releaseVelocity: -1500)
        }
        XCTAssertEqual(
            r.keyEvents,
            [
                "didChangeState", "willBeginDragging", "willEndDragging", "didEndDragging",
                "willBeginAttracting", "didChangeState", "didEndAttracting",
            ])
        guard
            case .willEndDragging(let v, let proposed, let target)? = r.events.first(where: {
                $0.name == "willEndDragging"
            })
        else { return XCTFail() }
        XCTAssertEqual(v.y, -1500)
        XCTAssertEqual(proposed, "full")
        XCTAssertEqual(target, "full")
        // The first accepted changed only sets the baseline: no didMove before the second changed.
        let names = r.eventNames
        let timed = r.records.compactMap { rec -> (Microseconds, String)? in
            if case .event(let t, let e) = rec { return (t, e.name) } else { return nil }
        }
        let begin = timed.first { $0.1 == "willBeginDragging" }!.0
        let firstDragMove = timed.first { $0.1 == "didMove" && $0.0 >= begin }!.0
        XCTAssertGreaterThan(firstDragMove, begin)
        // Two didMove on the completing frame, then didEndAttracting.
        let end = names.lastIndex(of: "didEndAttracting")!
        XCTAssertEqual(Array(names[(end - 2)..<end]), ["didMove", "didMove"])
        XCTAssertEqual(r.lastFrame?.location, 100)
        XCTAssertEqual(r.lastFrame?.state, "full")
        XCTAssertEqual(r.lastFrame?.isAttracting, false)
        XCTAssertEqual(r.lastFrame?.backdropAlpha, 0.3)
        XCTAssertFalse(r.budgetExceeded)
    }

    /// F4 / §6.2 B: a slow release exactly on an anchor does not attract.
    func testReleaseExactlyOnAnchor() {
        // began 600, recognized at 610, first changed at 611 (baseline), then 322 pt more up to full.
        let r = replay(b3(at: .half)) { b in
            b.touch(0, .began, 195, 600)
            b.touch(0.01, .moved, 195, 590)
            b.touch(0.02, .moved, 195, 589)
            b.touch(0.03, .moved, 195, 267)
            b.touch(0.2, .ended, 195, 267, velocity: Point(x: 0, y: 0))
        }
        XCTAssertEqual(
            r.keyEvents, ["didChangeState", "willBeginDragging", "willEndDragging", "didChangeState", "didEndDragging"])
        XCTAssertEqual(r.events.last, .didEndDragging(willAttract: false))
        XCTAssertEqual(r.lastFrame?.location, 100)
        XCTAssertEqual(r.lastFrame?.state, "full")
    }

    /// S4: D1/B2 with removal enabled, surface dragged 80 pt below half (502, 442 pt from hidden 944):
    /// removal from 2431 pt/s, not at 2430.
    func testRemovalThreshold() {
        var p = Fixture.b3()
        p.anchors.removeLast()
        p.removalInteractionEnabled = true
        func run(_ v: Double) -> SimulationResult {
            replay(p) { b in
                b.touch(0, .began, 195, 600)
                b.touch(0.01, .moved, 195, 610)
                b.touch(0.02, .moved, 195, 611)
                b.touch(0.05, .moved, 195, 691)
                b.touch(0.06, .ended, 195, 691, velocity: Point(x: 0, y: v))
            }
        }
        let removed = run(2431)
        XCTAssertTrue(removed.events.contains(.didMove(location: 502)))
        XCTAssertEqual(
            removed.keyEvents, ["didChangeState", "willBeginDragging", "willRemove", "didChangeState", "didRemove"])
        XCTAssertFalse(removed.eventNames.contains("willEndDragging"))
        XCTAssertEqual(removed.lastFrame?.location, 944)
        XCTAssertEqual(removed.lastFrame?.state, "hidden")
        let kept = run(2430)
        XCTAssertFalse(kept.eventNames.contains("willRemove"))
        XCTAssertEqual(kept.lastFrame?.state, "half")
        XCTAssertEqual(kept.lastFrame?.location, 422)
    }

    func testShouldRemoveDelegateAnswerIsRecorded() {
        var p = Fixture.b3()
        p.removalInteractionEnabled = true
        let r = replay(p, configure: { $0.delegate.shouldRemove = .never }) { b in
            b.drag(at: 0, x: 195, from: 600, to: 700, duration: 0.1, releaseVelocity: 9000)
        }
        guard case .shouldRemove(let v, let result)? = r.events.first(where: { $0.name == "shouldRemove" }) else {
            return XCTFail("no shouldRemove")
        }
        XCTAssertFalse(result)
        XCTAssertGreaterThan(v.y, 5.5)
        XCTAssertTrue(r.eventNames.contains("willEndDragging"))
        XCTAssertFalse(r.eventNames.contains("willRemove"))
    }

    /// S5: a touch on a panel in flight stops the spring (didEndAttracting at the touch); on lift
    /// the panel settles exactly on an anchor.
    func testInterruptedAttraction() {
        let r = replay(b3(at: .half)) { b in
            b.drag(at: 0, x: 195, from: 700, to: 400, duration: 0.25, releaseVelocity: -800)
            b.touch(0.3, .began, 195, 500)
            b.touch(0.35, .ended, 195, 500)
        }
        let names = r.keyEvents
        XCTAssertEqual(
            names,
            [
                "didChangeState", "willBeginDragging", "willEndDragging", "didEndDragging", "willBeginAttracting",
                "didChangeState",
                "didEndAttracting", "willBeginDragging", "willEndDragging", "didEndDragging", "willBeginAttracting",
                "didChangeState", "didEndAttracting",
            ])
        let interruptTime = r.records.compactMap { rec -> Microseconds? in
            if case .event(let t, .didEndAttracting) = rec { return t } else { return nil }
        }.first
        XCTAssertEqual(interruptTime, 300_000)
        let anchors: Set<Double> = [100, 422, 741]
        XCTAssertTrue(anchors.contains(r.lastFrame!.location))
        XCTAssertFalse(r.lastFrame!.isAttracting)
    }

    /// S7: move(to: tip) 200 ms into an upward drag cancels the drag synchronously; later samples of
    /// that touch do not move the panel.
    func testMoveDuringDrag() {
        let r = replay(b3(at: .half)) { b in
            b.touch(0, .began, 195, 700)
            for i in 1...60 {
                b.touch(Double(i) / 120, .moved, 195, 700 - Double(i) * 5, velocity: Point(x: 0, y: -600))
            }
            b.call(0.2, .move(to: .tip, animated: true))
            b.touch(0.5, .ended, 195, 400, velocity: Point(x: 0, y: -600))
        }
        let afterCall = r.records.drop { if case .event(let t, _) = $0 { return t < 200_000 } else { return true } }
        let names = afterCall.compactMap {
            if case .event(_, let e) = $0, e.name != "didMove" { return e.name } else { return nil }
        }
        XCTAssertEqual(
            Array(names.prefix(8)),
            [
                "willEndDragging", "didEndDragging", "willBeginAttracting", "didChangeState",
                "didEndAttracting", "willBeginAttracting", "didChangeState", "didEndAttracting",
            ])
        XCTAssertEqual(r.lastFrame?.location, 741)
        XCTAssertEqual(r.lastFrame?.state, "tip")
        XCTAssertFalse(
            r.eventNames.dropFirst(names.count).contains("willBeginDragging")
                && r.eventNames.filter { $0 == "willBeginDragging" }.count > 1)
    }

    /// O12 with an estimated velocity: a pan cancelled by move(to:) ends with the velocity the
    /// tracker estimated at its last moved sample (the replay computes it only when the cancel needs
    /// it). The expected value comes from a separate tracker fed the same points.
    func testCancelledPanEndsWithTheTrackersLastEstimate() {
        var tracker = VelocityTracker(strategy: .lsq2)
        let r = replay(b3(at: .half), configure: { $0.recognizer.velocity = .lsq2 }) { b in
            b.touch(0, .began, 195, 700)
            tracker.addMovement(timeNanos: 0, position: Point(x: 195, y: 700))
            for i in 1...20 {
                let y = 700 - Double(i * i) * 0.5  // accelerating, so lsq2 differs from a slope
                b.touch(Double(i) / 120, .moved, 195, y)
                tracker.addMovement(timeNanos: SampleBuilder.us(Double(i) / 120) * 1000, position: Point(x: 195, y: y))
            }
            b.call(0.2, .move(to: .tip, animated: true))
            b.touch(0.3, .ended, 195, 400)
        }
        let expected = tracker.currentVelocity()
        XCTAssertNotEqual(expected.y, 0)
        guard case .willEndDragging(let velocity, _, _)? = r.events.first(where: { $0.name == "willEndDragging" })
        else {
            return XCTFail("no willEndDragging in \(r.eventNames)")
        }
        XCTAssertEqual(velocity, expected)
    }

    /// F1: move(to:) the current state while idle still reports didChangeState.
    func testMoveToCurrentStateReportsStateChange() {
        let r = replay(b3(at: .half)) { b in b.call(0.1, .move(to: .half, animated: false)) }
        XCTAssertEqual(r.eventNames, ["didChangeState", "didMove", "didChangeState", "didMove"])
        XCTAssertEqual(r.lastFrame?.location, 422)
    }

    func testAnimatedProgrammaticMoveUsesSpringAtZeroVelocity() {
        let r = replay(b3(at: .half)) { b in b.call(0.1, .move(to: .full, animated: true)) }
        XCTAssertEqual(r.keyEvents, ["didChangeState", "willBeginAttracting", "didChangeState", "didEndAttracting"])
        XCTAssertEqual(r.lastFrame?.location, 100)
        // ζ = 1 at v0 = 0: no overshoot past full.
        XCTAssertGreaterThanOrEqual(r.frames.map(\.location).min()!, 100)
    }

    func testHideAndShowUsePropertyAnimators() {
        var p = b3(at: .half)
        p.presented = false
        let r = replay(p) { b in
            b.call(0.1, .show(animated: true))
            b.call(1.0, .hide(animated: true))
        }
        XCTAssertEqual(r.eventNames, ["didChangeState", "didMove", "didChangeState", "didMove"])
        XCTAssertEqual(r.lastFrame?.location, 944)
        XCTAssertEqual(r.lastFrame?.state, "hidden")
    }

    func testTouchOnBackdropDoesNotDragThePanel() {
        let r = replay(b3(at: .half)) { b in
            b.drag(at: 0, x: 195, from: 300, to: 200, duration: 0.1, releaseVelocity: -1000)
        }
        XCTAssertEqual(r.eventNames, ["didChangeState", "didMove"])
    }

    func testVetoedDragAsksOnEveryEvent() {
        let r = replay(b3(at: .half), configure: { $0.delegate.shouldBeginDragging = false }) { b in
            b.drag(at: 0, x: 195, from: 700, to: 600, duration: 0.05, releaseVelocity: -1000)
        }
        XCTAssertEqual(Set(r.eventNames.dropFirst(2)), ["shouldBeginDragging"])
        XCTAssertEqual(r.lastFrame?.location, 422)
    }

    func testReplayIsDeterministic() {
        let build: (inout SampleBuilder) -> Void = {
            $0.drag(at: 0, x: 195, from: 700, to: 450, duration: 0.2, releaseVelocity: -900)
        }
        XCTAssertEqual(replay(b3(at: .half), Fixture.d1, build), replay(b3(at: .half), Fixture.d1, build))
    }
}

final class LifecycleEdgeTests: XCTestCase {
    private func run(_ panel: FloatingPanelConfiguration, _ build: (inout SampleBuilder) -> Void) -> SimulationResult {
        var b = SampleBuilder()
        build(&b)
        return simulate(Trace(header: Fixture.header(panel, Fixture.d1), samples: b.samples))
    }

    /// A `show` while a removal is still animating finishes the removal first (didRemove), then shows
    /// the panel; the panel can be dragged afterwards, exactly as when the show comes later.
    func testShowDuringRemovalFinishesTheRemovalFirst() {
        for showTime in [0.2, 1.0] {
            var p = Fixture.b3()
            p.initialState = .half
            let r = run(p) { b in
                b.call(0.1, .remove)
                b.call(showTime, .show(animated: true))
                b.drag(at: 2, x: 195, from: 700, to: 600, duration: 0.1, releaseVelocity: -1500)
            }
            let names = r.keyEvents
            XCTAssertEqual(
                Array(names.prefix(6)),
                ["didChangeState", "willRemove", "didChangeState", "didRemove", "didChangeState", "willBeginDragging"],
                "show at \(showTime)")
            XCTAssertEqual(r.lastFrame?.state, "full", "show at \(showTime)")
            XCTAssertEqual(r.lastFrame?.location, 100)
        }
    }

    /// O14 `dismissIn`: the removal starts right after the listed state is reported (at the start of
    /// the attraction), once until the next show; an unlisted state does nothing.
    func testDismissInRemovesWhenTheListedStateIsReported() {
        var p = Fixture.b3()
        p.initialState = .half
        var header = Fixture.header(p, Fixture.d1)
        header.delegate.dismissIn = ["full"]
        var b = SampleBuilder()
        b.drag(at: 0, x: 195, from: 700, to: 600, duration: 0.1, releaseVelocity: -1500)
        let r = simulate(Trace(header: header, samples: b.samples))
        let names = r.keyEvents
        guard let i = names.firstIndex(of: "willBeginAttracting") else { return XCTFail("\(names)") }
        XCTAssertEqual(Array(names[i...].prefix(3)), ["willBeginAttracting", "didChangeState", "willRemove"])
        XCTAssertEqual(names.filter { $0 == "willRemove" }.count, 1)
        XCTAssertEqual(names.last, "didRemove")

        header.delegate.dismissIn = ["tip"]
        let unlisted = simulate(Trace(header: header, samples: b.samples))
        XCTAssertFalse(unlisted.keyEvents.contains("willRemove"))
    }

    /// Idle time between samples is skipped, not stepped frame by frame: a sample a million seconds
    /// in replays at once and gives the same records as any other idle gap.
    func testLongIdleGapsAreSkipped() {
        let r = run(Fixture.b3()) { b in b.call(1_000_000, .move(to: .full, animated: false)) }
        XCTAssertEqual(r.eventNames, ["didChangeState", "didMove", "didChangeState", "didMove"])
        XCTAssertEqual(r.frames.map(\.index), [0, 120_000_000])
        XCTAssertEqual(r.lastFrame?.location, 100)
    }
}

final class RubberBandScenarioTests: XCTestCase {
    /// With `rubberBandingEdges: ["top"]` a drag past full (100 on D1/B3) follows FloatingPanel's
    /// rubber band minC − rb(minC − c, H); without it the panel follows the finger linearly (§3.4.1).
    func testDragPastFullRubberBandsOnlyWhenAllowed() {
        func finalDragLocation(edges: [String]) -> Double {
            var p = Fixture.b3()
            p.initialState = .full
            p.behavior.rubberBandingEdges = edges
            var b = SampleBuilder()
            b.touch(0, .began, 195, 300)
            b.touch(0.01, .moved, 195, 290)  // began
            b.touch(0.02, .moved, 195, 289)  // baseline
            b.touch(0.03, .moved, 195, 189)  // 100 pt past the baseline: c = 100 − 100 = 0
            let r = simulate(Trace(header: Fixture.header(p, Fixture.d1), samples: b.samples))
            return r.events.compactMap { if case .didMove(let l) = $0 { return l } else { return nil } }.last!
        }
        XCTAssertEqual(finalDragLocation(edges: []), 0)
        XCTAssertEqual(finalDragLocation(edges: ["bottom"]), 0)
        XCTAssertEqual(finalDragLocation(edges: ["top"]), 100 - rubberBand(100, 844))
        XCTAssertEqual(100 - rubberBand(100, 844), 100 - 0.55 * 100 * 844 / (0.55 * 100 + 844), accuracy: 1e-12)
    }
}

final class ScrollOptionTests: XCTestCase {
    private func header() -> TraceHeader {
        var p = Fixture.b3()
        p.initialState = .full
        var h = Fixture.header(p, Fixture.d1)
        var sv = ScrollViewConfiguration(
            frame: Rect(x: 0, y: 36, width: 390, height: 761), contentSize: Size(width: 390, height: 3000))
        sv.contentOffset = Point(x: 0, y: 120)
        h.scrollView = sv
        return h
    }

    /// O8: `scroll` samples are observations unless the replay drives the scroll view from them.
    func testScrollSamplesDriveTheListOnlyWhenAsked() {
        let samples = [TraceSample(time: 100_000, kind: .scroll(ScrollSample(contentOffset: Point(x: 0, y: 480))))]
        let trace = Trace(header: header(), samples: samples)
        var options = SimulationOptions()
        XCTAssertEqual(simulate(trace, options: options).lastFrame?.contentOffset, 120)
        options.driveScroll = true
        XCTAssertEqual(simulate(trace, options: options).lastFrame?.contentOffset, 480)
    }

    /// O3: with the panel handler first, the scroll pan's phase is not yet `changed` when the panel
    /// sees the hand-off sample, so the order is observable; both orders end in the same state here.
    func testHandlerOrderOptionKeepsOutcome() {
        var b = SampleBuilder()
        b.drag(at: 0, x: 195, from: 400, to: 700, duration: 0.5, releaseVelocity: 600)
        let trace = Trace(header: header(), samples: b.samples)
        var options = SimulationOptions()
        let scrollFirst = simulate(trace, options: options)
        options.panelHandlerFirst = true
        let panelFirst = simulate(trace, options: options)
        XCTAssertEqual(scrollFirst.lastFrame?.state, "half")
        XCTAssertEqual(panelFirst.lastFrame?.state, "half")
        XCTAssertEqual(scrollFirst.lastFrame?.contentOffset, 0)
    }
}
