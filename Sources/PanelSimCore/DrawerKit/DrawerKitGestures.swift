/// DrawerKit's gestures (drawerkit.md §3.2–§3.5, §3.14, D6–D8, D11): which recognizers are
/// installed and enabled, hit testing, the drawer and outside taps, the drawer pan, and the
/// pull-to-dismiss scroll view.

extension DrawerKitSystem {
    // MARK: Gesture availability (§3.2)

    mutating func installRecognizers() {
        drawerTap =
            drawer.isFullyPresentableByDrawerTaps && drawer.numberOfTapsForFullDrawerPresentation > 0
            ? TapRecognizer(requiredTaps: drawer.numberOfTapsForFullDrawerPresentation) : nil
        outsideTap =
            drawer.isDismissableByOutsideDrawerTaps && drawer.numberOfTapsForOutsideDrawerDismissal > 0
            ? TapRecognizer(requiredTaps: drawer.numberOfTapsForOutsideDrawerDismissal) : nil
    }

    mutating func setTapsEnabled(_ enabled: Bool) {
        setDrawerTapEnabled(enabled)
        setOutsideTapEnabled(enabled)
    }
    mutating func setDrawerTapEnabled(_ enabled: Bool) {
        drawerTapEnabled = enabled
        if !enabled { drawerTap?.reset() }
    }
    mutating func setOutsideTapEnabled(_ enabled: Bool) {
        outsideTapEnabled = enabled
        if !enabled { outsideTap?.reset() }
    }

    /// Assigns `targetDrawerState` and runs the availability rule (§3.2).
    mutating func setTarget(_ place: DrawerPlace) {
        target = place
        if !profile.masterTapAvailability {
            // DK-S2 old (0.7.0): both recognizers enabled iff the target is partiallyExpanded.
            let enabled = place == .partiallyExpanded
            setOutsideTapEnabled(enabled)
            setDrawerTapEnabled(enabled)
            return
        }
        switch place {
        case .named(.partiallyExpanded), .named(.collapsed):
            setOutsideTapEnabled(true)
            setDrawerTapEnabled(true)
        case .named(.fullyExpanded):
            setOutsideTapEnabled(true)
            setDrawerTapEnabled(false)
        case .named(.dismissed), .transitioning:
            setOutsideTapEnabled(false)
            setDrawerTapEnabled(false)
        }
    }

    // MARK: Taps (§3.5)

    /// Hit testing at touch-down with the model frame (D8).
    func route(_ p: Point) -> TouchRoute {
        if p.y >= modelY { return .drawer }
        if case .named(let s) = currentPlace, s != .dismissed, drawer.passthroughTouchesInStates.contains(s) {
            return .elsewhere
        }
        return .container
    }

    func onControl(_ p: Point) -> Bool {
        let local = Point(x: p.x, y: p.y - modelY)
        return drawer.controls.contains { $0.contains(local) }
    }

    /// `handleDrawerFullExpansionTap`.
    mutating func drawerTapped(at p: Point) {
        guard p.y - modelY < geometry.partialHeight else { return }
        emit("drawerInteriorTapped")
        animateTransition(to: .fullyExpanded)
    }

    /// `handleDrawerDismissalTap`.
    mutating func outsideTapped(at p: Point) {
        guard p.y < currentY else { return }
        emit("drawerExteriorTapped")
        setOutsideTapEnabled(false)
        animateTransition(to: .dismissed)
    }

    // MARK: Touches (§3.3, D6, D7)

    /// The fields of `handleDrawerDrag`'s `began` and `cancelled` events: constant, so every
    /// event shares one array.
    static let dragBeganFields = [RecordField("state", .string("began"))]
    static let dragCancelledFields = [RecordField("state", .string("cancelled"))]

    mutating func handleTouch(_ t: TouchSample, line: Int) {
        guard secondFingers.admits(t, line: line, warnings: &recorder.warnings) else { return }
        let p = t.location
        switch t.phase {
        case .began:
            tracker.reset()
            tracker.addMovement(timeNanos: now * 1000, position: p)
            touchDown = p
            lastPanPoint = p
            panActive = false
            touchInScrollView = false
            scrollPanActive = false
            guard presented, !terminal, !uiKitTransitionRunning else {
                touch = .elsewhere
                return
            }
            let r = route(p)
            touch = r
            switch r {
            case .drawer:
                if drawerTapEnabled, !onControl(p) { drawerTap?.touchBegan(at: p, time: now) }
                let local = Point(x: p.x, y: p.y - modelY)
                if hasScrollView, case let sv = scrollView.unsafelyUnwrapped, sv.frame.contains(local) {
                    if sv.isAnimating { scrollView!.stopDeceleration() }
                    touchInScrollView = scrollingEnabled && sv.isScrollableContent(.bottom)
                }
            case .container:
                if outsideTapEnabled { outsideTap?.touchBegan(at: p, time: now) }
            case .elsewhere: break
            }
        case .moved:
            tracker.addMovement(timeNanos: now * 1000, position: p)
            guard let r = touch, !uiKitTransitionRunning else { return }
            if terminal || !presented {
                touch = .elsewhere
                panActive = false
                return
            }
            switch r {
            case .drawer:
                drawerTap?.touchMoved(to: p)
                if touchInScrollView {
                    scrollMoved(to: p)
                } else if panActive {
                    applyTranslation(p.y - lastPanPoint.y)
                    lastPanPoint = p
                } else if drawer.isDrawerDraggable,
                    PanRecognition.crossesBeginThreshold(p - touchDown, threshold: beginThreshold)
                {
                    drawerTap?.fail()
                    panActive = true
                    panStart = target
                    emit("handleDrawerDrag", Self.dragBeganFields)
                    applyTranslation(p.y - touchDown.y)
                    lastPanPoint = p
                }
            case .container: outsideTap?.touchMoved(to: p)
            case .elsewhere: break
            }
        case .stationary:
            return
        case .ended, .cancelled:
            guard let r = touch else { return }
            touch = nil
            if terminal || !presented || uiKitTransitionRunning {
                panActive = false
                scrollPanActive = false
                return
            }
            if scrollPanActive {
                scrollPanActive = false
                endScrollDrag(PanRecognition.liftVelocity(t, time: now, source: velocitySource, tracker: tracker))
                return
            }
            if panActive {
                panActive = false
                if t.phase == .cancelled {
                    emit("handleDrawerDrag", Self.dragCancelledFields)
                    animateTransition(to: panStart)
                } else {
                    let v = PanRecognition.liftVelocity(t, time: now, source: velocitySource, tracker: tracker)
                    let speedY = v.y / geometry.height
                    let next = geometry.nextState(from: currentPlace, speedY: speedY)
                    emit(
                        "handleDrawerDrag",
                        [
                            RecordField("state", .string("ended")), RecordField("velocity", .point(v)),
                            RecordField("speedY", .number(speedY)), RecordField("nextState", .string(next.rawValue)),
                        ])
                    animateTransition(to: .named(next))
                }
                return
            }
            switch r {
            case .drawer:
                if t.phase == .cancelled {
                    drawerTap?.touchCancelled()
                    return
                }
                if drawerTapEnabled, drawerTap?.touchEnded(at: p, time: now) == true { drawerTapped(at: p) }
            case .container:
                if t.phase == .cancelled {
                    outsideTap?.touchCancelled()
                    return
                }
                if outsideTapEnabled, outsideTap?.touchEnded(at: p, time: now) == true { outsideTapped(at: p) }
            case .elsewhere: break
            }
        }
    }

    // MARK: Pull-to-dismiss (§3.14)

    /// Scrolling is enabled at `fullyExpanded` and while transitioning, unless a pull transition is
    /// pending; disabled at the other states (§3.2, §3.14).
    var scrollingEnabled: Bool {
        guard scrollView != nil, !pullPending else { return false }
        switch target {
        case .named(.fullyExpanded), .transitioning: return true
        default: return false
        }
    }

    /// A `moved` sample of a touch owned by the scroll view: its pan begins at the begin threshold
    /// (the offset does not move at recognition, as everywhere in PanelSim, O6), then the offset
    /// follows the finger and the delegate's `scrollViewDidScroll` runs.
    mutating func scrollMoved(to p: Point) {
        if !scrollPanActive {
            guard PanRecognition.crossesBeginThreshold(p - touchDown, threshold: beginThreshold) else { return }
            scrollPanActive = true
            drawerTap?.fail()
            // scrollViewWillBeginDragging
            if !pullPending {
                scrollStartPlace = currentPlace
                scrollEndVelocity = nil
                largestTopInset = max(largestTopInset, scrollView!.contentInset.top)
            }
            lastScrollPoint = p
            return
        }
        scrollView!.pan(by: p.y - lastScrollPoint.y, .bottom)
        lastScrollPoint = p
        scrollViewDidScroll()
    }

    /// DrawerKit's `scrollViewDidScroll`: moves the drawer by what the content is pulled past its
    /// top and pins the offset there (§3.14).
    mutating func scrollViewDidScroll() {
        guard let sv = scrollView, scrollingEnabled, !sv.isDecelerating, scrollEndVelocity == nil else { return }
        let top = sv.contentInset.top
        let n = -(sv.contentOffset.y + top)
        let place = currentPlace
        var transitioning = false
        if case .transitioning = place { transitioning = true }
        guard !place.sameState(as: scrollStartPlace) || (n > 0 && top == largestTopInset) || transitioning else {
            return
        }
        applyTranslation(n)
        scrollView!.setMainOffset(-top, .bottom)
    }

    /// `scrollViewWillEndDragging` and `scrollViewDidEndDragging` (§3.14). `fingerVelocity` in pt/s;
    /// UIKit hands the delegate the scroll velocity in pt/ms (content moves against the finger), and
    /// DrawerKit divides it by H as if it were pt/s (Q7).
    mutating func endScrollDrag(_ fingerVelocity: Point) {
        let scrollVelocity = Point(x: -fingerVelocity.x / 1000, y: -fingerVelocity.y / 1000)
        if !currentPlace.sameState(as: scrollStartPlace) {
            pullPending = true
            scrollEndVelocity = scrollVelocity
            let speedY = -scrollVelocity.y / geometry.height
            animateTransition(to: .named(geometry.nextState(from: currentPlace, speedY: speedY)), endsPull: true)
        } else {
            scrollEndVelocity = nil
            pullPending = false
            scrollView!.endPan(velocity: fingerVelocity.y, at: now, frameRate: environment.frameRate, .bottom)
        }
    }

    /// `applyTranslationY` (§3.3 step 3): clamped at every step (Q10), no rubber band.
    mutating func applyTranslation(_ dy: Double) {
        modelY = geometry.clamp(currentY + dy)
        let place = currentPlace
        setTarget(place)
        model.cornerRadius = geometry.cornerRadius(at: place)
    }
}
