import PanelSimCore

/// One broken invariant of scenarios.md on one replay.
public struct InvariantViolation: Sendable, Equatable, CustomStringConvertible {
    /// The rule: `G1`–`G4`, `G6` (invariants) or `F1`–`F5` (event facts) of scenarios.md.
    public var rule: String
    /// The replay it was found on: `bottom` (the trace as given, whatever its position) or the
    /// mirror's position (`top`, `left`, `right`) for a mirrored bottom trace.
    public var variant: String
    /// Which check of the rule failed (a short name such as `bound` or `order`), so that a
    /// minimization keeps the same failure rather than any failure of the rule.
    public var kind: String
    /// What was seen, with times (s) and values.
    public var message: String
    public init(rule: String, variant: String, kind: String = "", message: String) {
        self.rule = rule; self.variant = variant; self.kind = kind; self.message = message
    }
    /// `rule@variant` (and `:kind`): what a minimization keeps failing.
    public var key: String { kind.isEmpty ? "\(rule)@\(variant)" : "\(rule)@\(variant):\(kind)" }
    public var description: String { "\(key): \(message)" }
}

/// What one check looked at, for tests that must see the checks run (not pass vacuously).
public struct InvariantCoverage: Sendable, Equatable {
    /// Frame pairs on which G3's bound was evaluated.
    public var g3Frames = 0
    /// Replays whose resting frame was checked against G1.
    public var g1Rests = 0
    /// Replays whose resting list was checked against G4.
    public var g4Rests = 0
    /// Replays whose resting frame was checked against G7 (location = pos(state)).
    public var g7Rests = 0
    /// Programmatic `move`/`show`/`hide` calls checked against F1 and F3.
    public var calls = 0
    /// Attraction frames checked against F5.
    public var attractionFrames = 0
    /// Mirrors compared under G6.
    public var mirrors = 0
    public init() {}
    public static func += (a: inout InvariantCoverage, b: InvariantCoverage) {
        a.g3Frames += b.g3Frames; a.g1Rests += b.g1Rests; a.g4Rests += b.g4Rests; a.g7Rests += b.g7Rests; a.calls += b.calls
        a.attractionFrames += b.attractionFrames; a.mirrors += b.mirrors
    }
}

/// The invariants of scenarios.md asserted on any FloatingPanel replay: G1–G4, G7 and the event facts
/// F1–F5 on one trace (`check`), and G6 by mirroring a bottom trace onto top, left and right
/// (`checkMirrors`, which also checks each mirror on its own). One implementation for the corpus
/// tests, the bounded random run of `swift test` and `panelsim soak`.
///
/// Where FloatingPanel itself breaks a rule as the spec describes it, the check is narrowed and the
/// narrowing cites the rule that allows it (see each check).
public enum InvariantChecker {
    /// Every rule this checker asserts.
    public static let rules = ["G1", "G2", "G3", "G4", "G6", "G7", "F1", "F2", "F3", "F4", "F5"]

    /// The simulator options of the checked replay: the `contentInset` channel on, so that G4 can
    /// measure the pinning offset from the inset FloatingPanel left (§3.10).
    public static var options: SimulationOptions {
        var o = SimulationOptions()
        o.recordContentInset = true
        return o
    }

    /// Replays `trace` and checks G1–G4, G7 and F1–F5 on it.
    public static func check(_ trace: Trace, variant: String = "bottom") -> (violations: [InvariantViolation], coverage: InvariantCoverage) {
        let result = simulate(trace, options: options)
        return check(trace, result: result, variant: variant)
    }

    /// Checks G1–G4, G7 and F1–F5 on `result`, the replay of `trace` (made with `options`, or at least
    /// with the `contentInset` channel for G4's pinning offset; without it G4 checks the lock only).
    public static func check(_ trace: Trace, result: SimulationResult, variant: String = "bottom") -> (violations: [InvariantViolation], coverage: InvariantCoverage) {
        var run = Run(trace: trace, result: result, variant: variant)
        run.checkAll()
        return (atProfilePoint(run.violations, trace), run.coverage)
    }

    /// G6 and the checks of every mirror: `trace` (a bottom panel) is checked as is, then mirrored
    /// onto top, left and right; each mirror is checked on its own (G1–G4, G7, F1–F5) and compared with
    /// the bottom replay (same events with their discrete payloads, same resting state, mirrored
    /// resting location). Traces of another position are checked alone.
    public static func checkAll(_ trace: Trace) -> (violations: [InvariantViolation], coverage: InvariantCoverage) {
        let reference = simulate(trace, options: options)
        var (violations, coverage) = check(trace, result: reference)
        guard trace.header.panel.position == .bottom, trace.header.model == .floatingPanel else { return (violations, coverage) }
        for position in [PanelPosition.top, .left, .right] {
            let mirror = Mirror(position: position, h: trace.header.environment.container.height)
            let mirrored = mirror.trace(trace)
            let result = simulate(mirrored, options: options)
            let (v, c) = check(mirrored, result: result, variant: position.rawValue)
            violations += v; coverage += c
            if let reason = g6Exemption(trace, position, reference: reference) { _ = reason; continue }
            coverage.mirrors += 1
            violations += atProfilePoint(atProfilePoint(checkMirror(trace, reference: reference, position: position, mirrored: mirrored, result: result),
                                                        trace), mirrored)
        }
        return (violations, coverage)
    }

    /// True when the replay ended at rest: the settle budget did not run out (so no finger is down
    /// and nothing animates at its last frame) and an `end` sample, if any, did not cut it short.
    /// A replay that an `end` sample stops is at rest when the same trace without it (and without
    /// the samples after it, which the replay never reads) comes to rest by itself with exactly
    /// the same records: nothing was left to happen after the end (trace-format §1: `end`
    /// stops the replay at its time; §9 O1: otherwise it runs until nothing moves).
    static func endsAtRest(_ trace: Trace, _ result: SimulationResult) -> Bool {
        guard !result.budgetExceeded else { return false }
        guard let endIndex = trace.samples.firstIndex(where: { if case .end = $0.kind { return true } else { return false } }) else { return true }
        var free = trace
        free.samples = Array(trace.samples[..<endIndex])
        let unstopped = simulate(free, options: options)
        guard !unstopped.budgetExceeded else { return false }
        return Array(unstopped.records) == Array(simulate(trace, options: options).records)
    }
}
