import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// The random-gesture soak, bounded: fixed seeds, the same generator, checker and
/// minimizer as `panelsim soak` (which runs any number of seeds). Plus tests that the checker
/// and the minimizer can fail, and the regression test of the model bug the soak found.
final class SoakInvariantTests: XCTestCase {
    /// Seeds of the bounded run (a few seconds in a debug build).
    static let seeds: ClosedRange<UInt64> = 1...60

    /// Violations the soak still reports on the bounded seeds and that are not yet triaged; the test
    /// fails when the set changes either way, so a fix removes its entry and a new violation is seen.
    /// (Seed 57, once listed here, is FloatingPanel's own behavior: a list tracked while a drag's
    /// attraction to a non-scrollable state runs is unlocked by `track` (floatingpanel-core.md §2
    /// step 3) and nothing locks it again, since the attraction's end only unlocks (§4.5 step 3);
    /// `InvariantChecker` states G4 with that exception and `testListTrackedDuringAttraction…`
    /// checks it.)
    static let openViolations: Set<String> = []

    func testBoundedRandomRunHoldsEveryInvariant() {
        var counts = SoakCounts()
        var seen: Set<String> = []
        for seed in Self.seeds {
            let outcome = Soak.run(seed: seed)
            XCTAssertNil(outcome.generatorError, "seed \(seed)")
            counts += outcome.counts
            for v in outcome.violations { seen.insert("\(seed) \(v.key)") }
        }
        XCTAssertEqual(seen, Self.openViolations, "reproduce with: swift run panelsim soak --seed SEED --count 1")
        // The checks ran (a checker that looks at nothing passes vacuously): G1 rests, G4 resting
        // lists, G3 frame pairs, F1/F3 calls, F5 attraction frames, G6 mirrors.
        XCTAssertGreaterThan(counts["G1"], 200)
        XCTAssertGreaterThan(counts["G4"], 100)
        XCTAssertGreaterThan(counts["G3"], 5000)
        XCTAssertGreaterThan(counts["F1"], 100)
        XCTAssertGreaterThan(counts["F5"], 5000)
        XCTAssertGreaterThan(counts["G6"], 80)
    }

    /// Seeds 30165 and 92815 (G3 on the bottom replay and its mirrors): a drag leaves the surface
    /// a hair inside the most expanded anchor (179.66666666666669 against 179.666…666, and 946.25
    /// against 946 at scale 1). FloatingPanel decides §3.7 case A/B from the pixel-rounded frame
    /// edge (§1.4, §1.6/O2), so for it the surface is at the anchor and the list is not pinned:
    /// surface and list each follow the finger. The checker compares the rounded edge, not the
    /// unrounded value.
    func testMostExpandedZoneIsDecidedFromTheRoundedFrameEdge() {
        for seed: UInt64 in [30165, 92815] {
            let outcome = Soak.run(seed: seed)
            XCTAssertNil(outcome.generatorError, "seed \(seed)")
            XCTAssertEqual(outcome.violations.map(\.key), [], "seed \(seed)")
        }
    }

    func testGeneratorIsDeterministicAndValid() throws {
        for seed: UInt64 in [1, 7, 123_456_789] {
            let a = TraceWriter.write(SoakGenerator.trace(seed: seed))
            let b = TraceWriter.write(SoakGenerator.trace(seed: seed))
            XCTAssertEqual(a, b, "seed \(seed)")
            let loaded = try TraceLoader.parse(text: a, file: "soak-\(seed).jsonl")
            XCTAssertEqual(loaded.header.panel.position, .bottom)
            XCTAssertFalse(loaded.samples.isEmpty)
        }
        XCTAssertNotEqual(TraceWriter.write(SoakGenerator.trace(seed: 1)), TraceWriter.write(SoakGenerator.trace(seed: 2)))
    }

    /// The checker fails on a result that breaks the rules: a corpus replay with its resting frame
    /// moved off the anchors (G1, G7), its last didEndAttracting removed (G2) and a frame whose state
    /// was never reported (F1).
    func testCheckerReportsTamperedResults() throws {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("traces/scenarios/s5-interrupted-attraction.jsonl")
        let trace = try TraceLoader.load(path: url.path).trace
        let result = simulate(trace, options: InvariantChecker.options)
        XCTAssertEqual(InvariantChecker.check(trace, result: result).violations, [], "the untampered replay passes")
        var records = Array(result.records)
        guard let last = records.lastIndex(where: { if case .frame = $0 { return true } else { return false } }),
              case var .frame(f) = records[last] else { return XCTFail("no frame") }
        f.location += 3
        records[last] = .frame(f)
        // Off every anchor (G1), so off its own state's too (G7).
        XCTAssertEqual(InvariantChecker.check(trace, result: SimulationResult(records: records)).violations.map(\.rule), ["G1", "G7"])
        var unpaired = Array(result.records)
        unpaired.remove(at: try XCTUnwrap(unpaired.lastIndex { if case .event(_, .didEndAttracting) = $0 { return true } else { return false } }))
        XCTAssertTrue(InvariantChecker.check(trace, result: SimulationResult(records: unpaired)).violations.contains { $0.rule == "G2" })
        var renamed = Array(result.records)
        f.location -= 3; f.state = "nowhere"
        renamed[last] = .frame(f)
        XCTAssertTrue(InvariantChecker.check(trace, result: SimulationResult(records: renamed)).violations.contains { $0.rule == "F1" })
    }

    /// Delta debugging keeps exactly what the failure needs.
    func testMinimizerKeepsOnlyTheFailingSamples() {
        let trace = SoakGenerator.trace(seed: 5)
        XCTAssertGreaterThan(trace.samples.count, 10)
        let needed = [trace.samples[3].time, trace.samples[trace.samples.count - 2].time]
        let minimized = TraceMinimizer.minimize(trace) { t in needed.allSatisfy { time in t.samples.contains { $0.time == time } } }
        XCTAssertEqual(Set(minimized.samples.map(\.time)), Set(needed))
        XCTAssertLessThanOrEqual(minimized.samples.count, 2 + trace.samples.filter { needed.contains($0.time) }.count)
    }

    /// Regression (found by the soak, seed 38): FloatingPanel's safe-area update rewrites the
    /// list's contentInset (floatingpanel-core.md §3.10 step 5), leaving the header's offset −57
    /// beyond the new pinning offset 0. Dragging down must move O with the finger (further
    /// negative, rubber banded), not jump toward 0 against it (G3): the raw finger offset is
    /// re-derived from the shown offset when the range changes (§9 O6).
    func testOffsetBeyondRewrittenInsetFollowsTheFinger() throws {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("traces/soak/soak-38-G3-offset-against.jsonl")
        let trace = try TraceLoader.load(path: url.path).trace
        // While the finger is down (the release returns O to the pin at the next frame, O7).
        let release = try XCTUnwrap(trace.samples.last).time
        let offsets = simulate(trace).records.compactMap { r -> Double? in
            if case let .frame(f) = r, frameTime(f.index, frameRate: trace.header.environment.frameRate) < release { return f.contentOffset }
            return nil
        }
        XCTAssertEqual(offsets.first, -57)
        for (a, b) in zip(offsets, offsets.dropFirst()) { XCTAssertLessThanOrEqual(b, a + 1e-9, "O moves against the downward finger") }
        XCTAssertLessThan(offsets.min() ?? 0, -57, "the content follows the finger past its edge")
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations.filter { $0.rule == "G3" }, [])
    }

    /// The content offset of every frame of `trace` at or after `from` and before `to` (s).
    private func offsets(_ trace: Trace, from: Double, to: Double) -> [Double] {
        simulate(trace).records.compactMap { r -> Double? in
            guard case let .frame(f) = r else { return nil }
            let t = Double(frameTime(f.index, frameRate: trace.header.environment.frameRate)) / 1_000_000
            return t >= from && t < to ? f.contentOffset : nil
        }
    }

    /// Regression (found by the soak, seed 2649): a list released past its edge and grabbed again
    /// before it returns (O7) continues from the finger offset that shows it (O6). The release used
    /// to store the shown offset as the finger offset, so the re-grab showed 481.56 after 486.27,
    /// against the upward finger. Values: 400 + b(x), b(x) = (1 − 1/(0.55x/400 + 1))·400.
    func testRegrabBeyondTheEdgeContinuesWithTheFinger() throws {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("traces/soak/soak-2649-G3-offset-against.jsonl")
        let trace = try TraceLoader.load(path: url.path).trace
        let first = offsets(trace, from: 0.12, to: 0.14)
        XCTAssertEqual(first.count, 2)
        XCTAssertEqual(first[0], 448.35164835164835, accuracy: 1e-9)
        XCTAssertEqual(first[1], 486.27450980392155, accuracy: 1e-9)
        let second = offsets(trace, from: 0.17, to: 0.19)
        XCTAssertEqual(second.count, 2)
        XCTAssertEqual(second[0], 516.8141592920354, accuracy: 1e-9, "u continues from 600 (not from the shown 486.27)")
        XCTAssertEqual(second[1], 541.9354838709678, accuracy: 1e-9)
        XCTAssertEqual(offsets(trace, from: 0.2, to: 0.21), [400], "returns to the edge after the second release")
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
    }

    /// Regression (found by the soak, seed 117): an offset the app set further past the edge than
    /// the band can reach (500 pt with d = 400) has no finger offset; a pan holds it instead of
    /// jumping to edge + d against the finger (the jump was 900 → 800 on an upward finger).
    func testOffsetBeyondTheBandsReachIsHeldByAPan() throws {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("traces/soak/soak-117-G3-bound.jsonl")
        let trace = try TraceLoader.load(path: url.path).trace
        XCTAssertTrue(offsets(trace, from: 0.05, to: 0.15).allSatisfy { $0 == 900 })
        XCTAssertFalse(offsets(trace, from: 0.05, to: 0.15).isEmpty)
        XCTAssertEqual(offsets(trace, from: 0.15, to: 0.16), [400])
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
        // Within reach (excess 300 < 400) the same pan does follow the finger past the edge.
        var near = trace
        near.samples[0].kind = .call(.setContentOffset(x: nil, y: 700, animated: false))
        let moving = offsets(near, from: 0.12, to: 0.14)
        XCTAssertEqual(moving.count, 2)
        XCTAssertGreaterThan(moving[0], 700)
        XCTAssertGreaterThan(moving[1], moving[0])
    }

    /// Regression (found by the soak, seed 218): the app removes the panel from the didChangeState
    /// that an animated show reports (dismissIn). FloatingPanel stores the presenting animator
    /// before starting it (core §5.1 step 6), so the removal's hide finishes that animator (§4.7)
    /// and its own dismissing animator keeps running to didRemove. Storing the show's animator
    /// after the block would drop the removal's, and didRemove would never come.
    func testRemovalInsideAnAnimatedShowStillRemoves() throws {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("traces/soak/soak-218-G1-dismiss-in-during-show.jsonl")
        let trace = try TraceLoader.load(path: url.path).trace
        let events = simulate(trace).records.compactMap { r -> String? in
            guard case let .event(t, e) = r else { return nil }
            switch e {
            case let .didChangeState(s): return "\(t) didChangeState(\(s))"
            case let .didMove(l): return "\(t) didMove(\(l))"
            default: return "\(t) \(e.name)"
            }
        }
        XCTAssertEqual(events, ["100000 didChangeState(full)", "100000 willRemove", "100000 didMove(944.0)",
                                "100000 didChangeState(hidden)", "470000 didMove(100.0)", "470000 didRemove"])
        XCTAssertEqual(InvariantChecker.checkAll(trace).violations, [])
    }

    /// The generator also draws adaptive anchors and zero-size list frames, in traces the loader
    /// accepts.
    func testGeneratorDrawsAdaptiveAnchorsAndZeroSizeLists() {
        var adaptive = 0, zeroFrames = 0
        for seed: UInt64 in 1...300 {
            let trace = SoakGenerator.trace(seed: seed)
            XCTAssertFalse(trace.header.description.hasPrefix("GENERATOR ERROR"), "seed \(seed)")
            if trace.header.panel.anchors.contains(where: { if case .adaptive = $0.anchor { return true } else { return false } }) { adaptive += 1 }
            var lists = trace.header.scrollView.map { [$0] } ?? []
            for case let .call(.track(c)) in trace.samples.map(\.kind) { lists.append(c) }
            if lists.contains(where: { $0.frame.size.width == 0 && $0.frame.size.height == 0 }) { zeroFrames += 1 }
        }
        XCTAssertGreaterThan(adaptive, 5)
        XCTAssertGreaterThan(zeroFrames, 5)
    }
}

