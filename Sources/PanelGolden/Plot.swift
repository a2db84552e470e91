import PanelSimCore
import PanelTrace

/// The geometry of one rendering of a chart: the report draws every chart twice, a wide one for
/// desktop windows and a narrow one for phones (the style sheet shows one of them), each with
/// text of at least 10 CSS px at the widths it is shown at (wide: 12 units at a scale ≥ 0.86 from
/// 1000 px windows up; narrow: 14 units at a scale ≥ 0.74 down to 420 px windows).
struct PlotLayout: Equatable {
    /// viewBox width (px of the SVG's coordinate system).
    var width: Double
    /// Font size of labels (units); other text is relative to it.
    var font: Double
    /// Phone layout: short side titles, anchor labels inside the plot, no rotated axis title.
    var narrow: Bool
    /// Left margin (tick labels, side titles).
    var left: Double

    static let wide = PlotLayout(width: 1120, font: 12, narrow: false, left: 112)
    static let phone = PlotLayout(width: 520, font: 14, narrow: true, left: 62)

    /// Width of a character of label text, estimated (sans-serif average ≈ 0.6 em).
    var charWidth: Double { font * 0.6 }
    /// Estimated width of `text` at `size` (default: the label font).
    func textWidth(_ text: String, size: Double? = nil) -> Double { textWidth(characters: text.count, size: size) }
    /// Estimated width of `characters` characters of text at `size` (default: the label font).
    func textWidth(characters: Int, size: Double? = nil) -> Double { Double(characters) * (size ?? font) * 0.6 }
}

/// Series, events and marks of the report's charts, all read from the documents and, for what
/// differs, from the comparison's `RecordDifferences` (never compared here).
struct Plot {
    enum Series: String { case location, contentOffset, barTop, bottomBarTop }

    struct Point2 {
        var t: Double
        var v: Double
    }

    /// An event dot of a lane.
    struct LaneEvent {
        var t: Double
        var name: String
        /// What differs, for the label (`target half→full`, `Δt +8.333 ms`, `not in actual`); empty
        /// when the event matches.
        var detail: String
        /// `detail` without values (`location`, `target`), for the narrow layout.
        var shortDetail: String = ""
        var differs: Bool
        /// Hover text: name, time and fields.
        var title: String
    }

    /// A differing event drawn on the location plot and on the time axis.
    struct EventMark {
        var t: Double
        var label: String
        var goldenLocation: Double?
        var actualLocation: Double?
    }

    /// A hover column: time span and the values shown for it.
    struct Hover {
        var t0: Double
        var t1: Double
        var title: String
    }

    /// Step-held series (frames that repeat the previous one are omitted from results).
    var golden: [Series: [Point2]] = [:]
    var actual: [Series: [Point2]] = [:]
    var goldenStates: [(Double, String)] = []
    var actualStates: [(Double, String)] = []
    var goldenEvents: [LaneEvent] = []
    var actualEvents: [LaneEvent] = []
    var marks: [EventMark] = []
    /// actual − golden of the location over aligned frames (held values), step-held.
    var residual: [Point2] = []
    /// actual − golden of the `location` field of differing events.
    var residualEvents: [Point2] = []
    var hovers: [Hover] = []
    var anchors: [(String, Double)] = [] { didSet { anchorLabelLength = Plot.longestLabelLength(anchors) } }
    /// Characters of the longest anchor label ("name location"), kept with `anchors`: `right`
    /// is read for every x coordinate a chart draws.
    private(set) var anchorLabelLength = 0
    /// The finger (touch samples on the main axis, every id) and the device's `observed`
    /// locations, on the location plot's axes.
    var finger: [Point2] = []
    var observed: [Point2] = []
    var tStart: Double = 0
    var tEnd: Double = 0
    /// The first difference: time (s) and what the marker says.
    var divergence: (t: Double, label: String)?
    /// The largest location error beyond tolerance: time (s) and label.
    var largest: (t: Double, label: String)?
    var hasGolden = false
    var hasContentOffset = false
    var frameRate = 60.0
    /// Names of the two results in lane and strip titles.
    var goldenName = "golden"
    var actualName = "actual"
    /// Zoomed: points are marked and the view is clipped to the window.
    var isZoom = false
    var layout = PlotLayout.wide

    var width: Double { layout.width }
    var left: Double { layout.left }
    /// Room right of the plot: the anchor labels ("name location") in the wide layout; inside the
    /// plot in the narrow one.
    var right: Double {
        guard !layout.narrow else { return 10 }
        return max(120, layout.textWidth(characters: anchorLabelLength) + 14)
    }

    /// The character count of the longest "name location" label of `anchors` (0 for none).
    static func longestLabelLength(_ anchors: [(String, Double)]) -> Int {
        anchors.map { "\($0.0) \(Plot.anchorText($0.1))".count }.max() ?? 0
    }
    var plotWidth: Double { width - left - right }

    init(input: HTMLReport.Input) {
        func seconds(_ us: Microseconds) -> Double { Double(us) / 1_000_000 }
        frameRate = Double(input.actual.header.frameRate)
        goldenName = input.goldenRole
        actualName = input.actualRole
        hasGolden = input.golden != nil
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
        for (channel, key) in [
            (Series.location, "location"), (.contentOffset, "contentOffset"), (.barTop, "barTop"),
            (.bottomBarTop, "bottomBarTop"),
        ] {
            let a = Plot.series(input.actual, key, until: tEnd)
            if !a.isEmpty { actual[channel] = a }
            if let g = input.golden {
                let gs = Plot.series(g, key, until: tEnd)
                if !gs.isEmpty { golden[channel] = gs }
            }
        }
        actualStates = Plot.states(input.actual)
        if let g = input.golden { goldenStates = Plot.states(g) }
        hasContentOffset = has(.contentOffset)
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
            anchors = description.anchors(for: h).anchors
            anchorLabelLength = Plot.longestLabelLength(anchors)  // (no `didSet` in an initializer)
        }
        if let golden = input.golden, let c = input.comparison, c.status == .passed || c.status == .failed {
            readDifferences(
                c.differences, golden: golden, actual: input.actual, tolerances: input.tolerances,
                failed: c.status == .failed)
        } else {
            if let g = input.golden { goldenEvents = Plot.laneEvents(of: g) }
            actualEvents = Plot.laneEvents(of: input.actual)
            hovers = Plot.hovers(of: input.actual, until: tEnd)
        }
    }

    /// Lanes, marks, residual, hover columns and the divergence markers from the alignment.
    private mutating func readDifferences(
        _ d: RecordDifferences, golden: ResultDocument, actual: ResultDocument,
        tolerances: Tolerances, failed: Bool
    ) {
        func seconds(_ us: Microseconds) -> Double { Double(us) / 1_000_000 }
        let rate = golden.header.frameRate
        var last: (row: RecordDifferences.Row, delta: Double)?
        for row in d.rows {
            switch row.kind {
            case .frame:
                guard let g = row.goldenLocation, let a = row.actualLocation, let k = row.frame else { continue }
                let t = seconds(row.time)
                if let l = last, let lk = l.row.frame, k > lk + 1, l.delta != a - g {
                    residual.append(Point2(t: seconds(frameTime(k - 1, frameRate: rate)), v: l.delta))
                }
                residual.append(Point2(t: t, v: a - g))
                last = (row, a - g)
            case .event:
                if row.differs, let g = row.goldenLocation, let a = row.actualLocation,
                    row.largest(on: .location) != nil
                {
                    residualEvents.append(Point2(t: seconds(row.time), v: a - g))
                }
                guard row.name != "didMove" || row.differs else { continue }
                let detail = Plot.detail(of: row, tolerances: tolerances)
                let short =
                    row.isOneSided
                    ? ""
                    : row.changes.map { $0.channel == .time ? "Δt" : $0.field }.joined(separator: ", ")
                        + (row.differs ? " ≠" : "")
                func title(_ doc: ResultDocument, _ record: Int?) -> String {
                    guard let record, case .event(let t, let e) = doc.records[record] else { return row.name }
                    var text = "\(e.name) at t = \(CanonicalNumber.formatSeconds(t)) s"
                    let fields = HTMLReport.fields(e)
                    if !fields.isEmpty { text += "\n" + fields }
                    if !detail.isEmpty { text += "\ndiffers: " + detail }
                    return text
                }
                if let t = row.goldenTime {
                    let d = row.actualRecord == nil ? "not in \(actualName)" : detail
                    goldenEvents.append(
                        LaneEvent(
                            t: seconds(t), name: row.name, detail: d,
                            shortDetail: row.actualRecord == nil ? "only here" : short,
                            differs: row.differs, title: title(golden, row.goldenRecord)))
                }
                if let t = row.actualTime {
                    let d = row.goldenRecord == nil ? "not in \(goldenName)" : detail
                    actualEvents.append(
                        LaneEvent(
                            t: seconds(t), name: row.name, detail: d,
                            shortDetail: row.goldenRecord == nil ? "only here" : short,
                            differs: row.differs, title: title(actual, row.actualRecord)))
                }
                if row.differs {
                    marks.append(
                        EventMark(
                            t: seconds(row.time), label: row.name + (detail.isEmpty ? "" : " " + detail),
                            goldenLocation: row.goldenLocation, actualLocation: row.actualLocation))
                }
            }
        }
        if let l = last, l.delta != 0 || !residual.isEmpty { residual.append(Point2(t: tEnd, v: l.delta)) }
        hovers = Plot.hovers(of: d, tolerances: tolerances, until: tEnd)
        guard failed else { return }
        if let row = d.first {
            let what = row.kind == .frame ? "frame \(row.frame ?? 0)" : "event \(row.name)"
            divergence = (
                seconds(row.time), "first difference: \(what), t = \(CanonicalNumber.formatSeconds(row.time)) s"
            )
        } else if let o = d.orderDivergence {
            divergence = (
                seconds(o.time), "records written differently, t = \(CanonicalNumber.formatSeconds(o.time)) s"
            )
        }
        if let row = d.largestLocationError, let c = row.largest(on: .location), let e = c.error {
            largest = (
                seconds(row.time),
                "largest location error \(ReportNumber.format(e, tolerance: c.tolerance)) pt, t = \(CanonicalNumber.formatSeconds(row.time)) s"
            )
        }
    }

    /// `target half→full`, `location 336.583333→356.583333`, `Δt +8.333 ms`: the changes of a
    /// row, rounded to their tolerances.
    static func detail(of row: RecordDifferences.Row, tolerances: Tolerances) -> String {
        guard row.differs, !row.isOneSided else { return "" }
        return row.changes.map { c in
            if c.channel == .time, let dt = c.delta {
                return "Δt " + ReportNumber.signed(dt / 1000, tolerance: .absolute(1e-3), magnitude: 0) + " ms"
            }
            if let g = c.goldenNumber, let a = c.actualNumber {
                let m = max(abs(g), abs(a))
                return
                    "\(c.field) \(ReportNumber.format(g, tolerance: c.tolerance, magnitude: m))→\(ReportNumber.format(a, tolerance: c.tolerance, magnitude: m))"
            }
            return "\(c.field) \(c.golden)→\(c.actual)"
        }.joined(separator: ", ")
    }

    /// The frames' value of `key` over time, step-held: consecutive frames are joined by a line;
    /// across omitted frames (which repeat the previous one) the value is held, then steps.
    static func series(_ doc: ResultDocument, _ key: String, until end: Double) -> [Point2] {
        var out: [Point2] = []
        var lastIndex = Int.min
        for r in doc.records {
            let index: Int
            let value: Double?
            switch r {
            case .frame(let f):
                index = f.index
                value = key == "location" ? f.location : (key == "contentOffset" ? f.contentOffset : nil)
            case .systemFrame(let f):
                index = f.index
                if case .number(let x)? = f[key] { value = x } else { value = nil }
            case .event: continue
            }
            guard let v = value else {
                lastIndex = Int.min
                continue
            }
            let t = Double(frameTime(index, frameRate: doc.header.frameRate)) / 1_000_000
            if let last = out.last, last.v != v, index - 1 != lastIndex {
                out.append(
                    Point2(t: Double(frameTime(index - 1, frameRate: doc.header.frameRate)) / 1_000_000, v: last.v))
            }
            out.append(Point2(t: t, v: v))
            lastIndex = index
        }
        if let last = out.last { out.append(Point2(t: end, v: last.v)) }
        return out
    }

    static func states(_ doc: ResultDocument) -> [(Double, String)] {
        var out: [(Double, String)] = []
        for r in doc.records {
            let state: String
            let index: Int
            switch r {
            case .frame(let f):
                state = f.state
                index = f.index
            case .systemFrame(let f):
                state = f.state
                index = f.index
            case .event: continue
            }
            if out.last?.1 != state {
                out.append((Double(frameTime(index, frameRate: doc.header.frameRate)) / 1_000_000, state))
            }
        }
        return out
    }

    /// The events of a result without a golden: every event but `didMove`.
    static func laneEvents(of doc: ResultDocument) -> [LaneEvent] {
        doc.records.compactMap { r in
            guard case .event(let t, let e) = r, e.name != "didMove" else { return nil }
            let fields = HTMLReport.fields(e)
            return LaneEvent(
                t: Double(t) / 1_000_000, name: e.name, detail: "", differs: false,
                title: "\(e.name) at t = \(CanonicalNumber.formatSeconds(t)) s" + (fields.isEmpty ? "" : "\n" + fields))
        }
    }

    /// Hover columns of a result alone: one per written frame, its location and state.
    static func hovers(of doc: ResultDocument, until end: Double) -> [Hover] {
        var out: [Hover] = []
        for r in doc.records {
            guard let k = r.frameIndex, let l = r.frameLocation else { continue }
            let t = Double(frameTime(k, frameRate: doc.header.frameRate)) / 1_000_000
            if let last = out.indices.last { out[last].t1 = t }
            out.append(
                Hover(
                    t0: t, t1: end,
                    title:
                        "t = \(CanonicalNumber.formatSeconds(frameTime(k, frameRate: doc.header.frameRate))) s · frame \(k)\nlocation \(CanonicalNumber.format(l)) pt · \(r.frameState ?? "")"
                ))
        }
        return out
    }

    /// Hover columns of an aligned comparison: one per frame row, golden, actual and Δ.
    static func hovers(of d: RecordDifferences, tolerances: Tolerances, until end: Double) -> [Hover] {
        var out: [Hover] = []
        for row in d.rows where row.kind == .frame {
            let t = Double(row.time) / 1_000_000
            if let last = out.indices.last { out[last].t1 = t }
            var text = "t = \(CanonicalNumber.formatSeconds(row.time)) s · frame \(row.frame ?? 0)"
            let tol = tolerances.location
            let m = max(abs(row.goldenLocation ?? 0), abs(row.actualLocation ?? 0))
            if let g = row.goldenLocation {
                text += "\ngolden \(ReportNumber.format(g, tolerance: tol, magnitude: m)) pt"
            }
            if let a = row.actualLocation {
                text += "\nactual \(ReportNumber.format(a, tolerance: tol, magnitude: m)) pt"
            }
            if let g = row.goldenLocation, let a = row.actualLocation {
                text += "\nΔ \(ReportNumber.signed(a - g, tolerance: tol, magnitude: m)) pt"
            }
            for c in row.changes where c.field != "location" { text += "\n\(c.field): \(c.golden) → \(c.actual)" }
            out.append(Hover(t0: t, t1: end, title: text))
        }
        return out
    }

    /// True when either document has frames with `channel`.
    func has(_ channel: Series) -> Bool { !(actual[channel] ?? []).isEmpty || !(golden[channel] ?? []).isEmpty }

    func x(_ t: Double) -> Double { left + (tEnd > tStart ? (t - tStart) / (tEnd - tStart) : 0) * plotWidth }

    static func f1(_ v: Double) -> String { FixedNumber.format(v, decimals: 1) }

    /// The most grid lines an axis draws (a readable axis has a dozen; see `axes`).
    static let maximumGridLines = 200

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
        var d = 0
        var s = step
        while s < 0.999999 && d < 6 {
            s *= 10
            d += 1
        }
        return d
    }

    /// The plot of the window around `t` (± max(0.05 s, 8 frames)); nil when it is empty.
    func zoomed(at t: Double) -> Plot? {
        var z = self
        let w = max(0.05, 8 / max(1, frameRate))
        z.tStart = max(0, t - w)
        z.tEnd = min(tEnd, t + w)
        if z.tEnd - z.tStart < 1e-6 { return nil }
        z.isZoom = true
        return z
    }

    /// True when `t` lies in the zoom window around `center`.
    func zoomWindow(around center: Double, contains t: Double) -> Bool {
        abs(t - center) <= max(0.05, 8 / max(1, frameRate)) * 0.8
    }

    /// The value of a drawn (piecewise-linear) series at `t`; nil outside it.
    static func value(_ pts: [Point2], at t: Double) -> Double? {
        guard let first = pts.first, t >= first.t, let lastPoint = pts.last, t <= lastPoint.t else { return nil }
        var lo = 0
        var hi = pts.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if pts[mid].t <= t { lo = mid } else { hi = mid }
        }
        let a = pts[lo]
        let b = pts[hi]
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
