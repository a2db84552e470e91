/// The sheet's gestures (uisheet.md §3.3, §3.4, §3.6, §3.8, §3.9, U29): finger 0's touch, the
/// sheet pan with its rubber bands, the release rule, and the scroll view's hand-off.

extension UISheetSystem {
    // MARK: Touches (§3.3, §3.8, §3.9)

    mutating func handleTouch(_ t: TouchSample, line: Int) {
        guard secondFingers.admits(t, line: line, warnings: &recorder.warnings) else { return }
        let p = t.location
        switch t.phase {
        case .began:
            tracker.reset()
            tracker.addMovement(timeNanos: now * 1000, position: p)
            filteredVelocity = 0
            lastMoveTime = now
            lastMoveY = p.y
            touchDown = p
            touchDownTime = now
            panBegan = false
            sheetDragging = false
            guard presented, !programmaticDismissalRunning, !geometry.detents.isEmpty else {
                route = .ignored
                return
            }
            let y = displayed(at: instant)
            if p.y >= y {
                route = .sheet
                inScrubBand = false
                if hasScrollView {
                    let sv = scrollView.unsafelyUnwrapped
                    let local = Point(x: p.x, y: p.y - y)
                    if sv.frame.contains(local) && sv.isScrollableContent(.bottom) {
                        route = .scroll
                        inScrubBand = local.x >= sv.frame.origin.x + sv.frame.size.width - 16
                    }
                    // iOS's tap-to-stop (O7).
                    if sv.frame.contains(local), sv.isDecelerating || sv.returnsToEdge {
                        scrollView?.isDecelerating = false
                        scrollView?.returnsToEdge = false
                        scrollView?.decelerationVelocity = 0
                    }
                }
            } else {
                route = shownDimming(at: y, time: instant) > 0 ? .dimming : .passThrough
            }
        case .moved:
            tracker.addMovement(timeNanos: now * 1000, position: p)
            if now > lastMoveTime {
                let vs = (p.y - lastMoveY) / (Double(now - lastMoveTime) / 1_000_000)
                filteredVelocity = 0.2 * vs + 0.8 * filteredVelocity
            }
            lastMoveTime = now
            lastMoveY = p.y
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
                let dx = p.x - touchDown.x
                let dy = p.y - touchDown.y
                if (dx * dx + dy * dy).squareRoot() <= 10, !dismissalRunning, displayed(at: instant) > geometry.largeTop
                {
                    acceptedDismissTap(selectUndimmed: true)
                }
            case .sheet, .scroll:
                guard panBegan, presented else {
                    sheetDragging = false
                    return
                }
                if t.phase == .ended { panChanged(to: p) }
                var v = 0.0
                if t.phase == .ended {
                    v =
                        options.uikitSheetVelocity
                        ? filteredVelocity
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
            // §3.3 item 3: u₀ is the unconstrained equivalent of the displayed offset (the inverse
            // band), so a sheet caught in a band does not jump when the hand-off moves it.
            u0 = undisplay(displayed(at: instant))
            scrollView?.rawOffset = s0
            return
        }
        startSheetDrag()
    }

    /// The sheet drag begins (§3.3 item 3): catch the animation, u₀ from the inverse band.
    mutating func startSheetDrag() {
        let y = displayed(at: instant)
        let caughtDismissal = animation?.kind == .dismissal
        animation = nil
        fade = nil
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
                sheetPart = max(ty, min(dragTopCandidate() - u0, 0))
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
            if excess > 0 {
                sheetPart = excess
                content = top
            } else {
                content = s0 - ty
            }
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
            // U21: no rubber band above the top in a hand-off, also when the top-most candidate
            // moved below the sheet during the drag (setDetents, the keyboard, a container change).
            u = max(u0 + sheetPart, dragTopCandidate())
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
            if !sheetDragging {
                contentRelease(velocity: v)
                return
            }
            if !contentAtRest {
                contentRelease(velocity: v)
                v = 0
            }
        }
        release(velocity: v)
    }

    // MARK: Release (§3.4, §3.6 item 3–4)

    mutating func release(velocity v: Double) {
        sheetDragging = false
        let y = display(u)
        let canDismiss = dismissible && !sheet.isModalInPresentation
        let rest = restCandidates(reserving: 1)
        var candidates = rest.list
        if canDismiss { candidates.append(Candidate(offset: geometry.height, kind: .dismiss)) }
        guard !candidates.isEmpty else {
            // No active detent is left (setDetents during the drag) and the sheet may not be
            // dismissed: it goes off screen to H and stays presented, as after setDetents with no
            // active detent (docs/uisheet.md); no records.
            dismissing = false
            refused = false
            modelY = y
            animate(
                to: geometry.height, velocity: v,
                dampingRatio: abs(v) >= 1000 ? options.fastDampingRatio : options.dampingRatio)
            return
        }
        let ve = (options.minimumSpeed == 0 || abs(v) >= options.minimumSpeed) ? v : 0
        let r = options.projectionRate
        let p = u + ve * r / (1 - r) / 1000
        func nearest(_ x: Double) -> Int {
            var best = 0
            for i in candidates.indices where abs(candidates[i].offset - x) < abs(candidates[best].offset - x) {
                best = i
            }
            return best
        }
        let iC = nearest(u)
        let iP = nearest(p)
        var i = iP
        if options.fastFlickThreshold > 0 && abs(v) >= options.fastFlickThreshold && iC == iP
            && (u < candidates[iC].offset) == (v < 0)
        {
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
                    targetIndex = candidates.lastIndex {
                        if case .detent = $0.kind { return true } else { return false }
                    }
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
            if case .detent(let d) = target.kind { target.offset = geometry.detents[d].offset }
        }
        if case .detent(let d) = target.kind { userSelect(geometry.detents[d].identifier) }
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
        // Tested first: the call takes the model out of the optional and writes it back.
        guard hasScrollView && scrollView.unsafelyUnwrapped.isAnimating else { return }
        scrollView!.stepDeceleration(frameTime: frameTime, pixel: 1 / environment.displayScale, .bottom)
    }
}
