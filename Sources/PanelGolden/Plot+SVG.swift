import PanelSimCore
import PanelTrace

extension Plot {
    /// Actual − golden of the location over time (both series as drawn), with the tolerance band.
    func residualSVG(tolerance: Tolerance) -> String {
        let g = golden[.location] ?? [], a = actual[.location] ?? []
        let times = Array(Set((g + a).map(\.t))).sorted()
        var pts: [Point2] = []
        for t in times {
            guard let av = Plot.value(a, at: t), let gv = Plot.value(g, at: t) else { continue }
            pts.append(Point2(t: t, v: av - gv))
        }
        let band = tolerance.absolute
        var m = max(band * 1.5, pts.map { abs($0.v) }.filter(\.isFinite).max() ?? 0)
        if m < 1e-9 { m = 1 }
        let lo = -m * 1.1, hi = m * 1.1
        let top = 12.0, plotHeight = 150.0, height = top + plotHeight + 36
        // Larger is higher here (a difference, not a screen position).
        func y(_ v: Double) -> Double { top + (hi - v) / (hi - lo) * plotHeight }
        let r = Plot.f1
        var s = "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(r(width))\" height=\"\(r(height))\" viewBox=\"0 0 \(r(width)) \(r(height))\" role=\"img\" aria-label=\"residual\">\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(r(width))\" height=\"\(r(height))\" fill=\"#ffffff\"/>\n"
        if band > 0 {
            s += "<rect x=\"\(r(left))\" y=\"\(FixedNumber.format(y(min(band, hi)), decimals: 2))\" width=\"\(r(plotWidth))\" height=\"\(FixedNumber.format(max(0.5, y(-min(band, hi)) - y(min(band, hi))), decimals: 2))\" fill=\"#2e7d32\" fill-opacity=\"0.15\"/>\n"
        }
        s += axes(lo: lo, hi: hi, top: top, plotHeight: plotHeight, y: y, label: "")
        s += "<line x1=\"\(r(left))\" y1=\"\(r(y(0)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(0)))\" stroke=\"#57606a\" stroke-width=\"1\"/>\n"
        var d = ""
        for (i, p) in pts.enumerated() where p.v.isFinite {
            d += (i == 0 ? "M" : " L") + "\(r(x(p.t))) \(FixedNumber.format(y(p.v), decimals: 2))"
        }
        if !d.isEmpty { s += "<path d=\"\(d)\" fill=\"none\" stroke=\"\(HTMLReport.alertColor)\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>\n" }
        s += "<text x=\"\(r(left + plotWidth + 6))\" y=\"\(r(top + 10))\" font-size=\"11\" fill=\"#2e7d32\">band ±\(CanonicalNumber.format(band)) pt</text>\n"
        if let dt = divergenceTime {
            s += "<line x1=\"\(r(x(dt)))\" y1=\"\(r(top))\" x2=\"\(r(x(dt)))\" y2=\"\(r(top + plotHeight))\" stroke=\"\(HTMLReport.alertColor)\" stroke-dasharray=\"3 3\"/>\n"
        }
        return s + "</svg>\n"
    }

    /// Grid lines, tick labels and the frame of a plot area; the time axis along the bottom.
    func axes(lo: Double, hi: Double, top: Double, plotHeight: Double, y: (Double) -> Double, label: String) -> String {
        let r = Plot.f1
        var s = ""
        let ty = Plot.step(hi - lo, target: plotHeight > 200 ? 8 : 5)
        let dy = Plot.decimals(for: ty)
        var v = (lo / ty).rounded(.up) * ty
        while v <= hi + 1e-9 * abs(hi) {
            s += "<line x1=\"\(r(left))\" y1=\"\(r(y(v)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(v)))\" stroke=\"#000\" stroke-opacity=\"0.07\"/>\n"
            s += "<text x=\"\(r(left - 6))\" y=\"\(r(y(v) + 3.5))\" font-size=\"11\" text-anchor=\"end\" fill=\"#57606a\">\(FixedNumber.format(abs(v) < ty * 1e-6 ? 0 : v, decimals: dy))</text>\n"
            v += ty
        }
        let tx = Plot.step(tEnd - tStart, target: 10)
        let dx = Plot.decimals(for: tx)
        var t = (tStart / tx).rounded(.up) * tx
        while t <= tEnd + 1e-12 {
            s += "<line x1=\"\(r(x(t)))\" y1=\"\(r(top))\" x2=\"\(r(x(t)))\" y2=\"\(r(top + plotHeight))\" stroke=\"#000\" stroke-opacity=\"0.07\"/>\n"
            s += "<text x=\"\(r(x(t)))\" y=\"\(r(top + plotHeight + 15))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\">\(FixedNumber.format(t, decimals: dx))</text>\n"
            t += tx
        }
        s += "<rect x=\"\(r(left))\" y=\"\(r(top))\" width=\"\(r(plotWidth))\" height=\"\(r(plotHeight))\" fill=\"none\" stroke=\"#8c959f\"/>\n"
        s += "<text x=\"\(r(left + plotWidth / 2))\" y=\"\(r(top + plotHeight + 29))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\">time (s)</text>\n"
        if !label.isEmpty {
            s += "<text x=\"14\" y=\"\(r(top + plotHeight / 2))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\" transform=\"rotate(-90 14 \(r(top + plotHeight / 2)))\">\(label)</text>\n"
        }
        return s
    }

    func svg(channel: Series, id: String? = nil) -> String {
        let inWindow: (Point2) -> Bool = { $0.t >= self.tStart && $0.t <= self.tEnd }
        let g = golden[channel] ?? [], a = actual[channel] ?? []
        let isLocation = channel == .location
        var values = (g + a).filter(inWindow).map(\.v)
        if isZoom {
            for series in [g, a] { for t in [tStart, tEnd] { if let v = Plot.value(series, at: t) { values.append(v) } } }
        }
        if isLocation && !isZoom { values += anchors.map(\.1) + finger.map(\.v) + observed.map(\.v) }
        values = values.filter(\.isFinite)
        var lo = values.min() ?? 0, hi = values.max() ?? 1
        if hi - lo < 1e-9 { lo -= 1; hi += 1 }
        let pad = (hi - lo) * 0.06
        lo -= pad; hi += pad
        let lanes = isLocation && !isZoom ? (goldenEvents.isEmpty && goldenStates.isEmpty ? [("events", eventLanes(events))]
                                                                     : [("golden events", eventLanes(goldenEvents)), ("actual events", eventLanes(events))]) : []
        let laneRows = lanes.map { max(1, $0.1.count) }
        let top = isZoom ? 12.0 : 40.0 + (goldenStates.isEmpty ? 0 : 16)       // state strips
        let plotHeight = isLocation && !isZoom ? 380.0 : 220.0
        let eventsTop = top + plotHeight + 40
        var height = eventsTop - 6
        for rows in laneRows { height += Double(rows) * 16 + 10 }
        height += 8
        // Screen-like: larger coordinates lower down.
        func y(_ v: Double) -> Double { top + (v - lo) / (hi - lo) * plotHeight }
        let r = Plot.f1
        var s = "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(r(width))\" height=\"\(r(height))\" viewBox=\"0 0 \(r(width)) \(r(height))\" role=\"img\" aria-label=\"\(id ?? channel.rawValue)\">\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(r(width))\" height=\"\(r(height))\" fill=\"#ffffff\"/>\n"

        // State bands (actual) behind the plot, and state strips above it.
        func clamp(_ v: Double) -> Double { min(max(v, left), left + plotWidth) }
        func strip(_ states: [(Double, String)], y0: Double, h: Double, label: String) -> String {
            var out = "<text x=\"\(r(left - 6))\" y=\"\(r(y0 + h - 3))\" font-size=\"10\" text-anchor=\"end\" fill=\"#57606a\">\(label)</text>\n"
            for (i, st) in states.enumerated() {
                let x0 = clamp(x(st.0)), x1 = clamp(x(i + 1 < states.count ? states[i + 1].0 : tEnd))
                guard x1 > x0 else { continue }
                out += "<rect x=\"\(r(x0))\" y=\"\(r(y0))\" width=\"\(r(max(0.5, x1 - x0)))\" height=\"\(r(h))\" fill=\"\(color(st.1, strong: true))\"/>\n"
                if x1 - x0 > 8 + 6 * Double(st.1.count) {
                    out += "<text x=\"\(r(x0 + 4))\" y=\"\(r(y0 + h - 3))\" font-size=\"10\" fill=\"#1f2328\">\(Markup.escape(st.1))</text>\n"
                }
            }
            return out
        }
        for (i, st) in actualStates.enumerated() {
            let x0 = clamp(x(st.0)), x1 = clamp(x(i + 1 < actualStates.count ? actualStates[i + 1].0 : tEnd))
            guard x1 > x0 else { continue }
            s += "<rect x=\"\(r(x0))\" y=\"\(r(top))\" width=\"\(r(max(0.5, x1 - x0)))\" height=\"\(r(plotHeight))\" fill=\"\(color(st.1, strong: false))\"/>\n"
        }
        if !isZoom {
            if !goldenStates.isEmpty {
                s += strip(goldenStates, y0: 22, h: 14, label: "golden state")
                s += strip(actualStates, y0: 38, h: 14, label: "actual state")
            } else {
                s += strip(actualStates, y0: 22, h: 14, label: "state")
            }
        }

        let yLabel: String
        switch channel {
        case .location: yLabel = "surface location (pt, larger is lower)"
        case .contentOffset: yLabel = "content offset (pt)"
        case .barTop: yLabel = "bar top (pt, larger is lower)"
        case .bottomBarTop: yLabel = "bottom bar top (pt, larger is lower)"
        }
        s += axes(lo: lo, hi: hi, top: top, plotHeight: plotHeight, y: y, label: yLabel)

        // Anchors, labels spread so that they never overprint.
        if isLocation {
            let visible = anchors.filter { $0.1 >= lo && $0.1 <= hi }
            let labelY = Plot.spread(visible.map { y($0.1) + 4 }, gap: 13)
            for (k, (name, p)) in visible.enumerated() {
                s += "<line x1=\"\(r(left))\" y1=\"\(r(y(p)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(p)))\" stroke=\"#57606a\" stroke-dasharray=\"5 4\" stroke-width=\"1\"/>\n"
                s += "<text x=\"\(r(left + plotWidth + 6))\" y=\"\(r(labelY[k]))\" font-size=\"11\" fill=\"#1f2328\">\(Markup.escape(name)) \(CanonicalNumber.format(p))</text>\n"
            }
        }

        // Series, cut to the time window (a zoom): points inside, plus the values at its edges.
        func path(_ all: [Point2]) -> String {
            var pts = all
            if isZoom {
                pts = all.filter(inWindow)
                if let v = Plot.value(all, at: tStart) { pts.insert(Point2(t: tStart, v: v), at: 0) }
                if let v = Plot.value(all, at: tEnd) { pts.append(Point2(t: tEnd, v: v)) }
            }
            var d = ""
            for (i, p) in pts.enumerated() where p.v.isFinite {
                d += (i == 0 ? "M" : " L") + "\(r(x(p.t))) \(FixedNumber.format(y(p.v), decimals: 2))"
            }
            return d
        }
        s += "<g>\n"
        if isLocation {
            for p in finger where inWindow(p) && p.v.isFinite && p.v >= lo && p.v <= hi {
                s += "<circle cx=\"\(r(x(p.t)))\" cy=\"\(r(y(p.v)))\" r=\"2.2\" fill=\"\(HTMLReport.fingerColor)\" fill-opacity=\"0.8\"/>\n"
            }
            for p in observed where inWindow(p) && p.v.isFinite && p.v >= lo && p.v <= hi {
                s += "<rect x=\"\(r(x(p.t) - 2))\" y=\"\(r(y(p.v) - 2))\" width=\"4\" height=\"4\" fill=\"\(HTMLReport.observedColor)\" fill-opacity=\"0.8\"/>\n"
            }
        }
        if !g.isEmpty {
            s += "<path d=\"\(path(g))\" fill=\"none\" stroke=\"\(HTMLReport.goldenColor)\" stroke-width=\"5\" stroke-linejoin=\"round\" stroke-opacity=\"0.85\"/>\n"
        }
        if !a.isEmpty {
            s += "<path d=\"\(path(a))\" fill=\"none\" stroke=\"\(HTMLReport.actualColor)\" stroke-width=\"1.6\" stroke-linejoin=\"round\"/>\n"
        }
        if isZoom {
            for p in g where inWindow(p) { s += "<circle cx=\"\(r(x(p.t)))\" cy=\"\(r(y(p.v)))\" r=\"4\" fill=\"none\" stroke=\"\(HTMLReport.goldenColor)\" stroke-width=\"1.5\"/>\n" }
            for p in a where inWindow(p) { s += "<circle cx=\"\(r(x(p.t)))\" cy=\"\(r(y(p.v)))\" r=\"2\" fill=\"\(HTMLReport.actualColor)\"/>\n" }
        }
        s += "</g>\n"
        if let dt = divergenceTime, dt >= tStart, dt <= tEnd {
            s += "<line x1=\"\(r(x(dt)))\" y1=\"\(r(top))\" x2=\"\(r(x(dt)))\" y2=\"\(r(top + plotHeight))\" stroke=\"\(HTMLReport.alertColor)\" stroke-width=\"1.5\"/>\n"
            let label = "first divergence t = \(FixedNumber.format(dt, decimals: 6)) s"
            let lx = x(dt) + 4 + 6 * Double(label.count) > left + plotWidth ? x(dt) - 4 : x(dt) + 4
            s += "<text x=\"\(r(lx))\" y=\"\(r(top + 12))\" font-size=\"11\" fill=\"\(HTMLReport.alertColor)\"\(lx < x(dt) ? " text-anchor=\"end\"" : "")>\(label)</text>\n"
        }

        // Events along the time axis: one block of lanes per result, so a missing event shows.
        var laneTop = eventsTop
        for (title, laneItems) in lanes {
            s += "<text x=\"\(r(left - 6))\" y=\"\(r(laneTop + 4))\" font-size=\"10\" text-anchor=\"end\" fill=\"#57606a\">\(title)</text>\n"
            for (lane, items) in laneItems.enumerated() {
                let ly = laneTop + Double(lane) * 16
                for (t, name, labelled) in items {
                    s += "<line x1=\"\(r(x(t)))\" y1=\"\(r(top + plotHeight))\" x2=\"\(r(x(t)))\" y2=\"\(r(ly - 3))\" stroke=\"#6e7781\" stroke-opacity=\"0.25\"/>\n"
                    s += "<circle cx=\"\(r(x(t)))\" cy=\"\(r(ly))\" r=\"3\" fill=\"\(eventColor(name))\"/>\n"
                    if labelled {
                        s += "<text x=\"\(r(x(t) + 5))\" y=\"\(r(ly + 4))\" font-size=\"10.5\" fill=\"#1f2328\">\(Markup.escape(name))</text>\n"
                    }
                }
            }
            laneTop += Double(max(1, laneItems.count)) * 16 + 10
        }
        s += "</svg>\n"
        return s
    }

    func eventColor(_ name: String) -> String {
        switch name {
        case "didChangeState": return "#6a1b9a"
        case "willBeginDragging", "didEndDragging", "willEndDragging", "shouldBeginDragging": return "#1565c0"
        case "willBeginAttracting", "didEndAttracting": return "#2e7d32"
        case "shouldRemove", "willRemove", "didRemove": return "#c62828"
        default: return "#57606a"
        }
    }

    /// Greedy lane assignment: an event goes to the first lane whose last label ends before it.
    /// A run of one event name (e.g. `shouldBeginDragging` asked on every sample) shares a lane and
    /// one label, placed after the run's last dot; when all 12 lanes are taken an event is a dot
    /// without a label, so labels never overprint. The event table lists every event.
    func eventLanes(_ events: [(Double, String)]) -> [[(Double, String, Bool)]] {
        var lanes: [[(Double, String, Bool)]] = []
        var ends: [Double] = []
        var previous: (name: String, lane: Int)?
        let limit = left + plotWidth + right
        for e in events {
            let x0 = x(e.0), x1 = x0 + 10 + Double(e.1.count) * 6.6
            if let p = previous, p.name == e.1 {
                // A run of the same event: one label, after the run's last dot.
                if let last = lanes[p.lane].indices.last { lanes[p.lane][last].2 = false }
                lanes[p.lane].append((e.0, e.1, x1 <= limit))
                ends[p.lane] = x1
            } else if let i = ends.firstIndex(where: { $0 < x0 - 6 }) {
                lanes[i].append((e.0, e.1, x1 <= limit)); ends[i] = x1; previous = (e.1, i)
            } else if lanes.count < 12 {
                lanes.append([(e.0, e.1, x1 <= limit)]); ends.append(x1); previous = (e.1, lanes.count - 1)
            } else {
                lanes[lanes.count - 1].append((e.0, e.1, false)); previous = nil
            }
        }
        return lanes
    }
}
