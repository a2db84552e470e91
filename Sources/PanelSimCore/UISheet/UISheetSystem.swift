/// UIKit's `UISheetPresentationController` behind the replay seam (uisheet.md §3, options §4):
/// detent geometry, the sheet pan with its rubber bands, the release rule (projection and the
/// fast-flick step), the sheet spring, swipe-to-dismiss with `isModalInPresentation` and the
/// adaptive delegate, programmatic changes, dimming and dimming taps, the scroll-view hand-off
/// (`prefersScrollingExpandsWhenScrolledToEdge`, B28), the keyboard (B27) and the grabber.
///
/// Offsets are container y of the sheet's top edge (pt, y down); velocities pt/s, positive down.
/// Records: the events of §2.3 (`RecordList.appendEvent(.system)`) and frames with `location`,
/// `state`, `dimming`, `backdropAlpha`, `contentOffset` (with a tracked scroll view), `isDragging`,
/// `isAttracting` and `presented`.

/// A running sheet animation (§3.5): the spring toward `target`, started at `start` µs.
struct SheetAnimation: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A settle, programmatic change, keyboard move or presentation: rest at the target.
        case settle
        /// An interactive dismissal (swipe, dimming tap, grabber): `didDismiss` at completion.
        case dismissal
        /// `dismiss(animated: true)`: no records; touches are ignored meanwhile.
        case programmaticDismissal
    }
    let start: Microseconds
    let target: Double
    let spring: DampedSpring
    let kind: Kind
    /// Ease-in-out over `easeDuration` s instead of the spring (U24 option `keyboard`); 0 = spring.
    let easeDuration: Double

    /// Displacement from the target (pt) and velocity (pt/s) at `time` µs.
    func state(at time: Microseconds) -> (displacement: Double, velocity: Double) {
        let tau = Double(max(time - start, 0)) / 1_000_000
        if easeDuration > 0 {
            if tau >= easeDuration { return (0, 0) }
            let p = tau / easeDuration
            // Smoothstep (cubic ease-in-out): s = 3p² − 2p³.
            let s = p * p * (3 - 2 * p), ds = 6 * p * (1 - p) / easeDuration
            return (spring.d0 * (1 - s), -spring.d0 * ds)
        }
        return spring.state(at: tau)
    }
}

struct UISheetSystem: PanelSystem {
    var sheet: SheetConfiguration
    let options: SheetSimulatorOptions
    let velocitySource: VelocitySource
    let beginThreshold: Double
    var environment: PanelEnvironment
    var geometry: SheetGeometry
    var records = RecordList()
    var warnings: [String] = []
    var secondFingers = SecondFingerFilter()
    var now: Microseconds = 0
    var lastFrame: SystemFrame?

    // Presentation and motion
    var presented: Bool
    /// The model offset: the rest (or drag) offset while no animation runs, the target while one does.
    var modelY: Double
    var animation: SheetAnimation?
    /// The latest permission answer (§3.6 item 1); true until first asked in a presentation.
    var dismissible = true

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
    var s0 = 0.0, yBegin = 0.0
    var eligible = false, scrub = false, inScrubBand = false
    /// The content is where this pan left it for the sheet (not displaced beyond the sheet's share).
    var contentAtRest = true
    var lastScrollPanEnd: Microseconds?
    /// The current pan began inside the scroll view (a scroll-view pan, §3.9).
    var panWasScroll = false

    init(trace: Trace) {
        sheet = trace.header.sheet ?? SheetConfiguration()
        options = sheet.simulator
        velocitySource = trace.header.recognizer.velocity
        beginThreshold = trace.header.recognizer.beginThreshold
        environment = trace.header.environment
        geometry = SheetGeometry(sheet.detents, environment: environment, configuration: sheet)
        presented = false
        modelY = environment.container.height
        tracker = VelocityTracker(strategy: velocitySource.strategy)
        if let sv = trace.header.scrollView { scrollView = ScrollViewModel(sv, position: .bottom) }
    }

    // MARK: PanelSystem

    mutating func start() {
        if geometry.wasUnordered { warnings.append("sheet.detents: not listed smallest to largest; sorted by offset (uisheet.md §2.1)") }
        if geometry.detents.isEmpty { warnings.append("sheet.detents: no active detent; the sheet cannot be shown") }
        // §2.4: an identifier that names no active detent is accepted with a warning, in the header
        // as in the calls (§3.2: the smallest detent is shown; §3.8, U18: the undimmed one counts as nil).
        if let id = sheet.selectedDetentIdentifier, geometry.index(of: id) == nil {
            warnings.append("sheet.selectedDetentIdentifier: '\(id)' names no active detent; the smallest detent is shown (uisheet.md §2.4, §3.2)")
        }
        if let id = sheet.largestUndimmedDetentIdentifier, geometry.index(of: id) == nil {
            warnings.append("sheet.largestUndimmedDetentIdentifier: '\(id)' names no active detent; treated as nil (uisheet.md §2.4, U18)")
        }
        // Regular width (an iPad form sheet) only where the phone layouts of §3.11 do not apply: a
        // container wider than 500 pt that is not compact height (a landscape phone, H < 500 pt,
        // has its own layout, U25).
        if environment.container.width > 500 && !geometry.compactHeight {
            warnings.append("regular width is not modelled; the phone layout is used (uisheet.md U25)")
        }
        if geometry.maximumDetentValue <= 0 && !geometry.detents.isEmpty {
            warnings.append("the top margin (y_L = \(geometry.largeTop)) leaves no room above the bottom safe area: maximumDetentValue \(geometry.maximumDetentValue) ≤ 0, every detent rests at y_L (uisheet.md §3.1)")
        }
        guard sheet.presented, !geometry.detents.isEmpty else { return }
        presented = true
        modelY = restOffset
    }

    mutating func reserveRecords(_ n: Int) { records.reserveCapacity(n) }

    mutating func process(_ sample: TraceSample) {
        now = sample.time
        switch sample.kind {
        case let .touch(t): handleTouch(t, line: sample.line)
        case let .systemCall(call): if let call = call as? SheetCall { handleCall(call, line: sample.line) }
        case let .environment(e): changeEnvironment(e)
        case .call, .scroll, .observed, .end: break
        }
    }

    mutating func reachEnd(at time: Microseconds) { now = time }

    mutating func runFrame(index: Int, time: Microseconds) -> Bool {
        now = time
        if let a = animation {
            let (d, v) = a.state(at: time)
            if abs(d) < 0.1 && abs(v) < 5 { complete(a) }
        }
        stepDeceleration(frameTime: time)
        writeFrame(index: index, time: time)
        return animation != nil || (scrollView.map { $0.isDecelerating || $0.returnsToEdge } ?? false)
    }

    var isTouchDown: Bool { route != nil }

    mutating func finish() -> (records: RecordList, warnings: [String]) { (records, warnings) }

    // MARK: Records

    mutating func emit(_ name: String, _ fields: [RecordField] = []) {
        records.appendEvent(time: now, .system(SystemEvent(name: name, fields: fields)))
    }

    func displayed(at time: Microseconds) -> Double {
        guard let a = animation else { return modelY }
        return a.target + a.state(at: time).displacement
    }

    var currentVelocity: Double { animation?.state(at: now).velocity ?? 0 }

    mutating func writeFrame(index: Int, time: Microseconds) {
        let y = presented ? displayed(at: time) : geometry.height
        let dim = presented ? dimming(at: y) : 0
        var channels: [RecordField] = []
        channels.reserveCapacity(8)
        channels.append(RecordField("location", .number(y)))
        channels.append(RecordField("state", sheet.selectedDetentIdentifier.map { .string($0) } ?? .null))
        channels.append(RecordField("dimming", .number(dim)))
        channels.append(RecordField("backdropAlpha", .number(dim * options.dimmingAlpha)))
        if let sv = scrollView { channels.append(RecordField("contentOffset", .number(sv.contentOffset.y))) }
        channels.append(RecordField("isDragging", .bool(sheetDragging)))
        channels.append(RecordField("isAttracting", .bool(animation != nil)))
        channels.append(RecordField("presented", .bool(presented)))
        let frame = SystemFrame(index: index, channels: channels)
        if index == 0 || lastFrame.map({ !$0.sameValues(as: frame) }) ?? true {
            records.appendSystemFrame(frame)
            lastFrame = frame
        }
    }

    mutating func warn(_ line: Int, _ message: String) { warnings.append("line \(line): \(message)") }

    // MARK: Detents, candidates and rest (§3.0, §3.2, §3.10)

    /// The detent shown for the selection: the selected one, else the smallest (§3.2).
    var shownDetent: ResolvedDetent? {
        if let i = geometry.index(of: sheet.selectedDetentIdentifier) { return geometry.detents[i] }
        return geometry.detents.last
    }

    var smallestOffset: Double { geometry.detents.last?.offset ?? geometry.height }

    /// The keyboard overlap k (U23).
    var keyboardOverlap: Double { min(keyboardHeight, geometry.fullHeight) }

    /// A candidate rest offset: an inserted keyboard detent, a detent, or the dismiss point.
    struct Candidate: Equatable {
        enum Kind: Equatable { case keyboard, detent(String), dismiss }
        var offset: Double
        var kind: Kind
    }

    /// Candidates top to bottom (§3.0), without the dismiss point; `keyboardIndex` is the keyboard
    /// position's index while the keyboard is up.
    func restCandidates() -> (list: [Candidate], keyboardIndex: Int?) {
        var list: [Candidate] = []
        let shown = shownDetent?.identifier
        var lifted = false
        if keyboardUp && sheet.keyboardPolicy == .uikit, let p0 = geometry.detents.first?.offset, p0 > geometry.largeTop {
            list.append(Candidate(offset: geometry.round(max(geometry.largeTop, p0 - keyboardOverlap)), kind: .keyboard))
        }
        for d in geometry.detents {
            var offset = d.offset
            if keyboardUp && sheet.keyboardPolicy == .liftSelected && d.identifier == shown {
                offset = geometry.round(max(geometry.largeTop, geometry.height - keyboardOverlap - d.value))
                lifted = true
            }
            list.append(Candidate(offset: offset, kind: .detent(d.identifier)))
        }
        // Stable sort by offset (the lift may reorder).
        if lifted {
            list = list.enumerated().sorted { $0.element.offset != $1.element.offset ? $0.element.offset < $1.element.offset : $0.offset < $1.offset }.map(\.element)
        }
        guard keyboardUp else { return (list, nil) }
        if sheet.keyboardPolicy == .liftSelected {
            return (list, list.firstIndex { $0.kind == .detent(shown ?? "") })
        }
        return (list, 0)
    }

    /// Where the sheet rests now: the keyboard position while the keyboard is up, else the shown
    /// detent's offset (SH1).
    var restOffset: Double {
        let (list, k) = restCandidates()
        if let k, k < list.count { return list[k].offset }
        return shownDetent?.offset ?? geometry.height
    }

    var topCandidate: Double { restCandidates().list.first?.offset ?? geometry.largeTop }

    /// The lower bound B of the drag (§3.3 item 5).
    var lowerBound: Double { dismissible && !sheet.isModalInPresentation ? geometry.height : smallestOffset }

    func display(_ u: Double) -> Double {
        let p0 = topCandidate, b = lowerBound
        if u < p0 { return p0 - SheetGeometry.band(p0 - u, geometry.extentUp(above: p0)) }
        if u > b { return b + SheetGeometry.band(u - b, geometry.extentDown) }
        return u
    }

    func undisplay(_ y: Double) -> Double {
        let p0 = topCandidate, b = lowerBound
        if y < p0 { return p0 - SheetGeometry.unband(p0 - y, geometry.extentUp(above: p0)) }
        if y > b { return b + SheetGeometry.unband(y - b, geometry.extentDown) }
        return y
    }

    /// The dimming fraction at displayed offset y (§3.8 items 1–2, U18).
    func dimming(at y: Double) -> Double {
        let d = geometry.detents
        guard !d.isEmpty else { return 0 }
        let yDim: Double, yNext: Double
        if let iU = geometry.index(of: sheet.largestUndimmedDetentIdentifier) {
            if iU == 0 { return 0 }
            yDim = d[iU - 1].offset; yNext = d[iU].offset
        } else {
            yDim = d[d.count - 1].offset; yNext = geometry.height
        }
        if yDim == yNext { return y <= yDim ? 1 : 0 }
        return min(max((y - yNext) / (yDim - yNext), 0), 1)
    }

    // MARK: Animation (§3.5)

    mutating func animate(to target: Double, velocity: Double, dampingRatio: Double? = nil,
                          kind: SheetAnimation.Kind = .settle, ease: Double = 0) {
        let y = displayed(at: now)
        let spring = DampedSpring(displacement: y - target, velocity: velocity, response: options.springResponse,
                                  dampingRatio: dampingRatio ?? options.dampingRatio)
        animation = SheetAnimation(start: now, target: target, spring: spring, kind: kind, easeDuration: ease)
        modelY = target
    }

    /// Moves to `target` without animation.
    mutating func jump(to target: Double) {
        animation = nil
        modelY = target
    }

    /// Stops the running animation where it is displayed (U26).
    mutating func stopAnimation() {
        guard animation != nil else { return }
        modelY = displayed(at: now)
        animation = nil
    }

    mutating func complete(_ a: SheetAnimation) {
        animation = nil
        modelY = a.target
        switch a.kind {
        case .settle: break
        case .dismissal:
            endPresentation()
            emit("didDismiss")
        case .programmaticDismissal:
            endPresentation()
        }
    }

    mutating func endPresentation() {
        presented = false
        modelY = geometry.height
        keyboardUp = false
        if route != nil { route = .ignored }
        sheetDragging = false
    }

    var programmaticDismissalRunning: Bool { animation?.kind == .programmaticDismissal }

    // MARK: Permission (§3.6 item 1, U13)

    /// Asks whether the sheet may be dismissed; writes `shouldDismiss` when the delegate implements
    /// it. Modal: refused without asking.
    mutating func askPermission() -> Bool {
        let allowed: Bool
        if sheet.isModalInPresentation {
            allowed = false
        } else {
            switch sheet.shouldDismiss {
            case .default: allowed = true
            case .always: allowed = true; emit("shouldDismiss", [RecordField("result", .bool(true))])
            case .never: allowed = false; emit("shouldDismiss", [RecordField("result", .bool(false))])
            }
        }
        dismissible = allowed
        return allowed
    }

    /// A user-driven selection (§3.2): a record when the shown detent changes.
    mutating func userSelect(_ identifier: String) {
        guard identifier != shownDetent?.identifier else { return }
        sheet.selectedDetentIdentifier = identifier
        emit("didChangeSelectedDetentIdentifier", [RecordField("identifier", .string(identifier))])
    }

    /// An accepted dimming tap (§3.8 item 5) or a grabber tap on a single detent (§3.11).
    mutating func acceptedDismissTap(selectUndimmed: Bool) {
        let v0 = currentVelocity
        if askPermission() {
            emit("willDismiss")
            animate(to: geometry.height, velocity: v0, kind: .dismissal)
        } else if selectUndimmed, let i = geometry.index(of: sheet.largestUndimmedDetentIdentifier) {
            userSelect(geometry.detents[i].identifier)
            animate(to: restOffset, velocity: v0)
        }
    }

    // MARK: Touches (§3.3, §3.8, §3.9)

    mutating func handleTouch(_ t: TouchSample, line: Int) {
        guard secondFingers.admits(t, line: line, warnings: &warnings) else { return }
        let p = t.location
        switch t.phase {
        case .began:
            tracker.reset()
            tracker.addMovement(timeNanos: now * 1000, position: p)
            filteredVelocity = 0; lastMoveTime = now; lastMoveY = p.y
            touchDown = p; touchDownTime = now
            panBegan = false; sheetDragging = false
            guard presented, !programmaticDismissalRunning, !geometry.detents.isEmpty else { route = .ignored; return }
            let y = displayed(at: now)
            if p.y >= y {
                route = .sheet
                inScrubBand = false
                if let sv = scrollView {
                    let local = Point(x: p.x, y: p.y - y)
                    if sv.frame.contains(local) && sv.isScrollableContent(.bottom) {
                        route = .scroll
                        inScrubBand = local.x >= sv.frame.origin.x + sv.frame.size.width - 16
                    }
                    // iOS's tap-to-stop (O7).
                    if sv.frame.contains(local), sv.isDecelerating || sv.returnsToEdge {
                        scrollView?.isDecelerating = false; scrollView?.returnsToEdge = false
                        scrollView?.decelerationVelocity = 0
                    }
                }
            } else {
                route = dimming(at: y) > 0 ? .dimming : .passThrough
            }
        case .moved:
            tracker.addMovement(timeNanos: now * 1000, position: p)
            if now > lastMoveTime {
                let vs = (p.y - lastMoveY) / (Double(now - lastMoveTime) / 1_000_000)
                filteredVelocity = 0.2 * vs + 0.8 * filteredVelocity
            }
            lastMoveTime = now; lastMoveY = p.y
            guard let r = route, r == .sheet || r == .scroll else { return }
            if !panBegan {
                if PanRecognition.crossesBeginThreshold(p - touchDown, threshold: beginThreshold) { beginPan(at: p) }
                return
            }
            panChanged(to: p)
        case .stationary:
            return
        case .ended, .cancelled:
            guard let r = route else { return }
            route = nil
            switch r {
            case .dimming:
                guard t.phase == .ended, presented else { return }
                let dx = p.x - touchDown.x, dy = p.y - touchDown.y
                if (dx * dx + dy * dy).squareRoot() <= 10, displayed(at: now) > geometry.largeTop {
                    acceptedDismissTap(selectUndimmed: true)
                }
            case .sheet, .scroll:
                guard panBegan, presented else { sheetDragging = false; return }
                if t.phase == .ended { panChanged(to: p) }
                var v = 0.0
                if t.phase == .ended {
                    v = options.uikitSheetVelocity ? filteredVelocity
                        : PanRecognition.liftVelocity(t, time: now, source: velocitySource, tracker: tracker).y
                }
                panEnded(velocity: v)
            case .ignored, .passThrough: return
            }
        }
    }

    mutating func beginPan(at p: Point) {
        panBegan = true
        yBegin = p.y
        panWasScroll = route == .scroll
        scrub = false
        if route == .scroll, let sv = scrollView {
            s0 = sv.contentOffset.y
            let top = sv.range(.bottom).min
            scrub = inScrubBand && now - touchDownTime >= 500_000
            var ok = geometry.round(s0) <= top && !scrub
            if ok, let last = lastScrollPanEnd, touchDownTime - last < 400_000 {
                ok = animation != nil || !askPermission()
            }
            eligible = ok
            contentAtRest = true
            u0 = displayed(at: now)
            scrollView?.rawOffset = s0
            return
        }
        startSheetDrag()
    }

    /// The sheet drag begins (§3.3 item 3): catch the animation, u₀ from the inverse band.
    mutating func startSheetDrag() {
        let y = displayed(at: now)
        let caughtDismissal = animation?.kind == .dismissal
        animation = nil
        modelY = y
        dismissing = caughtDismissal
        refused = false
        if caughtDismissal { dismissible = true }
        u0 = undisplay(y)
        u = u0
        sheetDragging = true
        checkCrossing()
    }

    /// §3.6 item 2: the permission is asked when u passes below the smallest detent.
    mutating func checkCrossing() {
        if u > smallestOffset {
            if !dismissing && !refused {
                if askPermission() {
                    emit("willDismiss")
                    dismissing = true
                } else {
                    refused = true
                }
            }
        } else {
            dismissing = false
            refused = false
        }
    }

    /// A change of the pan (a `moved` sample, and the `ended` sample's lift point before the
    /// release). Which path runs is the pan's own (`panWasScroll`, fixed when it began), not
    /// `route`, which the `ended` sample has already cleared.
    mutating func panChanged(to p: Point) {
        let ty = p.y - touchDown.y
        if !panWasScroll {
            u = u0 + ty
            checkCrossing()
            modelY = display(u)
            return
        }
        guard var sv = scrollView else { return }
        let (top, maxOffset) = sv.range(.bottom)
        if scrub {
            let c = sv.contentSize.height + sv.contentInset.top + sv.contentInset.bottom
            sv.setMainOffset(min(max(s0 + (p.y - yBegin) * c / sv.frame.size.height, top), maxOffset), .bottom)
            scrollView = sv
            return
        }
        if !eligible {
            // O6: the content alone, against the finger, translation from touch-down.
            sv.rawOffset = s0
            sv.pan(by: ty, .bottom)
            scrollView = sv
            return
        }
        var sheetPart = 0.0
        if ty <= 0 {
            if sheet.prefersScrollingExpandsWhenScrolledToEdge {
                sheetPart = max(ty, min(topCandidate - u0, 0))
            }
            // The remainder scrolls the content through the shared O6 path (U29): past the bottom
            // edge it rubber-bands (d = frame height) like a content-only pan.
            let remainder = ty - sheetPart
            if remainder == 0 {
                sv.setMainOffset(s0, .bottom)
            } else {
                sv.rawOffset = s0
                sv.pan(by: remainder, .bottom)
            }
            contentAtRest = remainder == 0
        } else {
            let excess = ty - (s0 - top)
            let content: Double
            if excess > 0 { sheetPart = excess; content = top } else { content = s0 - ty }
            sv.setMainOffset(content, .bottom)
            contentAtRest = content == top && sheetPart > 0
        }
        scrollView = sv
        if sheetPart != 0 && !sheetDragging {
            let start = u0
            startSheetDrag()
            u0 = start
        }
        if sheetDragging {
            u = u0 + sheetPart
            checkCrossing()
            modelY = display(u)
        }
    }

    /// The pan ended (§3.9 item 3 for a scroll-view pan: the velocity goes to the sheet only when
    /// the sheet took the last movement; otherwise the content decelerates with it).
    mutating func panEnded(velocity v: Double) {
        var v = v
        if panWasScroll {
            lastScrollPanEnd = now
            if scrub { return }
            if !sheetDragging { contentRelease(velocity: v); return }
            if !contentAtRest { contentRelease(velocity: v); v = 0 }
        }
        release(velocity: v)
    }

    // MARK: Release (§3.4, §3.6 item 3–4)

    mutating func release(velocity v: Double) {
        sheetDragging = false
        let y = display(u)
        let canDismiss = dismissible && !sheet.isModalInPresentation
        let rest = restCandidates()
        var candidates = rest.list
        if canDismiss { candidates.append(Candidate(offset: geometry.height, kind: .dismiss)) }
        let ve = (options.minimumSpeed == 0 || abs(v) >= options.minimumSpeed) ? v : 0
        let r = options.projectionRate
        let p = u + ve * r / (1 - r) / 1000
        func nearest(_ x: Double) -> Int {
            var best = 0
            for i in candidates.indices where abs(candidates[i].offset - x) < abs(candidates[best].offset - x) { best = i }
            return best
        }
        let iC = nearest(u), iP = nearest(p)
        var i = iP
        if options.fastFlickThreshold > 0 && abs(v) >= options.fastFlickThreshold && iC == iP
            && (u < candidates[iC].offset) == (v < 0) {
            i = v < 0 ? max(iC - 1, 0) : min(iC + 1, candidates.count - 1)
        }
        let zeta = abs(v) >= 1000 ? options.fastDampingRatio : options.dampingRatio
        var target = candidates[i]
        var targetIndex: Int? = i
        if target.kind == .dismiss {
            if !dismissing {
                if askPermission() {
                    emit("willDismiss")
                    dismissing = true
                } else {
                    // U15: the smallest detent, without didAttemptToDismiss.
                    targetIndex = candidates.lastIndex { if case .detent = $0.kind { return true } else { return false } }
                    target = candidates[targetIndex ?? 0]
                }
            }
            if dismissing {
                dismissing = false
                animate(to: geometry.height, velocity: v, dampingRatio: zeta, kind: .dismissal)
                return
            }
        }
        dismissing = false
        if keyboardUp, let k = rest.keyboardIndex, targetIndex != k {
            emit("endEditing")
            keyboardUp = false
            keyboardIgnored = true
            if case .detent(let id) = target.kind, let d = geometry.index(of: id) { target.offset = geometry.detents[d].offset }
        }
        if case .detent(let id) = target.kind { userSelect(id) }
        if refused && y - smallestOffset > 0.25 * geometry.extentDown { emit("didAttemptToDismiss") }
        refused = false
        modelY = y
        animate(to: target.offset, velocity: v, dampingRatio: zeta)
    }

    // MARK: Scroll view physics (U29: floatingpanel-core.md §9 O6/O7)

    /// The content's pan ended: the shared scroll-view model decelerates or returns to the edge (O7).
    mutating func contentRelease(velocity: Double) {
        guard scrollView != nil else { return }
        scrollView!.endPan(velocity: velocity, at: now, frameRate: environment.frameRate, .bottom)
    }

    mutating func stepDeceleration(frameTime: Microseconds) {
        guard scrollView != nil else { return }
        scrollView!.stepDeceleration(frameTime: frameTime, pixel: 1 / environment.displayScale, .bottom)
    }

    // MARK: Calls (§2.2, §3.7, §3.8, §3.11)

    mutating func handleCall(_ call: SheetCall, line: Int) {
        if case .present = call {} else if !presented {
            return warn(line, "call ignored: no sheet is presented")
        }
        switch call {
        case let .present(animated):
            guard !presented else { return warn(line, "present ignored: the sheet is already presented") }
            guard !geometry.detents.isEmpty else { return warn(line, "present ignored: no active detent") }
            presented = true
            dismissible = true
            if animated {
                modelY = geometry.height
                animation = nil
                animate(to: restOffset, velocity: 0, dampingRatio: 1)
            } else {
                jump(to: restOffset)
            }
        case let .dismiss(animated):
            if animated {
                animate(to: geometry.height, velocity: currentVelocity, dampingRatio: 1, kind: .programmaticDismissal)
                if route != nil { route = .ignored; sheetDragging = false }
            } else {
                animation = nil
                endPresentation()
            }
        case let .selectDetent(id, animateChanges):
            if let id, geometry.index(of: id) == nil { warn(line, "selectDetent: '\(id)' names no active detent; the smallest detent is shown") }
            sheet.selectedDetentIdentifier = id
            applyLayoutChange(animated: animateChanges)
        case let .setDetents(list, animateChanges):
            sheet.detents = list
            geometry = SheetGeometry(list, environment: environment, configuration: sheet)
            // §2.4 is silent on a list with no active detent while presented: the sheet stays
            // presented, off screen at H, without records, and ignores touches until a detent is
            // active again (docs/uisheet.md).
            if geometry.detents.isEmpty { warn(line, "setDetents: no active detent; the sheet stays presented off screen at H (no records, touches ignored) until a detent is active again") }
            applyLayoutChange(animated: animateChanges)
        case let .setLargestUndimmedDetent(id, _):
            if let id, geometry.index(of: id) == nil { warn(line, "setLargestUndimmedDetent: '\(id)' names no active detent; treated as nil") }
            sheet.largestUndimmedDetentIdentifier = id
        case let .setModalInPresentation(value):
            sheet.isModalInPresentation = value
        case let .setPrefersScrollingExpands(value):
            sheet.prefersScrollingExpandsWhenScrolledToEdge = value
        case .tapDimming:
            let y = displayed(at: now)
            guard !sheetDragging, dimming(at: y) > 0, y > geometry.largeTop else {
                return warn(line, "tapDimming not accepted (dimming 0, a drag, or the sheet at its top margin; uisheet.md §3.8)")
            }
            acceptedDismissTap(selectUndimmed: true)
        case .tapGrabber:
            guard sheet.prefersGrabberVisible else { return warn(line, "tapGrabber ignored: prefersGrabberVisible is false") }
            guard !sheetDragging else { return warn(line, "tapGrabber ignored during a drag") }
            if keyboardUp {
                emit("endEditing")
                keyboardUp = false
                keyboardIgnored = true
                animate(to: restOffset, velocity: currentVelocity)
                return
            }
            let d = geometry.detents
            if d.count == 1 { return acceptedDismissTap(selectUndimmed: false) }
            let i = geometry.index(of: shownDetent?.identifier) ?? (d.count - 1)
            userSelect(d[i > 0 ? i - 1 : d.count - 1].identifier)
            animate(to: restOffset, velocity: currentVelocity)
        case let .setContentOffset(_, y, _):
            guard let y else { return }
            guard scrollView != nil else { return warn(line, "setContentOffset ignored: no tracked scroll view") }
            scrollView?.setMainOffset(y, .bottom)
        case let .setContentSize(width, height):
            guard scrollView != nil else { return warn(line, "setContentSize ignored: no tracked scroll view") }
            if let width { scrollView?.contentSize.width = width }
            if let height { scrollView?.contentSize.height = height }
        case let .track(c):
            scrollView = ScrollViewModel(c, position: .bottom)
        case .untrack:
            scrollView = nil
        }
    }

    /// A selection or detent change by the app: animated inside `animateChanges`, else at once;
    /// during a drag only the selection changes (U27).
    mutating func applyLayoutChange(animated: Bool) {
        guard !sheetDragging, presented, !programmaticDismissalRunning else { return }
        if animated { animate(to: restOffset, velocity: currentVelocity) } else { jump(to: restOffset) }
    }

    // MARK: Environment and keyboard (§2.2, §3.10, U25)

    mutating func changeEnvironment(_ e: PanelEnvironment) {
        let old = environment
        environment = e
        if e.container != old.container || e.safeArea != old.safeArea {
            geometry = SheetGeometry(sheet.detents, environment: e, configuration: sheet)
            if presented && !sheetDragging { jump(to: restOffset) }
        }
        if e.keyboard != old.keyboard, let k = e.keyboard { keyboardChanged(k) }
    }

    mutating func keyboardChanged(_ k: KeyboardFrame) {
        guard sheet.keyboardPolicy != .ignore else { return }
        let h = k.firstResponderInSheet ? k.height : 0
        let ease = options.keyboardAnimation == .keyboard ? max(k.duration, 0) : 0
        if h <= 0 {
            keyboardIgnored = false
            keyboardHeight = 0
            if keyboardUp {
                keyboardUp = false
                if presented && !sheetDragging && !programmaticDismissalRunning {
                    animate(to: restOffset, velocity: currentVelocity, dampingRatio: 1, ease: ease)
                }
            }
            return
        }
        guard !keyboardIgnored, presented else { return }
        keyboardHeight = h
        keyboardUp = true
        if !sheetDragging && !programmaticDismissalRunning {
            animate(to: restOffset, velocity: currentVelocity, dampingRatio: 1, ease: ease)
        }
    }
}
