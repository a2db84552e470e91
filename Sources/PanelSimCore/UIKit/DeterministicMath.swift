/// Elementary functions written in Swift so that every platform computes the same bits
/// (DESIGN.md: nothing from the platform's libm reaches a result). They run once per animation,
/// never per frame. Accuracy: a few ulps over the ranges used here (tested against known values).
public enum DeterministicMath {
    /// ln 2 split for Cody–Waite reduction: hi has trailing zero bits so k·hi is exact for |k| < 2^11.
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10
    static let ln2 = 0.6931471805599453

    /// Natural logarithm of x > 0; NaN for x ≤ 0 or NaN, +∞ for +∞.
    public static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == .infinity ? .infinity : .nan }
        var e = Double(Int(x.exponent))
        var m = x.significand // [1, 2)
        if m > 1.4142135623730951 { m /= 2; e += 1 }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        // atanh(s) = s·(1 + s²/3 + s⁴/5 + …); |s| ≤ 0.1716, 24 terms are far past double precision.
        var term = 1.0, sum = 0.0
        var n = 1.0
        for _ in 0..<24 { sum += term / n; term *= s2; n += 2 }
        return e * ln2Hi + (e * ln2Lo + 2 * s * sum)
    }

    /// e^x.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.8 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x / ln2).rounded(.toNearestOrEven)
        let r = (x - k * ln2Hi) - k * ln2Lo // |r| ≤ 0.347
        var term = 1.0, sum = 1.0
        for i in 1...27 { term *= r / Double(i); sum += term }
        return scale(sum, by: Int(k))
    }

    /// sum · 2^k without overflow in intermediate steps.
    static func scale(_ v: Double, by k: Int) -> Double {
        var result = v, k = k
        while k > 1000 { result *= Double(sign: .plus, exponent: 1000, significand: 1); k -= 1000 }
        while k < -1000 { result *= Double(sign: .plus, exponent: -1000, significand: 1); k += 1000 }
        return result * Double(sign: .plus, exponent: k, significand: 1)
    }

    /// π/2 split in three parts for argument reduction (fdlibm's pio2_1, pio2_1t-style split).
    static let pio2Hi = 1.57079632673412561417e+00
    static let pio2Mid = 6.07710050650619224932e-11
    static let pio2Lo = 2.02226624879595063154e-21

    /// Reduces x to r ∈ [−π/4, π/4] and the quadrant q with x ≈ q·π/2 + r. Accurate for |x| < 1e6.
    static func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
        let k = (x / 1.5707963267948966).rounded(.toNearestOrEven)
        let r = ((x - k * pio2Hi) - k * pio2Mid) - k * pio2Lo
        let q = Int(k) & 3
        return (r, q)
    }

    static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = r, sum = r
        var i = 1.0
        for _ in 0..<12 { term *= -r2 / ((2 * i) * (2 * i + 1)); sum += term; i += 1 }
        return sum
    }

    static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var term = 1.0, sum = 1.0
        var i = 1.0
        for _ in 0..<12 { term *= -r2 / ((2 * i - 1) * (2 * i)); sum += term; i += 1 }
        return sum
    }

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
}
