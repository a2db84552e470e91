import PanelSimCore
import PanelTrace

/// A seeded generator of random but valid DrawerKit traces (drawerkit.md §2): a random device
/// (container, safe area, display scale, frame rate) and `drawer` section within the contract
/// (partial and collapsed heights, presentation, status bar height, participants, UIControls, a
/// pull-to-dismiss list, every configuration field — durations, timing curves, full-expansion
/// behaviours, partial expansion and stages, draggability, tap recognizers and counts, flick
/// threshold, mark gaps, corner radius and option, handle view, passthrough states — and the
/// simulator options), and a random timeline: drags (slow, flicks, reversals, sideways, paused,
/// cancelled, with a second finger) on the drawer and on the list, holds, taps inside and outside
/// (single and multi-taps), `setDrawerState` (with and without completion), `present`, `dismiss`,
/// `tapDrawer`, `tapOutside` and container changes, at any moment (also during transitions and
/// drags).
///
/// The same seed always gives the same trace (`SplitMix64`); every trace is written and read back
/// (`SoakTraceFile.roundTrip`).
public enum DrawerKitSoakGenerator {
    /// The trace of `seed`, named `soak-<seed>`.
    /// - Parameter setDrawerState: false for a version without the call (DK-G1 closed, profiles.md
    ///   §3.3.2): the timeline's calls are then drawn from the others (same seed, same trace
    ///   otherwise up to the first such call).
    public static func trace(seed: UInt64, setDrawerState: Bool = true) -> Trace {
        var b = DrawerKitTraceBuilder(draw: Draw(seed: seed ^ 0xD4A3_E5D4_A3E5_0001), setDrawerState: setDrawerState)
        return SoakTraceFile.roundTrip(b.build(seed: seed), seed: seed)
    }
}

private struct DrawerKitTraceBuilder {
    var draw: Draw
    /// The version has `setDrawerState` (DK-G1).
    var setDrawerState = true

    mutating func build(seed: UInt64) -> Trace {
        let env = draw.environment()
        let drawer = makeDrawer(env)
        var header = TraceHeader(name: "soak-\(seed)", environment: env, drawer: drawer)
        SoakTraceFile.describe(&header, seed: seed, draw: &draw)
        return Trace(header: header, samples: makeTimeline(drawer, env))
    }

    mutating func makeDrawer(_ env: PanelEnvironment) -> DrawerConfiguration {
        let h = env.container.height
        var d = DrawerConfiguration(heightOfPartiallyExpandedDrawer: draw.chance(0.9) ? draw.points(80, h * 0.8) : draw.points(-50, h + 80))
        if draw.chance(0.4) { d.heightOfCollapsedDrawer = draw.chance(0.85) ? draw.points(30, 220) : draw.points(-30, h) }
        d.presented = draw.chance(0.8)
        if draw.chance(0.2) { d.statusBarHeight = draw.points(0, 60) }
        switch draw.int(0, 5) {
        case 0: d.participantPresenting = true; d.participantPresented = false
        case 1: d.participantPresenting = true; d.participantPresented = true
        case 2: d.participantPresented = false
        default: break
        }
        if draw.chance(0.2) {
            for _ in 0..<draw.int(1, 2) {
                d.controls.append(Rect(x: draw.points(0, env.container.width - 40), y: draw.points(0, 200),
                                       width: draw.points(20, 200), height: draw.points(20, 80)))
            }
        }
        if draw.chance(0.25) { d.scrollView = makeList(env) }
        d.initialState = draw.chance(0.5) ? nil : draw.pick([DrawerState.collapsed, .partiallyExpanded, .fullyExpanded])
        switch draw.int(0, 9) {
        case 0: d.totalDurationInSeconds = 0
        case 1, 2: d.totalDurationInSeconds = (draw.uniform(0.05, 1.2) * 1000).rounded() / 1000
        default: break
        }
        d.durationIsProportionalToDistanceTraveled = draw.chance(0.2)
        switch draw.int(0, 5) {
        case 0: d.timingCurveProvider = .linear
        case 1: d.timingCurveProvider = .dampingRatio(draw.pick([0.3, 0.5, 0.8, 1, 1.5, 3]))
        default: break
        }
        switch draw.int(0, 5) {
        case 0: d.fullExpansionBehaviour = .doesNotCoverStatusBar
        case 1: d.fullExpansionBehaviour = .leavesCustomGap(draw.points(0, 150))
        default: break
        }
        d.supportsPartialExpansion = draw.chance(0.8)
        d.dismissesInStages = draw.chance(0.7)
        d.isDrawerDraggable = draw.chance(0.92)
        d.isFullyPresentableByDrawerTaps = draw.chance(0.85)
        d.numberOfTapsForFullDrawerPresentation = draw.pick([1, 1, 1, 2, 0])
        d.isDismissableByOutsideDrawerTaps = draw.chance(0.85)
        d.numberOfTapsForOutsideDrawerDismissal = draw.pick([1, 1, 1, 2, 0])
        if draw.chance(0.3) { d.flickSpeedThreshold = draw.pick([0, 0.5, 1, 2, 5]) }
        if draw.chance(0.3) { d.upperMarkGap = draw.points(0, 150) }
        if draw.chance(0.3) { d.lowerMarkGap = draw.points(0, 150) }
        if draw.chance(0.3) { d.maximumCornerRadius = draw.pick([0, 8, 30]) }
        d.cornerAnimationOption = draw.pick([.maximumAtPartialY, .maximumAtPartialY, .alwaysShowBelowStatusBar, .none])
        if d.cornerAnimationOption == .alwaysShowBelowStatusBar && (d.statusBarHeight ?? env.safeArea.top) == 0 {
            d.cornerAnimationOption = .maximumAtPartialY   // Q14: invalid input
        }
        switch draw.int(0, 5) {
        case 0: d.handleAutoAnimatesDimming = nil
        case 1: d.handleAutoAnimatesDimming = false
        default: break
        }
        if draw.chance(0.4) {
            d.passthroughTouchesInStates = [DrawerState.collapsed, .partiallyExpanded, .fullyExpanded].filter { _ in draw.chance(0.5) }
        }
        if draw.chance(0.12) { d.midTransition = .shipped }
        if draw.chance(0.08) { d.springTiming = .physicalSpring }
        return d
    }

    /// A pull-to-dismiss list (drawer coordinates): usually a tall list below a header strip.
    mutating func makeList(_ env: PanelEnvironment) -> ScrollViewConfiguration {
        let w = env.container.width, h = env.container.height
        let y = draw.points(0, 120)
        var s = ScrollViewConfiguration(frame: Rect(x: 0, y: y, width: w, height: max(h - y - draw.points(0, 100), 40)),
                                        contentSize: Size(width: w, height: draw.chance(0.8) ? draw.points(h, 3000) : draw.points(50, h)))
        if draw.chance(0.3) { s.contentOffset = Point(x: 0, y: draw.points(-20, 400)) }
        if draw.chance(0.2) { s.contentInset = Insets(top: draw.points(0, 40), left: 0, bottom: 0, right: 0) }
        s.bounces = draw.chance(0.9)
        s.alwaysBounceVertical = draw.chance(0.2)
        return s
    }

    mutating func makeTimeline(_ d: DrawerConfiguration, _ env: PanelEnvironment) -> [TraceSample] {
        var tl = GestureTimeline(container: env.container)
        let w = env.container.width, h = env.container.height
        // Where the drawer may be: its named positions (drawerkit.md §3.1), for touches on and off it.
        let positions = d.anchorPositions(environment: env).map(\.1).filter { $0 < h }
        let touchRate = draw.pick([60.0, 120, 240, Double(env.frameRate)])
        var t = draw.uniform(0.02, 0.3)
        if !d.presented && draw.chance(0.8) { tl.call(.drawerCall(.present), at: t); t += draw.uniform(0, 0.9) }
        for _ in 0..<draw.int(1, 7) {
            // Often right after the previous action: during its transition.
            t += draw.chance(0.35) ? draw.uniform(0, 0.2) : draw.uniform(0.2, 1.5)
            let top = positions.isEmpty ? h / 2 : draw.pick(positions)
            switch draw.weighted([34, 8, 6, 8, 8, 16, 4, 4, 5, 4, 3]) {
            case 0:
                // A drag on the drawer (or where it may be).
                let start = Point(x: draw.points(10, w - 10), y: min(top + draw.points(-20, 220), h - 1))
                let kind = draw.int(0, 9)
                let begin = t
                t = tl.drag(&draw, from: start, at: t, rate: touchRate, flick: kind < 3, reversals: kind >= 8 ? draw.int(1, 3) : 0,
                            sideways: draw.chance(0.08), secondFinger: draw.chance(0.1))
                if draw.chance(0.2) { tl.call(.drawerCall(randomCall(d, env, positions)), at: draw.uniform(begin, t)) }
            case 1:
                // A drag in the pull-to-dismiss list, or anywhere.
                let y = d.scrollView.map { top + $0.frame.minY + draw.points(0, min($0.frame.size.height, 300)) } ?? draw.points(0, h)
                t = tl.drag(&draw, from: Point(x: draw.points(10, w - 10), y: min(y, h - 1)), at: t, rate: touchRate,
                            flick: draw.chance(0.3), reversals: draw.chance(0.2) ? 1 : 0, direction: draw.chance(0.7) ? 1 : -1)
            case 2:
                t = tl.hold(&draw, at: Point(x: draw.points(0, w), y: min(top + draw.points(-60, 200), h - 1)), from: t,
                            duration: draw.uniform(0.05, 0.9))
            case 3:
                // A tap (or two) on the drawer.
                let p = Point(x: draw.points(10, w - 10), y: min(top + draw.points(0, 260), h - 1))
                t = tl.tap(&draw, at: p, from: t)
                if draw.chance(0.4) { t = tl.tap(&draw, at: Point(x: p.x + 3, y: p.y - 2), from: t + draw.uniform(0.05, 0.4)) }
            case 4:
                // A tap (or two) above the drawer.
                let p = Point(x: draw.points(0, w), y: draw.points(0, max(top, 1)))
                t = tl.tap(&draw, at: p, from: t)
                if draw.chance(0.4) { t = tl.tap(&draw, at: p, from: t + draw.uniform(0.05, 0.4)) }
            case 5, 6:
                tl.call(.drawerCall(randomCall(d, env, positions)), at: t)
            case 7:
                tl.call(.drawerCall(.present), at: t)
            case 8:
                tl.call(.drawerCall(.dismiss), at: t)
            case 9:
                // A container change: a rotation or a resized window.
                var e = env
                e.container = draw.chance(0.5) ? Size(width: h, height: w) : Size(width: w, height: draw.points(h * 0.6, h * 1.2))
                tl.call(.environment(e), at: t)
                if draw.chance(0.5) { tl.call(.environment(env), at: t + draw.uniform(0.05, 1)) }
            default:
                // Two calls at nearly the same moment.
                tl.call(.drawerCall(randomCall(d, env, positions)), at: t)
                tl.call(.drawerCall(randomCall(d, env, positions)), at: t + draw.uniform(0, 0.1))
            }
        }
        return tl.samples(frameRate: env.frameRate)
    }

    mutating func randomCall(_ d: DrawerConfiguration, _ env: PanelEnvironment, _ positions: [Double]) -> DrawerCall {
        let w = env.container.width, h = env.container.height
        switch setDrawerState ? draw.weighted([10, 2, 2, 3, 3]) : draw.weighted([2, 2, 3, 3]) + 1 {
        case 0:
            return .setDrawerState(draw.pick(DrawerState.allCases), animated: draw.chance(0.8), completion: draw.chance(0.4))
        case 1: return .present
        case 2: return .dismiss
        case 3:
            let top = positions.isEmpty ? h / 2 : draw.pick(positions)
            return .tapDrawer(x: draw.chance(0.5) ? nil : draw.points(0, w), y: min(top + draw.points(-20, 300), h))
        default:
            return .tapOutside(x: draw.chance(0.5) ? nil : draw.points(0, w), y: draw.points(0, h))
        }
    }
}
