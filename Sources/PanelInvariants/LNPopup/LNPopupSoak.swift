import PanelSimCore
import PanelTrace

/// LNPopup's soak: `LNPopupSoakGenerator`'s traces checked against P1–P6 of lnpopup.md §6 and the
/// replay rules (`ReplayRules`; the will/did pairing is P3's own here).
///
/// * P1 at rest (no finger down, no drag, no animator) the internal state equals the public state
///   and `location` is 0 when open and the docking line otherwise (§3.1, §3.3).
/// * P2 at rest `barVisible` ⇔ barPresented; legacy with a bottom bar, `bottomBarVisible` ⇔ not open.
/// * P3 every `willOpenPopup` (the doubled one of Q3 once), `willClosePopup`, `willPresentPopupBar`,
///   `willDismissPopupBar` is followed by its `did…`, every `willBeginDragging` by one
///   `willEndDragging`, and no `did…` comes without its `will…` (checked when the replay came to
///   rest).
/// * P4 during a drag `location` ∈ [0, dock]; drag and scroll styles follow the finger 1:1 until
///   clamped, snap moves by the rubber band R (strictly less than the finger): the exact formulas
///   of §3.5.4 (with Q4's ignored (0, 0) samples and the scroll pan's start offset, Q8).
/// * P5 no drag starts while an animator runs, or after a release, snap threshold or bar tap before
///   the completion of the open or close it requested (§3.5.6); the public state (frame `state`)
///   changes only with a `didChangeState` of that state, written at an animator completion (a
///   frame) or synchronously by a call that does not animate (§3.4 step 7, §3.11).
/// * P6 the orders of §3.13: `didChangeState` right before the `did…` of the same completion, the
///   release's `will…` right after its `willEndDragging` (§3.5.5).
///
/// With a profile (`--profile lnpopup@VERSION`) each trace names the version in its header (and
/// before 4.5.4 the generator draws `default` for `automatic`, LN-G1), the checker follows the switches the rules read (LN-S2's (0, 0) samples, LN-S6's `default` style)
/// and keeps the rules that hold at the point (`LNPopupSoak.exemptions`, profiles.md §4.2).
public struct LNPopupSoak: SystemSoak {
    /// The LNPopupController version the traces are replayed as; nil for the default point.
    public var profile: TraceProfile?

    public init(profile: TraceProfile? = nil) { self.profile = profile }

    public var model: PanelModel { .lnPopup }

    /// The soak replaying as `profile` (a profile of this library; nil for another's).
    public func profiled(_ profile: TraceProfile) -> (any SystemSoak)? {
        profile.library == model ? LNPopupSoak(profile: profile) : nil
    }

    public var rules: [(id: String, source: String)] {
        [("P1", "lnpopup.md §6 P1, §3.1, §3.3"), ("P2", "lnpopup.md §6 P2, §3.3"), ("P3", "lnpopup.md §6 P3, §3.4, §3.11"),
         ("P4", "lnpopup.md §6 P4, §3.5.4"), ("P5", "lnpopup.md §6 P5, §3.5.6, §3.4"), ("P6", "lnpopup.md §6 P6, §3.13")]
    }

    public func trace(seed: UInt64) -> Trace {
        var trace = LNPopupSoakGenerator.trace(seed: seed, automaticStyle: LNPopupProfiles.table.values(for: profile).automaticStyle)
        if let profile { trace.header.profile = profile }
        return trace
    }

    public func check(_ trace: Trace, result: SimulationResult) -> SoakCheck {
        var checker = LNPopupChecker(trace: trace, result: result, variant: model.rawValue)
        checker.checkAll()
        var out = checker.log.check
        out.violations = SoakExemption.applying(Self.exemptions, to: out.violations, trace: trace, values: checker.values)
        return out
    }

    public var headerSimplifications: [@Sendable (inout TraceHeader) -> Void] {
        [
            { $0.scrollView = nil },
            { $0.popup?.interactionLimitRect = nil },
            { $0.popup?.closeButtonFrame = nil },
            { $0.popup?.closeButtonStyle = .default },
            { $0.popup?.barOffset = 0 },
            { h in h.popup?.barStyle = .default; h.popup?.barHeight = nil },
            { $0.popup?.glass = false },
            { $0.popup?.snapPercent = 0.32 },
            { $0.popup?.curve = .spring },
            { $0.popup?.releaseRule = .current },
            { $0.popup?.scrollViewDirectionalLock = false },
            { $0.recognizer = RecognizerConfiguration() },
        ]
    }
}

struct LNPopupChecker {
    let trace: Trace
    let result: SimulationResult
    let view: SystemReplayView
    let popup: PopupConfiguration
    let dock: Double
    /// The switch values of the header's profile point (the default point's without one).
    let values: LNPopupProfile
    var log: ViolationLog

    init(trace: Trace, result: SimulationResult, variant: String) {
        self.trace = trace; self.result = result
        values = LNPopupProfiles.table.values(for: trace.header.profile)
        view = SystemReplayView(trace, result)
        popup = trace.header.popup ?? PopupConfiguration()
        dock = popup.dockingLine(environment: trace.header.environment)
        log = ViolationLog(variant: variant)
    }

    mutating func checkAll() {
        checkRest()
        checkPairs()
        checkDrags()
        checkDragStarts()
        checkStateChanges()
        checkOrders()
    }

    // MARK: P1, P2

    mutating func checkRest() {
        let down = view.fingerDown()
        let legacyBottomBar = popup.bottomBarKind != .none && !popup.glass
        for (i, f) in view.frames.enumerated() {
            guard !down[i], !FieldRead.flag(f, "isDragging"), !FieldRead.flag(f, "isAnimating") else { continue }
            log.count("P1"); log.count("P2")
            let internalState = FieldRead.string(f["internalState"]) ?? "?"
            if internalState != f.state {
                log.fail("P1", "state", "frame \(f.index): at rest with internal state \(internalState), public \(f.state)")
            }
            let expected = f.state == "open" ? 0 : dock
            if abs(f.location - expected) > 1e-9 {
                log.fail("P1", "location", "frame \(f.index): at rest in \(f.state) at \(f.location), expected \(expected)")
            }
            if FieldRead.flag(f, "barVisible") != (f.state == "barPresented") {
                log.fail("P2", "bar", "frame \(f.index): at rest in \(f.state) with barVisible \(FieldRead.flag(f, "barVisible"))")
            }
            if legacyBottomBar, FieldRead.flag(f, "bottomBarVisible") != (f.state != "open") {
                log.fail("P2", "bottom-bar", "frame \(f.index): at rest in \(f.state) with bottomBarVisible \(FieldRead.flag(f, "bottomBarVisible"))")
            }
        }
    }

    // MARK: P3

    /// The will/did steps: Q3's doubled `willOpenPopup` (two at one time, the second from the open
    /// transition `presentBar(openPopup: true)` starts) counts once.
    func pairSteps() -> [PairStep] {
        var out: [PairStep] = []
        let pairs = ["willOpenPopup": ("open", PairStep.Kind.open), "didOpenPopup": ("open", .close),
                     "willClosePopup": ("close", .open), "didClosePopup": ("close", .close),
                     "willPresentPopupBar": ("presentBar", .open), "didPresentPopupBar": ("presentBar", .close),
                     "willDismissPopupBar": ("dismissBar", .open), "didDismissPopupBar": ("dismissBar", .close),
                     "willBeginDragging": ("drag", .open), "willEndDragging": ("drag", .close)]
        var previous: (Microseconds, String)?
        for (t, e) in view.events {
            defer { previous = (t, e.name) }
            guard let (key, kind) = pairs[e.name] else { continue }
            if e.name == "willOpenPopup", let p = previous, p.0 == t, p.1 == "willOpenPopup" { continue }
            out.append(PairStep(kind, key, at: t))
        }
        return out
    }

    mutating func checkPairs() {
        let cutShort = result.budgetExceeded || trace.samples.contains { if case .end = $0.kind { return true } else { return false } }
        let check = ReplayRules.checkPairs(pairSteps(), atRest: !cutShort, variant: log.variant)
        log.count("P3", check.counts["pairs"])
        for v in check.violations { log.fail("P3", v.kind, v.message) }
    }

    // MARK: P4

    /// The resolved interaction style of a drag that started with the public state `state` (§3.2;
    /// `default` is snap where LN-S6 says so, profiles.md §3.2.3).
    func style(from state: String) -> PopupInteractionStyle {
        switch popup.interactionStyle {
        case .default where values.defaultStyle == .snap: return .snap
        case .default, .automatic: return state == "barPresented" ? .snap : .drag
        case let s: return s
        }
    }

    mutating func checkDrags() {
        let frames = view.frames
        var drag: (style: PopupInteractionStyle, scroll: Bool, start: Double, from: String, startOffset: Double)?
        var e = 0
        let height = trace.header.environment.container.height
        let c = popup.effectiveSnapPercent
        var down = Point.zero
        var lastApplied: Point?
        var si = 0
        let samples = trace.samples
        for f in frames {
            // Samples and events of this frame, in time order: follow finger 0 and the drag.
            while si < samples.count, view.dueFrame(samples[si].time) <= f.index {
                let s = samples[si]
                si += 1
                while e < view.events.count, view.events[e].time < s.time { advanceDrag(&drag, view.events[e], &lastApplied, down); e += 1 }
                guard case let .touch(t) = s.kind, t.id == 0 else { continue }
                switch t.phase {
                case .began: down = t.location; lastApplied = nil
                case .moved:
                    // Q4: a translation of exactly (0, 0) is ignored (from 4.2.1, LN-S2).
                    if t.location != down || !values.zeroTranslationIgnored { lastApplied = t.location }
                default: break
                }
                while e < view.events.count, view.events[e].time == s.time { advanceDrag(&drag, view.events[e], &lastApplied, down); e += 1 }
            }
            guard FieldRead.flag(f, "isDragging") else { continue }
            log.count("P4")
            if f.location < -1e-9 || f.location > dock + 1e-9 {
                log.fail("P4", "bound", "frame \(f.index): location \(f.location) outside [0, dock \(dock)] during a drag")
            }
            guard let d = drag, let p = lastApplied, !FieldRead.flag(f, "isAnimating") else { continue }
            let ty = p.y - down.y
            let expected: Double
            switch d.style {
            case .drag, .scroll:
                if d.scroll {
                    // A 2-D list ignores sideways samples during the drag (§3.6.3 step 1) and a
                    // directional lock rewrites the translation (L8): followed only on lists
                    // without horizontal content and without the lock.
                    guard !popup.scrollViewDirectionalLock, !listHasHorizontalContent, d.from == "open" else { continue }
                    expected = max(min(ty, dock) - d.startOffset, 0)
                } else {
                    expected = min(max(d.start + ty, 0), dock)
                }
            case .snap:
                guard d.from == "open" else { continue }
                if d.scroll && (popup.scrollViewDirectionalLock || listHasHorizontalContent) { continue }
                let x = max(min(ty, dock) - (d.scroll ? d.startOffset : 0), 0)
                expected = x * height * c / (height + c * x)
                if f.location > x + 1e-9 || (x > 0 && f.location >= x) {
                    log.fail("P4", "snap", "frame \(f.index): snap drag at \(f.location) for \(x) pt of finger travel (R(x) < x)")
                }
            default: continue
            }
            if abs(f.location - expected) > 1e-6 {
                log.fail("P4", "follow", "frame \(f.index): \(d.style.rawValue) drag from \(d.from) at \(f.location), §3.5.4 gives \(expected) (ty \(ty))")
            }
        }
    }

    /// §3.6.1: the list has horizontal content.
    var listHasHorizontalContent: Bool {
        guard let sv = trace.header.scrollView else { return false }
        return sv.contentSize.width > sv.frame.size.width - (sv.contentInset.left + sv.contentInset.right)
    }

    /// Follows the drag through its events: `willBeginDragging` starts it (the start location and,
    /// for a scroll-view drag, the start offset = that sample's translation), `willEndDragging` ends it.
    func advanceDrag(_ drag: inout (style: PopupInteractionStyle, scroll: Bool, start: Double, from: String, startOffset: Double)?,
                     _ event: (time: Microseconds, event: SystemEvent), _ lastApplied: inout Point?, _ down: Point) {
        switch event.event.name {
        case "willBeginDragging":
            let from = FieldRead.string(event.event["state"]) ?? "?"
            let scroll = FieldRead.string(event.event["recognizer"]) == "scrollView"
            let start = from == "open" ? 0 : dock + popup.barOffset
            let startOffset = scroll ? (lastApplied.map { $0.y - down.y } ?? 0) : 0
            drag = (style(from: from), scroll, start, from, startOffset)
        case "willEndDragging": drag = nil
        default: break
        }
    }

    // MARK: P5

    mutating func checkDragStarts() {
        var ignoredSince: Microseconds?
        // An animator started since the last frame record (by an earlier sample of the frame).
        var startedAfterFrame: (frame: Int, time: Microseconds)?
        let starts: Set<String> = ["willOpenPopup", "willClosePopup", "willPresentPopupBar", "willDismissPopupBar"]
        for (i, (t, e)) in view.events.enumerated() {
            let k = view.framesBefore[i]
            if let s = startedAfterFrame, s.frame != k { startedAfterFrame = nil }
            switch e.name {
            case "willBeginDragging":
                log.count("P5")
                if (k >= 0 && FieldRead.flag(view.frames[k], "isAnimating")) || startedAfterFrame != nil {
                    log.fail("P5", "animating", "a drag starts at t = \(secondsText(t)) s while an animator runs")
                }
                if let since = ignoredSince {
                    log.fail("P5", "ignored", "a drag starts at t = \(secondsText(t)) s while gestures are ignored (since \(secondsText(since)) s)")
                }
            case "willEndDragging": ignoredSince = t
            case "didChangeState": ignoredSince = nil
            default: break
            }
            // An animated transition's will… starts its animator (a non-animated one completes at
            // once with its didChangeState at the same time).
            if starts.contains(e.name), FieldRead.bool(e["animated"]) == true { startedAfterFrame = (k, t) }
            if e.name == "didChangeState", startedAfterFrame?.time == t { startedAfterFrame = nil }
        }
    }

    /// P5's second half: a change of the frame `state` comes with a `didChangeState` of that state
    /// since the previous frame record, written at a frame (an animator's completion) or at the
    /// time of a call that does not animate (or of the touch that ends the pan a deferred one waited
    /// for, L13).
    mutating func checkStateChanges() {
        var previous: SystemFrame?
        var e = 0
        for f in view.frames {
            var changes: [(Microseconds, String)] = []
            let t1 = view.time(ofFrame: f.index)
            while e < view.events.count, view.events[e].time <= t1 {
                if view.events[e].event.name == "didChangeState" {
                    changes.append((view.events[e].time, FieldRead.string(view.events[e].event["state"]) ?? "?"))
                }
                e += 1
            }
            if let p = previous, p.state != f.state {
                log.count("P5")
                if changes.last?.1 != f.state {
                    log.fail("P5", "state", "frame \(f.index): the public state changed to \(f.state) without didChangeState(\(f.state))")
                }
            }
            for (t, _) in changes where t != 0 && !view.isFrameTime(t) && !synchronousCompletion(at: t) {
                log.fail("P5", "completion", "didChangeState at t = \(secondsText(t)) s is neither at an animator's completion nor by a call that does not animate")
            }
            previous = f
        }
    }

    /// True when a call that does not animate is the sample at `t`, or was made earlier: its
    /// request may wait in the queue (behind an animator, or behind a no-op entry, Q11) and
    /// completes synchronously whenever the queue resumes (§3.4 step 7, §3.8): at a frame, a call,
    /// a touch (a release or tap enqueues) or the snap timer (L12).
    func synchronousCompletion(at t: Microseconds) -> Bool {
        trace.samples.contains { s in
            guard s.time <= t else { return false }
            switch s.kind.popupCall {
            case let .presentBar(animated, _)?, let .dismissBar(animated)?, let .openPopup(animated)?, let .closePopup(animated)?: return !animated
            default: return false
            }
        }
    }

    // MARK: P6

    mutating func checkOrders() {
        let events = view.events
        for (i, (t, e)) in events.enumerated() {
            let prior = i > 0 ? events[i - 1] : nil
            func follows(_ state: String) -> Bool {
                prior?.event.name == "didChangeState" && FieldRead.string(prior?.event["state"]) == state && prior?.time == t
            }
            switch e.name {
            case "didOpenPopup":
                log.count("P6")
                if !follows("open") { log.fail("P6", "did-open", "didOpenPopup at t = \(secondsText(t)) s not right after didChangeState(open)") }
            case "didClosePopup":
                log.count("P6")
                if !follows("barPresented") { log.fail("P6", "did-close", "didClosePopup at t = \(secondsText(t)) s not right after didChangeState(barPresented)") }
            case "didDismissPopupBar":
                log.count("P6")
                if !follows("barHidden") { log.fail("P6", "did-dismiss", "didDismissPopupBar at t = \(secondsText(t)) s not right after didChangeState(barHidden)") }
            case "didPresentPopupBar":
                log.count("P6")
                // §3.11: after didChangeState(barPresented), or with openPopup after the open's
                // didOpenPopup (not animated) or before it in the same frame (animated).
                let sameFrameOpen = events.contains { $0.time == t && $0.event.name == "didOpenPopup" }
                if !follows("barPresented") && prior?.event.name != "didOpenPopup" && !sameFrameOpen {
                    log.fail("P6", "did-present", "didPresentPopupBar at t = \(secondsText(t)) s out of §3.11's order")
                }
            case "willEndDragging":
                log.count("P6")
                checkRelease(i)
            default: break
            }
        }
    }

    /// §3.5.5 / §3.13: a release (or snap threshold) that changes the public state starts its open
    /// or close at once (no animator runs during a drag): its `willOpenPopup` / `willClosePopup`
    /// comes next, at the same time.
    mutating func checkRelease(_ i: Int) {
        let (t, e) = view.events[i]
        guard let target = FieldRead.string(e["target"]) else { return }
        // A request the app queued may still wait at the release (behind a no-op entry, Q11) and
        // start first, coalescing the release's away (§3.8): only releases with no app request
        // before them are held to it.
        let queued = trace.samples.contains { s in
            guard s.time < t, let c = s.kind.popupCall else { return false }
            switch c {
            case .setContentOffset, .setContentSize: return false
            default: return true
            }
        }
        guard !queued else { return }
        let k = view.framesBefore[i]
        let publicState = k >= 0 ? view.frames[k].state : "?"
        guard target != publicState, publicState == "open" || publicState == "barPresented" else { return }
        let expected = target == "open" ? "willOpenPopup" : "willClosePopup"
        let next = i + 1 < view.events.count ? view.events[i + 1] : nil
        if next?.event.name != expected || next?.time != t {
            log.fail("P6", "release", "willEndDragging(\(target)) at t = \(secondsText(t)) s from \(publicState) is not followed by \(expected) at once")
        }
    }
}
