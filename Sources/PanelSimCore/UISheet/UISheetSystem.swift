/// UIKit's `UISheetPresentationController` behind the replay seam (uisheet.md §3, options §4):
/// detent geometry, the sheet pan with its rubber bands, the release rule (projection and the
/// fast-flick step), the sheet spring, swipe-to-dismiss with `isModalInPresentation` and the
/// adaptive delegate, programmatic changes, dimming and dimming taps, the scroll-view hand-off
/// (`prefersScrollingExpandsWhenScrolledToEdge`, B28), the keyboard (B27) and the grabber.
///
/// Offsets are container y of the sheet's top edge (pt, y down); velocities pt/s, positive down.
/// Records: the events of §2.3 (`SystemRecorder.emit`) and frames with `location`,
/// `state`, `dimming`, `backdropAlpha`, `contentOffset` (with a tracked scroll view), `isDragging`,
/// `isAttracting` and `presented`.
///
/// The system's parts: this file (state, the replay seam), `UISheetFrame.swift` (frame records),
/// `UISheetDetents.swift` (detents, rest offsets, rubber bands, dimming), `UISheetDimmingFade.swift`
/// (dimming changes inside `animateChanges`), `UISheetAnimation.swift`
/// (the sheet spring, dismissal permission, selection), `UISheetGestures.swift` (touches, the pan,
/// the release, the scroll-view hand-off) and `UISheetCalls.swift` (calls, environment, keyboard).

struct UISheetSystem: RecordingPanelSystem {
    var sheet: SheetConfiguration {
        didSet {
            frameStateName = nil
            // Of the sheet's settings the band depends on the largest undimmed detent only (the
            // detents reach it through `geometry`): a selection leaves it as it is.
            if sheet.largestUndimmedDetentIdentifier != dimmingBandUndimmed { updateDimmingBand() }
        }
    }
    let options: SheetSimulatorOptions
    let velocitySource: VelocitySource
    let beginThreshold: Double
    var environment: PanelEnvironment
    var geometry: SheetGeometry {
        didSet { updateDimmingBand() }
    }
    /// Where the dimming ramps (`dimming(at:)`), kept with `sheet` and `geometry`
    /// (`updateDimmingBand()`), and the largest undimmed detent's identifier it was built for.
    private(set) var dimmingBand: DimmingBand
    private var dimmingBandUndimmed: String?
    /// The name-table index of `sheet.selectedDetentIdentifier` for the frames' `state` channel;
    /// nil until a frame looks it up after the selection changed.
    var frameStateName: UInt32?
    var recorder = SystemRecorder<UISheetFrame>()
    var secondFingers = SecondFingerFilter()
    /// Time of the sample or frame being processed (µs).
    var now: Microseconds = 0
    /// `now` held exactly (frame k at k / frameRate s): the sheet spring's clock (DESIGN.md).
    var instant = ReplayInstant(ticks: 0)
    let timebase: ReplayTimebase

    // Presentation and motion
    var presented: Bool
    /// The model offset: the rest (or drag) offset while no animation runs, the target while one does.
    var modelY: Double
    var animation: SheetAnimation? { didSet { springFrames = 0..<0 } }
    /// The running spring's displacement (pt) and velocity (pt/s) at the four frames
    /// `springFrames`, evaluated together (`stepFrame`, `SheetSteadyRun`); the range is empty once
    /// `animation` changes.
    var springStates = (displacement: DeterministicMath.Lanes(), velocity: DeterministicMath.Lanes())
    var springFrames = 0..<0
    /// The latest permission answer (§3.6 item 1); true until first asked in a presentation.
    var dismissible = true
    /// A dimming change inside `animateChanges` fading in while the sheet is still (§3.8 item 6);
    /// any sheet motion ends it.
    var fade: DimmingFade?

    // Keyboard (§3.10)
    var keyboardHeight = 0.0
    var keyboardUp = false
    /// Editing ended by a release elsewhere: heights > 0 are ignored until one with 0 arrives.
    var keyboardIgnored = false

    // Touch (§3.3, §3.8, §3.9)
    enum Route: Equatable { case ignored, sheet, scroll, dimming, passThrough }
    var route: Route?
    var touchDown = Point.zero
    var touchDownTime: Microseconds = 0
    var panBegan = false
    var sheetDragging = false
    var u0 = 0.0, u = 0.0
    var dismissing = false, refused = false
    var tracker: VelocityTracker
    var filteredVelocity = 0.0
    var lastMoveTime: Microseconds = 0, lastMoveY = 0.0

    // Scroll view (§3.9)
    var scrollView: ScrollViewModel?
    /// `scrollView != nil`, kept as a flag (`track` and `untrack` update it): the per-frame reads
    /// test it instead of the optional.
    var hasScrollView = false
    var s0 = 0.0, yBegin = 0.0
    var eligible = false, scrub = false, inScrubBand = false
    /// The content is where this pan left it for the sheet (not displaced beyond the sheet's share).
    var contentAtRest = true
    var lastScrollPanEnd: Microseconds?
    /// The current pan began inside the scroll view (a scroll-view pan, §3.9).
    var panWasScroll = false

    /// The system for `trace`, whose header's `sheet` section is `sheet`.
    init(_ sheet: SheetConfiguration, trace: Trace) {
        self.sheet = sheet
        options = sheet.simulator
        velocitySource = trace.header.recognizer.velocity
        beginThreshold = trace.header.recognizer.beginThreshold
        environment = trace.header.environment
        timebase = ReplayTimebase(frameRate: environment.frameRate)
        geometry = SheetGeometry(sheet.detents, environment: environment, configuration: sheet)
        dimmingBandUndimmed = sheet.largestUndimmedDetentIdentifier
        dimmingBand = DimmingBand(geometry, largestUndimmed: dimmingBandUndimmed)
        presented = false
        modelY = environment.container.height
        tracker = VelocityTracker(strategy: velocitySource.strategy)
        if let sv = trace.header.scrollView { scrollView = ScrollViewModel(sv, position: .bottom) }
        hasScrollView = scrollView != nil
    }

    /// Rebuilds `dimmingBand` from `geometry` and the sheet's largest undimmed detent.
    mutating func updateDimmingBand() {
        dimmingBandUndimmed = sheet.largestUndimmedDetentIdentifier
        dimmingBand = DimmingBand(geometry, largestUndimmed: dimmingBandUndimmed)
    }

    // MARK: PanelSystem

    mutating func start() {
        if geometry.wasUnordered {
            recorder.warnings.append(
                "sheet.detents: not listed smallest to largest; sorted by offset (uisheet.md §2.1)")
        }
        if geometry.detents.isEmpty {
            recorder.warnings.append("sheet.detents: no active detent; the sheet cannot be shown")
        }
        // §2.4: an identifier that names no active detent is accepted with a warning, in the header
        // as in the calls (§3.2: the smallest detent is shown; §3.8, U18: the undimmed one counts as nil).
        if let id = sheet.selectedDetentIdentifier, geometry.index(of: id) == nil {
            recorder.warnings.append(
                "sheet.selectedDetentIdentifier: '\(id)' names no active detent; the smallest detent is shown (uisheet.md §2.4, §3.2)"
            )
        }
        if let id = sheet.largestUndimmedDetentIdentifier, geometry.index(of: id) == nil {
            recorder.warnings.append(
                "sheet.largestUndimmedDetentIdentifier: '\(id)' names no active detent; treated as nil (uisheet.md §2.4, U18)"
            )
        }
        // Regular width (an iPad form sheet) only where the phone layouts of §3.11 do not apply: a
        // container wider than 500 pt that is not compact height (a landscape phone, H < 500 pt,
        // has its own layout, U25).
        if environment.container.width > 500 && !geometry.compactHeight {
            recorder.warnings.append("regular width is not modelled; the phone layout is used (uisheet.md U25)")
        }
        if geometry.maximumDetentValue <= 0 && !geometry.detents.isEmpty {
            recorder.warnings.append(
                "the top margin (y_L = \(geometry.largeTop)) leaves no room above the bottom safe area: maximumDetentValue \(geometry.maximumDetentValue) ≤ 0, every detent rests at y_L (uisheet.md §3.1)"
            )
        }
        guard sheet.presented, !geometry.detents.isEmpty else { return }
        presented = true
        modelY = restOffset
    }

    mutating func process(_ sample: TraceSample) { withUnsafePointer(to: sample) { process(at: $0) } }

    /// Reads the sample in place: a touch's plain fields are taken without copying the whole
    /// sample (an enum with reference-counted payloads) out of the trace.
    @inline(__always)
    mutating func process(at sample: UnsafePointer<TraceSample>) {
        now = sample.pointee.time
        instant = timebase.sample(now)
        if case .touch(let t) = sample.pointee.kind { return handleTouch(t, line: sample.pointee.line) }
        switch sample.pointee.kind {
        case .systemCall(let call): if let call = call.exactly(SheetCall.self) { handleCall(call, line: sample.pointee.line) }
        case .environment(let e): changeEnvironment(e)
        case .touch, .call, .scroll, .observed, .end: break
        }
    }

    @inline(__always)
    mutating func stepFrame(index: Int, time: Microseconds) -> Bool {
        now = time
        instant = timebase.frame(index)
        // The spring's state places the frame and decides its completion. It is evaluated for
        // four frames at once (`SheetAnimation.states(fromFrame:_:)`, the bits of one evaluation
        // per frame), which the next three frames take while the animation is the same one.
        var shown = modelY
        if animation != nil {
            if !springFrames.contains(index) {
                // Read in place (no copy of the animation per frame).
                springStates = animation.unsafelyUnwrapped.states(fromFrame: index, timebase)
                springFrames = index..<(index &+ 4)
            }
            let lane = index &- springFrames.lowerBound
            let d = springStates.displacement[lane]
            let v = springStates.velocity[lane]
            if SheetAnimation.isAtRest(displacement: d, velocity: v) {
                complete(animation.unsafelyUnwrapped)
                shown = displayed(at: instant)
            } else {
                shown = animation.unsafelyUnwrapped.target + d
            }
        }
        stepDeceleration(frameTime: time)
        writeFrame(index: index, displayed: shown)
        return animation != nil || fade != nil
            || (hasScrollView
                && (scrollView.unsafelyUnwrapped.isDecelerating || scrollView.unsafelyUnwrapped.returnsToEdge))
    }

    var isTouchDown: Bool { route != nil }
}
