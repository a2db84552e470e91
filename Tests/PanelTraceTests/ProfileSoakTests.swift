import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// profiles.md §4.2: every FloatingPanel profile point replays the random soak traces without
/// violating the invariants that hold at that point (`InvariantChecker.holds`), and the rules the
/// table excludes are excluded exactly where it says.
final class ProfileSoakTests: XCTestCase {
    func profile(_ version: String) throws -> TraceProfile {
        try TraceProfiles.parse(commandLine: "floatingpanel@" + version).get()
    }

    func testEveryPointReplaysRandomTracesWithinItsInvariants() throws {
        var replayed = 0
        for point in FloatingPanelProfiles.catalog.points.map(\.name) {
            let p = try profile(point)
            for seed in UInt64(1)...10 {
                let outcome = Soak.run(seed: seed, profile: p)
                XCTAssertNil(outcome.generatorError, "seed \(seed)")
                XCTAssertEqual(outcome.violations, [], "floatingpanel@\(point) seed \(seed)")
                if !outcome.gated { replayed += 1 }
            }
        }
        XCTAssertGreaterThan(replayed, 100)
    }

    func testTheRulesThatDoNotHoldAtAPoint() throws {
        var trace = SoakGenerator.trace(seed: 1)
        func holds(_ rule: String, _ version: String?, kind: String = "") throws -> Bool {
            trace.header.profile = try version.map(profile)
            return InvariantChecker.holds(InvariantViolation(rule: rule, variant: "bottom", kind: kind, message: ""), for: trace)
        }
        XCTAssertTrue(try holds("F4", nil))
        XCTAssertFalse(try holds("F4", "2.6.6"))
        XCTAssertTrue(try holds("F4", "2.7.0"))
        XCTAssertFalse(try holds("F4", "2.8.1"))
        XCTAssertTrue(try holds("F4", "2.8.2"))
        XCTAssertFalse(try holds("F5", "2.6.6"))
        // FP-S10: a sample that starts with the surface at or beyond 0; FP-S11: a bound the list alone broke.
        XCTAssertFalse(try holds("G3", "2.8.3", kind: "bound-beyond-zero"))
        XCTAssertTrue(try holds("G3", "2.8.4", kind: "bound-beyond-zero"))
        XCTAssertFalse(try holds("G3", "2.8.6", kind: "offset-bound"))
        XCTAssertTrue(try holds("G3", "2.8.7", kind: "offset-bound"))
        XCTAssertFalse(try holds("G2", "2.0.0"))
        XCTAssertTrue(try holds("G2", "3.2.2"))
        for rule in ["G1", "G4", "G6", "G7", "F1", "F2", "F3"] {
            for point in FloatingPanelProfiles.catalog.points.map(\.name) { XCTAssertTrue(try holds(rule, point), "\(rule) at \(point)") }
        }
    }
}

/// FP-S13's exemption of G3, G4 and G6 before 3.2.1 applies to an anchor off the pixel grid,
/// half-way between pixels (D2's raw 64.25) or not (64.3), and not to one on it (64.5 at scale 2).
final class AnchorRoundingExemptionTests: XCTestCase {
    func testOnlyAnAnchorOffThePixelGridIsExempt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("traces/profiles/floatingpanel/fp-s13/fractional-full-drag-up.3.2.0.jsonl").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains(#""absoluteInset": 44.25"#))
        func inset(_ value: String) throws -> Trace {
            try TraceLoader.parse(text: text.replacingOccurrences(of: #""absoluteInset": 44.25"#, with: #""absoluteInset": "# + value), file: "a.jsonl")
        }
        func holds(_ rule: String, _ trace: Trace, _ version: String) throws -> Bool {
            var t = trace
            t.header.profile = try TraceProfiles.parse(commandLine: "floatingpanel@" + version).get()
            return InvariantChecker.holds(InvariantViolation(rule: rule, variant: "bottom", message: ""), for: t)
        }
        for rule in ["G3", "G4", "G6"] {
            for off in ["44.25", "44.3"] {
                XCTAssertFalse(try holds(rule, inset(off), "3.2.0"), "\(rule) \(off)")
                XCTAssertTrue(try holds(rule, inset(off), "3.2.1"), "\(rule) \(off)")
            }
            XCTAssertTrue(try holds(rule, inset("44.5"), "3.2.0"), rule)
        }
    }
}

/// G7 (profiles.md §4.2: at rest `location` = pos(`state`)) both ways: a result whose resting state
/// was tampered with is reported, the replay itself passes, and the two older rules that break it
/// (FP-S9 at 2.8.1, FP-S14 up to 2.8.0) are reported by the plain checker and kept out at their
/// points only.
final class G7Tests: XCTestCase {
    func corpus(_ name: String) throws -> Trace {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try TraceLoader.load(path: root.appendingPathComponent("traces/profiles/floatingpanel/" + name).path).trace
    }

    func g7(_ violations: [InvariantViolation]) -> [InvariantViolation] { violations.filter { $0.rule == "G7" } }

    /// The trace as replayed at its own point, and checked as if it named no profile (every rule kept).
    func unexempted(_ trace: Trace) -> [InvariantViolation] {
        let result = simulate(trace, options: InvariantChecker.options)
        var plain = trace
        plain.header.profile = nil
        return InvariantChecker.check(plain, result: result).violations
    }

    func testATamperedRestingStateIsReportedAndTheReplayPasses() throws {
        var trace = try corpus("fp-s9/reach-full-during-drag.2.8.0.jsonl")
        trace.header.profile = nil
        let result = simulate(trace, options: InvariantChecker.options)
        let (violations, coverage) = InvariantChecker.check(trace, result: result)
        XCTAssertEqual(g7(violations), [])
        XCTAssertEqual(coverage.g7Rests, 1)
        // The last frame claims `half` while the surface stays at full's anchor: still on an anchor
        // (G1 holds), not on its state's (G7).
        var records = Array(result.records)
        let i = try XCTUnwrap(records.lastIndex { $0.frameIndex != nil })
        guard case var .frame(f) = records[i] else { return XCTFail("no frame record") }
        XCTAssertEqual(f.state, "full")
        f.state = "half"
        records[i] = .frame(f)
        let tampered = InvariantChecker.check(trace, result: SimulationResult(records: records)).violations
        XCTAssertEqual(g7(tampered).map(\.kind), ["rest"], "\(tampered)")
        XCTAssertFalse(tampered.contains { $0.rule == "G1" })
        // Moved 7 pt off the anchor instead: G7 (and G1) report it.
        f.state = "full"
        f.location += 7
        records[i] = .frame(f)
        XCTAssertEqual(g7(InvariantChecker.check(trace, result: SimulationResult(records: records)).violations).map(\.kind), ["rest"])
    }

    func testAnExactReleaseAt281BreaksG7OnlyThere() throws {
        let at281 = try corpus("fp-s9/reach-full-during-drag.2.8.1.jsonl")
        XCTAssertEqual(g7(unexempted(at281)).map(\.kind), ["exact-release"])
        XCTAssertEqual(g7(InvariantChecker.check(at281).violations), [])
        XCTAssertEqual(g7(unexempted(try corpus("fp-s9/reach-full-during-drag.2.8.0.jsonl"))), [])
        // The same violation at a point without FP-S9 is kept.
        var at282 = at281
        at282.header.profile = try TraceProfiles.parse(commandLine: "floatingpanel@2.8.2").get()
        let v = try XCTUnwrap(g7(unexempted(at281)).first)
        XCTAssertFalse(InvariantChecker.holds(v, for: at281))
        XCTAssertTrue(InvariantChecker.holds(v, for: at282))
    }

    func testAnInvalidationThatRemovesTheStateBreaksG7UpTo280() throws {
        let at280 = try corpus("fp-s14/invalidate-removes-state.2.8.0.jsonl")
        XCTAssertEqual(g7(unexempted(at280)).map(\.kind), ["removed-state"])
        XCTAssertEqual(g7(InvariantChecker.check(at280).violations), [])
        XCTAssertEqual(g7(unexempted(try corpus("fp-s14/invalidate-removes-state.2.8.1.jsonl"))), [])
        let v = try XCTUnwrap(g7(unexempted(at280)).first)
        var at281 = at280
        at281.header.profile = try TraceProfiles.parse(commandLine: "floatingpanel@2.8.1").get()
        XCTAssertFalse(InvariantChecker.holds(v, for: at280))
        XCTAssertTrue(InvariantChecker.holds(v, for: at281))
        // Any other G7 failure holds at every point.
        let rest = InvariantViolation(rule: "G7", variant: "bottom", kind: "rest", message: "")
        XCTAssertTrue(InvariantChecker.holds(rest, for: at280))
    }
}

/// profiles.md §4.2 on the version-profile corpus: every trace of `traces/profiles/<library>/`,
/// replayed under each point of its library (a trace using what a point lacks is skipped there),
/// keeps the invariants of its system's soak checker that hold at that point.
final class ProfileCorpusInvariantTests: XCTestCase, GeneratedCorpus {
    static let folder = "profiles"

    /// The soaks of this package's systems.
    let soaks: [any SystemSoak] = [FloatingPanelSoak(), DrawerKitSoak(), LNPopupSoak(), UISheetSoak()]

    func testEveryCorpusTraceKeepsItsPointsInvariants() throws {
        var checked: [PanelModel: Int] = [:], gated = 0
        for (path, trace) in try Self.traces() {
            let system = try XCTUnwrap(soaks.first { $0.model == trace.header.model }, path)
            let catalog = try XCTUnwrap(TraceProfiles.catalog(for: trace.header.model.rawValue), path)
            for point in catalog.points.map(\.name) {
                var t = trace
                t.header.profile = try catalog.profile(version: point).get()
                if system.isGated(t) { gated += 1; continue }
                let check = system.checkAll(t)
                XCTAssertEqual(check.violations, [], "\(path) at \(trace.header.model.rawValue)@\(point)")
                XCTAssertGreaterThan(check.counts.totalChecks, 0, "\(path) at \(point): nothing checked")
                checked[trace.header.model, default: 0] += 1
            }
        }
        // Every library's corpus was checked, and the gate traces were refused where they must be.
        for model in [PanelModel.floatingPanel, .drawerKit, .lnPopup, .uiSheet] {
            XCTAssertGreaterThan(checked[model, default: 0], 0, model.rawValue)
        }
        XCTAssertGreaterThan(gated, 0)
    }
}
