import XCTest
@testable import PanelSimCore

/// `DeterministicMath.exp`, `sin`, `cos` and `sinAndCos` end their series at the first term that
/// leaves the sum unchanged and round with an addition instead of `rounded(.toNearestOrEven)`;
/// the curves skip a term that cannot change their result. Each must give the bits of the plain
/// formulas below (full-length series, libm-free but call-for-call as written), on every input.
final class DeterministicMathTests: XCTestCase {
    // MARK: Plain formulas (full-length series)

    private enum Plain {
        static func exp(_ x: Double) -> Double {
            if x.isNaN { return x }
            if x > 709.8 { return .infinity }
            if x < -745.2 { return 0 }
            let k = (x / DeterministicMath.ln2).rounded(.toNearestOrEven)
            let r = (x - k * DeterministicMath.ln2Hi) - k * DeterministicMath.ln2Lo
            var term = 1.0
            var sum = 1.0
            for i in 1...27 {
                term *= r / Double(i)
                sum += term
            }
            return DeterministicMath.scale(sum, by: Int(k))
        }

        static func reduce(_ x: Double) -> (Double, Int) {
            let k = (x / 1.5707963267948966).rounded(.toNearestOrEven)
            return (
                ((x - k * DeterministicMath.pio2Hi) - k * DeterministicMath.pio2Mid) - k * DeterministicMath.pio2Lo,
                Int(k) & 3
            )
        }

        static func sinKernel(_ r: Double) -> Double {
            let r2 = r * r
            var term = r
            var sum = r
            var i = 1.0
            for _ in 0..<12 {
                term *= -r2 / ((2 * i) * (2 * i + 1))
                sum += term
                i += 1
            }
            return sum
        }

        static func cosKernel(_ r: Double) -> Double {
            let r2 = r * r
            var term = 1.0
            var sum = 1.0
            var i = 1.0
            for _ in 0..<12 {
                term *= -r2 / ((2 * i - 1) * (2 * i))
                sum += term
                i += 1
            }
            return sum
        }

        static func sin(_ x: Double) -> Double {
            let (r, q) = reduce(x)
            return [sinKernel(r), cosKernel(r), -sinKernel(r), -cosKernel(r)][q]
        }

        static func cos(_ x: Double) -> Double {
            let (r, q) = reduce(x)
            return [cosKernel(r), -sinKernel(r), -cosKernel(r), sinKernel(r)][q]
        }

        /// `SpringStepResponse.x` term for term.
        static func stepResponse(zeta: Double, _ u: Double) -> Double {
            if zeta > 1 {
                let s = (zeta * zeta - 1).squareRoot()
                let a = zeta - s
                let b = zeta + s
                let amplitude = b / (b - a)
                return amplitude * exp(-a * u) - (amplitude - 1) * exp(-b * u)
            } else if zeta == 1 {
                return (1 + u) * exp(-u)
            }
            let beta = (1 - zeta * zeta).squareRoot()
            return exp(-zeta * u) * (cos(beta * u) + (zeta / beta) * sin(beta * u))
        }
    }

    private func assertSameBits(
        _ a: Double, _ b: Double, _ what: @autoclosure () -> String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        if a.bitPattern != b.bitPattern && !(a.isNaN && b.isNaN) {
            XCTFail(
                "\(what()): \(a) (\(String(a.bitPattern, radix: 16))) ≠ \(b) (\(String(b.bitPattern, radix: 16)))",
                file: file, line: line)
        }
    }

    /// Inputs: special values, values around the reduction's half-way points and range limits,
    /// and seeded random values across the range, dense near 0.
    private func inputs(range: Double, halfStep: Double, count: Int) -> [Double] {
        var xs: [Double] = [
            0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude, 1e-300, -1e-300, 1e-17, -1e-17, 1e-8, -1e-8, 0.5, -0.5, 1, -1,
        ]
        // Where a quotient of the series (r/n, r²/d) or r² itself is subnormal or near it.
        for m in [0.5, 1, 2, 3, 5, 6, 12, 15, 16, 30, 31] {
            xs += [m * .leastNormalMagnitude, -m * .leastNormalMagnitude]
            let root = (m * .leastNormalMagnitude).squareRoot()
            xs += [root, -root, root.nextUp, root.nextDown, 4 * root, -4 * root]
        }
        for k in -40...40 {
            let m = Double(k) * halfStep
            for d in [0.0, 1e-15, -1e-15, 1e-9, -1e-9] {
                xs.append(m + d)
                xs.append(m.nextUp + d)
                xs.append(m.nextDown + d)
            }
        }
        for edge in [709.8, -745.2, 709.78, -745.13, -708.4, -708.39, 1e6 - 1, -1e6 + 1] where abs(edge) <= range {
            xs += [edge, edge.nextUp, edge.nextDown]
        }
        var generator = SystemRandomNumberGeneratorSeeded(seed: 0x5EED_0F_E4)
        for i in 0..<count {
            let unit = Double(generator.next() >> 11) / Double(1 << 53)
            let scale = [range, 10, 1, 1e-3, 1e-6][i % 5]
            xs.append((unit * 2 - 1) * scale)
        }
        return xs
    }

    func testExpMatchesTheFullSeriesBitForBit() {
        for x in inputs(range: 750, halfStep: DeterministicMath.ln2 / 2, count: 200_000) {
            assertSameBits(DeterministicMath.exp(x), Plain.exp(x), "exp(\(x))")
        }
    }

    func testSinCosMatchTheFullSeriesBitForBit() {
        for x in inputs(range: 1e6, halfStep: Double.pi / 4, count: 200_000) where !x.isNaN && x.isFinite {
            let s = DeterministicMath.sin(x)
            let c = DeterministicMath.cos(x)
            let both = DeterministicMath.sinAndCos(x)
            assertSameBits(s, Plain.sin(x), "sin(\(x))")
            assertSameBits(c, Plain.cos(x), "cos(\(x))")
            assertSameBits(both.sin, s, "sinAndCos(\(x)).sin")
            assertSameBits(both.cos, c, "sinAndCos(\(x)).cos")
        }
    }

    /// Groups of four consecutive inputs, then each input beside three others drawn from the list
    /// (so that a lane leaving the common path shares a call with lanes on it), as lanes.
    private func laneGroups(_ xs: [Double]) -> [DeterministicMath.Lanes] {
        var groups: [DeterministicMath.Lanes] = []
        var i = 0
        while i + 4 <= xs.count {
            groups.append(DeterministicMath.Lanes(xs[i], xs[i + 1], xs[i + 2], xs[i + 3]))
            i += 4
        }
        var generator = SystemRandomNumberGeneratorSeeded(seed: 0x1A7E5)
        for x in xs.prefix(2_000) {
            var lanes = DeterministicMath.Lanes(repeating: 0)
            for j in 0..<4 { lanes[j] = xs[Int(generator.next() % UInt64(xs.count))] }
            lanes[Int(generator.next() % 4)] = x
            groups.append(lanes)
        }
        return groups
    }

    func testExpOfLanesMatchesTheScalarBitForBit() {
        // Also frame-like arguments: −a·u over consecutive frames, the curves' common case.
        var xs = inputs(range: 750, halfStep: DeterministicMath.ln2 / 2, count: 100_000)
        for k in 0..<4_000 { xs.append(-0.21 * Double(k) / 120) }
        var common = 0
        for lanes in laneGroups(xs) {
            let y = DeterministicMath.exp(lanes)
            for j in 0..<4 { assertSameBits(y[j], DeterministicMath.exp(lanes[j]), "exp lane \(j) of \(lanes)") }
            if lanes.min() >= -690 && lanes.max() <= 690 { common += 1 }
        }
        // Most groups take the four-lane path (the test would pass vacuously on the scalar one).
        XCTAssertGreaterThan(common, 20_000)
    }

    func testSinAndCosOfLanesMatchTheScalarBitForBit() {
        var xs = inputs(range: 1e6, halfStep: Double.pi / 4, count: 100_000)
        xs += [0x1p30, -0x1p30, 1e300, .infinity, -.infinity, .nan]
        for k in 0..<4_000 { xs.append(0.93 * Double(k) / 60) }
        for lanes in laneGroups(xs) {
            let (s, c) = DeterministicMath.sinAndCos(lanes)
            for j in 0..<4 {
                let scalar = DeterministicMath.sinAndCos(lanes[j])
                assertSameBits(s[j], scalar.sin, "sin lane \(j) of \(lanes)")
                assertSameBits(c[j], scalar.cos, "cos lane \(j) of \(lanes)")
            }
        }
    }

    /// Far beyond the accurate range (|x| ≥ 2³⁰, up to the largest double) and at ±∞ and NaN, sin
    /// and cos never trap: finite arguments give values in [−1, 1] with sin² + cos² = 1 (to
    /// rounding), those of x's exact remainder modulo the double 2π; the others give NaN.
    func testSinCosOfHugeArgumentsAreBoundedAndDoNotTrap() {
        var huge: [Double] = [0x1p30, -0x1p30, 1e10, 6.9e20, -3.3e100, 1e300, .greatestFiniteMagnitude]
        var x = 0x1p30
        while x < 1e300 {
            huge.append(x * 1.37)
            huge.append(-x * 2.71)
            x *= 1e7
        }
        for x in huge {
            let (s, c) = DeterministicMath.sinAndCos(x)
            XCTAssertTrue(abs(s) <= 1 && abs(c) <= 1, "sinAndCos(\(x)) = (\(s), \(c))")
            XCTAssertEqual(s * s + c * c, 1, accuracy: 1e-14, "sinAndCos(\(x))")
            let reduced = DeterministicMath.sinAndCos(x.truncatingRemainder(dividingBy: 2 * Double.pi))
            assertSameBits(s, reduced.sin, "sin(\(x))")
            assertSameBits(c, reduced.cos, "cos(\(x))")
            assertSameBits(DeterministicMath.sin(x), s, "sin(\(x))")
            assertSameBits(DeterministicMath.cos(x), c, "cos(\(x))")
        }
        for x in [Double.infinity, -.infinity, .nan] {
            let (s, c) = DeterministicMath.sinAndCos(x)
            XCTAssertTrue(s.isNaN && c.isNaN, "sinAndCos(\(x)) = (\(s), \(c))")
        }
    }

    /// Over every frame a 60 or 120 Hz animation of 0.4–0.5 s evaluates, for the damping ratios the
    /// systems use (and a few more, the skipped fast term of ζ > 1 among them).
    func testStepResponseMatchesTheFormulaBitForBit() {
        for zeta in [0.3, 0.8, 0.87, 0.999, 1, 1.0001, 1.5, SpringStepResponse.systemSpringDampingRatio, 12, 500, 1e5] {
            let response = SpringStepResponse(dampingRatio: zeta)
            for duration in [0.4, 0.5, 0.25] {
                let uPerSecond = response.settlingU / duration
                for rate in [60, 120] {
                    var k = 0
                    while true {
                        let t = Double(frameTime(k, frameRate: rate) + 4_167) / 1_000_000
                        if t >= duration { break }
                        let u = t * uPerSecond
                        assertSameBits(response.x(u), Plain.stepResponse(zeta: zeta, u), "x(\(u)), ζ = \(zeta)")
                        k += 1
                    }
                }
            }
            for u in stride(from: 0.0, through: response.settlingU, by: response.settlingU / 5000) {
                assertSameBits(response.x(u), Plain.stepResponse(zeta: zeta, u), "x(\(u)), ζ = \(zeta)")
            }
        }
    }

    /// `AnimatorTiming.completionDelay` finds once the least tick count an animator must run; the
    /// per-frame comparison with it must agree with t_k > t_s and (t_k − t_s)/tps ≥ D − 10⁻⁹ for
    /// every duration and time, in µs (tps 10⁶) and in a 120 Hz replay's ticks (tps 1.2·10⁸).
    func testAnimatorCompletionMatchesTheFormula() {
        var durations: [Double] = [
            0, -1, 1e-10, 1e-9, 1.5e-9, 1e-6, 1e-6 + 1e-9, 0.4, 0.5, 0.25, 1.0 / 3, 2.5, 1e7, 1e13, .infinity, .nan,
        ]
        var generator = SystemRandomNumberGeneratorSeeded(seed: 42)
        for _ in 0..<300 { durations.append(Double(generator.next() % 5_000_000) / 1_000_000 * 0.4 / 0.3) }
        for tps: Int64 in [1_000_000, 120_000_000] {
            let scale = Double(tps)
            for d in durations {
                let delay = AnimatorTiming.completionDelay(d, ticksPerSecond: tps)
                let target = d - 1e-9
                let estimate = target.isFinite && abs(target) < 1e9 ? Int64((target * scale).rounded()) : 1_000
                var deltas: [Int64] = [-1, 0, 1, 2, 3, 1_000, 16_667, 400_000, 500_000, 1 << 40]
                for k in -3...3 { deltas.append(estimate + Int64(k)) }
                for delta in deltas {
                    for start: Int64 in [0, 4_167, 123_456_789] {
                        let time = start + delta
                        let formula = time > start && Double(time - start) / scale >= d - 1e-9
                        XCTAssertEqual(
                            time > start && time - start >= delay, formula,
                            "duration \(d), Δ \(delta) ticks of 1/\(tps) s")
                    }
                }
            }
        }
    }

    /// The reciprocals the reductions multiply by are the doubles nearest 1/ln 2 and 2/π as the
    /// quotients of the doubles.
    func testReductionReciprocals() {
        XCTAssertEqual(DeterministicMath.inverseLn2, 1 / DeterministicMath.ln2)
        XCTAssertEqual(DeterministicMath.inversePio2, 1 / 1.5707963267948966)
    }

    /// The skip of ζ > 1's fast term does happen (else the test above would not cover it).
    func testFastTermIsSkippedForMostOfTheSystemSpring() {
        let response = SpringStepResponse(dampingRatio: SpringStepResponse.systemSpringDampingRatio)
        XCTAssertLessThan(response.fastTermNegligibleFrom, response.settlingU / 10)
        XCTAssertEqual(SpringStepResponse(dampingRatio: 1).fastTermNegligibleFrom, .infinity)
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a seeded generator so the random inputs are the same
/// on every run.
private struct SystemRandomNumberGeneratorSeeded: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
