import PanelSimCore
import PanelTrace

extension Plot {
    /// Vertical layout of a chart, in viewBox units.
    struct Frame {
        /// Baseline of the marker label (first difference, largest error) above everything else.
        var bandBaseline: Double
        /// Top of the state strips (none in a zoom).
        var stripsTop: Double
        var stripHeight: Double
        /// The plot area.
        var top: Double
        var plotHeight: Double
        /// Top of the event lanes.
        var lanesTop: Double
    }

    /// The chart of `channel` twice: the wide rendering and the narrow one (the style sheet shows
    /// one of them by window width).
    func svgPair(channel: Series, id: String? = nil) -> String {
        var narrow = self
        narrow.layout = .phone
        return svg(channel: channel, id: id) + narrow.svg(channel: channel, id: id)
    }

    func frame(channel: Series, lanes: Bool) -> Frame {
        let fs = layout.font
        let bandBaseline = fs + 2
        let stripsTop = bandBaseline + 8
        let stripHeight = fs + 4
        let strips = isZoom ? 0 : (hasGolden ? 2 : 1)
        let top = stripsTop + Double(strips) * (stripHeight + 2) + 8
        let plotHeight: Double
        if isZoom {
            plotHeight = layout.narrow ? 200 : 220
        } else if channel == .location {
            plotHeight = layout.narrow ? 300 : 380
        } else {
            plotHeight = layout.narrow ? 180 : 220
        }
        return Frame(
            bandBaseline: bandBaseline, stripsTop: stripsTop, stripHeight: stripHeight, top: top,
            plotHeight: plotHeight,
            lanesTop: top + plotHeight + 3 * fs + 14)
    }

    /// The `<svg>` element of `channel`'s chart: state strips and bands, anchors, finger and
    /// observed samples, golden and actual series, differing events marked on the plot and on the
    /// time axis, the first-difference line, hover values, and (location, not zoomed) the event
    /// lanes of both results.
    func svg(channel: Series, id: String? = nil) -> String {
        let r = Plot.f1
        let fs = layout.font
        let inWindow: (Point2) -> Bool = { $0.t >= self.tStart && $0.t <= self.tEnd }
        let g = golden[channel] ?? []
        let a = actual[channel] ?? []
        let isLocation = channel == .location
        var values = (g + a).filter(inWindow).map(\.v)
        if isZoom {
            for series in [g, a] {
                for t in [tStart, tEnd] { if let v = Plot.value(series, at: t) { values.append(v) } }
            }
            if isLocation {
                for m in marks where m.t >= tStart && m.t <= tEnd {
                    values += [m.goldenLocation, m.actualLocation].compactMap { $0 }
                }
            }
        }
        if isLocation && !isZoom {
            values +=
                anchors.map(\.1) + finger.map(\.v) + observed.map(\.v)
                + marks.flatMap { [$0.goldenLocation, $0.actualLocation].compactMap { $0 } }
        }
        values = values.filter(\.isFinite)
        var lo = values.min() ?? 0
        var hi = values.max() ?? 1
        if hi - lo < 1e-9 {
            lo -= 1
            hi += 1
        }
        let pad = (hi - lo) * 0.06
        lo -= pad
        hi += pad
        let showLanes = isLocation && !isZoom
        let lanes = showLanes ? laneBlocks() : []
        let f = frame(channel: channel, lanes: showLanes)
        let top = f.top
        let plotHeight = f.plotHeight
        var height = showLanes ? f.lanesTop : top + plotHeight + 3 * fs + 10
        for block in lanes { height += Double(max(1, block.rows.count)) * (fs + 6) + 8 }
        // Screen-like: larger coordinates lower down.
        func y(_ v: Double) -> Double { top + (v - lo) / (hi - lo) * plotHeight }
        let variant = layout.narrow ? "narrow" : "wide"
        var s =
            "<svg class=\"plot \(variant)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(r(width))\" height=\"\(r(height))\" viewBox=\"0 0 \(r(width)) \(r(height))\" role=\"img\" aria-label=\"\(id ?? channel.rawValue)\" font-size=\"\(r(fs))\">\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(r(width))\" height=\"\(r(height))\" fill=\"#ffffff\"/>\n"

        // State bands (actual) behind the plot, and state strips above it.
        func clamp(_ v: Double) -> Double { min(max(v, left), left + plotWidth) }
        for (i, st) in actualStates.enumerated() {
            let x0 = clamp(x(st.0))
            let x1 = clamp(x(i + 1 < actualStates.count ? actualStates[i + 1].0 : tEnd))
            guard x1 > x0 else { continue }
            s +=
                "<rect x=\"\(r(x0))\" y=\"\(r(top))\" width=\"\(r(max(0.5, x1 - x0)))\" height=\"\(r(plotHeight))\" fill=\"\(HTMLReport.stateColor(st.1, strong: false))\"/>\n"
        }
        if !isZoom {
            if hasGolden {
                s += strip(goldenStates, y0: f.stripsTop, h: f.stripHeight, label: sideTitle(goldenName, "state"))
                s += strip(
                    actualStates, y0: f.stripsTop + f.stripHeight + 2, h: f.stripHeight,
                    label: sideTitle(actualName, "state"))
            } else {
                s += strip(actualStates, y0: f.stripsTop, h: f.stripHeight, label: "state")
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
        s += hoverColumns(top: top, plotHeight: plotHeight)

        // Anchors, labels spread so that they never overprint: right of the plot (wide) or inside
        // it above their line (narrow).
        if isLocation {
            let visible = anchors.filter { $0.1 >= lo && $0.1 <= hi }
            let labelY = Plot.spread(visible.map { layout.narrow ? y($0.1) - 3 : y($0.1) + fs * 0.35 }, gap: fs + 1)
            for (k, (name, p)) in visible.enumerated() {
                s +=
                    "<line x1=\"\(r(left))\" y1=\"\(r(y(p)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(p)))\" stroke=\"#57606a\" stroke-dasharray=\"5 4\" stroke-width=\"1\"><title>anchor \(Markup.escape(name)) \(CanonicalNumber.format(p)) pt</title></line>\n"
                let text = "\(Markup.escape(name)) \(Plot.anchorText(p))"
                if layout.narrow {
                    s +=
                        "<text x=\"\(r(left + plotWidth - 4))\" y=\"\(r(labelY[k]))\" text-anchor=\"end\" fill=\"#1f2328\">\(text)</text>\n"
                } else {
                    s +=
                        "<text x=\"\(r(left + plotWidth + 6))\" y=\"\(r(labelY[k]))\" fill=\"#1f2328\">\(text)</text>\n"
                }
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
            var move = true
            for p in pts {
                guard p.v.isFinite else {
                    move = true
                    continue
                }
                d +=
                    (move ? (d.isEmpty ? "M" : " M") : " L") + "\(r(x(p.t))) \(FixedNumber.format(y(p.v), decimals: 2))"
                move = false
            }
            return d
        }
        s += "<g>\n"
        if isLocation {
            for p in finger where inWindow(p) && p.v.isFinite && p.v >= lo && p.v <= hi {
                s +=
                    "<circle cx=\"\(r(x(p.t)))\" cy=\"\(r(y(p.v)))\" r=\"2.4\" fill=\"\(HTMLReport.fingerColor)\" fill-opacity=\"0.8\"/>\n"
            }
            for p in observed where inWindow(p) && p.v.isFinite && p.v >= lo && p.v <= hi {
                s +=
                    "<rect x=\"\(r(x(p.t) - 2.2))\" y=\"\(r(y(p.v) - 2.2))\" width=\"4.4\" height=\"4.4\" fill=\"\(HTMLReport.observedColor)\" fill-opacity=\"0.85\"/>\n"
            }
        }
        if !g.isEmpty {
            s +=
                "<path d=\"\(path(g))\" fill=\"none\" stroke=\"\(HTMLReport.goldenColor)\" stroke-width=\"5\" stroke-linejoin=\"round\" stroke-opacity=\"0.75\"/>\n"
        }
        if !a.isEmpty {
            s +=
                "<path d=\"\(path(a))\" fill=\"none\" stroke=\"\(HTMLReport.actualColor)\" stroke-width=\"1.6\" stroke-linejoin=\"round\"/>\n"
        }
        if isZoom {
            for p in g where inWindow(p) && p.v.isFinite {
                s +=
                    "<circle cx=\"\(r(x(p.t)))\" cy=\"\(r(y(p.v)))\" r=\"4\" fill=\"none\" stroke=\"\(HTMLReport.goldenColor)\" stroke-width=\"1.5\"/>\n"
            }
            for p in a where inWindow(p) && p.v.isFinite {
                s += "<circle cx=\"\(r(x(p.t)))\" cy=\"\(r(y(p.v)))\" r=\"2\" fill=\"\(HTMLReport.actualColor)\"/>\n"
            }
        }
        s += "</g>\n"
        s += eventMarks(
            top: top, plotHeight: plotHeight, lanes: showLanes ? (f.lanesTop - fs, height - 4) : nil,
            y: isLocation ? y : nil, lo: lo, hi: hi)
        s += divergenceLine(f, bottom: showLanes ? height - 4 : top + plotHeight)
        if showLanes { s += laneSVG(lanes, top: f.lanesTop) }
        s += "</svg>\n"
        return s
    }

    /// A state strip: a coloured span per state, named when it is wide enough, with its time
    /// span on hover.
    func strip(_ states: [(Double, String)], y0: Double, h: Double, label: String) -> String {
        let r = Plot.f1
        func clamp(_ v: Double) -> Double { min(max(v, left), left + plotWidth) }
        var out =
            "<text x=\"\(r(left - 6))\" y=\"\(r(y0 + h - 4))\" text-anchor=\"end\" fill=\"#57606a\">\(Markup.escape(label))</text>\n"
        for (i, st) in states.enumerated() {
            let end = i + 1 < states.count ? states[i + 1].0 : tEnd
            let x0 = clamp(x(st.0))
            let x1 = clamp(x(end))
            guard x1 > x0 else { continue }
            out +=
                "<rect x=\"\(r(x0))\" y=\"\(r(y0))\" width=\"\(r(max(0.5, x1 - x0)))\" height=\"\(r(h))\" fill=\"\(HTMLReport.stateColor(st.1, strong: true))\">"
                + "<title>\(Markup.escape(label)): \(Markup.escape(st.1)) from \(FixedNumber.format(st.0, decimals: 6)) s</title></rect>\n"
            if x1 - x0 > layout.textWidth(st.1) + 8 {
                out +=
                    "<text x=\"\(r(x0 + 4))\" y=\"\(r(y0 + h - 4))\" fill=\"#1f2328\">\(Markup.escape(st.1))</text>\n"
            }
        }
        return out
    }

    /// Grid lines, tick labels and the frame of a plot area; the time axis along the bottom; the
    /// value axis's title rotated on the left (wide layout; the narrow one has it in the heading).
    func axes(lo: Double, hi: Double, top: Double, plotHeight: Double, y: (Double) -> Double, label: String) -> String {
        let r = Plot.f1
        let fs = layout.font
        var s = ""
        let ty = Plot.step(hi - lo, target: plotHeight > 250 ? 8 : 5)
        let dy = Plot.decimals(for: ty)
        var v = (lo / ty).rounded(.up) * ty
        // A range a step cannot walk (values so large that v + step == v, or an overflowed span)
        // gets no grid: the loop stops there instead of spinning.
        var lines = 0
        while v <= hi + 1e-9 * abs(hi) && v + ty > v && lines < Plot.maximumGridLines {
            lines += 1
            s +=
                "<line x1=\"\(r(left))\" y1=\"\(r(y(v)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(v)))\" stroke=\"#000\" stroke-opacity=\"0.07\"/>\n"
            s +=
                "<text x=\"\(r(left - 6))\" y=\"\(r(y(v) + fs * 0.35))\" text-anchor=\"end\" fill=\"#57606a\">\(FixedNumber.format(abs(v) < ty * 1e-6 ? 0 : v, decimals: dy))</text>\n"
            v += ty
        }
        let tx = Plot.step(tEnd - tStart, target: layout.narrow ? 4 : 10)
        let dx = Plot.decimals(for: tx)
        var t = (tStart / tx).rounded(.up) * tx
        var columns = 0
        while t <= tEnd + 1e-12 && t + tx > t && columns < Plot.maximumGridLines {
            columns += 1
            s +=
                "<line x1=\"\(r(x(t)))\" y1=\"\(r(top))\" x2=\"\(r(x(t)))\" y2=\"\(r(top + plotHeight))\" stroke=\"#000\" stroke-opacity=\"0.07\"/>\n"
            s +=
                "<text x=\"\(r(x(t)))\" y=\"\(r(top + plotHeight + fs + 4))\" text-anchor=\"middle\" fill=\"#57606a\">\(FixedNumber.format(t, decimals: dx))</text>\n"
            t += tx
        }
        s +=
            "<rect x=\"\(r(left))\" y=\"\(r(top))\" width=\"\(r(plotWidth))\" height=\"\(r(plotHeight))\" fill=\"none\" stroke=\"#8c959f\"/>\n"
        s +=
            "<text x=\"\(r(left + plotWidth / 2))\" y=\"\(r(top + plotHeight + 2 * fs + 8))\" text-anchor=\"middle\" fill=\"#57606a\">time (s)</text>\n"
        if !label.isEmpty && !layout.narrow {
            s +=
                "<text x=\"\(r(fs + 4))\" y=\"\(r(top + plotHeight / 2))\" text-anchor=\"middle\" fill=\"#57606a\" transform=\"rotate(-90 \(r(fs + 4)) \(r(top + plotHeight / 2)))\">\(label)</text>\n"
        }
        return s
    }

    /// Transparent columns over the plot area, one per frame, whose hover text gives the values
    /// there (golden, actual, Δ). Drawn under the series and marks, which carry their own.
    func hoverColumns(top: Double, plotHeight: Double) -> String {
        let r = Plot.f1
        var s = "<g fill=\"#ffffff\" fill-opacity=\"0\">\n"
        for h in hovers where h.t1 > tStart && h.t0 < tEnd {
            let x0 = max(left, x(max(h.t0, tStart)))
            let x1 = min(left + plotWidth, x(min(h.t1, tEnd)))
            guard x1 - x0 > 0.05 else { continue }
            s +=
                "<rect x=\"\(r(x0))\" y=\"\(r(top))\" width=\"\(FixedNumber.format(x1 - x0, decimals: 2))\" height=\"\(r(plotHeight))\"><title>\(Markup.escape(h.title))</title></rect>\n"
        }
        return s + "</g>\n"
    }

    /// Differing events: a dashed line across the plot (and the lanes) at their time and a
    /// triangle on the time axis; on the location plot the golden's value (ring) and the actual's
    /// (dot) joined by a line.
    func eventMarks(
        top: Double, plotHeight: Double, lanes: (top: Double, bottom: Double)?, y: ((Double) -> Double)?, lo: Double,
        hi: Double
    ) -> String {
        let r = Plot.f1
        var s = ""
        let alert = HTMLReport.alertColor
        for m in marks where m.t >= tStart && m.t <= tEnd {
            let mx = x(m.t)
            let axis = top + plotHeight
            let title =
                "<title>differs: \(Markup.escape(m.label)) at t = \(FixedNumber.format(m.t, decimals: 6)) s</title>"
            s += "<g data-mark=\"event-divergence\">\(title)"
            // Across the plot and across the lanes (not over the time axis's labels).
            for (y0, y1) in [(top, axis)] + (lanes.map { [$0] } ?? []) {
                s +=
                    "<line x1=\"\(r(mx))\" y1=\"\(r(y0))\" x2=\"\(r(mx))\" y2=\"\(r(y1))\" stroke=\"\(alert)\" stroke-width=\"1\" stroke-dasharray=\"2 3\" stroke-opacity=\"0.8\"/>"
            }
            s +=
                "<path d=\"M\(r(mx)) \(r(axis - 7)) L\(r(mx - 5)) \(r(axis + 1)) L\(r(mx + 5)) \(r(axis + 1)) Z\" fill=\"\(alert)\"/>"
            if let y, let gv = m.goldenLocation, let av = m.actualLocation, gv.isFinite, av.isFinite, gv >= lo,
                gv <= hi, av >= lo, av <= hi
            {
                s +=
                    "<line x1=\"\(r(mx))\" y1=\"\(r(y(gv)))\" x2=\"\(r(mx))\" y2=\"\(r(y(av)))\" stroke=\"\(alert)\" stroke-width=\"2\"/>"
                s +=
                    "<circle cx=\"\(r(mx))\" cy=\"\(r(y(gv)))\" r=\"5.5\" fill=\"#ffffff\" stroke=\"\(HTMLReport.goldenColor)\" stroke-width=\"2.5\"/>"
                s +=
                    "<circle cx=\"\(r(mx))\" cy=\"\(r(y(av)))\" r=\"4\" fill=\"\(HTMLReport.actualColor)\" stroke=\"\(alert)\" stroke-width=\"1.5\"/>"
            }
            s += "</g>\n"
        }
        return s
    }

    /// The line at the first difference (or, zoomed, at the window's subject) with its label in
    /// the band above the strips.
    func divergenceLine(_ f: Frame, bottom: Double) -> String {
        guard let (dt, fullLabel) = divergence, dt >= tStart, dt <= tEnd else { return "" }
        let r = Plot.f1
        let dx = x(dt)
        var s =
            "<line x1=\"\(r(dx))\" y1=\"\(r(f.bandBaseline + 3))\" x2=\"\(r(dx))\" y2=\"\(r(f.top + f.plotHeight))\" stroke=\"\(HTMLReport.alertColor)\" stroke-width=\"1.5\"/>\n"
        let label = layout.narrow ? fullLabel.replacingOccurrences(of: "first difference: ", with: "") : fullLabel
        let w = layout.textWidth(label)
        let anchorEnd = dx + 4 + w > width - 2 && dx - 4 - w >= 2
        let lx = anchorEnd ? dx - 4 : min(dx + 4, max(2, width - 2 - w))
        s +=
            "<text x=\"\(r(lx))\" y=\"\(r(f.bandBaseline))\" fill=\"\(HTMLReport.alertColor)\"\(anchorEnd ? " text-anchor=\"end\"" : "")>\(Markup.escape(label))</text>\n"
        return s
    }
}

extension Plot {
    /// A title left of a strip or lane block that fits the left margin: `golden state`, else
    /// `header state` (the role's first word), else the first word alone.
    func sideTitle(_ role: String, _ what: String) -> String {
        let room = left - 10
        for candidate in ["\(role) \(what)", "\(role.shortName) \(what)"] where layout.textWidth(candidate) <= room {
            return candidate
        }
        return role.shortName
    }

    /// An anchor's location as labelled: at most two decimals (the hover text has every digit).
    static func anchorText(_ p: Double) -> String { ReportNumber.trimmed(FixedNumber.format(p, decimals: 2)) }
}

extension String {
    /// The first word of a result's role name, for the narrow layout's side titles ("header
    /// values" → "header").
    var shortName: String { split(separator: " ").first.map(String.init) ?? self }
}
