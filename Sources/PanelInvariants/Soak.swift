import PanelSimCore
import PanelTrace

/// The random-gesture soak, for any system's `SystemSoak`: generate a trace per seed
/// (`SystemSoak.trace(seed:)`), replay and check it (`SystemSoak.checkAll`), and turn a violating
/// trace into a minimized, ready-to-commit trace file (`TraceMinimizer`). FloatingPanel's is the
/// default (`FloatingPanelSoak`).
public enum Soak {
    /// The outcome of one seed.
    public struct Outcome: Sendable {
        public var seed: UInt64
        public var violations: [InvariantViolation]
        /// What the checks looked at (frames, records, each rule's evaluations).
        public var counts: SoakCounts
        /// The generator's own error (a trace the loader refused), nil when the trace is valid.
        public var generatorError: String?
        public var sampleCount: Int
        /// The trace uses a feature the profile's version lacks (profiles.md §2.3): not replayed.
        public var gated = false
    }

    /// The FloatingPanel trace of `seed`, replayed as `profile` when one is given
    /// (`FloatingPanelSoak(profile:)`).
    public static func trace(seed: UInt64, profile: TraceProfile? = nil) -> Trace {
        FloatingPanelSoak(profile: profile).trace(seed: seed)
    }

    /// Generates and checks FloatingPanel's trace of `seed`; with `profile`, as that version
    /// behaved, checking the invariants that hold at its point (`InvariantChecker.holds`).
    public static func run(seed: UInt64, profile: TraceProfile? = nil) -> Outcome {
        run(seed: seed, system: FloatingPanelSoak(profile: profile))
    }

    /// Generates and checks the trace of `seed` with `system`'s generator and checker; a trace the
    /// system gates (`SystemSoak.isGated`) is not replayed.
    public static func run(seed: UInt64, system: any SystemSoak) -> Outcome {
        let trace = system.trace(seed: seed)
        if system.isGated(trace) {
            return Outcome(seed: seed, violations: [], counts: SoakCounts(), generatorError: nil,
                           sampleCount: trace.samples.count, gated: true)
        }
        if trace.header.description.hasPrefix("GENERATOR ERROR") {
            return Outcome(seed: seed, violations: [], counts: SoakCounts(),
                           generatorError: trace.header.description, sampleCount: trace.samples.count)
        }
        let check = system.checkAll(trace)
        return Outcome(seed: seed, violations: check.violations, counts: check.counts, generatorError: nil,
                       sampleCount: trace.samples.count)
    }

    /// True when `trace` still breaks the invariant of `key` (`rule@variant[:kind]`) under `system`.
    public static func fails(_ trace: Trace, key: String, system: any SystemSoak = FloatingPanelSoak()) -> Bool {
        system.checkAll(trace).violations.contains { $0.key == key }
    }

    /// FloatingPanel's trace of `seed` (replayed as `profile`) minimized while `violation` still
    /// fails: `minimized(seed:violation:system:budget:)` with `FloatingPanelSoak(profile:)`.
    public static func minimized(seed: UInt64, violation: InvariantViolation, budget: Int = 4000,
                                 profile: TraceProfile? = nil) -> (trace: Trace, text: String) {
        minimized(seed: seed, violation: violation, system: FloatingPanelSoak(profile: profile), budget: budget)
    }

    /// The trace of `seed` minimized while `violation` still fails, named and described for the
    /// corpus, and its file text (`TraceWriter`; read back by `TraceLoader` and checked to fail).
    /// - Parameter budget: the most checks (each one or more replays) the minimization may use.
    public static func minimized(seed: UInt64, violation: InvariantViolation, system: any SystemSoak,
                                 budget: Int = 4000) -> (trace: Trace, text: String) {
        let original = system.trace(seed: seed)
        var trace = TraceMinimizer.minimize(original, budget: budget, simplifications: system.headerSimplifications,
                                            isValid: { system.isReplayable($0) }) { candidate in
            // A simplified header must still be a trace the loader reads back.
            if candidate.header != original.header,
               (try? TraceLoader.parse(text: TraceWriter.write(candidate), file: "candidate.jsonl")) == nil { return false }
            return fails(candidate, key: violation.key, system: system)
        }
        let name = "soak-\(seed)-\(violation.rule)-\(violation.variant)" + (violation.kind.isEmpty ? "" : "-\(violation.kind)")
        trace.header.name = name
        let final = system.checkAll(trace).violations.first { $0.key == violation.key } ?? violation
        trace.header.description = "\(system.reproduction(seed: seed)): violates \(violation.rule)"
            + system.variantPhrase(violation.variant)
            + " (\(final.message)); minimized from \(original.samples.count) to \(trace.samples.count) samples"
        trace.header.source.kind = "synthetic"
        trace.header.source.origin = system.reproduction(seed: seed)
        for i in trace.samples.indices { trace.samples[i].line = 0 }
        let text = TraceWriter.write(trace)
        if let reloaded = try? TraceLoader.parse(text: text, file: name + ".jsonl"), fails(reloaded, key: violation.key, system: system) {
            return (reloaded, text)
        }
        // The written form no longer fails (it always should): keep the original, unminimized.
        var whole = original
        whole.header.name = name
        whole.header.description = trace.header.description + " (minimization did not survive writing; unminimized)"
        return (whole, TraceWriter.write(whole))
    }
}

/// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
/// 2002) over a trace's samples: drop chunks, then single samples, while the failure persists;
/// then simplify the header one section at a time (a section goes back to its default only if
/// the trace still fails and stays valid).
public enum TraceMinimizer {
    /// - Parameters:
    ///   - budget: the most evaluations of `fails`.
    ///   - simplifications: the header simplifications to try, in order (default: FloatingPanel's,
    ///     `FloatingPanelSoak.floatingPanelSimplifications`); each is kept only when `isValid`
    ///     accepts the header and the trace still fails.
    ///   - isValid: whether a simplified header is one the system replays (default: FloatingPanel's
    ///     `validate`, core §9 O19).
    ///   - fails: true when a candidate still shows the failure.
    /// - Complexity: O(budget) evaluations of `fails`.
    public static func minimize(_ trace: Trace, budget: Int = 4000,
                                simplifications: [@Sendable (inout TraceHeader) -> Void] = FloatingPanelSoak.floatingPanelSimplifications,
                                isValid: (TraceHeader) -> Bool = { (try? validate($0)) != nil },
                                fails: (Trace) -> Bool) -> Trace {
        var evaluations = 0
        func check(_ t: Trace) -> Bool {
            guard evaluations < budget else { return false }
            evaluations += 1
            return fails(t)
        }
        var samples = trace.samples
        var n = 2
        while samples.count >= 2, evaluations < budget {
            let chunk = (samples.count + n - 1) / n
            var reduced = false
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + chunk)
                var candidate = samples
                candidate.removeSubrange(start..<end)
                if check(Trace(header: trace.header, samples: candidate)) {
                    samples = candidate
                    reduced = true
                    n = max(n - 1, 2)
                    break
                }
                start = end
            }
            if !reduced {
                if n >= samples.count { break }
                n = min(2 * n, samples.count)
            }
        }
        // Header: each simplification kept only if the trace still fails.
        var header = trace.header
        for simplify in simplifications where evaluations < budget {
            var candidate = header
            simplify(&candidate)
            guard candidate != header, isValid(candidate) else { continue }
            if check(Trace(header: candidate, samples: samples)) { header = candidate }
        }
        return Trace(header: header, samples: samples)
    }
}
