import PanelSimCore

extension InvariantChecker {
    /// Whether the rule `violation` breaks holds for `trace` at the profile point its header names
    /// (profiles.md §4.2). Without a profile every rule holds. At a point:
    /// * F4 (state before `didEndDragging(false)`) needs 2.7.0's event order and not 2.8.1's
    ///   exact-release bug (FP-S7, FP-S9); F5's final `didMove` and G2's attraction pairing need
    ///   2.7.0's event order (FP-S7).
    /// * G3 fails up to 2.8.3 when the most expanded anchor is at or beyond location 0 (FP-S10), in
    ///   any of the trace's layouts and environments (a rotation can put it there), and in a sample
    ///   that starts with the surface at or beyond 0 (a spring's overshoot past a full anchor near
    ///   the top; kind `bound-beyond-zero`): the older clamp test asks for pre > 0.
    /// * G3's list checks (kinds `offset…`, `offset-bound` a bound the list alone broke) fail up
    ///   to 2.8.6 (FP-S11 off): io is never cleared, so §3.7 case A pins the list back to an
    ///   offset captured by an earlier drag while the finger scrolls it.
    /// * G3 fails before 2.7.0 in a trace with a tracked list: io is captured as the pinning offset,
    ///   the current offset (FP-S5) or left at (0, 0) by tracking (FP-S15), and the overscroll
    ///   shift of startInteraction moves the surface without the finger, so a pin or the shift moves
    ///   the list or the surface by more than the finger in one sample.
    /// * G3's surface checks read the frame's `isAttracting` to tell a spring from the finger; up
    ///   to 2.6.6 an animated programmatic move (`move` or `show` between non-hidden states) runs
    ///   its spring with `isAttracting` false (FP-S7), so in a trace with such a call they do not
    ///   apply.
    /// * Before 3.2.1 (FP-S13 raw), with an anchor off the pixel grid the core's rules (clamp
    ///   bounds, segments, the spring's target, the exact-release test) use a position the frame
    ///   never takes:
    ///   the panel can rest "inside" its anchor (the list pinned or locked at rest), a drag clamps
    ///   at the raw position, and a mirror's rounding differs from the bottom panel's; G3, G4 and G6
    ///   do not apply to such a trace.
    /// * G7 (at rest `location` = pos(`state`)) fails at 2.8.1 after an exact release onto another
    ///   state (FP-S9: `state` is not assigned) and up to 2.8.0 when an invalidation removed the
    ///   current state (FP-S14 off: the surface goes to the initial state's anchor, `state` keeps
    ///   the removed one); the checker names these causes in the violation's kind.
    /// Every other rule holds at every point.
    /// - Complexity: O(points + anchors + samples).
    public static func holds(_ violation: InvariantViolation, for trace: Trace) -> Bool {
        guard let profile = trace.header.profile, trace.header.model == .floatingPanel else { return true }
        let v = FloatingPanelProfiles.table.values(for: profile)
        if !v.roundedAnchors && ["G3", "G4", "G6"].contains(violation.rule) && hasAnchorOffTheGrid(trace) { return false }
        switch violation.rule {
        case "F4": return v.newEventOrder && !v.exactAnchorStateBug
        case "F5", "G2": return v.newEventOrder
        case "G7":
            switch violation.kind {
            case "exact-release": return !v.exactAnchorStateBug
            case "removed-state": return v.invalidateStateReset
            default: return true
            }
        case "G3":
            if v.clampAboveZero && violation.kind == "bound-beyond-zero" { return false }
            if v.clampAboveZero && layouts(of: trace).contains(where: { g in
                let most = g.position(of: g.mostExpandedState)
                return g.panelPosition.expandsTowardLowerCoordinate ? most <= 0 : most >= g.mainDimension
            }) { return false }
            if violation.kind.hasPrefix("offset") && !v.clearOffsetAfterAttraction { return false }
            if (v.offsetCapture != .new || !v.ioAtTrack) && hasTrackedList(trace) { return false }
            if !violation.kind.hasPrefix("offset") && !v.newEventOrder && hasAnimatedMove(trace) { return false }
            return true
        default: return true
        }
    }

    /// An anchor of the trace (header or `invalidateLayout`, in the header's or any sampled
    /// environment) whose raw position x is off the pixel grid (rounded(x) ≠ x). Wider than
    /// FP-S13's trigger for the rest offset (half-way between two pixels): the clamp bounds, the
    /// spring's target and the exact-release test read x itself, so 64.3 breaks G3 and G6 too.
    /// - Complexity: O((1 + layout changes) · (1 + environment changes) · anchors).
    static func hasAnchorOffTheGrid(_ trace: Trace) -> Bool {
        layouts(of: trace).contains { g in
            g.panel.anchors.contains { entry in
                let x = g.rawPosition(of: entry.anchor)
                return g.rounded(x) != x
            }
        }
    }

    /// Every layout the trace can show: each of its panels (header, `invalidateLayout`) in each of
    /// its environments (header, environment samples), so that a rotation or a new layout that
    /// puts an anchor where a switch's trigger needs it counts as well.
    /// - Complexity: O((1 + layout changes) · (1 + environment changes)) geometries.
    static func layouts(of trace: Trace) -> [LayoutGeometry] {
        var panels = [trace.header.panel], environments = [trace.header.environment]
        for s in trace.samples {
            switch s.kind {
            case let .call(.invalidateLayout(p)): panels.append(p)
            case let .environment(e): environments.append(e)
            default: break
            }
        }
        return panels.flatMap { panel in environments.map { LayoutGeometry(panel: panel, environment: $0) } }
    }

    /// The trace tracks a scroll view at some time (header `scrollView` or a `track` call).
    static func hasTrackedList(_ trace: Trace) -> Bool {
        trace.header.scrollView != nil || trace.samples.contains { if case .call(.track) = $0.kind { return true } else { return false } }
    }

    /// The trace calls `move(to:animated: true)` or `show(animated: true)` (a spring between
    /// states: `show` on a presented panel moves it to its initial state, §5.2).
    static func hasAnimatedMove(_ trace: Trace) -> Bool {
        trace.samples.contains {
            switch $0.kind {
            case .call(.move(_, true)), .call(.show(true)): return true
            default: return false
            }
        }
    }

    /// `violations` without those of rules that do not hold at `trace`'s profile point (`holds`).
    static func atProfilePoint(_ violations: [InvariantViolation], _ trace: Trace) -> [InvariantViolation] {
        guard trace.header.profile != nil else { return violations }
        return violations.filter { holds($0, for: trace) }
    }
}
