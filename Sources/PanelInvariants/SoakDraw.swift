import PanelSimCore
import PanelTrace

/// Draws of the soak generator on the project's `SplitMix64`.
struct Draw {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { generator.nextUnit() }
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    /// Uniform in [a, b).
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
    /// Uniform integer in a...b.
    mutating func int(_ a: Int, _ b: Int) -> Int { a + Int(generator.next() % UInt64(b - a + 1)) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0, items.count - 1)] }
    /// A value in [a, b) on a grid of `step` pt (readable traces), sometimes with a fractional part
    /// (FloatingPanel rounds to the pixel grid, FloatingPanel #626).
    mutating func points(_ a: Double, _ b: Double, step: Double = 0.5) -> Double {
        let v = uniform(a, b)
        if chance(0.1) { return (v * 1000).rounded() / 1000 }
        return (v / step).rounded() * step
    }
    /// Picks an index by weight.
    mutating func weighted(_ weights: [Double]) -> Int {
        var x = uniform(0, weights.reduce(0, +))
        for (i, w) in weights.enumerated() {
            if x < w { return i }
            x -= w
        }
        return weights.count - 1
    }
}

/// The samples of a generated soak trace under construction, for the systems whose generators
/// share one gesture vocabulary (DrawerKit, LNPopup, UISheet): drags (slow, flicks, with
/// reversals, pauses, sideways drift and a second finger), holds, taps, cancels, and calls at any
/// moment. `samples(frameRate:)` sorts them by time and gives every call a time of its own that no
/// other sample and no display frame shares, so that a checker can tell the call's records from a
/// touch's (the same rule as FloatingPanel's generator).
struct GestureTimeline {
    struct Pending {
        var time: Microseconds
        var kind: SampleKind
        var isCall: Bool
    }
    private(set) var items: [Pending] = []
    /// Ids given to second fingers so far (each second finger has its own id).
    private var secondFingers = 0
    /// The container the touches land in (pt).
    let container: Size

    init(container: Size) { self.container = container }

    static func micros(_ seconds: Double) -> Microseconds { Microseconds((seconds * 1_000_000).rounded()) }

    /// A touch of finger `id` at `t` s.
    mutating func touch(_ phase: TouchPhase, _ p: Point, _ t: Double, id: Int = 0, velocity: Point? = nil) {
        items.append(
            Pending(
                time: Self.micros(t), kind: .touch(TouchSample(phase: phase, id: id, location: p, velocity: velocity)),
                isCall: false))
    }

    /// A call (or environment change) at about `t` s; its exact time is set by `samples`.
    mutating func call(_ kind: SampleKind, at t: Double) {
        items.append(Pending(time: Self.micros(t), kind: kind, isCall: true))
    }

    /// The time (s) of the last sample so far, 0 when none.
    var lastTime: Double { Double(items.map(\.time).max() ?? 0) / 1_000_000 }

    /// A drag of finger 0 from `start` at `t0` s: moved samples at `rate` Hz along a random easing,
    /// monotonic unless `reversals` > 0 (each reversal turns back), with sideways drift sometimes
    /// (`sideways`: mostly horizontal), an occasional pause, then `ended` (with a recorded
    /// velocity half of the time) or `cancelled`. `flick`: short and fast; `hold`: seconds the
    /// finger rests before it moves. Returns the time (s) of the last sample.
    mutating func drag(
        _ draw: inout Draw, from start: Point, at t0: Double, rate: Double, flick: Bool, reversals: Int,
        direction initial: Double? = nil, sideways: Bool = false, secondFinger: Bool = false,
        hold: Double = 0
    ) -> Double {
        var t = t0
        var p = start
        touch(.began, p, t)
        if hold > 0 {
            // The finger rests `hold` s before it moves.
            t += hold
            touch(.stationary, p, t)
        }
        var direction: Double = initial ?? (draw.chance(0.5) ? -1 : 1)
        let dt = 1 / rate
        var lastStep = Point.zero
        for _ in 0...reversals {
            let distance = flick ? draw.points(20, 220) : draw.points(3, 700)
            let duration = flick ? draw.uniform(0.03, 0.12) : draw.uniform(0.05, 0.9)
            let steps = max(1, Int(duration / dt))
            let drift =
                sideways
                ? draw.uniform(1.2, 3) * (draw.chance(0.5) ? -1 : 1) : (draw.chance(0.7) ? 0 : draw.uniform(-0.4, 0.4))
            let easing = draw.pick(Easing.allCases)
            var previous = 0.0
            for k in 1...steps {
                let progress = easing.progress(Double(k) / Double(steps)) * distance
                let step = progress - previous
                previous = progress
                let next = Point(x: p.x + drift * step, y: p.y + direction * step)
                lastStep = Point(x: next.x - p.x, y: next.y - p.y)
                p = Point(
                    x: min(max((next.x * 8).rounded() / 8, 0), container.width),
                    y: min(max((next.y * 8).rounded() / 8, 0), container.height))
                t += dt
                touch(draw.chance(0.02) ? .stationary : .moved, p, t)
                if draw.chance(0.02) { t += draw.uniform(0.05, 0.4) }  // a pause mid-drag
            }
            direction = -direction
        }
        if secondFinger {
            // Finger 1+ lands somewhere during the drag and lifts before or after it.
            let q = Point(x: draw.points(0, container.width), y: draw.points(0, container.height))
            let t1 = draw.uniform(t0, t)
            let t2 = t1 + draw.uniform(0.05, 0.5)
            secondFingers += 1
            touch(.began, q, t1, id: secondFingers)
            touch(.moved, Point(x: q.x, y: max(q.y - 30, 0)), (t1 + t2) / 2, id: secondFingers)
            touch(.ended, Point(x: q.x, y: max(q.y - 30, 0)), t2, id: secondFingers)
        }
        if draw.chance(0.08) {
            touch(.cancelled, p, t)
        } else {
            var velocity: Point?
            if draw.chance(0.5) {
                velocity =
                    draw.chance(0.6)
                    ? Point(x: (lastStep.x / dt).rounded(), y: (lastStep.y / dt * draw.uniform(0.5, 2.5)).rounded())
                    : Point(x: Double(draw.int(-300, 300)), y: Double(draw.int(-6000, 6000)))
                if draw.chance(0.05) { velocity = Point(x: 0, y: 0) }
            }
            touch(.ended, p, t, velocity: velocity)
        }
        return t
    }

    /// A finger that goes down at `p`, perhaps moves a little (under or near the begin threshold),
    /// and lifts (or is cancelled) after `duration` s. Returns the end time.
    mutating func hold(_ draw: inout Draw, at p: Point, from t0: Double, duration: Double) -> Double {
        var t = t0
        touch(.began, p, t)
        if draw.chance(0.4) {
            t += draw.uniform(0.02, duration / 2)
            touch(.moved, Point(x: p.x + Double(draw.int(-3, 3)), y: p.y + Double(draw.int(-9, 9))), t)
        }
        if draw.chance(0.3) { touch(.stationary, p, t) }
        t = max(t, t0 + duration)
        touch(draw.chance(0.92) ? .ended : .cancelled, p, t)
        return t
    }

    /// A tap at `p` (down, up after 20–150 ms). Returns the end time.
    mutating func tap(_ draw: inout Draw, at p: Point, from t0: Double) -> Double {
        touch(.began, p, t0)
        let t = t0 + draw.uniform(0.02, 0.15)
        touch(.ended, p, t)
        return t
    }

    /// The samples in time order (file order within a time); each call moved to a time of its own
    /// at least 137 µs after its drawn time, shared by no other sample and no frame of `frameRate`.
    func samples(frameRate: Int) -> [TraceSample] { Self.placed(items, frameRate: frameRate) }

    /// `items` in time order (file order within a time), each call moved as `samples` says.
    static func placed(_ items: [Pending], frameRate: Int) -> [TraceSample] {
        var out = items.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
        var taken = Set(out.filter { !$0.isCall }.map(\.time))
        let rate = Int64(frameRate)
        func isFrameTime(_ t: Microseconds) -> Bool {
            let k = Int(t * rate / 1_000_000)
            return frameTime(k, frameRate: frameRate) == t || frameTime(k + 1, frameRate: frameRate) == t
        }
        for i in out.indices where out[i].isCall {
            var time = out[i].time + 137
            while taken.contains(time) || isFrameTime(time) { time += 1 }
            out[i].time = time
            taken.insert(time)
        }
        out = out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        return out.map { TraceSample(time: $0.time, kind: $0.kind) }
    }
}

/// Draws shared by the newer systems' generators.
extension Draw {
    /// A phone or tablet container with its safe area (portrait mostly, a landscape phone now and
    /// then, a random size a fifth of the time), display scale and frame rate.
    mutating func environment() -> PanelEnvironment {
        let devices: [(Double, Double, Insets)] = [
            (390, 844, Insets(top: 47, left: 0, bottom: 34, right: 0)),
            (375, 667, Insets(top: 20, left: 0, bottom: 0, right: 0)),
            (430, 932, Insets(top: 59, left: 0, bottom: 34, right: 0)),
            (393, 852, Insets(top: 59, left: 0, bottom: 34, right: 0)),
            (320, 568, Insets(top: 20, left: 0, bottom: 0, right: 0)),
            (844, 390, Insets(top: 0, left: 47, bottom: 21, right: 47)),
        ]
        var env: PanelEnvironment
        if chance(0.8) {
            let d = pick(devices)
            env = PanelEnvironment(container: Size(width: d.0, height: d.1), safeArea: d.2)
        } else {
            let w = Double(int(280, 1100))
            let h = Double(int(360, 1200))
            env = PanelEnvironment(
                container: Size(width: w, height: h),
                safeArea: Insets(top: Double(int(0, 60)), left: 0, bottom: Double(int(0, 40)), right: 0))
        }
        env.displayScale = pick([1, 2, 3, 3, 2])
        env.frameRate = pick([60, 120, 120, 30, 90, 240, 24])
        return env
    }

    /// The pan recognizer: recorded velocities half of the time, else an estimator; the begin
    /// threshold 10 pt mostly.
    mutating func recognizer() -> RecognizerConfiguration {
        var r = RecognizerConfiguration()
        r.velocity = chance(0.5) ? .recorded : pick(VelocitySource.allCases)
        r.beginThreshold = chance(0.7) ? 10 : Double(int(0, 20))
        return r
    }
}

/// Writing a generated trace and reading it back.
enum SoakTraceFile {
    /// Describes a generated header of `seed` (its description and source name the command that
    /// reproduces it) and draws its recognizer (`Draw.recognizer()`).
    static func describe(_ header: inout TraceHeader, seed: UInt64, draw: inout Draw) {
        let model = header.model.rawValue
        header.description = "panelsim soak --model \(model) seed \(seed)"
        header.source.kind = "synthetic"
        header.source.origin = "panelsim soak --model \(model) --seed \(seed) --count 1"
        header.recognizer = draw.recognizer()
    }

    /// `trace` written with `TraceWriter` and read back with `TraceLoader` (so it is a valid trace
    /// file as is); a trace the loader refuses is a generator bug, returned with a description that
    /// starts with `GENERATOR ERROR` and names the loader's error.
    static func roundTrip(_ trace: Trace, seed: UInt64) -> Trace {
        let text = TraceWriter.write(trace)
        do {
            return try TraceLoader.parse(text: text, file: "soak-\(seed).jsonl")
        } catch {
            var broken = trace
            broken.header.description = "GENERATOR ERROR: \(error)"
            return broken
        }
    }
}
