import PanelSimCore
import PanelTrace

/// A seeded generator of random but valid FloatingPanel situations and gestures for the soak:
/// bottom panels (G6 mirrors them onto the other positions) on random containers,
/// safe areas, display scales and frame rates; random anchor sets of inset and intrinsic anchors
/// (absolute and fractional, both guides) with custom states; random behavior, backdrop,
/// removal and delegate answers (scrollable states, target overrides, removal answers, `didMove`
/// recipes, `dismissIn`); a tracked list with a random frame (under the grabber band or below a
/// header), insets, content size and offset, bouncing and deceleration; and a timeline of drags,
/// flicks, holds, reversals, second fingers, cancels, taps, programmatic calls at random moments
/// (also mid-drag), list calls, rotations and keyboard changes.
///
/// The same seed always gives the same trace (`SplitMix64`, no other source of randomness). Every
/// trace is written with `TraceWriter` and read back with `TraceLoader` before it is returned, so
/// it is a valid trace file as is. Calls are placed at times no other sample or display frame
/// shares, so that their own events can be told apart (F1, F3).
public enum SoakGenerator {
    /// The trace of `seed`, named `soak-<seed>`.
    public static func trace(seed: UInt64) -> Trace {
        var draw = Draw(seed: seed)
        var builder = Builder(draw: draw, seed: seed)
        let trace = builder.build()
        draw = builder.draw
        let text = TraceWriter.write(trace)
        do {
            return try TraceLoader.parse(text: text, file: "soak-\(seed).jsonl")
        } catch {
            // A generator bug, not a model bug: say so loudly in the trace itself.
            var broken = trace
            broken.header.description = "GENERATOR ERROR: \(error)"
            return broken
        }
    }
}

private struct Builder {
    var draw: Draw
    let seed: UInt64
    var environment = PanelEnvironment(container: Size(width: 390, height: 844))
    var states: [FloatingPanelState] = []
    /// Ids given to second fingers so far.
    var secondFingers = 0

    init(draw: Draw, seed: UInt64) {
        self.draw = draw
        self.seed = seed
    }

    mutating func build() -> Trace {
        environment = makeEnvironment()
        var panel = FloatingPanelConfiguration()
        panel.states = customStates()
        states = panel.states
        panel = makeLayout(panel)
        var header = TraceHeader(name: "soak-\(seed)", environment: environment, panel: panel)
        header.description = "panelsim soak seed \(seed)"
        header.source.kind = "synthetic"
        header.source.origin = "panelsim soak --seed \(seed) --count 1"
        header.delegate = makeDelegate(panel)
        header.recognizer.velocity = draw.chance(0.5) ? .recorded : draw.pick(VelocitySource.allCases)
        header.recognizer.beginThreshold = draw.chance(0.7) ? 10 : Double(draw.int(0, 20))
        if draw.chance(0.6) { header.scrollView = makeList(panel) }
        var samples = makeTimeline(header)
        // Anchors drawn 24 pt apart in one environment can coincide in another (a rotation or the
        // keyboard moves mixed-edge and safe-area anchors differently): a least and most expanded
        // anchor at one position is invalid input in any environment of a trace (core §9 O19,
        // trace-format's loader), and anchors whose on-screen order no longer follows their state
        // order break what FloatingPanel assumes of every layout (core §0.3: sorting is by order
        // only, "the code assumes that order is monotone with the on-screen coordinate"). Such an
        // environment or layout sample is dropped, so every trace describes a layout FloatingPanel
        // supports (no draw is consumed).
        do {
            var current = header
            samples = samples.filter { sample in
                var next = current
                switch sample.kind {
                case .environment(let e): next.environment = e
                case .call(.invalidateLayout(let p)): next.panel = p
                default: return true
                }
                guard (try? validate(next)) != nil, Self.ordersFollowCoordinates(next) else { return false }
                current = next
                return true
            }
        }
        Self.addAdaptiveAnchorsAndZeroSizeLists(&header, &samples, seed: seed)
        // The clamp recipe is drawn to keep every anchor inside it in the starting environment; a
        // rotation, safe-area change or new layout can reorder mixed-edge anchors so that its range
        // no longer holds them or is empty (min past max). No app writes such a clamp (O14's
        // recipe keeps the surface *between* two anchor locations), so it is dropped (no draw is
        // consumed: every other byte of the trace stays as drawn).
        if let clamp = header.delegate.didMove?.clamp, !Self.clampHoldsAnchors(clamp, header, samples) {
            header.delegate.didMove?.clamp = nil
            if header.delegate.didMove?.dismissBeyond == nil { header.delegate.didMove = nil }
        }
        return Trace(header: header, samples: samples)
    }

    /// Adaptive anchors and zero-size list frames, drawn from a stream of their own (so the rest of
    /// every trace stays the same as without them): adaptive anchors (FloatingPanelAdaptiveLayoutAnchor,
    /// floatingpanel-layout-behavior.md §3.4c: an absolute intrinsic anchor becomes an adaptive one
    /// with `contentLength` = intrinsicLength and the same position, bounded by no guide or the
    /// superview), and tracked lists with a zero-size frame (a `UIScrollView()` never laid out:
    /// it contains no touch). A change that leaves the layout invalid or its anchors out of state
    /// order in the header's environment is not made.
    static func addAdaptiveAnchorsAndZeroSizeLists(
        _ header: inout TraceHeader, _ samples: inout [TraceSample], seed: UInt64
    ) {
        var draw = Draw(seed: seed ^ 0x5EED_0018_0003_0000)
        func adaptive(_ panel: FloatingPanelConfiguration) -> FloatingPanelConfiguration {
            var p = panel
            p.anchors = p.anchors.map { entry in
                guard case .intrinsic(let d, false, let guide) = entry.anchor, draw.chance(0.6) else { return entry }
                let bounding: ContentBoundingGuide = draw.chance(0.7) ? .none : .superview
                return AnchorEntry(
                    state: entry.state,
                    anchor: .adaptive(
                        d, isFractional: false, contentLength: p.intrinsicLength, guide: guide, bounding: bounding))
            }
            return p
        }
        if draw.chance(0.8) {
            var candidate = header
            candidate.panel = adaptive(header.panel)
            if candidate.panel != header.panel, (try? validate(candidate)) != nil, ordersFollowCoordinates(candidate) {
                header = candidate
            }
        }
        if var list = header.scrollView, draw.chance(0.08) {
            list.frame = Rect(x: list.frame.minX, y: list.frame.minY, width: 0, height: 0)
            header.scrollView = list
        }
        for i in samples.indices {
            guard case .call(.track(var list)) = samples[i].kind, draw.chance(0.08) else { continue }
            list.frame = Rect(x: list.frame.minX, y: list.frame.minY, width: 0, height: 0)
            samples[i].kind = .call(.track(list))
        }
    }

    /// True when the anchors' positions in `header`'s environment strictly follow their state order
    /// (core §0.3): more expanded states lie further toward the expanding side.
    static func ordersFollowCoordinates(_ header: TraceHeader) -> Bool {
        let g = LayoutGeometry(panel: header.panel, environment: header.environment)
        let positions = g.sortedByOrder.map { g.position(of: $0) }  // least expanded first
        let lower = header.panel.position.expandsTowardLowerCoordinate
        return zip(positions, positions.dropFirst()).allSatisfy { lower ? $1 < $0 : $1 > $0 }
    }

    /// True when `clamp`'s range [pos(min.state) + min.offset, pos(max.state) + max.offset] holds
    /// every anchor of the panel in every environment and layout of the trace.
    static func clampHoldsAnchors(
        _ clamp: (min: StateOffset, max: StateOffset), _ header: TraceHeader, _ samples: [TraceSample]
    ) -> Bool {
        var panel = header.panel
        var environment = header.environment
        func holds() -> Bool {
            let g = LayoutGeometry(panel: panel, environment: environment)
            guard g.hasAnchor(clamp.min.state), g.hasAnchor(clamp.max.state) else { return false }
            let lo = g.position(of: clamp.min.state) + clamp.min.offset
            let hi = g.position(of: clamp.max.state) + clamp.max.offset
            return lo <= hi
                && panel.anchors.allSatisfy {
                    let p = g.position(of: $0.state)
                    return p >= lo && p <= hi
                }
        }
        if !holds() { return false }
        for sample in samples {
            switch sample.kind {
            case .environment(let e): environment = e
            case .call(.invalidateLayout(let p)): panel = p
            default: continue
            }
            if !holds() { return false }
        }
        return true
    }

    // MARK: Header

    mutating func makeEnvironment() -> PanelEnvironment {
        let devices: [(Double, Double, Insets)] = [
            (390, 844, Insets(top: 47, left: 0, bottom: 34, right: 0)),
            (375, 667, Insets(top: 20, left: 0, bottom: 0, right: 0)),
            (430, 932, Insets(top: 59, left: 0, bottom: 34, right: 0)),
            (320, 568, Insets(top: 20, left: 0, bottom: 0, right: 0)),
            (1024, 1366, Insets(top: 24, left: 0, bottom: 20, right: 0)),
            (844, 390, Insets(top: 0, left: 47, bottom: 21, right: 47)),
        ]
        var env: PanelEnvironment
        if draw.chance(0.7) {
            let d = draw.pick(devices)
            env = PanelEnvironment(container: Size(width: d.0, height: d.1), safeArea: d.2)
        } else {
            let w = Double(draw.int(280, 1400))
            let h = Double(draw.int(360, 1400))
            env = PanelEnvironment(
                container: Size(width: w, height: h),
                safeArea: Insets(
                    top: Double(draw.int(0, 60)), left: Double(draw.int(0, 50)),
                    bottom: Double(draw.int(0, 40)), right: Double(draw.int(0, 50))))
        }
        // Equal top and bottom safe areas often, so that G6 holds on the left mirror too.
        if draw.chance(0.35) { env.safeArea.bottom = env.safeArea.top }
        env.displayScale = draw.pick([1, 2, 3, 3, 2])
        env.frameRate = draw.pick([60, 120, 120, 30, 90, 240, 24])
        return env
    }

    mutating func customStates() -> [FloatingPanelState] {
        var out: [FloatingPanelState] = []
        for i in 0..<draw.int(0, 2) {
            var order = draw.int(1, 1500)
            while [1000, 500, 100, 0].contains(order) || out.contains(where: { $0.order == order }) { order += 1 }
            out.append(FloatingPanelState(name: "c\(i + 1)", order: order))
        }
        return out
    }

    /// A random layout of the given states (custom ones included) for a bottom panel.
    /// `keeping`: the anchor states of the new layout (an `invalidateLayout` keeps them, so that the
    /// delegate's recipes keep naming anchors); nil draws them.
    mutating func makeLayout(_ base: FloatingPanelConfiguration, keeping: [FloatingPanelState]? = nil)
        -> FloatingPanelConfiguration
    {
        var panel = base
        panel.position = .bottom
        var candidates = [FloatingPanelState.full, .half, .tip] + panel.states
        var chosen: [FloatingPanelState] = []
        if let keeping {
            chosen = keeping
        } else {
            let count = draw.int(1, min(4, candidates.count))
            for _ in 0..<count { chosen.append(candidates.remove(at: draw.int(0, candidates.count - 1))) }
            if draw.chance(0.12) { chosen.append(.hidden) }
        }
        chosen.sort { $0.order > $1.order }  // most expanded first: smallest y on a bottom panel
        let m = environment.container.height
        let s = environment.safeArea
        // Distinct positions at least 24 pt apart, ascending.
        var ys: [Double] = []
        let lo = m * 0.03
        let hi = m * 0.97
        for k in 0..<chosen.count {
            let remaining = Double(chosen.count - k - 1) * 24
            let from = (ys.last.map { $0 + 24 } ?? lo)
            let to = max(from + 1, hi - remaining)
            ys.append(draw.points(from, min(to, from + (to - from) * draw.uniform(0.2, 1))))
        }
        if chosen.last == .hidden, draw.chance(0.6) { ys[ys.count - 1] = max(ys[ys.count - 1], m) }
        panel.intrinsicLength = draw.points(m * 0.2, m * 0.9)
        panel.anchors = zip(chosen, ys).map { state, y in
            AnchorEntry(state: state, anchor: anchor(at: y, m: m, s: s, intrinsicLength: panel.intrinsicLength))
        }
        let shown = chosen.filter { $0 != .hidden }
        panel.initialState = draw.chance(0.9) && !shown.isEmpty ? draw.pick(shown) : draw.pick(chosen + [.hidden])
        panel.backdropAlpha = [:]
        for st in chosen where draw.chance(0.7) { panel.backdropAlpha[st.name] = Double(draw.int(0, 12)) / 20 }
        if draw.chance(0.25) { panel.contentMode = .fitToBounds }
        if draw.chance(0.3) { panel.grabberAreaOffset = Double(draw.int(0, 80)) }
        panel.removalInteractionEnabled = draw.chance(0.3)
        panel.dismissalTapEnabled = draw.chance(0.3)
        panel.presented = draw.chance(0.9)
        if draw.chance(0.5) {
            var b = PanelBehavior()
            b.springDecelerationRate = draw.pick([0.991, 0.98, 0.995, 0.97])
            b.springResponseTime = draw.pick([0.4, 0.2, 0.6, 0.3])
            b.momentumProjectionRate = draw.pick([0.998, 0.99, 0.995])
            b.redirectionalProgress = draw.pick([0.5, 0.2, 0.8, 0, 1])
            b.projectsMomentumTo = chosen.map(\.name).filter { _ in draw.chance(0.3) }
            b.rubberBandingEdges = ["top", "bottom"].filter { _ in draw.chance(0.4) }
            b.removalInteractionVelocityThreshold = draw.pick([5.5, 3, 8])
            panel.behavior = b
        }
        return panel
    }

    /// An anchor whose position on a bottom panel is `y` (pt): an inset from either edge with
    /// either guide, absolute or fractional, or an intrinsic offset.
    mutating func anchor(at y: Double, m: Double, s: Insets, intrinsicLength: Double) -> LayoutAnchor {
        switch draw.int(0, 5) {
        case 0: return .inset(y, isFractional: false, edge: .top, guide: .superview)
        case 1: return .inset(y - s.top, isFractional: false, edge: .top, guide: .safeArea)
        case 2: return .inset(m - y, isFractional: false, edge: .bottom, guide: .superview)
        case 3: return .inset(m - s.bottom - y, isFractional: false, edge: .bottom, guide: .safeArea)
        case 4:
            let d = m - s.top - s.bottom
            let f = ((m - s.bottom - y) / d * 10000).rounded() / 10000
            return .inset(f, isFractional: true, edge: .bottom, guide: .safeArea)
        default:
            // Intrinsic: pos = M − side − L + d.
            let guide: ReferenceGuide = draw.chance(0.5) ? .safeArea : .superview
            let side = guide == .safeArea ? s.bottom : 0
            let d = y - (m - side - intrinsicLength)
            if d < 0 { return .inset(m - y, isFractional: false, edge: .bottom, guide: .superview) }
            if draw.chance(0.5), intrinsicLength > 0 {
                return .intrinsic((d / intrinsicLength * 10000).rounded() / 10000, isFractional: true, guide: guide)
            }
            return .intrinsic(d, isFractional: false, guide: guide)
        }
    }

    mutating func makeDelegate(_ panel: FloatingPanelConfiguration) -> FloatingPanelDelegateConfiguration {
        var d = FloatingPanelDelegateConfiguration()
        let names = panel.anchors.map(\.state.name)
        d.shouldBeginDragging = draw.chance(0.92)
        if draw.chance(0.4) { d.scrollableStates = names.filter { _ in draw.chance(0.5) } }
        if draw.chance(0.12) { d.targetStateOverrides[draw.pick(names)] = draw.pick(names) }
        d.shouldRemove = draw.pick([.default, .default, .always, .never])
        let geometry = LayoutGeometry(panel: panel, environment: environment)
        if draw.chance(0.15), panel.anchors.count >= 2 {
            // A clamp that keeps every anchor inside it (app code that only limits overshoot).
            let top = geometry.leastCoordinateState
            let bottom = geometry.mostCoordinateState
            d.didMove = DidMoveRecipes(
                clamp: (
                    min: StateOffset(state: top, offset: -Double(draw.int(0, 40))),
                    max: StateOffset(state: bottom, offset: Double(draw.int(0, 60)))
                ))
        }
        if draw.chance(0.1) {
            var recipes = d.didMove ?? DidMoveRecipes()
            recipes.dismissBeyond = StateOffset(state: geometry.mostCoordinateState, offset: Double(draw.int(10, 100)))
            d.didMove = recipes
        }
        if draw.chance(0.05) { d.dismissIn = [draw.pick(names)] }
        return d
    }

    /// A random list inside the surface of the most expanded state.
    mutating func makeList(_ panel: FloatingPanelConfiguration) -> ScrollViewConfiguration {
        let geometry = LayoutGeometry(panel: panel, environment: environment)
        let length = max(geometry.surfaceLength(at: geometry.position(of: geometry.mostExpandedState)), 80)
        let width = environment.container.width - environment.safeArea.left - environment.safeArea.right
        let x = draw.chance(0.7) ? 0 : Double(draw.int(0, 20))
        let w = max(40, width - x - (draw.chance(0.7) ? 0 : Double(draw.int(0, 20))))
        let y: Double
        switch draw.int(0, 2) {
        case 0: y = 0  // under the grabber band
        case 1: y = Double(draw.int(1, Int(panel.grabberAreaOffset) + 10))
        default: y = Double(draw.int(36, 120))
        }
        let h = max(40, draw.points(min(100, length / 2), max(min(100, length / 2) + 1, length - y)))
        var frameHeight = h
        if y + frameHeight > length + 200 { frameHeight = max(40, length - y) }
        var c = ScrollViewConfiguration(
            frame: Rect(x: x, y: y, width: w, height: frameHeight),
            contentSize: Size(width: w, height: 0))
        c.contentSize.height = draw.chance(0.2) ? draw.points(0, frameHeight) : frameHeight + draw.points(0, 3000)
        if draw.chance(0.3) {
            c.contentInset = Insets(top: Double(draw.int(0, 60)), left: 0, bottom: Double(draw.int(0, 60)), right: 0)
        }
        let lo = -c.contentInset.top
        let hi = max(lo, c.contentSize.height + c.contentInset.bottom - frameHeight)
        switch draw.int(0, 3) {
        case 0: c.contentOffset = Point(x: 0, y: lo)
        case 1: c.contentOffset = Point(x: 0, y: 0)
        default: c.contentOffset = Point(x: 0, y: draw.points(lo, hi + 0.5))
        }
        c.bounces = draw.chance(0.85)
        c.alwaysBounceVertical = draw.chance(0.2)
        c.decelerationRate = draw.chance(0.8) ? 0.998 : 0.99
        return c
    }

    // MARK: Timeline

    typealias Pending = GestureTimeline.Pending

    mutating func makeTimeline(_ header: TraceHeader) -> [TraceSample] {
        var out: [Pending] = []
        let m = environment.container.height
        let w = environment.container.width
        let geometry = LayoutGeometry(panel: header.panel, environment: environment)
        let anchorYs = header.panel.anchors.map { geometry.position(of: $0.state) }
        var t: Double = draw.uniform(0.02, 0.3)
        var env = environment
        var panel = header.panel
        var lastLayoutTime: Microseconds = 0
        let touchRate = draw.pick([60.0, 120, 240, Double(environment.frameRate)])
        if !panel.presented {
            out.append(Pending(time: micros(t), kind: .call(.show(animated: draw.chance(0.7))), isCall: true))
            t += draw.uniform(0, 0.6)
        }
        let actions = draw.int(1, 5)
        for _ in 0..<actions {
            t += draw.chance(0.3) ? draw.uniform(0, 0.15) : draw.uniform(0.1, 1.2)
            switch draw.weighted([30, 14, 8, 8, 12, 5, 18, 4, 3, 8]) {
            case 0, 1, 4, 5:
                // Drag, flick, reversal, drag with a second finger.
                let kind = draw.int(0, 9)
                let start = touchStart(header: header, anchorYs: anchorYs, m: m, w: w)
                t = drag(
                    from: start, at: t, rate: touchRate, flick: kind < 3, reversals: kind >= 7 ? draw.int(1, 3) : 0,
                    secondFinger: draw.chance(0.12), into: &out, header: header)
                // A programmatic call in the middle of the gesture, sometimes.
                if draw.chance(0.15), let last = out.last {
                    let when = max(lastLayoutTime + 1, last.time - micros(draw.uniform(0, 0.3)))
                    out.append(Pending(time: when, kind: .call(programmaticCall(panel)), isCall: true))
                }
            case 2:
                // Hold: down, still (or under the threshold), up.
                let p = touchStart(header: header, anchorYs: anchorYs, m: m, w: w)
                out.append(touch(.began, p, t))
                if draw.chance(0.4) {
                    t += draw.uniform(0.05, 0.3)
                    out.append(touch(.moved, Point(x: p.x + 2, y: p.y + Double(draw.int(-4, 4))), t))
                }
                if draw.chance(0.3) { out.append(touch(.stationary, p, t)) }
                t += draw.uniform(0.1, 0.8)
                out.append(touch(draw.chance(0.9) ? .ended : .cancelled, p, t))
            case 3:
                let p = touchStart(header: header, anchorYs: anchorYs, m: m, w: w)
                out.append(touch(.began, p, t))
                t += draw.uniform(0.02, 0.1)
                out.append(touch(.ended, p, t))
            case 6:
                out.append(Pending(time: micros(t), kind: .call(programmaticCall(panel)), isCall: true))
            case 7:
                // Rotation: swap the container, rotate the safe area.
                let s = env.safeArea
                env.container = Size(width: env.container.height, height: env.container.width)
                env.safeArea =
                    draw.chance(0.5)
                    ? Insets(top: s.left, left: s.bottom, bottom: s.right, right: s.top)
                    : Insets(top: 0, left: 47, bottom: 21, right: 47)
                if env.container.height > env.container.width { env.safeArea = environment.safeArea }
                out.append(Pending(time: micros(t), kind: .environment(env), isCall: true))
            case 8:
                // Keyboard: the bottom safe area grows, or shrinks back.
                env.safeArea.bottom =
                    env.safeArea.bottom > 200 ? environment.safeArea.bottom : env.safeArea.bottom + 291
                out.append(Pending(time: micros(t), kind: .environment(env), isCall: true))
            default:
                let call = listCall(header, panel: &panel)
                if case .invalidateLayout = call { lastLayoutTime = micros(t) }
                out.append(Pending(time: micros(t), kind: .call(call), isCall: true))
            }
        }
        // Sort by time (stable: file order within a time), then give every call its own time.
        return GestureTimeline.placed(out, frameRate: environment.frameRate)
    }

    func micros(_ seconds: Double) -> Microseconds { Microseconds((seconds * 1_000_000).rounded()) }

    func touch(_ phase: TouchPhase, _ p: Point, _ t: Double, id: Int = 0, velocity: Point? = nil) -> Pending {
        Pending(
            time: micros(t), kind: .touch(TouchSample(phase: phase, id: id, location: p, velocity: velocity)),
            isCall: false)
    }

    /// Where a touch starts: in the grabber band of an anchor, inside the list, anywhere on the
    /// container (on the surface or not).
    mutating func touchStart(header: TraceHeader, anchorYs: [Double], m: Double, w: Double) -> Point {
        let x = draw.chance(0.8) ? draw.points(w * 0.2, w * 0.8) : draw.points(0, w)
        let y: Double
        switch draw.int(0, 3) {
        case 0: y = draw.pick(anchorYs) + draw.points(0, header.panel.grabberAreaOffset + 10)
        case 1:
            let base = draw.pick(anchorYs)
            if let sv = header.scrollView {
                y = base + draw.points(sv.frame.minY, sv.frame.maxY)
            } else {
                y = base + draw.points(0, 300)
            }
        case 2: y = draw.points(0, m)
        default: y = draw.pick(anchorYs) + draw.points(-20, 120)
        }
        return Point(x: x, y: min(max(y, 0), m - 0.5))
    }

    /// A drag from `start` at time `t` (s): moved samples at `rate` Hz, monotonic unless
    /// `reversals` > 0, then ended (with or without a recorded velocity) or cancelled. Returns the
    /// time of the last sample.
    mutating func drag(
        from start: Point, at t0: Double, rate: Double, flick: Bool, reversals: Int,
        secondFinger: Bool, into out: inout [Pending], header: TraceHeader
    ) -> Double {
        var t = t0
        var p = start
        out.append(touch(.began, p, t))
        let segments = reversals + 1
        var direction: Double = draw.chance(0.5) ? -1 : 1
        let dt = 1 / rate
        var lastStep = Point.zero
        for _ in 0..<segments {
            let distance = flick ? draw.points(20, 200) : draw.points(5, 600)
            let duration = flick ? draw.uniform(0.03, 0.12) : draw.uniform(0.05, 0.8)
            let steps = max(1, Int(duration / dt))
            let drift = draw.chance(0.7) ? 0 : draw.uniform(-0.3, 0.3)
            let easing = draw.pick(Easing.allCases)
            var previous = 0.0
            for k in 1...steps {
                let u = Double(k) / Double(steps)
                let progress = easing.progress(u) * distance
                let step = progress - previous
                previous = progress
                let next = Point(x: p.x + drift * step, y: p.y + direction * step)
                lastStep = Point(x: next.x - p.x, y: next.y - p.y)
                p = Point(x: (next.x * 8).rounded() / 8, y: (next.y * 8).rounded() / 8)
                t += dt
                out.append(touch(.moved, p, t))
                if draw.chance(0.02) { t += draw.uniform(0.05, 0.3) }  // a pause mid-drag
            }
            direction = -direction
        }
        if secondFinger {
            // Finger 1 lands somewhere during the drag and lifts before or after it.
            let q = Point(
                x: draw.points(0, environment.container.width), y: draw.points(0, environment.container.height))
            let t1 = draw.uniform(t0, t)
            let t2 = t1 + draw.uniform(0.05, 0.5)
            // Each second finger has its own id, so that two of them never overlap on one id.
            secondFingers += 1
            out.append(touch(.began, q, t1, id: secondFingers))
            out.append(touch(.moved, Point(x: q.x, y: q.y - 30), (t1 + t2) / 2, id: secondFingers))
            out.append(touch(.ended, Point(x: q.x, y: q.y - 30), t2, id: secondFingers))
        }
        if draw.chance(0.1) {
            out.append(touch(.cancelled, p, t))
        } else {
            var velocity: Point?
            if draw.chance(0.5) {
                velocity =
                    draw.chance(0.7)
                    ? Point(x: (lastStep.x / dt).rounded(), y: (lastStep.y / dt * draw.uniform(0.5, 2)).rounded())
                    : Point(x: 0, y: Double(draw.int(-4000, 4000)))
            }
            out.append(touch(.ended, p, t, velocity: velocity))
        }
        return t
    }

    mutating func programmaticCall(_ panel: FloatingPanelConfiguration) -> FloatingPanelCall {
        let names = panel.anchors.map(\.state) + [.hidden]
        switch draw.weighted([10, 2, 2, 2, 2]) {
        case 0: return .move(to: draw.pick(names), animated: draw.chance(0.75))
        case 1: return .show(animated: draw.chance(0.7))
        case 2: return .hide(animated: draw.chance(0.7))
        case 3: return .remove
        default: return .tapBackdrop
        }
    }

    mutating func listCall(_ header: TraceHeader, panel: inout FloatingPanelConfiguration) -> FloatingPanelCall {
        switch draw.int(0, 5) {
        case 0: return .setContentOffset(x: nil, y: draw.points(-20, 1500), animated: false)
        case 1: return .setContentSize(width: nil, height: draw.points(0, 3000))
        case 2: return .track(makeList(panel))
        case 3: return .untrack
        case 4:
            // A new layout of the same states (invalidateLayout).
            var next = makeLayout(panel, keeping: panel.anchors.map(\.state))
            next.presented = panel.presented
            panel = next
            return .invalidateLayout(next)
        default:
            return .setContentOffset(x: nil, y: 0, animated: draw.chance(0.3))
        }
    }
}
