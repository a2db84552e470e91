/// LNPopupController 4.5.6.1 behind the replay seam (lnpopup.md §3, quirks §4, defaults §5): the
/// three state variables, `_transitionToState` with its callbacks, the interaction recognizer and
/// the content's scroll-view pan in every interaction style, the event queue, the snap timer, the
/// bar tap and the close button, bar presentation and dismissal, and the records of §2.3.
///
/// Model values are what LNPopup assigns (bar frame, content top, bottom-bar top); frames report
/// on-screen values: model + Σ Δ·(1 − P) over the running animators (§3.9, L4, additive).

/// The model values an animator moves (pt, container coordinates).
struct PopupChannels: Sendable, Equatable {
    /// Content top edge (`location`).
    var location: Double
    /// The bar's frame origin y and height.
    var barTop: Double
    var barHeight: Double
    /// The bottom bar's top edge.
    var bottomBarTop: Double

    static func - (a: PopupChannels, b: PopupChannels) -> PopupChannels {
        PopupChannels(location: a.location - b.location, barTop: a.barTop - b.barTop,
                      barHeight: a.barHeight - b.barHeight, bottomBarTop: a.bottomBarTop - b.bottomBarTop)
    }
}

/// A running `UIViewPropertyAnimator` of LNPopup (§3.9): 0.5 s, the offsets it still shows and the
/// completion it runs.
struct PopupAnimator: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// `_transitionToState` toward open / barPresented.
        case open, close
        /// The bar's presentation and dismissal animators (§3.11).
        case barPresentation, barDismissal
    }
    enum Completion: Sendable, Equatable {
        /// §3.4 step 8 for a transition to `state`; `publicBefore` is the public state at step 3.
        case transition(state: PopupPresentationState, publicBefore: PopupPresentationState, animated: Bool, then: PopupAfterTransition)
        case barPresentation(openPopup: Bool, animated: Bool)
        case barDismissal(animated: Bool)
    }
    let kind: Kind
    let start: Microseconds
    let timing: AnimatorTiming
    let delta: PopupChannels
    let completion: Completion
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

/// An entry of LNPopup's event queue (§3.8).
enum PopupQueueEntry: Sendable, Equatable {
    case present(animated: Bool, openPopup: Bool)
    case dismiss(animated: Bool)
    case open(animated: Bool, clearsGestures: Bool)
    case close(animated: Bool, byGesture: Bool, clearsGestures: Bool)

    enum Kind { case present, dismiss, open, close }
    var kind: Kind {
        switch self {
        case .present: return .present
        case .dismiss: return .dismiss
        case .open: return .open
        case .close: return .close
        }
    }

    /// §3.8 step 1: the waiting entries a new entry of this kind drops.
    func coalesces(_ other: Kind) -> Bool {
        switch kind {
        case .present: return other == .present || other == .dismiss
        case .dismiss: return true
        case .open, .close: return other == .open || other == .close
        }
    }
}

/// The recognizers that call LNPopup's pan handler (§3.5.1).
enum PopupPanRecognizer: Sendable, Equatable {
    /// `popupInteractionGestureRecognizer` (on the bar while closed, on the content while open).
    case interaction
    /// The pan of the scroll view inside the open content (§3.6).
    case scrollView

    var name: String { self == .interaction ? "interaction" : "scrollView" }
}

/// LNPopup's drag, from its start (§3.5.3) to its release.
struct PopupDrag: Sendable, Equatable {
    /// The bar's centre y at the start (c0), the bar height h during the drag.
    var startCentre: Double
    var height: Double
    /// The internal state the drag started from (barPresented or open).
    var from: PopupPresentationState
    /// The cached docking line (without the offset) and the open frame's top (−h).
    var dock: Double
    var openTop: Double
    /// `startOffset`: ty of the starting sample for a scroll-view pan, else 0.
    var startOffset: Double
}

/// Finger 0 and where its touch went at touch-down (L5–L7).
struct PopupTouch: Sendable, Equatable {
    enum TapTarget: Sendable, Equatable { case bar, closeButton }
    enum LockAxis: Sendable, Equatable { case vertical, horizontal }
    var down: Point
    var last: Point
    /// The pan recognizers that get this touch, in delivery order (the scroll view's first, L8);
    /// a cancelled recognizer is removed.
    var pans: [PopupPanRecognizer] = []
    var tap: TapTarget? = nil
    /// The pans recognized (L2).
    var began = false
    /// `isDirectionalLockEnabled`'s axis for the scroll view's pan (L8).
    var lock: LockAxis? = nil
}

struct LNPopupSystem: PanelSystem {
    let popup: PopupConfiguration
    let geometry: PopupGeometry
    let environment: PanelEnvironment
    let velocitySource: VelocitySource
    let beginThreshold: Double
    var records = RecordList()
    var warnings: [String] = []
    var secondFingers = SecondFingerFilter()
    /// Time of the sample, timer or frame being processed (µs).
    var now: Microseconds = 0

    // State (§3.0, §3.1)
    var publicState: PopupPresentationState = .barHidden
    var internalState: PopupPresentationState = .barHidden
    var targetState: PopupPresentationState = .barHidden
    /// A bar exists: from its presentation until its dismissal completes.
    var barExists = false
    /// Model values.
    var model: PopupChannels
    var animators: [PopupAnimator] = []
    /// Waiting entries, each with the trace line that caused it (for warnings).
    var queue: [(entry: PopupQueueEntry, line: Int)] = []
    /// Pending snap-open timers (L12): fire times in µs, in order, and the line of the sample that
    /// recognized the swipe.
    var timers: [(time: Microseconds, line: Int)] = []
    /// The trace line of the sample being processed (or of the timer firing): entries queued now
    /// carry it.
    var currentLine = 0
    var gesturesIgnored = false
    var dismissalOverride = false
    var drag: PopupDrag?
    /// The open top cached by the previous drag start (§3.6.3 step 5).
    var openTopCache = 0.0
    var listStart = 0.0

    // Recognizers
    var touch: PopupTouch?
    var tapRecognizer = TapRecognizer(requiredTaps: 1)
    var tracker: VelocityTracker
    var deferredCalls: [(PopupCall, Int)] = []
    var scrollView: ScrollViewModel?
    var lastFrame: SystemFrame?

    init(trace: Trace) {
        popup = trace.header.popup ?? PopupConfiguration()
        environment = trace.header.environment
        geometry = PopupGeometry(popup, environment: environment)
        velocitySource = trace.header.recognizer.velocity
        beginThreshold = trace.header.recognizer.beginThreshold
        tracker = VelocityTracker(strategy: velocitySource.strategy)
        model = PopupChannels(location: geometry.dock, barTop: geometry.dock + geometry.offset, barHeight: 0,
                              bottomBarTop: geometry.dock)
        if let sv = trace.header.scrollView {
            var s = ScrollViewModel(sv, position: .bottom)
            s.isDirectionalLockEnabled = popup.scrollViewDirectionalLock
            scrollView = s
        }
    }

    // MARK: PanelSystem

    mutating func start() {
        switch popup.initialState {
        case .barHidden: break
        case .barPresented: presentBar(animated: false, openPopup: false)
        case .open: presentBar(animated: false, openPopup: true)
        }
    }

    mutating func reserveRecords(_ n: Int) { records.reserveCapacity(n) }

    mutating func process(_ sample: TraceSample) {
        fireTimers(before: sample.time, inclusive: false)
        now = sample.time
        switch sample.kind {
        case let .touch(t): currentLine = sample.line; handleTouch(t, line: sample.line)
        case let .systemCall(call): if let call = call as? PopupCall { handleCall(call, line: sample.line) }
        case .call, .environment, .scroll, .observed, .end: break
        }
    }

    mutating func reachEnd(at time: Microseconds) { now = time }

    mutating func runFrame(index: Int, time: Microseconds) -> Bool {
        fireTimers(before: time, inclusive: true)
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
        }
        if scrollView?.isAnimating == true {
            scrollView?.stepDeceleration(frameTime: time, pixel: 1 / environment.displayScale, .bottom)
        }
        writeFrame(index: index, time: time)
        return !animators.isEmpty || !timers.isEmpty || scrollView?.isAnimating == true
    }

    var isTouchDown: Bool { touch != nil }

    mutating func finish() -> (records: RecordList, warnings: [String]) { (records, warnings) }

    // MARK: Records (§2.3)

    mutating func emit(_ name: String, _ fields: [RecordField] = []) {
        records.appendEvent(time: now, .system(SystemEvent(name: name, fields: fields)))
    }

    mutating func emit(_ name: String, animated: Bool) { emit(name, [RecordField("animated", .bool(animated))]) }

    mutating func writeFrame(index: Int, time: Microseconds) {
        var v = model
        for a in animators {
            let r = a.timing.remaining(since: a.start, at: time)
            v.location += a.delta.location * r
            v.barTop += a.delta.barTop * r
            v.barHeight += a.delta.barHeight * r
            v.bottomBarTop += a.delta.bottomBarTop * r
        }
        var channels: [RecordField] = []
        channels.reserveCapacity(11)
        channels.append(RecordField("location", .number(v.location)))
        channels.append(RecordField("state", .string(publicState.name)))
        channels.append(RecordField("internalState", .string(internalState.name)))
        channels.append(RecordField("barVisible", .bool(barExists && v.barHeight > 0)))
        channels.append(RecordField("barTop", .number(v.barTop)))
        channels.append(RecordField("barHeight", .number(v.barHeight)))
        if geometry.hasBottomBar {
            channels.append(RecordField("bottomBarTop", .number(v.bottomBarTop)))
            channels.append(RecordField("bottomBarVisible", .bool(v.bottomBarTop < geometry.height)))
        }
        if let sv = scrollView { channels.append(RecordField("contentOffset", .number(sv.contentOffset.y))) }
        channels.append(RecordField("isDragging", .bool(drag != nil)))
        channels.append(RecordField("isAnimating", .bool(!animators.isEmpty)))
        let frame = SystemFrame(index: index, channels: channels)
        if index == 0 || lastFrame.map({ !$0.sameValues(as: frame) }) ?? true {
            records.appendSystemFrame(frame)
            lastFrame = frame
        }
    }

    // MARK: Style (§3.2)

    /// The interaction style resolved against the public state.
    var resolvedStyle: PopupInteractionStyle {
        switch popup.interactionStyle {
        case .default, .automatic: return publicState == .barPresented ? .snap : .drag
        case let s: return s
        }
    }

    // MARK: Geometry of the states (§3.3)

    /// The model values of a rest state (closed or open).
    func channels(of state: PopupPresentationState) -> PopupChannels {
        if state == .open {
            return PopupChannels(location: 0, barTop: 0, barHeight: 0, bottomBarTop: geometry.glass ? model.bottomBarTop : geometry.height)
        }
        return PopupChannels(location: geometry.dock, barTop: geometry.closedBarTop, barHeight: geometry.barHeight,
                             bottomBarTop: geometry.glass ? model.bottomBarTop : geometry.dock)
    }

    func timing(dampingRatio zeta: Double) -> AnimatorTiming {
        popup.curve == .linear ? .linear(duration: 0.5) : .stretchedSpring(dampingRatio: zeta, duration: 0.5)
    }

    var windowLocked: Bool { animators.contains { $0.kind == .close || $0.kind == .barDismissal } }
    var opening: Bool { animators.contains { $0.kind == .open } }
    var presentingBar: Bool { animators.contains { $0.kind == .barPresentation } }

    // MARK: Transitions (§3.4)

    /// `_transitionToState`: `state` is open, barPresented, or transitioning (a drag start).
    mutating func transition(to state: PopupPresentationState, animated: Bool, byGesture: Bool,
                             then: PopupAfterTransition = .nothing) {
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
        let completion = PopupAnimator.Completion.transition(state: state, publicBefore: publicBefore, animated: animated, then: then)
        if animated {
            animators.append(PopupAnimator(kind: state == .open ? .open : .close, start: now,
                                           timing: timing(dampingRatio: byGesture ? 0.87 : 1), delta: before - model,
                                           completion: completion))
        } else {
            complete(completion)
        }
    }

    mutating func complete(_ animator: PopupAnimator) { complete(animator.completion) }

    mutating func complete(_ completion: PopupAnimator.Completion) {
        switch completion {
        case let .transition(state, publicBefore, animated, then):
            internalState = state
            publicState = state
            emit("didChangeState", [RecordField("state", .string(state.name))])   // Q1: also when unchanged
            if state == .barPresented && publicBefore != .barPresented { emit("didClosePopup", animated: animated) }
            if state == .open && publicBefore != .open { emit("didOpenPopup", animated: animated) }
            switch then {
            case .nothing: break
            case .request(let clears): if clears { gesturesIgnored = false }
            case .barDismissal(let a): startBarDismissal(animated: a)
            }
            resume()
        case let .barPresentation(openPopup, animated):
            if !openPopup {
                internalState = .barPresented
                publicState = .barPresented
                emit("didChangeState", [RecordField("state", .string(PopupPresentationState.barPresented.name))])
            }
            emit("didPresentPopupBar", animated: animated)
            resume()
        case let .barDismissal(animated):
            barExists = false
            publicState = .barHidden
            emit("didChangeState", [RecordField("state", .string(PopupPresentationState.barHidden.name))])
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
            animators.append(PopupAnimator(kind: .barPresentation, start: now, timing: timing(dampingRatio: 500),
                                           delta: before - model, completion: .barPresentation(openPopup: openPopup, animated: true)))
        }
        if openPopup {
            emit("willOpenPopup", animated: animated)   // Q3: the open transition writes it again
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
            animators.append(PopupAnimator(kind: .barDismissal, start: now, timing: timing(dampingRatio: 500),
                                           delta: before - model, completion: .barDismissal(animated: true)))
        } else {
            complete(.barDismissal(animated: false))
        }
    }

    // MARK: The event queue (§3.8)

    mutating func enqueue(_ entry: PopupQueueEntry) {
        queue.removeAll { entry.coalesces($0.entry.kind) }
        queue.append((entry, currentLine))
        resume()
    }

    /// No bar exists: barHidden and no presentation running (§2.2's "no bar").
    var noBar: Bool { publicState == .barHidden && !presentingBar }

    /// Starts the first waiting entry unless an animator runs.
    mutating func resume() {
        guard animators.isEmpty, !queue.isEmpty else { return }
        let (entry, line) = queue.removeFirst()
        switch entry {
        case let .open(animated, clears):
            // Queued while a bar existed, started after its dismissal: dropped like a call with no
            // bar (§2.2; the spec is silent here, docs/lnpopup.md): the request completes as a
            // no-op and the queue goes on, as if it had never been queued.
            guard !noBar else { return dropWithoutBar(entry, line: line, clears) }
            guard targetState != .open else { return finishRequest(clears) }   // Q11: no resume
            transition(to: .open, animated: animated, byGesture: false, then: .request(clearsGestures: clears))
        case let .close(animated, byGesture, clears):
            guard !noBar else { return dropWithoutBar(entry, line: line, clears) }
            guard targetState != .barPresented else { return finishRequest(clears) }
            transition(to: .barPresented, animated: animated, byGesture: byGesture, then: .request(clearsGestures: clears))
        case let .present(animated, openPopup):
            if targetState == .barHidden {
                presentBar(animated: animated, openPopup: openPopup)
            } else if openPopup {
                currentLine = line
                enqueue(.open(animated: animated, clearsGestures: false))
            } else {
                resume()
            }
        case let .dismiss(animated):
            guard !dismissalOverride else {
                return warn(line, "dismissBar ignored: the popup bar was already dismissed when it came out of LNPopup's queue")
            }
            dismissalOverride = true
            cancelSnapTimers()
            if targetState != .barPresented {
                drag = nil
                cancel(.interaction)
                transition(to: .barPresented, animated: animated, byGesture: false, then: .barDismissal(animated: animated))
            } else {
                startBarDismissal(animated: animated)
            }
        }
    }

    mutating func finishRequest(_ clearsGestures: Bool) {
        if clearsGestures { gesturesIgnored = false }
    }

    /// An open or close that starts after the bar was dismissed: dropped with a warning (like an
    /// `openPopup`/`closePopup` with no bar, §2.2); its completion runs as for a no-op request
    /// (LNPopup's own requests clear `gesturesIgnored`), then the next waiting entry starts.
    mutating func dropWithoutBar(_ entry: PopupQueueEntry, line: Int, _ clearsGestures: Bool) {
        let what: String
        switch entry {
        case .open(_, false): what = "openPopup"
        case .close(_, false, false): what = "closePopup"
        case .open: what = "LNPopup's own open (bar tap, snap swipe or drag release)"
        default: what = "LNPopup's own close (drag release or snap threshold)"
        }
        warn(line, "\(what) ignored: queued while the popup bar existed, it would start after the bar's dismissal (no popup bar is presented)")
        finishRequest(clearsGestures)
        resume()
    }

    /// The bar's dismissal starts (`dismissalOverride` set): a pending snap-open timer (L12) is
    /// cancelled, its open dropped like a queued request that starts without a bar (docs/lnpopup.md),
    /// and `gesturesIgnored`, which that open's completion would have cleared, is cleared.
    mutating func cancelSnapTimers() {
        guard !timers.isEmpty else { return }
        for t in timers {
            warn(t.line, "the snap swipe's open (due at \(Self.seconds(t.time)) s) is cancelled: the popup bar's dismissal started at \(Self.seconds(now)) s")
        }
        timers.removeAll()
        gesturesIgnored = false
    }

    static func seconds(_ t: Microseconds) -> String {
        let fraction = String(t % 1_000_000)
        return "\(t / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    // MARK: Timers (L1, L12)

    mutating func fireTimers(before limit: Microseconds, inclusive: Bool) {
        while let t = timers.first, t.time < limit || (inclusive && t.time == limit) {
            timers.removeFirst()
            now = t.time
            currentLine = t.line
            enqueue(.open(animated: true, clearsGestures: true))
        }
    }

    // MARK: Calls (§2.2, L13)

    mutating func warn(_ line: Int, _ message: String) { warnings.append("line \(line): \(message)") }

    mutating func handleCall(_ call: PopupCall, line: Int) {
        currentLine = line
        switch call {
        case .setContentOffset, .setContentSize: break
        default:
            if touch != nil { deferredCalls.append((call, line)); return }
        }
        switch call {
        case let .presentBar(animated, openPopup):
            enqueue(.present(animated: animated, openPopup: openPopup))
        case let .openPopup(animated):
            guard !noBar else { return warn(line, "openPopup ignored: no popup bar is presented") }
            enqueue(.open(animated: animated, clearsGestures: false))
        case let .closePopup(animated):
            guard !noBar else { return warn(line, "closePopup ignored: no popup bar is presented") }
            enqueue(.close(animated: animated, byGesture: false, clearsGestures: false))
        case let .dismissBar(animated):
            guard !noBar else { return warn(line, "dismissBar ignored: no popup bar is presented") }
            enqueue(.dismiss(animated: animated))
        case .tapBar:
            guard barTouchable(duringOpening: false) else {
                return warn(line, "tapBar ignored: the bar cannot be touched now (no bar, open or opening, or the window is locked)")
            }
            barTapped()
        case .tapCloseButton:
            guard closeButtonAvailable else {
                return warn(line, "tapCloseButton ignored: no close button is shown now (closed, closing, or style none)")
            }
            closeButtonTapped()
        case let .setContentOffset(x, y):
            guard var sv = scrollView else { return warn(line, "setContentOffset ignored: the trace has no scrollView") }
            if let x { sv.contentOffset.x = x }
            sv.setMainOffset(y ?? sv.contentOffset.y, .bottom)
            scrollView = sv
        case let .setContentSize(width, height):
            guard scrollView != nil else { return warn(line, "setContentSize ignored: the trace has no scrollView") }
            if let width { scrollView?.contentSize.width = width }
            if let height { scrollView?.contentSize.height = height }
        }
    }

    // MARK: Taps and the close button (§3.10, L6, L7)

    /// The bar can be tapped: it exists with a model height > 0, no animated close or dismissal
    /// locks the window, and (for a tap that begins now) no opening runs.
    func barTouchable(duringOpening: Bool) -> Bool {
        barExists && model.barHeight > 0 && targetState != .barHidden && !windowLocked && (duringOpening || !opening)
    }

    /// The close button is shown (open at rest or opening) and the window is not locked.
    var closeButtonAvailable: Bool {
        geometry.closeButtonFrame != nil && !windowLocked && (internalState == .open || opening)
    }

    func onBar(_ p: Point) -> Bool {
        barExists && model.barHeight > 0
            && Rect(x: 0, y: model.barTop, width: geometry.width, height: model.barHeight).contains(p)
    }

    func inCloseButton(_ p: Point) -> Bool {
        geometry.closeButtonFrame?.contains(Point(x: p.x, y: p.y - model.location)) ?? false
    }

    mutating func barTapped() {
        gesturesIgnored = true
        enqueue(.open(animated: true, clearsGestures: true))
    }

    mutating func closeButtonTapped() {
        enqueue(.close(animated: true, byGesture: false, clearsGestures: false))
    }

    // MARK: Touches (L2, L5–L8)

    mutating func handleTouch(_ t: TouchSample, line: Int) {
        guard secondFingers.admits(t, line: line, warnings: &warnings) else { return }
        let p = t.location
        switch t.phase {
        case .began:
            tracker.reset()
            tracker.addMovement(timeNanos: now * 1000, position: p)
            touchBegan(at: p)
        case .moved:
            tracker.addMovement(timeNanos: now * 1000, position: p)
            touchMoved(to: p, velocity: PanRecognition.recordedVelocity(t, source: velocitySource) ?? tracker.currentVelocity())
        case .stationary:
            return
        case .ended, .cancelled:
            guard let current = touch else { return }
            let v = PanRecognition.liftVelocity(t, time: now, source: velocitySource, tracker: tracker)
            if current.began {
                for rec in current.pans where touch?.pans.contains(rec) == true {
                    if rec == .scrollView { scrollView?.endPan(velocity: v.y, at: now, frameRate: environment.frameRate, .bottom) }
                    panEnded(rec, velocity: v)
                }
            } else if let target = current.tap {
                if t.phase == .ended, tapRecognizer.touchEnded(at: p, time: now) {
                    switch target {
                    case .bar: if barTouchable(duringOpening: true) { barTapped() }
                    case .closeButton: if closeButtonAvailable { closeButtonTapped() }
                    }
                } else {
                    tapRecognizer.touchCancelled()
                }
            }
            touch = nil
            let calls = deferredCalls
            deferredCalls = []
            for (call, line) in calls { handleCall(call, line: line) }
        }
    }

    mutating func touchBegan(at p: Point) {
        var new = PopupTouch(down: p, last: p)
        defer { touch = new }
        tapRecognizer.reset()
        if windowLocked { return }   // L7: ignored for the whole sequence
        if opening {
            if inCloseButton(p) { new.tap = .closeButton }
        } else if presentingBar {
            if onBar(p) { new.tap = .bar }
        } else if internalState == .barPresented, onBar(p) {
            new.tap = .bar
            new.pans = [.interaction]
        } else if internalState == .open {
            if inCloseButton(p) { new.tap = .closeButton }
            let local = Point(x: p.x, y: p.y - model.location)
            if var sv = scrollView, sv.frame.contains(local), scrollPanCanBegin(sv) {
                new.pans = hasVerticalContent(sv) || hasHorizontalContent(sv) ? [.scrollView] : [.scrollView, .interaction]
                sv.stopDeceleration()
                scrollView = sv
            } else {
                new.pans = [.interaction]
            }
        }
        if new.tap != nil { tapRecognizer.touchBegan(at: p, time: now) }
    }

    mutating func touchMoved(to p: Point, velocity v: Point) {
        guard var current = touch else { return }
        if current.tap != nil { tapRecognizer.touchMoved(to: p) }
        guard !current.pans.isEmpty else { return }
        let d = p - current.down
        if !current.began {
            guard PanRecognition.crossesBeginThreshold(d, threshold: beginThreshold) else { return }
            current.began = true
            current.tap = nil
            tapRecognizer.fail()
            if current.pans.contains(.scrollView), let sv = scrollView, sv.isDirectionalLockEnabled,
               hasVerticalContent(sv), hasHorizontalContent(sv) {
                current.lock = abs(d.y) >= abs(d.x) ? .vertical : .horizontal
            }
            current.last = p
            touch = current
            for rec in current.pans {
                if rec == .interaction {
                    if internalState == .open, let limit = popup.interactionLimitRect,
                       !limit.contains(Point(x: p.x, y: p.y - model.location)) {
                        cancel(.interaction); continue
                    }
                    if resolvedStyle == .none { cancel(.interaction); continue }
                }
                panBegan(rec, velocity: v)
            }
            return
        }
        let previous = current.last
        current.last = p
        touch = current
        for rec in current.pans where touch?.pans.contains(rec) == true {
            var translation = d
            if rec == .scrollView {
                switch current.lock {
                case .vertical?: translation.x = 0
                case .horizontal?: translation.y = 0
                case nil: break
                }
                if current.lock != .horizontal { scrollView?.pan(by: p.y - previous.y, .bottom) }
            }
            panChanged(rec, translation: translation, velocity: v)
        }
    }

    /// LNPopup cancels a recognizer (disable / re-enable): it gets no more samples of this touch.
    mutating func cancel(_ rec: PopupPanRecognizer) {
        touch?.pans.removeAll { $0 == rec }
    }

    // MARK: Scroll-view helpers (§3.6.1, L5)

    func hasVerticalContent(_ sv: ScrollViewModel) -> Bool {
        sv.contentSize.height > sv.frame.size.height - (sv.contentInset.top + sv.contentInset.bottom)
    }
    func hasHorizontalContent(_ sv: ScrollViewModel) -> Bool {
        sv.contentSize.width > sv.frame.size.width - (sv.contentInset.left + sv.contentInset.right)
    }
    func scrollPanCanBegin(_ sv: ScrollViewModel) -> Bool {
        hasVerticalContent(sv) || hasHorizontalContent(sv) || sv.alwaysBounceVertical || sv.alwaysBounceHorizontal
    }

    // MARK: The pan handler (§3.5)

    /// `began` (§3.5.2) with the velocity at recognition.
    mutating func panBegan(_ rec: PopupPanRecognizer, velocity v: Point) {
        guard !dismissalOverride, !gesturesIgnored else { return }
        let style = resolvedStyle
        if style == .none || (style == .scroll && rec != .scrollView) { return }
        let vertical = abs(v.y) > abs(v.x)
        if style == .snap && internalState == .barPresented {
            if vertical && v.y < 0 {
                cancel(rec)
                gesturesIgnored = true
                timers.append((now + 150_000, currentLine))
            } else if v.y > 0 {
                cancel(rec)
            }
        } else if style == .drag && internalState == .barPresented && (!vertical || v.y > 0) {
            cancel(rec)
        }
    }

    /// `changed` (§3.5.3, §3.5.4, §3.6.3) with the recognizer's translation and velocity.
    mutating func panChanged(_ rec: PopupPanRecognizer, translation tr: Point, velocity v: Point) {
        guard !dismissalOverride, !gesturesIgnored else { return }
        let style = resolvedStyle
        if style == .none || (style == .scroll && rec != .scrollView) { return }
        if tr.x == 0 && tr.y == 0 { return }   // Q4
        if rec == .scrollView, var sv = scrollView {
            let onlyVertically = !hasHorizontalContent(sv) || tr.x == 0
            if !onlyVertically {
                if abs(tr.y) <= abs(tr.x) {
                    cancel(.interaction)
                } else if drag != nil {
                    cancel(.scrollView)
                    sv.endPan(velocity: 0, at: now, frameRate: environment.frameRate, .bottom)
                    scrollView = sv
                    panEnded(.scrollView, velocity: v)
                }
                return
            }
            if drag == nil && (!(sv.contentOffset.y <= -sv.contentInset.top) || tr.y < 0) { return }
            if drag == nil { listStart = sv.contentOffset.y }
            if model.barTop > openTopCache {
                sv.setMainOffset(listStart, .bottom)
                scrollView = sv
            }
        }
        if drag == nil && (style == .drag || style == .scroll || internalState > .barPresented) {
            emit("willBeginDragging", [RecordField("state", .string(publicState.name)), RecordField("recognizer", .string(rec.name))])
            let h = model.barHeight
            drag = PopupDrag(startCentre: model.barTop + h / 2, height: h, from: internalState, dock: geometry.dock,
                             openTop: -h, startOffset: rec == .scrollView ? tr.y : 0)
            openTopCache = -h
            transition(to: .transitioning, animated: false, byGesture: false)
        }
        guard let d = drag else { return }
        let h = d.height
        var centre = min(d.startCentre + tr.y, d.dock - h / 2) - d.startOffset
        centre = max(centre, d.openTop + h / 2)
        let real = centre
        if style == .snap {
            centre = geometry.resistance(centre) - (h / 2 + geometry.resistance(-h / 2))
        }
        model.barTop = centre - h / 2
        model.location = model.barTop + h
        if style == .drag || style == .scroll {
            model.bottomBarTop = geometry.bottomBarTop(progress: 1 - model.location / d.dock)
        }
        if style == .snap && real / geometry.height > geometry.snapPercent {
            drag = nil
            cancel(rec)
            cancel(.interaction)
            if rec == .scrollView {
                scrollView?.endPan(velocity: 0, at: now, frameRate: environment.frameRate, .bottom)
            }
            gesturesIgnored = true
            emit("willEndDragging", [RecordField("velocity", .point(v)), RecordField("target", .string(PopupPresentationState.barPresented.name)),
                                     RecordField("reason", .string("snapThreshold"))])
            enqueue(.close(animated: true, byGesture: true, clearsGestures: true))
        }
    }

    /// `ended` / `cancelled` (§3.5.5, L16) with the velocity at this sample.
    mutating func panEnded(_ rec: PopupPanRecognizer, velocity v: Point) {
        guard !dismissalOverride, !gesturesIgnored, let d = drag else { return }
        let style = resolvedStyle
        let p = 1 - (model.barTop + d.height) / d.dock
        var target: PopupPresentationState
        if style == .snap {
            target = publicState
        } else if popup.releaseRule == .legacy {
            if v.y < 0 { target = .open }
            else if v.y > 0 { target = .barPresented }
            else if d.from == .barPresented { target = p > 0.2 ? .open : .barPresented }
            else { target = p < 0.8 ? .barPresented : .open }
        } else {
            target = d.from
            if v.y <= 0 {
                target = d.from == .open && p < 0.5 ? .barPresented : .open
            } else if p != 1.0 {
                target = .barPresented
            } else if d.from == .barPresented && p > 0.2 {
                target = .open
            } else if d.from == .open && p < 0.8 {
                target = .barPresented
            }
        }
        emit("willEndDragging", [RecordField("velocity", .point(v)), RecordField("target", .string(target.name)),
                                 RecordField("reason", .string("release"))])
        gesturesIgnored = true
        drag = nil
        if target == .open {
            enqueue(.open(animated: true, clearsGestures: true))
        } else {
            enqueue(.close(animated: true, byGesture: true, clearsGestures: true))
        }
    }
}
