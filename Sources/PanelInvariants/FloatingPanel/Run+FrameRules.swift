import PanelSimCore

extension Run {
    // MARK: F5

    /// F5: a `didMove` for every frame of an attraction, and once more when it completes.
    mutating func checkAttractionFrames() {
        let records = Array(result.records)
        var removed = false
        var showTimes = trace.samples.compactMap { s -> Microseconds? in
            if case .call(.show) = s.kind { return s.time } else { return nil }
        }[...]
        var begin: (time: Microseconds, index: Int)?
        for (i, record) in records.enumerated() {
            guard case .event(let t, let e) = record else { continue }
            while let s = showTimes.first, s <= t {
                removed = false
                showTimes = showTimes.dropFirst()
            }
            switch e {
            case .didRemove:
                removed = true
                begin = nil
            case .willBeginAttracting: begin = removed ? nil : (t, i)
            case .didEndAttracting:
                defer { begin = nil }
                guard let (t0, i0) = begin, !removed else { continue }
                // didMove times between the two events.
                var moves: [Microseconds: Int] = [:]
                for k in i0..<i { if case .event(let mt, .didMove) = records[k] { moves[mt, default: 0] += 1 } }
                var k = Int((t0 * Int64(rate)) / 1_000_000)
                while frameTime(k, frameRate: rate) <= t0 { k += 1 }
                while frameTime(k, frameRate: rate) < t {
                    coverage.attractionFrames += 1
                    if moves[frameTime(k, frameRate: rate), default: 0] == 0 {
                        fail(
                            "F5", "attraction",
                            "attraction from \(Run.seconds(t0)) to \(Run.seconds(t)): no didMove at frame \(k) (\(Run.seconds(frameTime(k, frameRate: rate))))"
                        )
                        break
                    }
                    k += 1
                }
                // Settled (didEndAttracting right after a didMove at its own time): the step's and
                // the completion's didMove.
                if i > 0, case .event(let pt, .didMove) = records[i - 1], pt == t, frameTime(k, frameRate: rate) == t,
                    moves[t, default: 0] < 2
                {
                    fail(
                        "F5", "attraction",
                        "attraction settling at \(Run.seconds(t)) reports \(moves[t, default: 0]) didMove at its last frame, expected the step's and the completion's"
                    )
                }
            default: break
            }
        }
    }

    /// F5 for drags: a frame in which a drag moved the surface has a `didMove` since the previous
    /// frame (unless a call or environment change in between moved it).
    mutating func checkDragFrames() {
        let records = Array(result.records)
        var previous: (frame: FrameRecord, position: Int)?
        let otherTimes = trace.samples.compactMap { s -> Microseconds? in
            if case .touch = s.kind { return nil } else { return s.time }
        }
        for (i, record) in records.enumerated() {
            guard case .frame(let f) = record else { continue }
            defer { previous = (f, i) }
            guard let (p, pi) = previous, p.isDragging, f.isDragging, !p.isAttracting, !f.isAttracting,
                p.location != f.location
            else { continue }
            if otherTimes.contains(where: { due($0) > p.index && due($0) <= f.index }) { continue }
            var moved = false
            // A drag that ended and a new one that began between the two frames: the new drag's
            // first accepted sample only sets its baseline (F5), from the rounded frame edge
            // (core §3.3 step 5, §1.6), with no didMove: the surface moves by at most a pixel of
            // rounding plus the over-scroll shift startInteraction adds (§3.3 step 2b, top/bottom
            // panels only, shift.y [QUIRK]).
            var restarted = false
            for k in pi..<i {
                if case .event(_, .didMove) = records[k] {
                    moved = true
                    break
                }
                if case .event(_, .willBeginDragging) = records[k] { restarted = true }
            }
            if restarted && !moved {
                var shift = 0.0
                if position.isVertical, let list = listAt(frameTime(f.index, frameRate: rate)) {
                    for frame in [p, f] {
                        guard let o = frame.contentOffset,
                            let inset = frame.contentInset ?? f.contentInset ?? p.contentInset
                        else { continue }
                        let od = o - pinningOffset(list, inset)
                        if position == .bottom ? od < 0 : od > 0 { shift = max(shift, abs(od)) }
                    }
                }
                // A left panel's attraction set-up in between (the old drag's release) reads the
                // surface back offset by S.left − S.right (layout-behavior §8 item 2 [QUIRK]), and
                // the new drag starts from that frame edge.
                var quirk = 0.0
                if position == .left,
                    records[pi..<i].contains(where: {
                        if case .event(_, .willBeginAttracting) = $0 { return true } else { return false }
                    })
                {
                    let safe = finalGeometryAt(frameTime(f.index, frameRate: rate)).environment.safeArea
                    quirk = abs(safe.left - safe.right)
                }
                let pixel = 1 / trace.header.environment.displayScale
                if abs(f.location - p.location) > pixel + shift + quirk + 1e-9 {
                    fail(
                        "F5", "drag",
                        "a new drag moved the surface from \(p.location) to \(f.location) between frames \(p.index) and \(f.index) without didMove, more than a pixel and the over-scroll shift (\(shift))"
                    )
                }
                continue
            }
            if restarted { continue }
            if !moved {
                fail(
                    "F5", "drag",
                    "the drag moved the surface from \(p.location) to \(f.location) between frames \(p.index) and \(f.index) without didMove"
                )
            }
        }
    }
}
