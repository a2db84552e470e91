/// A damped harmonic oscillator released at displacement d₀ from its target with velocity v₀, in
/// closed form: what `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)` animates
/// in real time (uisheet.md §3.5: the sheet spring).
///
/// With ω = 2π / response and τ the seconds since the start:
/// * ζ = 1: d(τ) = (d₀ + (v₀ + ω d₀) τ) e^(−ωτ); ḋ(τ) = (v₀ − ω (v₀ + ω d₀) τ) e^(−ωτ);
/// * ζ < 1: ω_d = ω √(1 − ζ²), a = (v₀ + ζ ω d₀) / ω_d; d(τ) = e^(−ζωτ) (d₀ cos ω_d τ + a sin ω_d τ);
/// * ζ > 1: r₁,₂ = −ω (ζ ∓ √(ζ² − 1)); d(τ) = A e^(r₁τ) + B e^(r₂τ) with A + B = d₀, r₁A + r₂B = v₀.
///
/// Units: pt and pt/s (positive downward, like container y); τ in s. Per call only + − × ÷, sqrt
/// and `DeterministicMath` exp/sin/cos run, so every platform computes the same bits (DESIGN.md).
/// Source: the closed-form solutions of m·x'' + c·x' + k·x = 0 (any mechanics text).
struct DampedSpring: Sendable, Equatable {
    /// Start displacement d₀ = start − target (pt) and initial velocity v₀ (pt/s).
    let d0: Double, v0: Double
    /// Natural angular frequency ω (rad/s) and damping ratio ζ (> 0).
    let omega: Double, zeta: Double
    private let omegaD: Double, a: Double, r1: Double, r2: Double, c1: Double, c2: Double

    /// - Parameters:
    ///   - displacement: start − target, pt.
    ///   - velocity: initial velocity, pt/s.
    ///   - response: the spring's response (period of the undamped oscillation), s (> 0). A response
    ///     below `smallestResponse` is taken as it: below about 3.5·10⁻³⁰⁸ s, ω overflows to ∞ and
    ///     every value becomes NaN, while from 10⁻¹² s on the spring is at rest after its first
    ///     frame either way.
    ///   - dampingRatio: ζ > 0.
    /// The least response the spring takes (s): see `init`.
    static let smallestResponse = 1e-12

    init(displacement: Double, velocity: Double, response: Double, dampingRatio: Double) {
        d0 = displacement
        v0 = velocity
        let w = 2 * Double.pi / Swift.max(response, Self.smallestResponse)
        omega = w
        zeta = dampingRatio
        if dampingRatio < 1 {
            let wd = w * (1 - dampingRatio * dampingRatio).squareRoot()
            omegaD = wd
            a = (velocity + dampingRatio * w * displacement) / wd
            r1 = 0
            r2 = 0
            c1 = 0
            c2 = 0
        } else if dampingRatio > 1 {
            let s = (dampingRatio * dampingRatio - 1).squareRoot()
            let p = -w * (dampingRatio - s)
            let q = -w * (dampingRatio + s)
            r1 = p
            r2 = q
            c1 = (velocity - q * displacement) / (p - q)
            c2 = displacement - c1
            omegaD = 0
            a = 0
        } else {
            omegaD = 0
            a = 0
            r1 = 0
            r2 = 0
            c1 = 0
            c2 = 0
        }
    }

    /// Displacement from the target (pt) and its velocity (pt/s) `tau` s after the start (τ ≥ 0):
    /// lane 0 of `state(at:)` of lanes, whose every lane has the bits of these formulas evaluated
    /// alone (the sheet evaluates four frames at once; a single time is rare: a completion, a fade).
    func state(at tau: Double) -> (displacement: Double, velocity: Double) {
        let lanes = state(at: DeterministicMath.Lanes(repeating: tau))
        return (lanes.displacement[0], lanes.velocity[0])
    }
}

extension DampedSpring {
    /// Displacements (pt) and velocities (pt/s) at four times (s, each ≥ 0) after the start, by the
    /// formulas of the type's comment, each lane with `DeterministicMath`'s lane functions, which
    /// give every lane the bits of the scalar functions (`FourFrameCurveTests` checks the formulas
    /// against a scalar evaluation).
    @inline(__always)
    func state(at tau: DeterministicMath.Lanes) -> (
        displacement: DeterministicMath.Lanes, velocity: DeterministicMath.Lanes
    ) {
        if zeta == 1 {
            let e = DeterministicMath.exp(-omega * tau)
            let b = v0 + omega * d0
            return ((d0 + b * tau) * e, (v0 - omega * b * tau) * e)
        }
        if zeta < 1 {
            let e = DeterministicMath.exp(-zeta * omega * tau)
            let (s, c) = DeterministicMath.sinAndCos(omegaD * tau)
            let x = d0 * c + a * s
            return (e * x, e * (-zeta * omega * x + omegaD * (a * c - d0 * s)))
        }
        let e1 = DeterministicMath.exp(r1 * tau)
        let e2 = DeterministicMath.exp(r2 * tau)
        return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
    }
}
