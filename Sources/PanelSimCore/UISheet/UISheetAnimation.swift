/// The sheet's animation (uisheet.md §3.5), the dismissal permission (§3.6 item 1, U13) and
/// user-driven selection (§3.2, §3.8 item 5, §3.11).

/// A running sheet animation (§3.5): the spring toward `target`, started at `start` (an exact
/// replay instant: the spring is evaluated at each frame's exact time, k / frameRate).
struct SheetAnimation: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A settle, programmatic change, keyboard move or presentation: rest at the target.
        case settle
        /// An interactive dismissal (swipe, dimming tap, grabber): `didDismiss` at completion.
        case dismissal
        /// `dismiss(animated: true)`: no records; touches are ignored meanwhile.
        case programmaticDismissal
    }
    let start: ReplayInstant
    let target: Double
    let spring: DampedSpring
    let kind: Kind
    /// Ease-in-out over `easeDuration` s instead of the spring (U24 option `keyboard`); 0 = spring.
    let easeDuration: Double

    /// Displacement from the target (pt) and velocity (pt/s) at `time` on `timebase`'s clock.
    func state(at time: ReplayInstant, _ timebase: ReplayTimebase) -> (displacement: Double, velocity: Double) {
        let tau = max(timebase.seconds(from: start, to: time), 0)
        if easeDuration > 0 {
            if tau >= easeDuration { return (0, 0) }
            let p = tau / easeDuration
            // Smoothstep (cubic ease-in-out): s = 3p² − 2p³.
            let s = p * p * (3 - 2 * p)
            let ds = 6 * p * (1 - p) / easeDuration
            return (spring.d0 * (1 - s), -spring.d0 * ds)
        }
        return spring.state(at: tau)
    }

    /// `state(at: timebase.frame(k), timebase)` for the four frames k = `index` … `index` + 3, with
    /// its bits in every lane.
    @inline(__always)
    func states(fromFrame index: Int, _ timebase: ReplayTimebase) -> (
        displacement: DeterministicMath.Lanes, velocity: DeterministicMath.Lanes
    ) {
        if easeDuration > 0 {
            var d = DeterministicMath.Lanes(), v = DeterministicMath.Lanes()
            for lane in 0..<4 { (d[lane], v[lane]) = state(at: timebase.frame(index &+ lane), timebase) }
            return (d, v)
        }
        let elapsed = timebase.seconds(from: start, toFramesFrom: index)
        // max(elapsed, 0) lane by lane: 0 for −0 and below, NaN kept, as `Swift.max` gives.
        return spring.state(at: elapsed.replacing(with: 0, where: elapsed .<= 0))
    }
}

extension SheetAnimation {
    /// True when the spring counts as at rest: |displacement| < 0.1 pt and |velocity| < 5 pt/s, at
    /// the first such frame the animation completes (uisheet.md §3.5 Completion, [UNSURE] U11; S8).
    @inline(__always)
    static func isAtRest(displacement: Double, velocity: Double) -> Bool {
        abs(displacement) < 0.1 && abs(velocity) < 5
    }
}

extension UISheetSystem {
    /// The sheet's on-screen offset at `time` (pt).
    @inline(__always)
    func displayed(at time: ReplayInstant) -> Double {
        guard let a = animation else { return modelY }
        return a.target + a.state(at: time, timebase).displacement
    }

    /// The running animation's velocity now (pt/s, 0 without one).
    var currentVelocity: Double { animation?.state(at: instant, timebase).velocity ?? 0 }

    // MARK: Animation (§3.5)

    mutating func animate(
        to target: Double, velocity: Double, dampingRatio: Double? = nil,
        kind: SheetAnimation.Kind = .settle, ease: Double = 0
    ) {
        let y = displayed(at: instant)
        let spring = DampedSpring(
            displacement: y - target, velocity: velocity, response: options.springResponse,
            dampingRatio: dampingRatio ?? options.dampingRatio)
        animation = SheetAnimation(start: instant, target: target, spring: spring, kind: kind, easeDuration: ease)
        modelY = target
        fade = nil
    }

    /// Moves to `target` without animation; a move to another offset ends a dimming fade (§3.8
    /// item 6).
    mutating func jump(to target: Double) {
        if animation != nil || target != modelY { fade = nil }
        animation = nil
        modelY = target
    }

    /// Stops the running animation where it is displayed (U26).
    mutating func stopAnimation() {
        guard animation != nil else { return }
        modelY = displayed(at: instant)
        animation = nil
    }

    mutating func complete(_ a: SheetAnimation) {
        animation = nil
        modelY = a.target
        switch a.kind {
        case .settle: break
        case .dismissal:
            endPresentation()
            emit("didDismiss")
        case .programmaticDismissal:
            endPresentation()
        }
    }

    mutating func endPresentation() {
        presented = false
        fade = nil
        modelY = geometry.height
        keyboardUp = false
        if route != nil { route = .ignored }
        sheetDragging = false
    }

    var programmaticDismissalRunning: Bool { animation?.kind == .programmaticDismissal }

    /// The sheet animates to H for a dismissal, interactive or programmatic. Nothing but a pan that
    /// catches an interactive one (U26) turns it back: programmatic changes, the keyboard and
    /// container changes leave it running (an environment change re-targets it to the new H), and
    /// dimming and grabber taps are not accepted (docs/uisheet.md).
    var dismissalRunning: Bool { animation?.kind == .dismissal || animation?.kind == .programmaticDismissal }

    // MARK: Permission (§3.6 item 1, U13)

    /// Asks whether the sheet may be dismissed; writes `shouldDismiss` when the delegate implements
    /// it. Modal: refused without asking.
    mutating func askPermission() -> Bool {
        let allowed: Bool
        if sheet.isModalInPresentation {
            allowed = false
        } else {
            switch sheet.shouldDismiss {
            case .default: allowed = true
            case .always:
                allowed = true
                emit("shouldDismiss", [RecordField("result", .bool(true))])
            case .never:
                allowed = false
                emit("shouldDismiss", [RecordField("result", .bool(false))])
            }
        }
        dismissible = allowed
        return allowed
    }

    /// A user-driven selection (§3.2): a record when the shown detent changes.
    mutating func userSelect(_ identifier: String) {
        guard identifier != shownDetent?.identifier else { return }
        sheet.selectedDetentIdentifier = identifier
        emit("didChangeSelectedDetentIdentifier", [RecordField("identifier", .string(identifier))])
    }

    /// An accepted dimming tap (§3.8 item 5) or a grabber tap on a single detent (§3.11).
    mutating func acceptedDismissTap(selectUndimmed: Bool) {
        let v0 = currentVelocity
        if askPermission() {
            emit("willDismiss")
            animate(to: geometry.height, velocity: v0, kind: .dismissal)
        } else if selectUndimmed, let i = geometry.index(of: sheet.largestUndimmedDetentIdentifier) {
            userSelect(geometry.detents[i].identifier)
            animate(to: restOffset, velocity: v0)
        }
    }
}
