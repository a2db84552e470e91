import PanelSimCore

extension SimulationResult {
    /// The last frame record, nil when there is none.
    var lastFrame: FrameRecord? {
        for record in records.reversed() { if case let .frame(f) = record { return f } }
        return nil
    }
}

/// One replay under check.
struct Run {
    let trace: Trace
    let result: SimulationResult
    let variant: String
    let rate: Int
    let position: PanelPosition
    /// The written frames, in index order.
    let frameList: [FrameRecord]
    var violations: [InvariantViolation] = []
    var coverage = InvariantCoverage()
    /// Set by `checkPairing`: the replay ends inside a drag abandoned by §4.1 step 1.
    var abandonedDragAtEnd = false
    /// Set by `checkPairing`: the times during which an abandoned drag (§4.1 step 1) is open.
    var abandonedDrags: [ClosedRange<Microseconds>] = []
    var abandonedSince: Microseconds = 0
    var abandonedOpen = false

    /// Records the end of an abandoned drag's interval at `t` if one is open.
    mutating func closeAbandoned(at t: Microseconds) {
        if abandonedOpen { abandonedDrags.append(abandonedSince...t); abandonedOpen = false }
    }

    init(trace: Trace, result: SimulationResult, variant: String) {
        self.trace = trace; self.result = result; self.variant = variant
        rate = trace.header.environment.frameRate
        position = trace.header.panel.position
        frameList = result.records.compactMap { r -> FrameRecord? in if case let .frame(f) = r { return f } else { return nil } }
        endsAtRest = InvariantChecker.endsAtRest(trace, result)
        recognitions = Run.recognitions(trace)
    }

    mutating func fail(_ rule: String, _ kind: String, _ message: String) {
        // One violation per rule and kind is enough to minimize and report.
        guard !violations.contains(where: { $0.rule == rule && $0.kind == kind }) else { return }
        violations.append(InvariantViolation(rule: rule, variant: variant, kind: kind, message: message))
    }

    /// The frame that processes a sample at `t` µs: the first k with t·frameRate ≤ k·10⁶
    /// (floatingpanel-core.md §9 O1, as the replay computes it; not the rounded frame time).
    func due(_ t: Microseconds) -> Int { Int((t * Int64(rate) + 999_999) / 1_000_000) }

    static func seconds(_ t: Microseconds) -> String {
        let s = Double(t) / 1_000_000
        return "t=\(s)"
    }

    /// True when the replay ended at rest (`InvariantChecker.endsAtRest`).
    let endsAtRest: Bool
    /// Finger 0's touches: touch-down time and point, and the pans' recognition sample (nil for a
    /// touch that never moved beginThreshold away, O4).
    let recognitions: [(down: Microseconds, downPoint: Point, recognition: Microseconds?)]

    /// The layout, environment, list and delegate in force at the end.
    var finalGeometry: LayoutGeometry {
        var panel = trace.header.panel, environment = trace.header.environment
        for sample in trace.samples {
            if case let .call(.invalidateLayout(p)) = sample.kind { panel = p }
            if case let .environment(e) = sample.kind { environment = e }
        }
        return LayoutGeometry(panel: panel, environment: environment)
    }

    /// The tracked list at the end (header, `track`, `untrack`, `setContentSize`), nil for none.
    var finalList: ScrollViewConfiguration? {
        var list = trace.header.scrollView
        for sample in trace.samples {
            switch sample.kind {
            case let .call(.track(c)): list = c
            case .call(.untrack): list = nil
            case let .call(.setContentSize(w, h)):
                if var c = list { c.contentSize = Size(width: w ?? c.contentSize.width, height: h ?? c.contentSize.height); list = c }
            default: break
            }
        }
        return list
    }

    mutating func checkAll() {
        checkPairing()
        checkRest()
        checkG7()
        checkCalls()
        checkAttractionFrames()
        checkDragFrames()
        checkG3()
    }

    /// The tracked list in force at `time` (header, `track`, `untrack`, `setContentSize`).
    func listAt(_ time: Microseconds) -> ScrollViewConfiguration? {
        var list = trace.header.scrollView
        for sample in trace.samples where sample.time <= time {
            switch sample.kind {
            case let .call(.track(c)): list = c
            case .call(.untrack): list = nil
            case let .call(.setContentSize(w, h)):
                if var c = list { c.contentSize = Size(width: w ?? c.contentSize.width, height: h ?? c.contentSize.height); list = c }
            default: break
            }
        }
        return list
    }

    /// FloatingPanel's pinning offset (floatingpanel-core.md §3.6.2) on the main axis for `list`
    /// with the content inset `inset` (pt).
    func pinningOffset(_ list: ScrollViewConfiguration, _ inset: Insets) -> Double {
        let bounds = list.frame.size, size = list.contentSize
        switch position {
        case .bottom: return -inset.top
        case .right: return -inset.left
        case .top: return max(size.height + inset.bottom - bounds.height, 0)
        case .left: return max(size.width + inset.right - bounds.width, 0)
        }
    }

    /// True when the container point `p` lies in the grabber band (§1.8) of a surface whose moving
    /// edge is at `location`: within grabberAreaOffset of that edge on its inner side, or past it
    /// (FloatingPanel clamps an outside point into the band).
    func inGrabber(_ p: Point, surfaceAt location: Double, time: Microseconds) -> Bool {
        let g = finalGeometryAt(time)
        let depth = position.expandsTowardLowerCoordinate ? position.main(p) - location : location - position.main(p)
        return depth < g.panel.grabberAreaOffset
    }

    /// True when, on a top/left `fitToBounds` surface, the touch-down point `down` (container
    /// coordinates; the surface at `downAt` then) is on one side of the grabber band's inner edge
    /// with the surface at a frame location of this frame pair (`from`, `to`) and on the other side
    /// with the surface on the extreme anchor that location is at or beyond (the drag's clamp
    /// bound): the drag can switch between clamped and unclamped in this frame, also between two
    /// frames' records.
    ///
    /// FloatingPanel keeps `initialLocation` in surface coordinates and draws the grabber band from
    /// the bounds' max edge on top/left panels (`SurfaceView.swift`, `grabberAreaFrame`:
    /// `bounds.maxY − grabberAreaOffset`; core §1.8): a fitToBounds surface's length is its
    /// location (core §1.7, layout-behavior §3.11), so as the surface moves the band slides over a
    /// fixed initialLocation, which bottom and right panels (band at bounds.min) never see. `shouldScrollingContentInMoving` then
    /// changes its answer mid-drag (§3.4.2, first test), and the drag switches between the clamp
    /// to the extreme anchors and initialConst + diff (§3.4.1 step 4): the surface jumps between
    /// the two by itself.
    func grabberBandMovedAcrossTouchDown(_ down: Point, downAt: Double?, from: Double, to: Double, geometry g: LayoutGeometry) -> Bool {
        guard position == .top || position == .left, g.panel.contentMode == .fitToBounds, let downAt else { return false }
        let (minC, maxC) = (g.leastCoordinatePosition, g.mostCoordinatePosition)
        // Surface-local touch-down (initialLocation), measured along the main axis.
        let initial = position.main(down) - position.main(g.surfaceFrame(at: g.rounded(downAt)).origin)
        // The band at a frame edge (the layout sync rounds it, O2): [length − offset, length), an
        // initialLocation past the length capped into it (`grabberAreaContains`).
        func inBand(_ location: Double) -> Bool {
            let length = position.mainDimension(g.surfaceFrame(at: g.rounded(location)).size)
            return initial >= length - g.panel.grabberAreaOffset
        }
        return [from, to].contains { location in
            let bound = location <= minC + 1e-9 ? minC : location >= maxC - 1e-9 ? maxC : nil
            return bound.map { inBand($0) != inBand(location) } ?? false
        }
    }

    /// The scroll view's offset range on the main axis (O6) for `list` with the content inset
    /// `inset`: [−inset.lead, max(−inset.lead, size + inset.trail − bounds)].
    func offsetRange(_ list: ScrollViewConfiguration, _ inset: Insets) -> (Double, Double) {
        let bounds = position.mainDimension(list.frame.size), size = position.mainDimension(list.contentSize)
        let lead = position.isVertical ? inset.top : inset.left, trail = position.isVertical ? inset.bottom : inset.right
        return (-lead, max(-lead, size + trail - bounds))
    }

    func finalGeometryAt(_ time: Microseconds) -> LayoutGeometry {
        var panel = trace.header.panel, environment = trace.header.environment
        for sample in trace.samples where sample.time <= time {
            if case let .call(.invalidateLayout(p)) = sample.kind { panel = p }
            if case let .environment(e) = sample.kind { environment = e }
        }
        return LayoutGeometry(panel: panel, environment: environment)
    }
}
