import PanelSimCore

/// Layout and environment fixtures named as in scenarios.md and the FloatingPanel specs.
enum Fixture {
    /// D1: 390×844, safe area top 47 / bottom 34, scale 3.
    static let d1 = PanelEnvironment(
        container: Size(width: 390, height: 844),
        safeArea: Insets(top: 47, left: 0, bottom: 34, right: 0), displayScale: 3, frameRate: 120)
    /// D2: 375×667, safe area top 20 / bottom 0, scale 2.
    static let d2 = PanelEnvironment(
        container: Size(width: 375, height: 667),
        safeArea: Insets(top: 20, left: 0, bottom: 0, right: 0), displayScale: 2, frameRate: 120)

    static func inset(_ v: Double, _ edge: ReferenceEdge, _ guide: ReferenceGuide = .safeArea) -> LayoutAnchor {
        .inset(v, isFractional: false, edge: edge, guide: guide)
    }

    /// FloatingPanelBottomLayout: full 18 from top, half 0.5 fractional from bottom, tip 69 from bottom (safe area).
    static func defaultLayout(position: PanelPosition = .bottom) -> FloatingPanelConfiguration {
        var p = FloatingPanelConfiguration()
        p.position = position
        p.anchors = [
            AnchorEntry(state: .full, anchor: inset(18, .top)),
            AnchorEntry(state: .half, anchor: .inset(0.5, isFractional: true, edge: .bottom, guide: .safeArea)),
            AnchorEntry(state: .tip, anchor: inset(69, .bottom)),
        ]
        return p
    }

    /// B3: full 53 from the safe top, half 388 and tip 69 from the safe bottom (100 / 422 / 741 on D1).
    static func b3() -> FloatingPanelConfiguration {
        var p = FloatingPanelConfiguration()
        p.anchors = [
            AnchorEntry(state: .full, anchor: inset(53, .top)),
            AnchorEntry(state: .half, anchor: inset(388, .bottom)),
            AnchorEntry(state: .tip, anchor: inset(69, .bottom)),
        ]
        return p
    }

    static func header(_ panel: FloatingPanelConfiguration, _ env: PanelEnvironment) -> TraceHeader {
        TraceHeader(name: "fixture", environment: env, panel: panel)
    }

    static func env(_ w: Double, _ h: Double, _ insets: Insets = .zero, scale: Double = 3, rate: Int = 60)
        -> PanelEnvironment
    {
        PanelEnvironment(container: Size(width: w, height: h), safeArea: insets, displayScale: scale, frameRate: rate)
    }
}

/// Builds trace samples tersely: times in seconds are converted to µs.
struct SampleBuilder {
    var samples: [TraceSample] = []
    static func us(_ t: Double) -> Microseconds { Microseconds((t * 1_000_000).rounded()) }
    mutating func touch(_ t: Double, _ phase: TouchPhase, _ x: Double, _ y: Double, velocity: Point? = nil) {
        samples.append(
            TraceSample(
                time: Self.us(t),
                kind: .touch(TouchSample(phase: phase, location: Point(x: x, y: y), velocity: velocity))))
    }
    mutating func call(_ t: Double, _ call: FloatingPanelCall) {
        samples.append(TraceSample(time: Self.us(t), kind: .call(call)))
    }
    mutating func end(_ t: Double) { samples.append(TraceSample(time: Self.us(t), kind: .end)) }
    /// A straight drag from (x, y0) to (x, y1) over `duration`, sampled at `hz`, released with `velocity`.
    mutating func drag(
        at t0: Double, x: Double, from y0: Double, to y1: Double, duration: Double, hz: Double = 120,
        releaseVelocity: Double
    ) {
        touch(t0, .began, x, y0)
        let n = Int((duration * hz).rounded())
        for i in 1...n {
            let f = Double(i) / Double(n)
            touch(t0 + duration * f, .moved, x, y0 + (y1 - y0) * f, velocity: Point(x: 0, y: releaseVelocity))
        }
        touch(t0 + duration, .ended, x, y1, velocity: Point(x: 0, y: releaseVelocity))
    }
}

extension SimulationResult {
    var events: [DelegateEvent] {
        records.compactMap { if case .event(_, let e) = $0 { return e } else { return nil } }
    }
    var eventNames: [String] { events.map(\.name) }
    var frames: [FrameRecord] { records.compactMap { if case .frame(let f) = $0 { return f } else { return nil } } }
    var lastFrame: FrameRecord? { frames.last }
    /// Event names without the per-sample noise of didMove and shouldBeginDragging.
    var keyEvents: [String] { eventNames.filter { $0 != "didMove" && $0 != "shouldBeginDragging" } }
}
