/// Elementary functions written in Swift so that every platform computes the same bits
/// (DESIGN.md: nothing from the platform's libm reaches a result). Accuracy: a few ulps over the
/// ranges used here (tested against known values).
///
/// `exp`, `sin` and `cos` sum their Taylor series term by term in the order a fixed loop of 28
/// terms (exp) or 13 terms (sin, cos) does, but stop at r¹³/13! (exp), r¹⁹/19! (sin) and r¹⁸/18!
/// (cos): the terms left out cannot change the sum, so the result has the full loop's bits.
/// * exp, |r| ≤ (ln 2/2)·(1 + 2^−29) (the reduction's bound, `roundedQuotient`): the sum exceeds
///   e^−|r| > 0.707, and above 0.5 half the spacing of doubles is at least 2^−54 (in [0.5, 1), and
///   just below 1 for a negative term); the first term left out, r¹⁴/14!, is below 4.2·10⁻¹⁸ <
///   0.08·2^−54.
/// * sin and cos, |r| ≤ π/4: the last term kept is already below 2^−55 times the sum, a quarter of
///   its spacing, with a margin of 9 or more (r¹⁹/19! < 1.1·10⁻¹⁹·|r| with a sum ≥ 0.89·|r|;
///   r¹⁸/18! < 2.1·10⁻¹⁸ with a sum ≥ 0.70).
///
/// Every later term is smaller still (each is the one before times r/n or r²/(2n(2n±1)), below
/// 0.03 in magnitude from there on), so adding any of them rounds back to the same sum: below half
/// the sum's spacing on either side. No branch per term. `DeterministicMathTests` compares the
/// three with the full-length sums bit for bit.
///
/// The chain of dependent multiplications and additions sets the cost of a call (BENCHMARKS.md,
/// sessions 9 and 10), not the divisions: a term is the one before times a quotient (r/n, −r²/d)
/// that does not depend on the chain, so the quotients are divided first, two at a time
/// (`SIMD2<Double>`: each lane is one IEEE 754 division, the same bits as the scalar one, on
/// x86-64 and arm64 alike) and r/(2m) in exp is taken as (r/m)·½ (see `expQuotients`).
public enum DeterministicMath {
    /// ln 2 split for Cody–Waite reduction: hi has trailing zero bits so k·hi is exact for |k| < 2^11.
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10
    static let ln2 = 0.6931471805599453

    /// Natural logarithm of x > 0; NaN for x ≤ 0 or NaN, +∞ for +∞. Runs once per animation,
    /// never per frame.
    public static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == .infinity ? .infinity : .nan }
        var e = Double(Int(x.exponent))
        var m = x.significand  // [1, 2)
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        // atanh(s) = s·(1 + s²/3 + s⁴/5 + …); |s| ≤ 0.1716, 24 terms are far past double precision.
        var term = 1.0
        var sum = 0.0
        var n = 1.0
        for _ in 0..<24 {
            sum += term / n
            term *= s2
            n += 2
        }
        return e * ln2Hi + (e * ln2Lo + 2 * s * sum)
    }

    /// `v` rounded to the nearest integer, ties to even, for |v| < 2^51: adding and subtracting
    /// 1.5·2^52 leaves no fraction bits (`rounded(.toNearestOrEven)` is a libm call on x86-64's
    /// baseline). Equal to it except that it gives +0 where that gives −0; the callers' reductions
    /// x − k·c give the same r from either zero for every x ≠ 0, and their series the same result
    /// for x = ±0.
    @inline(__always)
    static func roundedToNearestEven(_ v: Double) -> Double {
        (v + 6_755_399_441_055_744) - 6_755_399_441_055_744
    }

    /// rint(x / d) (ties to even; +0 for −0, see `roundedToNearestEven`) for |x / d| < 2^20 and
    /// d > 0, from the product x·(1/d) unless that lands within 2^−30 of a half-integer, where the
    /// quotient decides. The product and the quotient differ by at most a few ulps of x/d (below
    /// 2^−30 in this range), so away from a half-integer both round to the same integer; a
    /// multiplication instead of a division on the curves' per-frame path.
    @inline(__always)
    static func roundedQuotient(_ x: Double, by d: Double, reciprocal: Double) -> Double {
        let v = x * reciprocal
        let k = roundedToNearestEven(v)
        if abs(abs(v - k) - 0.5) < 0x1p-30 { return roundedQuotientNearHalf(x, by: d) }
        return k
    }

    /// rint(x / d) by the division (out of line: kept off the path that multiplies).
    @inline(never)
    static func roundedQuotientNearHalf(_ x: Double, by d: Double) -> Double { roundedToNearestEven(x / d) }

    /// 1/`ln2` and 1/(π/2), each the double nearest the quotient of the doubles.
    static let inverseLn2 = 1.4426950408889634
    static let inversePio2 = 0.6366197723675814

    /// e^x.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.8 { return .infinity }
        if x < -745.2 { return 0 }
        let k = roundedQuotient(x, by: ln2, reciprocal: inverseLn2)
        let r = (x - k * ln2Hi) - k * ln2Lo  // |r| ≤ 0.347
        let q = expQuotients(r)
        let sum = expSeries(r, q3: q.q3, q5: q.q5, q7: q.q7, q9: q.q9, q11: q.q11, q13: q.q13)
        let n = Int(k)
        if n >= -1000 && n <= 1000 {
            // 2^n from its bits: the value `Double(sign:exponent:significand:)` gives, without the call.
            return sum * Double(bitPattern: UInt64(1023 + n) << 52)
        }
        return scale(sum, by: n)
    }

    /// 1 + r + r²/2! + … + r¹³/13! (see the type's comment for where it stops), given the
    /// quotients r/n for the odd n (`expQuotients`): term i is term i − 1 times r/i, each even
    /// quotient taken as an odd one (or r) times a power of two. The scalar `exp` and the lane one
    /// (`exp(_:)` of `Lanes`) both sum it here, so every lane takes the scalar operations in the
    /// scalar order.
    @inline(__always)
    static func expSeries<T: SeriesArithmetic>(_ r: T, q3: T, q5: T, q7: T, q9: T, q11: T, q13: T) -> T {
        var term = r
        var sum = T.splat(1) + r
        term = term * (r * T.splat(0.5))
        sum = sum + term
        term = term * q3
        sum = sum + term
        term = term * (r * T.splat(0.25))
        sum = sum + term
        term = term * q5
        sum = sum + term
        term = term * (q3 * T.splat(0.5))
        sum = sum + term
        term = term * q7
        sum = sum + term
        term = term * (r * T.splat(0.125))
        sum = sum + term
        term = term * q9
        sum = sum + term
        term = term * (q5 * T.splat(0.5))
        sum = sum + term
        term = term * q11
        sum = sum + term
        term = term * (q3 * T.splat(0.25))
        sum = sum + term
        term = term * q13
        return sum + term
    }

    /// r/n for the odd n of exp's series, 3 to 13, each the correctly rounded quotient (three
    /// two-lane divisions instead of six).
    ///
    /// The even n = 2^j·m take r/n = (r/m)·2^−j (2, 4, 8 from r itself): scaling by a power of two
    /// is exact for a normal result, and rounding commutes with it, so the product is the
    /// correctly rounded r/n. It can differ only where r/m or r/n is subnormal, |r| < 13·2^−1021;
    /// then r·(r/2), the series' second term, underflows to ±0, every later term is ±0 whatever
    /// the quotient's value (its sign is r's either way), and the sum 1 + r is unchanged.
    @inline(__always)
    static func expQuotients(_ r: Double) -> (
        q3: Double, q5: Double, q7: Double, q9: Double, q11: Double, q13: Double
    ) {
        let v = SIMD2(repeating: r)
        let a = v / SIMD2(3, 5)
        let b = v / SIMD2(7, 9)
        let c = v / SIMD2(11, 13)
        return (a[0], a[1], b[0], b[1], c[0], c[1])
    }

    /// sum · 2^k without overflow in intermediate steps.
    static func scale(_ v: Double, by k: Int) -> Double {
        var result = v
        var k = k
        while k > 1000 {
            result *= Double(sign: .plus, exponent: 1000, significand: 1)
            k -= 1000
        }
        while k < -1000 {
            result *= Double(sign: .plus, exponent: -1000, significand: 1)
            k += 1000
        }
        return result * Double(sign: .plus, exponent: k, significand: 1)
    }

    /// π/2 split in three parts for argument reduction (fdlibm's pio2_1, pio2_1t-style split).
    static let pio2Hi = 1.57079632673412561417e+00
    static let pio2Mid = 6.07710050650619224932e-11
    static let pio2Lo = 2.02226624879595063154e-21

    /// x's exact remainder modulo the double nearest 2π (IEEE fmod), for `reduce`'s rare huge
    /// arguments: out of line, so that the common path never computes it.
    @inline(never)
    static func remainderModuloTwoPi(_ x: Double) -> Double { x.truncatingRemainder(dividingBy: 2 * Double.pi) }

    /// Reduces x to r ∈ [−π/4, π/4] and the quadrant q with x ≈ q·π/2 + r. Accurate for |x| < 1e6.
    ///
    /// From |x| ≥ 2³⁰ on, x is first replaced by its exact remainder modulo the double nearest 2π
    /// (`truncatingRemainder`, IEEE fmod: exact, so the same bits everywhere): the phase is then off
    /// by up to |x|·2⁻⁵² rad, so the result means nothing physical, but it stays a sine and cosine
    /// in [−1, 1], deterministic, and never traps. Only a spring driven absurdly far gets there (a
    /// damping ratio of 10⁻²⁰ stretched over a fraction of a second, say). A NaN or infinite x
    /// gives a NaN r (the kernels then give NaN).
    @inline(__always)
    static func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
        let x = abs(x) < 0x1p30 ? x : remainderModuloTwoPi(x)
        let k = roundedQuotient(x, by: 1.5707963267948966, reciprocal: inversePio2)
        let r = ((x - k * pio2Hi) - k * pio2Mid) - k * pio2Lo
        // |k| < 2³⁰ here, so Int(k) exists; a NaN k (from a NaN or infinite x) gives quadrant 0.
        let q = k.isNaN ? 0 : Int(k) & 3
        return (r, q)
    }

    /// (r − r³/3! + r⁵/5! − … − r¹⁹/19!, 1 − r²/2! + r⁴/4! − … + r¹⁸/18!) (see the type's
    /// comment for where they stop): the sine series in lane 0 and the cosine series in lane 1,
    /// term n of each the one before times −r²/((2n)(2n + 1)) or −r²/((2n − 1)(2n)). Lane by lane
    /// the same operations in the same order as the scalar loops, so the same bits, with one
    /// two-lane division per step instead of two.
    @inline(__always)
    static func sinCosKernels(_ r: Double) -> SIMD2<Double> {
        let minusR2 = SIMD2(repeating: -(r * r))
        var term = SIMD2(r, 1)
        var sum = term
        for i in 1...9 {
            let n = Double(i)
            let sinDivisor: Double = (2 * n) * (2 * n + 1)
            let cosDivisor: Double = (2 * n - 1) * (2 * n)
            term *= minusR2 / SIMD2<Double>(sinDivisor, cosDivisor)
            sum += term
        }
        return sum
    }

    /// r − r³/3! + r⁵/5! − … − r¹⁹/19! (`sinCosKernels`' lane 0).
    @inline(__always)
    static func sinKernel(_ r: Double) -> Double { sinCosKernels(r)[0] }

    /// 1 − r²/2! + r⁴/4! − … + r¹⁸/18! (`sinCosKernels`' lane 1).
    @inline(__always)
    static func cosKernel(_ r: Double) -> Double { sinCosKernels(r)[1] }

    /// sin x (x in radians, |x| < 1e6).
    public static func sin(_ x: Double) -> Double {
        let (r, q) = reduce(x)
        switch q {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    /// cos x (x in radians, |x| < 1e6).
    public static func cos(_ x: Double) -> Double {
        let (r, q) = reduce(x)
        switch q {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// (sin x, cos x) with one argument reduction: the same bits as `sin(x)` and `cos(x)`.
    public static func sinAndCos(_ x: Double) -> (sin: Double, cos: Double) {
        let (r, q) = reduce(x)
        let kernels = sinCosKernels(r)
        let s = kernels[0]
        let c = kernels[1]
        switch q {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }
}

/// What `DeterministicMath.expSeries` computes with: `Double`, or `DeterministicMath.Lanes` lane by
/// lane (a lane's × and + are the scalar IEEE 754 operations).
protocol SeriesArithmetic {
    /// `x` (in every lane).
    static func splat(_ x: Double) -> Self
    static func * (a: Self, b: Self) -> Self
    static func + (a: Self, b: Self) -> Self
}

extension Double: SeriesArithmetic {
    @inline(__always) static func splat(_ x: Double) -> Double { x }
}

extension SIMD4: SeriesArithmetic where Scalar == Double {
    @inline(__always) static func splat(_ x: Double) -> SIMD4<Double> { SIMD4(repeating: x) }
}
