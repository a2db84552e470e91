/// The replay loop: feeds a trace's samples to the pan-recognizer model and the panel core on the
/// fixed frame clock of floatingpanel-core.md §9 O1, and collects the result records.

/// Options a replay may change; none of them is a trace field (floatingpanel-core.md §9).
public struct SimulationOptions: Sendable, Equatable {
    /// Without an `end` sample, give up this long (µs) after the last sample if the panel has not
    /// come to rest (floatingpanel-core.md §9 O1: 10 s).
    public var settleBudget: Microseconds = 10_000_000
    /// O8 option: apply `scroll` samples to the scroll view (as outside `setContentOffset`, size
    /// and `isDecelerating`) instead of the finger-driven model of O6/O7. Default: observations only.
    public var driveScroll = false
    /// O3 option: run Core's panel-pan handler before the scroll view's pan and Core's scroll handler
    /// for each touch sample. Default false: scroll view, then Core's scroll handler, then the panel.
    public var panelHandlerFirst = false
    public init() {}

    /// The options set away from their defaults (O8 `driveScroll`, O3 `panelHandlerFirst`), by
    /// name, in that order: what a result file records so that goldens of different modes are not
    /// compared with each other. The settle budget is not an option of the command line.
    public var nonDefaultNames: [String] {
        (driveScroll ? ["driveScroll"] : []) + (panelHandlerFirst ? ["panelHandlerFirst"] : [])
    }
}

/// A configuration the simulator refuses (floatingpanel-core.md §9 O19 and unknown names).
/// `field` is the header path of the offending value, e.g. `panel.initialState`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public init(field: String, message: String) { self.field = field; self.message = message }
    public var description: String { "\(field): \(message)" }
}

/// Replays `trace` and returns its events and frames.
///
/// Frame k is at k/frameRate. At each frame: every sample with t ≤ t_k not yet processed is
/// processed in file order (a layout sync after each), each animation started before t_k is stepped
/// once, the layout syncs, and the frame is recorded if any of its values differ from the previous
/// frame (frame 0 always). The replay stops after the frame that processes an `end` sample; without
/// one, at the first frame after the last sample with no finger down and nothing animating, or when
/// `options.settleBudget` past the last sample runs out (`budgetExceeded`).
/// - Complexity: O(samples + animated frames · anchors): frames in which nothing animates are
///   skipped straight to the next sample, so idle time costs nothing.
public func simulate(_ trace: Trace, options: SimulationOptions = SimulationOptions()) -> SimulationResult {
    var replay = Replay(trace: trace, options: options)
    return replay.run()
}

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

/// One replay: a value type, so that the per-frame calls into the core are plain field accesses.
struct Replay {
    let trace: Trace
    let options: SimulationOptions
    var core: PanelCore
    /// The recognizer model, stored in the core (which cancels it).
    var pan: PanRecognizer {
        _read { yield core.pan }
        _modify { yield &core.pan }
    }
    var warnings: [String] = []
    var warnedIds: Set<Int> = []

    init(trace: Trace, options: SimulationOptions) {
        self.trace = trace; self.options = options
        core = PanelCore(header: trace.header)
        let source = trace.header.recognizer.velocity
        let strategy: VelocityStrategy
        switch source {
        case .recorded, .lsq2: strategy = .lsq2
        case .impulse: strategy = .impulse
        case .ios: strategy = .ios
        }
        core.pan = PanRecognizer(tracker: VelocityTracker(strategy: strategy))
    }

    private var frameRate: Int64 { Int64(trace.header.environment.frameRate) }

    mutating func run() -> SimulationResult {
        var budgetExceeded = false
        if let sv = trace.header.scrollView { core.track(sv) }
        core.start(presented: trace.header.panel.presented)
        let samples = trace.samples
        let lastSampleTime = samples.last?.time ?? 0
        // Room for the records a replay typically writes: a frame and a didMove per animated frame
        // while the samples last, a few per sample (capped so that idle hours reserve nothing absurd).
        let spanFrames = Int(min(lastSampleTime * frameRate / 1_000_000, 1 << 20))
        core.reserveRecords(min(2 * spanFrames + 4 * samples.count + 1024, 1 << 18))
        var next = 0
        var clock = FrameClock(frameRate: Int(frameRate))
        // The frame that processes samples[next]: the first k with t·frameRate ≤ k·10⁶ (t ≥ 0).
        func dueFrame(_ i: Int) -> Int64 {
            i < samples.count ? (samples[i].time * frameRate + 999_999) / 1_000_000 : .max
        }
        var nextDue = dueFrame(0)
        while true {
            let k = clock.index, tk = clock.time
            var sawEnd = false
            while nextDue <= Int64(k) {
                let sample = samples[next]
                next += 1
                nextDue = dueFrame(next)
                core.now = sample.time
                if case .end = sample.kind { sawEnd = true; break }
                process(sample)
                core.syncLayout()
            }
            let animating = core.runFrame(index: k, time: tk)
            if sawEnd { break }
            if next == samples.count {
                if pan.touchDown == nil && !animating { break }
                if tk - lastSampleTime >= options.settleBudget { budgetExceeded = true; break }
            }
            clock.advance()
            // Nothing changes between samples while nothing animates: jump to the frame that
            // processes the next sample (the skipped frames would repeat this one and are not written).
            if !animating, next < samples.count, nextDue > Int64(clock.index) {
                clock.set(Int(nextDue))
            }
        }
        return SimulationResult(records: core.takeRecords(), warnings: warnings, budgetExceeded: budgetExceeded)
    }

    private mutating func process(_ sample: TraceSample) {
        switch sample.kind {
        case let .touch(touch): handleTouch(touch, time: sample.time, line: sample.line)
        case let .call(call): handleCall(call, line: sample.line)
        case let .scroll(observation):
            guard options.driveScroll else { return }
            if let size = observation.contentSize { core.setContentSize(width: size.width, height: size.height) }
            if let offset = observation.contentOffset { core.setContentOffset(x: offset.x, y: offset.y) }
            if let decelerating = observation.isDecelerating { core.updateScrollView { $0.isDecelerating = decelerating } }
        case let .environment(environment): core.changeEnvironment(environment)
        case .observed, .end: return
        }
    }

    private mutating func handleCall(_ call: PanelCall, line: Int) {
        switch call {
        case let .move(to, animated):
            guard core.geometry.isValid(to) else {
                warnings.append("line \(line): move(to: \(to.name)) ignored: not an anchor state or hidden (FloatingPanel asserts)")
                return
            }
            core.move(to: to, animated: animated)
        case let .show(animated): core.show(animated: animated)
        case let .hide(animated): core.hide(animated: animated)
        case .remove: core.remove()
        case .tapBackdrop: core.tapBackdrop()
        case let .setContentOffset(x, y, _):
            guard core.tracksScrollView else { return warnNoScrollView("setContentOffset", line: line) }
            core.setContentOffset(x: x, y: y)
        case let .setContentSize(width, height):
            guard core.tracksScrollView else { return warnNoScrollView("setContentSize", line: line) }
            core.setContentSize(width: width, height: height)
        case let .track(configuration): core.track(configuration)
        case .untrack: core.untrack()
        case let .invalidateLayout(panel): core.invalidateLayout(panel)
        }
    }

    private mutating func warnNoScrollView(_ call: String, line: Int) {
        warnings.append("line \(line): \(call) ignored: no scroll view is tracked")
    }

    // MARK: Recognizer

    /// The pan's velocity at lift (pt/s): the recorded one, or the tracker's lift estimate.
    private mutating func liftVelocity(for touch: TouchSample, time: Microseconds) -> Point {
        if trace.header.recognizer.velocity == .recorded, let v = touch.velocity { return v }
        return pan.tracker.velocityAtLift(timeNanos: time * 1000)
    }

    /// The pan's velocity while moving: the recorded one, or nil for the tracker's current estimate
    /// (evaluated lazily: without a scroll view nothing reads it unless the pan is cancelled).
    private func movingVelocity(for touch: TouchSample) -> Point? {
        if trace.header.recognizer.velocity == .recorded, let v = touch.velocity { return v }
        return nil
    }

    private func surfaceLocal(_ p: Point) -> Point { p - core.surfaceFrame.origin }

    private mutating func deliver(_ phase: PanPhase, point: Point, velocity: Point?) {
        let translation = point - (pan.touchDown ?? point)
        pan.lastTranslation = translation; pan.lastVelocity = velocity; pan.lastPoint = point
        core.handlePan(phase, translation: translation, velocity: velocity, location: surfaceLocal(point))
    }

    private mutating func handleTouch(_ touch: TouchSample, time: Microseconds, line: Int) {
        guard touch.id == 0 else {
            if warnedIds.insert(touch.id).inserted {
                warnings.append("line \(line): touches with id \(touch.id) are ignored (only id 0 drives the recognizers)")
            }
            return
        }
        let p = touch.location
        switch touch.phase {
        case .began:
            pan = PanRecognizer(touchDown: p, tracker: pan.tracker)
            pan.tracker.reset()
            pan.tracker.addMovement(timeNanos: time * 1000, position: p)
            pan.lastPoint = p
            guard core.isInWindow, core.surfaceFrame.contains(p) else { return }
            pan.onSurface = true
            let local = surfaceLocal(p)
            core.initialLocation = local
            core.touchDownInScrollView(local)
            if let sv = core.scrollView, sv.frame.contains(local), sv.isScrollableContent(core.geometry.panel.position) {
                pan.scrollCandidate = true
            }
            if core.isPanelAnimating {
                pan.active = true
                deliver(.began, point: p, velocity: .zero)
            }
        case .moved:
            pan.tracker.addMovement(timeNanos: time * 1000, position: p)
            guard pan.onSurface, let down = pan.touchDown else { pan.lastPoint = p; return }
            let v = movingVelocity(for: touch)
            let previous = pan.lastPoint
            var scrollPhase: PanPhase?
            var panelPhase: PanPhase?
            if !pan.recognitionDone {
                let d = p - down
                if (d.x * d.x + d.y * d.y).squareRoot() >= trace.header.recognizer.beginThreshold {
                    pan.recognitionDone = true
                    if pan.scrollCandidate { pan.scrollActive = true; scrollPhase = .began }
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
                runHandlers(scroll: scrollActive ? phase : nil, panel: panelActive ? phase : nil,
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
    private mutating func runHandlers(scroll: PanPhase?, panel: PanPhase?, point p: Point, previous: Point, velocity v: Point?) {
        let position = core.geometry.panel.position
        func runScroll(_ r: inout Replay) {
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
        func runPanel(_ r: inout Replay) {
            if let phase = panel { r.deliver(phase, point: p, velocity: v) } else { r.pan.lastPoint = p }
        }
        if options.panelHandlerFirst { runPanel(&self); runScroll(&self) } else { runScroll(&self); runPanel(&self) }
        pan.lastPoint = p
    }
}
