import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// The exceptions `InvariantChecker` makes to G1–G4, F3 and F4 where FloatingPanel itself departs
/// from the plain invariant (each found by `panelsim soak` and cited to the spec rule in the
/// checker). Every test checks both ways: the minimized situation from the soak passes, and the
/// same kind of result with the exception's condition removed (or the result tampered into a real
/// violation) still fails, so an exception cannot silently swallow a true violation.
/// Fixtures: `Tests/Fixtures/soak-checker/`.
final class SoakCheckerTests: XCTestCase {
    private func fixture(_ name: String) throws -> Trace {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("Tests/Fixtures/soak-checker/\(name).jsonl")
        return try TraceLoader.load(path: url.path).trace
    }

    private func keys(_ trace: Trace, _ result: SimulationResult) -> Set<String> {
        Set(InvariantChecker.check(trace, result: result).violations.map(\.key))
    }

    private func replay(_ trace: Trace) -> SimulationResult { simulate(trace, options: InvariantChecker.options) }

    /// Index of the last frame record of `records`.
    private func lastFrameIndex(_ records: [ResultRecord]) throws -> Int {
        try XCTUnwrap(records.lastIndex { if case .frame = $0 { return true } else { return false } })
    }

    /// G4 (seed 57): `track` unlocks (core §2 step 3) while a drag's attraction to a non-scrollable
    /// state runs, and that attraction's end only unlocks (§4.5 step 3): the list rests unlocked.
    /// Tracked before the drag instead, the drag's end locks it (§4.1 step 4); a result that then
    /// rests unlocked is a real G4 violation.
    func testListTrackedDuringAttractionKeepsItsUnlock() throws {
        let trace = try fixture("g4-track-during-attraction")
        let result = replay(trace)
        guard case let .frame(rest)? = result.records.last(where: { if case .frame = $0 { return true } else { return false } }) else { return XCTFail("no frame") }
        XCTAssertEqual(rest.state, "tip")
        XCTAssertEqual(rest.scrollLocked, false, "FloatingPanel leaves it unlocked")
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])

        var early = trace
        let index = try XCTUnwrap(early.samples.firstIndex { if case .call(.track) = $0.kind { return true } else { return false } })
        var track = early.samples.remove(at: index)
        track.time = 1_000_000
        early.samples.insert(track, at: 0)
        var records = Array(replay(early).records)
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.scrollLocked, true, "tracked before the drag, the drag's end locks the list")
        XCTAssertEqual(keys(early, SimulationResult(records: records)), [])
        f.scrollLocked = false
        records[last] = .frame(f)
        XCTAssertTrue(keys(early, SimulationResult(records: records)).contains("G4@bottom:lock"))
    }

    /// G4, the lock taken from the proposed target (core §4.1 step 4, §8 item 10) applies in one
    /// direction only. A release proposed for half (not scrollable) that the delegate sends to full
    /// locks at endInteraction, and the attraction's end to full unlocks (§4.5 step 3): the list
    /// rests unlocked. A result tampered to rest locked is a real G4 violation (found by the
    /// session-5 audit: the exception used to accept both directions).
    func testLockFromTheProposedTargetOnlyExcusesAnUnlockedRest() throws {
        let trace = try fixture("g4-override-to-scrollable")
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, SimulationResult(records: records)), [])
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.state, "full")
        XCTAssertEqual(f.scrollLocked, false)
        f.scrollLocked = true
        records[last] = .frame(f)
        XCTAssertTrue(keys(trace, SimulationResult(records: records)).contains("G4@bottom:lock"))
    }

    /// G3, a drag that starts beyond the extreme anchors: FloatingPanel pulls the start toward
    /// them only on a side that rubber-bands (core §3.4.1 steps 2–3); with no rubber banding the
    /// surface follows the finger from where it was. A result tampered to jump 20 pt toward the
    /// anchor at the drag's start is a real G3 violation (session-5 audit: the exception used to
    /// ignore `behavior.rubberBandingEdges`).
    func testDragStartPullOnlyWhereTheEdgeRubberBands() throws {
        let trace = try fixture("g3-rubber-band-off-at-drag-start")
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, SimulationResult(records: records)), [])
        var tampered = 0
        for i in records.indices {
            guard case var .frame(f) = records[i], f.isDragging else { continue }
            f.location -= 20
            records[i] = .frame(f)
            tampered += 1
        }
        XCTAssertGreaterThan(tampered, 2)
        XCTAssertTrue(keys(trace, SimulationResult(records: records)).contains("G3@bottom:bound"),
                      "\(keys(trace, SimulationResult(records: records)))")
    }

    /// F3 and G2 (seed 1770): `move(to:)` cancels a drag of the hidden state; its panningEnd returns
    /// at once (core §4.1 step 1), so no didEndDragging follows. In a shown state the same call ends
    /// the drag; a result without that end is a real F3 violation.
    func testMoveCancellingADragInTheHiddenStateEndsNothing() throws {
        let trace = try fixture("f3-move-cancels-drag-in-hidden")
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        var shown = trace
        shown.samples.removeFirst()   // the move to hidden: the drag now runs in tip
        let result = replay(shown)
        let names = result.records.compactMap { r -> String? in if case let .event(_, e) = r { return e.name } else { return nil } }
        XCTAssertTrue(names.contains("didEndDragging"), "\(names)")
        XCTAssertEqual(keys(shown, result), [])
        let callTime = try XCTUnwrap(shown.samples.last).time
        let tampered = result.records.filter { r in
            if case let .event(t, e) = r, t == callTime, e.name == "willEndDragging" || e.name == "didEndDragging" { return false }
            return true
        }
        XCTAssertTrue(keys(shown, SimulationResult(records: tampered)).contains("F3@bottom:drag"))
    }

    /// F4 (seed 673): the app's dismissIn recipe runs inside the didChangeState of a release exactly
    /// on an anchor (O14), so the removal's events sit between didChangeState(target) and
    /// didEndDragging(false). Without that didChangeState the order is a real F4 violation.
    func testRemovalInsideAnExactAnchorReleaseKeepsF4() throws {
        let trace = try fixture("f4-dismiss-in-inside-end")
        let result = replay(trace)
        XCTAssertEqual(keys(trace, result), [])
        var records = Array(result.records)
        let end = try XCTUnwrap(records.firstIndex { if case .event(_, .willEndDragging) = $0 { return true } else { return false } })
        guard case .event(_, .didChangeState(state: "full")) = records[end + 1] else { return XCTFail("didChangeState(full) follows willEndDragging") }
        records.remove(at: end + 1)
        XCTAssertTrue(keys(trace, SimulationResult(records: records)).contains("F4@bottom:order"))
    }

    /// G3 (seed 201): with shouldBeginDragging false, §3.7 case B's lock(strict: true) turns bounces
    /// off while the list is pulled past its pinned edge, and the next pan clamps it back to the
    /// edge (O6): O moves against the finger onto the edge. Anywhere but the edge it is a real
    /// violation.
    func testStrictLockClampBackToTheEdge() throws {
        let trace = try fixture("g3-strict-lock-clamps-overscroll")
        let result = replay(trace)
        XCTAssertEqual(keys(trace, result), [])
        var records = Array(result.records)
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.contentOffset, 0, "clamped to the pinned edge")
        f.contentOffset = 5
        records[last] = .frame(f)
        XCTAssertTrue(keys(trace, SimulationResult(records: records)).contains("G3@bottom:offset-against"))
    }

    /// G3 (seed 250): io captured at `track` (core §2) pins the list back when the panel's drag
    /// begins in a non-scrollable state (§3.7 case A1, §8 item 12): O jumps to the offset it had
    /// before the app's setContentOffset. A jump to a value O never had is a real violation.
    func testStaleIoPinReturnsToAnEarlierOffset() throws {
        let trace = try fixture("g3-stale-io-pin")
        let result = replay(trace)
        XCTAssertEqual(keys(trace, result), [])
        var records = Array(result.records)
        let index = try XCTUnwrap(records.firstIndex { if case let .frame(f) = $0 { return f.contentOffset == 2103.5 && f.index > 0 } else { return false } })
        guard case var .frame(f) = records[index] else { return XCTFail() }
        f.contentOffset = 2000
        records[index] = .frame(f)
        XCTAssertTrue(keys(trace, SimulationResult(records: records)).contains("G3@bottom:bound"))
    }

    // MARK: G6 and the mirror (issue 18, part 2: the G6-order and mirror-only G3 seeds)

    /// Event names with their discrete payloads, runs of didMove as one (G6's comparison).
    private func events(_ r: SimulationResult) -> [String] {
        var out: [String] = []
        for e in InvariantChecker.signature(r) where !(e == "didMove" && out.last == "didMove") { out.append(e) }
        return out
    }

    private func mirrored(_ trace: Trace, _ position: PanelPosition) -> Trace {
        Mirror(position: position, h: trace.header.environment.container.height).trace(trace)
    }

    private func g6(_ trace: Trace, _ position: PanelPosition, mirror: Trace) -> [InvariantViolation] {
        InvariantChecker.checkMirror(trace, reference: replay(trace), position: position, mirrored: mirror, result: replay(mirror))
    }

    /// The touch samples of `trace` from index `from` on, moved by `dy` pt on the y axis.
    private func movingTouches(_ trace: Trace, from: Int, by dy: Double) -> Trace {
        var t = trace
        var seen = 0
        for i in t.samples.indices {
            guard case var .touch(touch) = t.samples[i].kind else { continue }
            if seen >= from { touch.location.y += dy; t.samples[i].kind = .touch(touch) }
            seen += 1
        }
        return t
    }

    /// G6 (seed 14216): a drag on a 1× display releases at 487.5 pt, a half-pixel tie. FloatingPanel's
    /// `rounded(by:)` (truncation toward zero, then half away from zero) rounds the bottom frame
    /// edge up to 488 and the top mirror's 444.5 up to 445, the image of 487: the mirror's
    /// attraction starts a pixel farther away, settles a frame later and the next touch interrupts
    /// it. The mirror-image replay (ties toward hidden) is the bottom replay's mirror, so G6 holds.
    /// A mirror whose drag ends a pixel farther out (not a tie: 445.5 rounds the same way in both
    /// rules) still fails.
    func testFrameEdgeTieRoundsTowardHigherCoordinatesOnEveryPanel() throws {
        let trace = try fixture("g6-frame-edge-tie")
        let reference = replay(trace)
        for position in [PanelPosition.top, .left] {
            let mirror = mirrored(trace, position)
            XCTAssertNotEqual(events(replay(mirror)), events(reference), "\(position): FloatingPanel's mirror takes another course")
            var options = InvariantChecker.options
            options.mirrorImageArithmetic = true
            XCTAssertEqual(events(simulate(mirror, options: options)), events(reference), "\(position)")
            XCTAssertEqual(g6(trace, position, mirror: mirror), [], "\(position)")
        }
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        // Tampered: the top mirror's drag (from its fourth touch sample on) ends one point farther out.
        let tampered = movingTouches(mirrored(trace, .top), from: 3, by: 1)
        XCTAssertEqual(g6(trace, .top, mirror: tampered).map(\.key), ["G6@top:order"])
    }

    /// G6 (seed 41140): the panel is dragged from the list with the finger far above the list's
    /// visible top. startInteraction's inset-area test (core §3.3 step 2b) keeps the over-scrolled
    /// offset on the bottom panel (−inset.top + location < 0); the top panel's test adds
    /// contentOffsetMax instead (FloatingPanel `Core.startInteraction`, `case .top, .left`), fails,
    /// and the panel absorbs the 42 pt over-scroll, so it is released off the anchor it rests on in
    /// the bottom replay and attracted back. The mirror-image test restores the bottom replay's
    /// course. A mirror released one point farther (its last touch samples moved) still fails.
    func testInsetAreaTestOfTopPanelsAddsContentOffsetMax() throws {
        let trace = try fixture("g6-inset-area-top")
        let mirror = mirrored(trace, .top)
        XCTAssertNotEqual(events(replay(mirror)), events(replay(trace)))
        XCTAssertEqual(g6(trace, .top, mirror: mirror), [])
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        let tampered = movingTouches(mirror, from: 3, by: 1)
        XCTAssertEqual(g6(trace, .top, mirror: tampered).map(\.key), ["G6@top:order"])
    }

    /// G6 (seed 10999): a drag of the hidden state is abandoned (core §4.1 step 1) and the container
    /// rotates. The interaction constraint hangs from the container's top edge on every panel
    /// (FloatingPanel `LayoutAdapter.startInteraction`), so the bottom surface stays where it was
    /// while the top mirror's moving edge no longer is the image of it, and a later touch lands on
    /// the top surface only. With the constraint moved with the container's far edge (the mirror
    /// image) the replays agree. A mirror that is not rotated still fails.
    func testInteractionConstraintStaysOnTheContainerTopAcrossARotation() throws {
        let trace = try fixture("g6-container-change-abandoned-drag")
        let mirror = mirrored(trace, .top)
        XCTAssertNotEqual(events(replay(mirror)), events(replay(trace)))
        XCTAssertEqual(g6(trace, .top, mirror: mirror), [])
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        var tampered = mirror
        tampered.samples.removeAll { if case .environment = $0.kind { return true } else { return false } }
        XCTAssertEqual(g6(trace, .top, mirror: tampered).map(\.key), ["G6@top:order"])
    }

    /// G6 (seed 9560): a finger held still before lifting has an estimated velocity of exactly 0.
    /// The mirror moves touch points by a power of two (2^-20 pt), so mirrored positions stay
    /// exactly representable and their differences exact; with the old 1e-6 pt the top replay
    /// released at 6.8e-27 pt/s toward another state. Moved by 1e-6 pt, the same mirror fails.
    func testMirrorNudgeKeepsTouchArithmeticExact() throws {
        let trace = try fixture("g6-held-finger-mirror")
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        let h = trace.header.environment.container.height
        let mirror = mirrored(trace, .top)
        for (b, m) in zip(trace.samples, mirror.samples) {
            guard case let .touch(tb) = b.kind, case let .touch(tm) = m.kind else { continue }
            XCTAssertEqual((h - tb.location.y) - tm.location.y, 0x1p-20, "exact nudge")
        }
        var old = mirror
        for i in old.samples.indices {
            guard case var .touch(t) = old.samples[i].kind else { continue }
            t.location.y = (h - { if case let .touch(b) = trace.samples[i].kind { return b.location.y } else { return 0 } }()) - 1e-6
            old.samples[i].kind = .touch(t)
        }
        XCTAssertEqual(g6(trace, .top, mirror: old).map(\.key), ["G6@top:order"])
    }

    /// G3 on a top panel (seed 22685): the list frame is longer than the surface; on a top panel its
    /// part past the moving edge is on screen, and a touch there is outside the surface, so UIKit
    /// never gives it to the list (the replay's touch-down rule, core §1.8) and the list's
    /// deceleration goes on under it. With the surface recorded over the touch (frames moved
    /// 450 pt), the list would have been stopped: the same offsets are a real violation.
    func testListOutsideTheSurfaceTakesNoTouch() throws {
        let trace = mirrored(try fixture("g3-list-outside-surface"), .top)
        let result = replay(trace)
        XCTAssertEqual(InvariantChecker.check(trace, result: result, variant: "top").violations, [])
        let records = result.records.map { r -> ResultRecord in
            guard case var .frame(f) = r else { return r }
            f.location += 450
            return .frame(f)
        }
        XCTAssertTrue(Set(InvariantChecker.check(trace, result: SimulationResult(records: records), variant: "top").violations.map(\.key)).contains("G3@top:bound"))
    }

    /// G3 on a top fitToBounds panel (seed 22364): the grabber band is drawn from the surface's max
    /// edge (FloatingPanel `SurfaceView.grabberAreaFrame`, core §1.8) and a fitToBounds surface's
    /// length is its location (§1.7), so when the drag beyond the most expanded anchor is clamped
    /// back to it (§3.4.2) the band slides over the touch-down point; the clamp test's first
    /// condition turns false and the next sample is unclamped: a jump of the surface that the
    /// finger did not make. The same result on a static surface (the band does not move) is a
    /// real G3 violation.
    func testTopFitToBoundsGrabberBandSlidesOverTheTouchDown() throws {
        let trace = mirrored(try fixture("g3-fit-to-bounds-band-drift"), .top)
        let result = replay(trace)
        XCTAssertEqual(InvariantChecker.check(trace, result: result, variant: "top").violations, [])
        var fixed = trace
        fixed.header.panel.contentMode = .static
        XCTAssertTrue(Set(InvariantChecker.check(fixed, result: result, variant: "top").violations.map(\.key)).contains("G3@top:bound"))
    }

    /// G3 on a top panel (seed 84457): a short list strictly locked past its edge; in one frame the
    /// first pan sample clamps it back to the edge (bounces off, O6), Core's scroll handler unlocks
    /// (§3.7 case B) and the next sample pulls it past the same edge with the finger. O then moves
    /// from the edge, not from where the frame before left it. Pulled farther than the finger went,
    /// it is a real violation.
    func testClampBackToTheEdgeThenPulledPastItInOneFrame() throws {
        let trace = mirrored(try fixture("g3-clamp-then-pull"), .top)
        let result = replay(trace)
        XCTAssertEqual(InvariantChecker.check(trace, result: result, variant: "top").violations, [])
        var records = Array(result.records)
        let index = try XCTUnwrap(records.firstIndex { r in
            if case let .frame(f) = r { return f.index == 258 } else { return false }
        })
        guard case var .frame(f) = records[index] else { return XCTFail() }
        XCTAssertEqual(f.scrollLocked, false)
        f.contentOffset = (f.contentOffset ?? 0) - 30
        records[index] = .frame(f)
        XCTAssertFalse(InvariantChecker.check(trace, result: SimulationResult(records: records), variant: "top").violations.isEmpty)
    }
}
