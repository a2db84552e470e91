/// Which of a set of changes are responsible for a divergence: every change that alone makes a
/// result diverge, and a smallest set that reproduces the changed results.
///
/// System-agnostic: the changes are opaque values and `evaluate` replays whatever they apply to.
enum CulpritSearch {
    /// What replaying with base + a subset of the changes gave.
    struct Outcome: Equatable {
        /// Traces whose result differs from the base's beyond tolerance.
        var divergingFromBase: Int
        /// Whether every trace's result equals (within tolerance) the one with all changes.
        var matchesChanged: Bool
    }

    /// The answer of `run`.
    struct Report<Change> {
        /// Each change that alone makes at least one trace diverge from the base, in the order
        /// given, with the number of traces it makes diverge.
        var alone: [(change: Change, diverging: Int)]
        /// A 1-minimal subset (delta debugging, Zeller & Hildebrandt's ddmin) whose changes give
        /// the results of all the changes: removing any one of them changes some result. The
        /// changes outside it are harmless given it.
        var culprits: [Change]
        /// Replays of the whole trace set (distinct subsets evaluated).
        var evaluations: Int
    }

    /// - Parameters:
    ///   - changes: every change, in a fixed order; replaying all of them must diverge.
    ///   - key: a unique name per change (memoizes subsets).
    ///   - evaluate: replays base + the subset; nil when that combination cannot be replayed
    ///     (it then counts as neither diverging nor matching).
    /// - Complexity: n evaluations for the single changes, then ddmin's O(k · log n) typical
    ///   (O(n²) worst) for k culprits.
    static func run<Change>(_ changes: [Change], key: (Change) -> String, evaluate: ([Change]) -> Outcome?) -> Report<
        Change
    > {
        var cache: [String: Outcome?] = [:]
        func outcome(_ subset: [Change]) -> Outcome? {
            let k = subset.map(key).joined(separator: "\n")
            if let hit = cache[k] { return hit }
            let value = evaluate(subset)
            cache[k] = value
            return value
        }
        var alone: [(change: Change, diverging: Int)] = []
        for change in changes {
            if let o = outcome([change]), o.divergingFromBase > 0 { alone.append((change, o.divergingFromBase)) }
        }
        // The changes that reproduce the changed results; when even all of them do not (a
        // combination the loader refuses), a smallest set that still diverges.
        let reproduces: ([Change]) -> Bool =
            outcome(changes)?.matchesChanged == true
            ? { outcome($0)?.matchesChanged == true }
            : { (outcome($0)?.divergingFromBase ?? 0) > 0 }
        let culprits = DeltaDebugging.ddmin(changes, fails: reproduces)
        return Report(alone: alone, culprits: culprits, evaluations: cache.count)
    }
}
