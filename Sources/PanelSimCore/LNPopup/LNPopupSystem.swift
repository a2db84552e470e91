/// LNPopupController 4.5.6.1 behind the replay seam (lnpopup.md §3, quirks §4, defaults §5): the
/// three state variables, `_transitionToState` with its callbacks, the interaction recognizer and
/// the content's scroll-view pan in every interaction style, the event queue, the snap timer, the
/// bar tap and the close button, bar presentation and dismissal, and the records of §2.3.
///
/// Model values are what LNPopup assigns (bar frame, content top, bottom-bar top); frames report
/// on-screen values: model + Σ Δ·(1 − P) over the running animators (§3.9, L4, additive).
///
/// The system's parts: this file (state, the replay seam, the states' geometry),
/// `LNPopupFrame.swift` (frame records), `LNPopupTransitions.swift` (`_transitionToState`, bar
/// presentation and dismissal, animators), `LNPopupRequests.swift` (the event queue, the snap
/// timer, programmatic calls) and `LNPopupGestures.swift` (touches, taps, the pan handler).

struct LNPopupSystem: RecordingPanelSystem {
    let popup: PopupConfiguration
    let geometry: PopupGeometry
    let environment: PanelEnvironment
    let velocitySource: VelocitySource
    let beginThreshold: Double
    /// The switch values of the replay's profile point (profiles.md §3.2; the 4.5.6 point without
    /// a profile).
    let profile: LNPopupProfile
    /// LN-S7 as this replay applies it: `popup.simulator.releaseRule` when given, else the profile's.
    let releaseRule: PopupReleaseRule
    var recorder = SystemRecorder<LNPopupFrame>()
    var secondFingers = SecondFingerFilter()
    /// Time of the sample, timer or frame being processed (µs).
    var now: Microseconds = 0
    /// `now` held exactly (frame k at k / frameRate s, L1): the animators' clock.
    var instant = ReplayInstant(ticks: 0)
    let timebase: ReplayTimebase

    // State (§3.0, §3.1)
    var publicState: PopupPresentationState = .barHidden
    var internalState: PopupPresentationState = .barHidden
    var targetState: PopupPresentationState = .barHidden
    /// A bar exists: from its presentation until its dismissal completes.
    var barExists = false
    /// Model values.
    var model: PopupChannels
    /// The running `UIViewPropertyAnimator`s (§3.9).
    var animator: AdditiveAnimator<PopupChannels, PopupCompletion>
    /// Waiting entries, each with the trace line that caused it (for warnings).
    var queue: [(entry: PopupQueueEntry, line: Int)] = []
    /// Pending snap-open timers (L12): fire times in µs, in order, and the line of the sample that
    /// recognized the swipe.
    var timers: [(time: Microseconds, line: Int)] = []
    /// The trace line of the sample being processed (or of the timer firing): entries queued now
    /// carry it.
    var currentLine = 0
    var gesturesIgnored = false
    /// The velocity v.y (pt/s) of the release or snap-threshold sample that queued a gesture close:
    /// LN-S5's `seeded` spring reads it when that close starts.
    var gestureCloseVelocity = 0.0
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
    /// `scrollView != nil` (it is set up in `init` and never removed), kept as a flag: the
    /// per-frame reads test it instead of the optional.
    let hasScrollView: Bool

    /// The system for `trace`, whose header's `popup` section is `popup`, at the profile point of
    /// `options` (or the trace's).
    init(_ popup: PopupConfiguration, trace: Trace, options: SimulationOptions = SimulationOptions()) {
        self.popup = popup
        profile = LNPopupProfiles.table.values(for: trace.replayProfile(options))
        releaseRule = popup.releaseRule ?? profile.releaseRule
        environment = trace.header.environment
        timebase = ReplayTimebase(frameRate: environment.frameRate)
        animator = AdditiveAnimator(timebase: timebase)
        geometry = PopupGeometry(popup, environment: environment)
        velocitySource = trace.header.recognizer.velocity
        beginThreshold = trace.header.recognizer.beginThreshold
        tracker = VelocityTracker(strategy: velocitySource.strategy)
        model = PopupChannels(
            location: geometry.dock, barTop: geometry.dock + geometry.offset, barHeight: 0,
            bottomBarTop: geometry.dock)
        if let sv = trace.header.scrollView {
            var s = ScrollViewModel(sv, position: .bottom)
            s.isDirectionalLockEnabled = popup.scrollViewDirectionalLock
            scrollView = s
        }
        hasScrollView = scrollView != nil
    }

    // MARK: PanelSystem

    mutating func start() {
        switch popup.initialState {
        case .barHidden: break
        case .barPresented: presentBar(animated: false, openPopup: false)
        case .open: presentBar(animated: false, openPopup: true)
        }
    }

    mutating func process(_ sample: TraceSample) { withUnsafePointer(to: sample) { process(at: $0) } }

    /// Reads the sample in place: a touch's plain fields are taken without copying the whole
    /// sample (an enum with reference-counted payloads) out of the trace.
    @inline(__always)
    mutating func process(at sample: UnsafePointer<TraceSample>) {
        if !timers.isEmpty { fireTimers(before: sample.pointee.time) }
        now = sample.pointee.time
        instant = timebase.sample(now)
        if case .touch(let t) = sample.pointee.kind {
            currentLine = sample.pointee.line
            return handleTouch(t, line: sample.pointee.line)
        }
        switch sample.pointee.kind {
        case .systemCall(let call): if let call = call.exactly(PopupCall.self) { handleCall(call, line: sample.pointee.line) }
        case .touch, .call, .environment, .scroll, .observed, .end: break
        }
    }

    @inline(__always)
    mutating func stepFrame(index: Int, time: Microseconds) -> Bool {
        if !timers.isEmpty { fireTimers(atFrame: index) }
        now = time
        instant = timebase.frame(index)
        if !animator.isEmpty {
            var i = 0
            while let done = animator.removeCompleted(at: instant, from: &i) { complete(done.completion) }
        }
        if hasScrollView && scrollView.unsafelyUnwrapped.isAnimating {
            scrollView!.stepDeceleration(frameTime: time, pixel: 1 / environment.displayScale, .bottom)
        }
        writeFrame(index: index)
        return !animator.isEmpty || !timers.isEmpty || (hasScrollView && scrollView.unsafelyUnwrapped.isAnimating)
    }

    var isTouchDown: Bool { touch != nil }

    // MARK: Style (§3.2)

    /// The interaction style resolved against the public state; `default` is the profile's LN-S6
    /// value (automatic from 4.5.6, snap before).
    var resolvedStyle: PopupInteractionStyle {
        switch popup.interactionStyle {
        case .default where profile.defaultStyle == .snap: return .snap
        case .default, .automatic: return publicState == .barPresented ? .snap : .drag
        case let s: return s
        }
    }

    // MARK: Geometry of the states (§3.3)

    /// The model values of a rest state (closed or open).
    func channels(of state: PopupPresentationState) -> PopupChannels {
        // LN-S8 snapOnly: outside snap style a transition keeps the bar's current height h (the
        // open frame's top at −h, the content's top edge where §3.3 puts it).
        let keepsHeight = !profile.barHeightAllStyles && resolvedStyle != .snap
        if state == .open {
            let h = keepsHeight ? model.barHeight : 0
            return PopupChannels(
                location: 0, barTop: -h, barHeight: h,
                bottomBarTop: geometry.glass ? model.bottomBarTop : geometry.height)
        }
        if keepsHeight && model.barHeight != geometry.barHeight {
            return PopupChannels(
                location: geometry.dock, barTop: geometry.dock - model.barHeight + geometry.offset,
                barHeight: model.barHeight,
                bottomBarTop: geometry.glass ? model.bottomBarTop : geometry.dock)
        }
        return PopupChannels(
            location: geometry.dock, barTop: geometry.closedBarTop, barHeight: geometry.barHeight,
            bottomBarTop: geometry.glass ? model.bottomBarTop : geometry.dock)
    }

    /// LNPopup's 0.5 s animator with `spring`'s curve, or linear (§3.9).
    func timing(_ spring: SpringStepResponse) -> AnimatorTiming {
        popup.curve == .linear ? .linear(duration: 0.5) : .stretchedSpring(spring, duration: 0.5)
    }

    /// The springs of §3.9, computed once: ζ = 1 for programmatic transitions, 0.87 for those a
    /// gesture starts, 500 for the bar's presentation and dismissal.
    static let transitionSpring = SpringStepResponse(dampingRatio: 1)
    static let gestureSpring = SpringStepResponse(dampingRatio: 0.87)
    static let barSpring = SpringStepResponse(dampingRatio: 500)
    /// The close springs of earlier versions (profiles.md LN-S5): ζ = 0.85 and 0.9.
    static let spring085 = SpringStepResponse(dampingRatio: 0.85)
    static let spring090 = SpringStepResponse(dampingRatio: 0.9)

    /// An animated close or bar dismissal runs (L7); with LN-S1 `locked`, also an animated open.
    var windowLocked: Bool {
        animator.contains {
            $0.kind == .close || $0.kind == .barDismissal || ($0.kind == .open && profile.touchesDuringOpen == .locked)
        }
    }
    /// LNPopup's handler ignores every phase (§3.5.6): the flag is set and exists at this point (LN-S4).
    var ignoringGestures: Bool { gesturesIgnored && profile.gesturesIgnored }
    var opening: Bool { animator.contains { $0.kind == .open } }
    var presentingBar: Bool { animator.contains { $0.kind == .barPresentation } }
}
