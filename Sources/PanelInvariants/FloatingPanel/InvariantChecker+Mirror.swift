import PanelSimCore

extension InvariantChecker {
    /// G6 for one mirror: `mirrored` (normally `Mirror(position:h:).trace(trace)`) replayed as
    /// `result` is compared with `reference`, the replay of the bottom trace `trace`: the same
    /// events with their discrete payloads, and when both come to rest the same state and the
    /// mirrored location within a device pixel. `g6Exemption` is not consulted.
    ///
    /// Where FloatingPanel's own arithmetic on a top/left panel is not the mirror image of a bottom
    /// panel's, a mirror may legitimately take another course. There are three such rules
    /// (`SimulationOptions.mirrorImageArithmetic`): the pixel rounding of the frame edge
    /// (FloatingPanel `Extensions.swift`, `rounded(by:)`: truncation toward zero at 1e-9, then half
    /// away from zero; on the positive coordinates of every panel both go toward higher
    /// coordinates; core §0.2, §1.6/O2), startInteraction's inset-area test (`Core.swift`,
    /// `startInteraction`: `case .top, .left` adds `contentOffsetMax` where `.bottom, .right` adds
    /// −adjustedContentInset.top/left; core §3.3 step 2b) and the interaction constraint, tied to
    /// the container's top/left edge for every position across a container change (`Layout.swift`,
    /// `LayoutAdapter.startInteraction`; core O16). A top/left mirror whose events differ is
    /// replayed again with exactly those rules replaced by their mirror image; if that replay's
    /// events are the bottom one's, the difference was theirs, and the rest is compared on it.
    /// Anything else still fails.
    public static func checkMirror(
        _ trace: Trace, reference: SimulationResult, position: PanelPosition,
        mirrored: Trace, result: SimulationResult
    ) -> [InvariantViolation] {
        // Runs of didMove compare as one: pixel rounding (floatingpanel-core.md §0.2, half away from
        // zero) does not mirror, so an anchor on a half-pixel tie starts or ends a spring one pixel
        // off its mirror image and the settle test (§4.4) can take one frame more or less; the
        // number of per-frame didMove is not a target, decision or order of G6.
        let referenceSignature = collapsingMoves(signature(reference))
        var finalHeight = trace.header.environment.container.height
        for case .environment(let e) in trace.samples.map(\.kind) { finalHeight = e.container.height }
        var sig = collapsingMoves(signature(result))
        var restResult = result
        if sig != referenceSignature, position == .top || position == .left {
            var mirrorImage = options
            mirrorImage.mirrorImageArithmetic = true
            let counterfactual = simulate(mirrored, options: mirrorImage)
            let s = collapsingMoves(signature(counterfactual))
            if s == referenceSignature {
                sig = s
                restResult = counterfactual
            }
        }
        if sig != referenceSignature {
            let i =
                (0..<min(sig.count, referenceSignature.count)).first { sig[$0] != referenceSignature[$0] }
                ?? min(sig.count, referenceSignature.count)
            let expected = i < referenceSignature.count ? referenceSignature[i] : "(end)"
            let actual = i < sig.count ? sig[i] : "(end)"
            return [
                InvariantViolation(
                    rule: "G6", variant: position.rawValue, kind: "order",
                    message:
                        "event \(i) differs from the bottom replay: bottom \(expected), \(position.rawValue) \(actual)")
            ]
        }
        // The resting state and location, when both replays come to rest. The location within one
        // device pixel: anchors are rounded to the pixel grid with ties away from zero
        // (layout-behavior §3, FloatingPanel `rounded(by:)`), which a mirror does not preserve
        // (an anchor at 542.5 on a 1× display rounds to 543, its mirror 124.5 to 125, not 124).
        if let rest = reference.lastFrame, let f = restResult.lastFrame, endsAtRest(trace, reference),
            endsAtRest(mirrored, restResult)
        {
            let pixel = 1 / trace.header.environment.displayScale
            if f.state != rest.state {
                return [
                    InvariantViolation(
                        rule: "G6", variant: position.rawValue, kind: "rest-state",
                        message: "rests in \(f.state), the bottom replay in \(rest.state)")
                ]
            } else if !(rest.isDragging && finalHeight != trace.header.environment.container.height),
                abs(f.location - Mirror(position: position, h: finalHeight).location(rest.location)) > pixel + 1e-9
            {
                // (A drag abandoned in the hidden state, §4.1 step 1, leaves the surface on its
                // interaction constraint, whose constant is container-based and kept across a
                // container change (O16): measured from the top edge on both panels, it is not
                // the mirror image once the container's height changed.)
                return [
                    InvariantViolation(
                        rule: "G6", variant: position.rawValue, kind: "rest-location",
                        message:
                            "rests at \(f.location), the mirror of the bottom replay's \(rest.location) is \(Mirror(position: position, h: finalHeight).location(rest.location))"
                    )
                ]
            }
        }
        return []
    }

    /// Why G6 is not asserted for `trace` mirrored onto `position` (nil: it is). Each reason is a
    /// mirror FloatingPanel itself breaks, with the rule that breaks it:
    /// * right, a tracked list and a scrollable state below the most expanded one: §3.10
    ///   (floatingpanel-core.md) `adjustScrollContentInsetIfNeeded` writes a right panel's offset
    ///   into `contentInset.left`, which moves the pinning offset (−inset.left);
    /// * left, with different left and right safe-area insets on the mirror at any time:
    ///   layout-behavior §8 item 2, the left panel's attraction set-up uses the opposite safe-area
    ///   side, so the surface jumps by left − right while attracting and an interrupted attraction
    ///   hands a different location to the next drag.
    /// * any position, a list in a `fitToBounds` surface: the list's frame is fixed relative to the
    ///   surface's top while the moving edge's distance to it changes with the surface length
    ///   (layout-behavior §3.11), so a bottom list has no fixed mirror image;
    /// * left or right, a list and a drag that begins in a scrollable state: FloatingPanel adds the
    ///   over-scroll shift's y for every position (floatingpanel-core.md §3.3 step 5 [QUIRK]), so a
    ///   hand-off from an over-scrolled list shifts a bottom panel and not a horizontal one.
    public static func g6Exemption(_ trace: Trace, _ position: PanelPosition, reference: SimulationResult? = nil)
        -> String?
    {
        let hasList =
            trace.header.scrollView != nil
            || trace.samples.contains { if case .call(.track) = $0.kind { return true } else { return false } }
        var layouts = [trace.header.panel]
        for case .call(.invalidateLayout(let p)) in trace.samples.map(\.kind) { layouts.append(p) }
        if hasList, layouts.contains(where: { $0.contentMode == .fitToBounds }) {
            return "layout-behavior §3.11: a list in a fitToBounds surface has no fixed mirror image"
        }
        if hasList, position == .left || position == .right, let reference {
            let scrollableNames = Set(
                trace.header.delegate.scrollableStates
                    ?? layouts.map {
                        LayoutGeometry(panel: $0, environment: trace.header.environment).mostExpandedState.name
                    })
            let dragsInScrollable = reference.records.contains { r in
                if case .event(_, .willBeginDragging(let state)) = r { return scrollableNames.contains(state) }
                return false
            }
            if dragsInScrollable {
                return "floatingpanel-core.md §3.3 step 5: the over-scroll shift's y is added for every position"
            }
        }
        if position == .top || position == .left {
            // An adaptive anchor with the safe-area guide: on top/left panels position(for:) ignores
            // the safe-area inset (floatingpanel-layout-behavior.md §8 item 3 [QUIRK]), so its
            // mirror image sits the safe inset away from the bottom panel's.
            if layouts.contains(where: {
                $0.anchors.contains {
                    if case .adaptive(_, _, _, .safeArea, _) = $0.anchor { return true } else { return false }
                }
            }) {
                return
                    "floatingpanel-layout-behavior.md §8 item 3: top/left adaptive anchors ignore the safe-area inset"
            }
            // A list on a surface whose length changes (rotation, safe-area change or new layout:
            // the static length follows the most expanded anchor, §1.7): a list frame is given in
            // surface coordinates from the surface's top-left corner (trace-format §1.1), which
            // is the moving edge of a bottom/right panel but the far edge of a top/left one, so
            // the mirrored list drifts relative to the moving edge when the length changes.
            if hasList {
                var environments = [trace.header.environment]
                for case .environment(let e) in trace.samples.map(\.kind) { environments.append(e) }
                for panel in layouts {
                    for environment in environments {
                        let g = LayoutGeometry(
                            panel: Mirror(position: position, h: environment.container.height).panel(panel),
                            environment: Mirror(position: position, h: environment.container.height).environment(
                                environment))
                        let m0 = LayoutGeometry(
                            panel: Mirror(position: position, h: trace.header.environment.container.height).panel(
                                trace.header.panel),
                            environment: Mirror(position: position, h: trace.header.environment.container.height)
                                .environment(trace.header.environment))
                        if abs(
                            g.surfaceLength(at: g.position(of: g.mostExpandedState))
                                - m0.surfaceLength(at: m0.position(of: m0.mostExpandedState))) > 1e-9
                        {
                            return
                                "layout-behavior §1.7: a top/left surface whose length changes moves a list framed from its far edge"
                        }
                    }
                }
            }
            // A list whose content and trailing inset are shorter than its bounds: a top/left panel
            // measures the content from contentOffsetMax = max(size + inset.trail − bounds, 0)
            // (§3.6.2, also in allowScrollPanGesture), clamped at 0, while a bottom panel measures
            // from −inset.top; the clamp has no mirror image. The mirror's trailing inset is the
            // bottom list's inset.top until FloatingPanel rewrites it (§3.10: the safe-area update
            // leaves only the position-side inset, trail 0; the adjustment writes the list's own
            // safe-area insets, ≥ 0), so with a rewrite possible (a safe area in any environment,
            // or a scrollable state other than the most expanded one) the clamp needs only
            // size < bounds.
            var lists: [ScrollViewConfiguration] = trace.header.scrollView.map { [$0] } ?? []
            var current = trace.header.scrollView
            for s in trace.samples {
                switch s.kind {
                case .call(.track(let c)):
                    lists.append(c)
                    current = c
                case .call(.untrack): current = nil
                case .call(.setContentSize(_, let h)):
                    if var c = current, let h {
                        c.contentSize.height = h
                        lists.append(c)
                        current = c
                    }
                default: break
                }
            }
            var environments = [trace.header.environment]
            for case .environment(let e) in trace.samples.map(\.kind) { environments.append(e) }
            let mostNames = Set(
                layouts.map { LayoutGeometry(panel: $0, environment: trace.header.environment).mostExpandedState.name })
            let rewrites =
                environments.contains { $0.safeArea != Insets.zero }
                || (trace.header.delegate.scrollableStates ?? []).contains { !mostNames.contains($0) }
            if lists.contains(where: { c in
                c.contentSize.height + (rewrites ? 0 : c.contentInset.top) < c.frame.size.height
            }) {
                return
                    "floatingpanel-core.md §3.6.2: a top/left list shorter than its bounds is measured from contentOffsetMax clamped at 0"
            }
        }
        // A content-size change of a tracked list on a top or left mirror: the mirror measures
        // the offset from the end of the content (the pinned edge of a top/left panel, §3.6.2),
        // and UIKit keeps `contentOffset` when the size changes, so the mirrored list's distance
        // from its pinned edge changes by the size difference while the bottom list's does not.
        // The mirror image of the bottom replay would need an offset change the app never made.
        if hasList, position == .top || position == .left {
            var list = trace.header.scrollView
            for s in trace.samples {
                switch s.kind {
                case .call(.track(let c)): list = c
                case .call(.untrack): list = nil
                case .call(.setContentSize(_, let h)):
                    if let c = list, let h, h != c.contentSize.height {
                        return
                            "§3.6.2: a top/left list's pinned edge is the end of its content, which a size change moves"
                    }
                    if var c = list {
                        c.contentSize.height = h ?? c.contentSize.height
                        list = c
                    }
                default: break
                }
            }
        }
        switch position {
        case .right:
            guard hasList else { return nil }
            var panels = [trace.header.panel]
            for case .call(.invalidateLayout(let p)) in trace.samples.map(\.kind) { panels.append(p) }
            for panel in panels {
                let geometry = LayoutGeometry(panel: panel, environment: trace.header.environment)
                let most = geometry.mostExpandedState.name
                if let states = trace.header.delegate.scrollableStates, states.contains(where: { $0 != most }) {
                    return
                        "floatingpanel-core.md §3.10: a right panel's content-inset adjustment is written into contentInset.left"
                }
            }
            return nil
        case .left:
            var environments = [trace.header.environment]
            for case .environment(let e) in trace.samples.map(\.kind) { environments.append(e) }
            if environments.contains(where: { $0.safeArea.top != $0.safeArea.bottom }) {
                return
                    "floatingpanel-layout-behavior.md §8 item 2: a left panel's attraction uses the opposite safe-area side"
            }
            return nil
        default:
            return nil
        }
    }

    /// `signature` with each run of consecutive `didMove` replaced by one.
    static func collapsingMoves(_ s: [String]) -> [String] {
        var out: [String] = []
        for e in s where !(e == "didMove" && out.last == "didMove") { out.append(e) }
        return out
    }

    /// Event names with their discrete payloads (states, targets, decisions); locations left out.
    public static func signature(_ r: SimulationResult) -> [String] {
        r.records.compactMap { record in
            guard case .event(_, let e) = record else { return nil }
            switch e {
            case .didChangeState(let s): return "didChangeState(\(s))"
            case .willEndDragging(_, let p, let t): return "willEndDragging(\(p)->\(t))"
            case .didEndDragging(let a): return "didEndDragging(\(a))"
            case .willBeginAttracting(let to): return "willBeginAttracting(\(to))"
            case .shouldRemove(_, let result): return "shouldRemove(\(result))"
            case .shouldBeginDragging(let result): return "shouldBeginDragging(\(result))"
            default: return e.name
            }
        }
    }
}
