/// The FloatingPanel interaction core (FloatingPanel `Core`, `LayoutAdapter` constraints and the
/// controller's move/show/hide/remove), driven by recognizer events and display frames.
/// Rule numbers refer to floatingpanel-core.md. Everything here is single-threaded and pure: the
/// only outputs are the records appended to `records`.

/// Recognizer phases FloatingPanel's handler sees (UIKit `UIGestureRecognizer.State`).
enum PanPhase: Equatable { case began, changed, ended, cancelled }

/// Which constraint holds the surface (§1.5), with its constant. A struct of plain fields so that
/// the per-frame update of an attraction is one store.
struct SurfaceConstraint {
    enum Kind: Equatable {
        /// The per-state anchor constraints of `state`.
        case anchored
        /// The interaction constraint: `constant` is the absolute surface location (pt).
        case interaction
        /// The attraction constraint for `state`'s anchor: `constant` is in constraint space (§4.6).
        case attraction
    }
    var kind: Kind
    /// anchored and attraction: the state whose anchor holds the surface.
    var state: FloatingPanelState
    /// interaction: surface location (pt); attraction: constraint-space constant (pt).
    var constant: Double = 0
    /// attraction: `LayoutGeometry.attractionGetterShift(for: state)` (pt), kept current by the core
    /// when the geometry changes; location = constant + getterShift.
    var getterShift: Double = 0

    static func anchored(_ s: FloatingPanelState) -> SurfaceConstraint { SurfaceConstraint(kind: .anchored, state: s) }
    static func interaction(_ c: Double) -> SurfaceConstraint {
        SurfaceConstraint(kind: .interaction, state: .hidden, constant: c)
    }
    static func attraction(_ c: Double, state s: FloatingPanelState, geometry: LayoutGeometry) -> SurfaceConstraint {
        SurfaceConstraint(kind: .attraction, state: s, constant: c, getterShift: geometry.attractionGetterShift(for: s))
    }
}

/// What runs when the attraction spring stops (§4.4 completion).
enum AttractionCompletion: Equatable { case dragEnd, programmatic }

/// What runs when a property animator completes (§5.1 step 6, §5.2).
enum TransitionCompletion: Equatable { case none, didRemove }

struct RunningAttraction: Equatable {
    var spring: NumericSpring
    var state: FloatingPanelState
    var completion: AttractionCompletion
    /// Time (µs) of the sample or frame that started it; stepped from the first frame after it.
    var startTime: Microseconds
    /// True after a layout activation removed its constraint: the spring keeps ticking (didMove each
    /// frame) without moving the surface, and completes normally (§5.4 step 5).
    var detached = false
    /// Distinguishes this attraction from any later one (a delegate hook may replace it).
    var serial: Int = 0

    /// What one frame of the spring leaves for the core: plain values, so that the caller copies
    /// nothing else of the running attraction.
    struct Step {
        var settled: Bool
        var value: Double
        var initialValue: Double
        var serial: Int
        var detached: Bool
    }

    /// What `PanelCore` keeps while no attraction runs (never stepped).
    static var placeholder: RunningAttraction {
        RunningAttraction(
            spring: NumericSpring(
                value: 0, velocity: 0, target: 0, logDecelerationRate: 0, responseTime: 1, frameRate: 60,
                displayScale: 1),
            state: .hidden, completion: .programmatic, startTime: 0)
    }

    /// Advances the spring one frame if the attraction started before `frameTime` (µs).
    @inline(__always)
    mutating func step(before frameTime: Microseconds) -> Step? {
        guard startTime < frameTime else { return nil }
        let settled = spring.advance()
        return Step(
            settled: settled, value: spring.value, initialValue: spring.initialValue, serial: serial, detached: detached
        )
    }
}

struct RunningTransition: Equatable {
    var spring: TransitionSpring
    var startTime: Microseconds
    var completion: TransitionCompletion
}

/// The core as one value: every per-frame and per-sample step is a mutating method, so a replay
/// that owns it (`Replay`) reaches its fields directly, with no reference counting or dynamic
/// exclusivity checks per frame. It owns the panel's pan recognizer, as FloatingPanel's Core does,
/// so that cancelling the pan (§5.1 step 2) needs no call back into the replay.
struct PanelCore {
    let delegate: FloatingPanelDelegateConfiguration
    /// The switch values of the replay's profile point (profiles.md §3.1; 3.2.1 without a profile).
    let profile: FloatingPanelProfile
    /// True when the delegate has `didMove` recipes (O14), so that plain frames skip them.
    private let hasDidMoveRecipes: Bool
    var geometry: LayoutGeometry {
        willSet {
            // A synced frame edge is rounded by the display scale of its sync, not by a new one.
            if frameEdgeNeedsRounding { frameEdge = roundedEdge(frameEdgeValue) }
        }
        didSet {
            stateHasAnchor = geometry.hasAnchor(state)
            if constraint.kind == .attraction {
                constraint.getterShift = geometry.attractionGetterShift(for: constraint.state)
            }
        }
    }
    /// The panel's position.
    var position: PanelPosition { geometry.panelPosition }
    /// The records written so far; a frame that repeats the last one written is dropped
    /// (`RecordList.repeatsLastFrame`).
    private(set) var records = RecordList()
    /// `SimulationOptions.mirrorImageArithmetic` on a top or left panel (false otherwise).
    var mirrorImageArithmetic = false
    /// `SimulationOptions.recordContentInset`: frames carry the scroll view's `contentInset`.
    var recordsContentInset = false
    /// The `contentInset` of the last frame written with that channel (nil: none, or no list).
    private var lastFrameInset: Insets?
    /// `records`' name index of `state`, and whether `state` has an anchor in `geometry`
    /// (both kept current when `state` or `geometry` change).
    private var stateNameIndex: UInt32 = 0
    private var stateHasAnchor = false
    /// Time (µs) stamped on events emitted now.
    var now: Microseconds = 0

    // Core state (§2).
    private(set) var state: FloatingPanelState = .hidden {
        didSet {
            stateHasAnchor = geometry.hasAnchor(state)
            stateNameIndex = records.nameIndex(state.name)
        }
    }
    private(set) var interactionInProgress = false
    /// True while an attraction runs (`runningAttraction` holds it).
    private(set) var isAttracting = false
    private var initialTranslation = Point.zero
    /// Surface-local touch-down point (recorded on every touch-began on the surface).
    var initialLocation = Point.zero
    private var removalVector = Point.zero
    /// True while the running attraction is an animated move that FloatingPanel before 2.7.0 ran
    /// without startAttraction (FP-S7 old): no attraction events, the public `isAttracting` false.
    private var attractionIsSilent = false
    /// FP-S2 (2.0.0): a completed move's spring animator was never released; until the next
    /// endAttraction every touch-down on the surface begins the pan at once (§3.1).
    private(set) var staleMoveAnimator = false
    /// FP-S6 before `perFrame`: a release inside the most expanded anchor pins the list to io once,
    /// after its sample has been processed (`runAsyncPin`).
    private(set) var asyncPinPending = false
    /// The running attraction while `isAttracting`; a finished one (or a placeholder) otherwise.
    /// A flag beside a plain value rather than an optional: testing an optional this large (the
    /// spring keeps its per-frame constants) made the optimizer copy it at every test, four times
    /// per frame.
    private var runningAttraction = RunningAttraction.placeholder
    /// Serial of the last attraction started.
    private var attractionSerial = 0
    /// ln of the last spring deceleration rate used (the behavior can change with the layout).
    private var logDecelerationRate: (rate: Double, log: Double) = (.nan, .nan)
    private(set) var transition: RunningTransition?
    private(set) var backdropAlpha: Double = 0

    // LayoutAdapter (§1.5, §1.6).
    private var constraint: SurfaceConstraint = .anchored(.hidden)
    private var initialConstant: Double = 0
    /// The laid-out frame's moving edge (pt), updated at layout syncs (O2): `frameEdgeValue`, rounded
    /// by display scale when it came from a sync (`frameEdgeNeedsRounding`). A sync stores the
    /// constraints' location and the rounding is done by whoever reads the edge: an attraction
    /// syncs every frame, and nothing reads the edge until it ends.
    private(set) var frameEdge: Double {
        @inline(__always) get { frameEdgeNeedsRounding ? roundedEdge(frameEdgeValue) : frameEdgeValue }
        set {
            frameEdgeValue = newValue
            frameEdgeNeedsRounding = false
        }
    }
    /// The stored edge (pt), and whether `frameEdge` rounds it by display scale when read.
    private var frameEdgeValue: Double
    private var frameEdgeNeedsRounding = false
    private var layoutNeedsSync = false

    // Tracked scroll view (§2, §3.6).
    private(set) var scrollView: ScrollViewModel?
    /// `scrollView != nil`, kept by `track` and `untrack`: matching the optional's case copies the
    /// whole model, which cost ~20 % of a drag replay's instructions when it was computed.
    private(set) var tracksScrollView = false
    /// FloatingPanel `initialScrollOffset` (io): the offset to pin the content to.
    var initialScrollOffset: Point?
    var scrollLocked = false
    var scrollBounce = true
    var scrollIndicatorVisible = true
    /// Phase of the scroll view's pan recognizer (set by the recognizer model).
    var scrollPanPhase: PanPhase?
    /// The safe area the controller last saw (FloatingPanel observes it from `show`).
    var observedSafeArea = Insets.zero
    /// True once `show` started observing the safe area.
    var observingSafeArea = false

    // Controller.
    private var hasParent = true
    private var inWindow = true
    private var dismissBeyondFired = false
    private var dismissInFired = false

    /// The panel's pan recognizer (FloatingPanel's Core owns it); the replay feeds it touches.
    var pan = PanRecognizer(tracker: VelocityTracker(strategy: .lsq2))

    init(header: TraceHeader, profile: FloatingPanelProfile = FloatingPanelProfiles.table.values(for: nil)) {
        delegate = header.delegate
        self.profile = profile
        hasDidMoveRecipes = header.delegate.didMove != nil
        geometry = LayoutGeometry(
            panel: header.panel, environment: header.environment, rawAnchors: !profile.roundedAnchors)
        frameEdgeValue = geometry.position(of: .hidden)
        stateHasAnchor = geometry.hasAnchor(.hidden)
        stateNameIndex = records.nameIndex(FloatingPanelState.hidden.name)
    }

    private var behavior: PanelBehavior { geometry.panel.behavior }

    // MARK: Events

    private mutating func emit(_ event: consuming DelegateEvent) {
        // The event moves into the record list (no copy); the app code of O14 runs after its
        // record is written: `didMove` recipes, and `dismissIn` on a state change.
        switch event {
        case .didMove(let location): return emitDidMove(location)
        case .didChangeState(let name): return emitDidChangeState(name)
        default:
            records.appendEvent(time: now, event, owned: true)
        }
    }

    /// `didChangeState` to `name`, then the `dismissIn` recipe (O14) when it names that state (the
    /// event is built here from the name, not copied out of an event already built).
    private mutating func emitDidChangeState(_ name: String) {
        let dismiss = !dismissInFired && !delegate.dismissIn.isEmpty && delegate.dismissIn.contains(name)
        records.appendEvent(time: now, .didChangeState(state: name), owned: true)
        if dismiss {
            dismissInFired = true
            remove()
        }
    }

    /// `didMove` at `location`, then the app's recipes (the per-frame event: no enum built).
    @inline(__always)
    private mutating func emitDidMove(_ location: Double) {
        records.appendDidMove(time: now, location: location, owned: true)
        if hasDidMoveRecipes { runDidMoveRecipes(location: location) }
    }

    private mutating func setState(_ newState: FloatingPanelState) {
        state = newState
        emitDidChangeState(newState.name)
    }

    /// `notifyDidMove`: gated on the view being in a window (until `didRemove`, O15).
    private mutating func notifyDidMove() {
        guard inWindow else { return }
        emitDidMove(surfaceLocation)
    }

    /// The `didMove` recipes of O14 at `location` (pt).
    private mutating func runDidMoveRecipes(location: Double) {
        guard let recipes = delegate.didMove else { return }
        if let clamp = recipes.clamp, !isAttracting {
            // App code reads the public surfaceLocation(for:), rounded (FP-S13).
            let lo = geometry.roundedPosition(of: clamp.min.state) + clamp.min.offset
            let hi = geometry.roundedPosition(of: clamp.max.state) + clamp.max.offset
            let clamped = min(max(location, lo), hi)
            if clamped != location { setSurfaceLocation(clamped) }
        }
        if let beyond = recipes.dismissBeyond, !dismissBeyondFired {
            let limit = geometry.roundedPosition(of: beyond.state)
            let past =
                position.expandsTowardLowerCoordinate
                ? location > limit + beyond.offset : location < limit - beyond.offset
            if past {
                dismissBeyondFired = true
                remove()
            }
        }
    }

    // MARK: Surface location (§1.5)

    /// FloatingPanel `surfaceLocation` getter (main axis, pt).
    var surfaceLocation: Double {
        @inline(__always) get {
            switch constraint.kind {
            case .interaction: return constraint.constant
            case .attraction where stateHasAnchor: return constraint.constant + constraint.getterShift
            default: return roundedEdge(frameEdge)
            }
        }
    }

    /// FloatingPanel's pixel rounding of a frame edge, an absolute coordinate (§0.2, §1.6/O2); its
    /// mirror image with `SimulationOptions.mirrorImageArithmetic` (top/left panels only) for
    /// coordinates up to the container's main dimension, where the mirrored bottom/right value is
    /// non-negative.
    @inline(__always)
    func roundedEdge(_ v: Double) -> Double {
        Self.roundedEdge(v, geometry: geometry, mirrorImage: mirrorImageArithmetic)
    }

    /// `roundedEdge(_:)` with the geometry and the option given.
    @inline(__always)
    static func roundedEdge(_ v: Double, geometry: LayoutGeometry, mirrorImage: Bool) -> Double {
        guard mirrorImage, v <= geometry.mainDimension else { return geometry.rounded(v) }
        return mirroredRoundedByDisplayScale(v, scale: geometry.environment.displayScale)
    }

    /// FloatingPanel `surfaceLocation` setter.
    mutating func setSurfaceLocation(_ location: Double) {
        switch constraint.kind {
        case .interaction:
            constraint.constant = location
            layoutNeedsSync = true
        case .attraction where stateHasAnchor:
            constraint.constant = location - constraint.getterShift
            layoutNeedsSync = true
        default: frameEdge = location
        }
    }

    /// The location the constraints imply (what the next layout pass puts the frame at).
    private var constraintLocation: Double {
        switch constraint.kind {
        case .anchored: return geometry.position(of: constraint.state)
        case .interaction: return constraint.constant
        case .attraction: return constraint.constant + constraint.getterShift
        }
    }

    /// O2: the frame catches up with the constraints when something changed since the last sync.
    @inline(__always)
    mutating func syncLayout() {
        guard layoutNeedsSync else { return }
        frameEdgeValue = constraintLocation
        frameEdgeNeedsRounding = true
        layoutNeedsSync = false
    }

    /// A forced layout: the frame follows the constraints at once.
    private mutating func forceLayout() {
        layoutNeedsSync = true
        syncLayout()
    }

    /// `offset(from:)` (frame-based, rounded; positive = less expanded than `s`).
    @inline(__always)
    func offset(from s: FloatingPanelState) -> Double {
        let pos = geometry.position(of: s)
        return geometry.rounded(position.expandsTowardLowerCoordinate ? frameEdge - pos : pos - frameEdge)
    }

    /// The surface frame at the last layout sync (O17).
    var surfaceFrame: Rect { geometry.surfaceFrame(at: frameEdge) }

    /// `p` (container coordinates) in the surface's coordinates at the last layout sync.
    func surfaceLocal(_ p: Point) -> Point { p - surfaceFrame.origin }

    // MARK: Layout application

    /// `updateLayout(to:)` (§5.5): snap to the anchor, discrete backdrop alpha.
    private mutating func updateLayout(to target: FloatingPanelState) {
        constraint = .anchored(target)
        forceLayout()
        backdropAlpha = geometry.snappedBackdropAlpha(for: target)
        adjustScrollContentInsetIfNeeded()
    }

    /// `activateLayout(forceLayout: true)` (§5.4): the state's constraints replace any interaction or
    /// attraction constraint, so the surface snaps to the anchor even mid-drag or mid-attraction.
    private mutating func activateLayout() {
        let offset = scrollView?.contentOffset
        // FP-S14 off (≤ 2.8.0): a removed state stays `state` while the initial state's anchor lays out.
        var laidOut = state
        if !geometry.isValid(state) {
            if profile.invalidateStateReset {
                setState(geometry.panel.initialState)
                laidOut = state
            } else {
                laidOut = geometry.panel.initialState
            }
        }
        if isAttracting { runningAttraction.detached = true }
        constraint = .anchored(laidOut)
        forceLayout()
        backdropAlpha = geometry.snappedBackdropAlpha(for: state)
        if let offset { updateScrollView { $0.contentOffset = offset } }
        adjustScrollContentInsetIfNeeded()
    }

    /// The `invalidateLayout` call: adopt `panel` as the layout, then `activateLayout(forceLayout: true)`.
    mutating func invalidateLayout(_ panel: FloatingPanelConfiguration) {
        geometry = LayoutGeometry(panel: panel, environment: geometry.environment, rawAnchors: geometry.rawAnchors)
        activateLayout()
    }

    /// An `environment` sample (O16): anchors follow the new container and safe area at the next
    /// layout sync; interaction constants stay put, attraction constants keep their constraint-space
    /// value; then the controller's safe-area update (§3.10) if it is observing.
    mutating func changeEnvironment(_ environment: PanelEnvironment) {
        if mirrorImageArithmetic, constraint.kind == .interaction {
            // `SimulationOptions.mirrorImageArithmetic` rule 3: the constant moves with the
            // container's far edge, the mirror image of a bottom/right panel's constraint, which
            // FloatingPanel ties to the container's top/left edge like every other.
            let shift = position.mainDimension(environment.container) - geometry.mainDimension
            constraint.constant += shift
            initialConstant += shift
        }
        geometry = LayoutGeometry(panel: geometry.panel, environment: environment, rawAnchors: geometry.rawAnchors)
        layoutNeedsSync = true
        if observingSafeArea { observeSafeArea() }
    }

    // MARK: Pan handler (§3.2)

    /// A pan velocity (pt/s): `velocity`, or the pan's tracker estimate when nil.
    @inline(__always)
    func resolve(_ velocity: Point?) -> Point { velocity ?? pan.tracker.currentVelocity() }

    /// FloatingPanel `handle(panGesture:)`, panel branch. `translation` in container axes (pt),
    /// `velocity` pt/s (nil: the tracker's current estimate, computed only where it is used),
    /// `point` the touch in container coordinates. Its surface-local location is taken with the
    /// surface frame as it is at the call, and converted only where it is used (starting the
    /// interaction), so that a drag's `changed` events do not compute the surface frame.
    mutating func handlePan(_ phase: PanPhase, translation: Point, velocity: Point?, at point: Point) {
        // The frame edge at the call (what `frameEdge` reads now); nothing in the handler changes
        // the geometry, so converting later with it gives the location at the call.
        let edgeAtCall = (value: frameEdgeValue, needsRounding: frameEdgeNeedsRounding)
        let mirrorImage = mirrorImageArithmetic
        func location(_ geometry: LayoutGeometry) -> Point {
            let edge =
                edgeAtCall.needsRounding
                ? Self.roundedEdge(edgeAtCall.value, geometry: geometry, mirrorImage: mirrorImage) : edgeAtCall.value
            return point - geometry.surfaceFrame(at: edge).origin
        }
        if !interactionInProgress && !(isAttracting && !attractionIsSilent) {
            let answer = delegate.shouldBeginDragging
            emit(.shouldBeginDragging(result: answer))
            if !answer { return }
        }
        // (It does nothing unless an attraction or animator runs: tested here, without a call per sample.)
        if isPanelAnimating { interruptAnimationIfNeeded() }
        if phase == .began {
            // FP-S8 old: at the most expanded state only a touch now in the grabber band captures io.
            if tracksScrollView,
                profile.newScrollHandleRule || !isScrollable(state) || grabberContains(location(geometry))
            {
                initialScrollOffset = scrollView.unsafelyUnwrapped.contentOffset
            }
            return
        }
        if tracksScrollView,
            profile.newScrollHandleRule
                ? shouldScrollViewHandleTouch(velocity: position.main(resolve(velocity)))
                : shouldScrollViewHandleTouchBefore280(
                    velocity: position.main(resolve(velocity)), location: location(geometry))
        {
            return
        }
        switch phase {
        case .began:
            return
        case .changed:
            if !interactionInProgress { startInteraction(translation: translation, location: location(geometry)) }
            panningChange(translation: translation)
        case .ended, .cancelled:
            if !interactionInProgress {
                startInteraction(translation: translation, location: location(geometry))
                updateInteractiveEdge(diff: position.main(translation) - Double.leastNonzeroMagnitude, clamp: true)
            }
            panningEnd(translation: translation, velocity: resolve(velocity))
        }
    }

    /// True when `handlePan(.changed, …)` reduces to `panningChange`: the interaction is in progress
    /// (no shouldBeginDragging, no start), nothing animates (nothing to interrupt), and no scroll
    /// view is tracked (no arbitration).
    var takesPlainDragChanges: Bool { interactionInProgress && !isPanelAnimating && !tracksScrollView }

    /// `handlePan(.changed, translation:, …)` when `takesPlainDragChanges`: `panningChange`.
    @inline(__always)
    mutating func takePlainDragChange(translation: Point) { panningChange(translation: translation) }

    /// §3.3: the pinned offset and the over-scroll shift, then willBeginDragging and the
    /// interaction constraint. `location` is surface-local.
    private mutating func startInteraction(translation: Point, location: Point) {
        guard !interactionInProgress else { return }
        var shift = Point.zero
        if isScrollable(state), let sv = scrollView {
            if grabberContains(profile.newScrollHandleRule ? initialLocation : location) {
                initialScrollOffset = sv.contentOffset
            } else if profile.offsetCapture != .new {
                // FP-S5 pin / current: no containment or inset test; the overscroll shift as in b.
                let pin = pinningOffset(sv)
                initialScrollOffset = profile.offsetCapture == .pin ? pin : sv.contentOffset
                let od = sv.contentOffset - pin
                let overScrolled = position.expandsTowardLowerCoordinate ? position.main(od) < 0 : position.main(od) > 0
                if overScrolled { shift = Point(x: -od.x, y: -od.y) }
            } else if sv.frame.contains(initialLocation) {
                let pin = pinningOffset(sv)
                let inScrollView = location - sv.frame.origin
                // Top/left: FloatingPanel adds contentOffsetMax (the pinning offset); the mirror
                // image of the bottom/right test adds −adjustedContentInset.bottom (.right) instead
                // (`SimulationOptions.mirrorImageArithmetic`).
                let trail =
                    mirrorImageArithmetic
                    ? -(position == .top ? sv.adjustedContentInset.bottom : sv.adjustedContentInset.right)
                    : position.main(pin)
                let insideInsetArea =
                    position.expandsTowardLowerCoordinate
                    ? position.main(pin) + position.main(inScrollView) < 0
                    : trail + (position.mainDimension(sv.boundsSize) - position.main(inScrollView)) < 0
                if insideInsetArea {
                    initialScrollOffset = sv.contentOffset
                } else {
                    initialScrollOffset = pin
                    let od = sv.contentOffset - pin
                    let overScrolled =
                        position.expandsTowardLowerCoordinate ? position.main(od) < 0 : position.main(od) > 0
                    if overScrolled { shift = Point(x: -od.x, y: -od.y) }
                }
            } else {
                initialScrollOffset = sv.contentOffset
            }
        }
        initialTranslation = translation
        emit(.willBeginDragging(state: state.name))
        // FloatingPanel adds `shift.y` for every position (a quirk, §3.3 step 5).
        layoutStartInteraction(shift: shift.y)
        interactionInProgress = true
        lockScrollView()
    }

    /// LayoutAdapter.startInteraction (§3.3 step 5).
    private mutating func layoutStartInteraction(shift: Double) {
        if constraint.kind == .interaction {
            initialConstant = constraint.constant
            return
        }
        initialConstant = frameEdge + shift
        constraint = .interaction(initialConstant)
        layoutNeedsSync = true
    }

    /// §3.4.
    private mutating func panningChange(translation: Point) {
        let pre = surfaceLocation
        let diff = position.main(translation - initialTranslation)
        // The scroll-view test is out of line, so that a panel without one does not copy the model.
        updateInteractiveEdge(
            diff: diff, clamp: tracksScrollView && shouldScrollingContentInMoving(from: pre, to: pre + diff))
        let cur = surfaceLocation
        backdropAlpha = geometry.interpolatedBackdropAlpha(at: cur, translation: position.main(translation))
        if pre != cur { emitDidMove(cur) }
    }

    /// §3.4.1, with UIScrollView's rubber band (physics.md §2) on the edges the behavior allows.
    @inline(__always)
    private mutating func updateInteractiveEdge(diff: Double, clamp: Bool) {
        let minC = geometry.leastCoordinatePosition
        let maxC = geometry.mostCoordinatePosition
        var c = initialConstant + diff
        if c < minC, behavior.rubberBandingEdges.contains("top") {
            c = minC - rubberBand(minC - c, geometry.mainDimension)
        }
        if c > maxC, behavior.rubberBandingEdges.contains("bottom") {
            c = maxC + rubberBand(c - maxC, geometry.mainDimension)
        }
        if clamp { c = min(max(c, minC), maxC) }
        if constraint.kind == .interaction {
            constraint.constant = c
            layoutNeedsSync = true
        }
    }

    /// §4.1.
    private mutating func panningEnd(translation: Point, velocity: Point) {
        if state == .hidden { return }
        // FP-S6 before `perFrame`: one pin to io after this sample when inside the most expanded anchor.
        if profile.listPinning != .perFrame, tracksScrollView, offset(from: geometry.mostExpandedState) > 0 {
            asyncPinPending = true
        }
        let y = surfaceLocation
        let vMain = position.main(velocity)
        let proposed = targetState(from: y, velocity: vMain)
        // endInteraction (§4.1 step 4): the lock uses the target before the delegate's override.
        interactionInProgress = false
        if !isScrollable(proposed) { lockScrollView() }
        if constraint.kind != .interaction { layoutStartInteraction(shift: 0) }

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
                let t = profile.removalThreshold(behavior)
                switch position {
                case .top, .left: shouldRemove = ratio <= -t
                case .bottom, .right: shouldRemove = ratio >= t
                }
            }
            if shouldRemove {
                remove()
                return
            }
        }

        var target = proposed
        if let name = delegate.targetStateOverrides[proposed.name],
            let forced = geometry.panel.anchors.first(where: { $0.state.name == name })?.state
                ?? (name == "hidden" ? .hidden : nil)
        {
            target = forced
        }
        emit(.willEndDragging(velocity: velocity, proposed: proposed.name, target: target.name))
        if geometry.position(of: target) == surfaceLocation {
            // endWithoutAttraction (§4.1 step 7): FP-S11 clears io, FP-S7 orders didEndDragging,
            // FP-S9 (2.8.1) leaves `state` unassigned.
            if profile.clearOffsetAfterAttraction { initialScrollOffset = nil }
            if !profile.newEventOrder { emit(.didEndDragging(willAttract: false)) }
            if !profile.exactAnchorStateBug { setState(target) }
            updateLayout(to: target)
            unlockScrollView()
            if profile.newEventOrder { emit(.didEndDragging(willAttract: false)) }
        } else {
            emit(.didEndDragging(willAttract: true))
            // FP-S6 toggle: isScrollEnabled off and on around startAttraction stops the list's
            // momentum (O7); a return to the edge after a release beyond it still runs.
            let stopsDeceleration =
                profile.listPinning == .toggle
                ? target != geometry.mostExpandedState
                : profile.listPinning == .toggleFull && target.name != FloatingPanelState.full.name
            if stopsDeceleration {
                updateScrollView { if $0.isDecelerating && !$0.returnsToEdge { $0.stopDeceleration() } }
            }
            startAttraction(to: target, velocity: vMain, completion: .dragEnd)
        }
    }

    /// §4.2 targetState: the snap decision from the current location (pt) and main velocity (pt/s).
    @inline(__always)
    func targetState(from currentY: Double, velocity: Double) -> FloatingPanelState {
        PanelCore.targetState(in: geometry, behavior: behavior, state: state, from: currentY, velocity: velocity)
    }

    /// §4.2 targetState (FloatingPanel `Core.targetState(from:with:)`), on indices into
    /// `sortedByCoordinate` (anchor orders are unique, so an index identifies a state and the
    /// neighbours FloatingPanel finds with `firstIndex(of:)` are index ± 1). Static so that a call
    /// from a mutating method passes these fields instead of a copy of the whole core.
    /// - Complexity: O(anchors).
    static func targetState(
        in geometry: LayoutGeometry, behavior: PanelBehavior, state: FloatingPanelState,
        from currentY: Double, velocity: Double
    ) -> FloatingPanelState {
        let list = geometry.sortedByCoordinate
        let n = list.count
        guard n > 1 else { return state }
        let positions = geometry.coordinatePositions
        func next(_ i: Int) -> Int { i + 1 < n ? i + 1 : i }
        func pre(_ i: Int) -> Int { i > 0 ? i - 1 : i }
        /// `segment(at:forward:)` with FloatingPanel's fallbacks: a missing lower is the first
        /// state, a missing upper the last.
        func segment(_ p: Double, _ forward: Bool) -> (lower: Int, upper: Int) {
            let i = geometry.segmentIndex(at: p, forward: forward)
            return (i == 0 ? 0 : i - 1, i < n ? i : n - 1)
        }
        let r = behavior.momentumProjectionRate
        let baseY = abs(geometry.leastExpandedPosition - geometry.mostExpandedPosition)
        var pY = ((((velocity / baseY) / 1000) * r) / (1 - r)) * baseY + currentY
        let forward = velocity == 0 ? (currentY - geometry.position(of: state) > 0) : (velocity > 0)

        var (lower, upper) = segment(pY, forward)
        var (from, to) = forward ? (lower, upper) : (upper, lower)

        if !behavior.projectsMomentumTo.contains(list[to].name) {
            (lower, upper) = segment(currentY, forward)
            if lower == upper {
                if forward { upper = next(lower) } else { lower = pre(lower) }
            }
            (from, to) = forward ? (lower, upper) : (upper, lower)
            if forward {
                pY = max(min(pY, positions[next(to)]), positions[from])
            } else {
                pY = max(min(pY, positions[from]), positions[pre(to)])
            }
        }
        let threshold = max(0, min(1, behavior.redirectionalProgress))
        let progress = abs(pY - positions[from]) / abs(positions[from] - positions[to])
        return progress > threshold ? list[to] : list[from]
    }

    // MARK: Attraction (§4.3–§4.5)

    private mutating func startAttraction(
        to target: FloatingPanelState, velocity: Double, completion: AttractionCompletion
    ) {
        // isAttracting becomes true with willBeginAttracting: the running attraction is installed first.
        let start = setUpAttractionStart()
        let rate = behavior.springDecelerationRate
        if logDecelerationRate.rate.bitPattern != rate.bitPattern {
            logDecelerationRate = (rate, DeterministicMath.log(rate))
        }
        let spring = NumericSpring(
            value: start - geometry.attractionSetUpShift(for: target), velocity: velocity,
            target: geometry.position(of: target) - geometry.attractionSetUpShift(for: target),
            logDecelerationRate: logDecelerationRate.log,
            responseTime: behavior.springResponseTime,
            frameRate: geometry.environment.frameRate,
            displayScale: geometry.environment.displayScale)
        attractionSerial += 1
        runningAttraction = RunningAttraction(
            spring: spring, state: target, completion: completion, startTime: now,
            serial: attractionSerial)
        isAttracting = true
        attractionIsSilent = completion == .programmatic && !profile.newEventOrder
        if !attractionIsSilent {
            emit(.willBeginAttracting(to: target.name))
            guard isAttracting else { return }
        }
        constraint = .attraction(spring.value, state: target, geometry: geometry)
        layoutNeedsSync = true
        setState(target)
    }

    /// The location the attraction starts from: the getter after the interaction constraint is dropped.
    private mutating func setUpAttractionStart() -> Double {
        if constraint.kind == .interaction {
            constraint = .anchored(state)
            return roundedEdge(frameEdge)
        }
        return surfaceLocation
    }

    /// Steps the attraction spring one frame (§4.4) if it started before this frame.
    /// The attraction is stepped in place (no copy of it per frame).
    @inline(__always)
    mutating func stepAttraction(frameTime: Microseconds) {
        guard isAttracting, let step = runningAttraction.step(before: frameTime) else { return }
        let value = step.value
        let serial = step.serial
        if !step.detached {
            // The attraction's constraint holds the surface until a layout activation detaches it.
            constraint.constant = value
            layoutNeedsSync = true
        }
        // One surface location for the alpha and the didMove (pinning the list does not move the surface).
        let location = surfaceLocation
        backdropAlpha = geometry.interpolatedBackdropAlpha(at: location, translation: value - step.initialValue)
        if tracksScrollView, profile.listPinning == .perFrame, let io = initialScrollOffset { stopScrolling(at: io) }
        // notifyDidMove at the location already computed (written out: the inliner kept a helper out of line).
        if inWindow { emitDidMove(location) }
        // The delegate hook may have ended this attraction or started another.
        guard step.settled, isAttracting, runningAttraction.serial == serial else { return }
        settleAttraction()
    }

    /// The running attraction's spring settled this frame (§4.4 completion): the layout snaps to
    /// its state, then the completion runs.
    private mutating func settleAttraction() {
        let target = runningAttraction.state
        let completion = runningAttraction.completion
        updateLayout(to: target)
        // FP-S7 old: the spring's completion notifies no extra didMove.
        if profile.newEventOrder { notifyDidMove() }
        switch completion {
        case .dragEnd: endAttraction(tryUnlock: true)
        case .programmatic where attractionIsSilent:
            isAttracting = false
            attractionIsSilent = false
            if profile.moveAnimatorLeak { staleMoveAnimator = true }
            updateScrollViewLock()
        case .programmatic:
            endAttraction(tryUnlock: false)
            updateScrollViewLock()
        }
    }

    /// §4.5.
    private mutating func endAttraction(tryUnlock: Bool) {
        isAttracting = false
        attractionIsSilent = false
        staleMoveAnimator = false
        if profile.clearOffsetAfterAttraction { initialScrollOffset = nil }
        emit(.didEndAttracting)
        // Without a tracked scroll view all three are false (and unlocking does nothing).
        if tryUnlock, tracksScrollView, (isScrollable(state) && offset(from: state) == 0) || shouldLooselyLock {
            unlockScrollView()
        }
    }

    /// The end step of programmatic moves (`updateScrollView`, §5.1 step 5).
    private mutating func updateScrollViewLock() {
        if isScrollable(state) && offset(from: state) == 0 { unlockScrollView() } else { lockScrollView() }
    }

    /// §4.7.
    private mutating func interruptAnimationIfNeeded() {
        if isAttracting {
            endAttraction(tryUnlock: false)
        }
        if case .some = transition {
            let running = transition.unsafelyUnwrapped
            if offset(from: geometry.mostExpandedState) < 0 { return }
            let elapsed = Double(now - running.startTime) / 1_000_000
            frameEdge = roundedEdge(running.spring.location(at: elapsed))
            if offset(from: geometry.mostExpandedState) == 0 {
                setSurfaceLocation(geometry.roundedPosition(of: geometry.mostExpandedState))
            }
            finishTransition()
        }
    }

    /// The property animator's completion block (§5.1 step 6).
    private mutating func finishTransition() {
        guard let running = transition else { return }
        transition = nil
        updateScrollViewLock()
        notifyDidMove()
        run(running.completion)
    }

    /// The caller's completion of a move (§5.2): for a removal, the view leaves its parent and
    /// `didRemove` fires; after it the view is out of the window (no more didMove, O15).
    private mutating func run(_ completion: TransitionCompletion) {
        guard completion == .didRemove else { return }
        hasParent = false
        emit(.didRemove)
        inWindow = false
    }

    /// Completes a property animator whose duration has elapsed at this frame (O13).
    @inline(__always)
    mutating func stepTransition(frameTime: Microseconds) {
        guard case .some = transition else { return }
        let startTime = transition.unsafelyUnwrapped.startTime
        guard startTime < frameTime else { return }
        if Double(frameTime - startTime) / 1_000_000 >= transition.unsafelyUnwrapped.spring.duration {
            finishTransition()
        }
    }

    // MARK: Programmatic moves (§5.1, §5.2)

    /// `move(to:animated:)`.
    mutating func move(to target: FloatingPanelState, animated: Bool, completion: TransitionCompletion = .none) {
        let from = state
        if !isScrollable(state) { lockScrollView() }
        tearDownActiveInteraction()
        interruptAnimationIfNeeded()
        if !animated {
            setState(target)
            updateLayout(to: target)
            if isScrollable(target) { unlockScrollView() } else { lockScrollView() }
            notifyDidMove()
            run(completion)
            return
        }
        if from == .hidden || target == .hidden {
            let visibleStart = roundedEdge(frameEdge)
            let velocity = target == .hidden && from != .hidden ? abs(position.main(removalVector)) : 0
            // §5.1 step 6: `transitionAnimator := animator`, then `startAnimation()`, which runs the
            // animation block (state := to, updateLayout(to)). The order matters when app code
            // inside that block's didChangeState moves the panel again (the dismissIn recipe of a
            // show, O14): the nested move finds this animator and finishes it (§4.7 step 2), and
            // its own animator (a removal's, with didRemove) is the one left running.
            transition = RunningTransition(
                spring: TransitionSpring(
                    from: visibleStart, to: geometry.position(of: target), relativeVelocity: velocity),
                startTime: now, completion: completion)
            setState(target)
            updateLayout(to: target)
            return
        }
        startAttraction(to: target, velocity: 0, completion: .programmatic)
    }

    /// `show(animated:)` (§5.2). A removal still in flight is finished first (its completion
    /// reports `didRemove`), then the panel is shown again in its parent: PanelSim's reading of an app
    /// that re-adds a removed panel and shows it, so that the result never depends on whether the
    /// removal had finished.
    mutating func show(animated: Bool) {
        if case .some = transition { interruptAnimationIfNeeded() }
        hasParent = true
        inWindow = true
        dismissBeyondFired = false
        dismissInFired = false
        activateLayout()
        observingSafeArea = true
        observeSafeArea()
        move(to: geometry.panel.initialState, animated: animated)
    }

    /// FloatingPanel's `tearDownActiveInteraction` (disable and re-enable the pan): a recognizer in
    /// began/changed is cancelled, and the handler sees `cancelled` synchronously (O12) with the
    /// recognizer's last values.
    private mutating func tearDownActiveInteraction() {
        guard pan.active, pan.onSurface, !pan.cancelledByPanel else { return }
        pan.active = false
        pan.cancelledByPanel = true
        handlePan(.cancelled, translation: pan.lastTranslation, velocity: pan.lastVelocity, at: pan.lastPoint)
    }

    /// `hide(animated:)`.
    mutating func hide(animated: Bool) { move(to: .hidden, animated: animated) }

    /// The controller's `remove()` for a panel added to a parent: `removePanelFromParent(animated: true)`.
    mutating func remove() {
        guard hasParent else { return }
        emit(.willRemove)
        move(to: .hidden, animated: true, completion: .didRemove)
    }

    /// The backdrop's dismissal tap (§5.2): only when enabled.
    mutating func tapBackdrop() {
        guard geometry.panel.dismissalTapEnabled, hasParent else { return }
        removalVector = .zero
        remove()
    }

    /// O15: the panel starts hidden in its parent; `presented` shows it without animation.
    mutating func start(presented: Bool) {
        state = .hidden
        constraint = .anchored(.hidden)
        forceLayout()
        if presented { show(animated: false) }
    }

    /// True until `didRemove` (the view is in a window).
    var isInWindow: Bool { inWindow }

    /// Reserves room for `n` records and their events (`RecordList.reserveForReplay`).
    mutating func reserveRecords(_ n: Int) { records.reserveForReplay(n) }

    /// Hands over every record and leaves the list empty (no copy).
    mutating func takeRecords() -> RecordList {
        var out = RecordList()
        swap(&out, &records)
        return out
    }

    /// The records before the last frame (`RecordList.takeRecordsBeforeLastFrame()`), for a
    /// streaming replay.
    mutating func takeRecordsBeforeLastFrame() -> RecordList? { records.takeRecordsBeforeLastFrame() }

    /// True while an attraction or property animator runs (a touch then begins the pan at once, §3.1).
    /// Tests the optionals' cases, not `!= nil`, so that no running value is copied. Inlined, as
    /// `isAnimating` and `isScrollViewAnimating`: called out of line from a mutating method, a
    /// getter is handed a copy of the whole core.
    @inline(__always)
    var isPanelAnimating: Bool {
        if isAttracting { return true }
        if case .some = transition { return true }
        return false
    }

    /// True while anything animates: the panel, or the scroll view decelerating or returning to an edge.
    @inline(__always)
    var isAnimating: Bool { isPanelAnimating || isScrollViewAnimating }

    /// True while the tracked scroll view decelerates or returns to an edge.
    @inline(__always)
    var isScrollViewAnimating: Bool {
        return tracksScrollView
            && (scrollView.unsafelyUnwrapped.isDecelerating || scrollView.unsafelyUnwrapped.returnsToEdge)
    }

    /// `PanelSystem.runFrames`: `runFrame` and `clock.advance()` while the frame reported animating
    /// and the clock is before `dueFrame`, in one loop (the frame's body inlined, no call per frame).
    /// Plain attraction frames (`runsPlainAttraction`) take `plainAttractionFrame`, the others `frame`.
    mutating func runFrames(_ clock: inout FrameClock, before dueFrame: Int64) -> Bool {
        var animating: Bool
        var frameClock = clock  // a local copy stays in registers (the caller's is written once)
        var plain = runsPlainAttraction
        repeat {
            if plain && runningAttraction.startTime < frameClock.time {
                let result = plainAttractionFrame(index: frameClock.index, time: frameClock.time)
                animating = result.animating
                if result.settled { plain = runsPlainAttraction }
            } else {
                animating = frame(index: frameClock.index, time: frameClock.time)
                plain = runsPlainAttraction
            }
            frameClock.advance()
        } while animating && Int64(frameClock.index) < dueFrame
        clock = frameClock
        return animating
    }

    /// True when the attraction's next frames are plain: it runs attached to the surface through its
    /// own constraint for an anchor state, and nothing else takes part in a frame: no tracked scroll
    /// view, no property animator, no drag, no `didMove` recipes (so no app code runs), the view in
    /// a window, no `contentInset` channel. A plain frame changes none of these; only a settling
    /// spring, a sample or a general frame can.
    private var runsPlainAttraction: Bool {
        guard isAttracting, !attractionIsSilent, !runningAttraction.detached, constraint.kind == .attraction,
            stateHasAnchor,
            !tracksScrollView, !hasDidMoveRecipes, inWindow, !interactionInProgress, !recordsContentInset
        else { return false }
        if case .some = transition { return false }
        return true
    }

    /// `frame(index:time:)` for a plain attraction (`runsPlainAttraction`) whose spring started
    /// before `time`, with what those conditions decide written out: the surface location is the
    /// constraint's constant plus its getter shift, the frame has only the `isAttracting` flag and
    /// no content offset, nothing decelerates, no animator completes, and `isAnimating` stays true
    /// unless the spring settles. When it settles, the frame ends as a general one
    /// (`settleAttraction`, then `finishFrame`). Returns `isAnimating` and whether it settled.
    @inline(__always)
    private mutating func plainAttractionFrame(index: Int, time: Microseconds) -> (animating: Bool, settled: Bool) {
        now = time
        let settled = runningAttraction.spring.advance()
        let value = runningAttraction.spring.value
        constraint.constant = value
        layoutNeedsSync = true
        let location = value + constraint.getterShift  // surfaceLocation
        backdropAlpha = geometry.interpolatedBackdropAlpha(
            at: location, translation: value - runningAttraction.spring.initialValue)
        emitDidMove(location)
        if settled { return (settleAndFinishFrame(index: index), true) }
        // syncLayout(): the constraints' location is the surface location.
        frameEdgeValue = location
        frameEdgeNeedsRounding = true
        layoutNeedsSync = false
        let entry = RecordList.Entry(
            kind: .frame, flags: RecordList.Entry.isAttracting, index: stateNameIndex,
            integer: Int64(index), location: location, backdropAlpha: backdropAlpha, contentOffset: 0)
        if records.repeatsLastFrame(entry) { return (true, false) }
        records.appendFrame(entry, owned: true)
        return (true, false)
    }

    /// One display frame: at `time` (µs), frame number `index`, steps every animation started before
    /// it (attraction, scroll deceleration, property animator), syncs the layout and records the frame.
    /// Returns `isAnimating` afterwards. Inlined into the replay loops (`Replay` and the streaming
    /// one) by declaration: the optimizer's own choice varies with unrelated code in the module, and
    /// a call per frame that processes a sample costs a short replay about 3 % of its instructions.
    @inline(__always)
    mutating func runFrame(index: Int, time: Microseconds) -> Bool {
        if isQuietFrame { return quietFrame(index: index, time: time) }
        return frame(index: index, time: time)
    }

    /// True when a frame has nothing to step: no attraction, no property animator, no tracked
    /// scroll view (so no deceleration and no content-offset channel), no `contentInset` channel;
    /// the frames after a drag's samples are such frames.
    private var isQuietFrame: Bool {
        guard !isAttracting, !tracksScrollView, !recordsContentInset else { return false }
        if case .some = transition { return false }
        return true
    }

    /// `frame(index:time:)` when `isQuietFrame`: the layout sync and the frame record, with what
    /// those conditions decide written out (no step, no content offset, not attracting, nothing
    /// animating afterwards). Returns `isAnimating` (false).
    @inline(__always)
    private mutating func quietFrame(index: Int, time: Microseconds) -> Bool {
        now = time
        syncLayout()
        let flags: UInt8 = interactionInProgress ? RecordList.Entry.isDragging : 0
        let entry = RecordList.Entry(
            kind: .frame, flags: flags, index: stateNameIndex, integer: Int64(index),
            location: surfaceLocation, backdropAlpha: backdropAlpha, contentOffset: 0)
        if records.repeatsLastFrame(entry) { return false }
        records.appendFrame(entry, owned: true)
        return false
    }

    /// `runFrame`'s body, inlined into `runFrame` and into `runFrames`' loop.
    @inline(__always)
    private mutating func frame(index: Int, time: Microseconds) -> Bool {
        now = time
        stepAttraction(frameTime: time)
        return finishFrame(index: index)
    }

    /// A plain attraction frame whose spring settled: `settleAttraction`, then the rest of the frame
    /// as a general one. Out of line, so that the plain frame stays small enough to inline.
    @inline(never)
    private mutating func settleAndFinishFrame(index: Int) -> Bool {
        settleAttraction()
        return finishFrame(index: index)
    }

    /// The rest of frame `index` at `now` after the attraction's step: the scroll view's deceleration,
    /// the property animator, the layout sync and the frame record. Returns `isAnimating`.
    @inline(__always)
    private mutating func finishFrame(index: Int) -> Bool {
        let time = now
        stepDeceleration(frameTime: time)
        stepTransition(frameTime: time)
        syncLayout()
        // Frame `index` (trace-format.md §2.3), unless its values repeat the previous frame's.
        // Written here rather than in a helper: the optimizer kept such a helper out of line.
        var flags: UInt8 = 0
        if isAttracting && !attractionIsSilent { flags |= RecordList.Entry.isAttracting }
        if interactionInProgress { flags |= RecordList.Entry.isDragging }
        var offset = 0.0
        if tracksScrollView {
            flags |= RecordList.Entry.hasContentOffset | RecordList.Entry.hasScrollLocked
            if scrollLocked { flags |= RecordList.Entry.scrollLocked }
            offset = position.main(scrollView.unsafelyUnwrapped.contentOffset)
        }
        let entry = RecordList.Entry(
            kind: .frame, flags: flags, index: stateNameIndex, integer: Int64(index),
            location: surfaceLocation, backdropAlpha: backdropAlpha, contentOffset: offset)
        if recordsContentInset {
            let inset = tracksScrollView ? scrollView.unsafelyUnwrapped.contentInset : nil
            if records.repeatsLastFrame(entry), inset == lastFrameInset { return isAnimating }
            lastFrameInset = inset
            if let inset {
                records.appendFrame(entry, contentInset: inset, owned: true)
            } else {
                records.appendFrame(entry, owned: true)
            }
            return isAnimating
        }
        if records.repeatsLastFrame(entry) { return isAnimating }
        records.appendFrame(entry, owned: true)
        return isAnimating
    }
}

// MARK: - Scroll-view tracking and arbitration (floatingpanel-core.md §2, §3.5–§3.10)

extension PanelCore {
    /// `track(scrollView:)` (§2): a new view captures io, the saved bounce and indicator flags.
    mutating func track(_ configuration: ScrollViewConfiguration) {
        untrack()
        let sv = ScrollViewModel(configuration, position: position)
        scrollView = sv
        tracksScrollView = true
        // FP-S15 off (≤ 2.5.1): io is a plain value from (0, 0) that tracking leaves alone.
        initialScrollOffset = profile.ioAtTrack ? sv.contentOffset : initialScrollOffset ?? .zero
        scrollBounce = sv.bounces
        scrollIndicatorVisible =
            position.isVertical ? sv.showsVerticalScrollIndicator : sv.showsHorizontalScrollIndicator
        scrollLocked = false
    }

    /// `untrack(scrollView:)`: restores the flags FloatingPanel changed.
    mutating func untrack() {
        guard var sv = scrollView else { return }
        sv.isDirectionalLockEnabled = false
        sv.bounces = scrollBounce
        if position.isVertical {
            sv.showsVerticalScrollIndicator = scrollIndicatorVisible
        } else {
            sv.showsHorizontalScrollIndicator = scrollIndicatorVisible
        }
        scrollView = nil
        tracksScrollView = false
        scrollLocked = false
    }

    /// Applies `body` to the tracked scroll view, if any.
    /// Mutates the stored value in place (no copy of the model).
    mutating func updateScrollView(_ body: (inout ScrollViewModel) -> Void) {
        guard case .some = scrollView else { return }
        body(&scrollView!)
    }

    /// §3.6.1 `isScrollable(state)`.
    @inline(__always)
    func isScrollable(_ s: FloatingPanelState) -> Bool {
        guard tracksScrollView else { return false }
        if let states = delegate.scrollableStates { return states.contains(s.name) }
        return s == geometry.mostExpandedState
    }

    /// §3.6.2 `contentOffsetForPinning` (not implemented by the simulated delegate, O11), from the
    /// scroll view's adjustedContentInset (contentInset + systemInset, e.g. −44 under a navigation bar).
    func pinningOffset(_ sv: ScrollViewModel) -> Point {
        switch position {
        case .top: return Point(x: 0, y: sv.contentOffsetMax.y)
        case .left: return Point(x: sv.contentOffsetMax.x, y: 0)
        case .bottom: return Point(x: 0, y: -sv.adjustedContentInset.top)
        case .right: return Point(x: -sv.adjustedContentInset.left, y: 0)
        }
    }

    /// §3.6.2 `allowScrollPanGesture(cond)`: top/left measure from the content end (ignoring any
    /// pinning override, a quirk), bottom/right from the pinning offset.
    func allowScrollPanGesture(_ sv: ScrollViewModel, _ condition: (Double) -> Bool) -> Bool {
        let a =
            position.expandsTowardLowerCoordinate
            ? position.main(sv.contentOffset - pinningOffset(sv))
            : position.main(sv.contentOffsetMax - sv.contentOffset)
        return condition(a)
    }

    /// §1.8: the grabber band along the surface's moving edge, with FloatingPanel's clamps.
    /// `p` is surface-local.
    @inline(__always)
    func grabberContains(_ p: Point) -> Bool {
        geometry.grabberAreaContains(p, surfaceSize: surfaceFrame.size)
    }

    /// `stopScrolling(at:)`: replaces the main-axis offset (non-animated setter, kills deceleration).
    mutating func stopScrolling(at offset: Point) {
        let value = position.main(offset)
        let position = position
        if profile.negativePinToZero && offset.y < 0 {
            // FP-S3 (2.6.3 – 2.6.5): y tested for every position, both axes zeroed [QUIRK].
            updateScrollView {
                $0.contentOffset = .zero
                $0.setMainOffset(0, position)
            }
            return
        }
        updateScrollView { $0.setMainOffset(value, position) }
    }

    /// FP-S6's pin after a release's sample (`asyncPinPending`): pins the list to io.
    mutating func runAsyncPin() {
        asyncPinPending = false
        if tracksScrollView, let io = initialScrollOffset { stopScrolling(at: io) }
    }

    /// §3.6.3 `shouldLooselyLock`.
    @inline(__always)
    var shouldLooselyLock: Bool {
        guard let sv = scrollView, geometry.panel.contentMode == .fitToBounds else { return false }
        let frame = surfaceFrame
        guard frame.size.width != 0 || frame.size.height != 0 else { return false }
        return position.mainDimension(sv.contentSize)
            < position.mainDimension(sv.boundsSize) + max(offset(from: geometry.mostExpandedState), 0)
    }

    /// §3.6.3 `lockScrollView(strict:)`.
    mutating func lockScrollView(strict: Bool = false) {
        guard tracksScrollView, !scrollLocked else { return }
        let loose = !strict && shouldLooselyLock
        scrollBounce = scrollView!.bounces
        if !loose { scrollView!.bounces = false }
        scrollView!.isDirectionalLockEnabled = true
        if position.isVertical {
            scrollIndicatorVisible = scrollView!.showsVerticalScrollIndicator
            scrollView!.showsVerticalScrollIndicator = false
        } else {
            scrollIndicatorVisible = scrollView!.showsHorizontalScrollIndicator
            scrollView!.showsHorizontalScrollIndicator = false
        }
        scrollLocked = true
    }

    /// §3.6.3 `unlockScrollView()`.
    mutating func unlockScrollView() {
        guard tracksScrollView, scrollLocked else { return }
        scrollLocked = false
        scrollView!.bounces = scrollBounce
        scrollView!.isDirectionalLockEnabled = false
        if position.isVertical {
            scrollView!.showsVerticalScrollIndicator = scrollIndicatorVisible
        } else {
            scrollView!.showsHorizontalScrollIndicator = scrollIndicatorVisible
        }
    }

    /// §3.5 `shouldScrollViewHandleTouch`: the panel ignores this event. `velocity` is main-axis pt/s.
    func shouldScrollViewHandleTouch(velocity v: Double) -> Bool {
        guard let sv = scrollView, sv.frame.contains(initialLocation) else { return false }
        guard isScrollable(state), !interactionInProgress,
            profile.anchorTolerance ? abs(offset(from: state)) < 1 : offset(from: state) == 0,
            !grabberContains(initialLocation)
        else { return false }
        let od = position.main(sv.contentOffset - pinningOffset(sv))
        if position.expandsTowardLowerCoordinate {
            if od > 0 || (v <= 0 && od < 0) { return true }
        } else {
            if od < 0 || (v >= 0 && od > 0) { return true }
        }
        return sv.isDecelerating
    }

    /// §3.5 as FloatingPanel ≤ 2.7.x answered it (FP-S8 old): the grabber band tested with the
    /// current surface-local `location` as well, and a decreasing finger (`v ≤ 0`, bottom/right)
    /// left to the list whatever the content offset.
    func shouldScrollViewHandleTouchBefore280(velocity v: Double, location: Point) -> Bool {
        guard let sv = scrollView else { return false }
        guard isScrollable(state), !interactionInProgress, offset(from: geometry.mostExpandedState) == 0 else {
            return false
        }
        let grabberAtStart = grabberContains(initialLocation)
        let grabberNow = grabberContains(location)
        if grabberNow && !grabberAtStart { return true }
        let size = surfaceFrame.size
        if grabberAtStart && !Rect(x: 0, y: 0, width: size.width, height: size.height).contains(location) {
            return false
        }
        guard sv.frame.contains(initialLocation), !grabberNow else { return false }
        let od = position.main(sv.contentOffset - pinningOffset(sv))
        if position.expandsTowardLowerCoordinate {
            if od > 0 || v <= 0 { return true }
        } else {
            if od < 0 || v >= 0 { return true }
        }
        return sv.isDecelerating
    }

    /// §3.4.2 `shouldScrollingContentInMoving(from:to:)`: clamp the drag to the extreme anchors
    /// while the finger is on the expanding side and the content can scroll.
    @inline(__always)
    func shouldScrollingContentInMoving(from current: Double, to target: Double) -> Bool {
        guard tracksScrollView, scrollPanPhase == .changed, !grabberContains(initialLocation) else { return false }
        let expanding = position.expandsTowardLowerCoordinate ? current > target : current < target
        // FP-S10 (≤ 2.8.3): the surface must also be below location 0 before the sample.
        return expanding && (!profile.clampAboveZero || current > 0)
            && scrollView.unsafelyUnwrapped.isScrollableContent(position)
    }

    /// True when the panel's recognizer must wait for the scroll view's pan to fail (§3.8 item 3),
    /// evaluated when both recognize; `location` is the current surface-local touch point.
    func panelPanRequiresScrollPanToFail(location: Point) -> Bool {
        guard let sv = scrollView else { return false }
        if grabberContains(location) || !isScrollable(state) { return false }
        // FP-S4 old (≤ 2.6.3): the panel also waits while the content is scrolled (a > 0).
        let waitsWhenScrolled = !profile.newScrollFailureRule
        return allowScrollPanGesture(sv) { $0 <= -30 || (waitsWhenScrolled && $0 > 0) }
    }

    /// §3.7: Core's handler for the scroll view's pan, after the scroll view's own update.
    /// `velocity` is main-axis pt/s; `location` the current surface-local touch point.
    mutating func handleScrollPan(velocity v: Double, location: Point) {
        guard let sv = scrollView else { return }
        let d = offset(from: geometry.mostExpandedState)
        let scrollable = isScrollable(state)
        let dragging = interactionInProgress
        let grabberAtStart = grabberContains(initialLocation)
        let grabberNow = grabberContains(location)
        let pin = pinningOffset(sv)
        let od = position.main(sv.contentOffset - pin)
        let lowerFirst = position.expandsTowardLowerCoordinate
        if d > 0 {
            if scrollable, let io = initialScrollOffset {
                if dragging {
                    stopScrolling(at: io)
                } else if !profile.newScrollHandleRule {
                    // FP-S8 old A1: only a touch now in the grabber band pins; no io == pin rule.
                    if grabberNow { stopScrolling(at: io) }
                } else {
                    if grabberAtStart { stopScrolling(at: io) }
                    if position.main(io - pin) == 0 { stopScrolling(at: io) }
                }
            } else if let io = initialScrollOffset {
                stopScrolling(at: io)
            }
            if dragging {
                lockScrollView()
            } else if scrollable, case .none = transition {
                if lowerFirst ? (od > 0 && v < 0) : (od < 0 && v > 0) { unlockScrollView() }
            }
            return
        }
        if dragging {
            if lowerFirst ? (od >= 0 && v <= 0) : (od <= 0 && v >= 0) {
                unlockScrollView()
                return
            }
            if scrollable, grabberNow, grabberAtStart, let io = initialScrollOffset { stopScrolling(at: io) }
        } else if scrollable {
            let allow = allowScrollPanGesture(sv) { $0 <= -30 || $0 > 0 }
            if lowerFirst {
                if v > 0 && !allow { lockScrollView(strict: true) }
                if v < 0 && allow { unlockScrollView() }
            } else {
                if v < 0 && !allow { lockScrollView(strict: true) }
                if v > 0 && allow { unlockScrollView() }
            }
            if grabberNow, grabberAtStart, let io = initialScrollOffset { stopScrolling(at: io) }
        }
    }

    /// The scroll view's own safe-area insets (O11): per side, the part of the container's unsafe
    /// band that the scroll view's frame covers at the current surface location.
    func scrollViewSafeAreaInsets(_ sv: ScrollViewModel) -> Insets {
        let origin = surfaceFrame.origin
        let f = Rect(
            x: origin.x + sv.frame.minX, y: origin.y + sv.frame.minY, width: sv.frame.size.width,
            height: sv.frame.size.height)
        let c = geometry.environment.container
        let s = geometry.environment.safeArea
        func overlap(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
            max(0, min(a1, b1) - max(a0, b0))
        }
        return Insets(
            top: overlap(f.minY, f.maxY, 0, s.top), left: overlap(f.minX, f.maxX, 0, s.left),
            bottom: overlap(f.minY, f.maxY, c.height - s.bottom, c.height),
            right: overlap(f.minX, f.maxX, c.width - s.right, c.width))
    }

    /// §3.10 `adjustScrollContentInsetIfNeeded` (contentInsetAdjustmentBehavior `always`).
    mutating func adjustScrollContentInsetIfNeeded() {
        guard tracksScrollView, let sv = scrollView, state != geometry.mostExpandedState, isScrollable(state) else {
            return
        }
        var inset = scrollViewSafeAreaInsets(sv)
        if geometry.panel.contentMode == .static {
            let offset = offset(from: geometry.mostExpandedState)
            if offset > 0 {
                switch position {
                case .bottom: inset.bottom = offset + inset.bottom
                case .top: inset.top = offset + inset.top
                case .left: inset.left = offset + inset.left
                case .right: inset.left = offset + inset.right  // FloatingPanel writes `left` (a quirk)
                }
            }
        }
        updateScrollView { $0.contentInset = inset }
    }

    /// The controller's safe-area observation, which fires at once from `show` (§5.2 step 2, §3.10).
    mutating func observeSafeArea() {
        let safeArea = geometry.environment.safeArea
        guard safeArea != observedSafeArea, geometry.environment.container.width > 0,
            geometry.environment.container.height > 0
        else { return }
        observedSafeArea = safeArea
        guard let offset = scrollView?.contentOffset else { return }
        adjustScrollContentInsetIfNeeded()
        stopScrolling(at: offset)
        let position = position
        updateScrollView { sv in
            sv.contentOffset = offset
            // adjustedContentInsets: only the panel's own side carries its safe inset (a quirk that
            // overrides the adjustment above).
            var inset = Insets.zero
            switch position {
            case .top: inset.top = safeArea.top
            case .left: inset.left = safeArea.left
            case .bottom: inset.bottom = safeArea.bottom
            case .right: inset.right = safeArea.right
            }
            sv.contentInset = inset
        }
    }

    /// O7: one frame of deceleration, or the return to the edge after a release beyond it.
    @inline(__always)
    mutating func stepDeceleration(frameTime: Microseconds) {
        guard isScrollViewAnimating else { return }
        let pixel = geometry.pixel
        let position = position
        updateScrollView { $0.stepDeceleration(frameTime: frameTime, pixel: pixel, position) }
    }

    /// The scroll view's pan ended (O7): decelerate from inside the range, or return to the edge.
    mutating func endScrollPan(velocity: Double) {
        let now = now
        let frameRate = geometry.environment.frameRate
        let position = position
        updateScrollView { $0.endPan(velocity: velocity, at: now, frameRate: frameRate, position) }
    }

    /// A touch down inside the scroll view stops its deceleration (iOS's tap-to-stop, O7).
    mutating func touchDownInScrollView(_ surfacePoint: Point) {
        guard let sv = scrollView, sv.frame.contains(surfacePoint), sv.isAnimating else { return }
        updateScrollView { $0.stopDeceleration() }
    }

    /// `setContentOffset` and driven `scroll` samples (O8, O9): applied at once, stops deceleration.
    mutating func setContentOffset(x: Double?, y: Double?) {
        let position = position
        updateScrollView { s in
            if let x { s.contentOffset.x = x }
            if let y { s.contentOffset.y = y }
            s.setMainOffset(position.main(s.contentOffset), position)
        }
    }

    /// `setContentSize` (O9).
    mutating func setContentSize(width: Double?, height: Double?) {
        updateScrollView { s in
            if let width { s.contentSize.width = width }
            if let height { s.contentSize.height = height }
        }
    }
}
