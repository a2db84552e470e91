import PanelSimCore

extension Run {
    // MARK: G7 at rest

    /// G7 (profiles.md §4.2): at rest the surface is at its own state's anchor, `location` =
    /// pos(`state`) (G1 asks only for some anchor). Checked on the rests G1 checks, with G1's
    /// narrowings (an abandoned drag, an animation a touch stopped that no drag took) and two more
    /// that leave the surface where the app put it at every point:
    /// * the app's clamp recipe (O14) holds the surface at clamp(pos(state));
    /// * a removal the app started inside a state change is laid out by whatever changed the state
    ///   (§5.1 steps 4 and 6, see G4).
    ///
    /// The violation's kind names the cause, so that `InvariantChecker.holds` can keep the rule
    /// where an older version breaks it and nowhere else:
    /// * `exact-release`: the last drag ended exactly on an anchor of another state
    ///   (`didEndDragging(false)`, its target not the frame's state) and no `didChangeState`
    ///   followed (FP-S9 at 2.8.1);
    /// * `removed-state`: the frame's state has no anchor in the final layout (FP-S14 before 2.8.1);
    /// * `rest`: anything else.
    /// - Complexity: O(records + samples + anchors).
    mutating func checkG7() {
        guard endsAtRest, let last = result.lastFrame, !last.isAttracting, !last.isDragging, !abandonedDragAtEnd,
              !interruptedAndNotTaken(), !removalInsideStateChange() else { return }
        let geometry = finalGeometry
        coverage.g7Rests += 1
        let state: PanelState? = last.state == PanelState.hidden.name
            ? .hidden : geometry.panel.anchors.first { $0.state.name == last.state }?.state
        guard let state else {
            fail("G7", "removed-state", "rests at \(last.location) in \(last.state), a state without an anchor in the layout")
            return
        }
        let expected = geometry.position(of: state)
        if let clamp = trace.header.delegate.didMove?.clamp {
            let lo = geometry.position(of: clamp.min.state) + clamp.min.offset
            let hi = geometry.position(of: clamp.max.state) + clamp.max.offset
            if abs(min(max(expected, lo), hi) - last.location) < 1e-9 { return }
        }
        // Within 1e-9 pt, as G1.
        guard abs(expected - last.location) >= 1e-9 else { return }
        let kind = exactReleaseOntoOtherState(last.state) ? "exact-release" : "rest"
        fail("G7", kind, "rests at \(last.location) in \(last.state), whose anchor is at \(expected)")
    }

    /// True when the last drag ended without an attraction (`didEndDragging(false)`: released
    /// exactly on an anchor) targeting a state other than `state`, and no `didChangeState` came
    /// since its `willEndDragging` (before 2.7.0 the state change follows `didEndDragging`, from
    /// 2.7.0 it precedes it, FP-S7).
    func exactReleaseOntoOtherState(_ state: String) -> Bool {
        var target: String?
        var exactRelease = false, stateChanged = false
        for case let .event(_, e) in result.records {
            switch e {
            case let .willEndDragging(_, _, t): target = t; exactRelease = false; stateChanged = false
            case .didEndDragging(let willAttract): exactRelease = !willAttract
            case .didChangeState: stateChanged = true
            case .willBeginAttracting, .willBeginDragging: exactRelease = false
            default: break
            }
        }
        guard exactRelease, !stateChanged, let target else { return false }
        return target != state
    }
}
