import PanelGolden
import PanelSimCore
import PanelTrace

/// One trace replayed under two profiles of its library (profiles.md §2.6): what `upgrade-diff`
/// reports for it.
struct UpgradeDiffEntry: Sendable {
    enum Status: Sendable, Equatable {
        case same, diff
        /// Valid under one profile only: the side (`from`, `to`) whose gate refuses it, and the message.
        case gated(side: String, message: String)
        /// Invalid under both (malformed, or gated under both): `both`, and the loader's message.
        case invalid(side: String, message: String)
        /// A trace of a later format version.
        case skip(String)
        /// A trace of another model: counted only.
        case otherModel
    }
    /// The path as shown (relative to TRACE_DIR, or as given).
    var path: String
    var status: Status
    /// DIFF: the two results, their comparison (FROM as golden, TO as actual) and what follows.
    var from: ResultDocument?
    var to: ResultDocument?
    var comparison: Comparison?
    var trace: Trace?
    /// Non-`didMove` events in only one result, in time order: (time µs, side, rendered line).
    var onlyFrom: [(Microseconds, String)] = []
    var onlyTo: [(Microseconds, String)] = []
    /// `didMove` counts when they differ.
    var didMoves: (from: Int, to: Int)?
    /// The switches that explain the difference, as labelled (`LN-S7 releaseRule`), in ID order.
    var attribution: [String] = []
    /// False when the replay budget ran out; `attribution` then holds the candidates left.
    var attributionComplete = true
    var attributed = false
}

/// The comparison behind `upgrade-diff`: replays, status, event difference, end states and the
/// attribution to switches. A value of plain data plus the pipeline, so that `--jobs` can run it
/// on several threads.
struct UpgradeDiff: @unchecked Sendable {
    var from: TraceProfile
    var to: TraceProfile
    var catalog: ProfileCatalog
    var pipeline: TraceCheckPipeline
    var attribution: Bool
    /// Extra replays allowed per trace for the attribution (profiles.md §2.6: 64).
    var attributionBudget = 64

    /// The switch rows (gates excluded) whose values differ between the two points, in ID order.
    var candidateSwitches: [ProfileSwitchRow] { catalog.differingSwitches(from.point, to.point).filter { !$0.isGate } }

    /// Loads, checks the gates of both sides, replays and compares one trace.
    /// - Parameters: `path` (absolute or relative to the working directory) and `shown` (as printed).
    func compare(path: String, shown: String, tolerances: Tolerances) -> UpgradeDiffEntry {
        var entry = UpgradeDiffEntry(path: shown, status: .same)
        let loaded: LoadedTrace
        do {
            loaded = try pipeline.load(path, shown)
        } catch {
            entry.status =
                error.kind == .unsupported
                ? .skip(error.description) : .invalid(side: "both", message: error.description)
            return entry
        }
        guard loaded.trace.header.model == from.library else {
            entry.status = .otherModel
            return entry
        }
        entry.trace = loaded.trace
        var refusals: [String: String] = [:]
        for (side, profile) in [("from", from), ("to", to)] {
            do { try TraceProfiles.checkGates(loaded.trace, profile: profile, file: shown) } catch {
                refusals[side] = error.description
            }
        }
        switch (refusals["from"], refusals["to"]) {
        case (let f?, _?):
            entry.status = .invalid(side: "both", message: f)
            return entry
        case (let f?, nil):
            entry.status = .gated(side: "from", message: f)
            return entry
        case (nil, let t?):
            entry.status = .gated(side: "to", message: t)
            return entry
        case (nil, nil): break
        }
        let a = replay(loaded, profile: from)
        let b = replay(loaded, profile: to)
        let comparison = Self.compare(a, b, tolerances)
        guard !comparison.passed else { return entry }
        entry.status = .diff
        entry.from = a
        entry.to = b
        entry.comparison = comparison
        (entry.onlyFrom, entry.onlyTo, entry.didMoves) = Self.eventDifference(a, b)
        if attribution {
            entry.attributed = true
            (entry.attribution, entry.attributionComplete) = attribute(loaded, target: b, tolerances: tolerances)
        }
        return entry
    }

    /// The result of `loaded` under `profile` (the trace's own header profile replaced).
    func replay(_ loaded: LoadedTrace, profile: TraceProfile) -> ResultDocument {
        var options = SimulationOptions()
        options.profiles = [profile]
        return pipeline.replay(loaded, options: options).document
    }

    /// `panelsim diff`'s comparison with the header's `profile` member left out.
    static func compare(_ a: ResultDocument, _ b: ResultDocument, _ tolerances: Tolerances) -> Comparison {
        var a = a
        var b = b
        a.header.profile = nil
        b.header.profile = nil
        return Comparator.compare(expected: a, actual: b, tolerances: tolerances)
    }

    /// The smallest set of switches (1-minimal) whose TO values, copied into the FROM point,
    /// reproduce the TO result `target`: first each switch alone (the smallest sets), then, when
    /// none does, removal of one switch at a time from the whole set (which is TO's values,
    /// hence TO's result) while the rest still reproduces it. At most `attributionBudget` replays;
    /// when they run out, the candidates left and `false`.
    /// - Complexity: at most 2·s replays for s differing switches (≤ 30 for FloatingPanel).
    func attribute(_ loaded: LoadedTrace, target: ResultDocument, tolerances: Tolerances) -> ([String], Bool) {
        let candidates = candidateSwitches
        guard candidates.count > 1 else { return (candidates.map(\.label), true) }
        var budget = attributionBudget
        func reproduces(_ set: [ProfileSwitchRow]) -> Bool? {
            guard budget > 0 else { return nil }
            budget -= 1
            var mixed = from
            mixed.borrowed = set.map { ProfileBorrow(switchID: $0.id, point: to.point) }
            return Self.compare(replay(loaded, profile: mixed), target, tolerances).passed
        }
        for s in candidates {
            switch reproduces([s]) {
            case true?: return ([s.label], true)
            case false?: continue
            case nil: return (candidates.map(\.label), false)
            }
        }
        var kept = candidates
        for s in candidates {
            let without = kept.filter { $0.id != s.id }
            switch reproduces(without) {
            case true?: kept = without
            case false?: continue
            case nil: return (kept.map(\.label), false)
            }
        }
        return (kept.map(\.label), true)
    }

    /// The non-`didMove` events of only one side (matched by their rendered line, time included,
    /// along a longest common subsequence) and the `didMove` counts when they differ.
    static func eventDifference(_ a: ResultDocument, _ b: ResultDocument)
        -> ([(Microseconds, String)], [(Microseconds, String)], (from: Int, to: Int)?)
    {
        func events(_ d: ResultDocument) -> (lines: [(Microseconds, String)], didMoves: Int) {
            var out: [(Microseconds, String)] = []
            var moves = 0
            for r in d.records {
                guard case .event(let t, let e) = r else { continue }
                if e.name == "didMove" {
                    moves += 1
                    continue
                }
                out.append((t, ResultFile.line(for: r, frameRate: d.header.frameRate)))
            }
            return (out, moves)
        }
        let x = events(a)
        let y = events(b)
        let (onlyA, onlyB) = SequenceDifference.unmatched(x.lines.map(\.1), y.lines.map(\.1))
        return (
            onlyA.map { x.lines[$0] }, onlyB.map { y.lines[$0] },
            x.didMoves == y.didMoves ? nil : (x.didMoves, y.didMoves)
        )
    }

    /// The last frame's `state`, `location` and (when present) `contentOffset`.
    static func finalState(_ d: ResultDocument) -> (state: String, location: Double, contentOffset: Double?)? {
        for r in d.records.reversed() {
            switch r {
            case .frame(let f): return (f.state, f.location, f.contentOffset)
            case .systemFrame(let f):
                if case .number(let o)? = f["contentOffset"] { return (f.state, f.location, o) }
                return (f.state, f.location, nil)
            case .event: continue
            }
        }
        return nil
    }
}

/// Longest-common-subsequence matching of two short sequences.
enum SequenceDifference {
    /// The indices of `a` and of `b` outside one longest common subsequence, in order.
    /// - Complexity: O(n·m) time and memory; beyond 4·10⁶ cells, a greedy in-order match instead.
    static func unmatched(_ a: [String], _ b: [String]) -> ([Int], [Int]) {
        let n = a.count
        let m = b.count
        if n * m > 4_000_000 {
            var onlyA: [Int] = []
            var onlyB: [Int] = []
            var j = 0
            for i in 0..<n {
                if let k = b[j...].firstIndex(of: a[i]) {
                    onlyB += Array(j..<k)
                    j = k + 1
                } else {
                    onlyA.append(i)
                }
            }
            return (onlyA, onlyB + Array(j..<m))
        }
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var onlyA: [Int] = []
        var onlyB: [Int] = []
        var i = 0
        var j = 0
        while i < n && j < m {
            if a[i] == b[j] {
                i += 1
                j += 1
            } else if table[i + 1][j] >= table[i][j + 1] {
                onlyA.append(i)
                i += 1
            } else {
                onlyB.append(j)
                j += 1
            }
        }
        return (onlyA + Array(i..<n), onlyB + Array(j..<m))
    }
}
