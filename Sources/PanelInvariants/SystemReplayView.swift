import PanelSimCore

/// A replay of one of the newer systems (DrawerKit, LNPopup, UISheet) as its checkers read it:
/// its frames and events in record order, and the trace's samples placed on the frame clock.
struct SystemReplayView {
    /// Frame records, in order.
    let frames: [SystemFrame]
    /// Events with their times (µs), in order; `order[i]` is the event's position among all records.
    let events: [(time: Microseconds, event: SystemEvent)]
    /// For each event, the index of the last frame record written before it (−1 when none).
    let framesBefore: [Int]
    let frameRate: Int
    let trace: Trace

    init(_ trace: Trace, _ result: SimulationResult) {
        self.trace = trace
        frameRate = trace.header.environment.frameRate
        var frames: [SystemFrame] = []
        var events: [(Microseconds, SystemEvent)] = []
        var before: [Int] = []
        for record in result.records {
            switch record {
            case .systemFrame(let f): frames.append(f)
            case .event(let t, .system(let e)):
                events.append((t, e))
                before.append(frames.count - 1)
            default: break
            }
        }
        self.frames = frames
        self.events = events
        framesBefore = before
    }

    /// Frame k's printed time (µs).
    func time(ofFrame k: Int) -> Microseconds { frameTime(k, frameRate: frameRate) }

    /// The frame that processes a sample at `t` µs: the first k with k / frameRate ≥ t.
    func dueFrame(_ t: Microseconds) -> Int { Int((t * Int64(frameRate) + 999_999) / 1_000_000) }

    /// True when the event at `time` was written at a frame (a completion or a timer), not at a
    /// sample's own time... as far as times tell: the time is a frame's printed time and no sample
    /// has it.
    func isFrameTime(_ t: Microseconds) -> Bool {
        let k = dueFrame(t)
        return time(ofFrame: k) == t || (k > 0 && time(ofFrame: k - 1) == t)
    }

    /// The samples at exactly `t` µs.
    func samples(at t: Microseconds) -> [TraceSample] { trace.samples.filter { $0.time == t } }

    /// For each frame record, whether finger 0 is down after that frame's samples (a `began`
    /// processed and its `ended`/`cancelled` not yet).
    func fingerDown() -> [Bool] {
        var out: [Bool] = []
        out.reserveCapacity(frames.count)
        var i = 0
        var down = false
        let samples = trace.samples
        for f in frames {
            while i < samples.count, dueFrame(samples[i].time) <= f.index {
                if case .touch(let t) = samples[i].kind, t.id == 0 {
                    switch t.phase {
                    case .began: down = true
                    case .ended, .cancelled: down = false
                    default: break
                    }
                }
                i += 1
            }
            out.append(down)
        }
        return out
    }

    /// The samples processed by frame record `i` since the previous frame record (by frame index).
    func samples(betweenFrame i: Int) -> ArraySlice<TraceSample> {
        let lo = i > 0 ? frames[i - 1].index : -1
        let hi = frames[i].index
        let s = trace.samples
        let start = s.firstIndex { dueFrame($0.time) > lo } ?? s.count
        var end = start
        while end < s.count, dueFrame(s[end].time) <= hi { end += 1 }
        return s[start..<end]
    }
}

/// Reading the values of system records.
enum FieldRead {
    static func number(_ v: FieldValue?) -> Double? { if case .number(let x)? = v { return x } else { return nil } }
    static func bool(_ v: FieldValue?) -> Bool? { if case .bool(let b)? = v { return b } else { return nil } }
    static func string(_ v: FieldValue?) -> String? { if case .string(let s)? = v { return s } else { return nil } }
    /// A frame's boolean channel, false when absent.
    static func flag(_ f: SystemFrame, _ key: String) -> Bool { bool(f[key]) ?? false }
}

/// A checker's violations and counts under construction (the newer systems' checkers).
struct ViolationLog {
    let variant: String
    var check = SoakCheck()
    init(variant: String) { self.variant = variant }

    /// Records a violation of `rule` (of kind `kind`) with `message`; only the first of each
    /// rule and kind is kept per replay, so a broken replay reports each kind once.
    mutating func fail(_ rule: String, _ kind: String, _ message: String) {
        guard !check.violations.contains(where: { $0.rule == rule && $0.kind == kind }) else { return }
        check.violations.append(InvariantViolation(rule: rule, variant: variant, kind: kind, message: message))
    }

    /// Counts one evaluation of `rule`.
    mutating func count(_ rule: String, _ n: Int = 1) { check.counts.count(rule, n) }
}

/// `t` µs as seconds with six decimals.
func secondsText(_ t: Microseconds) -> String { ReplayRules.seconds(t) }
