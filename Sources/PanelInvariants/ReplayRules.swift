import PanelSimCore

/// The rules every panel system's replay must keep, whatever the system (checked by `Soak` for
/// each system whose `SystemSoak.checksReplayRules` is true):
///
/// * `repeat`: replaying the same trace again gives the same records, bit for bit, the same
///   warnings and the same budget outcome (DESIGN.md: the same trace gives byte-identical results
///   across runs; `panelsim soak --jobs J` replays on J threads and prints what `--jobs 1` prints,
///   tested in the CLI's tests).
/// * `finite`: no record carries a NaN or an infinity (a result file has no spelling for them).
/// * `pairs`: every `will…` is followed by its `did…`, or by the system's documented cancellation,
///   and no `did…` comes without its `will…` (`SystemSoak.pairSteps`); checked only on a replay that
///   came to rest (not cut by an `end` sample or the settle budget).
/// * `bounded`: the replay comes to rest within the settle budget after the last sample (every
///   generated touch lifts, so nothing is left to animate for ever), writes each frame at most once
///   in increasing frame order, and writes at most `maximumEventsPerInstant` events at one time (a
///   loop that feeds itself would exceed it). A trap in the replay stops the soak itself.
public enum ReplayRules {
    /// The rules, in report order, with where they come from.
    public static let rules: [(id: String, source: String)] = [
        ("repeat", "DESIGN.md, rules that keep it deterministic"),
        ("finite", "trace-format.md §2 (numbers in result files)"),
        ("pairs", "issue rule: every will… has its did… or its documented cancellation"),
        ("bounded", "trace-format.md §1.2 (end), floatingpanel-core.md §9 O1 (settle budget)"),
    ]

    /// The most events one replay may write at a single time (µs).
    public static let maximumEventsPerInstant = 200

    /// Checks `result` (and `again`, a second replay of the same trace) against the four rules.
    public static func check(
        _ trace: Trace, _ result: SimulationResult, again: SimulationResult, pairs: [PairStep],
        variant: String
    ) -> SoakCheck {
        var out = SoakCheck()
        func fail(_ rule: String, _ kind: String, _ message: String) {
            out.violations.append(InvariantViolation(rule: rule, variant: variant, kind: kind, message: message))
        }
        // repeat
        out.counts.count("repeat")
        if let diff = firstDifference(result, again) { fail("repeat", "records", diff) }
        // finite and bounded (one pass over the records)
        var lastFrame = -1
        var eventTime: Microseconds = .min
        var eventsAtTime = 0
        var reportedFinite = false
        var reportedOrder = false
        var reportedBurst = false
        for (i, record) in result.records.enumerated() {
            out.counts.records += 1
            out.counts.count("finite")
            if !reportedFinite, let bad = numbers(of: record).first(where: { !$0.isFinite }) {
                fail("finite", "value", "record \(i) (\(describe(record))) carries \(bad)")
                reportedFinite = true
            }
            if let k = record.frameIndex {
                out.counts.frames += 1
                out.counts.count("bounded")
                if k <= lastFrame, !reportedOrder {
                    fail("bounded", "frame-order", "frame \(k) written after frame \(lastFrame)")
                    reportedOrder = true
                }
                lastFrame = max(lastFrame, k)
            } else if case .event(let t, _) = record {
                if t == eventTime {
                    eventsAtTime += 1
                } else {
                    eventTime = t
                    eventsAtTime = 1
                }
                if eventsAtTime > maximumEventsPerInstant, !reportedBurst {
                    fail("bounded", "burst", "more than \(maximumEventsPerInstant) events at t = \(seconds(t)) s")
                    reportedBurst = true
                }
            }
        }
        out.counts.count("bounded")
        if result.budgetExceeded {
            fail("bounded", "budget", "the replay did not come to rest within the settle budget after the last sample")
        }
        // pairs
        let cutShort =
            result.budgetExceeded
            || trace.samples.contains { if case .end = $0.kind { return true } else { return false } }
        out += checkPairs(pairs, atRest: !cutShort, variant: variant)
        return out
    }

    /// The `pairs` rule on `steps` (in record order). Open pairs at the end are reported only
    /// when the replay came to rest.
    public static func checkPairs(_ steps: [PairStep], atRest: Bool, variant: String) -> SoakCheck {
        var out = SoakCheck()
        var open: [String: [Microseconds]] = [:]
        var keys: [String] = []  // first-seen order, for a deterministic report
        for step in steps {
            out.counts.count("pairs")
            if open[step.key] == nil {
                open[step.key] = []
                keys.append(step.key)
            }
            switch step.kind {
            case .open: open[step.key]!.append(step.time)
            case .close:
                if open[step.key]!.isEmpty {
                    out.violations.append(
                        InvariantViolation(
                            rule: "pairs", variant: variant, kind: "unopened",
                            message: "\(step.key): the did… at t = \(seconds(step.time)) s has no will… before it"))
                } else {
                    open[step.key]!.removeFirst()
                }
            case .cancel:
                if !open[step.key]!.isEmpty { open[step.key]!.removeFirst() }
            }
        }
        if atRest {
            for key in keys where !(open[key]!.isEmpty) {
                out.violations.append(
                    InvariantViolation(
                        rule: "pairs", variant: variant, kind: "unclosed",
                        message:
                            "\(key): the will… at t = \(seconds(open[key]![0])) s is never followed by its did… (the replay came to rest)"
                    ))
            }
        }
        return out
    }

    /// Where `a` and `b` first differ (records bit for bit, warnings, budget), nil when they agree.
    public static func firstDifference(_ a: SimulationResult, _ b: SimulationResult) -> String? {
        if a.records.count != b.records.count {
            return "a second replay wrote \(b.records.count) records, the first \(a.records.count)"
        }
        for i in a.records.indices {
            let x = a.records[i]
            let y = b.records[i]
            if x != y && !(numbers(of: x).contains { $0.isNaN }) {
                return "record \(i) differs: \(describe(x)) then \(describe(y))"
            }
            let nx = numbers(of: x)
            let ny = numbers(of: y)
            if nx.count != ny.count || zip(nx, ny).contains(where: { $0.bitPattern != $1.bitPattern }) {
                return "record \(i) differs in its numbers' bits: \(describe(x)) then \(describe(y))"
            }
        }
        if a.warnings != b.warnings { return "the warnings differ" }
        if a.budgetExceeded != b.budgetExceeded { return "the budget outcome differs" }
        return nil
    }

    /// Every number a record carries, in field order.
    public static func numbers(of record: ResultRecord) -> [Double] {
        switch record {
        case .frame(let f):
            var out = [f.location, f.backdropAlpha]
            if let c = f.contentOffset { out.append(c) }
            if let i = f.contentInset { out += [i.top, i.left, i.bottom, i.right] }
            return out
        case .systemFrame(let f):
            return f.channels.flatMap { numbers(of: $0.value) }
        case .event(_, let e):
            switch e {
            case .didMove(let location): return [location]
            case .willEndDragging(let velocity, _, _): return [velocity.x, velocity.y]
            case .shouldRemove(let velocity, _): return [velocity.x, velocity.y]
            case .system(let s): return s.fields.flatMap { numbers(of: $0.value) }
            default: return []
            }
        }
    }

    static func numbers(of value: FieldValue) -> [Double] {
        switch value {
        case .number(let x): return [x]
        case .point(let p): return [p.x, p.y]
        case .string, .bool, .null: return []
        }
    }

    static func describe(_ record: ResultRecord) -> String {
        switch record {
        case .frame(let f): return "frame \(f.index)"
        case .systemFrame(let f): return "frame \(f.index)"
        case .event(let t, let e): return "\(e.name) at t = \(seconds(t)) s"
        }
    }

    /// `t` µs as seconds with six decimals.
    static func seconds(_ t: Microseconds) -> String {
        let sign = t < 0 ? "-" : ""
        let m = t.magnitude
        let fraction = String(m % 1_000_000)
        return sign + "\(m / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
