import PanelSimCore
import PanelTrace

/// One panel system's part of `panelsim soak`: its random trace generator and its invariant
/// checker. The command line finds it in the system's command description
/// (`SystemCommandDescription.soak`, PanelSimCLI); a library user passes it to `Soak`'s functions
/// directly. Everything else (seeds, `--jobs`, the replay rules every
/// system shares, minimization, output files) is `Soak`'s, written once for every system.
///
/// A system's soak lives in `Sources/PanelInvariants/<System>/`; ARCHITECTURE.md lists the folders.
public protocol SystemSoak: Sendable {
    /// The panel system whose traces this soak generates and checks (the header's `model`).
    var model: PanelModel { get }
    /// The rules the checker asserts, in report order: an id (`K1`, `P3`, `SH5`, …) and where the
    /// system's spec states it. The replay rules of `ReplayRules` come after them when
    /// `checksReplayRules` is true.
    var rules: [(id: String, source: String)] { get }
    /// True when `Soak` also checks the replay rules (`ReplayRules`: the same records twice, finite
    /// values, will/did pairing, a bounded replay) before the system's own rules.
    var checksReplayRules: Bool { get }
    /// The options of the checked replays.
    var options: SimulationOptions { get }
    /// The version profile every generated trace is replayed as (docs/profiles.md), written into
    /// its header; nil for the system's default point. Default: nil.
    var profile: TraceProfile? { get }

    /// This soak with its traces replayed as `profile` (a profile of this system's library), its
    /// checker keeping the rules that hold at the profile's point (profiles.md §4.2); nil when the
    /// system's soak does not replay under a profile. Default: nil.
    func profiled(_ profile: TraceProfile) -> (any SystemSoak)?

    /// The trace of `seed`: a valid trace file of this system, the same bytes for the same seed,
    /// named `soak-<seed>`. A trace the loader refuses is a generator bug: its description then
    /// starts with `GENERATOR ERROR` (`SoakTraceFile.roundTrip`).
    func trace(seed: UInt64) -> Trace
    /// True when `trace` is not to be replayed: the version its header names lacks a feature it
    /// uses (profiles.md §2.3); the soak counts it and checks nothing. Default: the gates of the
    /// header's profile (`TraceProfiles.checkGates`); false without a profile.
    func isGated(_ trace: Trace) -> Bool
    /// The system's own rules on `result`, the replay of `trace` made with `options`.
    func check(_ trace: Trace, result: SimulationResult) -> SoakCheck
    /// Every check of `trace`: the default replays it (twice when `checksReplayRules`), checks the
    /// replay rules and then `check(_:result:)`. A system with more replays (FloatingPanel's
    /// mirrors) supplies its own.
    func checkAll(_ trace: Trace) -> SoakCheck
    /// The will/did steps of `result` for the `pairs` replay rule (empty: the rule checks nothing).
    func pairSteps(_ trace: Trace, _ result: SimulationResult) -> [PairStep]
    /// Header simplifications tried by the minimizer, one section at a time, in order; each is kept
    /// only when the trace still fails and is still valid.
    var headerSimplifications: [@Sendable (inout TraceHeader) -> Void] { get }
    /// True when the system replays `header` (checked before a simplified header is tried; the
    /// minimizer also reads every simplified trace back with `TraceLoader`). Default: true.
    func isReplayable(_ header: TraceHeader) -> Bool
    /// The trace files `--emit` writes for `trace` (the trace itself first).
    func emitted(_ trace: Trace) -> [Trace]
    /// The command that reproduces `seed` (written into minimized traces).
    func reproduction(seed: UInt64) -> String
    /// How a violation's `variant` reads in a minimized trace's description ("" for the trace as
    /// generated).
    func variantPhrase(_ variant: String) -> String
    /// The report's lines after the seed line: what was checked, from the summed counts.
    func reportLines(_ counts: SoakCounts) -> [String]
    /// What each trace was replayed as, for the report's first line.
    var replayPhrase: String { get }
}

extension SystemSoak {
    public var checksReplayRules: Bool { true }
    public var options: SimulationOptions { SimulationOptions() }
    public var profile: TraceProfile? { nil }
    public func profiled(_ profile: TraceProfile) -> (any SystemSoak)? { nil }

    public func checkAll(_ trace: Trace) -> SoakCheck {
        let result = simulate(trace, options: options)
        var out = SoakCheck()
        if checksReplayRules {
            let again = simulate(trace, options: options)
            out += ReplayRules.check(trace, result, again: again, pairs: pairSteps(trace, result), variant: model.rawValue)
        }
        out += check(trace, result: result)
        return out
    }

    public func isGated(_ trace: Trace) -> Bool {
        (try? TraceProfiles.checkGates(trace, profile: trace.header.profile, file: "soak")) == nil
    }
    public func pairSteps(_ trace: Trace, _ result: SimulationResult) -> [PairStep] { [] }
    public var headerSimplifications: [@Sendable (inout TraceHeader) -> Void] { [] }
    public func isReplayable(_ header: TraceHeader) -> Bool { true }
    public func emitted(_ trace: Trace) -> [Trace] { [trace] }
    public func reproduction(seed: UInt64) -> String {
        "panelsim soak --model \(model.rawValue)" + (profile.map { " --profile \($0.library.rawValue)@\($0.version)" } ?? "")
            + " --seed \(seed) --count 1"
    }
    public func variantPhrase(_ variant: String) -> String { "" }
    public var replayPhrase: String { "each replayed twice" }

    /// "checked: …": the frames, then the count of every rule's checks in rule order.
    public func reportLines(_ counts: SoakCounts) -> [String] {
        let ids = rules.map(\.id) + (checksReplayRules ? ReplayRules.rules.map(\.id) : [])
        let listed = ids.map { "\($0) \(counts[$0])" }.joined(separator: ", ")
        return ["checked: \(counts.frames) frames, \(counts.records) records; rule checks: \(listed) (\(counts.totalChecks) in all)"]
    }
}

/// What one check found: the violations and the counts of what it looked at.
public struct SoakCheck: Sendable, Equatable {
    public var violations: [InvariantViolation] = []
    public var counts = SoakCounts()
    public init(violations: [InvariantViolation] = [], counts: SoakCounts = SoakCounts()) {
        self.violations = violations; self.counts = counts
    }
    public static func += (a: inout SoakCheck, b: SoakCheck) {
        a.violations += b.violations
        a.counts += b.counts
    }
}

/// Counts of what a soak checked: frames and records read, and how many times each rule was
/// evaluated (a rule id → count), so that a run can show its checks did not pass vacuously.
/// Printed in each system's rule order, never in dictionary order.
public struct SoakCounts: Sendable, Equatable {
    /// Frame records checked (each replay's frames once).
    public var frames = 0
    /// Records checked (events and frames).
    public var records = 0
    private var checks: [String: Int] = [:]
    public init() {}

    /// The evaluations of rule `id` (0 when none).
    public subscript(id: String) -> Int {
        get { checks[id] ?? 0 }
        set { checks[id] = newValue }
    }

    /// Adds `n` evaluations of rule `id`.
    public mutating func count(_ id: String, _ n: Int = 1) {
        guard n != 0 else { return }
        checks[id, default: 0] += n
    }

    /// Every rule's evaluations, summed.
    public var totalChecks: Int { checks.values.reduce(0, +) }

    public static func += (a: inout SoakCounts, b: SoakCounts) {
        a.frames += b.frames
        a.records += b.records
        for (id, n) in b.checks { a.checks[id, default: 0] += n }
    }
}

/// One step of a will/did pair (`ReplayRules` rule `pairs`): a `will…` opens `key`, its `did…`
/// closes it, and a documented cancellation (a system's own, e.g. a sheet's swipe released back
/// to a detent, uisheet.md §3.6 item 3) closes it without a `did…`.
public struct PairStep: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case open, close, cancel }
    public var kind: Kind
    /// The pair, e.g. `willOpenPopup/didOpenPopup`.
    public var key: String
    /// When it happened (µs).
    public var time: Microseconds
    public init(_ kind: Kind, _ key: String, at time: Microseconds) {
        self.kind = kind; self.key = key; self.time = time
    }
}

/// A rule of a system's soak that does not hold at some profile points (profiles.md §4.2): an
/// older version's rule (a switch value) breaks it. A system lists its exemptions beside its
/// checker, as values over its profile's switch-value type; the checker drops the violations they
/// cover, and nothing else.
public struct SoakExemption<Values: Sendable>: Sendable {
    /// The rule (`"P5"`).
    public let rule: String
    /// The rule's checks (violation kinds) it covers; empty: every check of the rule.
    public let kinds: [String]
    /// The switch and the specification's line behind it, as docs/profiles.md cites them.
    public let source: String
    /// True when the switch values of the trace's point (and, where the switch's trigger depends on
    /// it, the trace's configuration) make the older rule apply.
    public let applies: @Sendable (Values, Trace) -> Bool
    /// Checks (`rule:kind`) of which one must also have failed on the same replay for this
    /// exemption to apply (a consequence of what that check saw); empty: no such condition.
    public let onlyWith: [String]

    public init(_ rule: String, kinds: [String] = [], onlyWith: [String] = [], source: String,
                applies: @escaping @Sendable (Values, Trace) -> Bool) {
        self.rule = rule; self.kinds = kinds; self.onlyWith = onlyWith; self.source = source; self.applies = applies
    }

    /// True when this exemption covers `violation` of `trace` at the point whose values are
    /// `values`; `failed` holds the `rule:kind` of every violation of the replay.
    public func covers(_ violation: InvariantViolation, trace: Trace, values: Values, failed: Set<String>) -> Bool {
        violation.rule == rule && (kinds.isEmpty || kinds.contains(violation.kind))
            && (onlyWith.isEmpty || onlyWith.contains { failed.contains($0) }) && applies(values, trace)
    }

    /// `violations` without those an exemption covers; unchanged for a trace without a profile
    /// (the default point, where every rule holds).
    /// - Complexity: O(violations · exemptions).
    public static func applying(_ exemptions: [SoakExemption], to violations: [InvariantViolation], trace: Trace,
                                values: Values) -> [InvariantViolation] {
        guard trace.header.profile != nil, !exemptions.isEmpty else { return violations }
        let failed = Set(violations.map { $0.rule + ":" + $0.kind })
        return violations.filter { v in !exemptions.contains { $0.covers(v, trace: trace, values: values, failed: failed) } }
    }
}
