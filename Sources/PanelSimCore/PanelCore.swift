/// The FloatingPanel interaction core (FloatingPanel `Core`, `LayoutAdapter` constraints and the
/// controller's move/show/hide/remove), driven by recognizer events and display frames.
/// Rule numbers refer to floatingpanel-core.md. Everything here is single-threaded and pure: the
/// only outputs are the records appended to `records`.

/// Recognizer phases FloatingPanel's handler sees (UIKit `UIGestureRecognizer.State`).
enum PanPhase: Equatable { case began, changed, ended, cancelled }

/// Which constraint holds the surface (§1.5).
enum SurfaceConstraint: Equatable {
    /// The per-state anchor constraints of `state`.
    case anchored(PanelState)
    /// The interaction constraint: its constant is the absolute surface location (pt).
    case interaction(Double)
    /// The attraction constraint for `state`'s anchor: a constant in constraint space (§4.6).
    case attraction(Double, state: PanelState)
}

/// What runs when the attraction spring stops (§4.4 completion).
enum AttractionCompletion: Equatable { case dragEnd, programmatic }

/// What runs when a property animator completes (§5.1 step 6, §5.2).
enum TransitionCompletion: Equatable { case none, didRemove }

struct RunningAttraction: Equatable {
    var spring: NumericSpring
    var state: PanelState
    var completion: AttractionCompletion
    /// Time (µs) of the sample or frame that started it; stepped from the first frame after it.
    var startTime: Microseconds
}

struct RunningTransition: Equatable {
    var spring: TransitionSpring
    var startTime: Microseconds
    var completion: TransitionCompletion
}

final class PanelCore {
    let delegate: DelegateConfiguration
    var geometry: LayoutGeometry
    private(set) var records: [ResultRecord] = []
    /// Time (µs) stamped on events emitted now.
    var now: Microseconds = 0

    // Core state (§2).
    private(set) var state: PanelState = .hidden
    private(set) var interactionInProgress = false
    var isAttracting: Bool { if case .none = attraction { return false } else { return true } }
    private var initialTranslation = Point.zero
    /// Surface-local touch-down point (recorded on every touch-began on the surface).
    var initialLocation = Point.zero
    private var removalVector = Point.zero
    private(set) var attraction: RunningAttraction?
    private(set) var transition: RunningTransition?
    private(set) var backdropAlpha: Double = 0

    // LayoutAdapter (§1.5, §1.6).
    private var constraint: SurfaceConstraint = .anchored(.hidden)
    private var initialConstant: Double = 0
    /// The laid-out frame's moving edge (pt), updated at layout syncs (O2).
    private(set) var frameEdge: Double
    private var layoutNeedsSync = false

    // Controller.
    private var hasParent = true
    private var inWindow = true
    private var dismissBeyondFired = false
    private var dismissInFired = false

    /// Called synchronously when FloatingPanel would cancel an in-flight pan (§5.1 step 2).
    var cancelActivePan: (() -> Void)?

    init(header: TraceHeader) {
        delegate = header.delegate
        geometry = LayoutGeometry(panel: header.panel, environment: header.environment)
        frameEdge = geometry.position(of: .hidden)
    }

    private var position: PanelPosition { geometry.panel.position }
    private var behavior: PanelBehavior { geometry.panel.behavior }

    // MARK: Events

    private func emit(_ event: DelegateEvent) {
        records.append(.event(time: now, event))
        runRecipes(after: event)
    }

    private func setState(_ newState: PanelState) {
        state = newState
        emit(.didChangeState(state: newState.name))
    }

    /// `notifyDidMove`: gated on the view being in a window (until `didRemove`, O15).
    private func notifyDidMove() {
        guard inWindow else { return }
        emit(.didMove(location: surfaceLocation))
    }

    /// The app code of O14, run after its event record is written.
    private func runRecipes(after event: DelegateEvent) {
        switch event {
        case let .didMove(location):
            guard let recipes = delegate.didMove else { return }
            if let clamp = recipes.clamp, !isAttracting {
                let lo = geometry.position(of: clamp.min.state) + clamp.min.offset
                let hi = geometry.position(of: clamp.max.state) + clamp.max.offset
                let clamped = min(max(location, lo), hi)
                if clamped != location { setSurfaceLocation(clamped) }
            }
            if let beyond = recipes.dismissBeyond, !dismissBeyondFired {
                let limit = geometry.position(of: beyond.state)
                let past = position.expandsTowardLowerCoordinate
                    ? location > limit + beyond.offset : location < limit - beyond.offset
                if past { dismissBeyondFired = true; remove() }
            }
        case let .didChangeState(name):
            if !dismissInFired, delegate.dismissIn.contains(name) { dismissInFired = true; remove() }
        default: return
        }
    }

    // MARK: Surface location (§1.5)

    /// FloatingPanel `surfaceLocation` getter (main axis, pt).
    var surfaceLocation: Double {
        switch constraint {
        case let .interaction(c): return c
        case let .attraction(c, attractionState) where geometry.hasAnchor(state):
            return c + geometry.attractionGetterShift(for: attractionState)
        default: return geometry.rounded(frameEdge)
        }
    }

    /// FloatingPanel `surfaceLocation` setter.
    func setSurfaceLocation(_ location: Double) {
        switch constraint {
        case .interaction: constraint = .interaction(location); layoutNeedsSync = true
        case let .attraction(_, s) where geometry.hasAnchor(state):
            constraint = .attraction(location - geometry.attractionGetterShift(for: s), state: s); layoutNeedsSync = true
        default: frameEdge = location
        }
    }

    /// The location the constraints imply (what the next layout pass puts the frame at).
    private var constraintLocation: Double {
        switch constraint {
        case let .anchored(s): return geometry.position(of: s)
        case let .interaction(c): return c
        case let .attraction(c, s): return c + geometry.attractionGetterShift(for: s)
        }
    }

    /// O2: the frame catches up with the constraints when something changed since the last sync.
    func syncLayout() {
        guard layoutNeedsSync else { return }
        frameEdge = geometry.rounded(constraintLocation)
        layoutNeedsSync = false
    }

    /// A forced layout: the frame follows the constraints at once.
    private func forceLayout() { layoutNeedsSync = true; syncLayout() }

    /// `offset(from:)` (frame-based, rounded; positive = less expanded than `s`).
    func offset(from s: PanelState) -> Double {
        let pos = geometry.position(of: s)
        return geometry.rounded(position.expandsTowardLowerCoordinate ? frameEdge - pos : pos - frameEdge)
    }

    /// The surface frame at the last layout sync (O17).
    var surfaceFrame: Rect { geometry.surfaceFrame(at: frameEdge) }

    // MARK: Layout application

    /// `updateLayout(to:)` (§5.5): snap to the anchor, discrete backdrop alpha.
    private func updateLayout(to target: PanelState) {
        constraint = .anchored(target)
        forceLayout()
        backdropAlpha = geometry.snappedBackdropAlpha(for: target)
    }

    /// `activateLayout(forceLayout: true)` (§5.4).
    private func activateLayout() {
        if !geometry.isValid(state) { setState(geometry.panel.initialState) }
        constraint = .anchored(state)
        forceLayout()
        backdropAlpha = geometry.snappedBackdropAlpha(for: state)
    }

    // MARK: Pan handler (§3.2)

    /// FloatingPanel `handle(panGesture:)`, panel branch. `translation` in container axes (pt),
    /// `velocity` pt/s, `location` surface-local.
    func handlePan(_ phase: PanPhase, translation: Point, velocity: Point, location: Point) {
        if !interactionInProgress && !isAttracting {
            let answer = delegate.shouldBeginDragging
            emit(.shouldBeginDragging(result: answer))
            if !answer { return }
        }
        interruptAnimationIfNeeded()
        switch phase {
        case .began:
            return
        case .changed:
            if !interactionInProgress { startInteraction(translation: translation) }
            panningChange(translation: translation)
        case .ended, .cancelled:
            if !interactionInProgress {
                startInteraction(translation: translation)
                updateInteractiveEdge(diff: position.main(translation) - Double.leastNonzeroMagnitude, clamp: true)
            }
            panningEnd(translation: translation, velocity: velocity)
        }
    }

    /// §3.3 (no tracked scroll view: no shift).
    private func startInteraction(translation: Point) {
        guard !interactionInProgress else { return }
        initialTranslation = translation
        emit(.willBeginDragging(state: state.name))
        layoutStartInteraction(shift: 0)
        interactionInProgress = true
    }

    /// LayoutAdapter.startInteraction (§3.3 step 5).
    private func layoutStartInteraction(shift: Double) {
        if case let .interaction(c) = constraint { initialConstant = c; return }
        initialConstant = frameEdge + shift
        constraint = .interaction(initialConstant)
        layoutNeedsSync = true
    }

    /// §3.4.
    private func panningChange(translation: Point) {
        let pre = surfaceLocation
        let diff = position.main(translation - initialTranslation)
        updateInteractiveEdge(diff: diff, clamp: false)
        let cur = surfaceLocation
        backdropAlpha = geometry.interpolatedBackdropAlpha(at: cur, translation: position.main(translation))
        if pre != cur { emit(.didMove(location: cur)) }
    }

    /// §3.4.1, with UIScrollView's rubber band (physics.md §2) on the edges the behavior allows.
    private func updateInteractiveEdge(diff: Double, clamp: Bool) {
        let minC = geometry.position(of: geometry.leastCoordinateState)
        let maxC = geometry.position(of: geometry.mostCoordinateState)
        let base = geometry.mainDimension
        var c = initialConstant + diff
        if behavior.rubberBandingEdges.contains("top"), c < minC { c = minC - rubberBand(minC - c, base) }
        if behavior.rubberBandingEdges.contains("bottom"), c > maxC { c = maxC + rubberBand(c - maxC, base) }
        if clamp { c = min(max(c, minC), maxC) }
        if case .interaction = constraint { constraint = .interaction(c); layoutNeedsSync = true }
    }

    /// §4.1.
    private func panningEnd(translation: Point, velocity: Point) {
        if state == .hidden { return }
        let y = surfaceLocation
        let vMain = position.main(velocity)
        let proposed = targetState(from: y, velocity: vMain)
        // endInteraction (§4.1 step 4).
        interactionInProgress = false
        if case .interaction = constraint {} else { layoutStartInteraction(shift: 0) }

        if geometry.panel.removalInteractionEnabled {
            let distance = abs(y - geometry.position(of: .hidden))
            let ratio = distance == 0 ? 0 : position.main(velocity) / distance
            removalVector = position.point(main: ratio)
            let shouldRemove: Bool
            switch delegate.shouldRemove {
            case .always, .never:
                shouldRemove = delegate.shouldRemove == .always
                emit(.shouldRemove(velocity: removalVector, result: shouldRemove))
            case .default:
                let t = behavior.removalInteractionVelocityThreshold
                switch position {
                case .top, .left: shouldRemove = ratio <= -t
                case .bottom, .right: shouldRemove = ratio >= t
                }
            }
            if shouldRemove { remove(); return }
        }

        var target = proposed
        if let name = delegate.targetStateOverrides[proposed.name],
           let forced = geometry.panel.anchors.first(where: { $0.state.name == name })?.state ?? (name == "hidden" ? .hidden : nil) {
            target = forced
        }
        emit(.willEndDragging(velocity: velocity, proposed: proposed.name, target: target.name))
        if geometry.position(of: target) == surfaceLocation {
            setState(target)
            updateLayout(to: target)
            emit(.didEndDragging(willAttract: false))
        } else {
            emit(.didEndDragging(willAttract: true))
            startAttraction(to: target, velocity: vMain, completion: .dragEnd)
        }
    }

    /// §4.2 targetState: the snap decision from the current location (pt) and main velocity (pt/s).
    func targetState(from currentY: Double, velocity: Double) -> PanelState {
        let list = geometry.sortedByCoordinate
        guard list.count > 1 else { return state }
        func pos(_ s: PanelState) -> Double { geometry.position(of: s) }
        func next(_ s: PanelState) -> PanelState {
            guard let i = list.firstIndex(of: s), i + 1 < list.count else { return s }
            return list[i + 1]
        }
        func pre(_ s: PanelState) -> PanelState {
            guard let i = list.firstIndex(of: s), i > 0 else { return s }
            return list[i - 1]
        }
        let r = behavior.momentumProjectionRate
        let baseY = abs(pos(geometry.leastExpandedState) - pos(geometry.mostExpandedState))
        var pY = ((((velocity / baseY) / 1000) * r) / (1 - r)) * baseY + currentY
        let forward = velocity == 0 ? (currentY - pos(state) > 0) : (velocity > 0)

        var seg = geometry.segment(at: pY, forward: forward)
        var lower = seg.lower ?? list[0], upper = seg.upper ?? list[list.count - 1]
        var (from, to) = forward ? (lower, upper) : (upper, lower)

        if !behavior.projectsMomentumTo.contains(to.name) {
            seg = geometry.segment(at: currentY, forward: forward)
            lower = seg.lower ?? list[0]; upper = seg.upper ?? list[list.count - 1]
            if lower == upper {
                if forward { upper = next(lower) } else { lower = pre(lower) }
            }
            (from, to) = forward ? (lower, upper) : (upper, lower)
            if forward {
                pY = max(min(pY, pos(next(to))), pos(from))
            } else {
                pY = max(min(pY, pos(from)), pos(pre(to)))
            }
        }
        let threshold = max(0, min(1, behavior.redirectionalProgress))
        let progress = abs(pY - pos(from)) / abs(pos(from) - pos(to))
        return progress > threshold ? to : from
    }

    // MARK: Attraction (§4.3–§4.5)

    private func startAttraction(to target: PanelState, velocity: Double, completion: AttractionCompletion) {
        // isAttracting becomes true with willBeginAttracting: the running attraction is installed first.
        let start = setUpAttractionStart()
        let spring = NumericSpring(value: start - geometry.attractionSetUpShift(for: target), velocity: velocity,
                                   target: geometry.position(of: target) - geometry.attractionSetUpShift(for: target),
                                   decelerationRate: behavior.springDecelerationRate,
                                   responseTime: behavior.springResponseTime,
                                   frameRate: geometry.environment.frameRate,
                                   displayScale: geometry.environment.displayScale)
        attraction = RunningAttraction(spring: spring, state: target, completion: completion, startTime: now)
        emit(.willBeginAttracting(to: target.name))
        guard attraction != nil else { return }
        constraint = .attraction(spring.value, state: target)
        layoutNeedsSync = true
        setState(target)
    }

    /// The location the attraction starts from: the getter after the interaction constraint is dropped.
    private func setUpAttractionStart() -> Double {
        if case .interaction = constraint { constraint = .anchored(state) ; return geometry.rounded(frameEdge) }
        return surfaceLocation
    }

    /// Steps the attraction spring one frame (§4.4) if it started before this frame.
    func stepAttraction(frameTime: Microseconds) {
        guard var running = attraction, running.startTime < frameTime else { return }
        let settled = running.spring.advance()
        attraction = running
        constraint = .attraction(running.spring.value, state: running.state)
        layoutNeedsSync = true
        backdropAlpha = geometry.interpolatedBackdropAlpha(
            at: surfaceLocation, translation: running.spring.value - running.spring.initialValue)
        notifyDidMove()
        guard settled, attraction == running else { return }
        updateLayout(to: running.state)
        notifyDidMove()
        switch running.completion {
        case .dragEnd: endAttraction()
        case .programmatic: endAttraction()
        }
    }

    /// §4.5 (scroll-view unlocks have no effect without a tracked scroll view).
    private func endAttraction() {
        attraction = nil
        emit(.didEndAttracting)
    }

    /// §4.7.
    private func interruptAnimationIfNeeded() {
        if attraction != nil {
            endAttraction()
        }
        if let running = transition {
            if offset(from: geometry.mostExpandedState) < 0 { return }
            let elapsed = Double(now - running.startTime) / 1_000_000
            frameEdge = geometry.rounded(running.spring.location(at: elapsed))
            if offset(from: geometry.mostExpandedState) == 0 {
                setSurfaceLocation(geometry.position(of: geometry.mostExpandedState))
            }
            finishTransition()
        }
    }

    /// The property animator's completion block (§5.1 step 6).
    private func finishTransition() {
        guard let running = transition else { return }
        transition = nil
        notifyDidMove()
        if running.completion == .didRemove {
            hasParent = false
            emit(.didRemove)
            inWindow = false
        }
    }

    /// Completes a property animator whose duration has elapsed at this frame (O13).
    func stepTransition(frameTime: Microseconds) {
        guard let running = transition, running.startTime < frameTime else { return }
        if Double(frameTime - running.startTime) / 1_000_000 >= running.spring.duration {
            finishTransition()
        }
    }

    // MARK: Programmatic moves (§5.1, §5.2)

    /// `move(to:animated:)`.
    func move(to target: PanelState, animated: Bool, completion: TransitionCompletion = .none) {
        let from = state
        cancelActivePan?()
        interruptAnimationIfNeeded()
        if !animated {
            setState(target)
            updateLayout(to: target)
            notifyDidMove()
            if completion == .didRemove { hasParent = false; emit(.didRemove); inWindow = false }
            return
        }
        if from == .hidden || target == .hidden {
            let visibleStart = geometry.rounded(frameEdge)
            let velocity = target == .hidden && from != .hidden ? abs(position.main(removalVector)) : 0
            setState(target)
            updateLayout(to: target)
            transition = RunningTransition(
                spring: TransitionSpring(from: visibleStart, to: geometry.position(of: target), relativeVelocity: velocity),
                startTime: now, completion: completion)
            return
        }
        startAttraction(to: target, velocity: 0, completion: .programmatic)
    }

    /// `show(animated:)` (§5.2). A removal still in flight is finished first (its completion
    /// reports `didRemove`), then the panel is shown again in its parent: PanelSim's reading of an app
    /// that re-adds a removed panel and shows it, so that the result never depends on whether the
    /// removal had finished.
    func show(animated: Bool) {
        if transition != nil { interruptAnimationIfNeeded() }
        hasParent = true; inWindow = true
        dismissBeyondFired = false; dismissInFired = false
        activateLayout()
        move(to: geometry.panel.initialState, animated: animated)
    }

    /// `hide(animated:)`.
    func hide(animated: Bool) { move(to: .hidden, animated: animated) }

    /// The controller's `remove()` for a panel added to a parent: `removePanelFromParent(animated: true)`.
    func remove() {
        guard hasParent else { return }
        emit(.willRemove)
        move(to: .hidden, animated: true, completion: .didRemove)
    }

    /// The backdrop's dismissal tap (§5.2): only when enabled.
    func tapBackdrop() {
        guard geometry.panel.dismissalTapEnabled, hasParent else { return }
        removalVector = .zero
        remove()
    }

    /// O15: the panel starts hidden in its parent; `presented` shows it without animation.
    func start(presented: Bool) {
        state = .hidden
        constraint = .anchored(.hidden)
        forceLayout()
        if presented { show(animated: false) }
    }

    /// True until `didRemove` (the view is in a window).
    var isInWindow: Bool { inWindow }

    /// Hands over the records produced since the last call.
    func drainRecords() -> [ResultRecord] {
        defer { records.removeAll(keepingCapacity: true) }
        return records
    }

    /// Appends a frame after the events recorded so far, so that the replay keeps one record list
    /// (no per-frame copy of the events into a second array).
    func record(_ frame: FrameRecord) { records.append(.frame(frame)) }

    /// Hands over every record and leaves the list empty (no copy).
    func takeRecords() -> [ResultRecord] {
        var out: [ResultRecord] = []
        swap(&out, &records)
        return out
    }

    /// True while an attraction or property animator runs.
    var isAnimating: Bool {
        if case .some = attraction { return true }
        if case .some = transition { return true }
        return false
    }

    /// The frame record for frame `index`.
    func frameRecord(index: Int) -> FrameRecord {
        FrameRecord(index: index, location: surfaceLocation, state: state.name, backdropAlpha: backdropAlpha,
                    contentOffset: nil, isAttracting: isAttracting, isDragging: interactionInProgress)
    }
}

/// UIScrollView's rubber band: b(x) = (1 − 1/(x·0.55/d + 1))·d, x = distance past the edge (pt),
/// d = the container's main dimension (pt). Source: FloatingPanel `Layout.swift`
/// `rubberBandEffect(for:base:)`, citing @chpwn's 0.55 coefficient (physics.md §2).
public func rubberBand(_ x: Double, _ d: Double) -> Double {
    (1 - (1 / ((x * 0.55 / d) + 1))) * d
}
