/// DrawerKit behind the replay seam (drawerkit.md §3, quirks §4, defaults §5): the presentation
/// controller's state, its pan and tap recognizers, `animateTransition(to:)` with additive
/// animators, UIKit's present/dismiss transitions, and the records of §2.3.
///
/// Model y (`modelY`) is the presented view's `frame.origin.y`, which DrawerKit reads and writes;
/// the on-screen y (frame `location`) adds what running animators still contribute (§3.9, D2).

/// A running `UIViewPropertyAnimator` (§3.9): start time, timing, the offset Δ of each channel it
/// animates (model value before − model value it set) and what runs when it completes.
struct DrawerAnimator: Sendable, Equatable {
    enum Completion: Sendable, Equatable {
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
    let start: Microseconds
    let timing: AnimatorTiming
    let deltaY: Double, deltaCorner: Double, deltaHandle: Double
    let completion: Completion
}

/// `DrawerAnimationInfo` as the events write it (§2.3).
struct DrawerTransitionInfo: Sendable, Equatable {
    var start: DrawerPlace, target: DrawerPlace, end: DrawerPlace
    var isPresenting: Bool
    var duration: Double
    var startingFrameY: Double, endingFrameY: Double

    var fields: [RecordField] {
        [RecordField("startDrawerState", .string(start.name)), RecordField("targetDrawerState", .string(target.name)),
         RecordField("endDrawerState", .string(end.name)), RecordField("isPresenting", .bool(isPresenting)),
         RecordField("actualDurationInSeconds", .number(duration)),
         RecordField("startingFrameY", .number(startingFrameY)), RecordField("endingFrameY", .number(endingFrameY))]
    }
}

struct DrawerKitSystem: PanelSystem {
    let drawer: DrawerConfiguration
    let velocitySource: VelocitySource
    let beginThreshold: Double
    var environment: PanelEnvironment
    var geometry: DrawerGeometry
    var records = RecordList()
    var warnings: [String] = []
    var secondFingers = SecondFingerFilter()
    /// Time of the sample or frame being processed (µs).
    var now: Microseconds = 0

    // Presentation (§3.2, §3.10)
    /// A presentation controller exists: from `presentationTransitionWillBegin` to
    /// `dismissalTransitionDidEnd` (the frame channel `presented`).
    var presented = false
    /// A presentation has ended before (the view rests at H, not at fullY, D5).
    var wasDismissed = false
    var target: DrawerPlace = .dismissed
    var modelY: Double
    var cornerModel = 0.0
    var handleModel = 1.0
    /// D3 `dismissalIsTerminal`: a dismissal is under way; state changes and touches are ignored.
    var terminal = false
    /// A UIKit dismissal was requested and starts after the current sample or completion chain.
    var dismissalRequested = false
    var animators: [DrawerAnimator] = []

    // Recognizers (§3.3, §3.5, D6, D7)
    var drawerTap: TapRecognizer?
    var outsideTap: TapRecognizer?
    var drawerTapEnabled = false
    var outsideTapEnabled = false
    var tracker: VelocityTracker
    /// Where finger 0's touch went at touch-down; nil when no finger is down.
    var touch: TouchRoute?
    var touchDown = Point.zero
    var panActive = false
    var panStart: DrawerPlace = .dismissed
    var lastPanPoint = Point.zero
    var lastFrame: SystemFrame?

    // Pull-to-dismiss (§3.14, D11)
    /// `scrollViewForPullToDismiss`, nil without one.
    var scrollView: ScrollViewModel?
    /// The current touch began inside the scroll view while scrolling was enabled (D11): it
    /// belongs to the scroll view's pan, and the drawer pan waits for that pan to fail.
    var touchInScrollView = false
    var scrollPanActive = false
    var lastScrollPoint = Point.zero
    /// A pull transition is pending: scrolling is disabled and the scroll delegate does nothing.
    var pullPending = false
    /// The drawer state when the scroll view's drag began.
    var scrollStartPlace: DrawerPlace = .dismissed
    /// The largest top content inset seen at a drag start.
    var largestTopInset = -Double.infinity
    /// The end-of-drag velocity recorded by `scrollViewWillEndDragging` (pt/ms), nil when none.
    var scrollEndVelocity: Point?

    enum TouchRoute: Equatable { case drawer, container, elsewhere }

    init(trace: Trace) {
        drawer = trace.header.drawer ?? DrawerConfiguration(heightOfPartiallyExpandedDrawer: 0)
        velocitySource = trace.header.recognizer.velocity
        beginThreshold = trace.header.recognizer.beginThreshold
        environment = trace.header.environment
        geometry = DrawerGeometry(drawer, height: environment.container.height, safeAreaTop: environment.safeArea.top)
        // D5: before the first presentation the presented view fills the screen (y = fullY).
        modelY = geometry.fullY
        tracker = VelocityTracker(strategy: velocitySource.strategy)
        scrollView = drawer.scrollView.map { ScrollViewModel($0, position: .bottom) }
    }

    var initialState: DrawerState {
        drawer.initialState ?? (drawer.supportsPartialExpansion ? .partiallyExpanded : .fullyExpanded)
    }
    var autoDims: Bool { drawer.handleAutoAnimatesDimming == true }
    var currentY: Double { geometry.clamp(modelY) }
    var currentPlace: DrawerPlace { geometry.place(at: currentY) }

    // MARK: PanelSystem

    mutating func start() {
        warnAboutHeights()
        guard drawer.presented else { return }
        // D12: the presentation finished before t = 0; no records.
        presented = true
        target = .named(initialState)
        modelY = geometry.position(target)
        if geometry.maximumCornerRadius != 0 && geometry.partialY != geometry.fullY {
            cornerModel = geometry.cornerRadius(at: .partiallyExpanded)
        }
        handleModel = 1
        installRecognizers()
        setTapsEnabled(true)
    }

    mutating func reserveRecords(_ n: Int) { records.reserveCapacity(n) }

    /// Warnings (never errors) for visible heights DrawerKit accepts but that are most likely
    /// mistakes: outside [0, H], which DrawerKit clamps (drawerkit.md §3.1,
    /// `GeometryEvaluator.drawerPartialH`/`drawerCollapsedH`), and a collapsed height above the
    /// partial one, which DrawerKit does not check. Judged against the header's container.
    mutating func warnAboutHeights() {
        func text(_ x: Double) -> String {
            x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
        }
        let h = geometry.height
        for (name, value, clamped) in [("heightOfPartiallyExpandedDrawer", drawer.heightOfPartiallyExpandedDrawer, geometry.partialHeight),
                                       ("heightOfCollapsedDrawer", drawer.heightOfCollapsedDrawer, geometry.collapsedHeight)]
        where value < 0 || value > h {
            warn(1, "drawer.\(name) \(text(value)) is outside 0…\(text(h)) (the container height): DrawerKit clamps it to \(text(clamped)) (drawerkit.md §3.1)")
        }
        if geometry.collapsedHeight > geometry.partialHeight {
            warn(1, "drawer.heightOfCollapsedDrawer \(text(geometry.collapsedHeight)) is greater than heightOfPartiallyExpandedDrawer "
                 + "\(text(geometry.partialHeight)): collapsed rests above partiallyExpanded (DrawerKit does not check the order)")
        }
    }

    mutating func process(_ sample: TraceSample) {
        now = sample.time
        switch sample.kind {
        case let .touch(t): handleTouch(t, line: sample.line)
        case let .systemCall(call): if let call = call as? DrawerCall { handleCall(call, line: sample.line) }
        case let .environment(e): changeEnvironment(e)
        case .call, .scroll, .observed, .end: break
        }
        startRequestedDismissal()
    }

    mutating func reachEnd(at time: Microseconds) { now = time }

    mutating func runFrame(index: Int, time: Microseconds) -> Bool {
        now = time
        if !animators.isEmpty {
            var i = 0
            while i < animators.count {
                if animators[i].timing.completes(since: animators[i].start, at: time) {
                    let done = animators.remove(at: i)
                    complete(done)
                } else {
                    i += 1
                }
            }
            startRequestedDismissal()
        }
        var scrolling = false
        if scrollView?.isAnimating == true {
            let pixel = 1 / environment.displayScale
            scrollView!.stepDeceleration(frameTime: time, pixel: pixel, .bottom)
            scrolling = scrollView!.isAnimating
        }
        writeFrame(index: index, time: time)
        return !animators.isEmpty || scrolling || (drawerTap?.isPending(at: time) ?? false) || (outsideTap?.isPending(at: time) ?? false)
    }

    var isTouchDown: Bool { touch != nil }

    mutating func finish() -> (records: RecordList, warnings: [String]) { (records, warnings) }

    // MARK: Records

    mutating func emit(_ name: String, _ fields: [RecordField] = []) {
        records.appendEvent(time: now, .system(SystemEvent(name: name, fields: fields)))
    }

    /// The participants' `DrawerAnimationActions` closure `name`, presenting first (§2.1).
    mutating func emitParticipants(_ name: String, _ info: DrawerTransitionInfo) {
        if drawer.participantPresenting { emit(name, [RecordField("participant", .string("presenting"))] + info.fields) }
        if drawer.participantPresented { emit(name, [RecordField("participant", .string("presented"))] + info.fields) }
    }

    mutating func writeFrame(index: Int, time: Microseconds) {
        var y = modelY, corner = cornerModel, handle = handleModel
        for a in animators {
            let r = a.timing.remaining(since: a.start, at: time)
            y += a.deltaY * r; corner += a.deltaCorner * r; handle += a.deltaHandle * r
        }
        var channels: [RecordField] = []
        channels.reserveCapacity(7)
        channels.append(RecordField("location", .number(presented ? y : geometry.height)))
        channels.append(RecordField("state", .string(presented ? target.name : "dismissed")))
        channels.append(RecordField("cornerRadius", .number(corner)))
        if drawer.handleAutoAnimatesDimming != nil { channels.append(RecordField("handleAlpha", .number(handle))) }
        if let sv = scrollView { channels.append(RecordField("contentOffset", .number(sv.contentOffset.y))) }
        channels.append(RecordField("isDragging", .bool(panActive)))
        channels.append(RecordField("isAnimating", .bool(!animators.isEmpty)))
        channels.append(RecordField("presented", .bool(presented)))
        let frame = SystemFrame(index: index, channels: channels)
        if index == 0 || lastFrame.map({ !$0.sameValues(as: frame) }) ?? true {
            records.appendSystemFrame(frame)
            lastFrame = frame
        }
    }

    // MARK: Gesture availability (§3.2)

    mutating func installRecognizers() {
        drawerTap = drawer.isFullyPresentableByDrawerTaps && drawer.numberOfTapsForFullDrawerPresentation > 0
            ? TapRecognizer(requiredTaps: drawer.numberOfTapsForFullDrawerPresentation) : nil
        outsideTap = drawer.isDismissableByOutsideDrawerTaps && drawer.numberOfTapsForOutsideDrawerDismissal > 0
            ? TapRecognizer(requiredTaps: drawer.numberOfTapsForOutsideDrawerDismissal) : nil
    }

    mutating func setTapsEnabled(_ enabled: Bool) {
        setDrawerTapEnabled(enabled)
        setOutsideTapEnabled(enabled)
    }
    mutating func setDrawerTapEnabled(_ enabled: Bool) {
        drawerTapEnabled = enabled
        if !enabled { drawerTap?.reset() }
    }
    mutating func setOutsideTapEnabled(_ enabled: Bool) {
        outsideTapEnabled = enabled
        if !enabled { outsideTap?.reset() }
    }

    /// Assigns `targetDrawerState` and runs the availability rule (§3.2).
    mutating func setTarget(_ place: DrawerPlace) {
        target = place
        switch place {
        case .named(.partiallyExpanded), .named(.collapsed):
            setOutsideTapEnabled(true); setDrawerTapEnabled(true)
        case .named(.fullyExpanded):
            setOutsideTapEnabled(true); setDrawerTapEnabled(false)
        case .named(.dismissed), .transitioning:
            setOutsideTapEnabled(false); setDrawerTapEnabled(false)
        }
    }

    // MARK: Transitions (§3.6)

    /// The animator for a move of `distance`-defining ends y0 → y1 with the configured timing curve.
    func timing(from y0: Double, to y1: Double) -> AnimatorTiming {
        let d = geometry.duration(from: y0, to: y1)
        switch drawer.timingCurveProvider {
        case .linear: return .linear(duration: d)
        case .dampingRatio(let zeta): return .stretchedSpring(dampingRatio: zeta, duration: d)
        case .systemSpring:
            if drawer.springTiming == .physicalSpring {
                return .physicalSpring(dampingRatio: SpringStepResponse.systemSpringDampingRatio,
                                       naturalFrequency: SpringStepResponse.systemSpringNaturalFrequency)
            }
            return .stretchedSpring(dampingRatio: SpringStepResponse.systemSpringDampingRatio, duration: d)
        }
    }

    /// `animateTransition(to:animateAlongside:completion:)`, steps 1–6; step 7 runs in `complete`.
    mutating func animateTransition(to ending: DrawerPlace, completion: Bool = false, endsPull: Bool = false) {
        let starting = currentPlace
        let y0 = geometry.position(starting), y1 = geometry.position(ending)
        let timing = timing(from: y0, to: y1)
        let info = DrawerTransitionInfo(start: starting, target: ending, end: ending, isPresenting: y1 < y0,
                                        duration: geometry.duration(from: y0, to: y1), startingFrameY: y0, endingFrameY: y1)
        if ending == .dismissed && drawer.midTransition == .dismissalIsTerminal { terminal = true }
        if autoDims { handleModel = geometry.triangular(starting) }
        emit("transitionWillStart", info.fields)
        emitParticipants("prepare", info)
        setTarget(ending)
        let newY = geometry.clamp(y1)
        let deltaY = modelY - newY
        modelY = newY
        var deltaHandle = 0.0
        if autoDims {
            let h = geometry.triangular(ending)
            deltaHandle = handleModel - h
            handleModel = h
        }
        var deltaCorner = 0.0
        if geometry.maximumCornerRadius != 0 {
            let c = geometry.cornerRadius(at: ending)
            if geometry.cornerAnimationOption != .none { deltaCorner = cornerModel - c }
            cornerModel = c
        }
        animators.append(DrawerAnimator(start: now, timing: timing, deltaY: deltaY, deltaCorner: deltaCorner,
                                        deltaHandle: deltaHandle,
                                        completion: .transition(info, starting: starting, ending: ending, completion: completion, endsPull: endsPull)))
        emitParticipants("animateAlong", info)
    }

    /// The corner-radius animator of §3.7 toward `ending`.
    mutating func animateCornerRadius(to ending: DrawerPlace) {
        let current = currentPlace
        guard geometry.maximumCornerRadius != 0, geometry.partialY != geometry.fullY,
              !ending.sameState(as: current) else { return }
        let c = geometry.cornerRadius(at: ending)
        let delta = geometry.cornerAnimationOption == .none ? 0 : cornerModel - c
        cornerModel = c
        let extreme: (DrawerPlace) -> Bool = { $0 == .dismissed || $0 == .fullyExpanded }
        let zero = (extreme(current) || extreme(ending)) && extreme(ending) && geometry.cornerAnimationOption != .none
        animators.append(DrawerAnimator(start: now, timing: timing(from: geometry.position(current), to: geometry.position(ending)),
                                        deltaY: 0, deltaCorner: delta, deltaHandle: 0, completion: .corner(zeroAtEnd: zero)))
    }

    mutating func complete(_ animator: DrawerAnimator) {
        switch animator.completion {
        case let .transition(info, starting, ending, completion, endsPull):
            if endsPull { pullPending = false }
            // §3.6 step 7: the handle alpha is set to this transition's end value (a plain write:
            // with overlapping transitions an older completion writes its own end value).
            if autoDims { handleModel = geometry.triangular(ending) }
            if ending == .dismissed { requestDismissal() }
            if geometry.maximumCornerRadius != 0 && geometry.cornerAnimationOption != .none
                && (starting == .dismissed || starting == .fullyExpanded) {
                cornerModel = 0   // Q3: tests the starting state
            }
            emitParticipants("cleanup", info)
            emit("transitionDidFinish", info.fields)
            if completion { emit("completion") }
        case let .presentation(info):
            emitParticipants("cleanup", info)
            emit("transitionDidFinish", info.fields)
            emit("presentationTransitionDidEnd", [RecordField("completed", .bool(true))])
            setTapsEnabled(true)   // Q4: regardless of the state
        case let .dismissal(info):
            emitParticipants("cleanup", info)
            emit("transitionDidFinish", info.fields)
            emit("dismissalTransitionDidEnd", [RecordField("completed", .bool(true))])
            endPresentation()
        case let .corner(zeroAtEnd):
            if zeroAtEnd { cornerModel = 0 }
        }
    }

    // MARK: UIKit transitions (§3.10, D4)

    var uiKitTransitionRunning: Bool {
        animators.contains { a in
            switch a.completion {
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
        guard presented else { dismissalRequested = false; return }
        if animators.contains(where: { if case .dismissal = $0.completion { return true } else { return false } }) {
            dismissalRequested = false
            return
        }
        if animators.contains(where: { if case .presentation = $0.completion { return true } else { return false } }) {
            return   // still requested: starts once the presentation has ended
        }
        dismissalRequested = false
        emit("dismissalTransitionWillBegin")
        animateCornerRadius(to: .dismissed)
        setTapsEnabled(false)
        let y0 = geometry.position(target), y1 = geometry.height
        let info = DrawerTransitionInfo(start: geometry.place(at: y0), target: .dismissed, end: .dismissed, isPresenting: false,
                                        duration: geometry.duration(from: y0, to: y1), startingFrameY: y0, endingFrameY: y1)
        runUIKitTransition(info, completion: .dismissal(info))
    }

    /// UIKit's presentation or dismissal transition from `info.startingFrameY` to
    /// `info.endingFrameY` (§3.10): `transitionWillStart`, the participants' `prepare`, the frame
    /// animator (the drawer's own timing over the drawer's duration), then `animateAlong`.
    private mutating func runUIKitTransition(_ info: DrawerTransitionInfo, completion: DrawerAnimator.Completion) {
        let y0 = info.startingFrameY, y1 = info.endingFrameY
        emit("transitionWillStart", info.fields)
        emitParticipants("prepare", info)
        modelY = y0
        animators.append(DrawerAnimator(start: now, timing: timing(from: y0, to: y1), deltaY: y0 - y1, deltaCorner: 0,
                                        deltaHandle: 0, completion: completion))
        modelY = y1
        emitParticipants("animateAlong", info)
    }

    mutating func present() {
        presented = true
        terminal = false
        target = .named(initialState)
        handleModel = 1
        emit("presentationTransitionWillBegin")
        installRecognizers()
        animateCornerRadius(to: .partiallyExpanded)
        setTapsEnabled(false)
        let y0 = geometry.height, y1 = geometry.position(target)
        let info = DrawerTransitionInfo(start: geometry.place(at: y0), target: geometry.place(at: y1), end: geometry.place(at: y1),
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
        drawerTap = nil; outsideTap = nil
        drawerTapEnabled = false; outsideTapEnabled = false
        touch = nil; panActive = false
    }

    // MARK: Calls (§2.2, §3.11)

    mutating func handleCall(_ call: DrawerCall, line: Int) {
        switch call {
        case .present:
            guard !presented else { return warn(line, "present ignored: the drawer is already presented") }
            present()
        case .dismiss:
            guard presented else { return warn(line, "dismiss ignored: no drawer is presented") }
            if drawer.midTransition == .dismissalIsTerminal {
                if terminal { return warn(line, "dismiss ignored: a dismissal is under way (D3)") }
                terminal = true
            }
            requestDismissal()
        case let .setDrawerState(state, _, completion):
            guard presented else { return warn(line, "setDrawerState ignored: no drawer is presented") }
            guard !terminal else { return warn(line, "setDrawerState ignored: a dismissal is under way (D3)") }
            animateTransition(to: .named(state), completion: completion)
        case let .tapDrawer(x, y):
            guard presented else { return warn(line, "tapDrawer ignored: no drawer is presented") }
            guard !terminal, !uiKitTransitionRunning else { return warn(line, "tapDrawer ignored during a UIKit transition or a dismissal (D3, D4)") }
            let p = Point(x: x ?? environment.container.width / 2, y: y)
            guard drawerTap != nil, drawerTapEnabled else { return warn(line, "tapDrawer ignored: the drawer tap recognizer is not installed or disabled") }
            guard p.y >= modelY else { return warn(line, "tapDrawer ignored: the point is outside the drawer") }
            guard !onControl(p) else { return warn(line, "tapDrawer ignored: the point is on a UIControl (content.controls)") }
            drawerTapped(at: p)
        case let .tapOutside(x, y):
            guard presented else { return warn(line, "tapOutside ignored: no drawer is presented") }
            guard !terminal, !uiKitTransitionRunning else { return warn(line, "tapOutside ignored during a UIKit transition or a dismissal (D3, D4)") }
            let p = Point(x: x ?? environment.container.width / 2, y: y)
            guard route(p) == .container else { return warn(line, "tapOutside ignored: the point is inside the drawer or passes through") }
            guard outsideTap != nil, outsideTapEnabled else { return warn(line, "tapOutside ignored: the outside tap recognizer is not installed or disabled") }
            outsideTapped(at: p)
        }
    }

    mutating func warn(_ line: Int, _ message: String) { warnings.append("line \(line): \(message)") }

    // MARK: Taps (§3.5)

    /// Hit testing at touch-down with the model frame (D8).
    func route(_ p: Point) -> TouchRoute {
        if p.y >= modelY { return .drawer }
        if case .named(let s) = currentPlace, s != .dismissed, drawer.passthroughTouchesInStates.contains(s) {
            return .elsewhere
        }
        return .container
    }

    func onControl(_ p: Point) -> Bool {
        let local = Point(x: p.x, y: p.y - modelY)
        return drawer.controls.contains { $0.contains(local) }
    }

    /// `handleDrawerFullExpansionTap`.
    mutating func drawerTapped(at p: Point) {
        guard p.y - modelY < geometry.partialHeight else { return }
        emit("drawerInteriorTapped")
        animateTransition(to: .fullyExpanded)
    }

    /// `handleDrawerDismissalTap`.
    mutating func outsideTapped(at p: Point) {
        guard p.y < currentY else { return }
        emit("drawerExteriorTapped")
        setOutsideTapEnabled(false)
        animateTransition(to: .dismissed)
    }

    // MARK: Touches (§3.3, D6, D7)

    mutating func handleTouch(_ t: TouchSample, line: Int) {
        guard secondFingers.admits(t, line: line, warnings: &warnings) else { return }
        let p = t.location
        switch t.phase {
        case .began:
            tracker.reset()
            tracker.addMovement(timeNanos: now * 1000, position: p)
            touchDown = p; lastPanPoint = p; panActive = false
            touchInScrollView = false; scrollPanActive = false
            guard presented, !terminal, !uiKitTransitionRunning else { touch = .elsewhere; return }
            let r = route(p)
            touch = r
            switch r {
            case .drawer:
                if drawerTapEnabled, !onControl(p) { drawerTap?.touchBegan(at: p, time: now) }
                let local = Point(x: p.x, y: p.y - modelY)
                if let sv = scrollView, sv.frame.contains(local) {
                    if sv.isAnimating { scrollView!.stopDeceleration() }
                    touchInScrollView = scrollingEnabled && sv.isScrollableContent(.bottom)
                }
            case .container:
                if outsideTapEnabled { outsideTap?.touchBegan(at: p, time: now) }
            case .elsewhere: break
            }
        case .moved:
            tracker.addMovement(timeNanos: now * 1000, position: p)
            guard let r = touch, !uiKitTransitionRunning else { return }
            if terminal || !presented { touch = .elsewhere; panActive = false; return }
            switch r {
            case .drawer:
                drawerTap?.touchMoved(to: p)
                if touchInScrollView {
                    scrollMoved(to: p)
                } else if panActive {
                    applyTranslation(p.y - lastPanPoint.y)
                    lastPanPoint = p
                } else if drawer.isDrawerDraggable, PanRecognition.crossesBeginThreshold(p - touchDown, threshold: beginThreshold) {
                    drawerTap?.fail()
                    panActive = true
                    panStart = target
                    emit("handleDrawerDrag", [RecordField("state", .string("began"))])
                    applyTranslation(p.y - touchDown.y)
                    lastPanPoint = p
                }
            case .container: outsideTap?.touchMoved(to: p)
            case .elsewhere: break
            }
        case .stationary:
            return
        case .ended, .cancelled:
            guard let r = touch else { return }
            touch = nil
            if terminal || !presented || uiKitTransitionRunning { panActive = false; scrollPanActive = false; return }
            if scrollPanActive {
                scrollPanActive = false
                endScrollDrag(PanRecognition.liftVelocity(t, time: now, source: velocitySource, tracker: tracker))
                return
            }
            if panActive {
                panActive = false
                if t.phase == .cancelled {
                    emit("handleDrawerDrag", [RecordField("state", .string("cancelled"))])
                    animateTransition(to: panStart)
                } else {
                    let v = PanRecognition.liftVelocity(t, time: now, source: velocitySource, tracker: tracker)
                    let speedY = v.y / geometry.height
                    let next = geometry.nextState(from: currentPlace, speedY: speedY)
                    emit("handleDrawerDrag", [RecordField("state", .string("ended")), RecordField("velocity", .point(v)),
                                              RecordField("speedY", .number(speedY)), RecordField("nextState", .string(next.rawValue))])
                    animateTransition(to: .named(next))
                }
                return
            }
            switch r {
            case .drawer:
                if t.phase == .cancelled { drawerTap?.touchCancelled(); return }
                if drawerTapEnabled, drawerTap?.touchEnded(at: p, time: now) == true { drawerTapped(at: p) }
            case .container:
                if t.phase == .cancelled { outsideTap?.touchCancelled(); return }
                if outsideTapEnabled, outsideTap?.touchEnded(at: p, time: now) == true { outsideTapped(at: p) }
            case .elsewhere: break
            }
        }
    }

    // MARK: Pull-to-dismiss (§3.14)

    /// Scrolling is enabled at `fullyExpanded` and while transitioning, unless a pull transition is
    /// pending; disabled at the other states (§3.2, §3.14).
    var scrollingEnabled: Bool {
        guard scrollView != nil, !pullPending else { return false }
        switch target {
        case .named(.fullyExpanded), .transitioning: return true
        default: return false
        }
    }

    /// A `moved` sample of a touch owned by the scroll view: its pan begins at the begin threshold
    /// (the offset does not move at recognition, as everywhere in PanelSim, O6), then the offset
    /// follows the finger and the delegate's `scrollViewDidScroll` runs.
    mutating func scrollMoved(to p: Point) {
        if !scrollPanActive {
            guard PanRecognition.crossesBeginThreshold(p - touchDown, threshold: beginThreshold) else { return }
            scrollPanActive = true
            drawerTap?.fail()
            // scrollViewWillBeginDragging
            if !pullPending {
                scrollStartPlace = currentPlace
                scrollEndVelocity = nil
                largestTopInset = max(largestTopInset, scrollView!.contentInset.top)
            }
            lastScrollPoint = p
            return
        }
        scrollView!.pan(by: p.y - lastScrollPoint.y, .bottom)
        lastScrollPoint = p
        scrollViewDidScroll()
    }

    /// DrawerKit's `scrollViewDidScroll`: moves the drawer by what the content is pulled past its
    /// top and pins the offset there (§3.14).
    mutating func scrollViewDidScroll() {
        guard let sv = scrollView, scrollingEnabled, !sv.isDecelerating, scrollEndVelocity == nil else { return }
        let top = sv.contentInset.top
        let n = -(sv.contentOffset.y + top)
        let place = currentPlace
        var transitioning = false
        if case .transitioning = place { transitioning = true }
        guard !place.sameState(as: scrollStartPlace) || (n > 0 && top == largestTopInset) || transitioning else { return }
        applyTranslation(n)
        scrollView!.setMainOffset(-top, .bottom)
    }

    /// `scrollViewWillEndDragging` and `scrollViewDidEndDragging` (§3.14). `fingerVelocity` in pt/s;
    /// UIKit hands the delegate the scroll velocity in pt/ms (content moves against the finger), and
    /// DrawerKit divides it by H as if it were pt/s (Q7).
    mutating func endScrollDrag(_ fingerVelocity: Point) {
        let scrollVelocity = Point(x: -fingerVelocity.x / 1000, y: -fingerVelocity.y / 1000)
        if !currentPlace.sameState(as: scrollStartPlace) {
            pullPending = true
            scrollEndVelocity = scrollVelocity
            let speedY = -scrollVelocity.y / geometry.height
            animateTransition(to: .named(geometry.nextState(from: currentPlace, speedY: speedY)), endsPull: true)
        } else {
            scrollEndVelocity = nil
            pullPending = false
            scrollView!.endPan(velocity: fingerVelocity.y, at: now, frameRate: environment.frameRate, .bottom)
        }
    }

    /// `applyTranslationY` (§3.3 step 3): clamped at every step (Q10), no rubber band.
    mutating func applyTranslation(_ dy: Double) {
        modelY = geometry.clamp(currentY + dy)
        let place = currentPlace
        setTarget(place)
        cornerModel = geometry.cornerRadius(at: place)
    }

    // MARK: Environment (D13)

    /// D13: a container change; the status bar height stays the header's (D10), so only H changes.
    mutating func changeEnvironment(_ e: PanelEnvironment) {
        environment = e
        geometry = DrawerGeometry(drawer, height: e.container.height, safeAreaTop: geometry.statusBarHeight)
        modelY = presented ? geometry.position(target) : (wasDismissed ? geometry.height : geometry.fullY)
    }
}
