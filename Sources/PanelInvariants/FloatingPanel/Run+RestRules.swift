import PanelSimCore

extension Run {
    // MARK: G1, G4 at rest

    mutating func checkRest() {
        guard endsAtRest, let last = result.lastFrame else { return }
        if last.isDragging, !abandonedDragAtEnd {
            fail("G2", "stuck", "the replay ends at rest with isDragging true (a drag that never ended)")
        }
        if last.isAttracting {
            fail("G2", "stuck", "the replay ends at rest with isAttracting true (an attraction that never ended)")
        }
        guard !last.isAttracting, !last.isDragging || abandonedDragAtEnd else { return }
        let geometry = finalGeometry
        var anchors = Set(
            geometry.panel.anchors.map { geometry.position(of: $0.state) } + [geometry.position(of: .hidden)])
        // The app's clamp recipe (O14) holds the surface inside its range whatever the state, hidden
        // included, except while attracting: a state outside the range rests at its anchor after an
        // attraction, at the clamped position after a non-animated move.
        if let clamp = trace.header.delegate.didMove?.clamp {
            let lo = geometry.position(of: clamp.min.state) + clamp.min.offset
            let hi = geometry.position(of: clamp.max.state) + clamp.max.offset
            anchors.formUnion(anchors.map { min(max($0, lo), hi) })
        }
        coverage.g1Rests += 1
        // G1 is stated for a rest with no touch and no animation. A drag abandoned in the hidden
        // state keeps interactionInProgress and its interaction constraint (floatingpanel-core.md
        // §4.1 step 1 [QUIRK]): the surface stays where the finger left it, so G1 has no rest to
        // check. (A drag that ended, or none at all, is still checked.)
        // Within 1e-9 pt: a clamp bound is pos(state) + offset in floating point, and a top/left
        // surface placed through the location setter (§1.5: edge minus length, read back plus
        // length) can differ from it in the last bits; G1 asks for the anchor position, not bits.
        if !anchors.contains(where: { abs($0 - last.location) < 1e-9 }), !abandonedDragAtEnd, !interruptedAndNotTaken()
        {
            fail(
                "G1", "rest",
                "rests at \(last.location) in \(last.state), not on an anchor (anchors at \(anchors.sorted()))")
        }
        // G4.
        guard let offset = last.contentOffset, let list = finalList else { return }
        coverage.g4Rests += 1
        let scrollable =
            trace.header.delegate.scrollableStates.map { $0.contains(last.state) }
            ?? (last.state == geometry.mostExpandedState.name)
        // A release exactly on an anchor unlocks the list whatever the state (floatingpanel-core.md
        // §4.1 step 7, endWithoutAttraction: "unlock()"), so after one the lock need not match the
        // state until something locks it again: exempt when the last event that sets the lock at
        // a rest is that release.
        let releasedOnAnchor =
            result.records.reversed().lazy.compactMap { r -> Bool? in
                guard case .event(_, let e) = r else { return nil }
                switch e {
                case .didEndDragging(let willAttract): return !willAttract
                case .didEndAttracting, .didRemove, .willBeginAttracting: return false
                default: return nil
                }
            }.first ?? false
        // shouldLooselyLock (§3.6.3: fitToBounds, content shorter than the bounds plus the offset
        // from the most expanded anchor) unlocks at the end of an attraction in any state (§4.5 step 3).
        let mostOffset = max(
            0,
            position.expandsTowardLowerCoordinate
                ? last.location - geometry.position(of: geometry.mostExpandedState)
                : geometry.position(of: geometry.mostExpandedState) - last.location)
        // Evaluated with the list as it was when the last attraction ended (a later setContentSize
        // changes nothing FloatingPanel decided then).
        let lastAttractionEnd = result.records.reversed().lazy.compactMap { r -> Microseconds? in
            if case .event(let t, .didEndAttracting) = r { return t } else { return nil }
        }.first
        let listAtEnd = lastAttractionEnd.flatMap { listAt($0) } ?? list
        let looselyLocked =
            geometry.panel.contentMode == .fitToBounds
            && position.mainDimension(listAtEnd.contentSize) < position.mainDimension(listAtEnd.frame.size) + mostOffset
        // `track(scrollView:)` neither locks nor unlocks (floatingpanel-core.md §2): a list tracked
        // after the panel last settled keeps the lock it was given until the next interaction.
        // The end of an attraction a drag release started decides nothing when the state is not
        // scrollable (§4.5 step 3 only unlocks; the lock was decided at endInteraction, §4.1 step
        // 4), so a list tracked while that attraction ran stays unlocked (§2 step 3).
        var dragReleaseEnds: Set<Microseconds> = []
        var releaseAttraction = false
        let events = result.records.compactMap { r -> (Microseconds, DelegateEvent)? in
            if case .event(let t, let e) = r { return (t, e) } else { return nil }
        }
        for (k, (t, e)) in events.enumerated() {
            switch e {
            case .willBeginAttracting:
                releaseAttraction = k > 0 && events[k - 1].1 == .didEndDragging(willAttract: true)
            case .didEndAttracting:
                if releaseAttraction && !scrollable { dragReleaseEnds.insert(t) }
                releaseAttraction = false
            default: break
            }
        }
        let lastSettle =
            events.reversed().lazy.compactMap { (t, e) -> Microseconds? in
                switch e {
                case .didEndAttracting where dragReleaseEnds.contains(t): return nil
                case .didEndDragging, .didEndAttracting, .didChangeState, .didRemove: return t
                default: return nil
                }
            }.first ?? 0
        let trackedSinceSettle = trace.samples.contains { s in
            if case .call(.track) = s.kind { return s.time >= lastSettle } else { return false }
        }
        if last.scrollLocked != !scrollable, !releasedOnAnchor, !trackedSinceSettle,
            !(looselyLocked && last.scrollLocked == false),
            !(scrollable && last.scrollLocked == true && lockedByScrollHandler()),
            // An abandoned drag (§4.1 step 1) never reaches endInteraction's lock decision (step
            // 4) nor an unlock: the list keeps the lock startInteraction gave it (§3.3 step 7).
            !abandonedDragAtEnd,
            !lockFollowsProposedTarget(geometry, locked: last.scrollLocked),
            // A surface that rests off its own state's anchor (a removal started inside a show,
            // then the show's layout, §5.1 step 6) was last given the lock by updateScrollView,
            // which unlocks only at offset(from: state) == 0 (§5.1 step 5): locked. Only with that
            // cause: the app's dismissIn removal started inside a move's didChangeState (O14), after
            // which the move applies its own layout (§5.1 steps 4 and 6, the show of O15 included).
            !(last.scrollLocked == true
                && abs(
                    last.location
                        - geometry.position(
                            of: geometry.panel.anchors.first { $0.state.name == last.state }?.state ?? .hidden)) > 1e-9
                && removalInsideStateChange()),
            // An animation a touch stopped off its anchor decides the lock no more: a stopped
            // spring skips its completion (endAttraction(false), no updateScrollView, §4.7 step 1,
            // §5.1 step 5), a stopped property animator runs updateScrollView, which locks unless
            // offset(from: state) is 0 (§4.7 step 2); when that touch never becomes a drag (see G1)
            // nothing decides the lock again.
            // (With the app's clamp recipe the surface can be back on an anchor: the recipe runs
            // in the completion's didMove, after its updateScrollView, O14.)
            !(interruptedAndNotTaken()
                && (trace.header.delegate.didMove?.clamp != nil
                    || !geometry.panel.anchors.contains {
                        $0.state.name == last.state && abs(geometry.position(of: $0.state) - last.location) < 1e-9
                    }))
        {
            fail(
                "G4", "lock",
                "rests in \(last.state) with scrollLocked \(last.scrollLocked.map(String.init) ?? "absent"), but the state is \(scrollable ? "" : "not ")scrollable"
            )
        }
        // An offset the app put there (header, track, setContentOffset) that nothing moved since may
        // sit beyond the pin after FloatingPanel rewrote the inset (§3.10 step 5 [QUIRK]: the
        // safe-area update replaces contentInset and restores the offset): UIKit leaves it there.
        var appOffsets: [Double] = trace.header.scrollView.map { [position.main($0.contentOffset)] } ?? []
        for sample in trace.samples {
            switch sample.kind {
            case .call(.track(let c)): appOffsets.append(position.main(c.contentOffset))
            case .call(.setContentOffset(let x, let y, _)):
                if let v = position.isVertical ? y : x { appOffsets.append(v) }
            default: break
            }
        }
        // The same holds for any offset that stopped inside its range and that nothing moved
        // since FloatingPanel rewrote the inset under it (a later safe-area update or state
        // change, §3.10): UIKit does not move a resting offset when contentInset changes.
        var insetWhenSet: Insets?
        var frameWhenSet = 0
        var previousFrame: FrameRecord?
        for case .frame(let f) in result.records {
            if let p = previousFrame, p.contentOffset != f.contentOffset || insetWhenSet == nil {
                insetWhenSet = f.contentInset
                frameWhenSet = f.index
            }
            previousFrame = f
        }
        // Also an app's setContentSize (O9: UIKit keeps the offset) moves a top/left panel's pin,
        // the end of the content (§3.6.2).
        var pinMovedUnderRestingOffset = false
        if let before = insetWhenSet, let listThen = listAt(frameTime(frameWhenSet, frameRate: rate)),
            let now = last.contentInset
        {
            let (lo, hi) = offsetRange(listThen, before)
            let (lo2, hi2) = offsetRange(list, now)
            pinMovedUnderRestingOffset = (lo != lo2 || hi != hi2) && offset >= lo - 1e-9 && offset <= hi + 1e-9
        }
        // An attraction pins the list to io on every frame (§4.4 update step 3) with the
        // non-animated setter, which stops a scroll view's return to its edge (§3.6.3
        // stopScrolling, O7); io captured beyond the pin (a grabber start takes the current offset,
        // §3.3 step 2a) therefore stays where it was when the attraction ends (§4.5 clears io but
        // moves nothing).
        // Only while io is set, to the offset O rests at.
        let io = ioHistory()
        var lastAttraction: FrameRecord?
        for f in frameList where f.isAttracting { lastAttraction = f }
        let pinnedByAttraction =
            lastAttraction.map { $0.contentOffset == offset && ioValues(io, frame: $0.index).holds(offset) } ?? false
        // A safe-area update remembers the offset and restores it with the setter (§3.10 steps 1
        // and 4), which stops a deceleration or a return to the edge (O9): an offset past the pin
        // at that moment stays there.
        // Only for an environment sample that changed the safe area: the update runs only then
        // (`update(safeAreaInsets:)`, "only if changed", §3.10).
        var restoredBySafeAreaUpdate = false
        var safeArea = trace.header.environment.safeArea
        var lastSafeAreaChange: Microseconds?
        for sample in trace.samples {
            if case .environment(let e) = sample.kind {
                if e.safeArea != safeArea { lastSafeAreaChange = sample.time }
                safeArea = e.safeArea
            }
        }
        if let te = lastSafeAreaChange {
            var atUpdate: Double?
            var changedAfter = false
            for case .frame(let f) in result.records {
                if f.index == due(te) || (atUpdate == nil && f.index > due(te)) {
                    atUpdate = f.contentOffset
                } else if let a = atUpdate, f.index > due(te), f.contentOffset != a {
                    changedAfter = true
                }
            }
            restoredBySafeAreaUpdate = atUpdate == offset && !changedAfter
        }
        // Core's scroll handler pins to io (§3.7 case A1, also at a touch's end) with the
        // non-animated setter, which stops the list's return to its edge (§3.6.3 stopScrolling,
        // O7): an io captured past the pin leaves O resting there. Only at a value io held while
        // O rested at it (from the frame where O took its resting value on).
        var restSince = last.index
        for f in frameList.reversed() {
            if f.contentOffset == offset { restSince = f.index } else { break }
        }
        let pinnedToEarlierOffset = io.values(
            after: frameTime(restSince - 1, frameRate: rate), through: frameTime(last.index, frameRate: rate)
        ).holds(offset)
        if let inset = last.contentInset, !appOffsets.contains(offset), !pinMovedUnderRestingOffset,
            !pinnedByAttraction,
            !restoredBySafeAreaUpdate, !pinnedToEarlierOffset
        {
            let bounds = list.frame.size
            let size = list.contentSize
            switch position {
            case .bottom where offset < -inset.top - 1e-9:
                fail("G4", "pin", "O rests at \(offset), beyond the pinning offset \(-inset.top)")
            case .right where offset < -inset.left - 1e-9:
                fail("G4", "pin", "O rests at \(offset), beyond the pinning offset \(-inset.left)")
            case .top:
                let pin = max(size.height + inset.bottom - bounds.height, 0)
                if offset > pin + 1e-9 { fail("G4", "pin", "O rests at \(offset), beyond the pinning offset \(pin)") }
            case .left:
                let pin = max(size.width + inset.right - bounds.width, 0)
                if offset > pin + 1e-9 { fail("G4", "pin", "O rests at \(offset), beyond the pinning offset \(pin)") }
            default: break
            }
        }
    }

    /// True when the app removed the panel from inside a state change: a `willRemove` right after
    /// a `didChangeState` of a state its dismissIn recipe lists (the recipe runs synchronously in
    /// that callback, O14), so that whatever changed the state applies its own layout afterwards.
    func removalInsideStateChange() -> Bool {
        var previous: DelegateEvent?
        for case .event(_, let e) in result.records {
            if e == .willRemove, case let .didChangeState(state)? = previous,
                trace.header.delegate.dismissIn.contains(state)
            {
                return true
            }
            previous = e
        }
        return false
    }

    /// True when the last drag's delegate rewrote its target (`targetStateOverrides`) and the list's
    /// lock `locked` is the one the *proposed* target gives: endInteraction decides the lock from
    /// the target before the override (floatingpanel-core.md §4.1 step 4, §8 item 10), and the
    /// attraction's end only unlocks in a scrollable state (§4.5 step 3).
    func lockFollowsProposedTarget(_ geometry: LayoutGeometry, locked: Bool?) -> Bool {
        guard let locked else { return false }
        var last: (proposed: String, target: String)?
        for case .event(_, let e) in result.records {
            if case let .willEndDragging(_, proposed, target) = e { last = (proposed, target) }
            if case .willBeginDragging = e { last = nil }
        }
        guard let (proposed, target) = last, proposed != target else { return false }
        let scrollableProposed =
            trace.header.delegate.scrollableStates.map { $0.contains(proposed) }
            ?? (proposed == geometry.mostExpandedState.name)
        // One direction only: a scrollable proposal leaves endInteraction's lock off, and the end of
        // the attraction to a non-scrollable target only ever unlocks, so the list rests unlocked.
        // The other way round (a non-scrollable proposal locks, the target is scrollable), the
        // attraction's end unlocks (§4.5 step 3), so a locked rest there stays a violation.
        return locked == false && scrollableProposed
    }

    /// True when the last animation was stopped by a touch (§4.7: a spring is stopped without
    /// finishing, a property animator is finished where it visibly was, O13) and no drag followed:
    /// FloatingPanel brings the surface back to an anchor only through that touch's panningEnd
    /// (§4.7 "Interrupted attraction" step 7). When the delegate vetoes the drag (§3.2 step 1:
    /// asked on every event once the animation stopped) or the tracked list takes the touch
    /// (§3.5), nothing ends a drag and the surface stays off its anchor until the next interaction.
    func interruptedAndNotTaken() -> Bool {
        // The pan's began stops it: at touch-down while something animates (§3.1), else at the
        // recognition sample (O4); any finger-0 sample time.
        let downs = trace.samples.compactMap { s -> Microseconds? in
            if case .touch(let t) = s.kind, t.id == 0, t.phase == .began || t.phase == .moved {
                return s.time
            } else {
                return nil
            }
        }
        var interruption: Microseconds?
        var previous: DelegateEvent?
        for case .event(let t, let e) in result.records {
            if downs.contains(t) {
                if e == .didEndAttracting || (e.name == "didMove" && previous == .shouldBeginDragging(result: true)) {
                    interruption = t
                }
            }
            previous = e
        }
        guard let t0 = interruption else { return false }
        var vetoed = false
        for case .event(let t, let e) in result.records where t >= t0 {
            if case .willBeginDragging = e { return false }
            if case .willBeginAttracting = e { return false }
            if e == .shouldBeginDragging(result: false) { vetoed = true }
        }
        if vetoed { return true }
        // The list takes the rest of the touch only while shouldScrollViewHandleTouch holds for it
        // (§3.5), whose conditions on the touch-down are fixed for the touch: the list's frame
        // contains initialLocation (step 1), the state (the interrupted target, §4.7 step 1) is
        // scrollable, the surface is within 1 pt of its anchor (|offset(from: state)| < 1, from the
        // rounded frame edge, §1.4) and initialLocation is not in the grabber band (step 3).
        // initialLocation is taken where the surface was at the touch-down; the other tests are
        // read at the end, where the surface stays (an environment change can still move an
        // interrupted attraction's constraint with its guide, O16).
        guard let list = listAt(t0), let rest = result.lastFrame,
            let down = trace.samples.last(where: { s in
                if case .touch(let t) = s.kind, t.id == 0, t.phase == .began {
                    return s.time <= t0
                } else {
                    return false
                }
            }), case .touch(let touchDown) = down.kind, let atDown = frame(at: due(down.time) - 1)
        else { return false }
        let origin = finalGeometryAt(down.time).surfaceFrame(at: atDown.location).origin
        let local = Point(x: touchDown.location.x - origin.x, y: touchDown.location.y - origin.y)
        let g = finalGeometry
        guard list.frame.contains(local), isScrollable(rest.state, at: .max),
            !touchDownInBand(local, surfaceAt: rest.location, g),
            let state = g.panel.anchors.first(where: { $0.state.name == rest.state })?.state
        else { return false }
        let edge = g.rounded(rest.location)
        let anchor = g.position(of: state)
        return abs(g.rounded(position.expandsTowardLowerCoordinate ? edge - anchor : anchor - edge)) < 1
    }

    /// True when the list was last locked by Core's scroll-pan handler during a touch the panel
    /// never took: at the frame where `scrollLocked` last turned true no drag, attraction or call
    /// ran, a finger was down, and no drag began after it. That is §3.7 case B's `lock(strict:
    /// true)` (the content reached its pinned edge while the finger pulls toward hidden, e.g. with
    /// `shouldBeginDragging` false); FloatingPanel unlocks again only in case B (a finger moving the
    /// other way with the content scrollable) or at the end of a drag or attraction (§4.1 step 7,
    /// §4.5 step 3), so the list may rest locked in a scrollable state.
    func lockedByScrollHandler() -> Bool {
        var previous: FrameRecord?
        var lockFrame: FrameRecord?
        for case .frame(let f) in result.records {
            if let p = previous, p.scrollLocked == false, f.scrollLocked == true { lockFrame = f }
            previous = f
        }
        // The last lock decision of FloatingPanel itself: a call (move's step 1 and end), a drag's
        // end or an attraction's end. A finger that moved after it while no drag began is a touch
        // the panel never took, whose scroll handler may have locked the list (also within the
        // frame of that decision, where no unlocked frame is written in between).
        let decisions =
            trace.samples.compactMap { s -> Microseconds? in
                if case .call = s.kind { return s.time } else { return nil }
            }
            + result.records.compactMap { r -> Microseconds? in
                guard case .event(let t, let e) = r else { return nil }
                switch e {
                case .didEndDragging, .didEndAttracting, .willBeginDragging: return t
                default: return nil
                }
            }
        // Only a sample at which case B's strict lock can have been taken counts (§3.7 case B,
        // not I: S, D ≤ 0, v toward hidden and allow false), for a touch that drives the scroll
        // pan (strictLockPossible).
        if let last = decisions.max(), trace.samples.contains(where: { s in s.time > last && strictLockPossible(s) }),
            !result.records.contains(where: { r in
                if case .event(let et, .willBeginDragging) = r { return et > last } else { return false }
            }), listAt(last) != nil, !(result.lastFrame?.isDragging ?? false)
        {
            return true
        }
        guard let f = lockFrame, !f.isDragging, !f.isAttracting else { return false }
        let t = frameTime(f.index, frameRate: rate)
        let t0 = frameTime(f.index - 1, frameRate: rate)
        guard trace.samples.contains(where: { s in s.time > t0 && s.time <= t && strictLockPossible(s) }) else {
            return false
        }
        if trace.samples.contains(where: { s in
            if case .call = s.kind { return s.time > t0 && s.time <= t } else { return false }
        }) {
            return false
        }
        return !result.records.contains { r in
            if case .event(let et, .willBeginDragging) = r { return et > t0 } else { return false }
        }
    }
}
