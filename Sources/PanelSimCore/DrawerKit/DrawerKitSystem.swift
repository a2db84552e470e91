/// DrawerKit behind the replay seam (drawerkit.md §3, quirks §4, defaults §5): the presentation
/// controller's state, its pan and tap recognizers, `animateTransition(to:)` with additive
/// animators, UIKit's present/dismiss transitions, and the records of §2.3.
///
/// Model y (`modelY`) is the presented view's `frame.origin.y`, which DrawerKit reads and writes;
/// the on-screen y (frame `location`) adds what running animators still contribute (§3.9, D2).
///
/// The system's parts: this file (state, the replay seam), `DrawerKitFrame.swift` (frame records),
/// `DrawerKitTransitions.swift` (transitions, animators, UIKit's presentation and dismissal),
/// `DrawerKitGestures.swift` (recognizers, taps, touches, pull-to-dismiss) and
/// `DrawerKitCalls.swift` (programmatic calls, environment changes).
struct DrawerKitSystem: RecordingPanelSystem {
    let drawer: DrawerConfiguration
    let velocitySource: VelocitySource
    let beginThreshold: Double
    /// The switch values of the replay's profile point (profiles.md §3.3; master without a profile).
    let profile: DrawerKitProfile
    var environment: PanelEnvironment
    var geometry: DrawerGeometry
    var recorder = SystemRecorder<DrawerKitFrame>()
    var secondFingers = SecondFingerFilter()
    var now: Microseconds = 0
    /// `now` held exactly (frame k at k / frameRate s): the animators' clock (lnpopup.md L1, DESIGN.md).
    var instant = ReplayInstant(ticks: 0)
    let timebase: ReplayTimebase

    // Presentation (§3.2, §3.10)
    /// A presentation controller exists: from `presentationTransitionWillBegin` to
    /// `dismissalTransitionDidEnd` (the frame channel `presented`).
    var presented = false
    /// A presentation has ended before (the view rests at H, not at fullY, D5).
    var wasDismissed = false
    var target: DrawerPlace = .dismissed
    /// Model values of the presented view's y, corner radius and handle alpha.
    var model: DrawerChannels
    /// D3 `dismissalIsTerminal`: a dismissal is under way; state changes and touches are ignored.
    var terminal = false
    /// A UIKit dismissal was requested and starts after the current sample or completion chain.
    var dismissalRequested = false
    /// The running `UIViewPropertyAnimator`s (§3.9).
    var animator: AdditiveAnimator<DrawerChannels, DrawerCompletion>
    /// The transitions' infos built last, oldest first (`transitionInfo`): values only, kept so
    /// that a repeated transition shares its event fields.
    var recentTransitions: [DrawerTransitionInfo] = []

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

    // Pull-to-dismiss (§3.14, D11)
    /// `scrollViewForPullToDismiss`, nil without one.
    var scrollView: ScrollViewModel?
    /// `scrollView != nil` (it is set up in `init` and never removed), kept as a flag: the
    /// per-frame reads test it instead of the optional.
    let hasScrollView: Bool
    /// The frames have a `handleAlpha` channel (`drawer.handleAutoAnimatesDimming` is set).
    let recordsHandleAlpha: Bool
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

    /// The system for `trace`, whose header's `drawer` section is `drawer`, at the profile point of
    /// `options` (or the trace's).
    init(_ drawer: DrawerConfiguration, trace: Trace, options: SimulationOptions = SimulationOptions()) {
        self.drawer = drawer
        profile = DrawerKitProfiles.table.values(for: trace.replayProfile(options))
        velocitySource = trace.header.recognizer.velocity
        beginThreshold = trace.header.recognizer.beginThreshold
        environment = trace.header.environment
        timebase = ReplayTimebase(frameRate: environment.frameRate)
        animator = AdditiveAnimator(timebase: timebase)
        geometry = DrawerGeometry(drawer, height: environment.container.height, safeAreaTop: environment.safeArea.top)
        geometry.recognizesCollapsed = profile.collapsedRecognized
        // D5: before the first presentation the presented view fills the screen (y = fullY).
        model = DrawerChannels(y: geometry.fullY, cornerRadius: 0, handleAlpha: 1)
        tracker = VelocityTracker(strategy: velocitySource.strategy)
        scrollView = drawer.scrollView.map { ScrollViewModel($0, position: .bottom) }
        hasScrollView = scrollView != nil
        recordsHandleAlpha = drawer.handleAutoAnimatesDimming != nil
    }

    // The getters below are read by mutating methods; inlined, they read the fields in place
    // (called out of line, each call copied the whole system first).

    /// Model y: the presented view's `frame.origin.y` (pt).
    var modelY: Double {
        @inline(__always) get { model.y }
        @inline(__always) set { model.y = newValue }
    }
    var initialState: DrawerState {
        drawer.initialState ?? (drawer.supportsPartialExpansion ? .partiallyExpanded : .fullyExpanded)
    }
    var autoDims: Bool { drawer.handleAutoAnimatesDimming == true }
    /// Model y clamped to the drawer's range (pt).
    var currentY: Double { @inline(__always) get { geometry.clamp(modelY) } }
    /// The place the clamped model y is at.
    var currentPlace: DrawerPlace { @inline(__always) get { geometry.place(at: currentY) } }

    // MARK: PanelSystem

    mutating func start() {
        warnAboutHeights()
        guard drawer.presented else { return }
        // D12: the presentation finished before t = 0; no records.
        presented = true
        target = .named(initialState)
        modelY = geometry.position(target)
        if geometry.maximumCornerRadius != 0 && geometry.partialY != geometry.fullY {
            model.cornerRadius = geometry.cornerRadius(at: .partiallyExpanded)
        }
        model.handleAlpha = 1
        installRecognizers()
        setTapsEnabled(true)
    }

    /// Warnings (never errors) for visible heights DrawerKit accepts but that are most likely
    /// mistakes: outside [0, H], which DrawerKit clamps (drawerkit.md §3.1,
    /// `GeometryEvaluator.drawerPartialH`/`drawerCollapsedH`), and a collapsed height above the
    /// partial one, which DrawerKit does not check. Judged against the header's container.
    mutating func warnAboutHeights() {
        func text(_ x: Double) -> String {
            x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
        }
        let h = geometry.height
        for (name, value, clamped) in [
            ("heightOfPartiallyExpandedDrawer", drawer.heightOfPartiallyExpandedDrawer, geometry.partialHeight),
            ("heightOfCollapsedDrawer", drawer.heightOfCollapsedDrawer, geometry.collapsedHeight),
        ]
        where value < 0 || value > h {
            warn(
                1,
                "drawer.\(name) \(text(value)) is outside 0…\(text(h)) (the container height): DrawerKit clamps it to \(text(clamped)) (drawerkit.md §3.1)"
            )
        }
        if geometry.collapsedHeight > geometry.partialHeight {
            warn(
                1,
                "drawer.heightOfCollapsedDrawer \(text(geometry.collapsedHeight)) is greater than heightOfPartiallyExpandedDrawer "
                    + "\(text(geometry.partialHeight)): collapsed rests above partiallyExpanded (DrawerKit does not check the order)"
            )
        }
    }

    mutating func process(_ sample: TraceSample) { withUnsafePointer(to: sample) { process(at: $0) } }

    /// Reads the sample in place: a touch's plain fields are taken without copying the whole
    /// sample (an enum with reference-counted payloads) out of the trace.
    @inline(__always)
    mutating func process(at sample: UnsafePointer<TraceSample>) {
        now = sample.pointee.time
        instant = timebase.sample(now)
        if case .touch(let t) = sample.pointee.kind {
            handleTouch(t, line: sample.pointee.line)
        } else {
            switch sample.pointee.kind {
            case .systemCall(let call): if let call = call.exactly(DrawerCall.self) { handleCall(call, line: sample.pointee.line) }
            case .environment(let e): changeEnvironment(e)
            case .touch, .call, .scroll, .observed, .end: break
            }
        }
        startRequestedDismissal()
    }

    @inline(__always)
    mutating func stepFrame(index: Int, time: Microseconds) -> Bool {
        now = time
        instant = timebase.frame(index)
        if !animator.isEmpty {
            var i = 0
            while let done = animator.removeCompleted(at: instant, from: &i) { complete(done.completion) }
            if dismissalRequested { startRequestedDismissal() }
        }
        var scrolling = false
        if hasScrollView && scrollView.unsafelyUnwrapped.isAnimating {
            let pixel = 1 / environment.displayScale
            scrollView!.stepDeceleration(frameTime: time, pixel: pixel, .bottom)
            scrolling = scrollView!.isAnimating
        }
        writeFrame(index: index)
        return !animator.isEmpty || scrolling || (drawerTap?.isPending(at: time) ?? false)
            || (outsideTap?.isPending(at: time) ?? false)
    }

    var isTouchDown: Bool { touch != nil }
}
