/// The dimming fade of uisheet.md §3.8 item 6: a change of the dimming fraction made inside
/// `animateChanges` (`setLargestUndimmedDetent`, `setDetents`) while the sheet does not move.

/// A running dimming fade: the displayed fraction goes from `from` to `to` along the progress of
/// the ζ = 1 sheet spring on a unit distance, started at `start` (an exact replay instant: the fade
/// is evaluated at each frame's exact time, k / frameRate, DESIGN.md).
///
/// Value at τ = t − start (s): from + (to − from)·P(τ), P(τ) = 1 − (1 + ωτ)e^(−ωτ), ω = 2π / the
/// sheet spring's response (§3.5, U10; `sheet.simulator.springResponse`). Once 1 − P < 10⁻³ the
/// value is `to` exactly and the fade is over. Fractions are 0…1 (unitless). The exponential is
/// `DeterministicMath.exp` through `DampedSpring` (d₀ = 1, v₀ = 0, ζ = 1, whose displacement is
/// 1 − P): one evaluation per frame, O(1).
struct DimmingFade: Sendable, Equatable {
    let start: ReplayInstant
    let from: Double, to: Double
    /// The unit spring: its displacement at τ is 1 − P(τ).
    let unit: DampedSpring

    /// §3.8 item 6: the fade stops when the remaining progress 1 − P falls below this.
    static let remainingProgressThreshold = 1e-3

    init(start: ReplayInstant, from: Double, to: Double, springResponse: Double) {
        self.start = start
        self.from = from
        self.to = to
        unit = DampedSpring(displacement: 1, velocity: 0, response: springResponse, dampingRatio: 1)
    }

    /// The displayed fraction at `time` on `timebase`'s clock and whether the fade is over then.
    func value(at time: ReplayInstant, _ timebase: ReplayTimebase) -> (fraction: Double, done: Bool) {
        let tau = max(timebase.seconds(from: start, to: time), 0)
        let remaining = unit.state(at: tau).displacement
        if remaining < Self.remainingProgressThreshold { return (to, true) }
        return (from + (to - from) * (1 - remaining), false)
    }
}

extension UISheetSystem {
    /// The dimming fraction shown at `time` with the sheet displayed at `y`: the running fade's
    /// value, else the fraction of §3.8 item 2. Touch routing and the dimming tap use this value
    /// (§3.8 item 6).
    @inline(__always)
    func shownDimming(at y: Double, time: ReplayInstant) -> Double {
        if let fade { return fade.value(at: time, timebase).fraction }
        return dimming(at: y)
    }

    /// The fraction the dimming is heading for: the running fade's end value, else item 2's.
    var dimmingTarget: Double { fade?.to ?? dimming(at: displayed(at: instant)) }

    /// After `setLargestUndimmedDetent` or `setDetents` changed the dimming rule (§3.8 item 6):
    /// `shown` and `target` are the displayed fraction and `dimmingTarget` just before the change.
    /// Inside `animateChanges`, with the sheet still (no animation, no drag), a changed target
    /// fades from the displayed fraction; an unchanged target keeps a running fade. Outside
    /// `animateChanges`, or while the sheet moves, the new fraction holds at once (S1).
    mutating func dimmingRuleChanged(shown: Double, target: Double, animateChanges: Bool) {
        guard animateChanges, presented, animation == nil, !sheetDragging else {
            fade = nil
            return
        }
        let newTarget = dimming(at: modelY)
        if newTarget == target { return }
        fade =
            shown == newTarget
            ? nil
            : DimmingFade(start: instant, from: shown, to: newTarget, springResponse: options.springResponse)
    }
}
