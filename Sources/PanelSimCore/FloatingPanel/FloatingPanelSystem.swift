/// The pan recognizer model (floatingpanel-core.md §9 O4, O5) for finger 0. FloatingPanel's Core
/// owns its pan recognizer, and so does `PanelCore` (it cancels it, §5.1 step 2); the replay feeds it.
struct PanRecognizer {
    /// Touch-down point in container coordinates, while finger 0 is down.
    var touchDown: Point?
    /// True when the touch began on the panel's surface (the recognizer is on the surface view).
    var onSurface = false
    /// True once `began` was delivered for this touch (recognized, in began/changed).
    var active = false
    /// True after FloatingPanel cancelled the pan: the rest of this touch is ignored.
    var cancelledByPanel = false
    var lastTranslation = Point.zero
    /// The velocity delivered with the last event (pt/s); nil: the tracker's current estimate,
    /// computed only if someone reads it (`PanelCore.resolve(_:)`). A moved sample changes the
    /// tracker and then delivers at once, so the tracker cannot change before it is read.
    var lastVelocity: Point? = .zero
    var lastPoint = Point.zero
    var tracker: VelocityTracker
    /// The tracked scroll view's pan: true when the touch began inside its frame on scrollable content.
    var scrollCandidate = false
    /// The scroll view's pan has recognized (began/changed).
    var scrollActive = false
    /// True once the recognition sample has been seen (both pans decide there, O4).
    var recognitionDone = false
    /// The panel pan had to wait for the scroll pan (§3.8 item 3): it never begins for this touch.
    var panelBlocked = false
}

/// FloatingPanel behind the replay seam: the surface's pan recognizer and the tracked scroll view's
/// pan (floatingpanel-core.md §3.8, §9 O3–O5) feeding `PanelCore`, FloatingPanel's Core. A value
/// type, so that the per-frame calls into the core are plain field accesses.
struct FloatingPanelSystem: PanelSystem {
    let trace: Trace
    let options: SimulationOptions
    var core: PanelCore
    /// The recognizer model, stored in the core (which cancels it).
    var pan: PanRecognizer {
        _read { yield core.pan }
        _modify { yield &core.pan }
    }
    var warnings: [String] = []
    var secondFingers = SecondFingerFilter()

    init(trace: Trace, options: SimulationOptions) {
        self.trace = trace
        self.options = options
        core = PanelCore(
            header: trace.header, profile: FloatingPanelProfiles.table.values(for: trace.replayProfile(options)))
        core.recordsContentInset = options.recordContentInset
        core.mirrorImageArithmetic =
            options.mirrorImageArithmetic && !trace.header.panel.position.expandsTowardLowerCoordinate
        core.pan = PanRecognizer(tracker: VelocityTracker(strategy: trace.header.recognizer.velocity.strategy))
    }

    mutating func start() {
        if let sv = trace.header.scrollView { core.track(sv) }
        core.start(presented: trace.header.panel.presented)
    }

    mutating func reserveRecords(_ n: Int) { core.reserveRecords(n) }

    @inline(__always)
    mutating func process(_ sample: TraceSample) {
        core.now = sample.time
        dispatch(sample)
        if core.asyncPinPending { core.runAsyncPin() }
        core.syncLayout()
    }

    /// `process(_:)` reading a touch sample's plain fields in place: the whole sample (a large
    /// enum payload) is copied out only for the other kinds.
    @inline(__always)
    mutating func process(at sample: UnsafePointer<TraceSample>) {
        if case .touch(let touch) = sample.pointee.kind {
            let time = sample.pointee.time
            let line = sample.pointee.line
            core.now = time
            if touch.phase == .moved, touch.id == 0, isPlainDragMove {
                plainDragMove(touch, time: time)
            } else {
                handleTouch(touch, time: time, line: line)
            }
            if core.asyncPinPending { core.runAsyncPin() }
            core.syncLayout()
        } else {
            process(sample.pointee)
        }
    }

    mutating func reachEnd(at time: Microseconds) { core.now = time }

    @inline(__always)
    mutating func runFrame(index: Int, time: Microseconds) -> Bool { core.runFrame(index: index, time: time) }

    mutating func runFrames(_ clock: inout FrameClock, before dueFrame: Int64) -> Bool {
        core.runFrames(&clock, before: dueFrame)
    }

    var isTouchDown: Bool { pan.touchDown != nil }

    mutating func finish() -> (records: RecordList, warnings: [String]) { (core.takeRecords(), warnings) }

    mutating func takeFinalRecords() -> RecordList? { core.takeRecordsBeforeLastFrame() }

    /// True when a `moved` sample of finger 0 is a plain drag step: the touch began on the surface,
    /// both recognizers have decided, the panel's pan is active (not cancelled) and the list's is
    /// not, and the core takes the change without arbitration (`PanelCore.takesPlainDragChanges`).
    private var isPlainDragMove: Bool {
        pan.onSurface && pan.recognitionDone && pan.active && !pan.cancelledByPanel && !pan.scrollActive
            && pan.touchDown != nil && core.takesPlainDragChanges
    }

    /// `handleTouch` for a `moved` sample when `isPlainDragMove`, with what those conditions decide
    /// written out: the tracker takes the sample, the panel's handler gets `changed` (no scroll
    /// phase, so `runHandlers` delivers to the panel alone), and the last point is updated. The
    /// same steps in the same order as the general path.
    @inline(__always)
    private mutating func plainDragMove(_ touch: TouchSample, time: Microseconds) {
        let p = touch.location
        pan.tracker.addMovement(timeNanos: time * 1000, position: p)
        let v = movingVelocity(for: touch)
        // deliver(.changed, point: p, velocity: v)
        let translation = p - pan.touchDown.unsafelyUnwrapped
        pan.lastTranslation = translation
        pan.lastVelocity = v
        pan.lastPoint = p
        core.takePlainDragChange(translation: translation)
        pan.lastPoint = p
    }

    private mutating func dispatch(_ sample: TraceSample) {
        switch sample.kind {
        case .touch(let touch): handleTouch(touch, time: sample.time, line: sample.line)
        case .call(let call): handleCall(call, line: sample.line)
        case .scroll(let observation):
            guard options.driveScroll else { return }
            if let size = observation.contentSize { core.setContentSize(width: size.width, height: size.height) }
            if let offset = observation.contentOffset { core.setContentOffset(x: offset.x, y: offset.y) }
            if let decelerating = observation.isDecelerating {
                core.updateScrollView { $0.isDecelerating = decelerating }
            }
        case .environment(let environment): core.changeEnvironment(environment)
        case .observed, .end, .systemCall: return
        }
    }

    private mutating func handleCall(_ call: FloatingPanelCall, line: Int) {
        switch call {
        case .move(let to, let animated):
            guard core.geometry.isValid(to) else {
                warnings.append(
                    "line \(line): move(to: \(to.name)) ignored: not an anchor state or hidden (FloatingPanel asserts)")
                return
            }
            core.move(to: to, animated: animated)
        case .show(let animated): core.show(animated: animated)
        case .hide(let animated): core.hide(animated: animated)
        case .remove: core.remove()
        case .tapBackdrop: core.tapBackdrop()
        case .setContentOffset(let x, let y, _):
            guard core.tracksScrollView else { return warnNoScrollView("setContentOffset", line: line) }
            core.setContentOffset(x: x, y: y)
        case .setContentSize(let width, let height):
            guard core.tracksScrollView else { return warnNoScrollView("setContentSize", line: line) }
            core.setContentSize(width: width, height: height)
        case .track(let configuration): core.track(configuration)
        case .untrack: core.untrack()
        case .invalidateLayout(let panel): core.invalidateLayout(panel)
        }
    }

    private mutating func warnNoScrollView(_ call: String, line: Int) {
        warnings.append("line \(line): \(call) ignored: no scroll view is tracked")
    }

    // MARK: Recognizer

    /// The pan's velocity at lift (pt/s): the recorded one, or the tracker's lift estimate.
    private mutating func liftVelocity(for touch: TouchSample, time: Microseconds) -> Point {
        // The recorded velocity first, so that the tracker is not passed (copied) when it is not read.
        if let v = PanRecognition.recordedVelocity(touch, source: trace.header.recognizer.velocity) { return v }
        return PanRecognition.liftVelocity(
            touch, time: time, source: trace.header.recognizer.velocity, tracker: pan.tracker)
    }

    /// The pan's velocity while moving: the recorded one, or nil for the tracker's current estimate
    /// (evaluated lazily: without a scroll view nothing reads it unless the pan is cancelled).
    private func movingVelocity(for touch: TouchSample) -> Point? {
        PanRecognition.recordedVelocity(touch, source: trace.header.recognizer.velocity)
    }

    private func surfaceLocal(_ p: Point) -> Point { core.surfaceLocal(p) }

    private mutating func deliver(_ phase: PanPhase, point: Point, velocity: Point?) {
        let translation = point - (pan.touchDown ?? point)
        pan.lastTranslation = translation
        pan.lastVelocity = velocity
        pan.lastPoint = point
        core.handlePan(phase, translation: translation, velocity: velocity, at: point)
    }

    private mutating func handleTouch(_ touch: TouchSample, time: Microseconds, line: Int) {
        guard secondFingers.admits(touch, line: line, warnings: &warnings) else { return }
        let p = touch.location
        switch touch.phase {
        case .began:
            pan = PanRecognizer(touchDown: p, tracker: pan.tracker)
            pan.tracker.reset()
            pan.tracker.addMovement(timeNanos: time * 1000, position: p)
            pan.lastPoint = p
            let surfaceFrame = core.surfaceFrame
            guard core.isInWindow, surfaceFrame.contains(p) else { return }
            pan.onSurface = true
            let local = p - surfaceFrame.origin  // surfaceLocal(p)
            core.initialLocation = local
            core.touchDownInScrollView(local)
            if let sv = core.scrollView, sv.frame.contains(local), sv.isScrollableContent(core.geometry.panel.position)
            {
                pan.scrollCandidate = true
            }
            if core.isPanelAnimating || core.staleMoveAnimator {
                pan.active = true
                deliver(.began, point: p, velocity: .zero)
            }
        case .moved:
            pan.tracker.addMovement(timeNanos: time * 1000, position: p)
            guard pan.onSurface, let down = pan.touchDown else {
                pan.lastPoint = p
                return
            }
            let v = movingVelocity(for: touch)
            let previous = pan.lastPoint
            var scrollPhase: PanPhase?
            var panelPhase: PanPhase?
            if !pan.recognitionDone {
                let d = p - down
                if PanRecognition.crossesBeginThreshold(d, threshold: trace.header.recognizer.beginThreshold) {
                    pan.recognitionDone = true
                    // §3.8 item 2 (shouldBeRequiredToFailBy): while the touch is in the grabber area the
                    // scroll view's pan must wait for the panel's pan to fail; the panel's pan does not
                    // wait there (item 3 is false in the grabber), so when it recognizes the list never
                    // scrolls for this touch.
                    let scrollWaitsForPanel =
                        pan.scrollCandidate && (pan.active || !pan.cancelledByPanel)
                        && core.grabberContains(surfaceLocal(p))
                    if pan.scrollCandidate && !scrollWaitsForPanel {
                        pan.scrollActive = true
                        scrollPhase = .began
                    }
                    if pan.active {
                        panelPhase = .changed
                    } else if !pan.cancelledByPanel {
                        if pan.scrollActive && core.panelPanRequiresScrollPanToFail(location: surfaceLocal(p)) {
                            pan.panelBlocked = true
                        } else {
                            pan.active = true
                            panelPhase = .began
                        }
                    }
                } else if pan.active {
                    panelPhase = .changed
                }
            } else {
                if pan.scrollActive { scrollPhase = .changed }
                if pan.active && !pan.cancelledByPanel { panelPhase = .changed }
            }
            runHandlers(scroll: scrollPhase, panel: panelPhase, point: p, previous: previous, velocity: v)
        case .stationary:
            return
        case .ended, .cancelled:
            let phase: PanPhase = touch.phase == .ended ? .ended : .cancelled
            let panelActive = pan.active && pan.onSurface && !pan.cancelledByPanel
            let scrollActive = pan.scrollActive
            pan.active = false
            if panelActive || scrollActive {
                let v = liftVelocity(for: touch, time: time)
                runHandlers(
                    scroll: scrollActive ? phase : nil, panel: panelActive ? phase : nil,
                    point: p, previous: pan.lastPoint, velocity: v)
            }
            pan.scrollActive = false
            core.scrollPanPhase = nil
            pan.touchDown = nil
            pan.onSurface = false
        }
    }

    /// One touch sample through the recognizers in the O3 order: the scroll view's own pan update,
    /// Core's scroll-pan handler, then Core's panel-pan handler (or the panel first, as an option).
    private mutating func runHandlers(
        scroll: PanPhase?, panel: PanPhase?, point p: Point, previous: Point, velocity v: Point?
    ) {
        // Without a scroll-view phase (no tracked list, or it did not recognize) only the panel's
        // handler runs, whatever the order: the common case of a drag, without the closures below.
        guard case .some = scroll else {
            if let phase = panel { deliver(phase, point: p, velocity: v) }
            pan.lastPoint = p
            return
        }
        let position = core.position
        func runScroll(_ r: inout FloatingPanelSystem) {
            guard let phase = scroll else { return }
            if !r.options.driveScroll {
                switch phase {
                case .changed: r.core.updateScrollView { $0.pan(by: position.main(p - previous), position) }
                case .ended, .cancelled: r.core.endScrollPan(velocity: position.main(r.core.resolve(v)))
                case .began: break
                }
            }
            r.core.scrollPanPhase = phase
            r.core.handleScrollPan(velocity: position.main(r.core.resolve(v)), location: r.surfaceLocal(p))
        }
        func runPanel(_ r: inout FloatingPanelSystem) {
            if let phase = panel { r.deliver(phase, point: p, velocity: v) } else { r.pan.lastPoint = p }
        }
        if options.panelHandlerFirst {
            runPanel(&self)
            runScroll(&self)
        } else {
            runScroll(&self)
            runPanel(&self)
        }
        pan.lastPoint = p
    }
}
