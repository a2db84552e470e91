/// The UIKit spring of a `UIViewPropertyAnimator` that presents or dismisses the panel
/// (FloatingPanel `makeDefaultAnimator`: deceleration rate 0.99 → ζ = ln 0.99 / (−4π·0.001),
/// response 0.25 s), modelled per floatingpanel-core.md §9 O13: the model values take the target at
/// the start; the visible position follows the analytic damped spring and is needed only when the
/// animator is interrupted; the completion runs once the envelope falls to 0.1 %.
public struct TransitionSpring: Sendable, Equatable {
    /// Visible start and end locations (pt).
    public let from: Double
    public let to: Double
    /// Relative initial velocity (fraction of the distance per second), UIKit's convention.
    public let relativeVelocity: Double
    public let zeta: Double
    public let omega0: Double
    public let omegaD: Double
    /// Seconds from the start until the completion runs (D = ln(1000·A)/(ζω₀)).
    public let duration: Double

    public init(from: Double, to: Double, relativeVelocity: Double) {
        self.from = from
        self.to = to
        self.relativeVelocity = relativeVelocity
        let z = DeterministicMath.log(0.99) / (-4 * Double.pi * 0.001)
        let w0 = 2 * Double.pi / 0.25
        let wd = w0 * (1 - z * z).squareRoot()
        zeta = z
        omega0 = w0
        omegaD = wd
        let b = (z * w0 - relativeVelocity) / wd
        let a = (1 + b * b).squareRoot()
        duration = DeterministicMath.log(1000 * a) / (z * w0)
    }

    /// Visible location t seconds after the start (pt).
    public func location(at t: Double) -> Double {
        let decay = DeterministicMath.exp(-zeta * omega0 * t)
        let b = (zeta * omega0 - relativeVelocity) / omegaD
        let (sin, cos) = DeterministicMath.sinAndCos(omegaD * t)
        let p = 1 - decay * (cos + b * sin)
        return from + (to - from) * p
    }
}
