/// FloatingPanel's attraction spring (`NumericSpringAnimator`, FloatingPanel `Core.swift`):
/// implicit-Euler "numeric springing" (Allen Chou) stepped once per display frame, with
/// FloatingPanel's order of updates (the velocity update uses the new position, a shipped quirk).
///
/// Values are in the attraction constraint's space (pt along the main axis, a constant shift of the
/// surface location, floatingpanel-core.md §4.6). Velocity in pt/s, sign = increasing coordinate.
public struct NumericSpring: Sendable, Equatable {
    /// Current value x (pt) and velocity v (pt/s).
    public private(set) var value: Double
    public private(set) var velocity: Double
    /// The value the spring started from (pt), for the backdrop's translation.
    public let initialValue: Double
    /// Target xt (pt).
    public let target: Double
    /// Damping ratio ζ and angular frequency ω (rad/s).
    public let dampingRatio: Double
    public let angularFrequency: Double
    /// Step h = 1/frameRate (s) and the settle threshold 1/displayScale (pt).
    public let step: Double
    public let pixel: Double
    /// The terms of `advance()` that do not change between frames, computed once from h, ζ, ω and xt
    /// with the same operations in the same order as the per-frame formulas group them, so each step
    /// gives the same bits as recomputing them would: fFactor = 1 + 2·h·ζ·ω (not the frequency 1/T),
    /// det = fFactor + (h·h)·(ω·ω), hOmega2 = h·(ω·ω), h2Omega2Target = ((h·h)·(ω·ω))·xt.
    private let fFactor: Double, det: Double, hOmega2: Double, h2Omega2Target: Double

    /// Builds the spring as FloatingPanel's `startAttraction` does.
    /// - Parameters:
    ///   - value: start constant x0 (pt); velocity: initial velocity v0 (pt/s); target: xt (pt).
    ///   - decelerationRate: `springDecelerationRate` r (per ms); ζ = ln r / (−2π·f·0.001) when
    ///     |v0| > 300 pt/s, else ζ = 1 (FloatingPanel `Core.startAttraction`).
    ///   - responseTime: `springResponseTime` T (s); f = 1/T, ω = 2πf.
    ///   - frameRate: display-link rate (Hz); displayScale: pixels per pt.
    public init(
        value: Double, velocity: Double, target: Double, decelerationRate: Double,
        responseTime: Double, frameRate: Int, displayScale: Double
    ) {
        self.init(
            value: value, velocity: velocity, target: target,
            logDecelerationRate: abs(velocity) > 300 ? DeterministicMath.log(decelerationRate) : 0,
            responseTime: responseTime, frameRate: frameRate, displayScale: displayScale)
    }

    /// The same spring from ln r (`DeterministicMath.log(decelerationRate)`), for a caller that
    /// keeps it: the logarithm's series is most of a release's arithmetic. Read only when
    /// |v0| > 300 pt/s.
    init(
        value: Double, velocity: Double, target: Double, logDecelerationRate: Double,
        responseTime: Double, frameRate: Int, displayScale: Double
    ) {
        self.value = value
        self.velocity = velocity
        initialValue = value
        self.target = target
        let frequency = 1 / responseTime
        dampingRatio =
            abs(velocity) > 300
            ? logDecelerationRate / (((-2 * Double.pi) * frequency) * 0.001)
            : 1.0
        angularFrequency = 2 * Double.pi * frequency
        step = 1 / Double(frameRate)
        pixel = 1 / displayScale
        let h = step
        let zeta = dampingRatio
        let omega = angularFrequency
        let h2 = h * h
        let o2 = omega * omega
        fFactor = 1 + 2 * h * zeta * omega
        det = fFactor + h2 * o2
        hOmega2 = h * o2
        h2Omega2Target = h2 * o2 * target
    }

    /// Advances one frame; returns true when the spring has settled (both |xt − x| ≤ 1/scale and
    /// |Δx| ≤ 1/scale this frame, FloatingPanel's stop test, written as in the source).
    /// Per-frame arithmetic only: + − × ÷ and comparisons. With f = 1 + 2hζω and det = f + h²ω²:
    /// x ← (f·x + h·v + h²ω²·xt) / det, then v ← (v + hω²·(xt − x)) / det (the new x, a FloatingPanel
    /// quirk). The terms that do not change between frames (f, det, hω², h²ω²·xt) are computed once
    /// in `init`, grouped exactly as these formulas group them, so the result is bit for bit the
    /// same as evaluating them every frame (as the bench's bare loops write them, `BareSpring.loop`).
    @inline(__always)
    public mutating func advance() -> Bool {
        let pre = value
        value = (fFactor * value + step * velocity + h2Omega2Target) / det
        velocity = (velocity + hOmega2 * (target - value)) / det
        return abs(target - value) <= pixel && abs(pre - value) / pixel <= 1
    }
}
