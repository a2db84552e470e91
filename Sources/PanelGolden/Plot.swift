import PanelSimCore
import PanelTrace

/// Geometry and series of the report's charts.
struct Plot {
    enum Series: String { case location, contentOffset, barTop, bottomBarTop }

    struct Point2 { var t: Double; var v: Double }
    /// Step-held series (frames that repeat the previous one are omitted from results).
    var golden: [Series: [Point2]] = [:]
    var actual: [Series: [Point2]] = [:]
    var goldenStates: [(Double, String)] = []
    var actualStates: [(Double, String)] = []
    var events: [(Double, String)] = []
    var goldenEvents: [(Double, String)] = []
    var anchors: [(String, Double)] = []
    /// The finger (touch samples on the main axis, every id) and the device's `observed`
    /// locations, on the location plot's axes.
    var finger: [Point2] = []
    var observed: [Point2] = []
    var stateNames: [String] = []
    var tStart: Double = 0
    var tEnd: Double = 0
    var divergenceTime: Double?
    var hasContentOffset = false
    var frameRate = 60.0
    /// Zoomed: points are marked and the view is clipped to the window.
    var isZoom = false

    // Layout (px of the viewBox; the SVG scales with the page).
    let width = 1120.0
    let left = 70.0
    /// Room for the anchor labels ("name location") right of the plot: 110 px, more for long names
    /// (about 6.5 px per character at 11 px).
    var right: Double { max(110, 6.5 * Double(anchors.map { $0.0.count + CanonicalNumber.format($0.1).count + 1 }.max() ?? 0) + 12) }
    var plotWidth: Double { width - left - right }

    init(input: HTMLReport.Input) {
        func frames(_ doc: ResultDocument) -> [FrameRecord] {
            doc.records.compactMap {
                switch $0 {
                case .frame(let f): return f
                case .systemFrame(let f): return f.frameRecordView
                case .event: return nil
                }
            }
        }
        func seconds(_ us: Microseconds) -> Double { Double(us) / 1_000_000 }
        frameRate = Double(input.actual.header.frameRate)
        var end: Double = 0
        for doc in [input.golden, input.actual].compactMap({ $0 }) {
            for r in doc.records {
                switch r {
                case .event(let t, _): end = max(end, seconds(t))
                case .frame(let f): end = max(end, seconds(frameTime(f.index, frameRate: doc.header.frameRate)))
                case .systemFrame(let f): end = max(end, seconds(frameTime(f.index, frameRate: doc.header.frameRate)))
                }
            }
        }
        // Show the last value for a few frames past the end.
        tEnd = end + max(0.05, end * 0.02)
        let plotEnd = tEnd
        func series(_ doc: ResultDocument, _ value: (FrameRecord) -> Double?) -> [Point2] {
            // Consecutive frames are joined by a line; across omitted frames (which repeat the
            // previous one) the value is held, then steps.
            var out: [Point2] = []
            var lastIndex = Int.min
            for f in frames(doc) {
                guard let v = value(f) else { lastIndex = Int.min; continue }
                let t = seconds(frameTime(f.index, frameRate: doc.header.frameRate))
                if let last = out.last, last.v != v, f.index - 1 != lastIndex {
                    out.append(Point2(t: seconds(frameTime(f.index - 1, frameRate: doc.header.frameRate)), v: last.v))
                }
                out.append(Point2(t: t, v: v))
                lastIndex = f.index
            }
            if let last = out.last { out.append(Point2(t: plotEnd, v: last.v)) }
            return out
        }
        func states(_ doc: ResultDocument) -> [(Double, String)] {
            var out: [(Double, String)] = []
            for f in frames(doc) where out.last?.1 != f.state {
                out.append((seconds(frameTime(f.index, frameRate: doc.header.frameRate)), f.state))
            }
            return out
        }
        actual[.location] = series(input.actual) { $0.location }
        actual[.contentOffset] = series(input.actual) { $0.contentOffset }
        actualStates = states(input.actual)
        if let g = input.golden {
            golden[.location] = series(g) { $0.location }
            golden[.contentOffset] = series(g) { $0.contentOffset }
            goldenStates = states(g)
        }
        hasContentOffset = !(actual[.contentOffset] ?? []).isEmpty || !(golden[.contentOffset] ?? []).isEmpty
        // Channels only some systems' frames carry (LNPopup's bar and bottom bar), by name.
        func systemSeries(_ doc: ResultDocument, _ key: String) -> [Point2] {
            var out: [Point2] = []
            var lastIndex = Int.min
            for r in doc.records {
                guard case .systemFrame(let f) = r, case .number(let v)? = f[key] else { continue }
                if let last = out.last, last.v != v, f.index - 1 != lastIndex {
                    out.append(Point2(t: seconds(frameTime(f.index - 1, frameRate: doc.header.frameRate)), v: last.v))
                }
                out.append(Point2(t: seconds(frameTime(f.index, frameRate: doc.header.frameRate)), v: v))
                lastIndex = f.index
            }
            if let last = out.last { out.append(Point2(t: plotEnd, v: last.v)) }
            return out
        }
        for (channel, key) in [(Series.barTop, "barTop"), (.bottomBarTop, "bottomBarTop")] {
            let a = systemSeries(input.actual, key)
            if !a.isEmpty { actual[channel] = a }
            if let g = input.golden {
                let gs = systemSeries(g, key)
                if !gs.isEmpty { golden[channel] = gs }
            }
        }
        for r in input.actual.records {
            if case .event(let t, let e) = r, e.name != "didMove" { events.append((seconds(t), e.name)) }
        }
        for r in input.golden?.records ?? [] {
            if case .event(let t, let e) = r, e.name != "didMove" { goldenEvents.append((seconds(t), e.name)) }
        }
        if let trace = input.trace {
            // The main axis: x for left and right FloatingPanel panels, else y.
            let vertical = GoldenSystems.description(for: trace.header.model)?.movesVertically(trace.header) ?? true
            for sample in trace.samples {
                switch sample.kind {
                case .touch(let touch):
                    finger.append(Point2(t: seconds(sample.time), v: vertical ? touch.location.y : touch.location.x))
                case .observed(let o):
                    if let l = o.location { observed.append(Point2(t: seconds(sample.time), v: l)) }
                default: break
                }
            }
        }
        if let h = input.header, let description = GoldenSystems.description(for: h.model) {
            (anchors, stateNames) = description.anchors(for: h)
        }
        if let d = input.comparison?.firstRecordDivergence, input.comparison?.status != .passed {
            divergenceTime = seconds(d.time)
        }
    }

    /// True when either document has frames with `channel`.
    func has(_ channel: Series) -> Bool { !(actual[channel] ?? []).isEmpty || !(golden[channel] ?? []).isEmpty }

    func color(_ state: String, strong: Bool) -> String { HTMLReport.stateColor(state, strong: strong) }

    func x(_ t: Double) -> Double { left + (tEnd > tStart ? (t - tStart) / (tEnd - tStart) : 0) * plotWidth }

    static func f1(_ v: Double) -> String { FixedNumber.format(v, decimals: 1) }

    /// Tick step: 1, 2 or 5 × 10^k giving about `target` ticks over `span`.
    static func step(_ span: Double, target: Double) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / target
        var p = 1.0
        while p * 10 <= raw { p *= 10 }
        while p > raw { p /= 10 }
        for m in [1.0, 2.0, 5.0, 10.0] where p * m >= raw { return p * m }
        return p * 10
    }

    static func decimals(for step: Double) -> Int {
        var d = 0, s = step
        while s < 0.999999 && d < 6 { s *= 10; d += 1 }
        return d
    }

    /// The plot of the window around the first divergence (± max(0.05 s, 8 frames)); nil
    /// without a divergence.
    func zoomed() -> Plot? {
        guard let dt = divergenceTime else { return nil }
        var z = self
        let w = max(0.05, 8 / max(1, frameRate))
        z.tStart = max(0, dt - w); z.tEnd = min(tEnd, dt + w)
        if z.tEnd - z.tStart < 1e-6 { return nil }
        z.isZoom = true
        return z
    }

    /// The value of a drawn (piecewise-linear) series at `t`; nil outside it.
    static func value(_ pts: [Point2], at t: Double) -> Double? {
        guard let first = pts.first, t >= first.t, let lastPoint = pts.last, t <= lastPoint.t else { return nil }
        var lo = 0, hi = pts.count - 1
        while hi - lo > 1 { let mid = (lo + hi) / 2; if pts[mid].t <= t { lo = mid } else { hi = mid } }
        let a = pts[lo], b = pts[hi]
        if b.t <= a.t { return b.v }
        return a.v + (b.v - a.v) * (t - a.t) / (b.t - a.t)
    }

    /// Text lines placed at `y` without overlapping: each at least `gap` below the previous.
    static func spread(_ ys: [Double], gap: Double) -> [Double] {
        let order = ys.indices.sorted { ys[$0] < ys[$1] }
        var out = ys
        var last = -Double.infinity
        for i in order {
            out[i] = max(ys[i], last + gap)
            last = out[i]
        }
        return out
    }
}
