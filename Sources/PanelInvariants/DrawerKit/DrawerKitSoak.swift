import PanelSimCore
import PanelTrace

/// DrawerKit's soak: `DrawerKitSoakGenerator`'s traces checked against K1–K5 of drawerkit.md §6
/// and the replay rules (`ReplayRules`).
///
/// * K1 at rest (no finger down, no drag, no animator) the location is pos(state) and the state is
///   named (§3.1; `presented` false: H and `dismissed`).
/// * K2 each `transitionWillStart` is followed by exactly one `transitionDidFinish` with the same
///   info; per transition `transitionWillStart`, `prepare`…, `animateAlong`… at its start,
///   `cleanup`…, `transitionDidFinish`, [`completion`] at its end, one record per participant
///   (presenting first), each block contiguous (§3.6 steps 4–7, §3.10, §3.15).
/// * K3 during a drag the location stays in [fullY, H] and, on a monotonic finger path, moves with
///   the finger by exactly its y increments until clamped (§3.3 steps 2–4). Narrowed: a frame in
///   which an animator runs shows the running animations on top of the model y (§3.3 step 8, §3.9),
///   so only frames without an animator are held to it.
/// * K4 `dismissalTransitionDidEnd` is the last record of a presentation (only a new
///   `presentationTransitionWillBegin` may follow); under D3's default no DrawerKit transition starts
///   after a transition to `dismissed` (or a `dismiss` call) until that record (§3.12, D3).
/// * K5 changing only `totalDurationInSeconds` changes no decision and no record order. Checked on
///   a second replay with half the duration, when in both replays every sample is processed while
///   no animator runs (a sample inside a transition meets it at another stage when only the
///   duration changes: its outcome may then differ, §3.10 D4 ignores touches during UIKit's
///   transitions and §3.2's tap availability follows the transitions).
///
/// With a profile (`--profile`) each trace names the version in its header and uses only what
/// that version has (at 0.7.0 the generator draws no `setDrawerState`, DK-G1); every rule holds at every point
/// (profiles.md §4.2), so a profiled trace is checked like any other.
public struct DrawerKitSoak: SystemSoak {
    /// The DrawerKit version the traces are replayed as; nil for the default point.
    public var profile: TraceProfile?

    public init(profile: TraceProfile? = nil) { self.profile = profile }

    /// The soak replaying as `profile` (a profile of this library; nil for another's).
    public func profiled(_ profile: TraceProfile) -> (any SystemSoak)? {
        profile.library == model ? DrawerKitSoak(profile: profile) : nil
    }

    public var model: PanelModel { .drawerKit }

    public var rules: [(id: String, source: String)] {
        [("K1", "drawerkit.md §6 K1, §3.1"), ("K2", "drawerkit.md §6 K2, §3.6, §3.15"), ("K3", "drawerkit.md §6 K3, §3.3"),
         ("K4", "drawerkit.md §6 K4, §3.12 D3"), ("K5", "drawerkit.md §6 K5, §3.8")]
    }

    public func trace(seed: UInt64) -> Trace {
        var trace = DrawerKitSoakGenerator.trace(seed: seed, setDrawerState: DrawerKitProfiles.table.values(for: profile).setDrawerState)
        if let profile { trace.header.profile = profile }
        return trace
    }

    public func check(_ trace: Trace, result: SimulationResult) -> SoakCheck {
        var checker = DrawerKitChecker(trace: trace, result: result, variant: model.rawValue)
        checker.checkAll()
        return checker.log.check
    }

    public func pairSteps(_ trace: Trace, _ result: SimulationResult) -> [PairStep] {
        var out: [PairStep] = []
        var dragOpen = false
        for record in result.records {
            guard case let .event(t, .system(e)) = record else { continue }
            switch e.name {
            case "presentationTransitionWillBegin": out.append(PairStep(.open, "presentationTransition", at: t))
            case "presentationTransitionDidEnd": out.append(PairStep(.close, "presentationTransition", at: t))
            case "dismissalTransitionWillBegin":
                out.append(PairStep(.open, "dismissalTransition", at: t))
                // D3, D4: the rest of an active drag is ignored once a dismissal is under way.
                if dragOpen { out.append(PairStep(.cancel, "handleDrawerDrag", at: t)); dragOpen = false }
            case "dismissalTransitionDidEnd": out.append(PairStep(.close, "dismissalTransition", at: t))
            case "transitionWillStart":
                // The transitions themselves are K2's (their info matched one to one).
                if dragOpen, FieldRead.string(e["targetDrawerState"]) == "dismissed", trace.header.drawer?.midTransition == .dismissalIsTerminal {
                    out.append(PairStep(.cancel, "handleDrawerDrag", at: t)); dragOpen = false
                }
            case "handleDrawerDrag":
                switch FieldRead.string(e["state"]) {
                case "began": out.append(PairStep(.open, "handleDrawerDrag", at: t)); dragOpen = true
                default: out.append(PairStep(.close, "handleDrawerDrag", at: t)); dragOpen = false
                }
            default: break
            }
        }
        return out
    }

    public var headerSimplifications: [@Sendable (inout TraceHeader) -> Void] {
        [
            { $0.drawer?.controls = [] },
            { $0.drawer?.scrollView = nil },
            { h in h.drawer?.participantPresenting = false; h.drawer?.participantPresented = true },
            { $0.drawer?.statusBarHeight = nil },
            { $0.drawer?.timingCurveProvider = .systemSpring },
            { $0.drawer?.springTiming = .stretched },
            { $0.drawer?.durationIsProportionalToDistanceTraveled = false },
            { $0.drawer?.totalDurationInSeconds = 0.4 },
            { $0.drawer?.maximumCornerRadius = 15 },
            { $0.drawer?.cornerAnimationOption = .maximumAtPartialY },
            { $0.drawer?.handleAutoAnimatesDimming = true },
            { $0.drawer?.fullExpansionBehaviour = .coversFullScreen },
            { $0.drawer?.flickSpeedThreshold = 3 },
            { h in h.drawer?.upperMarkGap = 40; h.drawer?.lowerMarkGap = 40 },
            { $0.drawer?.passthroughTouchesInStates = [.collapsed, .partiallyExpanded] },
            { $0.recognizer = RecognizerConfiguration() },
        ]
    }
}

/// The drawer's geometry as drawerkit.md §3.1 states it, for the checker (its own restatement).
struct DrawerKitPositions {
    let fullY: Double, partialY: Double, collapsedY: Double, height: Double

    init(_ d: DrawerConfiguration, height h: Double, statusBar: Double) {
        height = h
        switch d.fullExpansionBehaviour {
        case .coversFullScreen: fullY = 0
        case .doesNotCoverStatusBar: fullY = statusBar
        case .leavesCustomGap(let g): fullY = g
        }
        partialY = h - min(max(0, d.heightOfPartiallyExpandedDrawer), h)
        collapsedY = h - min(max(0, d.heightOfCollapsedDrawer), h)
    }

    /// pos(state) for a named state's frame name; nil for `transitioning` or an unknown name.
    func position(_ name: String) -> Double? {
        switch name {
        case "dismissed": return height
        case "collapsed": return collapsedY
        case "partiallyExpanded": return partialY
        case "fullyExpanded": return fullY
        default: return nil
        }
    }
}

struct DrawerKitChecker {
    let trace: Trace
    let result: SimulationResult
    let view: SystemReplayView
    let drawer: DrawerConfiguration
    var log: ViolationLog

    init(trace: Trace, result: SimulationResult, variant: String) {
        self.trace = trace; self.result = result
        view = SystemReplayView(trace, result)
        drawer = trace.header.drawer ?? DrawerConfiguration(heightOfPartiallyExpandedDrawer: 0)
        log = ViolationLog(variant: variant)
    }

    mutating func checkAll() {
        checkFrames()
        checkTransitions()
        checkDismissal()
        checkDurationIndependence()
    }

    /// The status bar height of the whole trace (D10; environment samples change only H, D13).
    var statusBar: Double { drawer.statusBarHeight ?? trace.header.environment.safeArea.top }

    /// The container height at each frame record (environment samples change it, D13).
    func heights() -> [Double] {
        var out: [Double] = []
        var h = trace.header.environment.container.height
        var i = 0
        let s = trace.samples
        for f in view.frames {
            while i < s.count, view.dueFrame(s[i].time) <= f.index {
                if case let .environment(e) = s[i].kind { h = e.container.height }
                i += 1
            }
            out.append(h)
        }
        return out
    }

    // MARK: K1, K3

    mutating func checkFrames() {
        let down = view.fingerDown()
        let heights = heights()
        let frames = view.frames
        for (i, f) in frames.enumerated() {
            let g = DrawerKitPositions(drawer, height: heights[i], statusBar: statusBar)
            let dragging = FieldRead.flag(f, "isDragging"), animating = FieldRead.flag(f, "isAnimating")
            if !down[i] && !dragging && !animating {
                log.count("K1")
                if let y = g.position(f.state) {
                    // A position outside [fullY, H] (a partial or collapsed height above fullY) is
                    // where UIKit's presentation puts the frame, but DrawerKit writes the model y
                    // through its clamp (§3.0, `currentDrawerY`): either is a rest at that state.
                    let clamped = min(max(y, g.fullY), g.height)
                    // A pull-to-dismiss drag that ends in the state it started from leaves the
                    // drawer where the pull moved it (§3.14, drag end), within 0.5 pt of the
                    // anchor, where DrawerKit counts it in that state (§3.1, `equal`).
                    let pulled = drawer.scrollView != nil && abs(f.location - clamped) <= 0.5
                    if abs(f.location - y) > 1e-9 && abs(f.location - clamped) > 1e-9 && !pulled {
                        log.fail("K1", "rest", "frame \(f.index): at rest in \(f.state) at \(f.location), pos(\(f.state)) = \(y)")
                    }
                } else {
                    log.fail("K1", "state", "frame \(f.index): at rest in state \(f.state), not a named state")
                }
            }
            guard dragging, !animating else { continue }
            log.count("K3")
            if f.location < g.fullY - 1e-9 || f.location > g.height + 1e-9 {
                log.fail("K3", "bound", "frame \(f.index): location \(f.location) outside [fullY \(g.fullY), H \(g.height)] during a drag")
            }
            if i > 0 { checkFollowing(i, g) }
        }
    }

    /// K3's 1:1 following between frame record `i − 1` and `i` (both with the drag active, or the
    /// drag beginning in between) when no animator, environment change or call acts in between.
    mutating func checkFollowing(_ i: Int, _ g: DrawerKitPositions) {
        let f = view.frames[i], p = view.frames[i - 1]
        guard !FieldRead.flag(p, "isAnimating") else { return }
        let window = view.samples(betweenFrame: i)
        var ys: [Double] = []
        for s in window {
            switch s.kind {
            case let .touch(t) where t.id == 0:
                switch t.phase {
                case .moved: ys.append(t.location.y)
                case .began: return   // a new touch: not one pan's increments
                default: break
                }
            case .touch: break
            default: return           // a call or an environment change acts in between
            }
        }
        guard let last = ys.last else { return }
        // The reference: the last moved sample before the window while dragging, else (the pan
        // began in this window) the touch-down point (§3.3 steps 1–2, D6).
        let reference: Double
        if FieldRead.flag(p, "isDragging") {
            guard let y = lastFingerY(before: window.startIndex) else { return }
            reference = y
        } else {
            guard let y = touchDownY(before: window.startIndex) else { return }
            reference = y
        }
        let path = [reference] + ys
        let up = zip(path, path.dropFirst()).allSatisfy { $1 <= $0 }, down = zip(path, path.dropFirst()).allSatisfy { $1 >= $0 }
        guard up || down else { return }
        let moved = f.location - p.location, finger = last - reference
        if abs(moved - finger) <= 1e-6 { return }
        // Clamped: the drawer stops at fullY (moving up) or H (moving down), Q10.
        let bound = finger < 0 ? g.fullY : g.height
        if abs(f.location - bound) <= 1e-9 && abs(moved) <= abs(finger) + 1e-9 && moved * finger >= 0 { return }
        log.fail("K3", "follow", "frame \(f.index): the drawer moved \(moved) for a monotonic finger move of \(finger)")
    }

    func lastFingerY(before index: Int) -> Double? {
        for s in trace.samples[..<index].reversed() {
            guard case let .touch(t) = s.kind, t.id == 0 else { continue }
            if t.phase == .moved { return t.location.y }
            if t.phase == .began { return t.location.y }
        }
        return nil
    }

    func touchDownY(before index: Int) -> Double? {
        for s in trace.samples[..<index].reversed() {
            guard case let .touch(t) = s.kind, t.id == 0 else { continue }
            if t.phase == .began { return t.location.y }
            if t.phase == .ended || t.phase == .cancelled { return nil }
        }
        return nil
    }

    // MARK: K2

    /// The participants' names, presenting first (§2.1).
    var participants: [String] {
        (drawer.participantPresenting ? ["presenting"] : []) + (drawer.participantPresented ? ["presented"] : [])
    }

    mutating func checkTransitions() {
        let events = view.events
        let parts = participants
        var open: [[RecordField]] = []
        var completionsExpected = 0, completionsSeen = 0
        var completionCallsUsed: Set<Microseconds> = []
        var i = 0
        func info(_ e: SystemEvent) -> [RecordField] { e.fields.filter { $0.key != "participant" } }
        while i < events.count {
            let (t, e) = events[i]
            switch e.name {
            case "transitionWillStart":
                log.count("K2")
                let fields = info(e)
                // prepare…, animateAlong…, one per participant, right after it at the same time.
                let expected = parts.map { ("prepare", $0) } + parts.map { ("animateAlong", $0) }
                for (k, (name, participant)) in expected.enumerated() {
                    let j = i + 1 + k
                    guard j < events.count, events[j].time == t, events[j].event.name == name,
                          FieldRead.string(events[j].event["participant"]) == participant, info(events[j].event) == fields else {
                        log.fail("K2", "start-order", "transitionWillStart at t = \(secondsText(t)) s is not followed by \(name) of \(participant) with its info")
                        break
                    }
                }
                open.append(fields)
                if !completionCallsUsed.contains(t), startedWithCompletion(at: t) {
                    completionsExpected += 1
                    completionCallsUsed.insert(t)
                }
                i += 1 + expected.count
                continue
            case "prepare", "animateAlong":
                log.fail("K2", "outside", "\(e.name) at t = \(secondsText(t)) s outside its transition's start")
            case "cleanup":
                // cleanup…, transitionDidFinish, one block at the same time.
                log.count("K2")
                let fields = info(e)
                var j = i
                for participant in parts {
                    guard j < events.count, events[j].time == t, events[j].event.name == "cleanup",
                          FieldRead.string(events[j].event["participant"]) == participant, info(events[j].event) == fields else {
                        log.fail("K2", "end-order", "cleanup at t = \(secondsText(t)) s: expected cleanup of \(participant) with the same info")
                        break
                    }
                    j += 1
                }
                guard j < events.count, events[j].time == t, events[j].event.name == "transitionDidFinish", info(events[j].event) == fields else {
                    log.fail("K2", "end-order", "cleanup at t = \(secondsText(t)) s is not followed by its transitionDidFinish")
                    i += 1
                    continue
                }
                i = j
                continue
            case "transitionDidFinish":
                log.count("K2")
                if !parts.isEmpty && (i == 0 || events[i - 1].event.name != "cleanup") {
                    log.fail("K2", "end-order", "transitionDidFinish at t = \(secondsText(t)) s without its cleanup before it")
                }
                if let k = open.firstIndex(of: info(e)) {
                    open.remove(at: k)
                } else {
                    log.fail("K2", "unmatched", "transitionDidFinish at t = \(secondsText(t)) s matches no started transition's info")
                }
            case "completion":
                completionsSeen += 1
                if i == 0 || events[i - 1].event.name != "transitionDidFinish" {
                    log.fail("K2", "completion", "completion at t = \(secondsText(t)) s not right after a transitionDidFinish")
                }
            default: break
            }
            i += 1
        }
        if !result.budgetExceeded {
            if !open.isEmpty {
                log.fail("K2", "unfinished", "\(open.count) transition(s) never finished (the replay came to rest)")
            }
            if completionsSeen != completionsExpected {
                log.fail("K2", "completion", "\(completionsSeen) completion records for \(completionsExpected) setDrawerState calls with a completion that started a transition")
            }
        }
    }

    /// True when a `setDrawerState` call with a completion is the sample at `t` (calls have times
    /// of their own, so a transition that starts at its time is its transition).
    func startedWithCompletion(at t: Microseconds) -> Bool {
        view.samples(at: t).contains { if case .setDrawerState(_, _, true)? = $0.kind.drawerCall { return true } else { return false } }
    }

    // MARK: K4

    mutating func checkDismissal() {
        let terminalPolicy = drawer.midTransition == .dismissalIsTerminal
        var gone = false, dismissing = false, presented = drawer.presented
        var previous = ""
        // A `dismiss` call on a presented drawer makes it terminal from its time on (D3).
        var dismissCalls = trace.samples.filter { if case .dismiss? = $0.kind.drawerCall { return true } else { return false } }.map(\.time)[...]
        for (t, e) in view.events {
            while let c = dismissCalls.first, c <= t {
                if presented { dismissing = true }
                dismissCalls = dismissCalls.dropFirst()
            }
            if gone {
                log.count("K4")
                if e.name != "presentationTransitionWillBegin" {
                    log.fail("K4", "after-end", "\(e.name) at t = \(secondsText(t)) s after dismissalTransitionDidEnd")
                }
                gone = false
            }
            // UIKit's presentation reports its own transition (§3.10 step 2): not a DrawerKit
            // transition, whatever its target (a drawer presented at H reports `dismissed`).
            let uiKitPresentation = previous == "presentationTransitionWillBegin"
            previous = e.name
            switch e.name {
            case "transitionWillStart":
                if terminalPolicy && !uiKitPresentation {
                    log.count("K4")
                    let target = FieldRead.string(e["targetDrawerState"])
                    if dismissing && target != "dismissed" {
                        log.fail("K4", "after-dismissal", "a transition to \(target ?? "?") starts at t = \(secondsText(t)) s after a transition to dismissed or a dismiss call")
                    }
                    if target == "dismissed" { dismissing = true }
                }
            case "dismissalTransitionWillBegin": dismissing = true
            case "dismissalTransitionDidEnd": gone = true; dismissing = false; presented = false
            case "presentationTransitionWillBegin": dismissing = false; presented = true
            default: break
            }
        }
    }

    // MARK: K5

    mutating func checkDurationIndependence() {
        var scaled = trace
        scaled.header.drawer?.totalDurationInSeconds = drawer.totalDurationInSeconds / 2
        let other = simulate(scaled)
        let otherView = SystemReplayView(scaled, other)
        guard Self.samplesMeetNoAnimator(view), Self.samplesMeetNoAnimator(otherView), !result.budgetExceeded, !other.budgetExceeded else { return }
        log.count("K5")
        func decisions(_ v: SystemReplayView) -> [String] {
            v.events.map { e in
                ([e.event.name] + e.event.fields.compactMap { f -> String? in
                    switch f.value {
                    case .string(let s): return "\(f.key)=\(s)"
                    case .bool(let b): return "\(f.key)=\(b)"
                    default: return nil
                    }
                }).joined(separator: " ")
            }
        }
        let a = decisions(view), b = decisions(otherView)
        if a != b {
            let k = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? min(a.count, b.count)
            log.fail("K5", "decisions", "with totalDurationInSeconds halved, record \(k) differs: \(k < a.count ? a[k] : "none") vs \(k < b.count ? b[k] : "none")")
        } else if view.frames.last?.state != otherView.frames.last?.state {
            log.fail("K5", "final", "with totalDurationInSeconds halved the drawer ends in \(otherView.frames.last?.state ?? "?"), not \(view.frames.last?.state ?? "?")")
        }
    }

    /// True when every sample is processed at a frame whose previous frame record shows no animator
    /// running (animators complete after a frame's samples, so one still running at the previous
    /// record is running when the sample is processed).
    /// An animator started by an earlier sample of the same frame (its `transitionWillStart`, or a
    /// UIKit transition's `…WillBegin`) also counts as running.
    static func samplesMeetNoAnimator(_ v: SystemReplayView) -> Bool {
        var fi = 0, ei = 0
        var running = false
        var startedSince: Microseconds?
        let starts: Set<String> = ["transitionWillStart", "presentationTransitionWillBegin", "dismissalTransitionWillBegin"]
        for s in v.trace.samples {
            let k = v.dueFrame(s.time)
            while fi < v.frames.count, v.frames[fi].index < k {
                running = FieldRead.flag(v.frames[fi], "isAnimating")
                fi += 1
                startedSince = nil
            }
            while ei < v.events.count, v.events[ei].time < s.time {
                if starts.contains(v.events[ei].event.name), v.dueFrame(v.events[ei].time) == k { startedSince = v.events[ei].time }
                ei += 1
            }
            if running || startedSince != nil { return false }
        }
        return true
    }
}
