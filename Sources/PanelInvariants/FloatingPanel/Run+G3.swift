import PanelSimCore

extension Run {
    // MARK: G3

    /// G3: on a monotonic finger path neither the surface nor O moves against the finger, and per
    /// sample |Δsurface| + |ΔO| ≤ |Δfinger| + 1 pt. Checked frame by frame while finger 0 is down in
    /// one touch whose path is monotonic, with no attraction in either frame and nothing but touch
    /// samples in between (calls, layout and environment changes move the panel by themselves); the
    /// slack is 1 pt per finger sample of the interval.
    mutating func checkG3() {
        let frames = result.records.compactMap { r -> FrameRecord? in if case let .frame(f) = r { return f } else { return nil } }
        guard let lastIndex = frames.last?.index else { return }
        // Touches of finger 0: index ranges of samples, and whether each is monotonic.
        struct Touch { var began: Microseconds; var end: Microseconds; var monotonic: Bool; var down = Point(x: 0, y: 0) }
        var touches: [Touch] = []
        var current: Touch?
        var lastValue = 0.0, direction = 0.0
        for s in trace.samples {
            guard case let .touch(t) = s.kind, t.id == 0 else { continue }
            let value = position.main(t.location)
            switch t.phase {
            case .began:
                if var c = current { c.end = s.time; touches.append(c) }
                current = Touch(began: s.time, end: .max, monotonic: true, down: t.location); direction = 0
            case .moved, .ended, .cancelled:
                guard current != nil else { break }
                let d = value - lastValue
                if d != 0 {
                    if direction == 0 { direction = d > 0 ? 1 : -1 } else if (d > 0 ? 1 : -1) != direction { current!.monotonic = false }
                }
                if t.phase != .moved { current!.end = s.time; touches.append(current!); current = nil }
            case .stationary: break
            }
            lastValue = value
        }
        if let c = current { touches.append(c) }
        let monotonicTouches = touches.filter(\.monotonic)
        guard !monotonicTouches.isEmpty else { return }
        let io = ioHistory()
        let otherTimes = trace.samples.compactMap { s -> Microseconds? in
            switch s.kind {
            case .touch, .observed, .scroll: return nil
            default: return s.time
            }
        }
        // The app's removals (willRemove: dismissBeyond, dismissIn, removal interaction, backdrop
        // tap): the removal transition puts the surface at hidden at once (floatingpanel-core.md
        // §5.1, §5.2: the layout of the target is applied when the animator starts), not the finger.
        let removalTimes = result.records.compactMap { r -> Microseconds? in
            if case let .event(t, .willRemove) = r { return t } else { return nil }
        }
        let fingerSamples = trace.samples.compactMap { s -> (Microseconds, Double)? in
            if case let .touch(t) = s.kind, t.id == 0 { return (s.time, position.main(t.location)) } else { return nil }
        }
        // Times at which a touch's began finished a property animator (shouldBeginDragging, then
        // the animator's completion didMove outside a drag).
        var transitionInterrupts: [Microseconds] = []
        do {
            var previous: DelegateEvent?
            var inDrag = false
            for case let .event(t, e) in result.records {
                if case .willBeginDragging = e { inDrag = true }
                if case .didEndDragging = e { inDrag = false }
                if e.name == "didMove", previous == .shouldBeginDragging(result: true), !inDrag { transitionInterrupts.append(t) }
                previous = e
            }
            // After didRemove the view is out of the window and didMove is not notified (O15):
            // there, the pans' recognition sample of a touch (the first `moved` at least
            // beginThreshold from its touch-down, O4) counts when a property animator may be in
            // flight: an animated show, hide, move to or from hidden, or a removal started less
            // than 1 s before (O13's duration is 0.369 s from rest, longer with a dismissal
            // velocity).
            let starts = trace.samples.compactMap { s -> Microseconds? in
                switch s.kind {
                case .call(.show(true)), .call(.hide(true)), .call(.move(_, true)), .call(.remove), .call(.tapBackdrop): return s.time
                default: return nil
                }
            } + result.records.compactMap { r -> Microseconds? in
                if case let .event(t, .willRemove) = r { return t } else { return nil }
            }
            let removals = result.records.compactMap { r -> Microseconds? in
                if case let .event(t, .didRemove) = r { return t } else { return nil }
            }
            var down: Point?
            var recognized = false
            for sample in trace.samples {
                guard case let .touch(t) = sample.kind, t.id == 0 else { continue }
                switch t.phase {
                case .began: down = t.location; recognized = false
                case .moved:
                    guard let d = down, !recognized else { continue }
                    let dx = t.location.x - d.x, dy = t.location.y - d.y
                    guard (dx * dx + dy * dy).squareRoot() >= trace.header.recognizer.beginThreshold else { continue }
                    recognized = true
                    if removals.contains(where: { $0 <= sample.time }),
                       starts.contains(where: { $0 <= sample.time && sample.time - $0 < 1_000_000 }) {
                        transitionInterrupts.append(sample.time)
                    }
                default: down = nil
                }
            }
        }
        // Animated show/hide/move/removal starts (property animators, O13).
        let animatedStarts = trace.samples.compactMap { s -> Microseconds? in
            switch s.kind {
            case .call(.show(true)), .call(.hide(true)), .call(.move(_, true)), .call(.remove), .call(.tapBackdrop): return s.time
            default: return nil
            }
        } + result.records.compactMap { r -> Microseconds? in
            if case let .event(t, .willRemove) = r { return t } else { return nil }
        }
        // The frame in force at each index (frames that repeat the previous one are not written).
        var byIndex: [Int: FrameRecord] = [:]
        for f in frames { byIndex[f.index] = f }
        var carried: FrameRecord?
        var sampleCursor = 0
        var finger: Double?
        var previous: (k: Int, frame: FrameRecord, finger: Double)?
        for touch in monotonicTouches {
            let firstFrame = Int((touch.began * Int64(rate)) / 1_000_000)
            let lastFrame = min(lastIndex + 1, touch.end == .max ? lastIndex : Int((touch.end * Int64(rate)) / 1_000_000) + 1)
            // Frames up to firstFrame carry forward.
            carried = frames.last { $0.index <= firstFrame }
            sampleCursor = fingerSamples.firstIndex { $0.0 >= touch.began } ?? fingerSamples.count
            finger = nil; previous = nil
            guard firstFrame <= lastFrame else { continue }
            // A touch that begins while an abandoned drag is open (§4.1 step 1 [QUIRK]) continues that
            // interaction: its first sample the panel handler takes as `changed` (or its end)
            // measures diff from the old touch's initialTranslation (§3.4 step 2), so the surface
            // jumps there by the difference of two unrelated gestures; every later sample moves it
            // by the finger's step. Only that sample's frame is left out. (It is the sample after
            // the recognition sample, which delivers `began` only, O4; or the first sample after
            // touch-down when an animation forced `began` there, §3.1; both when that is unknown.)
            var continuationFrames: Set<Int> = []
            if abandonedDrags.contains(where: { $0.contains(touch.began) }) {
                let own = fingerSamples.filter { $0.0 > touch.began && $0.0 <= touch.end }
                if panelMayAnimate(at: touch.began), let first = own.first { continuationFrames.insert(due(first.0)) }
                if let r = recognitions.first(where: { $0.down == touch.began })?.recognition,
                   let next = own.first(where: { $0.0 > r }) {
                    continuationFrames.insert(due(next.0))
                }
            }
            // A touch that goes down outside the list's frame never drives the scroll pan (§9 O4)
            // nor Core's scroll handler (§3.7), the only per-sample writers of O: whatever O does
            // during it (a deceleration it did not stop, O7) is not the finger's.
            var onList = false
            let touchDownLocation = carried?.location
            // While a property animator may run, frames report its target, not where the surface
            // visibly is (O13), so whether the finger went down on the list is not known here:
            // such a touch's O is left out in frames with finger samples, and held to what either
            // kind of touch allows in frames without.
            let animatorMayRun = animatedStarts.contains { $0 <= touch.began && touch.began - $0 < 1_000_000 }
            // Where the touch went down, surface-local (initialLocation, §3.1), when known.
            var downLocal: Point?
            if !animatorMayRun, let at = carried {
                let origin = finalGeometryAt(touch.began).surfaceFrame(at: at.location)
                downLocal = Point(x: touch.down.x - origin.minX, y: touch.down.y - origin.minY)
            }
            // On the list: inside its frame, and on the surface of a panel in the window (a touch
            // elsewhere never reaches the surface's recognizers nor the list, O15, so it cannot
            // stop a deceleration either).
            if let local = downLocal, let list = listAt(touch.began), let at = carried,
               finalGeometryAt(touch.began).surfaceFrame(at: at.location).contains(touch.down), isInWindow(at: touch.began) {
                onList = list.frame.contains(local)
            }
            let offList = downLocal != nil && !onList
            let downInGrabber = carried.map { inGrabber(touch.down, surfaceAt: $0.location, time: touch.began) }
            // A touch that goes down in the grabber band but has left it when the pans recognize
            // (the first sample ≥ beginThreshold away, O4): §3.8 item 2 asks for the *current*
            // location (§3.9b item 5), so the list's pan does not wait for the panel's and
            // scrolls, while the grabber start keeps the panel's drag unclamped (§3.4.2) and the
            // scroll view from taking the touch (§3.5 step 3); §3.7 pins O to io only while the
            // finger is in the band (case B) or the surface is inside the most expanded anchor
            // (case A). While D > 0, case A pins O to io (§3.7 A1: with I, or not I with G0), so
            // those frames are checked as any. At or beyond the anchor (D ≤ 0) case B pins only for
            // a finger in the band moving toward hidden, and unlocks for one moving toward full
            // (od ≥ 0, v ≤ 0): the list scrolls with the finger while the unclamped grabber drag
            // moves the surface with it in either direction, so there each is held to the finger
            // on its own (below). (A touch still in the band at recognition is fully checked: its
            // list never scrolls.)
            var leftBand = false
            if onList, let at = carried, inGrabber(touch.down, surfaceAt: at.location, time: touch.began) {
                let threshold = trace.header.recognizer.beginThreshold
                let recognition = trace.samples.first { s in
                    guard s.time >= touch.began, s.time <= touch.end, case let .touch(t) = s.kind, t.id == 0, t.phase == .moved else { return false }
                    let dx = t.location.x - touch.down.x, dy = t.location.y - touch.down.y
                    return (dx * dx + dy * dy).squareRoot() >= threshold
                }
                if let r = recognition, case let .touch(t) = r.kind {
                    let surface = frames.last { frameTime($0.index, frameRate: rate) <= r.time }?.location ?? at.location
                    if !inGrabber(t.location, surfaceAt: surface, time: r.time) { leftBand = true }
                }
            }
            for k in firstFrame...lastFrame {
                let tk = frameTime(k, frameRate: rate)
                guard k >= due(touch.began), touch.end == .max || k < due(touch.end) else {
                    if touch.end != .max && k >= due(touch.end) { break }
                    continue
                }
                var count = 0
                while sampleCursor < fingerSamples.count, due(fingerSamples[sampleCursor].0) <= k {
                    finger = fingerSamples[sampleCursor].1; sampleCursor += 1; count += 1
                }
                if let f = byIndex[k] { carried = f }
                guard let frame = carried, let value = finger else { continue }
                defer { previous = (k, frame, value) }
                guard let p = previous, p.k == k - 1, !p.frame.isAttracting, !frame.isAttracting else { continue }
                let t0 = frameTime(k - 1, frameRate: rate)
                if otherTimes.contains(where: { due($0) == k })
                    || removalTimes.contains(where: { due($0) == k || ($0 > t0 && $0 <= tk) }) { continue }
                // The pan's began stopped a property animator in this frame (§3.2 step 2, §4.7
                // step 2): the surface takes the value the animation visibly had (O13), a jump
                // from the animator's target that the finger did not make.
                if transitionInterrupts.contains(where: { $0 > t0 && $0 <= tk }) { continue }
                if continuationFrames.contains(k) { continue }
                // A drag that starts beyond the extreme anchors (an interrupted show or hide, §4.7)
                // is clamped to them at its first move while the content can scroll (§3.4.1,
                // `shouldScrollingContentInMoving`): the surface jumps to the bound by itself.
                // The app's clamp recipe (O14) does the same to a surface outside its range.
                let g = finalGeometryAt(tk)
                var bounds = [(g.leastCoordinatePosition, g.mostCoordinatePosition)]
                if let clamp = trace.header.delegate.didMove?.clamp {
                    bounds.append((g.position(of: clamp.min.state) + clamp.min.offset, g.position(of: clamp.max.state) + clamp.max.offset))
                }
                if bounds.contains(where: { lo, hi in
                    (p.frame.location < lo || p.frame.location > hi) && (abs(frame.location - lo) < 1e-9 || abs(frame.location - hi) < 1e-9)
                }) { continue }
                // Both flips inside one frame (two or more finger samples, seeds 18809, 22638,
                // 83291, 88986 on top/left): the surface can leave the bound and come back between
                // the frame's records, so the frames k − 2 … k below do not show the flip; the
                // touch-down's side of the band at the bound then differs from its side at this
                // frame pair's location (only a touch that went down on the list clamps, while the
                // finger goes toward expanding, §3.4.2).
                if count >= 2, onList, value > p.finger,
                   grabberBandMovedAcrossTouchDown(touch.down, downAt: touchDownLocation, from: p.frame.location, to: frame.location, geometry: g) { continue }
                // The clamp flag of §3.4.2 is off while grabberAreaContains(initialLocation); the
                // band is tested against the surface's current bounds (§1.8), and a top/left
                // fitToBounds surface is as long as its location (§1.7), so the band moves under
                // the fixed touch-down point as the surface moves: the flag flips mid-drag and the
                // surface jumps between the extreme anchor it was clamped to and the unclamped
                // constant (seed 23200, top mirror).
                if p.frame.isDragging, frame.isDragging, g.panel.contentMode == .fitToBounds, !position.expandsTowardLowerCoordinate,
                   let (lo, hi) = bounds.first,
                   [p.frame.location, frame.location].contains(where: { abs($0 - lo) < 1e-9 || abs($0 - hi) < 1e-9 }),
                   downLocal.map({ local in
                       // The flag is read at each sample from where the previous sample left the
                       // surface: the positions of frames k − 2 … k.
                       Set([self.frame(at: k - 2)?.location ?? p.frame.location, p.frame.location, frame.location]
                           .map { touchDownInBand(local, surfaceAt: $0, g) }).count > 1
                   }) ?? true {
                    continue
                }
                // With rubber banding on that side the same start is pulled to the band's image of
                // its distance (§3.4.1 steps 2–3: c = minC − rb(minC − c) or maxC + rb(c − maxC)
                // with c = initialConst + diff, diff = 0 at the first accepted sample): the surface
                // moves toward the extreme anchor by itself, staying beyond it. Only on a side that
                // rubber-bands: `.top` governs the minimum-coordinate side and `.bottom` the maximum
                // one for every position (§3.4.1 edge naming [QUIRK]); without it the start is not
                // pulled (diff = 0 leaves c where it was). The pull is d − rb(d, H), d the start's
                // distance beyond the anchor (initialConst is the rounded frame edge, §3.3 step 5,
                // O2); it is taken off the surface's move, the rest of the frame is the finger's.
                var pull = 0.0
                if !p.frame.isDragging, frame.isDragging, let (lo, hi) = bounds.first {
                    let previousLocation = p.frame.location, start = g.rounded(previousLocation)
                    let edges = g.panel.behavior.rubberBandingEdges
                    if edges.contains("bottom") && previousLocation > hi {
                        pull = (start > hi ? hi + rubberBand(start - hi, g.mainDimension) : start) - previousLocation
                    } else if edges.contains("top") && previousLocation < lo {
                        pull = (start < lo ? lo - rubberBand(lo - start, g.mainDimension) : start) - previousLocation
                    }
                }
                coverage.g3Frames += 1
                let df = value - p.finger
                var ds = frame.location - p.frame.location - pull
                var dO = (frame.contentOffset ?? 0) - (p.frame.contentOffset ?? 0)
                // A list that appears or disappears changes O by itself.
                if (frame.contentOffset == nil) != (p.frame.contentOffset == nil) { continue }
                // G3 bounds what the finger's samples do. O also moves by itself: a deceleration
                // or a return to an edge that an earlier touch started (O7), which this touch stops
                // only when it goes down inside the list's frame (tap-to-stop). So:
                // * a touch that went down off the list (it never drives the scroll pan nor Core's
                //   scroll handler, O4, §3.7): O may only take a deceleration's step (same sign,
                //   no larger than the last) or land on a range edge;
                // * a touch on the list, in a frame that processed no finger sample: O may only
                //   land on a range edge;
                // * a touch whose start on the list is unknown (a property animator may run, O13):
                //   O is left out in frames with finger samples, either rule in frames without.
                if let o = frame.contentOffset, let po = p.frame.contentOffset, o != po {
                    let free: Bool
                    if offList || animatorMayRun && count == 0 {
                        free = landsOnRangeEdge(o, from: po, at: tk, frame: frame) || decelerationStep(frame: k)
                    } else if onList && count == 0 {
                        free = landsOnRangeEdge(o, from: po, at: tk, frame: frame)
                    } else {
                        free = animatorMayRun
                    }
                    if free { dO = 0 }
                }
                let slack = Double(max(count, 1))
                // The pin jump of a drag that started on the list: startInteraction sets io := the
                // pinning offset (§3.3 step 2b) and §3.7 case A (D > 0) with I pins O there at the
                // next scroll-pan sample, whatever O was (also from a drag that interrupted an
                // attraction with the list scrolled); a pin to io inside the anchor is left out
                // below. If the surface, inside the most expanded anchor at the frame's start,
                // reaches it later in the same frame (D ≤ 0 at the sync, the clamp of §3.4.2), case
                // B unlocks and the list scrolls from io with the finger's later samples: O is then
                // held to the finger from io (seeds 52490, 98754), from whichever value io can hold
                // here (or from where O was, when no pin happened) explains the least motion.
                if dO != 0, frame.isDragging, let o = frame.contentOffset,
                   !isAtOrBeyondMost(p.frame.location, g), isAtOrBeyondMost(frame.location, g) {
                    // A scroll from io goes with the finger (O6: offset −= Δfinger).
                    let withFinger: (Double) -> Bool = { d in df == 0 || d * (df > 0 ? 1 : -1) <= 0 }
                    for c in ioValues(io, frame: k) where withFinger(o - c) && (abs(o - c) < abs(dO) || !withFinger(dO)) { dO = o - c }
                }
                // Exemptions for O, looked at only when a check would fail (they scan the replay).
                func offsetJumpIsFloatingPanels() -> Bool {
                    guard let o = frame.contentOffset, let po = p.frame.contentOffset, o != po else { return false }
                    // Pinned back to the offset FloatingPanel holds in io (captured at `track`, at
                    // the touch's `began`, or at startInteraction): §3.7 case A1 pins to io while
                    // the surface is inside the most expanded anchor, also with a stale io (§8 item
                    // 12, scenarios.md S3). O then jumps exactly to a value io holds in this frame,
                    // with the surface inside the most expanded anchor (case A: D > 0).
                    let most = g.position(of: g.mostExpandedState)
                    let lower = position.expandsTowardLowerCoordinate
                    func inside(_ l: Double) -> Bool { lower ? l - most > 0 : most - l > 0 }
                    if inside(p.frame.location) || inside(frame.location), ioValues(io, frame: k).holds(o) { return true }
                    // Clamped to its edge: §3.7 case B's lock(strict: true) turns `bounces` off
                    // while the content is pulled past its pinned edge, and a pan with bounces off
                    // clamps to the range (O6), so an over-scrolled offset returns to the edge.
                    // Likewise for a list whose `bounces` the app turned off.
                    if let list = listAt(tk), bouncesOff(frame, list) || bouncesOff(p.frame, list), let inset = frame.contentInset {
                        let (lo, hi) = offsetRange(list, inset)
                        if (po < lo && o == lo) || (po > hi && o == hi) { return true }
                    }
                    return false
                }
                // A drag that starts on an over-scrolled list absorbs the over-scroll: startInteraction
                // shifts the surface's start by −od toward hidden (§3.3 step 2b, applied as shift.y,
                // so only on top/bottom panels [QUIRK]) without a didMove. Only under step 2b's
                // conditions: a list tracked, the drag starting in a scrollable state, the touch
                // down on the list (initialLocation in its frame), not in the grabber band, and not
                // in the list's top content inset (pin + location in the list ≥ 0).
                if !p.frame.isDragging, frame.isDragging, position.isVertical, let po = p.frame.contentOffset,
                   let list = listAt(tk), let inset = frame.contentInset ?? p.frame.contentInset,
                   dragStartsInScrollableState(after: t0, through: tk), onList || downLocal == nil, downInGrabber != true,
                   !inInsetArea(p.finger, surfaceAt: p.frame.location, list: list, inset: inset, g)
                    || !inInsetArea(value, surfaceAt: p.frame.location, list: list, inset: inset, g) {
                    // od at the handler: O before this frame, or after the scroll view's own update
                    // in the same sample (O3), whichever is the larger over-scroll.
                    let pin = pinningOffset(list, inset)
                    let ods = [po - pin, (frame.contentOffset ?? po) - pin].filter { position == .bottom ? $0 < 0 : $0 > 0 }
                    let collapsing = position.expandsTowardLowerCoordinate ? ds > 0 : ds < 0
                    // The shift is taken off ds; the rest (later samples of the same frame) is the
                    // finger's. One pixel more: the start is the rounded frame edge (§3.3 step 5,
                    // O2), not the unrounded location the previous frame reported.
                    if let od = ods.map(abs).max(), collapsing {
                        let pixel = 1 / trace.header.environment.displayScale
                        ds = (ds > 0 ? 1 : -1) * max(0, abs(ds) - od - pixel)
                    }
                }
                // The clamp of an over-scrolled offset back to its edge (bounces off: the strict
                // lock of §3.7 case B, or the app's; O6) is not the finger's; what the finger does
                // after it in the same frame is.
                if dO != 0, let list = listAt(tk), let inset = frame.contentInset ?? p.frame.contentInset,
                   let o = frame.contentOffset, let po = p.frame.contentOffset,
                   bouncesOff(p.frame, list) || bouncesOff(frame, list) {
                    let (lo, hi) = offsetRange(list, inset)
                    // The clamp comes first, at the frame's first pan sample (O3: the scroll view's
                    // own update before Core's handler); when case B unlocks (§3.7) in that sample,
                    // bounces are back and the later samples pull the content past the same edge again.
                    // Only where that is what O shows: nearer the edge than it started and no farther
                    // past it than the finger went (a loose lock keeps bounces, §3.6.3, and an offset
                    // held d or more past the edge does not move, O6: neither is clamped).
                    let unlocked = onList && count > 0 && p.frame.scrollLocked == true && frame.scrollLocked == false
                    func pulledBack(_ edge: Double) -> Bool { unlocked && abs(o - edge) < abs(po - edge) && abs(o - edge) <= abs(df) + slack }
                    if po > hi + 1e-9 && (o <= hi || pulledBack(hi)) { dO = o - hi }
                    else if po < lo - 1e-9 && (o >= lo || pulledBack(lo)) { dO = o - lo }
                }
                // An exempt jump of O is left out; the surface is still held to the finger.
                if abs(dO) > 0, abs(ds) + abs(dO) > abs(df) + slack || (df != 0 && dO * (df > 0 ? 1.0 : -1.0) > 1),
                   offsetJumpIsFloatingPanels() { dO = 0 }
                // At or beyond the most expanded anchor (D ≤ 0 at the last layout sync) Core's scroll
                // handler does not pin the content while the panel drags (§3.7 case B pins only
                // for a grabber touch), so in a sample where a drag moves the surface out of that
                // zone toward hidden the list scrolls too: each follows the finger, not their sum.
                // (Toward full, a content touch is clamped at the anchor, §3.4.2, and a grabber
                // touch's list never scrolls, §3.8 item 2, so that direction stays checked.)
                // D is FloatingPanel's offset(from: most expanded): the pixel-rounded distance of
                // the pixel-rounded frame edge (§1.4, §1.6/O2, §0.2), not of the unrounded getter
                // value the frames carry, which can sit a hair inside the anchor.
                let mostAnchor = g.position(of: g.mostExpandedState)
                let frameEdge = g.rounded(p.frame.location)
                let beyondMost = g.rounded(position.expandsTowardLowerCoordinate ? frameEdge - mostAnchor : mostAnchor - frameEdge) <= 0
                let collapsing = position.expandsTowardLowerCoordinate ? ds > 0 : ds < 0
                if beyondMost, collapsing || leftBand, frame.isDragging, abs(ds) + abs(dO) > abs(df) + slack,
                   abs(ds) <= abs(df) + slack, abs(dO) <= abs(df) + slack {
                    if df != 0 {
                        let sign = df > 0 ? 1.0 : -1.0
                        if ds * sign < -1 { fail("G3", "surface-against", "frame \(k) (\(Run.seconds(tk))): the surface moves \(ds) against the finger's \(df)") }
                        if dO * sign > 1 { fail("G3", "offset-against", "frame \(k) (\(Run.seconds(tk))): O moves \(dO) against the finger's \(df)") }
                    }
                    continue
                }
                if abs(ds) + abs(dO) > abs(df) + slack {
                    // Named apart (for `InvariantChecker.holds`) when the list alone broke it (the
                    // surface still: a check of the list, as FP-S11's stale pins break it), and when
                    // the surface started the sample at or beyond location 0 (its moving edge off
                    // the screen's start), where FP-S10's older clamp test (pre > 0) lets surface
                    // and content both follow the finger.
                    let kind = abs(ds) <= 1e-9 ? "offset-bound" : p.frame.location <= 0 ? "bound-beyond-zero" : "bound"
                    fail("G3", kind, "frame \(k) (\(Run.seconds(tk))): |Δsurface| \(abs(ds)) + |ΔO| \(abs(dO)) > |Δfinger| \(abs(df)) + \(slack)")
                }
                if df != 0 {
                    let sign = df > 0 ? 1.0 : -1.0
                    if ds * sign < -1 { fail("G3", "surface-against", "frame \(k) (\(Run.seconds(tk))): the surface moves \(ds) against the finger's \(df)") }
                    // O moves against the finger when it moves with the finger's sign: dragging the content
                    // toward the end of the content (finger toward lower coordinates) raises O.
                    if dO * sign > 1 { fail("G3", "offset-against", "frame \(k) (\(Run.seconds(tk))): O moves \(dO) against the finger's \(df)") }
                }
            }
        }
    }
}
