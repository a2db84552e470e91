/// LNPopup's gestures (lnpopup.md §3.5, §3.6, §3.10, L2, L5–L8, L16): finger 0's touch, the bar
/// tap and the close button, the interaction and scroll-view pans, and the pan handler.

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

extension LNPopupSystem {
    // MARK: Taps and the close button (§3.10, L6, L7)

    /// The bar can be tapped: it exists with a model height > 0 and the popup is not open (with
    /// LN-S8 `snapOnly` an open popup's bar keeps its height above the screen), no animated close
    /// or dismissal locks the window, and (for a tap that begins now) no opening runs.
    func barTouchable(duringOpening: Bool) -> Bool {
        barExists && model.barHeight > 0 && internalState != .open && targetState != .barHidden && !windowLocked
            && (duringOpening || !opening)
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
        guard secondFingers.admits(t, line: line, warnings: &recorder.warnings) else { return }
        let p = t.location
        switch t.phase {
        case .began:
            tracker.reset()
            tracker.addMovement(timeNanos: now * 1000, position: p)
            touchBegan(at: p)
        case .moved:
            tracker.addMovement(timeNanos: now * 1000, position: p)
            touchMoved(
                to: p, velocity: PanRecognition.recordedVelocity(t, source: velocitySource) ?? tracker.currentVelocity()
            )
        case .stationary:
            return
        case .ended, .cancelled:
            guard let current = touch else { return }
            // The touch is over: what its end starts (a release's open or close, a tap's open)
            // does not overrun it (`animationStarted`).
            touch = nil
            let v = PanRecognition.liftVelocity(t, time: now, source: velocitySource, tracker: tracker)
            if current.began {
                for rec in current.pans {
                    if rec == .scrollView {
                        scrollView?.endPan(velocity: v.y, at: now, frameRate: environment.frameRate, .bottom)
                    }
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
        }
        runDeferredCalls()
    }

    /// An animator started while finger 0 is down (a call made while the finger rests, L13, a
    /// queued request that starts at a completion, the snap timer, or LNPopup's own close at the
    /// snap threshold): the touch is ignored from then on, as one that begins during an animation
    /// is (L7): its pans are cancelled (a list pan ends with zero velocity, as LNPopup's cancel of
    /// it does, L8) and it is no tap. LNPopup's handler itself would start a drag against the
    /// transitioning state (as in Q18); the model keeps §3.8's "drags cannot start during
    /// animations" and P5 (docs/lnpopup.md).
    mutating func animationStarted() {
        guard var t = touch, !t.pans.isEmpty || t.tap != nil else { return }
        if t.began, t.pans.contains(.scrollView) {
            scrollView?.endPan(velocity: 0, at: now, frameRate: environment.frameRate, .bottom)
        }
        t.pans = []
        t.tap = nil
        tapRecognizer.fail()
        touch = t
    }

    /// L13: the popup's own pan is in progress: this touch's interaction recognizer began and was
    /// neither cancelled nor ended, or LNPopup's drag runs (also one that the content's scroll-view
    /// pan drives, whose release is processed the same way). A call made meanwhile waits until the
    /// pan ends; a finger that merely rests (no pan began) defers nothing.
    var popupPanInProgress: Bool {
        guard let t = touch, t.began else { return false }
        return drag != nil || t.pans.contains(.interaction)
    }

    /// Runs the calls deferred by L13 once the pan is no longer in progress (it ended, or LNPopup
    /// cancelled it), in their order, after this sample's own processing.
    mutating func runDeferredCalls() {
        guard !deferredCalls.isEmpty, !popupPanInProgress else { return }
        let calls = deferredCalls
        deferredCalls = []
        for (call, line) in calls { handleCall(call, line: line) }
    }

    mutating func touchBegan(at p: Point) {
        var new = PopupTouch(down: p, last: p)
        defer { touch = new }
        tapRecognizer.reset()
        if windowLocked { return }  // L7: ignored for the whole sequence
        // Without LN-S4's flag a re-open (public state open) leaves the content's pans reachable.
        let reopenTakesPans = !profile.gesturesIgnored && opening && publicState == .open
        if opening && !reopenTakesPans {
            if inCloseButton(p) { new.tap = .closeButton }
        } else if presentingBar {
            if onBar(p) { new.tap = .bar }
        } else if internalState == .barPresented, onBar(p) {
            new.tap = .bar
            new.pans = [.interaction]
        } else if internalState == .open || reopenTakesPans {
            if inCloseButton(p) { new.tap = .closeButton }
            let local = Point(x: p.x, y: p.y - model.location)
            if var sv = scrollView, sv.frame.contains(local), scrollPanCanBegin(sv) {
                new.pans =
                    hasVerticalContent(sv) || hasHorizontalContent(sv) ? [.scrollView] : [.scrollView, .interaction]
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
                hasVerticalContent(sv), hasHorizontalContent(sv)
            {
                current.lock = abs(d.y) >= abs(d.x) ? .vertical : .horizontal
            }
            current.last = p
            touch = current
            for rec in current.pans {
                if rec == .interaction {
                    if internalState == .open, let limit = popup.interactionLimitRect,
                        !limit.contains(Point(x: p.x, y: p.y - model.location))
                    {
                        cancel(.interaction)
                        continue
                    }
                    if resolvedStyle == .none {
                        cancel(.interaction)
                        continue
                    }
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
        guard !dismissalOverride, !ignoringGestures else { return }
        let style = resolvedStyle
        if style == .none || (style == .scroll && rec != .scrollView) { return }
        // LN-S3: before 4.3.0 the closed bar's pan did not test for a vertical velocity.
        let vertical = !profile.verticalOnlyBarPan || abs(v.y) > abs(v.x)
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
        guard !dismissalOverride, !ignoringGestures else { return }
        let style = resolvedStyle
        if style == .none || (style == .scroll && rec != .scrollView) { return }
        if tr.x == 0 && tr.y == 0 && profile.zeroTranslationIgnored { return }  // Q4 (LN-S2)
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
            emit(
                "willBeginDragging",
                [RecordField("state", .string(publicState.name)), RecordField("recognizer", .string(rec.name))])
            let h = model.barHeight
            drag = PopupDrag(
                startCentre: model.barTop + h / 2, height: h, from: internalState, dock: geometry.dock,
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
            gestureCloseVelocity = v.y
            emit(
                "willEndDragging",
                [
                    RecordField("velocity", .point(v)),
                    RecordField("target", .string(PopupPresentationState.barPresented.name)),
                    RecordField("reason", .string("snapThreshold")),
                ])
            enqueue(.close(animated: true, byGesture: true, clearsGestures: true))
        }
    }

    /// `ended` / `cancelled` (§3.5.5, L16) with the velocity at this sample.
    mutating func panEnded(_ rec: PopupPanRecognizer, velocity v: Point) {
        guard !dismissalOverride, !ignoringGestures, let d = drag else { return }
        let style = resolvedStyle
        let p = 1 - (model.barTop + d.height) / d.dock
        var target: PopupPresentationState
        if style == .snap {
            target = publicState
        } else if releaseRule == .legacy {
            // LN-S7 old: a drag that started during a re-open (LN-S4 off) has `from` transitioning,
            // tested as from open and kept when the threshold is not passed (then it closes).
            if v.y < 0 {
                target = .open
            } else if v.y > 0 {
                target = .barPresented
            } else if d.from == .barPresented {
                target = p > 0.2 ? .open : .barPresented
            } else {
                target = p < 0.8 ? .barPresented : d.from
            }
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
        emit(
            "willEndDragging",
            [
                RecordField("velocity", .point(v)), RecordField("target", .string(target.name)),
                RecordField("reason", .string("release")),
            ])
        gesturesIgnored = true
        gestureCloseVelocity = v.y
        drag = nil
        if target == .open {
            enqueue(.open(animated: true, clearsGestures: true))
        } else {
            enqueue(.close(animated: true, byGesture: true, clearsGestures: true))
        }
    }
}
