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
        XCTAssertFalse(try holds("G2", "2.0.0"))
        XCTAssertTrue(try holds("G2", "3.2.2"))
        for rule in ["G1", "G4", "G6", "F1", "F2", "F3"] {
            for point in FloatingPanelProfiles.catalog.points.map(\.name) { XCTAssertTrue(try holds(rule, point), "\(rule) at \(point)") }
        }
    }
}
