/// The scroll view's own motion after its pan ends, for systems that drive a `ScrollViewModel`
/// directly (LNPopup): floatingpanel-core.md §9 O7 — deceleration from inside the range with the
/// per-frame factor q = r^(1000·h), or a return to the edge at the next frame when released beyond
/// it. The same formulas as FloatingPanel's `PanelCore.stepDeceleration` / `endScrollPan`, which keep
/// their own copy so that FloatingPanel's per-frame path (and its goldens) stay untouched.
extension ScrollViewModel {
    /// True while the offset decelerates or returns to an edge.
    var isMoving: Bool { isDecelerating || returnsToEdge }

    /// The pan ended at `now` µs with finger velocity `velocity` (pt/s along `position`'s axis, + =
    /// toward larger container coordinates): decelerate, or return to the edge (O7). A zero velocity
    /// inside the range leaves the offset where it is.
    mutating func endDrag(velocity: Double, now: Microseconds, frameRate: Int, _ position: PanelPosition) {
        let (lo, hi) = range(position)
        let offset = mainOffset(position)
        rawOffset = offset
        if offset < lo || offset > hi {
            returnsToEdge = true; decelerationStart = now
        } else if velocity != 0 {
            isDecelerating = true; decelerationVelocity = -velocity; decelerationStart = now
            decelerationLambda = 1000 * DeterministicMath.log(decelerationRate)
            decelerationQ = DeterministicMath.exp(decelerationLambda * (1 / Double(frameRate)))
        }
    }

    /// One frame of O7 at `frameTime` µs (only frames strictly after the start step); `pixel` is the
    /// stop threshold (pt, one display pixel).
    mutating func stepMotion(frameTime: Microseconds, pixel: Double, _ position: PanelPosition) {
        guard isMoving, decelerationStart < frameTime else { return }
        let (lo, hi) = range(position)
        if returnsToEdge {
            setMainOffset(min(max(mainOffset(position), lo), hi), position)
            return
        }
        let q = decelerationQ, lambda = decelerationLambda, w = decelerationVelocity, start = decelerationStart
        let delta = w * (q - 1) / lambda
        var next = mainOffset(position) + delta
        var stop = abs(delta) < pixel
        if next < lo || next > hi { next = min(max(next, lo), hi); stop = true }
        setMainOffset(next, position)
        if !stop { isDecelerating = true; decelerationVelocity = w * q; decelerationStart = start }
    }

    /// A touch-down inside the scroll view stops its motion (O7's tap-to-stop).
    mutating func stopMotion() {
        isDecelerating = false; returnsToEdge = false; decelerationVelocity = 0
    }
}
