/// The timing curves of `UIViewPropertyAnimator` that panel systems pass in: spring timing
/// parameters (`UISpringTimingParameters`) and cubic curves (`UICubicTimingParameters`), as
/// progress p(t) from 0 to 1 over the animator's life (drawerkit.md §3.8, §5 D1).
///
/// Per frame only + − × ÷, `squareRoot` and the Swift-written `DeterministicMath` exp, sin and cos
/// run, so every platform computes the same bits (DESIGN.md). A curve point depends on the frame's
/// exact time since the start, which advances by 16,666 or 16,667 µs at 60 Hz, and each call's
/// rounding is its own: no recurrence over frames (e^(x+h) = e^x·e^h, the rotation for sin and cos)
/// reproduces these bits, so the curves evaluate the functions per frame.

/// The normalized step response x(u) of a damped harmonic oscillator released from rest at 1
/// (x(0) = 1, x'(0) = 0, x → 0), in natural-frequency units u = ω₀·τ, and its settling point U_s:
/// the first u after which the envelope stays ≤ 0.001 (drawerkit.md §3.8):
///
/// * ζ > 1: a = ζ − √(ζ²−1), b = ζ + √(ζ²−1), A = b/(b − a); x(u) = A·e^(−a·u) − (A − 1)·e^(−b·u);
///   U_s = ln(1000·A)/a;
/// * ζ = 1: x(u) = (1 + u)·e^(−u); U_s solves (1 + U_s)·e^(−U_s) = 0.001 (9.233413476…);
/// * ζ < 1: β = √(1 − ζ²); x(u) = e^(−ζu)·(cos βu + (ζ/β)·sin βu); U_s = ln(1000/β)/ζ.
///
/// Source: the closed-form solutions of m·x'' + c·x' + k·x = 0 (any mechanics text); the 0.1 %
/// settling rule is the one `TransitionSpring` uses for UIKit's springs (floatingpanel-core.md §9 O13).
struct SpringStepResponse: Sendable, Equatable {
    /// Damping ratio ζ (> 0).
    let zeta: Double
    /// Settling point U_s (natural-frequency units).
    let settlingU: Double
    private let a: Double, b: Double, amplitude: Double, beta: Double
    /// ζ > 1: A − 1, and the u from which the fast term (A − 1)·e^(−b·u) cannot change x(u)
    /// (+∞ when it always may; see `x(_:)`).
    private let fastAmplitude: Double
    let fastTermNegligibleFrom: Double
    /// ζ < 1: ζ/β (unseeded), (ζ − w)/β seeded.
    private var sineWeight: Double

    /// `UISpringTimingParameters()`'s damping ratio: the system spring m = 3, k = 1000, c = 500,
    /// ζ = 500/(2·√3000) = 4.564354645876384 (Apple documents ζ = 4.56 for `init()`; the triple is
    /// the widely cited one, drawerkit.md §1 [UNSURE]).
    static let systemSpringDampingRatio = 500 / (2 * (3000.0).squareRoot())
    /// The system spring's natural frequency √(k/m) = √(1000/3) rad/s.
    static let systemSpringNaturalFrequency = (1000.0 / 3).squareRoot()
    /// The system spring's response (ζ = `systemSpringDampingRatio`), computed once.
    static let systemSpring = SpringStepResponse(dampingRatio: systemSpringDampingRatio)

    /// The least damping ratio a response takes: a smaller ζ is taken as this one. Below about
    /// 10⁻³⁰⁸ the settling point ln(1000/β)/ζ overflows to ∞ and every curve value becomes NaN;
    /// from 10⁻¹² on the curve already oscillates trillions of times over its settling time, far
    /// beyond any frame rate, so the frames sample it equally meaninglessly either way.
    static let smallestDampingRatio = 1e-12

    /// The response of damping ratio `zeta` (> 0; below `smallestDampingRatio`, that).
    init(dampingRatio zeta: Double) {
        let zeta = Swift.max(zeta, Self.smallestDampingRatio)
        self.zeta = zeta
        if zeta > 1 {
            let s = (zeta * zeta - 1).squareRoot()
            a = zeta - s
            b = zeta + s
            amplitude = b / (b - a)
            beta = 0
            sineWeight = 0
            settlingU = DeterministicMath.log(1000 * amplitude) / a
            fastAmplitude = amplitude - 1
            // (A − 1)·e^(−b·u) < 2^−60·A·e^(−a·u) from this u on: far below a quarter of the
            // spacing of A·e^(−a·u)'s rounded value (which is > 2^−53 times that value), whatever
            // the few-ulp errors of exp, log and the rounded arguments −a·u and −b·u (an argument
            // below −745.2 gives exactly 0, so only |b·u| < 746 carries an argument error).
            fastTermNegligibleFrom =
                fastAmplitude > 0 && b > a
                ? max((DeterministicMath.log(fastAmplitude / amplitude) + 60 * DeterministicMath.ln2) / (b - a), 0)
                : .infinity
        } else if zeta == 1 {
            a = 1
            b = 1
            amplitude = 1
            beta = 0
            sineWeight = 0
            fastAmplitude = 0
            fastTermNegligibleFrom = .infinity
            settlingU = Self.criticalSettlingU
        } else {
            a = 0
            b = 0
            amplitude = 0
            beta = (1 - zeta * zeta).squareRoot()
            fastAmplitude = 0
            fastTermNegligibleFrom = .infinity
            settlingU = DeterministicMath.log(1000 / beta) / zeta
            sineWeight = zeta / beta
        }
    }

    /// An underdamped response (0 < ζ < 1) whose progress starts with slope w (natural-frequency
    /// units): x(u) = e^(−ζu)·(cos βu + ((ζ − w)/β)·sin βu), so x(0) = 1 and x'(0) = −w. U_s stays the
    /// zero-velocity settling point. A spring seeded with relative velocity s (1/s) over a duration D
    /// stretched by U_s has w = s·D/U_s (profiles.md LN-S5 `seeded`, an [UNSURE] fit of UIKit's
    /// seeded spring into a fixed duration).
    init(dampingRatio zeta: Double, seed w: Double) {
        self.init(dampingRatio: zeta)
        if self.zeta < 1 { sineWeight = (self.zeta - w) / beta }
    }

    /// U_s for ζ = 1: Newton on g(U) = U − ln(1 + U) − ln 1000, from U = 10 (g is convex for
    /// U > 0); computed once.
    private static let criticalSettlingU: Double = {
        var u = 10.0
        let target = DeterministicMath.log(1000)
        for _ in 0..<60 {
            let g = u - DeterministicMath.log(1 + u) - target
            let next = u - g / (1 - 1 / (1 + u))
            if next == u { break }
            u = next
        }
        return u
    }()

    /// x(u) for u ≥ 0.
    ///
    /// ζ > 1: x = P − Q with P = A·e^(−a·u) and Q = (A − 1)·e^(−b·u), rounded in that order. From
    /// `fastTermNegligibleFrom` on, 0 ≤ Q < 2^−55·P (with a wide margin), less than a quarter of
    /// P's spacing below it, so P − Q rounds to P: the second exponential is skipped with the same
    /// result bits.
    @inline(__always)
    func x(_ u: Double) -> Double {
        if zeta > 1 {
            let slow = amplitude * DeterministicMath.exp(-a * u)
            if u >= fastTermNegligibleFrom { return slow }
            return slow - fastAmplitude * DeterministicMath.exp(-b * u)
        } else if zeta == 1 {
            return (1 + u) * DeterministicMath.exp(-u)
        } else {
            let (sin, cos) = DeterministicMath.sinAndCos(beta * u)
            return DeterministicMath.exp(-zeta * u) * (cos + sineWeight * sin)
        }
    }
}

/// A `UIViewPropertyAnimator`'s timing: its progress curve and when it completes.
struct AnimatorTiming: Sendable, Equatable {
    enum Curve: Sendable, Equatable {
        /// `UICubicTimingParameters(animationCurve: .linear)`: p = t/D.
        case linear
        /// A spring: p = 1 − x(t · uPerSecond).
        case spring(SpringStepResponse, uPerSecond: Double)
    }
    let curve: Curve
    /// Seconds from the start until the animator completes (≥ 0).
    let duration: Double
    init(curve: Curve, duration: Double) {
        self.curve = curve
        self.duration = duration
    }

    /// The least whole number of ticks d ≥ 1 with d / `ticksPerSecond` ≥ D − 10⁻⁹ s, computed as the
    /// per-frame test computes it (`Int64.max` when no d qualifies): the delay after its start at
    /// which an animator of duration D completes (drawerkit.md §5 D9, lnpopup.md L4), found once.
    /// - Complexity: O(1) for durations below 2⁵² ticks, else O(log d).
    static func completionDelay(_ duration: Double, ticksPerSecond: Int64) -> Int64 {
        let scale = Double(ticksPerSecond)
        // d ↦ Double(d) / scale never decreases, so the qualifying d form a tail of the integers.
        let target = duration - 1e-9
        func qualifies(_ d: Int64) -> Bool { Double(d) / scale >= target }
        var d: Int64
        if target.isFinite && target * scale < 0x1p52 {
            d = max(Int64((target * scale).rounded(.down)), 1)
            while d > 1 && qualifies(d - 1) { d -= 1 }
            while !qualifies(d) { d += 1 }
        } else if qualifies(.max) {
            var lo: Int64 = 1
            var hi: Int64 = .max  // the least qualifying d lies in lo...hi
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if qualifies(mid) { hi = mid } else { lo = mid + 1 }
            }
            d = lo
        } else {
            d = .max
        }
        return d
    }

    /// A linear curve over `duration` s.
    static func linear(duration: Double) -> AnimatorTiming { AnimatorTiming(curve: .linear, duration: duration) }

    /// A spring of damping ratio ζ whose time axis is stretched so that it settles exactly at
    /// `duration` s (drawerkit.md §5 D1 default: UIKit honours the animator's duration).
    static func stretchedSpring(dampingRatio zeta: Double, duration: Double) -> AnimatorTiming {
        stretchedSpring(SpringStepResponse(dampingRatio: zeta), duration: duration)
    }

    /// `stretchedSpring(dampingRatio:duration:)` for a response computed before.
    static func stretchedSpring(_ response: SpringStepResponse, duration: Double) -> AnimatorTiming {
        AnimatorTiming(
            curve: .spring(response, uPerSecond: duration > 0 ? response.settlingU / duration : 0),
            duration: duration)
    }

    /// A spring in real time: natural frequency ω₀ rad/s, completing at its settling time U_s/ω₀
    /// (drawerkit.md §5 D1 option `physicalSpring`).
    static func physicalSpring(_ response: SpringStepResponse, naturalFrequency omega0: Double) -> AnimatorTiming {
        AnimatorTiming(curve: .spring(response, uPerSecond: omega0), duration: response.settlingU / omega0)
    }

    /// Progress (0 at the start, 1 at completion; a spring with ζ < 1 overshoots) `t` s after the
    /// start. 1 once t ≥ duration, and always 1 for a zero duration (the change shows at once).
    func progress(at t: Double) -> Double {
        if t >= duration || duration <= 0 { return 1 }
        switch curve {
        case .linear: return t / duration
        case .spring(let response, let uPerSecond): return 1 - response.x(t * uPerSecond)
        }
    }

    /// Share of an animator's offsets still showing `elapsed` s after its start: 1 − progress (the
    /// additive animation of drawerkit.md §3.8, which LNPopup's L4 takes over).
    @inline(__always)
    func remaining(after elapsed: Double) -> Double {
        1 - progress(at: elapsed)
    }
}

// MARK: Four frames at once

extension SpringStepResponse {
    /// `x(_:)` lane by lane, with its bits in every lane (`DeterministicMath`'s lane functions; a
    /// lane whose fast term is negligible gets the slow term alone, as the scalar call returns it).
    @inline(__always)
    func x(_ u: DeterministicMath.Lanes) -> DeterministicMath.Lanes {
        if zeta > 1 {
            let slow = amplitude * DeterministicMath.exp(-a * u)
            let negligible = u .>= fastTermNegligibleFrom
            if all(negligible) { return slow }
            return (slow - fastAmplitude * DeterministicMath.exp(-b * u)).replacing(with: slow, where: negligible)
        } else if zeta == 1 {
            return (1 + u) * DeterministicMath.exp(DeterministicMath.negated(u))
        } else {
            let (sin, cos) = DeterministicMath.sinAndCos(beta * u)
            return DeterministicMath.exp(-zeta * u) * (cos + sineWeight * sin)
        }
    }
}

extension AnimatorTiming {
    /// `remaining(after:)` of four elapsed times (s), with its bits in every lane. A lane at or past
    /// the duration is 0 (progress 1), whatever the curve gives there.
    @inline(__always)
    func remaining(after elapsed: DeterministicMath.Lanes) -> DeterministicMath.Lanes {
        if duration <= 0 { return DeterministicMath.Lanes(repeating: 0) }
        let progress: DeterministicMath.Lanes
        switch curve {
        case .linear: progress = elapsed / duration
        case .spring(let response, let uPerSecond): progress = 1 - response.x(elapsed * uPerSecond)
        }
        return 1 - progress.replacing(with: 1, where: elapsed .>= duration)
    }
}
