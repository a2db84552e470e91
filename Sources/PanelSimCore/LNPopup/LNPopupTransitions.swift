/// LNPopup's transitions (lnpopup.md §3.4, §3.9, §3.11): `_transitionToState` with its callbacks,
/// the bar's presentation and dismissal, and the additive animators that move them.

/// The model values an animator moves (pt, container coordinates).
struct PopupChannels: AdditiveChannels {
    /// Content top edge (`location`).
    var location: Double
    /// The bar's frame origin y and height.
    var barTop: Double
    var barHeight: Double
    /// The bottom bar's top edge.
    var bottomBarTop: Double

    static func - (a: PopupChannels, b: PopupChannels) -> PopupChannels {
        PopupChannels(
            location: a.location - b.location, barTop: a.barTop - b.barTop,
            barHeight: a.barHeight - b.barHeight, bottomBarTop: a.bottomBarTop - b.bottomBarTop)
    }

    @inline(__always)
    func adding(_ delta: PopupChannels, scaledBy r: Double) -> PopupChannels {
        PopupChannels(
            location: location + delta.location * r, barTop: barTop + delta.barTop * r,
            barHeight: barHeight + delta.barHeight * r, bottomBarTop: bottomBarTop + delta.bottomBarTop * r)
    }
}

/// What runs when one of LNPopup's animators (0.5 s, §3.9) completes.
enum PopupCompletion: Sendable, Equatable {
    /// §3.4 step 8 for a transition to `state` (open or barPresented); `publicBefore` is the public
    /// state at step 3.
    case transition(
        state: PopupPresentationState, publicBefore: PopupPresentationState, animated: Bool, then: PopupAfterTransition)
    /// The bar's presentation and dismissal animators (§3.11).
    case barPresentation(openPopup: Bool, animated: Bool)
    case barDismissal(animated: Bool)

    enum Kind: Sendable, Equatable {
        /// `_transitionToState` toward open / barPresented.
        case open, close
        /// The bar's presentation and dismissal animators (§3.11).
        case barPresentation, barDismissal
    }

    /// Which animator this completion belongs to.
    var kind: Kind {
        switch self {
        case .transition(let state, _, _, _): return state == .open ? .open : .close
        case .barPresentation: return .barPresentation
        case .barDismissal: return .barDismissal
        }
    }
}

/// What the caller of a transition does in its completion (§3.4 step 8).
enum PopupAfterTransition: Sendable, Equatable {
    case nothing
    /// An `openPopup`/`closePopup` request; `clearsGestures`: LNPopup's own request (tap, snap
    /// swipe, snap threshold, release), whose completion clears `gesturesIgnored` (§3.5.6).
    case request(clearsGestures: Bool)
    /// `dismissPopupBar` closed the popup first; its completion starts the bar dismissal (§3.11).
    case barDismissal(animated: Bool)
}

extension LNPopupSystem {
    /// Records the event `name` with its one field `animated` (§2.3).
    mutating func emit(_ name: String, animated: Bool) {
        emit(name, animated ? Self.animatedFields : Self.notAnimatedFields)
    }

    /// Records `didChangeState` for `state` (§2.3).
    mutating func emitDidChangeState(_ state: PopupPresentationState) {
        emit("didChangeState", Self.stateFields[state.rawValue])
    }

    // The events' field lists, built once: each event shares one (an array is shared, not copied).
    static let animatedFields = [RecordField("animated", .bool(true))]
    static let notAnimatedFields = [RecordField("animated", .bool(false))]
    /// `didChangeState`'s fields by `PopupPresentationState.rawValue`.
    static let stateFields = PopupPresentationState.allCases.sorted { $0.rawValue < $1.rawValue }.map {
        [RecordField("state", .string($0.name))]
    }

    // MARK: Transitions (§3.4)

    /// `_transitionToState`: `state` is open, barPresented, or transitioning (a drag start).
    mutating func transition(
        to state: PopupPresentationState, animated: Bool, byGesture: Bool,
        then: PopupAfterTransition = .nothing
    ) {
        guard state != internalState else { return }
        let publicBefore = publicState
        let willClose = publicState == .open && state == .barPresented
        let willOpen = (publicState == .barPresented || publicState == .barHidden) && state == .open
        internalState = .transitioning
        targetState = state
        guard state != .transitioning else { return }
        if willOpen { emit("willOpenPopup", animated: animated) }
        if willClose { emit("willClosePopup", animated: animated) }
        let before = model
        model = channels(of: state)
        let completion = PopupCompletion.transition(
            state: state, publicBefore: publicBefore, animated: animated, then: then)
        if animated {
            let spring =
                state == .barPresented
                ? closeSpring(byGesture: byGesture, beforeDismissal: then == .barDismissal(animated: true))
                : byGesture ? Self.gestureSpring : Self.transitionSpring
            animator.add(start: instant, timing: timing(spring), delta: before - model, completion: completion)
            animationStarted()
        } else {
            complete(completion)
        }
    }

    /// The spring of an animated close (§3.9) under the profile's LN-S5 value: `byGesture` for a
    /// release or snap threshold (whose velocity is `gestureCloseVelocity`), `beforeDismissal` for
    /// the close that precedes a `dismissBar`. The style is the one resolved now (§3.2).
    func closeSpring(byGesture: Bool, beforeDismissal: Bool) -> SpringStepResponse {
        switch profile.closeSpring {
        case .unseeded87:
            return byGesture ? Self.gestureSpring : Self.transitionSpring
        case .styleBased85:
            return resolvedStyle == .snap ? Self.spring085 : Self.transitionSpring
        case .gesture85, .gesture87:
            let gesture = profile.closeSpring == .gesture85 ? Self.spring085 : Self.gestureSpring
            return byGesture || (beforeDismissal && resolvedStyle == .snap) ? gesture : Self.transitionSpring
        case .seeded:
            guard byGesture else { return Self.transitionSpring }
            guard gestureCloseVelocity != 0 else { return Self.gestureSpring }
            // s = v.y / (3·H) relative velocity (1/s), w = s·D / U_s with D = 0.5 s (profiles.md LN-S5).
            let s = gestureCloseVelocity / (3 * geometry.height)
            return SpringStepResponse(dampingRatio: 0.9, seed: s * 0.5 / Self.spring090.settlingU)
        }
    }

    mutating func complete(_ completion: PopupCompletion) {
        switch completion {
        case .transition(let state, let publicBefore, let animated, let then):
            internalState = state
            publicState = state
            emitDidChangeState(state)  // Q1: also when unchanged
            if state == .barPresented && publicBefore != .barPresented { emit("didClosePopup", animated: animated) }
            if state == .open && publicBefore != .open { emit("didOpenPopup", animated: animated) }
            switch then {
            case .nothing: break
            case .request(let clears): if clears { gesturesIgnored = false }
            case .barDismissal(let a): startBarDismissal(animated: a)
            }
            resume()
        case .barPresentation(let openPopup, let animated):
            if !openPopup {
                internalState = .barPresented
                publicState = .barPresented
                emitDidChangeState(.barPresented)
            }
            emit("didPresentPopupBar", animated: animated)
            resume()
        case .barDismissal(let animated):
            barExists = false
            publicState = .barHidden
            emitDidChangeState(.barHidden)
            emit("didDismissPopupBar", animated: animated)
            internalState = .barHidden
            resume()
        }
    }

    // MARK: Bar presentation and dismissal (§3.11)

    mutating func presentBar(animated: Bool, openPopup: Bool) {
        dismissalOverride = false
        internalState = openPopup ? .barPresented : .transitioning
        targetState = .barPresented
        barExists = true
        model.barTop = geometry.dock + geometry.offset
        model.barHeight = 0
        model.location = geometry.dock
        emit("willPresentPopupBar", animated: animated)
        let before = model
        model.barHeight = geometry.barHeight
        model.barTop = geometry.closedBarTop
        if animated {
            animator.add(
                start: instant, timing: timing(Self.barSpring), delta: before - model,
                completion: .barPresentation(openPopup: openPopup, animated: true))
            animationStarted()
        }
        if openPopup {
            emit("willOpenPopup", animated: animated)  // Q3: the open transition writes it again
            transition(to: .open, animated: animated, byGesture: false)
        }
        if !animated { complete(.barPresentation(openPopup: openPopup, animated: false)) }
    }

    mutating func startBarDismissal(animated: Bool) {
        internalState = .transitioning
        targetState = .barHidden
        emit("willDismissPopupBar", animated: animated)
        let before = model
        model.barHeight = 0
        model.barTop = geometry.dock + geometry.offset
        model.location = geometry.dock
        if animated {
            animator.add(
                start: instant, timing: timing(Self.barSpring), delta: before - model,
                completion: .barDismissal(animated: true))
            animationStarted()
        } else {
            complete(.barDismissal(animated: false))
        }
    }
}
