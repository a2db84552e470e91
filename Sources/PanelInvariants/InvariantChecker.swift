import PanelSimCore

/// One broken invariant of scenarios.md on one replay.
public struct InvariantViolation: Sendable, Equatable, CustomStringConvertible {
    /// The rule: `G1`–`G4`, `G6` (invariants) or `F1`–`F5` (event facts) of scenarios.md.
    public var rule: String
    /// The replay it was found on: `bottom` (the trace as given, whatever its position) or the
    /// mirror's position (`top`, `left`, `right`) for a mirrored bottom trace.
    public var variant: String
    /// Which check of the rule failed (a short name such as `bound` or `order`), so that a
    /// minimization keeps the same failure rather than any failure of the rule.
    public var kind: String
    /// What was seen, with times (s) and values.
    public var message: String
    public init(rule: String, variant: String, kind: String = "", message: String) {
        self.rule = rule; self.variant = variant; self.kind = kind; self.message = message
    }
    /// `rule@variant` (and `:kind`): what a minimization keeps failing.
    public var key: String { kind.isEmpty ? "\(rule)@\(variant)" : "\(rule)@\(variant):\(kind)" }
    public var description: String { "\(key): \(message)" }
}

/// What one check looked at, for tests that must see the checks run (not pass vacuously).
public struct InvariantCoverage: Sendable, Equatable {
    /// Frame pairs on which G3's bound was evaluated.
    public var g3Frames = 0
    /// Replays whose resting frame was checked against G1.
    public var g1Rests = 0
    /// Replays whose resting list was checked against G4.
    public var g4Rests = 0
    /// Programmatic `move`/`show`/`hide` calls checked against F1 and F3.
    public var calls = 0
    /// Attraction frames checked against F5.
    public var attractionFrames = 0
    /// Mirrors compared under G6.
    public var mirrors = 0
    public init() {}
    public static func += (a: inout InvariantCoverage, b: InvariantCoverage) {
        a.g3Frames += b.g3Frames; a.g1Rests += b.g1Rests; a.g4Rests += b.g4Rests; a.calls += b.calls
        a.attractionFrames += b.attractionFrames; a.mirrors += b.mirrors
    }
}

/// The invariants of scenarios.md asserted on any FloatingPanel replay: G1–G4 and the event facts
/// F1–F5 on one trace (`check`), and G6 by mirroring a bottom trace onto top, left and right
/// (`checkMirrors`, which also checks each mirror on its own). One implementation for the corpus
/// tests, the bounded random run of `swift test` and `panelsim soak`.
///
/// Where FloatingPanel itself breaks a rule as the spec describes it, the check is narrowed and the
/// narrowing cites the rule that allows it (see each check).
public enum InvariantChecker {
    /// Every rule this checker asserts.
    public static let rules = ["G1", "G2", "G3", "G4", "G6", "F1", "F2", "F3", "F4", "F5"]

    /// The simulator options of the checked replay: the `contentInset` channel on, so that G4 can
    /// measure the pinning offset from the inset FloatingPanel left (§3.10).
    public static var options: SimulationOptions {
        var o = SimulationOptions()
        o.recordContentInset = true
        return o
    }

    /// Replays `trace` and checks G1–G4 and F1–F5 on it.
    public static func check(_ trace: Trace, variant: String = "bottom") -> (violations: [InvariantViolation], coverage: InvariantCoverage) {
        let result = simulate(trace, options: options)
        return check(trace, result: result, variant: variant)
    }

    /// Checks G1–G4 and F1–F5 on `result`, the replay of `trace` (made with `options`, or at least
    /// with the `contentInset` channel for G4's pinning offset; without it G4 checks the lock only).
    public static func check(_ trace: Trace, result: SimulationResult, variant: String = "bottom") -> (violations: [InvariantViolation], coverage: InvariantCoverage) {
        var run = Run(trace: trace, result: result, variant: variant)
        run.checkAll()
        return (run.violations, run.coverage)
    }

    /// G6 and the checks of every mirror: `trace` (a bottom panel) is checked as is, then mirrored
    /// onto top, left and right; each mirror is checked on its own (G1–G4, F1–F5) and compared with
    /// the bottom replay (same events with their discrete payloads, same resting state, mirrored
    /// resting location). Traces of another position are checked alone.
    public static func checkAll(_ trace: Trace) -> (violations: [InvariantViolation], coverage: InvariantCoverage) {
        let reference = simulate(trace, options: options)
        var (violations, coverage) = check(trace, result: reference)
        guard trace.header.panel.position == .bottom, trace.header.model == .floatingPanel else { return (violations, coverage) }
        for position in [PanelPosition.top, .left, .right] {
            let mirror = Mirror(position: position, h: trace.header.environment.container.height)
            let mirrored = mirror.trace(trace)
            let result = simulate(mirrored, options: options)
            let (v, c) = check(mirrored, result: result, variant: position.rawValue)
            violations += v; coverage += c
            if let reason = g6Exemption(trace, position, reference: reference) { _ = reason; continue }
            coverage.mirrors += 1
            violations += checkMirror(trace, reference: reference, position: position, mirrored: mirrored, result: result)
        }
        return (violations, coverage)
    }

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
    public static func checkMirror(_ trace: Trace, reference: SimulationResult, position: PanelPosition,
                                   mirrored: Trace, result: SimulationResult) -> [InvariantViolation] {
        // Runs of didMove compare as one: pixel rounding (floatingpanel-core.md §0.2, half away from
        // zero) does not mirror, so an anchor on a half-pixel tie starts or ends a spring one pixel
        // off its mirror image and the settle test (§4.4) can take one frame more or less; the
        // number of per-frame didMove is not a target, decision or order of G6.
        let referenceSignature = collapsingMoves(signature(reference))
        var finalHeight = trace.header.environment.container.height
        for case let .environment(e) in trace.samples.map(\.kind) { finalHeight = e.container.height }
        var sig = collapsingMoves(signature(result))
        var restResult = result
        if sig != referenceSignature, position == .top || position == .left {
            var mirrorImage = options
            mirrorImage.mirrorImageArithmetic = true
            let counterfactual = simulate(mirrored, options: mirrorImage)
            let s = collapsingMoves(signature(counterfactual))
            if s == referenceSignature { sig = s; restResult = counterfactual }
        }
        if sig != referenceSignature {
            let i = (0..<min(sig.count, referenceSignature.count)).first { sig[$0] != referenceSignature[$0] } ?? min(sig.count, referenceSignature.count)
            let expected = i < referenceSignature.count ? referenceSignature[i] : "(end)"
            let actual = i < sig.count ? sig[i] : "(end)"
            return [InvariantViolation(rule: "G6", variant: position.rawValue, kind: "order",
                message: "event \(i) differs from the bottom replay: bottom \(expected), \(position.rawValue) \(actual)")]
        }
        // The resting state and location, when both replays come to rest. The location within one
        // device pixel: anchors are rounded to the pixel grid with ties away from zero
        // (layout-behavior §3, FloatingPanel `rounded(by:)`), which a mirror does not preserve
        // (an anchor at 542.5 on a 1× display rounds to 543, its mirror 124.5 to 125, not 124).
        if let rest = reference.lastFrame, let f = restResult.lastFrame, endsAtRest(trace, reference), endsAtRest(mirrored, restResult) {
            let pixel = 1 / trace.header.environment.displayScale
            if f.state != rest.state {
                return [InvariantViolation(rule: "G6", variant: position.rawValue, kind: "rest-state",
                    message: "rests in \(f.state), the bottom replay in \(rest.state)")]
            } else if !(rest.isDragging && finalHeight != trace.header.environment.container.height),
                      abs(f.location - Mirror(position: position, h: finalHeight).location(rest.location)) > pixel + 1e-9 {
                // (A drag abandoned in the hidden state, §4.1 step 1, leaves the surface on its
                // interaction constraint, whose constant is container-based and kept across a
                // container change (O16): measured from the top edge on both panels, it is not
                // the mirror image once the container's height changed.)
                return [InvariantViolation(rule: "G6", variant: position.rawValue, kind: "rest-location",
                    message: "rests at \(f.location), the mirror of the bottom replay's \(rest.location) is \(Mirror(position: position, h: finalHeight).location(rest.location))")]
            }
        }
        return []
    }

    /// True when the replay ended at rest: the settle budget did not run out (so no finger is down
    /// and nothing animates at its last frame) and an `end` sample, if any, did not cut it short.
    /// A replay that an `end` sample stops is at rest when the same trace without it (and without
    /// the samples after it, which the replay never reads) comes to rest by itself with exactly
    /// the same records: nothing was left to happen after the end (trace-format §1: `end`
    /// stops the replay at its time; §9 O1: otherwise it runs until nothing moves).
    static func endsAtRest(_ trace: Trace, _ result: SimulationResult) -> Bool {
        guard !result.budgetExceeded else { return false }
        guard let endIndex = trace.samples.firstIndex(where: { if case .end = $0.kind { return true } else { return false } }) else { return true }
        var free = trace
        free.samples = Array(trace.samples[..<endIndex])
        let unstopped = simulate(free, options: options)
        guard !unstopped.budgetExceeded else { return false }
        return Array(unstopped.records) == Array(simulate(trace, options: options).records)
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
    public static func g6Exemption(_ trace: Trace, _ position: PanelPosition, reference: SimulationResult? = nil) -> String? {
        let hasList = trace.header.scrollView != nil || trace.samples.contains { if case .call(.track) = $0.kind { return true } else { return false } }
        var layouts = [trace.header.panel]
        for case let .call(.invalidateLayout(p)) in trace.samples.map(\.kind) { layouts.append(p) }
        if hasList, layouts.contains(where: { $0.contentMode == .fitToBounds }) {
            return "layout-behavior §3.11: a list in a fitToBounds surface has no fixed mirror image"
        }
        if hasList, position == .left || position == .right, let reference {
            let scrollableNames = Set(trace.header.delegate.scrollableStates ?? layouts.map {
                LayoutGeometry(panel: $0, environment: trace.header.environment).mostExpandedState.name })
            let dragsInScrollable = reference.records.contains { r in
                if case let .event(_, .willBeginDragging(state)) = r { return scrollableNames.contains(state) }
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
            if layouts.contains(where: { $0.anchors.contains { if case .adaptive(_, _, _, .safeArea, _) = $0.anchor { return true } else { return false } } }) {
                return "floatingpanel-layout-behavior.md §8 item 3: top/left adaptive anchors ignore the safe-area inset"
            }
            // A list on a surface whose length changes (rotation, safe-area change or new layout:
            // the static length follows the most expanded anchor, §1.7): a list frame is given in
            // surface coordinates from the surface's top-left corner (trace-format §1.1), which
            // is the moving edge of a bottom/right panel but the far edge of a top/left one, so
            // the mirrored list drifts relative to the moving edge when the length changes.
            if hasList {
                var environments = [trace.header.environment]
                for case let .environment(e) in trace.samples.map(\.kind) { environments.append(e) }
                for panel in layouts { for environment in environments {
                    let g = LayoutGeometry(panel: Mirror(position: position, h: environment.container.height).panel(panel),
                                           environment: Mirror(position: position, h: environment.container.height).environment(environment))
                    let m0 = LayoutGeometry(panel: Mirror(position: position, h: trace.header.environment.container.height).panel(trace.header.panel),
                                            environment: Mirror(position: position, h: trace.header.environment.container.height).environment(trace.header.environment))
                    if abs(g.surfaceLength(at: g.position(of: g.mostExpandedState)) - m0.surfaceLength(at: m0.position(of: m0.mostExpandedState))) > 1e-9 {
                        return "layout-behavior §1.7: a top/left surface whose length changes moves a list framed from its far edge"
                    }
                } }
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
                case let .call(.track(c)): lists.append(c); current = c
                case .call(.untrack): current = nil
                case let .call(.setContentSize(_, h)):
                    if var c = current, let h { c.contentSize.height = h; lists.append(c); current = c }
                default: break
                }
            }
            var environments = [trace.header.environment]
            for case let .environment(e) in trace.samples.map(\.kind) { environments.append(e) }
            let mostNames = Set(layouts.map { LayoutGeometry(panel: $0, environment: trace.header.environment).mostExpandedState.name })
            let rewrites = environments.contains { $0.safeArea != Insets.zero }
                || (trace.header.delegate.scrollableStates ?? []).contains { !mostNames.contains($0) }
            if lists.contains(where: { c in
                c.contentSize.height + (rewrites ? 0 : c.contentInset.top) < c.frame.size.height
            }) {
                return "floatingpanel-core.md §3.6.2: a top/left list shorter than its bounds is measured from contentOffsetMax clamped at 0"
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
                case let .call(.track(c)): list = c
                case .call(.untrack): list = nil
                case let .call(.setContentSize(_, h)):
                    if let c = list, let h, h != c.contentSize.height {
                        return "§3.6.2: a top/left list's pinned edge is the end of its content, which a size change moves"
                    }
                    if var c = list { c.contentSize.height = h ?? c.contentSize.height; list = c }
                default: break
                }
            }
        }
        switch position {
        case .right:
            guard hasList else { return nil }
            var panels = [trace.header.panel]
            for case let .call(.invalidateLayout(p)) in trace.samples.map(\.kind) { panels.append(p) }
            for panel in panels {
                let geometry = LayoutGeometry(panel: panel, environment: trace.header.environment)
                let most = geometry.mostExpandedState.name
                if let states = trace.header.delegate.scrollableStates, states.contains(where: { $0 != most }) {
                    return "floatingpanel-core.md §3.10: a right panel's content-inset adjustment is written into contentInset.left"
                }
            }
            return nil
        case .left:
            var environments = [trace.header.environment]
            for case let .environment(e) in trace.samples.map(\.kind) { environments.append(e) }
            if environments.contains(where: { $0.safeArea.top != $0.safeArea.bottom }) {
                return "floatingpanel-layout-behavior.md §8 item 2: a left panel's attraction uses the opposite safe-area side"
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
            guard case let .event(_, e) = record else { return nil }
            switch e {
            case let .didChangeState(s): return "didChangeState(\(s))"
            case let .willEndDragging(_, p, t): return "willEndDragging(\(p)->\(t))"
            case let .didEndDragging(a): return "didEndDragging(\(a))"
            case let .willBeginAttracting(to): return "willBeginAttracting(\(to))"
            case let .shouldRemove(_, result): return "shouldRemove(\(result))"
            case let .shouldBeginDragging(result): return "shouldBeginDragging(\(result))"
            default: return e.name
            }
        }
    }
}

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
    private var abandonedSince: Microseconds = 0
    private var abandonedOpen = false

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
        checkCalls()
        checkAttractionFrames()
        checkDragFrames()
        checkG3()
    }

    // MARK: G1, G4 at rest

    mutating func checkRest() {
        guard endsAtRest, let last = result.lastFrame else { return }
        if last.isDragging, !abandonedDragAtEnd { fail("G2", "stuck", "the replay ends at rest with isDragging true (a drag that never ended)") }
        if last.isAttracting { fail("G2", "stuck", "the replay ends at rest with isAttracting true (an attraction that never ended)") }
        guard !last.isAttracting, !last.isDragging || abandonedDragAtEnd else { return }
        let geometry = finalGeometry
        var anchors = Set(geometry.panel.anchors.map { geometry.position(of: $0.state) } + [geometry.position(of: .hidden)])
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
        if !anchors.contains(where: { abs($0 - last.location) < 1e-9 }), !abandonedDragAtEnd, !interruptedAndNotTaken() {
            fail("G1", "rest", "rests at \(last.location) in \(last.state), not on an anchor (anchors at \(anchors.sorted()))")
        }
        // G4.
        guard let offset = last.contentOffset, let list = finalList else { return }
        coverage.g4Rests += 1
        let scrollable = trace.header.delegate.scrollableStates.map { $0.contains(last.state) } ?? (last.state == geometry.mostExpandedState.name)
        // A release exactly on an anchor unlocks the list whatever the state (floatingpanel-core.md
        // §4.1 step 7, endWithoutAttraction: "unlock()"), so after one the lock need not match the
        // state until something locks it again: exempt when the last event that sets the lock at
        // a rest is that release.
        let releasedOnAnchor = result.records.reversed().lazy.compactMap { r -> Bool? in
            guard case let .event(_, e) = r else { return nil }
            switch e {
            case .didEndDragging(let willAttract): return !willAttract
            case .didEndAttracting, .didRemove, .willBeginAttracting: return false
            default: return nil
            }
        }.first ?? false
        // shouldLooselyLock (§3.6.3: fitToBounds, content shorter than the bounds plus the offset
        // from the most expanded anchor) unlocks at the end of an attraction in any state (§4.5 step 3).
        let mostOffset = max(0, position.expandsTowardLowerCoordinate
            ? last.location - geometry.position(of: geometry.mostExpandedState)
            : geometry.position(of: geometry.mostExpandedState) - last.location)
        // Evaluated with the list as it was when the last attraction ended (a later setContentSize
        // changes nothing FloatingPanel decided then).
        let lastAttractionEnd = result.records.reversed().lazy.compactMap { r -> Microseconds? in
            if case let .event(t, .didEndAttracting) = r { return t } else { return nil }
        }.first
        let listAtEnd = lastAttractionEnd.flatMap { listAt($0) } ?? list
        let looselyLocked = geometry.panel.contentMode == .fitToBounds
            && position.mainDimension(listAtEnd.contentSize) < position.mainDimension(listAtEnd.frame.size) + mostOffset
        // `track(scrollView:)` neither locks nor unlocks (floatingpanel-core.md §2): a list tracked
        // after the panel last settled keeps the lock it was given until the next interaction.
        // The end of an attraction a drag release started decides nothing when the state is not
        // scrollable (§4.5 step 3 only unlocks; the lock was decided at endInteraction, §4.1 step
        // 4), so a list tracked while that attraction ran stays unlocked (§2 step 3).
        var dragReleaseEnds: Set<Microseconds> = []
        var releaseAttraction = false
        let events = result.records.compactMap { r -> (Microseconds, DelegateEvent)? in
            if case let .event(t, e) = r { return (t, e) } else { return nil }
        }
        for (k, (t, e)) in events.enumerated() {
            switch e {
            case .willBeginAttracting: releaseAttraction = k > 0 && events[k - 1].1 == .didEndDragging(willAttract: true)
            case .didEndAttracting:
                if releaseAttraction && !scrollable { dragReleaseEnds.insert(t) }
                releaseAttraction = false
            default: break
            }
        }
        let lastSettle = events.reversed().lazy.compactMap { (t, e) -> Microseconds? in
            switch e {
            case .didEndAttracting where dragReleaseEnds.contains(t): return nil
            case .didEndDragging, .didEndAttracting, .didChangeState, .didRemove: return t
            default: return nil
            }
        }.first ?? 0
        let trackedSinceSettle = trace.samples.contains { s in
            if case .call(.track) = s.kind { return s.time >= lastSettle } else { return false }
        }
        if last.scrollLocked != !scrollable, !releasedOnAnchor, !trackedSinceSettle, !(looselyLocked && last.scrollLocked == false),
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
           !(last.scrollLocked == true && abs(last.location - geometry.position(of: geometry.panel.anchors.first { $0.state.name == last.state }?.state ?? .hidden)) > 1e-9
             && removalInsideStateChange()),
           // An animation a touch stopped off its anchor decides the lock no more: a stopped
           // spring skips its completion (endAttraction(false), no updateScrollView, §4.7 step 1,
           // §5.1 step 5), a stopped property animator runs updateScrollView, which locks unless
           // offset(from: state) is 0 (§4.7 step 2); when that touch never becomes a drag (see G1)
           // nothing decides the lock again.
           // (With the app's clamp recipe the surface can be back on an anchor: the recipe runs
           // in the completion's didMove, after its updateScrollView, O14.)
           !(interruptedAndNotTaken() && (trace.header.delegate.didMove?.clamp != nil
               || !geometry.panel.anchors.contains { $0.state.name == last.state && abs(geometry.position(of: $0.state) - last.location) < 1e-9 })) {
            fail("G4", "lock", "rests in \(last.state) with scrollLocked \(last.scrollLocked.map(String.init) ?? "absent"), but the state is \(scrollable ? "" : "not ")scrollable")
        }
        // An offset the app put there (header, track, setContentOffset) that nothing moved since may
        // sit beyond the pin after FloatingPanel rewrote the inset (§3.10 step 5 [QUIRK]: the
        // safe-area update replaces contentInset and restores the offset): UIKit leaves it there.
        var appOffsets: [Double] = trace.header.scrollView.map { [position.main($0.contentOffset)] } ?? []
        for sample in trace.samples {
            switch sample.kind {
            case let .call(.track(c)): appOffsets.append(position.main(c.contentOffset))
            case let .call(.setContentOffset(x, y, _)):
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
        for case let .frame(f) in result.records {
            if let p = previousFrame, p.contentOffset != f.contentOffset || insetWhenSet == nil { insetWhenSet = f.contentInset; frameWhenSet = f.index }
            previousFrame = f
        }
        // Also an app's setContentSize (O9: UIKit keeps the offset) moves a top/left panel's pin,
        // the end of the content (§3.6.2).
        var pinMovedUnderRestingOffset = false
        if let before = insetWhenSet, let listThen = listAt(frameTime(frameWhenSet, frameRate: rate)), let now = last.contentInset {
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
        let pinnedByAttraction = lastAttraction.map { $0.contentOffset == offset && ioValues(io, frame: $0.index).holds(offset) } ?? false
        // A safe-area update remembers the offset and restores it with the setter (§3.10 steps 1
        // and 4), which stops a deceleration or a return to the edge (O9): an offset past the pin
        // at that moment stays there.
        // Only for an environment sample that changed the safe area: the update runs only then
        // (`update(safeAreaInsets:)`, "only if changed", §3.10).
        var restoredBySafeAreaUpdate = false
        var safeArea = trace.header.environment.safeArea
        var lastSafeAreaChange: Microseconds?
        for sample in trace.samples {
            if case let .environment(e) = sample.kind {
                if e.safeArea != safeArea { lastSafeAreaChange = sample.time }
                safeArea = e.safeArea
            }
        }
        if let te = lastSafeAreaChange {
            var atUpdate: Double?
            var changedAfter = false
            for case let .frame(f) in result.records {
                if f.index == due(te) || (atUpdate == nil && f.index > due(te)) { atUpdate = f.contentOffset }
                else if let a = atUpdate, f.index > due(te), f.contentOffset != a { changedAfter = true }
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
        let pinnedToEarlierOffset = io.values(after: frameTime(restSince - 1, frameRate: rate), through: frameTime(last.index, frameRate: rate)).holds(offset)
        if let inset = last.contentInset, !appOffsets.contains(offset), !pinMovedUnderRestingOffset, !pinnedByAttraction,
           !restoredBySafeAreaUpdate, !pinnedToEarlierOffset {
            let bounds = list.frame.size, size = list.contentSize
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
        for case let .event(_, e) in result.records {
            if e == .willRemove, case let .didChangeState(state)? = previous, trace.header.delegate.dismissIn.contains(state) { return true }
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
        for case let .event(_, e) in result.records {
            if case let .willEndDragging(_, proposed, target) = e { last = (proposed, target) }
            if case .willBeginDragging = e { last = nil }
        }
        guard let (proposed, target) = last, proposed != target else { return false }
        let scrollableProposed = trace.header.delegate.scrollableStates.map { $0.contains(proposed) } ?? (proposed == geometry.mostExpandedState.name)
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
            if case let .touch(t) = s.kind, t.id == 0, t.phase == .began || t.phase == .moved { return s.time } else { return nil }
        }
        var interruption: Microseconds?
        var previous: DelegateEvent?
        for case let .event(t, e) in result.records {
            if downs.contains(t) {
                if e == .didEndAttracting || (e.name == "didMove" && previous == .shouldBeginDragging(result: true)) { interruption = t }
            }
            previous = e
        }
        guard let t0 = interruption else { return false }
        var vetoed = false
        for case let .event(t, e) in result.records where t >= t0 {
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
                  if case let .touch(t) = s.kind, t.id == 0, t.phase == .began { return s.time <= t0 } else { return false }
              }), case let .touch(touchDown) = down.kind, let atDown = frame(at: due(down.time) - 1) else { return false }
        let origin = finalGeometryAt(down.time).surfaceFrame(at: atDown.location).origin
        let local = Point(x: touchDown.location.x - origin.x, y: touchDown.location.y - origin.y)
        let g = finalGeometry
        guard list.frame.contains(local), isScrollable(rest.state, at: .max), !touchDownInBand(local, surfaceAt: rest.location, g),
              let state = g.panel.anchors.first(where: { $0.state.name == rest.state })?.state else { return false }
        let edge = g.rounded(rest.location), anchor = g.position(of: state)
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
        for case let .frame(f) in result.records {
            if let p = previous, p.scrollLocked == false, f.scrollLocked == true { lockFrame = f }
            previous = f
        }
        // The last lock decision of FloatingPanel itself: a call (move's step 1 and end), a drag's
        // end or an attraction's end. A finger that moved after it while no drag began is a touch
        // the panel never took, whose scroll handler may have locked the list (also within the
        // frame of that decision, where no unlocked frame is written in between).
        let decisions = trace.samples.compactMap { s -> Microseconds? in if case .call = s.kind { return s.time } else { return nil } }
            + result.records.compactMap { r -> Microseconds? in
                guard case let .event(t, e) = r else { return nil }
                switch e { case .didEndDragging, .didEndAttracting, .willBeginDragging: return t; default: return nil }
            }
        // Only a sample at which case B's strict lock can have been taken counts (§3.7 case B,
        // not I: S, D ≤ 0, v toward hidden and allow false), for a touch that drives the scroll
        // pan (strictLockPossible).
        if let last = decisions.max(), trace.samples.contains(where: { s in s.time > last && strictLockPossible(s) }),
           !result.records.contains(where: { r in
            if case let .event(et, .willBeginDragging) = r { return et > last } else { return false }
        }), listAt(last) != nil, !(result.lastFrame?.isDragging ?? false) {
            return true
        }
        guard let f = lockFrame, !f.isDragging, !f.isAttracting else { return false }
        let t = frameTime(f.index, frameRate: rate)
        let t0 = frameTime(f.index - 1, frameRate: rate)
        guard trace.samples.contains(where: { s in s.time > t0 && s.time <= t && strictLockPossible(s) }) else { return false }
        if trace.samples.contains(where: { s in
            if case .call = s.kind { return s.time > t0 && s.time <= t } else { return false }
        }) { return false }
        return !result.records.contains { r in
            if case let .event(et, .willBeginDragging) = r { return et > t0 } else { return false }
        }
    }

    // MARK: G2, F1, F2, F4 on the event sequence

    /// Times of finger 0's `ended`/`cancelled` samples, ascending.
    var fingerLifts: [Microseconds] {
        trace.samples.compactMap { s -> Microseconds? in
            guard case let .touch(t) = s.kind, t.id == 0, t.phase == .ended || t.phase == .cancelled else { return nil }
            return s.time
        }
    }

    /// True when finger 0 is down at `t` (a `began` at or before t, no lift since).
    func fingerDown(at t: Microseconds) -> Bool {
        var down = false
        for s in trace.samples where s.time <= t {
            if case let .touch(touch) = s.kind, touch.id == 0 {
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
        var attracting = false, dragging = false
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
            case let .event(t, _): recordTime = t
            case let .frame(f): recordTime = frameTime(f.index, frameRate: rate)
            case .systemFrame: recordTime = 0
            }
            while let lift = lifts.first, lift < recordTime {
                lifts = lifts.dropFirst()
                if dragging && reported == "hidden" && !abandoned { abandoned = true; abandonedSince = lift; abandonedOpen = true }
            }
            switch record {
            case let .frame(f):
                if f.state != reported {
                    fail("F1", "frame-state", "frame \(f.index) shows state \(f.state), but the last didChangeState reported \(reported)")
                }
                if f.isAttracting != attracting {
                    fail("F2", "frame-attracting", "frame \(f.index) has isAttracting \(f.isAttracting) while the events say \(attracting)")
                }
                if f.isDragging != dragging {
                    fail("G2", "frame-dragging", "frame \(f.index) has isDragging \(f.isDragging) while the events say \(dragging)")
                }
            case let .event(t, e):
                func next(_ k: Int) -> DelegateEvent? {
                    guard i + k < records.count, case let .event(_, n) = records[i + k] else { return nil }
                    return n
                }
                func previous(_ k: Int) -> DelegateEvent? {
                    guard i - k >= 0, case let .event(_, n) = records[i - k] else { return nil }
                    return n
                }
                switch e {
                case .willBeginAttracting(let to):
                    if attracting { fail("G2", "pairing", "\(Run.seconds(t)): willBeginAttracting while an attraction is running") }
                    attracting = true
                    if next(1) != .didChangeState(state: to) {
                        fail("F2", "order", "\(Run.seconds(t)): willBeginAttracting(\(to)) is not followed at once by didChangeState(\(to)) but by \(next(1).map { "\($0)" } ?? "nothing")")
                    }
                case .didEndAttracting:
                    if !attracting { fail("G2", "pairing", "\(Run.seconds(t)): didEndAttracting without an attraction") }
                    attracting = false
                case .willBeginDragging:
                    if dragging { fail("G2", "pairing", "\(Run.seconds(t)): willBeginDragging inside a drag") }
                    dragging = true; dragClosedByRemove = false; closeAbandoned(at: t); abandoned = false
                case .willEndDragging(_, _, let target):
                    if !dragging && !dragClosedByRemove { fail("G2", "pairing", "\(Run.seconds(t)): willEndDragging outside a drag") }
                    lastTarget = target
                case .didEndDragging(let willAttract):
                    if !dragging && !dragClosedByRemove { fail("G2", "pairing", "\(Run.seconds(t)): didEndDragging outside a drag") }
                    // F4's own order: willEndDragging, didChangeState(target), didEndDragging(false).
                    // The app's dismissIn recipe runs inside that didChangeState (O14, synchronous),
                    // so a removal's events (from willRemove on) may sit between the last two; only
                    // when that didChangeState reports a state the recipe lists.
                    var back = willAttract ? 1 : 2
                    if !willAttract, previous(2).map({ if case .willEndDragging = $0 { return false } else { return true } }) ?? true {
                        var k = 2
                        while let e = previous(k) {
                            if case .willEndDragging = e { break }
                            k += 1
                        }
                        if previous(k) != nil, previous(k - 2) == .willRemove,
                           case let .didChangeState(state)? = previous(k - 1), trace.header.delegate.dismissIn.contains(state) { back = k }
                    }
                    guard case .willEndDragging(_, _, let target)? = previous(back) else {
                        fail("F4", "order", "\(Run.seconds(t)): didEndDragging(\(willAttract)) without willEndDragging just before it")
                        dragging = false; dragClosedByRemove = false
                        break
                    }
                    if willAttract {
                        if next(1) != .willBeginAttracting(to: target) {
                            fail("F2", "order", "\(Run.seconds(t)): didEndDragging(true) is not followed by willBeginAttracting(\(target)) but by \(next(1).map { "\($0)" } ?? "nothing")")
                        }
                    } else if previous(back - 1) != .didChangeState(state: target) {
                        fail("F4", "order", "\(Run.seconds(t)): didEndDragging(false) is not preceded by didChangeState(\(target)) but by \(previous(back - 1).map { "\($0)" } ?? "nothing")")
                    }
                    _ = lastTarget
                    dragging = false; dragClosedByRemove = false; closeAbandoned(at: t); abandoned = false
                case .willRemove:
                    // The removal's hide cancels a drag in the hidden state without ending it
                    // (§4.1 step 1): that drag stays open (abandoned). In any other state the
                    // drag ends (panningEnd's endInteraction, §4.1 step 4, then the removal path of
                    // step 5, or the cancel of §5.1 step 2): for an abandoned drag only when a
                    // later touch continued it and lifts now (the removal path of panningEnd); an
                    // app's removal cannot cancel a pan that already ended or was cancelled.
                    if dragging && (reported == "hidden" || (abandoned && !fingerLifts.contains(t))) {
                        if !abandoned { abandoned = true; abandonedSince = t; abandonedOpen = true }
                    } else if dragging { dragging = false; dragClosedByRemove = true }
                case .didChangeState(let s):
                    // A call's move(to:) cancelled a drag while the state was hidden: panningEnd
                    // returned at once (§4.1 step 1), so the drag stays open (abandoned) before
                    // the call's own didChangeState.
                    if dragging && !abandoned && reported == "hidden" && cancellingCalls.contains(t) && fingerDown(at: t) {
                        abandoned = true; abandonedSince = t; abandonedOpen = true
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
                abandoned = true; abandonedSince = lifts.first ?? 0; abandonedOpen = true
            }
            if attracting { fail("G2", "unpaired-end", "an attraction never ended (no didEndAttracting)") }
            if dragging && !abandoned { fail("G2", "unpaired-end", "a drag never ended (no didEndDragging or willRemove)") }
        }
        abandonedDragAtEnd = dragging && abandoned
        if abandonedOpen { abandonedDrags.append(abandonedSince...Microseconds.max); abandonedOpen = false }
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
            guard case let .call(call) = sample.kind else { continue }
            let target: PanelState
            switch call {
            case let .move(to, _): target = to
            case .hide: target = .hidden
            case .show: target = finalGeometryAt(sample.time).panel.initialState
            default: continue
            }
            guard isUniqueCallTime(sample.time, index: index) else { continue }
            coverage.calls += 1
            let t = sample.time
            // The state of the pairings before the call's events, and the call's own events.
            var attracting = false, dragging = false
            var own: [DelegateEvent] = []
            var touchedAfter = false
            for record in records {
                guard case let .event(et, e) = record else { continue }
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
                } else { touchedAfter = true; break }
            }
            _ = touchedAfter
            if !own.contains(.didChangeState(state: target.name)) {
                fail("F1", "call", "\(Run.seconds(t)): \(describe(call)) reports no didChangeState(\(target.name)) (its events: \(own.map(\.name)))")
            }
            if case .move = call {
                // A drag is cancelled only while its touch is down (an abandoned drag, §4.1 step 1, has none).
                let abandonedDrag = abandonedDrags.contains { $0.contains(t) }
                if dragging, !abandonedDrag, fingerDown(at: t), !own.contains(where: { $0 == .didEndDragging(willAttract: true) || $0 == .didEndDragging(willAttract: false) || $0 == .willRemove }) {
                    fail("F3", "drag", "\(Run.seconds(t)): move(to:) during a drag does not end it (its events: \(own.map(\.name)))")
                }
                if attracting, !own.contains(.didEndAttracting) {
                    fail("F3", "attraction", "\(Run.seconds(t)): move(to:) during an attraction does not interrupt it (its events: \(own.map(\.name)))")
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
            if case let .touch(touch) = s.kind, touch.id == 0, touch.phase == .began { touchEnd = s.time; break }
        }
        for record in records {
            guard case let .event(et, e) = record, et > t, et < touchEnd else { continue }
            if case .willBeginDragging = e {
                fail("F3", "drag-again", "\(Run.seconds(et)): the touch whose drag move(to:) cancelled at \(Run.seconds(t)) drags the panel again")
                return
            }
        }
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

    func describe(_ call: PanelCall) -> String {
        switch call {
        case let .move(to, animated): return "move(to: \(to.name), animated: \(animated))"
        case let .show(animated): return "show(animated: \(animated))"
        case let .hide(animated): return "hide(animated: \(animated))"
        default: return "\(call)"
        }
    }

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
            guard case let .event(t, e) = record else { continue }
            while let s = showTimes.first, s <= t { removed = false; showTimes = showTimes.dropFirst() }
            switch e {
            case .didRemove: removed = true; begin = nil
            case .willBeginAttracting: begin = removed ? nil : (t, i)
            case .didEndAttracting:
                defer { begin = nil }
                guard let (t0, i0) = begin, !removed else { continue }
                // didMove times between the two events.
                var moves: [Microseconds: Int] = [:]
                for k in i0..<i { if case let .event(mt, .didMove) = records[k] { moves[mt, default: 0] += 1 } }
                var k = Int((t0 * Int64(rate)) / 1_000_000)
                while frameTime(k, frameRate: rate) <= t0 { k += 1 }
                while frameTime(k, frameRate: rate) < t {
                    coverage.attractionFrames += 1
                    if moves[frameTime(k, frameRate: rate), default: 0] == 0 {
                        fail("F5", "attraction", "attraction from \(Run.seconds(t0)) to \(Run.seconds(t)): no didMove at frame \(k) (\(Run.seconds(frameTime(k, frameRate: rate))))")
                        break
                    }
                    k += 1
                }
                // Settled (didEndAttracting right after a didMove at its own time): the step's and
                // the completion's didMove.
                if i > 0, case let .event(pt, .didMove) = records[i - 1], pt == t, frameTime(k, frameRate: rate) == t,
                   moves[t, default: 0] < 2 {
                    fail("F5", "attraction", "attraction settling at \(Run.seconds(t)) reports \(moves[t, default: 0]) didMove at its last frame, expected the step's and the completion's")
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
            guard case let .frame(f) = record else { continue }
            defer { previous = (f, i) }
            guard let (p, pi) = previous, p.isDragging, f.isDragging, !p.isAttracting, !f.isAttracting,
                  p.location != f.location else { continue }
            if otherTimes.contains(where: { due($0) > p.index && due($0) <= f.index }) { continue }
            var moved = false
            // A drag that ended and a new one that began between the two frames: the new drag's
            // first accepted sample only sets its baseline (F5), from the rounded frame edge
            // (core §3.3 step 5, §1.6), with no didMove: the surface moves by at most a pixel of
            // rounding plus the over-scroll shift startInteraction adds (§3.3 step 2b, top/bottom
            // panels only, shift.y [QUIRK]).
            var restarted = false
            for k in pi..<i {
                if case .event(_, .didMove) = records[k] { moved = true; break }
                if case .event(_, .willBeginDragging) = records[k] { restarted = true }
            }
            if restarted && !moved {
                var shift = 0.0
                if position.isVertical, let list = listAt(frameTime(f.index, frameRate: rate)) {
                    for frame in [p, f] {
                        guard let o = frame.contentOffset, let inset = frame.contentInset ?? f.contentInset ?? p.contentInset else { continue }
                        let od = o - pinningOffset(list, inset)
                        if position == .bottom ? od < 0 : od > 0 { shift = max(shift, abs(od)) }
                    }
                }
                // A left panel's attraction set-up in between (the old drag's release) reads the
                // surface back offset by S.left − S.right (layout-behavior §8 item 2 [QUIRK]), and
                // the new drag starts from that frame edge.
                var quirk = 0.0
                if position == .left, records[pi..<i].contains(where: { if case .event(_, .willBeginAttracting) = $0 { return true } else { return false } }) {
                    let safe = finalGeometryAt(frameTime(f.index, frameRate: rate)).environment.safeArea
                    quirk = abs(safe.left - safe.right)
                }
                let pixel = 1 / trace.header.environment.displayScale
                if abs(f.location - p.location) > pixel + shift + quirk + 1e-9 {
                    fail("F5", "drag", "a new drag moved the surface from \(p.location) to \(f.location) between frames \(p.index) and \(f.index) without didMove, more than a pixel and the over-scroll shift (\(shift))")
                }
                continue
            }
            if restarted { continue }
            if !moved {
                fail("F5", "drag", "the drag moved the surface from \(p.location) to \(f.location) between frames \(p.index) and \(f.index) without didMove")
            }
        }
    }

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
            // list never scrolls, issue 18 part 1.)
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
                    fail("G3", "bound", "frame \(k) (\(Run.seconds(tk))): |Δsurface| \(abs(ds)) + |ΔO| \(abs(dO)) > |Δfinger| \(abs(df)) + \(slack)")
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
