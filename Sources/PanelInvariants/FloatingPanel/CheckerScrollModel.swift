import PanelSimCore

/// What the checker reconstructs of FloatingPanel's scroll-view bookkeeping from a trace and its
/// replay, independently of the model: the values `initialScrollOffset` (io) can hold over time,
/// the frame in force at an index, the pans' recognition samples. The exceptions of G3 and G4 that
/// cite a pin to io (floatingpanel-core.md §3.7 A1, §4.4 update step 3) ask these instead of "any
/// value O ever held".
struct IoHistory {
    /// Each change of io, in time order: from `time` (µs) on, io is one of `values` (empty: nil).
    var changes: [(time: Microseconds, values: Set<Double>)] = []

    /// The values io can hold at some moment of the interval (t0, t1]: the ones in force at t0
    /// and every later change up to t1.
    func values(after t0: Microseconds, through t1: Microseconds) -> Set<Double> {
        var out: Set<Double> = []
        for c in changes {
            if c.time <= t0 { out = c.values } else if c.time <= t1 { out.formUnion(c.values) } else { break }
        }
        return out
    }
}

extension Set where Element == Double {
    /// True when a member is within 1e-9 of `v` (io values are exact copies of offsets; the
    /// tolerance only absorbs a pinning offset recomputed from an inset in floating point).
    func holds(_ v: Double) -> Bool { contains { abs($0 - v) < 1e-9 } }
}

extension Run {
    /// The frame in force at index `j`: the last written frame with index ≤ j (a frame that repeats
    /// the previous one is not written), nil before the first.
    func frame(at j: Int) -> FrameRecord? {
        var lo = 0, hi = frameList.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if frameList[mid].index <= j { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : frameList[lo - 1]
    }

    /// The surface as a touch at `t` finds it: the last frame before the one that processes `t`; for
    /// a touch at t = 0, frame 0 (nothing precedes the first frame, which shows the initial layout).
    func frameBefore(_ t: Microseconds) -> FrameRecord? {
        frame(at: due(t) - 1) ?? (t == 0 ? frameList.first : nil)
    }

    /// The main-axis offsets the app gave the list at times in (t0, t1]: `setContentOffset`, `track`.
    func appOffsets(after t0: Microseconds, through t1: Microseconds) -> Set<Double> {
        var out: Set<Double> = []
        for s in trace.samples where s.time > t0 && s.time <= t1 {
            switch s.kind {
            case let .call(.track(c)): out.insert(position.main(c.contentOffset))
            case let .call(.setContentOffset(x, y, _)): if let v = position.isVertical ? y : x { out.insert(v) }
            default: break
            }
        }
        return out
    }

    /// The offsets the list can show when a sample at `t` is handled, before the handlers of that
    /// sample move it: the last frame's, or one the app set since that frame (§9 O1: samples are
    /// processed before the frame's animation steps).
    func offsetsBefore(_ t: Microseconds) -> Set<Double> {
        let k = due(t)
        var out = appOffsets(after: frameTime(k - 1, frameRate: rate), through: t)
        if let o = frame(at: k - 1)?.contentOffset { out.insert(o) }
        return out
    }

    /// True when `state` is scrollable (§3.6.1) with the layout and delegate of time `t` (a list
    /// assumed tracked).
    func isScrollable(_ state: String, at t: Microseconds) -> Bool {
        trace.header.delegate.scrollableStates.map { $0.contains(state) } ?? (state == finalGeometryAt(t).mostExpandedState.name)
    }

    /// The touch-down times of finger 0 with the time of the sample at which the pans recognize
    /// (the first `moved` at least `beginThreshold` from the touch-down, §9 O4), nil for a touch
    /// that never gets that far.
    static func recognitions(_ trace: Trace) -> [(down: Microseconds, downPoint: Point, recognition: Microseconds?)] {
        var out: [(Microseconds, Point, Microseconds?)] = []
        let threshold = trace.header.recognizer.beginThreshold
        var open: (Microseconds, Point)?
        for s in trace.samples {
            guard case let .touch(t) = s.kind, t.id == 0 else { continue }
            switch t.phase {
            case .began:
                if let o = open { out.append((o.0, o.1, nil)) }
                open = (s.time, t.location)
            case .moved:
                guard let o = open else { continue }
                let dx = t.location.x - o.1.x, dy = t.location.y - o.1.y
                if (dx * dx + dy * dy).squareRoot() >= threshold { out.append((o.0, o.1, s.time)); open = nil }
            case .ended, .cancelled:
                if let o = open { out.append((o.0, o.1, nil)); open = nil }
            case .stationary: break
            }
        }
        if let o = open { out.append((o.0, o.1, nil)) }
        return out
    }

    /// True when the panel's view is in the window at `t`: no `didRemove` since the last `show`
    /// (O15; `show` puts it back, §5.2).
    func isInWindow(at t: Microseconds) -> Bool {
        var removedAt: Microseconds?
        for case let .event(et, .didRemove) in result.records where et < t { removedAt = et }
        guard let removed = removedAt else { return true }
        return trace.samples.contains { s in
            if case .call(.show) = s.kind { return s.time >= removed && s.time < t } else { return false }
        }
    }

    /// True when an animation may run at `t`, so that a touch-down then forces the panel pan's
    /// `began` (§3.1): an attraction in the frame before, or a property animator started less than
    /// 1 s before (O13: 0.369 s from rest, longer with a dismissal velocity).
    func panelMayAnimate(at t: Microseconds) -> Bool {
        if frame(at: due(t) - 1)?.isAttracting == true { return true }
        return animatedStartTimes.contains { $0 <= t && t - $0 < 1_000_000 }
    }

    /// Animated show/hide/move/removal starts (property animators, O13), and the app's removals.
    var animatedStartTimes: [Microseconds] {
        trace.samples.compactMap { s -> Microseconds? in
            switch s.kind {
            case .call(.show(true)), .call(.hide(true)), .call(.move(_, true)), .call(.remove), .call(.tapBackdrop): return s.time
            default: return nil
            }
        } + result.records.compactMap { r -> Microseconds? in
            if case let .event(t, .willRemove) = r { return t } else { return nil }
        }
    }

    /// io over the replay (floatingpanel-core.md §2, §3.2 step 3, §3.3 step 2, §4.1 step 7, §4.5):
    /// * set to the list's offset when a list is tracked (header at t = 0, `track`);
    /// * set to the current offset by the panel pan's `began` (at touch-down while an animation
    ///   runs, §3.1, else at the recognition sample, O4), which may follow a pin to the old io in
    ///   the same sample (§3.7 runs first, O3): the old values stay possible;
    /// * at startInteraction (willBeginDragging) in a scrollable state: the pinning offset (a touch
    ///   on the list, §3.3 step 2b) or the current offset (grabber, inset area, off the list);
    /// * cleared by endAttraction (didEndAttracting, §4.5 step 1) and endWithoutAttraction
    ///   (didEndDragging(willAttract: false), §4.1 step 7).
    /// Where the checker cannot tell which of several values io took, all are kept.
    func ioHistory() -> IoHistory {
        enum Action { case set(Set<Double>), began(afterPin: Bool), start(String), clear }
        // (time, rank, action): at one time, an interruption's clear comes before the began that
        // follows it (§4.7 step 1, then §3.2 step 3); the drag's own events keep their record order.
        var actions: [(time: Microseconds, rank: Int, action: Action)] = []
        var seq = 0
        for s in trace.samples {
            if case let .call(.track(c)) = s.kind { actions.append((s.time, 0, .set([position.main(c.contentOffset)]))) }
        }
        for r in recognitions {
            // Core's scroll handler runs before the panel's in the same sample (O3) only for a
            // touch that went down inside the list's frame (the scroll pan, O4); a touch known to
            // have gone down elsewhere replaces io.
            // A touch known to have gone down off the surface never reaches the panel's recognizer.
            var afterPin = true
            if let list = listAt(r.down), !animatedStartTimes.contains(where: { $0 <= r.down && r.down - $0 < 1_000_000 }),
               let at = frame(at: due(r.down) - 1) {
                let surface = finalGeometryAt(r.down).surfaceFrame(at: at.location)
                if !surface.contains(r.downPoint) { continue }
                afterPin = list.frame.contains(Point(x: r.downPoint.x - surface.origin.x, y: r.downPoint.y - surface.origin.y))
            }
            if panelMayAnimate(at: r.down) { actions.append((r.down, 2, .began(afterPin: afterPin))) }
            if let t = r.recognition { actions.append((t, 2, .began(afterPin: afterPin))) }
        }
        for case let .event(t, e) in result.records {
            seq += 1
            switch e {
            case .didEndAttracting: actions.append((t, 1, .clear))
            case let .willBeginDragging(state): actions.append((t, 3 + seq, .start(state)))
            case .didEndDragging(willAttract: false): actions.append((t, 3 + seq, .clear))
            default: break
            }
        }
        actions.sort { $0.time != $1.time ? $0.time < $1.time : $0.rank < $1.rank }
        var history = IoHistory()
        var current: Set<Double> = []
        if let sv = trace.header.scrollView {
            current = [position.main(sv.contentOffset)]
            history.changes.append((-1, current))
        }
        for (t, _, action) in actions {
            switch action {
            case let .set(v): current = v
            case .clear: current = []
            case let .began(afterPin):
                guard listAt(t) != nil, panelPanBegan(at: t) else { continue }
                current = afterPin ? current.union(offsetsBefore(t)) : offsetsBefore(t)
            case let .start(state):
                guard let list = listAt(t), isScrollable(state, at: t) else { continue }
                var values = current.union(offsetsBefore(t))
                // The current offset at startInteraction follows the scroll view's own update in
                // the same sample and the earlier samples of the frame (O3: offset −= Δfinger, O6).
                // Past an edge the offset shows the rubber band of the finger offset (bounces on)
                // or the edge (bounces off).
                if let inset = frame(at: due(t) - 1)?.contentInset, let o = frame(at: due(t) - 1)?.contentOffset,
                   let delta = fingerTravelInFrame(through: t) {
                    let (lo, hi) = offsetRange(list, inset)
                    let d = position.mainDimension(list.frame.size)
                    // The finger offset u behind the shown offset (O6's inverse; y ≥ d has none).
                    func raw(_ y: Double) -> Double? { y >= d ? nil : y * d / (0.55 * (d - y)) }
                    let u0: Double? = o < lo ? raw(lo - o).map { lo - $0 } : o > hi ? raw(o - hi).map { hi + $0 } : o
                    for u in [u0.map { $0 - delta }, o - delta].compactMap({ $0 }) {
                        values.insert(u)
                        values.insert(min(max(u, lo), hi))
                        if u < lo { values.insert(lo - rubberBand(lo - u, d)) }
                        if u > hi { values.insert(hi + rubberBand(u - hi, d)) }
                    }
                }
                for j in [due(t) - 1, due(t)] {
                    if let inset = frame(at: j)?.contentInset { values.insert(pinningOffset(list, inset)) }
                }
                current = values
            }
            history.changes.append((t, current))
        }
        return history
    }

    /// The finger's main-axis travel over the samples of t's frame up to `t` that scrolled the list
    /// (after the pans' recognition sample, which only begins them, O4): what the scroll view's
    /// own update subtracts from the finger offset (O6). nil when none did.
    func fingerTravelInFrame(through t: Microseconds) -> Double? {
        let t0 = frameTime(due(t) - 1, frameRate: rate)
        var before: Double?, now: Double?
        var recognition: Microseconds?
        for s in trace.samples where s.time <= t {
            guard case let .touch(touch) = s.kind, touch.id == 0 else { continue }
            if touch.phase == .began {
                before = nil; now = nil
                recognition = recognitions.first { $0.down == s.time }?.recognition
            }
            if s.time <= t0 || recognition.map({ s.time <= $0 }) ?? true { before = position.main(touch.location); now = nil } else { now = position.main(touch.location) }
        }
        guard let b = before, let n = now else { return nil }
        return n - b
    }

    /// True when the panel's handler may have handled a `began` at `t` (§3.2): the delegate let it
    /// (a shouldBeginDragging(true) record at t), or nobody asked because a drag or an attraction
    /// was in progress (the veto is asked only when neither is, step 1). A veto (false) or no
    /// handler at all (a touch off the surface, a pan that waits for the scroll pan, §3.8 item 3)
    /// leaves io alone.
    func panelPanBegan(at t: Microseconds) -> Bool {
        var asked: Bool?
        for case let .event(et, .shouldBeginDragging(answer)) in result.records where et == t { asked = (asked ?? false) || answer }
        if let asked { return asked }
        guard let before = frame(at: due(t) - 1) else { return false }
        return before.isDragging || before.isAttracting || abandonedDrags.contains { $0.contains(t) }
    }

    /// The values io can hold during frame `k` (the interval (t_{k−1}, t_k]).
    func ioValues(_ history: IoHistory, frame k: Int) -> Set<Double> {
        history.values(after: frameTime(k - 1, frameRate: rate), through: frameTime(k, frameRate: rate))
    }
}

// MARK: Per-frame tests of G3's exceptions

extension Run {
    /// True when O lands on an end of its range (O6) at `o`, with the insets of `frame` (a
    /// deceleration stops at an edge, a release beyond one returns to it, O7).
    func landsOnRangeEdge(_ o: Double, from po: Double, at t: Microseconds, frame f: FrameRecord) -> Bool {
        guard let list = listAt(t), let inset = f.contentInset else { return false }
        let (lo, hi) = offsetRange(list, inset)
        return abs(o - lo) < 1e-9 || abs(o - hi) < 1e-9
    }

    /// True when O's step into frame `k` has the shape of a deceleration step (O7): the same sign
    /// as the step into frame k − 1 and no larger (each step is the previous one times q < 1).
    func decelerationStep(frame k: Int) -> Bool {
        guard let o = frame(at: k)?.contentOffset, let po = frame(at: k - 1)?.contentOffset,
              let ppo = frame(at: k - 2)?.contentOffset else { return false }
        let step = o - po, before = po - ppo
        return before != 0 && (step > 0) == (before > 0) && abs(step) <= abs(before) + 1e-9
    }

    /// True when a surface at `location` is at or beyond the most expanded anchor for FloatingPanel:
    /// D = offset(from: mostExpanded) ≤ 0, the pixel-rounded distance of the pixel-rounded frame
    /// edge (§1.4, §1.6/O2, §0.2).
    func isAtOrBeyondMost(_ location: Double, _ g: LayoutGeometry) -> Bool {
        let most = g.position(of: g.mostExpandedState), edge = g.rounded(location)
        return g.rounded(position.expandsTowardLowerCoordinate ? edge - most : most - edge) <= 0
    }

    /// FloatingPanel's grabberAreaContains (§1.8) for the surface-local point `local` on a surface
    /// at `location`: the band along the moving edge of the surface's current size, with its clamps.
    func touchDownInBand(_ local: Point, surfaceAt location: Double, _ g: LayoutGeometry) -> Bool {
        g.grabberAreaContains(local, surfaceSize: g.surfaceFrame(at: location).size)
    }

    /// True when the finger at main coordinate `value` is inside the list's content inset on the
    /// pinned side (§3.3 step 2b's inset-area check: bottom/right pin + loc < 0, top/left
    /// pin + (bounds − loc) < 0, loc the location in the list's frame).
    func inInsetArea(_ value: Double, surfaceAt location: Double, list: ScrollViewConfiguration, inset: Insets, _ g: LayoutGeometry) -> Bool {
        let origin = g.surfaceFrame(at: location).origin
        let loc = value - position.main(origin) - position.main(list.frame.origin)
        let pin = pinningOffset(list, inset)
        return position.expandsTowardLowerCoordinate ? pin + loc < 0 : pin + (position.mainDimension(list.frame.size) - loc) < 0
    }

    /// True when a drag began (willBeginDragging) in (t0, t1] in a state that is scrollable then.
    func dragStartsInScrollableState(after t0: Microseconds, through t1: Microseconds) -> Bool {
        result.records.contains { r in
            guard case let .event(t, .willBeginDragging(state)) = r, t > t0, t <= t1 else { return false }
            return isScrollable(state, at: t)
        }
    }

    /// True when the list's `bounces` is off in frame `f`: the app's `bounces` false, or a lock
    /// (§3.6.3: lock sets bounces false) that was not a loose one. A non-strict lock leaves bounces
    /// alone when shouldLooselyLock holds (fitToBounds, content shorter than its bounds plus the
    /// offset from the most expanded anchor), evaluated where the lock was taken (the frame that
    /// turned scrollLocked on, or the one before it).
    func bouncesOff(_ f: FrameRecord, _ list: ScrollViewConfiguration) -> Bool {
        if !list.bounces { return true }
        guard f.scrollLocked == true else { return false }
        let t = frameTime(f.index, frameRate: rate)
        guard finalGeometryAt(t).panel.contentMode == .fitToBounds else { return true }
        var transition: (before: FrameRecord?, at: FrameRecord)?
        var previous: FrameRecord?
        for x in frameList where x.index <= f.index {
            if x.scrollLocked == true, previous?.scrollLocked != true { transition = (previous, x) }
            previous = x
        }
        guard let (before, at) = transition else { return true }
        let tl = frameTime(at.index, frameRate: rate)
        let g = finalGeometryAt(tl)
        // §3.7 case B's lock(strict: true) (not I, D ≤ 0, a scroll-pan sample) sets bounces off
        // whatever shouldLooselyLock says; it may have taken the lock when no drag was in progress
        // at the frame's start, a finger-0 sample moved in it, and the surface was at or beyond the
        // most expanded anchor.
        let t0 = frameTime(at.index - 1, frameRate: rate)
        if before?.isDragging != true, isAtOrBeyondMost(before?.location ?? at.location, g) || isAtOrBeyondMost(at.location, g),
           trace.samples.contains(where: { s in
               if case let .touch(touch) = s.kind, touch.id == 0, touch.phase == .moved { return s.time > t0 && s.time <= tl }
               return false
           }) { return true }
        guard let lockedList = listAt(tl) else { return true }
        let most = g.position(of: g.mostExpandedState)
        func loose(_ location: Double) -> Bool {
            let edge = g.rounded(location)
            let d = g.rounded(position.expandsTowardLowerCoordinate ? edge - most : most - edge)
            return position.mainDimension(lockedList.contentSize) < position.mainDimension(lockedList.frame.size) + max(d, 0)
        }
        return !(loose(at.location) || before.map { loose($0.location) } ?? false)
    }
}

// MARK: The scroll handler's strict lock (G4)

extension Run {
    /// True when Core's scroll-pan handler may have taken §3.7 case B's `lock(strict: true)` at the
    /// trace sample `s`: a finger-0 sample of a touch that drives the scroll pan (it went down on
    /// the list, on the surface of a panel in the window, with content that scrolls on the main
    /// axis, O4; at or after the pans' recognition, where the handler first runs), with no drag in
    /// progress (not I), the surface at or beyond the most expanded anchor (D ≤ 0, rounded frame
    /// edge), a scrollable state (S), the finger moving toward hidden (v > 0 for bottom/right,
    /// v < 0 for top/left: the recorded velocity's sign or the step's) and allow false
    /// (−30 < a ≤ 0, a = od for bottom/right, contentOffsetMax − O for top/left, §3.6.2).
    func strictLockPossible(_ s: TraceSample) -> Bool {
        guard case let .touch(touch) = s.kind, touch.id == 0, touch.phase != .began, touch.phase != .stationary else { return false }
        guard let r = recognitions.last(where: { $0.down <= s.time }), let recognized = r.recognition, recognized <= s.time,
              let list = listAt(s.time), isInWindow(at: r.down), let atDown = frameBefore(r.down) else { return false }
        let gDown = finalGeometryAt(r.down)
        let surface = gDown.surfaceFrame(at: atDown.location)
        let local = Point(x: r.downPoint.x - surface.origin.x, y: r.downPoint.y - surface.origin.y)
        let alwaysBounce = position.isVertical ? list.alwaysBounceVertical : list.alwaysBounceHorizontal
        guard surface.contains(r.downPoint), list.frame.contains(local),
              position.mainDimension(list.contentSize) > position.mainDimension(list.frame.size) || alwaysBounce else { return false }
        guard let before = frame(at: due(s.time) - 1), !before.isDragging else { return false }
        let g = finalGeometryAt(s.time)
        guard isAtOrBeyondMost(before.location, g), isScrollable(before.state, at: s.time) else { return false }
        // The finger's direction: toward hidden is +main for bottom/right.
        let towardHidden: (Double) -> Bool = { position.expandsTowardLowerCoordinate ? $0 > 0 : $0 < 0 }
        // The velocity is estimated from the touch's recent samples (O5; a lift reports the last
        // one), so the last step that moved decides when the sample itself did not move.
        var previous: Double?, lastStep = 0.0
        for x in trace.samples where x.time <= s.time && x.time >= r.down {
            guard case let .touch(t) = x.kind, t.id == 0 else { continue }
            let v = position.main(t.location)
            if let p = previous, v != p { lastStep = v - p }
            previous = v
        }
        var before1: Double?
        for x in trace.samples where x.time < s.time {
            if case let .touch(t) = x.kind, t.id == 0 { before1 = position.main(t.location) }
        }
        let step = before1.map { position.main(touch.location) - $0 } ?? 0
        guard towardHidden(step) || towardHidden(lastStep) || touch.velocity.map({ towardHidden(position.main($0)) }) ?? false else { return false }
        // allow false at the handler: O after the scroll view's own update of this sample (O3),
        // which a pin in the same sample may hide from every frame: the frames' offsets, and the
        // previous offset moved by this step (O6: offset −= Δfinger), clamped to its range when
        // bounces is off.
        return [before, frame(at: due(s.time))].contains { f in
            guard let f, let o = f.contentOffset, let inset = f.contentInset else { return false }
            let (lo, hi) = offsetRange(list, inset)
            return [o, o - step, min(max(o - step, lo), hi)].contains { o in
                let a: Double
                if position.expandsTowardLowerCoordinate {
                    a = o - pinningOffset(list, inset)
                } else {
                    let trail = position.isVertical ? inset.bottom : inset.right
                    a = max(position.mainDimension(list.contentSize) + trail - position.mainDimension(list.frame.size), 0) - o
                }
                return a > -30 && a <= 0
            }
        }
    }
}
