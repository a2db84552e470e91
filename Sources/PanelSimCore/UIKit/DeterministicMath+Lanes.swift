/// `exp` and `sinAndCos` of several arguments at once, lane by lane the bits of the scalar
/// functions: the curves of an animation's steady frames evaluate four consecutive frames together
/// (`AdditiveAnimator.presentations(of:fromFrame:)`).
///
/// Each lane goes through the scalar function's operations in the scalar function's order; a SIMD
/// lane's +, −, × and ÷ are the IEEE 754 operations of the scalar ones (SSE2 on x86-64, NEON on
/// arm64), so the rounding of every step, and with it the result, is the same. What the lanes do
/// differently is only how they get there: the scalar series is one chain of dependent
/// multiplications and additions whose latency sets the cost of a call, while four chains side by
/// side fill the pipeline (measurements in BENCHMARKS.md). The branches of the scalar functions are
/// taken for all lanes at once: when any lane leaves the common path (an argument outside the
/// range where 2^k is built from its bits, a NaN, a reduction that lands near a half-integer, a
/// sin/cos argument of 2³⁰ or more), the four lanes are computed by the scalar function one by
/// one. `DeterministicMathTests` compares every lane with the scalar call bit for bit.
extension DeterministicMath {
    /// Four `Double` lanes, evaluated together.
    typealias Lanes = SIMD4<Double>

    /// 1.5·2⁵²: added to v (|v| < 2⁵¹) it leaves rint(v) in the low bits (`roundedToNearestEven`).
    private static let roundingShift = 6_755_399_441_055_744.0
    /// The bits of `roundingShift`.
    private static let roundingShiftBits: UInt64 = 0x4338_0000_0000_0000

    /// −x, lane by lane: the sign bit flipped, as the scalar negation does. (The SIMD types' prefix
    /// `-` computes 0 − x, which gives +0 for +0 where the scalar negation gives −0.)
    @inline(__always)
    static func negated(_ x: Lanes) -> Lanes {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt64>.self) ^ 0x8000_0000_0000_0000, to: Lanes.self)
    }

    /// |x|, lane by lane (the sign bit cleared; SIMD types have no `abs`).
    @inline(__always)
    private static func magnitude(_ x: Lanes) -> Lanes {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt64>.self) & 0x7FFF_FFFF_FFFF_FFFF, to: Lanes.self)
    }

    /// `roundedQuotient(x, by:reciprocal:)` lane by lane, or nil when a lane's product lands within
    /// 2⁻³⁰ of a half-integer (the scalar function then divides) or is NaN. Returns rint(x·reciprocal)
    /// and the bits of that integer plus `roundingShift`, whose low bits hold it in two's complement.
    @inline(__always)
    private static func roundedQuotient(_ x: Lanes, reciprocal: Double) -> (k: Lanes, shiftedBits: SIMD4<UInt64>)? {
        let v = x * reciprocal
        let shifted = v + roundingShift
        let k = shifted - roundingShift
        let distance = magnitude(v - k) - 0.5
        // Every lane must fail the scalar test |distance| < 2⁻³⁰; asked this way round, so that a
        // NaN lane (for which every comparison is false) also leaves the common path.
        guard all((distance .>= 0x1p-30) .| (distance .<= -0x1p-30)) else { return nil }
        return (k, unsafeBitCast(shifted, to: SIMD4<UInt64>.self))
    }

    /// e^x lane by lane: `exp(_:)`'s bits in every lane.
    ///
    /// The common path takes every lane in [−690, 690], where k = rint(x/ln 2) stays within ±1000
    /// and 2^k is built from its bits (as the scalar function does there).
    @inline(__always)
    static func exp(_ x: Lanes) -> Lanes {
        guard all((x .>= -690) .& (x .<= 690)), let (k, shiftedBits) = roundedQuotient(x, reciprocal: inverseLn2)
        else { return Lanes(exp(x[0]), exp(x[1]), exp(x[2]), exp(x[3])) }
        let r = (x - k * ln2Hi) - k * ln2Lo
        let sum = expSeries(r, q3: r / 3, q5: r / 5, q7: r / 7, q9: r / 9, q11: r / 11, q13: r / 13)
        // 2^k from its bits: k is the low bits of `shiftedBits` less those of `roundingShift`.
        let exponent = (shiftedBits &- roundingShiftBits &+ 1023) &<< 52
        return sum * unsafeBitCast(exponent, to: Lanes.self)
    }

    /// (sin x, cos x) lane by lane: `sinAndCos(_:)`'s bits in every lane.
    @inline(__always)
    static func sinAndCos(_ x: Lanes) -> (sin: Lanes, cos: Lanes) {
        guard all(magnitude(x) .< 0x1p30), let (k, shiftedBits) = roundedQuotient(x, reciprocal: inversePio2) else {
            let (s0, c0) = sinAndCos(x[0])
            let (s1, c1) = sinAndCos(x[1])
            let (s2, c2) = sinAndCos(x[2])
            let (s3, c3) = sinAndCos(x[3])
            return (Lanes(s0, s1, s2, s3), Lanes(c0, c1, c2, c3))
        }
        let r = ((x - k * pio2Hi) - k * pio2Mid) - k * pio2Lo
        // `sinCosKernels`, its two lanes as two vectors.
        let minusR2 = negated(r * r)
        var sinTerm = r
        var cosTerm = Lanes(repeating: 1)
        var s = sinTerm
        var c = cosTerm
        for i in 1...9 {
            let n = Double(i)
            let sinDivisor: Double = (2 * n) * (2 * n + 1)
            let cosDivisor: Double = (2 * n - 1) * (2 * n)
            sinTerm *= minusR2 / sinDivisor
            cosTerm *= minusR2 / cosDivisor
            s += sinTerm
            c += cosTerm
        }
        // The quadrant k mod 4, from the low bits of k (two's complement).
        let quadrant = shiftedBits & 3
        let odd = (quadrant & 1) .== 1
        let sine = s.replacing(with: c, where: odd)
        let cosine = c.replacing(with: negated(s), where: odd)
        let negate = quadrant .>= 2
        return (sine.replacing(with: negated(sine), where: negate), cosine.replacing(with: negated(cosine), where: negate))
    }
}
