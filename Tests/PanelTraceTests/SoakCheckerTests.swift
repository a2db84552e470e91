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

    /// `records` with `change` applied to every frame for which `which` holds; the number changed.
    private func tamper(_ records: [ResultRecord], where which: (FrameRecord) -> Bool, _ change: (inout FrameRecord) -> Void) -> (records: [ResultRecord], count: Int) {
        var out = records, count = 0
        for i in out.indices {
            guard case var .frame(f) = out[i], which(f) else { continue }
            change(&f)
            out[i] = .frame(f)
            count += 1
        }
        return (out, count)
    }

    /// The keys the checker reports for `records` as the replay of `trace`.
    private func keys(_ trace: Trace, _ records: [ResultRecord]) -> Set<String> { keys(trace, SimulationResult(records: records)) }

    /// The frames of `records`.
    private func frames(_ records: [ResultRecord]) -> [FrameRecord] {
        records.compactMap { if case let .frame(f) = $0 { return f } else { return nil } }
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
    /// rests unlocked. A result tampered to rest locked is a real G4 violation: the exception
    /// covers the other direction only.
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
    /// anchor at the drag's start is a real G3 violation (the exception reads
    /// `behavior.rubberBandingEdges`).
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
        shown.samples.removeFirst()   // the move to hidden: without it the drag runs in tip
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
        // The surface holds still: the list alone breaks the bound.
        XCTAssertTrue(keys(trace, SimulationResult(records: records)).contains("G3@bottom:offset-bound"))
    }

    // MARK: G6 and the mirror (the G6-order and mirror-only G3 seeds)

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
        try assertTopMirrorDiffersOnlyByFloatingPanelsAsymmetry(fixture("g6-inset-area-top")) { movingTouches($0, from: 3, by: 1) }
    }

    /// G6 (seed 10999): a drag of the hidden state is abandoned (core §4.1 step 1) and the container
    /// rotates. The interaction constraint hangs from the container's top edge on every panel
    /// (FloatingPanel `LayoutAdapter.startInteraction`), so the bottom surface stays where it was
    /// while the top mirror's moving edge no longer is the image of it, and a later touch lands on
    /// the top surface only. With the constraint moved with the container's far edge (the mirror
    /// image) the replays agree. A mirror that is not rotated still fails.
    func testInteractionConstraintStaysOnTheContainerTopAcrossARotation() throws {
        try assertTopMirrorDiffersOnlyByFloatingPanelsAsymmetry(fixture("g6-container-change-abandoned-drag")) { mirror in
            var tampered = mirror
            tampered.samples.removeAll { if case .environment = $0.kind { return true } else { return false } }
            return tampered
        }
    }

    /// The top mirror of `trace` takes another course than the bottom replay (its events differ),
    /// G6 accepts it as FloatingPanel's own asymmetry, every invariant holds on `trace`, and
    /// `tamper` applied to the mirror makes it a G6 order violation.
    private func assertTopMirrorDiffersOnlyByFloatingPanelsAsymmetry(_ trace: Trace, tamper: (Trace) -> Trace,
                                                                     file: StaticString = #filePath, line: UInt = #line) {
        let mirror = mirrored(trace, .top)
        XCTAssertNotEqual(events(replay(mirror)), events(replay(trace)), file: file, line: line)
        XCTAssertEqual(g6(trace, .top, mirror: mirror), [], file: file, line: line)
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [], file: file, line: line)
        XCTAssertEqual(g6(trace, .top, mirror: tamper(mirror)).map(\.key), ["G6@top:order"], file: file, line: line)
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
        let found = Set(InvariantChecker.check(trace, result: SimulationResult(records: records), variant: "top").violations.map(\.key))
        XCTAssertTrue(found.contains("G3@top:bound") || found.contains("G3@top:offset-bound"), "\(found)")
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

    // MARK: How narrow each exception is (docs/soak-triage.md)

    /// G3, a touch that continues a drag abandoned in the hidden state (core §4.1 step 1): only
    /// the frame of its first `changed` sample jumps (diff from the old initialTranslation, §3.4
    /// step 2); every later sample moves the surface by the finger's step, so only that frame is
    /// excused: a result tampered with a 20 pt jump later in that touch is a G3 violation.
    func testAbandonedDragContinuationSkipsOnlyItsFirstSample() throws {
        let trace = try fixture("g3-abandoned-drag-continuation")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        // The continuation jump: 512 → 552 at the first changed sample (t = 2.04 s), against the
        // finger, then 10 pt per sample with it.
        let locations = frames(records).filter { $0.index >= 245 && $0.index <= 257 }.map(\.location)
        XCTAssertEqual(locations, [552, 542, 532, 522, 512, 502])
        let (tampered, n) = tamper(records, where: { $0.index >= 250 && $0.isDragging }) { $0.location += 20 }
        XCTAssertEqual(n, 4)
        XCTAssertTrue(keys(trace, tampered).contains("G3@bottom:surface-against"), "\(keys(trace, tampered))")
    }

    /// G3, a drag that starts beyond the extreme anchors on a side that rubber-bands: the first
    /// sample pulls the start to the band's image, tip + rb(d, H) (core §3.4.1 step 3; here d =
    /// 905.667 − 741 = 164.667, rb = 81.790, so 822.790). The exception is that pull and no
    /// more: a result tampered to start 20 pt further toward tip (the later frames shifted alike)
    /// is a G3 violation, not any move toward the anchor.
    func testRubberBandStartPullIsBoundedByTheBand() throws {
        let trace = try fixture("g3-rubber-band-on-at-drag-start")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        let start = try XCTUnwrap(frames(records).first { $0.isDragging })
        XCTAssertEqual(start.location, 741 + rubberBand(905.6666666666666 - 741, 844), accuracy: 1e-9)
        let (tampered, n) = tamper(records, where: \.isDragging) { $0.location -= 20 }
        XCTAssertGreaterThan(n, 5)
        XCTAssertTrue(keys(trace, tampered).contains("G3@bottom:bound"), "\(keys(trace, tampered))")
    }

    /// G3, the over-scroll shift at a drag's start (core §3.3 step 2b) only under step 2b's
    /// conditions. A drag on a list over-scrolled by 20 pt in half, which is not scrollable, leaves
    /// the start alone: a result tampered to jump 20 pt toward hidden there is a G3 violation
    /// (the shift is not taken off every drag start). With half scrollable the same
    /// drag does absorb the 20 pt, and passes.
    func testOverScrollShiftOnlyUnderStep2bConditions() throws {
        let trace = try fixture("g3-overscroll-shift-needs-step-2b")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        XCTAssertEqual(frames(records).first { $0.isDragging }?.location, 422, "no shift in a state that is not scrollable")
        let (tampered, n) = tamper(records, where: \.isDragging) { $0.location += 20 }
        XCTAssertGreaterThan(n, 2)
        XCTAssertTrue(keys(trace, tampered).contains("G3@bottom:bound"), "\(keys(trace, tampered))")

        var scrollable = trace
        scrollable.header.delegate.scrollableStates = ["half", "full"]
        let shifted = Array(replay(scrollable).records)
        // The list is unlocked in half here, so the finger first pulls it further (O6's band) and
        // the start absorbs the over-scroll of the start sample.
        let start = try XCTUnwrap(frames(shifted).first { $0.isDragging })
        XCTAssertEqual(start.location, 422 - (start.contentOffset ?? 0), "the start absorbs the over-scroll")
        XCTAssertLessThan(start.contentOffset ?? 0, -20)
        XCTAssertEqual(keys(scrollable, shifted), [])
    }

    /// G3, the bounces-off clamp (§3.7 case B, O6) is not excused for a loosely locked list: a
    /// fitToBounds surface with content shorter than its bounds locks without touching bounces
    /// (§3.6.3 shouldLooselyLock). A result tampered so that O, 30 pt past its edge, snaps back
    /// to the edge (0, not io's 40) against the finger is a G3 violation; the same result
    /// read with a static surface (a lock that does turn bounces off) stays excused.
    func testLooseLockLeavesBouncesOn() throws {
        let trace = try fixture("g3-loose-lock-keeps-bounces")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        XCTAssertTrue(frames(records).filter(\.isDragging).allSatisfy { $0.scrollLocked == true && $0.contentOffset == 40 })
        let firstDrag = try XCTUnwrap(frames(records).first { $0.isDragging }).index
        var (tampered, _) = tamper(records, where: { $0.index < firstDrag }) { $0.contentOffset = -30 }
        (tampered, _) = tamper(tampered, where: { $0.index >= firstDrag }) { $0.contentOffset = 0 }
        XCTAssertTrue(keys(trace, tampered).contains("G3@bottom:offset-against"), "\(keys(trace, tampered))")
        var strict = trace
        strict.header.panel.contentMode = .static
        XCTAssertFalse(keys(strict, tampered).contains { $0.hasPrefix("G3") }, "\(keys(strict, tampered))")
    }

    /// G3, a pin back to io (§3.7 A1, §8 item 12) is excused only to a value io holds in that
    /// frame. Here io is captured at track (300); the app sets 120, then 50; the drag on the list
    /// in half pins the list back to 300 at the pans' recognition. A result tampered to jump to
    /// 120 mid-drag, a value O held but io never did, is a G3 violation.
    func testPinOnlyToTheIoInForce() throws {
        let trace = try fixture("g3-pin-to-the-io-in-force")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        XCTAssertEqual(frames(records).map(\.contentOffset), [300, 120, 50] + Array(repeating: 300, count: frames(records).count - 3))
        let (tampered, n) = tamper(records, where: { $0.index >= 22 }) { $0.contentOffset = 120 }
        XCTAssertGreaterThan(n, 2)
        XCTAssertTrue(keys(trace, tampered).contains("G3@bottom:bound"), "\(keys(trace, tampered))")
    }

    /// G4 pin, a rest beyond the pinning offset is excused only at a value io held while O rested
    /// there (§3.7 A1, O7). A list pulled past its edge returns to it at the frame after the
    /// release (O7); a result tampered to skip that return rests at −31.28, a value O held but io
    /// (100, from track; the vetoed touch never captured another) never did: a G4 violation.
    func testRestOnlyAtAValueIoHeld() throws {
        let trace = try fixture("g4-return-to-the-edge")
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.contentOffset, 0)
        let pulled = try XCTUnwrap(frames(records).dropLast().last?.contentOffset)
        XCTAssertLessThan(pulled, -30)
        f.contentOffset = pulled
        records[last] = .frame(f)
        XCTAssertTrue(keys(trace, records).contains("G4@bottom:pin"), "\(keys(trace, records))")

        // The same for the attraction's pin (§4.4 update step 3), which holds O at io only: an
        // animated move after the return, with every later frame tampered to the pulled value,
        // attraction frames included, is a G4 violation too (io holds 100, not −31.28).
        var moved = trace
        moved.samples.append(TraceSample(time: 500_000, kind: .call(.move(to: .full, animated: true))))
        let release = try XCTUnwrap(trace.samples.last).time
        let movedRecords = Array(replay(moved).records)
        XCTAssertEqual(keys(moved, movedRecords), [])
        XCTAssertTrue(frames(movedRecords).contains(where: \.isAttracting))
        let (pinned, n) = tamper(movedRecords, where: { frameTime($0.index, frameRate: 120) > release }) { $0.contentOffset = pulled }
        XCTAssertGreaterThan(n, 5)
        XCTAssertTrue(keys(moved, pinned).contains("G4@bottom:pin"), "\(keys(moved, pinned))")
    }

    /// G3, a grabber touch that left the band before the pans recognized (§3.8 item 2): the list
    /// scrolls with the finger while the surface is at the most expanded anchor (case B), and is
    /// pinned to io = 90 once the surface is inside it (case A, §3.7 A1), so O is checked for the
    /// whole touch: a result tampered with a 15 pt jump of O while the surface is inside the
    /// anchor is a G3 violation.
    func testGrabberTouchThatLeftTheBandIsPinnedInsideTheAnchor() throws {
        let trace = try fixture("g3-grabber-touch-leaves-band")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        XCTAssertEqual(frames(records).filter(\.isDragging).map(\.contentOffset), [90, 80, 90, 90, 90, 90])
        let (tampered, n) = tamper(records, where: { $0.index >= 27 }) { $0.contentOffset = 105 }
        XCTAssertGreaterThan(n, 2)
        XCTAssertTrue(keys(trace, tampered).contains("G3@bottom:offset-against"), "\(keys(trace, tampered))")
    }

    /// G3, O in a frame without a finger sample: under a touch on the list only a landing on an
    /// edge of its range is O's own (O7's return; the touch-down stopped any deceleration). A
    /// result tampered so that O jumps 120 → 400 in a sample-less frame is a G3 violation.
    func testOffsetDoesNotMoveBetweenSamplesOfATouchOnTheList() throws {
        let trace = try fixture("g3-sampleless-frames-on-list")
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        // Frame 16 falls between the samples of frames 15 and 18 (60 Hz, a sample every 50 ms).
        let i = try XCTUnwrap(records.firstIndex { if case let .frame(f) = $0 { return f.index == 15 } else { return false } })
        guard case var .frame(f) = records[i] else { return XCTFail() }
        f.index = 16
        f.contentOffset = 400
        records.insert(.frame(f), at: i + 1)
        (records, _) = tamper(records, where: { $0.index > 16 }) { $0.contentOffset = 400 }
        XCTAssertTrue(keys(trace, records).contains("G3@bottom:offset-bound"), "\(keys(trace, records))")
    }

    /// G3, O under a touch that went down off the list: a deceleration it did not stop (O7) takes
    /// ever smaller steps of one sign. A result tampered with a 30 pt larger step mid-drag is a
    /// G3 violation (O is checked under such a touch too).
    func testOffsetUnderAnOffListTouchOnlyDecelerates() throws {
        let trace = try fixture("g3-deceleration-under-an-off-list-touch")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        let steps = zip(frames(records).dropFirst(), frames(records)).filter { $0.0.index >= 29 && $0.0.index <= 40 }
            .map { ($0.0.contentOffset ?? 0) - ($0.1.contentOffset ?? 0) }
        XCTAssertTrue(zip(steps.dropFirst(), steps).allSatisfy { $0.0 > 0 && $0.0 < $0.1 }, "\(steps)")
        let (tampered, n) = tamper(records, where: { $0.index >= 34 && !$0.isAttracting }) { $0.contentOffset! += 30 }
        XCTAssertGreaterThan(n, 3)
        XCTAssertTrue(keys(trace, tampered).contains("G3@bottom:bound"), "\(keys(trace, tampered))")
    }

    /// G3 (seeds 52490, 98754; gap 2 of docs/soak-triage.md): an attraction to the most expanded
    /// state is interrupted by a touch on the scrolled list short of the anchor; startInteraction
    /// sets io := pin (§3.3 step 2b), the next scroll-pan sample pins O there (case A, §3.7 A1),
    /// and once the surface is clamped at the anchor (§3.4.2) case B unlocks and the list scrolls
    /// from the pin with the finger: frame 875 shows O 1337 → −19 → −12.25, which passes because
    /// O is held to the finger from io. A result tampered to scroll 30 pt further from the pin
    /// than the finger went is a G3 violation.
    func testPinJumpThenFingerScrollInOneFrame() throws {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("Tests/Fixtures/soak-checker/g3-pin-jump-then-scroll.jsonl")
        let trace = try TraceLoader.load(path: url.path).trace
        let result = replay(trace)
        XCTAssertTrue(result.budgetExceeded, "the trace ends with the finger down")
        let records = Array(result.records)
        func keys(_ records: [ResultRecord]) -> Set<String> {
            Set(InvariantChecker.check(trace, result: SimulationResult(records: records, budgetExceeded: true)).violations.map(\.key))
        }
        XCTAssertEqual(keys(records), [])
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        let f875 = try XCTUnwrap(frames(records).first { $0.index == 875 })
        XCTAssertEqual(f875.contentOffset, -12.25)
        XCTAssertEqual(f875.location, 37)
        let (tampered, n) = tamper(records, where: { $0.index >= 875 && !$0.isAttracting }) { $0.contentOffset! += 30 }
        XCTAssertGreaterThan(n, 0)
        XCTAssertTrue(keys(tampered).contains("G3@bottom:bound"), "\(keys(tampered))")
    }

    /// G1, an animation stopped by a touch that is then not taken (§3.2 step 1, §3.5, §4.7): the
    /// list takes the touch only under §3.5's conditions at the touch-down (on the list, a
    /// scrollable state, within 1 pt of its anchor, not in the grabber). Here the touch-down is on
    /// the surface's header, off the list, and FloatingPanel re-attracts at the lift; a result
    /// tampered to stop there, between anchors, is a G1 violation (a tracked list alone does not
    /// excuse it). With the delegate vetoing, the same stop is FloatingPanel's.
    func testInterruptedAnimationIsLeftOnlyWhenTheListTakesTheTouch() throws {
        let trace = try fixture("g1-interrupted-attraction-tap-off-list")
        let records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        let stop = try XCTUnwrap(records.firstIndex { if case .event(_, .didEndAttracting) = $0 { return true } else { return false } })
        let cut = Array(records[...(stop + 1)])
        guard case let .frame(rest)? = cut.last else { return XCTFail("a frame follows the interruption") }
        XCTAssertEqual(rest.location, 223.71745792022247, accuracy: 1e-9)
        XCTAssertTrue(keys(trace, cut).contains("G1@bottom:rest"), "\(keys(trace, cut))")
        var vetoed = trace
        vetoed.header.delegate.shouldBeginDragging = false
        let stopped = replay(vetoed)
        XCTAssertEqual(frames(Array(stopped.records)).last?.location ?? 0, 223.71745792022247, accuracy: 1e-9)
        XCTAssertEqual(keys(vetoed, stopped), [])
    }

    /// G4 lock, the scroll handler's strict lock (§3.7 case B) excuses a locked rest in a
    /// scrollable state only when a sample could have taken it: a recognized scroll pan, no drag,
    /// D ≤ 0, the finger toward hidden and allow false. After a move (a lock decision), a tap on
    /// the list (5 pt, below the threshold, O4) recognizes nothing; a result tampered to rest
    /// locked is a G4 violation (a moved sample after the last decision is not enough).
    /// The strict lock of seed 201 (g3-strict-lock-clamps-overscroll) still passes.
    func testStrictLockNeedsCaseBConditions() throws {
        let trace = try fixture("g4-tap-on-the-list-at-full")
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.scrollLocked, false)
        f.scrollLocked = true
        records[last] = .frame(f)
        XCTAssertTrue(keys(trace, records).contains("G4@bottom:lock"), "\(keys(trace, records))")
        let strict = try fixture("g3-strict-lock-clamps-overscroll")
        XCTAssertEqual(keys(strict, replay(strict)), [])
    }

    /// G4 lock, a surface resting off its own state's anchor keeps updateScrollView's lock (§5.1
    /// step 5) only after its cited cause, a removal the app's dismissIn recipe started inside a
    /// state change (O14; the move then applies its own layout, §5.1 steps 4 and 6). The app's
    /// clamp recipe holds the surface 20 pt below full after a non-animated move, which unlocks
    /// (§5.1 step 4); a result tampered to rest locked there is a G4 violation.
    func testOffAnchorLockNeedsARemovalInsideAShow() throws {
        let trace = try fixture("g4-clamp-recipe-off-the-anchor")
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.location, 120)
        XCTAssertEqual(f.scrollLocked, false)
        f.scrollLocked = true
        records[last] = .frame(f)
        XCTAssertTrue(keys(trace, records).contains("G4@bottom:lock"), "\(keys(trace, records))")
    }

    /// F4, the app's dismissIn removal between didChangeState(target) and didEndDragging(false) is
    /// excused only when the recipe lists that target (O14). The same result read with an app
    /// whose dismissIn does not list it is an F4 violation.
    func testDismissInRemovalNeedsTheTargetListed() throws {
        let trace = try fixture("f4-dismiss-in-inside-end")
        let result = replay(trace)
        XCTAssertEqual(keys(trace, result), [])
        XCTAssertFalse(trace.header.delegate.dismissIn.isEmpty)
        var unlisted = trace
        unlisted.header.delegate.dismissIn = []
        XCTAssertTrue(keys(unlisted, result).contains("F4@bottom:order"), "\(keys(unlisted, result))")
    }

    /// F5, a drag that ends and a new one that begins between two frames: the new drag's first
    /// sample only sets its baseline, from the rounded frame edge (§3.3 step 5), so the surface
    /// moves by at most a pixel (432.6 → 432.667 here) plus the over-scroll shift; on a left panel
    /// the release's attraction set-up adds S.left − S.right (layout-behavior §8 item 2), as the
    /// left mirror shows. A result tampered with a 20 pt jump there is an F5 violation.
    func testDragRestartMovesOnlyByRounding() throws {
        let trace = try fixture("f5-drag-restart-between-frames")
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        let i = try XCTUnwrap(records.firstIndex { if case let .frame(f) = $0 { return f.index == 10 } else { return false } })
        guard case var .frame(f) = records[i] else { return XCTFail() }
        XCTAssertEqual(f.location, 432.6666666666667, accuracy: 1e-9)
        f.location += 20
        records[i] = .frame(f)
        XCTAssertTrue(keys(trace, records).contains("F5@bottom:drag"), "\(keys(trace, records))")
    }

    /// G4 pin, the safe-area update's restore of the offset (§3.10 steps 1 and 4, which stops the
    /// return to the edge, O9) excuses a rest past the pin only after a sample that changed the
    /// safe area (the update runs only then). With the same sample not changing it the list
    /// returns to its edge; a result tampered to stay past the pin is a G4 violation.
    func testSafeAreaRestoreNeedsAChangedSafeArea() throws {
        let trace = try fixture("g4-safe-area-restore")
        let restored = replay(trace)
        XCTAssertEqual(frames(Array(restored.records)).last?.contentOffset ?? 0, -31.27962085308056, accuracy: 1e-9)
        XCTAssertEqual(keys(trace, restored), [])
        var unchanged = trace
        let e = try XCTUnwrap(unchanged.samples.firstIndex { if case .environment = $0.kind { return true } else { return false } })
        unchanged.samples[e].kind = .environment(trace.header.environment)
        var records = Array(replay(unchanged).records)
        XCTAssertEqual(keys(unchanged, records), [])
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.contentOffset, 0, "no update: the list returns to its edge")
        f.contentOffset = -31.27962085308056
        records[last] = .frame(f)
        XCTAssertTrue(keys(unchanged, records).contains("G4@bottom:pin"), "\(keys(unchanged, records))")
    }

    /// G1/G4 at rest with an `end` sample: the rest checks run when the replay was at rest by the
    /// end (the same trace without the end sample stops by itself with the same records). An end
    /// long after the re-attraction settles: a result tampered off the anchor is a G1 violation
    /// (an end sample does not skip the rest checks). An end while
    /// the interrupting finger is still down leaves the surface between anchors, and no rest is
    /// asserted.
    func testEndSampleKeepsRestChecksWhenAtRest() throws {
        var trace = try fixture("g1-interrupted-attraction-tap-off-list")
        trace.samples.append(TraceSample(time: 3_000_000, kind: .end))
        var records = Array(replay(trace).records)
        XCTAssertEqual(keys(trace, records), [])
        let last = try lastFrameIndex(records)
        guard case var .frame(f) = records[last] else { return XCTFail() }
        XCTAssertEqual(f.location, 100)
        f.location += 3
        records[last] = .frame(f)
        XCTAssertTrue(keys(trace, records).contains("G1@bottom:rest"), "\(keys(trace, records))")

        var cut = try fixture("g1-interrupted-attraction-tap-off-list")
        let lift = try XCTUnwrap(cut.samples.firstIndex { $0.time == 300_000 })
        cut.samples.insert(TraceSample(time: 280_000, kind: .end), at: lift)
        let midway = replay(cut)
        XCTAssertEqual(frames(Array(midway.records)).last?.location ?? 0, 223.71745792022247, accuracy: 1e-9)
        XCTAssertEqual(keys(cut, midway), [])
    }

    /// G3, the clamp flag flipping on a top/left fitToBounds surface (§3.4.2, §1.7, §1.8; seed 8048
    /// on its top mirror, also 23200): the surface jumps between the extreme anchor it was
    /// clamped to and the unclamped constant, which G3 leaves out. A jump that does not start or
    /// end at that anchor is no such flip: the same result tampered to stop half a point short of
    /// the anchor is a G3 violation.
    func testClampFlagFlipOnlyBetweenTheAnchorAndTheConstant() throws {
        let bottom = try fixture("g3-grabber-band-flip-fit-to-bounds")
        let trace = Mirror(position: .top, h: bottom.header.environment.container.height).trace(bottom)
        func topKeys(_ records: [ResultRecord]) -> Set<String> {
            Set(InvariantChecker.check(trace, result: SimulationResult(records: records), variant: "top").violations.map(\.key))
        }
        let records = Array(replay(trace).records)
        XCTAssertEqual(topKeys(records).filter { $0.hasPrefix("G3") }, [])
        XCTAssertEqual(frames(records).filter { [215, 217, 219].contains($0.index) }.map(\.location), [817, 781, 818.375])
        let (tampered, n) = tamper(records, where: { $0.index == 217 }) { $0.location += 0.5 }
        XCTAssertEqual(n, 1)
        XCTAssertTrue(topKeys(tampered).contains("G3@top:bound"), "\(topKeys(tampered))")
    }

    /// G3, the clamp flag flipping twice inside one frame on a top/left fitToBounds surface (seed
    /// 18809, also 22638, 83291, 88986; touches at 240 Hz, two per 120 Hz frame): the surface
    /// leaves the anchor and comes back between two frame records, so the frames around it do not
    /// show the flip, and G3 leaves out a frame with two or more finger samples whose locations lie
    /// on both sides of the band's flip (`grabberBandMovedAcrossTouchDown`). The same result read
    /// against the trace with frame 507's first sample removed (one sample, so no flip can hide
    /// between records) is a G3 violation.
    func testClampFlagFlipTwiceInOneFrameNeedsTwoSamples() throws {
        let bottom = try fixture("g3-band-flip-twice-in-one-frame")
        let trace = Mirror(position: .top, h: bottom.header.environment.container.height).trace(bottom)
        let result = replay(trace)
        func topKeys(_ t: Trace) -> Set<String> {
            Set(InvariantChecker.check(t, result: result, variant: "top").violations.map(\.key))
        }
        XCTAssertEqual(topKeys(trace).filter { $0.hasPrefix("G3") }, [])
        var thinned = trace
        let before = thinned.samples.count
        // Frame 507 at 120 Hz takes the samples of (4.216667 s, 4.225 s]: 4.217565 and 4.221731.
        thinned.samples.removeAll { $0.time == 4_217_565 }
        XCTAssertEqual(thinned.samples.count, before - 1)
        XCTAssertTrue(topKeys(thinned).contains("G3@top:bound"), "\(topKeys(thinned))")
    }

    /// G6 is not asserted on top/left for a list that contentOffsetMax clamps at 0 (§3.6.2): size
    /// plus the mirrored list's trailing inset shorter than the bounds, that inset being 0 once
    /// FloatingPanel may rewrite it (§3.10). A 700 pt list in 600 pt bounds is never clamped and
    /// is compared (adding both insets and both safe areas would wrongly exempt it: 700 < 781); a
    /// 500 pt list is exempt.
    func testShortListMirrorExemptionUsesTheClampsInset() throws {
        var trace = try fixture("g3-pin-to-the-io-in-force")
        trace.header.scrollView?.contentInset = Insets(top: 50, left: 0, bottom: 50, right: 0)
        trace.header.scrollView?.contentSize.height = 700
        XCTAssertNil(InvariantChecker.g6Exemption(trace, .top))
        trace.header.scrollView?.contentSize.height = 500
        XCTAssertEqual(InvariantChecker.g6Exemption(trace, .top)?.hasPrefix("floatingpanel-core.md §3.6.2"), true)
    }
}
