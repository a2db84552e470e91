import PanelSimCore

extension Run {
    // MARK: G2, F1, F2, F4 on the event sequence

    /// Times of finger 0's `ended`/`cancelled` samples, ascending.
    var fingerLifts: [Microseconds] {
        trace.samples.compactMap { s -> Microseconds? in
            guard case .touch(let t) = s.kind, t.id == 0, t.phase == .ended || t.phase == .cancelled else { return nil }
            return s.time
        }
    }

    /// True when finger 0 is down at `t` (a `began` at or before t, no lift since).
    func fingerDown(at t: Microseconds) -> Bool {
        var down = false
        for s in trace.samples where s.time <= t {
            if case .touch(let touch) = s.kind, touch.id == 0 {
                switch touch.phase {
                case .began: down = true
                case .ended, .cancelled: down = false
                default: break
                }
            }
        }
        return down
    }

    mutating func checkPairing() {
        var attracting = false
        var dragging = false
        var dragClosedByRemove = false
        // A drag released while the state is hidden: panningEnd returns at once and
        // interactionInProgress stays true (floatingpanel-core.md §4.1 step 1 [QUIRK]), so it never
        // ends; G2 is not asserted for it.
        var abandoned = false
        var lifts = fingerLifts[...]
        // Calls that run `move(to:)` (show, hide, remove and the backdrop tap through hide): its
        // tearDownActiveInteraction cancels a drag synchronously (§5.1 step 2, O12), and a cancel
        // while the state is hidden is abandoned like a lift (§4.1 step 1).
        let cancellingCalls = trace.samples.compactMap { s -> Microseconds? in
            switch s.kind {
            case .call(.move), .call(.show), .call(.hide), .call(.remove), .call(.tapBackdrop): return s.time
            default: return nil
            }
        }
        var lastTarget: String?
        var reported = "hidden"
        let records = Array(result.records)
        for (i, record) in records.enumerated() {
            let recordTime: Microseconds
            switch record {
            case .event(let t, _): recordTime = t
            case .frame(let f): recordTime = frameTime(f.index, frameRate: rate)
            case .systemFrame: recordTime = 0
            }
            while let lift = lifts.first, lift < recordTime {
                lifts = lifts.dropFirst()
                if dragging && reported == "hidden" && !abandoned {
                    abandoned = true
                    abandonedSince = lift
                    abandonedOpen = true
                }
            }
            switch record {
            case .frame(let f):
                if f.state != reported {
                    fail(
                        "F1", "frame-state",
                        "frame \(f.index) shows state \(f.state), but the last didChangeState reported \(reported)")
                }
                if f.isAttracting != attracting {
                    fail(
                        "F2", "frame-attracting",
                        "frame \(f.index) has isAttracting \(f.isAttracting) while the events say \(attracting)")
                }
                if f.isDragging != dragging {
                    fail(
                        "G2", "frame-dragging",
                        "frame \(f.index) has isDragging \(f.isDragging) while the events say \(dragging)")
                }
            case .event(let t, let e):
                func next(_ k: Int) -> DelegateEvent? {
                    guard i + k < records.count, case .event(_, let n) = records[i + k] else { return nil }
                    return n
                }
                func previous(_ k: Int) -> DelegateEvent? {
                    guard i - k >= 0, case .event(_, let n) = records[i - k] else { return nil }
                    return n
                }
                switch e {
                case .willBeginAttracting(let to):
                    if attracting {
                        fail("G2", "pairing", "\(Run.seconds(t)): willBeginAttracting while an attraction is running")
                    }
                    attracting = true
                    if next(1) != .didChangeState(state: to) {
                        fail(
                            "F2", "order",
                            "\(Run.seconds(t)): willBeginAttracting(\(to)) is not followed at once by didChangeState(\(to)) but by \(next(1).map { "\($0)" } ?? "nothing")"
                        )
                    }
                case .didEndAttracting:
                    if !attracting {
                        fail("G2", "pairing", "\(Run.seconds(t)): didEndAttracting without an attraction")
                    }
                    attracting = false
                case .willBeginDragging:
                    if dragging { fail("G2", "pairing", "\(Run.seconds(t)): willBeginDragging inside a drag") }
                    dragging = true
                    dragClosedByRemove = false
                    closeAbandoned(at: t)
                    abandoned = false
                case .willEndDragging(_, _, let target):
                    if !dragging && !dragClosedByRemove {
                        fail("G2", "pairing", "\(Run.seconds(t)): willEndDragging outside a drag")
                    }
                    lastTarget = target
                case .didEndDragging(let willAttract):
                    if !dragging && !dragClosedByRemove {
                        fail("G2", "pairing", "\(Run.seconds(t)): didEndDragging outside a drag")
                    }
                    // F4's own order: willEndDragging, didChangeState(target), didEndDragging(false).
                    // The app's dismissIn recipe runs inside that didChangeState (O14, synchronous),
                    // so a removal's events (from willRemove on) may sit between the last two; only
                    // when that didChangeState reports a state the recipe lists.
                    var back = willAttract ? 1 : 2
                    if !willAttract,
                        previous(2).map({ if case .willEndDragging = $0 { return false } else { return true } }) ?? true
                    {
                        var k = 2
                        while let e = previous(k) {
                            if case .willEndDragging = e { break }
                            k += 1
                        }
                        if previous(k) != nil, previous(k - 2) == .willRemove,
                            case .didChangeState(let state)? = previous(k - 1),
                            trace.header.delegate.dismissIn.contains(state)
                        {
                            back = k
                        }
                    }
                    guard case .willEndDragging(_, _, let target)? = previous(back) else {
                        fail(
                            "F4", "order",
                            "\(Run.seconds(t)): didEndDragging(\(willAttract)) without willEndDragging just before it")
                        dragging = false
                        dragClosedByRemove = false
                        break
                    }
                    if willAttract {
                        if next(1) != .willBeginAttracting(to: target) {
                            fail(
                                "F2", "order",
                                "\(Run.seconds(t)): didEndDragging(true) is not followed by willBeginAttracting(\(target)) but by \(next(1).map { "\($0)" } ?? "nothing")"
                            )
                        }
                    } else if previous(back - 1) != .didChangeState(state: target) {
                        fail(
                            "F4", "order",
                            "\(Run.seconds(t)): didEndDragging(false) is not preceded by didChangeState(\(target)) but by \(previous(back - 1).map { "\($0)" } ?? "nothing")"
                        )
                    }
                    _ = lastTarget
                    dragging = false
                    dragClosedByRemove = false
                    closeAbandoned(at: t)
                    abandoned = false
                case .willRemove:
                    // The removal's hide cancels a drag in the hidden state without ending it
                    // (§4.1 step 1): that drag stays open (abandoned). In any other state the
                    // drag ends (panningEnd's endInteraction, §4.1 step 4, then the removal path of
                    // step 5, or the cancel of §5.1 step 2): for an abandoned drag only when a
                    // later touch continued it and lifts now (the removal path of panningEnd); an
                    // app's removal cannot cancel a pan that already ended or was cancelled.
                    if dragging && (reported == "hidden" || (abandoned && !fingerLifts.contains(t))) {
                        if !abandoned {
                            abandoned = true
                            abandonedSince = t
                            abandonedOpen = true
                        }
                    } else if dragging {
                        dragging = false
                        dragClosedByRemove = true
                    }
                case .didChangeState(let s):
                    // A call's move(to:) cancelled a drag while the state was hidden: panningEnd
                    // returned at once (§4.1 step 1), so the drag stays open (abandoned) before
                    // the call's own didChangeState.
                    if dragging && !abandoned && reported == "hidden" && cancellingCalls.contains(t)
                        && fingerDown(at: t)
                    {
                        abandoned = true
                        abandonedSince = t
                        abandonedOpen = true
                    }
                    reported = s
                default:
                    break
                }
            case .systemFrame:
                break
            }
        }
        if endsAtRest {
            if dragging && reported == "hidden" && !fingerDown(at: .max) && !abandoned {
                abandoned = true
                abandonedSince = lifts.first ?? 0
                abandonedOpen = true
            }
            if attracting { fail("G2", "unpaired-end", "an attraction never ended (no didEndAttracting)") }
            if dragging && !abandoned {
                fail("G2", "unpaired-end", "a drag never ended (no didEndDragging or willRemove)")
            }
        }
        abandonedDragAtEnd = dragging && abandoned
        if abandonedOpen {
            abandonedDrags.append(abandonedSince...Microseconds.max)
            abandonedOpen = false
        }
    }

    // MARK: F1, F3 at programmatic calls

    /// Sample times, and the times of every frame, so that a call's own events can be told apart.
    func isUniqueCallTime(_ t: Microseconds, index: Int) -> Bool {
        for (k, s) in trace.samples.enumerated() where k != index && s.time == t { return false }
        // A frame at exactly t would step animations at t after the call.
        let k = Int((t * Int64(rate)) / 1_000_000)
        return frameTime(k, frameRate: rate) != t && frameTime(k + 1, frameRate: rate) != t
    }

    mutating func checkCalls() {
        let records = Array(result.records)
        for (index, sample) in trace.samples.enumerated() {
            guard case .call(let call) = sample.kind else { continue }
            let target: FloatingPanelState
            switch call {
            case .move(let to, _): target = to
            case .hide: target = .hidden
            case .show: target = finalGeometryAt(sample.time).panel.initialState
            default: continue
            }
            guard isUniqueCallTime(sample.time, index: index) else { continue }
            coverage.calls += 1
            let t = sample.time
            // The state of the pairings before the call's events, and the call's own events.
            var attracting = false
            var dragging = false
            var own: [DelegateEvent] = []
            var touchedAfter = false
            for record in records {
                guard case .event(let et, let e) = record else { continue }
                if et < t {
                    switch e {
                    case .willBeginAttracting: attracting = true
                    case .didEndAttracting: attracting = false
                    case .willBeginDragging: dragging = true
                    case .didEndDragging, .willRemove: dragging = false
                    default: break
                    }
                } else if et == t {
                    own.append(e)
                } else {
                    touchedAfter = true
                    break
                }
            }
            _ = touchedAfter
            if !own.contains(.didChangeState(state: target.name)) {
                fail(
                    "F1", "call",
                    "\(Run.seconds(t)): \(describe(call)) reports no didChangeState(\(target.name)) (its events: \(own.map(\.name)))"
                )
            }
            if case .move = call {
                // A drag is cancelled only while its touch is down (an abandoned drag, §4.1 step 1, has none).
                let abandonedDrag = abandonedDrags.contains { $0.contains(t) }
                if dragging, !abandonedDrag, fingerDown(at: t),
                    !own.contains(where: {
                        $0 == .didEndDragging(willAttract: true) || $0 == .didEndDragging(willAttract: false)
                            || $0 == .willRemove
                    })
                {
                    fail(
                        "F3", "drag",
                        "\(Run.seconds(t)): move(to:) during a drag does not end it (its events: \(own.map(\.name)))")
                }
                if attracting, !own.contains(.didEndAttracting) {
                    fail(
                        "F3", "attraction",
                        "\(Run.seconds(t)): move(to:) during an attraction does not interrupt it (its events: \(own.map(\.name)))"
                    )
                }
                if dragging, !abandonedDrag, fingerDown(at: t) { checkNoDragAfterCancel(at: t, records: records) }
            }
        }
    }

    /// F3: after `move(to:)` cancelled a drag, later samples of that touch do not drag the panel.
    mutating func checkNoDragAfterCancel(at t: Microseconds, records: [ResultRecord]) {
        // The end of that touch: the next finger-0 `began`, or the trace's end.
        var touchEnd = Int64.max
        for s in trace.samples where s.time > t {
            if case .touch(let touch) = s.kind, touch.id == 0, touch.phase == .began {
                touchEnd = s.time
                break
            }
        }
        for record in records {
            guard case .event(let et, let e) = record, et > t, et < touchEnd else { continue }
            if case .willBeginDragging = e {
                fail(
                    "F3", "drag-again",
                    "\(Run.seconds(et)): the touch whose drag move(to:) cancelled at \(Run.seconds(t)) drags the panel again"
                )
                return
            }
        }
    }

    func describe(_ call: FloatingPanelCall) -> String {
        switch call {
        case .move(let to, let animated): return "move(to: \(to.name), animated: \(animated))"
        case .show(let animated): return "show(animated: \(animated))"
        case .hide(let animated): return "hide(animated: \(animated))"
        default: return "\(call)"
        }
    }
}
