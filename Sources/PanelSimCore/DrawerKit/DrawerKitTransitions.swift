/// DrawerKit's transitions (drawerkit.md §3.6–§3.10): `animateTransition(to:)`, the corner-radius
/// animator, the completions, and UIKit's presentation and dismissal transitions.

/// What DrawerKit's animators move (§3.9): the presented view's y (pt), its corner radius (pt)
/// and the handle's alpha.
struct DrawerChannels: AdditiveChannels {
    var y: Double
    var cornerRadius: Double
    var handleAlpha: Double

    @inline(__always)
    func adding(_ delta: DrawerChannels, scaledBy r: Double) -> DrawerChannels {
        DrawerChannels(
            y: y + delta.y * r, cornerRadius: cornerRadius + delta.cornerRadius * r,
            handleAlpha: handleAlpha + delta.handleAlpha * r)
    }
}

/// What runs when one of DrawerKit's animators completes.
enum DrawerCompletion: Sendable, Equatable {
    /// `animateTransition(to:)`'s completion (§3.6 step 7); `endsPull`: the transition a
    /// pull-to-dismiss release started, whose completion clears the pending mark (§3.14).
    case transition(DrawerTransitionInfo, starting: DrawerPlace, ending: DrawerPlace, completion: Bool, endsPull: Bool)
    /// UIKit's presentation animator (§3.10).
    case presentation(DrawerTransitionInfo)
    /// UIKit's dismissal animator (§3.10).
    case dismissal(DrawerTransitionInfo)
    /// The corner-radius animator of §3.7; `zeroAtEnd`: set the radius to 0 on completion.
    case corner(zeroAtEnd: Bool)
}

/// `DrawerAnimationInfo` as the events write it (§2.3), with the fields of the transition's
/// events built once when it starts: the events at its start and at its completion share these
/// arrays (an array is shared, not copied). Immutable, and a reference: the animators' completions
/// and the infos a system keeps for repeated transitions (`recentTransitions`) hold it with one
/// reference count instead of copying its values and arrays. Two infos are `==` when their values
/// are.
final class DrawerTransitionInfo: Sendable, Equatable {
    let start: DrawerPlace, target: DrawerPlace, end: DrawerPlace
    let isPresenting: Bool
    let duration: Double
    let startingFrameY: Double, endingFrameY: Double
    /// The fields of `transitionWillStart` and `transitionDidFinish`.
    let fields: [RecordField]
    /// The fields of the presenting and the presented participant's events (`prepare`,
    /// `animateAlong`, `cleanup`); nil for an absent participant.
    let presentingFields: [RecordField]?, presentedFields: [RecordField]?

    /// - Parameter participants: which of the two participants take part (`DrawerConfiguration`'s
    ///   `participantPresenting`, `participantPresented`).
    init(
        start: DrawerPlace, target: DrawerPlace, end: DrawerPlace, isPresenting: Bool, duration: Double,
        startingFrameY: Double, endingFrameY: Double, participants: (presenting: Bool, presented: Bool)
    ) {
        self.start = start
        self.target = target
        self.end = end
        self.isPresenting = isPresenting
        self.duration = duration
        self.startingFrameY = startingFrameY
        self.endingFrameY = endingFrameY
        let values = [
            RecordField("startDrawerState", .string(start.name)),
            RecordField("targetDrawerState", .string(target.name)),
            RecordField("endDrawerState", .string(end.name)), RecordField("isPresenting", .bool(isPresenting)),
            RecordField("actualDurationInSeconds", .number(duration)),
            RecordField("startingFrameY", .number(startingFrameY)), RecordField("endingFrameY", .number(endingFrameY)),
        ]
        fields = values
        presentingFields = participants.presenting ? [RecordField("participant", .string("presenting"))] + values : nil
        presentedFields = participants.presented ? [RecordField("participant", .string("presented"))] + values : nil
    }

    /// True when the two infos hold the same values (their fields follow from them).
    static func == (a: DrawerTransitionInfo, b: DrawerTransitionInfo) -> Bool {
        a === b
            || (a.start == b.start && a.target == b.target && a.end == b.end && a.isPresenting == b.isPresenting
                && a.duration == b.duration && a.startingFrameY == b.startingFrameY
                && a.endingFrameY == b.endingFrameY && a.presentingFields == b.presentingFields
                && a.presentedFields == b.presentedFields)
    }
}

extension DrawerKitSystem {
    /// The participants' `DrawerAnimationActions` closure `name`, presenting first (§2.1), with
    /// the fields `info` holds.
    mutating func emitParticipants(_ name: String, _ info: DrawerTransitionInfo) {
        if let f = info.presentingFields { emit(name, f) }
        if let f = info.presentedFields { emit(name, f) }
    }

    /// A transition's info (`DrawerTransitionInfo`) for this drawer's participants: the one built
    /// before for the same values when `recentTransitions` still holds it (a drawer moves between
    /// a few resting places, so most transitions repeat one; its event fields are then shared, not
    /// built again), else a new one, kept there.
    mutating func transitionInfo(
        start: DrawerPlace, target: DrawerPlace, end: DrawerPlace, isPresenting: Bool, duration: Double,
        startingFrameY: Double, endingFrameY: Double
    ) -> DrawerTransitionInfo {
        if let known = recentTransitions.first(where: {
            $0.start == start && $0.target == target && $0.end == end && $0.isPresenting == isPresenting
                && $0.duration.bitPattern == duration.bitPattern
                && $0.startingFrameY.bitPattern == startingFrameY.bitPattern
                && $0.endingFrameY.bitPattern == endingFrameY.bitPattern
        }) {
            return known
        }
        let info = DrawerTransitionInfo(
            start: start, target: target, end: end, isPresenting: isPresenting, duration: duration,
            startingFrameY: startingFrameY, endingFrameY: endingFrameY,
            participants: (drawer.participantPresenting, drawer.participantPresented))
        if recentTransitions.count == Self.recentTransitionLimit { recentTransitions.removeFirst() }
        recentTransitions.append(info)
        return info
    }

    /// The most transitions `recentTransitions` keeps (the oldest goes first).
    static var recentTransitionLimit: Int { 12 }

    // MARK: Transitions (§3.6)

    /// The animator for a move of `distance`-defining ends y0 → y1 with the configured timing curve.
    func timing(from y0: Double, to y1: Double) -> AnimatorTiming {
        let d = geometry.duration(from: y0, to: y1)
        switch drawer.timingCurveProvider {
        case .linear: return .linear(duration: d)
        case .dampingRatio(let zeta): return .stretchedSpring(dampingRatio: zeta, duration: d)
        case .systemSpring:
            if drawer.springTiming == .physicalSpring {
                return .physicalSpring(
                    SpringStepResponse.systemSpring, naturalFrequency: SpringStepResponse.systemSpringNaturalFrequency)
            }
            return .stretchedSpring(SpringStepResponse.systemSpring, duration: d)
        }
    }

    /// `animateTransition(to:animateAlongside:completion:)`, steps 1–6; step 7 runs in `complete`.
    mutating func animateTransition(to ending: DrawerPlace, completion: Bool = false, endsPull: Bool = false) {
        let starting = currentPlace
        let y0 = geometry.position(starting)
        let y1 = geometry.position(ending)
        let timing = timing(from: y0, to: y1)
        let info = transitionInfo(
            start: starting, target: ending, end: ending, isPresenting: y1 < y0,
            duration: geometry.duration(from: y0, to: y1), startingFrameY: y0, endingFrameY: y1)
        if ending == .dismissed && drawer.midTransition == .dismissalIsTerminal { terminal = true }
        if autoDims { model.handleAlpha = geometry.triangular(starting) }
        emit("transitionWillStart", info.fields)
        emitParticipants("prepare", info)
        setTarget(ending)
        let before = model
        model.y = geometry.clamp(y1)
        if autoDims { model.handleAlpha = geometry.triangular(ending) }
        var delta = DrawerChannels(
            y: before.y - model.y, cornerRadius: 0, handleAlpha: autoDims ? before.handleAlpha - model.handleAlpha : 0)
        if geometry.maximumCornerRadius != 0 {
            let c = geometry.cornerRadius(at: ending)
            if geometry.cornerAnimationOption != .none { delta.cornerRadius = model.cornerRadius - c }
            model.cornerRadius = c
        }
        animator.add(
            start: instant, timing: timing, delta: delta,
            completion: .transition(
                info, starting: starting, ending: ending, completion: completion, endsPull: endsPull))
        emitParticipants("animateAlong", info)
    }

    /// The corner-radius animator of §3.7 toward `ending`.
    mutating func animateCornerRadius(to ending: DrawerPlace) {
        let current = currentPlace
        guard geometry.maximumCornerRadius != 0, geometry.partialY != geometry.fullY,
            !ending.sameState(as: current)
        else { return }
        let c = geometry.cornerRadius(at: ending)
        let delta = geometry.cornerAnimationOption == .none ? 0 : model.cornerRadius - c
        model.cornerRadius = c
        let extreme: (DrawerPlace) -> Bool = { $0 == .dismissed || $0 == .fullyExpanded }
        let zero = (extreme(current) || extreme(ending)) && extreme(ending) && geometry.cornerAnimationOption != .none
        animator.add(
            start: instant, timing: timing(from: geometry.position(current), to: geometry.position(ending)),
            delta: DrawerChannels(y: 0, cornerRadius: delta, handleAlpha: 0), completion: .corner(zeroAtEnd: zero))
    }

    mutating func complete(_ completion: DrawerCompletion) {
        switch completion {
        case .transition(let info, let starting, let ending, let completion, let endsPull):
            if endsPull { pullPending = false }
            // §3.6 step 7: the handle alpha is set to this transition's end value (a plain write:
            // with overlapping transitions an older completion writes its own end value).
            if autoDims { model.handleAlpha = geometry.triangular(ending) }
            if ending == .dismissed { requestDismissal() }
            if geometry.maximumCornerRadius != 0 && geometry.cornerAnimationOption != .none
                && (starting == .dismissed || starting == .fullyExpanded)
            {
                model.cornerRadius = 0  // Q3: tests the starting state
            }
            emitParticipants("cleanup", info)
            emit("transitionDidFinish", info.fields)
            if completion { emit("completion") }
        case .presentation(let info):
            emitParticipants("cleanup", info)
            emit("transitionDidFinish", info.fields)
            emit("presentationTransitionDidEnd", [RecordField("completed", .bool(true))])
            setTapsEnabled(true)  // Q4: regardless of the state
        case .dismissal(let info):
            emitParticipants("cleanup", info)
            emit("transitionDidFinish", info.fields)
            // The transition completes and the presented view leaves the window: UIKit ends the
            // animations still running on it, and their completions run now, in start order,
            // before dismissalTransitionDidEnd (a DrawerKit transition started before a shorter
            // dismissal, e.g. with proportional durations; docs/drawerkit.md, K4).
            while let running = animator.removeFirst() { complete(running.completion) }
            emit("dismissalTransitionDidEnd", [RecordField("completed", .bool(true))])
            endPresentation()
        case .corner(let zeroAtEnd):
            if zeroAtEnd { model.cornerRadius = 0 }
        }
    }

    // MARK: UIKit transitions (§3.10, D4)

    var uiKitTransitionRunning: Bool {
        animator.contains { c in
            switch c {
            case .presentation, .dismissal: return true
            case .transition, .corner: return false
            }
        }
    }

    /// `dismiss(animated: true)`: UIKit's dismissal starts after the current callback chain. UIKit
    /// ignores it while no drawer is presented or while a presentation or dismissal runs.
    mutating func requestDismissal() {
        guard presented else { return }
        dismissalRequested = true
    }

    /// Starts a requested UIKit dismissal (after the current sample or completion chain, D4). A
    /// request made while UIKit's presentation runs waits for it to end (§3.10: `dismiss` calls are
    /// processed during UIKit transitions); one made while a dismissal runs is the same dismissal.
    mutating func startRequestedDismissal() {
        guard dismissalRequested else { return }
        guard presented else {
            dismissalRequested = false
            return
        }
        if animator.contains(where: { if case .dismissal = $0 { return true } else { return false } }) {
            dismissalRequested = false
            return
        }
        if animator.contains(where: { if case .presentation = $0 { return true } else { return false } }) {
            return  // still requested: starts once the presentation has ended
        }
        dismissalRequested = false
        emit("dismissalTransitionWillBegin")
        animateCornerRadius(to: .dismissed)
        setTapsEnabled(false)
        let y0 = geometry.position(target)
        let y1 = geometry.height
        let info = transitionInfo(
            start: geometry.place(at: y0), target: .dismissed, end: .dismissed, isPresenting: false,
            duration: geometry.duration(from: y0, to: y1), startingFrameY: y0, endingFrameY: y1)
        runUIKitTransition(info, completion: .dismissal(info))
    }

    /// UIKit's presentation or dismissal transition from `info.startingFrameY` to
    /// `info.endingFrameY` (§3.10): `transitionWillStart`, the participants' `prepare`, the frame
    /// animator (the drawer's own timing over the drawer's duration), then `animateAlong`.
    private mutating func runUIKitTransition(_ info: DrawerTransitionInfo, completion: DrawerCompletion) {
        let y0 = info.startingFrameY
        let y1 = info.endingFrameY
        emit("transitionWillStart", info.fields)
        emitParticipants("prepare", info)
        animator.add(
            start: instant, timing: timing(from: y0, to: y1),
            delta: DrawerChannels(y: y0 - y1, cornerRadius: 0, handleAlpha: 0),
            completion: completion)
        modelY = y1
        emitParticipants("animateAlong", info)
    }

    mutating func present() {
        presented = true
        terminal = false
        target = .named(initialState)
        model.handleAlpha = 1
        emit("presentationTransitionWillBegin")
        installRecognizers()
        animateCornerRadius(to: .partiallyExpanded)
        setTapsEnabled(false)
        let y0 = geometry.height
        let y1 = geometry.position(target)
        let info = transitionInfo(
            start: geometry.place(at: y0), target: geometry.place(at: y1), end: geometry.place(at: y1),
            isPresenting: true, duration: geometry.duration(from: y0, to: y1),
            startingFrameY: y0, endingFrameY: y1)
        runUIKitTransition(info, completion: .presentation(info))
    }

    /// `dismissalTransitionDidEnd`: the presentation controller and its recognizers are gone.
    mutating func endPresentation() {
        presented = false
        wasDismissed = true
        terminal = false
        target = .dismissed
        drawerTap = nil
        outsideTap = nil
        drawerTapEnabled = false
        outsideTapEnabled = false
        touch = nil
        panActive = false
    }
}
