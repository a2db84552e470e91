import PanelSimCore
import PanelTrace

/// The random-gesture soak: generate a trace per seed (`SoakGenerator`), replay it and
/// its mirrors, check the invariants (`InvariantChecker.checkAll`), and turn a violating trace
/// into a minimized, ready-to-commit trace file (`TraceMinimizer`).
public enum Soak {
    /// The outcome of one seed.
    public struct Outcome: Sendable {
        public var seed: UInt64
        public var violations: [InvariantViolation]
        public var coverage: InvariantCoverage
        /// The generator's own error (a trace the loader refused), nil when the trace is valid.
        public var generatorError: String?
        public var sampleCount: Int
        /// The trace uses a feature the profile's version lacks (profiles.md §2.3): not replayed.
        public var gated = false
    }

    /// The trace of `seed`, replayed as `profile` (FloatingPanel's) when one is given.
    public static func trace(seed: UInt64, profile: TraceProfile? = nil) -> Trace {
        var trace = SoakGenerator.trace(seed: seed)
        if let profile { trace.header.profile = profile }
        return trace
    }

    /// Generates and checks the trace of `seed`; with `profile`, as that version behaved, checking
    /// the invariants that hold at its point (`InvariantChecker.holds`).
    public static func run(seed: UInt64, profile: TraceProfile? = nil) -> Outcome {
        let trace = trace(seed: seed, profile: profile)
        if (try? TraceProfiles.checkGates(trace, profile: profile, file: "soak")) == nil {
            return Outcome(seed: seed, violations: [], coverage: InvariantCoverage(), generatorError: nil,
                           sampleCount: trace.samples.count, gated: true)
        }
        if trace.header.description.hasPrefix("GENERATOR ERROR") {
            return Outcome(seed: seed, violations: [], coverage: InvariantCoverage(),
                           generatorError: trace.header.description, sampleCount: trace.samples.count)
        }
        let (violations, coverage) = InvariantChecker.checkAll(trace)
        return Outcome(seed: seed, violations: violations, coverage: coverage, generatorError: nil,
                       sampleCount: trace.samples.count)
    }

    /// True when `trace` still breaks the invariant of `key` (`rule@variant`).
    public static func fails(_ trace: Trace, key: String) -> Bool {
        InvariantChecker.checkAll(trace).violations.contains { $0.key == key }
    }

    /// The trace of `seed` minimized while `violation` still fails, named and described for the
    /// corpus, and its file text (`TraceWriter`; read back by `TraceLoader` and checked to fail).
    /// - Parameter budget: the most replays (of the trace and its mirrors) the minimization may use.
    public static func minimized(seed: UInt64, violation: InvariantViolation, budget: Int = 4000,
                                 profile: TraceProfile? = nil) -> (trace: Trace, text: String) {
        let original = trace(seed: seed, profile: profile)
        var trace = TraceMinimizer.minimize(original, budget: budget) { candidate in
            // A simplified header must still be a trace the loader reads back.
            if candidate.header != original.header,
               (try? TraceLoader.parse(text: TraceWriter.write(candidate), file: "candidate.jsonl")) == nil { return false }
            return fails(candidate, key: violation.key)
        }
        let name = "soak-\(seed)-\(violation.rule)-\(violation.variant)" + (violation.kind.isEmpty ? "" : "-\(violation.kind)")
        trace.header.name = name
        let final = InvariantChecker.checkAll(trace).violations.first { $0.key == violation.key } ?? violation
        trace.header.description = "panelsim soak --seed \(seed) --count 1: violates \(violation.rule)"
            + (violation.variant == "bottom" ? "" : " on the \(violation.variant) mirror")
            + " (\(final.message)); minimized from \(original.samples.count) to \(trace.samples.count) samples"
        trace.header.source.kind = "synthetic"
        trace.header.source.origin = "panelsim soak --seed \(seed) --count 1"
        for i in trace.samples.indices { trace.samples[i].line = 0 }
        let text = TraceWriter.write(trace)
        if let reloaded = try? TraceLoader.parse(text: text, file: name + ".jsonl"), fails(reloaded, key: violation.key) {
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
    ///   - fails: true when a candidate still shows the failure.
    /// - Complexity: O(budget) evaluations of `fails`.
    public static func minimize(_ trace: Trace, budget: Int = 4000, fails: (Trace) -> Bool) -> Trace {
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
        let simplifications: [(inout TraceHeader) -> Void] = [
            { $0.delegate.didMove = nil },
            { $0.delegate.dismissIn = [] },
            { $0.delegate.targetStateOverrides = [:] },
            { $0.delegate.shouldRemove = .default },
            { $0.delegate.scrollableStates = nil },
            { $0.delegate.shouldBeginDragging = true },
            { $0.panel.behavior = PanelBehavior() },
            { $0.panel.backdropAlpha = [:] },
            { $0.panel.removalInteractionEnabled = false },
            { $0.panel.dismissalTapEnabled = false },
            { $0.panel.contentMode = .static },
            { $0.recognizer = RecognizerConfiguration() },
            { $0.scrollView = nil },
            { h in let anchors = h.panel.anchors.map(\.state); h.panel.states = h.panel.states.filter { anchors.contains($0) } },
        ]
        for simplify in simplifications where evaluations < budget {
            var candidate = header
            simplify(&candidate)
            guard candidate != header, (try? validate(candidate)) != nil else { continue }
            if check(Trace(header: candidate, samples: samples)) { header = candidate }
        }
        return Trace(header: header, samples: samples)
    }
}
