/// Synthesizing trace samples from a short gesture script (`panelsim synth`).
import PanelSimCore

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, seedable generator with the same output on
/// every platform. Not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    public private(set) var state: UInt64
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1) from the top 53 bits (exact, platform-independent).
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
}

/// Easing curves for `move` and `flick`: progress e(u) for u in [0, 1] (quadratic, so results are
/// exact-ish and platform-independent: only + and ×).
public enum Easing: String, Sendable, CaseIterable {
    case linear
    /// u²
    case easeIn = "ease-in"
    /// 1 − (1 − u)²
    case easeOut = "ease-out"
    /// 2u² below u = ½, 1 − 2(1 − u)² above
    case easeInOut = "ease-in-out"

    public func progress(_ u: Double) -> Double {
        switch self {
        case .linear: return u
        case .easeIn: return u * u
        case .easeOut: return 1 - (1 - u) * (1 - u)
        case .easeInOut: return u < 0.5 ? 2 * u * u : 1 - 2 * (1 - u) * (1 - u)
        }
    }

    /// e′(1): the end speed relative to the average speed (linear 1, ease-in 2, the others 0).
    public var endSlope: Double {
        switch self {
        case .linear: return 1
        case .easeIn: return 2
        case .easeOut, .easeInOut: return 0
        }
    }
}

/// One step of a gesture script.
public enum GestureStep: Sendable, Equatable {
    case down(Point)
    case move(to: Point, duration: Microseconds, easing: Easing)
    /// The finger (if any) stays put; time advances.
    case hold(Microseconds)
    case up(velocity: Point?)
    case cancel
    case flick(to: Point, duration: Microseconds, easing: Easing)
    case tap(Point, duration: Microseconds)
    /// A programmatic call at an absolute time (nil: the current time).
    case call(FloatingPanelCall, at: Microseconds?)
    /// Sets the current time (absolute, never backwards).
    case at(Microseconds)
    case end(at: Microseconds?)
}

/// A gesture step with where it was written: its 1-based script line and its text (words joined
/// by single spaces), for error messages.
public struct ScriptStep: Sendable, Equatable {
    public var step: GestureStep
    /// 1-based line of the script; 0 when unknown.
    public var line: Int
    /// The step as written (`move 195,400 300ms`); empty when unknown.
    public var text: String
    public init(_ step: GestureStep, line: Int = 0, text: String = "") {
        self.step = step
        self.line = line
        self.text = text
    }
}

/// The gesture script language of `panelsim synth`.
///
/// A script is a list of steps separated by `;` or line breaks; `#` starts a comment. One finger
/// (id 0) is scripted; a current time starts at 0 and advances with `move`, `hold`, `flick` and
/// `tap`. Numbers are plain decimals; points are `X,Y` in pt (no spaces); a duration is a number
/// with `ms` or `s`; an absolute time is a number of seconds, or with `ms` / `s`.
///
/// | step | effect |
/// |---|---|
/// | `down X,Y` | `began` at X,Y |
/// | `move X,Y DUR [EASING]` | `moved` samples at the sampling rate, the last one exactly at X,Y after DUR |
/// | `hold DUR` / `wait DUR` | time advances, no samples (a held finger sends no events) |
/// | `up [velocity VX,VY]` | `ended` at the finger's location, with the recorded velocity (pt/s) if given |
/// | `cancel` | `cancelled` at the finger's location |
/// | `flick X,Y DUR [EASING]` | `move`, then `up` with the velocity the motion has at its end: (X,Y − start) / DUR × e′(1) |
/// | `tap X,Y [DUR]` | `down`, `hold DUR` (default 50ms), `up` |
/// | `call [T] move STATE [instant]`, `call [T] show [instant]`, `call [T] hide [instant]`, `call [T] remove`, `call [T] tapBackdrop` | a `call` sample at T (default: now); calls may be given out of order and are merged by time |
/// | `at T` | sets the current time (never backwards) |
/// | `end [T]` | the `end` sample at T (default: now); must come last in time |
///
/// EASING: `linear` (default), `ease-in`, `ease-out`, `ease-in-out` (see `Easing`).
public enum GestureScript {
    /// Parses a script.
    /// - Parameter file: the name used in errors (`line` is the script line; the message quotes the step).
    /// - Throws: `TraceError` (`.invalid`) with the step's keyword as `field` and what was expected.
    /// - Complexity: O(length of the script).
    public static func parse(_ text: String, file: String) throws(TraceError) -> [GestureStep] {
        try parseLocated(text, file: file).map(\.step)
    }

    /// Parses a script, keeping where each step was written, so that errors found while
    /// sampling (`GestureSynthesizer.samples(script:file:)`) name the script line
    /// and the step as parse errors do.
    /// - Parameter file: the name used in errors.
    /// - Throws: `TraceError` (`.invalid`), as `parse(_:file:)`.
    /// - Complexity: O(length of the script).
    public static func parseLocated(_ text: String, file: String) throws(TraceError) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in lines.enumerated() {
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            for part in line.split(separator: ";") {
                let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
                guard let keyword = words.first else { continue }
                let text = words.joined(separator: " ")
                let step = try parseStep(
                    keyword, Array(words.dropFirst()), StepContext(file: file, line: index + 1, text: text))
                steps.append(ScriptStep(step, line: index + 1, text: text))
            }
        }
        return steps
    }

    struct StepContext {
        var file: String
        var line: Int
        var text: String
        func fail(_ field: String, _ message: String) -> TraceError {
            TraceError(file: file, line: line, field: field, message: "\(quoted(text)): \(message)")
        }
    }

    static let usageByKeyword: [String: String] = [
        "down": "down X,Y", "move": "move X,Y DURATION [EASING]", "hold": "hold DURATION", "wait": "wait DURATION",
        "up": "up [velocity VX,VY]", "cancel": "cancel", "flick": "flick X,Y DURATION [EASING]",
        "tap": "tap X,Y [DURATION]",
        "call": "call [TIME] move STATE [instant] | show [instant] | hide [instant] | remove | tapBackdrop",
        "at": "at TIME", "end": "end [TIME]",
    ]

    static func parseStep(_ keyword: String, _ args: [String], _ c: StepContext) throws(TraceError) -> GestureStep {
        guard let usage = usageByKeyword[keyword] else {
            throw c.fail(
                "",
                "unknown step \(quoted(keyword)) (expected one of \(usageByKeyword.keys.sorted().joined(separator: ", ")))"
            )
        }
        func expect(_ range: ClosedRange<Int>) throws(TraceError) {
            guard range.contains(args.count) else { throw c.fail(keyword, "expected \(usage)") }
        }
        func point(_ s: String) throws(TraceError) -> Point {
            let parts = s.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = number(parts[0]), let y = number(parts[1]),
                abs(x) <= FieldReader.maxMagnitude, abs(y) <= FieldReader.maxMagnitude
            else {
                throw c.fail(
                    keyword,
                    "expected a point X,Y (two finite numbers ≤ 10000000 in magnitude, no spaces), got \(quoted(s))")
            }
            return Point(x: x, y: y)
        }
        func duration(_ s: String, requireUnit: Bool = true) throws(TraceError) -> Microseconds {
            var digits = Substring(s)
            var shift = 6
            if digits.hasSuffix("ms") {
                digits = digits.dropLast(2)
                shift = 3
            } else if digits.hasSuffix("s") {
                digits = digits.dropLast()
            } else if requireUnit {
                digits = ""
            }
            guard !digits.isEmpty, number(digits) != nil, let d = ExactDecimal(digits), !d.negative,
                let us = d.rounded(shiftingBy: shift), us <= TraceLoader.maxTime
            else {
                throw c.fail(
                    keyword,
                    requireUnit
                        ? "expected a duration like 300ms or 0.3s, got \(quoted(s))"
                        : "expected a time in seconds like 0.8 (or 800ms), got \(quoted(s))")
            }
            return us
        }
        func easing(_ index: Int) throws(TraceError) -> Easing {
            guard index < args.count else { return .linear }
            guard let e = Easing(rawValue: args[index]) else {
                throw c.fail(
                    keyword,
                    "expected an easing (\(Easing.allCases.map(\.rawValue).joined(separator: ", "))), got \(quoted(args[index]))"
                )
            }
            return e
        }
        switch keyword {
        case "down":
            try expect(1...1)
            return .down(try point(args[0]))
        case "move", "flick":
            try expect(2...3)
            let to = try point(args[0])
            let d = try duration(args[1])
            let e = try easing(2)
            guard d > 0 else { throw c.fail(keyword, "expected a duration > 0") }
            return keyword == "move" ? .move(to: to, duration: d, easing: e) : .flick(to: to, duration: d, easing: e)
        case "hold", "wait":
            try expect(1...1)
            return .hold(try duration(args[0]))
        case "up":
            guard args.isEmpty || (args.count == 2 && args[0] == "velocity") else {
                throw c.fail(keyword, "expected \(usage)")
            }
            return .up(velocity: args.isEmpty ? nil : try point(args[1]))
        case "cancel":
            try expect(0...0)
            return .cancel
        case "tap":
            try expect(1...2)
            return .tap(try point(args[0]), duration: args.count == 2 ? try duration(args[1]) : 50_000)
        case "at":
            try expect(1...1)
            return .at(try duration(args[0], requireUnit: false))
        case "end":
            try expect(0...1)
            return .end(at: args.isEmpty ? nil : try duration(args[0], requireUnit: false))
        default:  // call
            var rest = args[...]
            var time: Microseconds?
            if let first = rest.first, first.first.map({ $0.isASCIIDigit || $0 == "." }) == true {
                time = try duration(first, requireUnit: false)
                rest = rest.dropFirst()
            }
            guard let name = rest.first else { throw c.fail(keyword, "expected \(usage)") }
            var options = Array(rest.dropFirst())
            var animated = true
            if options.last == "instant" {
                animated = false
                options.removeLast()
            }
            let call: FloatingPanelCall
            switch (name, options.count) {
            case ("move", 1):
                let builtIn = FloatingPanelState.builtIn.first { $0.name == options[0] }
                // Custom states are resolved against the template when the trace is checked.
                call = .move(to: builtIn ?? FloatingPanelState(name: options[0], order: 0), animated: animated)
            case ("show", 0): call = .show(animated: animated)
            case ("hide", 0): call = .hide(animated: animated)
            case ("remove", 0) where animated: call = .remove
            case ("tapBackdrop", 0) where animated: call = .tapBackdrop
            default: throw c.fail(keyword, "expected \(usage)")
            }
            return .call(call, at: time)
        }
    }

    static func number(_ s: Substring) -> Double? {
        guard ExactDecimal(s) != nil, let d = Double(s), d.isFinite else { return nil }
        return d
    }
}

/// Turns gesture steps into trace samples.
public struct GestureSynthesizer: Sendable {
    /// Samples per second for `move` and `flick` (e.g. 60, 120, 240); 1…1000.
    public var rate: Int
    /// Uniform position noise added to every `moved` sample, ±jitter pt on each axis (0: none).
    public var jitter: Double
    /// Seed of the `SplitMix64` that draws the jitter.
    public var seed: UInt64

    public init(rate: Int = 120, jitter: Double = 0, seed: UInt64 = 1) {
        self.rate = rate
        self.jitter = jitter
        self.seed = seed
    }

    /// At most this many samples in one synthesized trace (10⁶, the size of the largest trace
    /// `panelsim bench` loads): a `move` so long, at such a rate, that it would write more is
    /// refused instead of exhausting memory.
    public static let maxSamples = 1_000_000

    /// The samples for `steps`, ordered by time (touches in script order; calls merged in by time,
    /// after touches of the same time; `end` last). Same steps and settings → same samples.
    ///
    /// A `move` of duration D from time t₀ writes n = max(1, round(D × rate)) samples at
    /// t₀ + round(D·k/n) µs, k = 1…n, at start + (target − start)·e(k/n), each plus jitter; the
    /// finger's nominal position becomes the target (jitter never accumulates) and `up` lands
    /// where the last sample was written. Times are computed in 128-bit integers, so no duration
    /// the parser accepts can overflow them.
    /// - Parameter file: the name used in errors (line 0, the step's index as `field`).
    /// - Throws: `TraceError` (`.invalid`) for a finger that is not down (or already down), a
    ///   time that goes backwards (`at`, `end`), a script running past 10⁸ s, more than
    ///   `maxSamples` samples, a moved sample or flick velocity beyond 10⁷ (pt, pt/s) in
    ///   magnitude, a rate outside 1…1000, a negative or non-finite jitter.
    /// - Complexity: O(samples).
    public func samples(_ steps: [GestureStep], file: String) throws(TraceError) -> [TraceSample] {
        try samples(script: steps.map { ScriptStep($0) }, file: file)
    }

    /// `samples(_:file:)` for steps that know where they were written (`GestureScript.parseLocated`):
    /// an error names the step's script line, its keyword as `field` and quotes the step, as
    /// parse errors do (`SCRIPT:1: move: "move 195,400 1000000s": …`). Steps without a line
    /// (line 0) are named by their index, as in `samples(_:file:)`.
    /// - Throws: `TraceError` (`.invalid`), as `samples(_:file:)`.
    /// - Complexity: O(samples).
    public func samples(script steps: [ScriptStep], file: String) throws(TraceError) -> [TraceSample] {
        guard (1...1000).contains(rate) else {
            throw TraceError(
                file: file, line: 0, field: "rate", message: "expected a sampling rate in 1…1000 Hz, got \(rate)")
        }
        guard jitter.isFinite, jitter >= 0, jitter <= 1000 else {
            throw TraceError(
                file: file, line: 0, field: "jitter", message: "expected a jitter in 0…1000 pt, got \(jitter)")
        }
        var random = SplitMix64(seed: seed)
        var now: Microseconds = 0
        var touches: [TraceSample] = []
        var calls: [TraceSample] = []
        var endTime: Microseconds?
        var finger: (nominal: Point, written: Point)?
        func fail(_ k: Int, _ message: String) -> TraceError {
            let s = steps[k]
            guard s.line > 0 else { return TraceError(file: file, line: 0, field: "step \(k + 1)", message: message) }
            return TraceError(file: file, line: s.line, field: s.step.keyword, message: "\(quoted(s.text)): \(message)")
        }
        func representable(_ p: Point) -> Bool {
            abs(p.x) <= FieldReader.maxMagnitude && abs(p.y) <= FieldReader.maxMagnitude
        }
        func touch(_ phase: TouchPhase, _ p: Point, _ v: Point? = nil) {
            touches.append(TraceSample(time: now, kind: .touch(TouchSample(phase: phase, location: p, velocity: v))))
        }
        func advance(_ d: Microseconds, _ k: Int) throws(TraceError) {
            guard now + d <= TraceLoader.maxTime else { throw fail(k, "the script runs past 100000000 s") }
            now += d
        }
        for (k, scripted) in steps.enumerated() {
            let step = scripted.step
            if endTime != nil { throw fail(k, "nothing may follow 'end' (expected 'end' last)") }
            switch step {
            case .down(let p):
                if finger != nil {
                    throw fail(k, "'down' while the finger is already down (expected 'up' or 'cancel' first)")
                }
                finger = (p, p)
                touch(.began, p)
            case .move(let to, let d, let e), .flick(let to, let d, let e):
                guard let start = finger?.nominal else {
                    throw fail(k, "'\(step.keyword)' without a finger down (expected 'down' first)")
                }
                let t0 = now
                try advance(d, k)
                // d ≤ 10¹⁴ µs and rate ≤ 1000, so the count (≤ 10¹¹) is exact in a Double.
                let n = max(1, Int((Double(d) * Double(rate) / 1_000_000).rounded()))
                guard n <= Self.maxSamples - touches.count else {
                    throw fail(
                        k,
                        "\(n) samples at \(rate) Hz over \(CanonicalNumber.format(Double(d) / 1_000_000)) s (expected at most "
                            + "\(Self.maxSamples) samples in a trace: a shorter duration or a lower rate)")
                }
                var written = start
                for i in 1...n {
                    let f = e.progress(Double(i) / Double(n))
                    var p = Point(x: start.x + (to.x - start.x) * f, y: start.y + (to.y - start.y) * f)
                    if jitter > 0 {
                        p.x += (random.nextUnit() * 2 - 1) * jitter
                        p.y += (random.nextUnit() * 2 - 1) * jitter
                    }
                    guard representable(p) else {
                        throw fail(
                            k,
                            "a moved sample with jitter lands at (\(CanonicalNumber.format(p.x)), \(CanonicalNumber.format(p.y))) "
                                + "(expected positions within ±10000000 pt)")
                    }
                    let t = t0 + Self.roundedFraction(d, i, n)
                    touches.append(TraceSample(time: t, kind: .touch(TouchSample(phase: .moved, location: p))))
                    written = p
                }
                finger = (to, written)
                if case .flick = step {
                    let seconds = Double(d) / 1_000_000
                    let v = Point(
                        x: (to.x - start.x) / seconds * e.endSlope, y: (to.y - start.y) / seconds * e.endSlope)
                    guard representable(v) else {
                        throw fail(
                            k,
                            "the release velocity would be (\(CanonicalNumber.format(v.x)), \(CanonicalNumber.format(v.y))) pt/s "
                                + "(expected at most 10000000 pt/s in magnitude: a longer duration or a shorter distance)"
                        )
                    }
                    touch(.ended, written, v)
                    finger = nil
                }
            case .hold(let d):
                try advance(d, k)
            case .up(let v):
                guard let f = finger else { throw fail(k, "'up' without a finger down (expected 'down' first)") }
                touch(.ended, f.written, v)
                finger = nil
            case .cancel:
                guard let f = finger else { throw fail(k, "'cancel' without a finger down (expected 'down' first)") }
                touch(.cancelled, f.written)
                finger = nil
            case .tap(let p, let d):
                if finger != nil { throw fail(k, "'tap' while the finger is down (expected 'up' first)") }
                touch(.began, p)
                try advance(d, k)
                touch(.ended, p)
            case .call(let call, let at):
                calls.append(TraceSample(time: at ?? now, kind: .call(call)))
            case .at(let t):
                guard t >= now else {
                    throw fail(
                        k,
                        "'at' goes back in time to \(CanonicalNumber.formatSeconds(t)) s (expected ≥ \(CanonicalNumber.formatSeconds(now)) s)"
                    )
                }
                now = t
            case .end(let at):
                endTime = at ?? now
            }
        }
        var all = touches
        for call in calls {
            let index = all.firstIndex { $0.time > call.time } ?? all.endIndex
            all.insert(call, at: index)
        }
        if let endTime {
            if let last = all.last, last.time > endTime {
                throw TraceError(
                    file: file, line: 0, field: "end",
                    message:
                        "'end' at \(CanonicalNumber.formatSeconds(endTime)) s comes before a sample at \(CanonicalNumber.formatSeconds(last.time)) s (expected end last)"
                )
            }
            all.append(TraceSample(time: endTime, kind: .end))
        }
        return all
    }
}

extension GestureSynthesizer {
    /// round(d·i / n) half up, for 0 ≤ i ≤ n: (d·i + ⌊n/2⌋) / n in 128-bit arithmetic, so it
    /// cannot overflow (the quotient is at most d + 1).
    /// - Complexity: O(1).
    static func roundedFraction(_ d: Microseconds, _ i: Int, _ n: Int) -> Microseconds {
        precondition(d >= 0 && i >= 0 && n > 0 && i <= n)
        let product = UInt64(d).multipliedFullWidth(by: UInt64(i))
        let (low, carry) = product.low.addingReportingOverflow(UInt64(n / 2))
        let (quotient, _) = UInt64(n).dividingFullWidth((high: product.high + (carry ? 1 : 0), low: low))
        return Microseconds(quotient)
    }
}

extension GestureStep {
    var keyword: String {
        switch self {
        case .down: return "down"
        case .move: return "move"
        case .hold: return "hold"
        case .up: return "up"
        case .cancel: return "cancel"
        case .flick: return "flick"
        case .tap: return "tap"
        case .call: return "call"
        case .at: return "at"
        case .end: return "end"
        }
    }
}
