import PanelSimCore
import PanelTrace

extension Plot {
    /// A series of a residual chart.
    struct ResidualSeries {
        var label: String
        var color: String
        var points: [Point2]
        /// Drawn as dots (event values, observations) instead of a step line.
        var dots = false
        /// Drawn wide and translucent under the others (the golden's role).
        var wide = false
    }

    /// The residual of the comparison: actual − golden of the location over the aligned frames
    /// (a step line) and of differing events' `location` (dots), with the tolerance band; both
    /// renderings.
    func residualPair(tolerance: Tolerance) -> String {
        let series = [
            ResidualSeries(label: "frames", color: HTMLReport.alertColor, points: residual),
            ResidualSeries(label: "events", color: HTMLReport.alertColor, points: residualEvents, dots: true),
        ]
        var narrow = self
        narrow.layout = .phone
        return residualSVG(series, band: tolerance.absolute, label: "actual − golden (pt)")
            + narrow.residualSVG(series, band: tolerance.absolute, label: "actual − golden (pt)")
    }

    /// A residual chart: differences over time, drawn like the location plot above it (a
    /// positive difference, actual larger, is lower), with the band ±`band` shaded, the largest
    /// location error marked, and each point's value on hover.
    func residualSVG(_ series: [ResidualSeries], band: Double, label: String) -> String {
        let r = Plot.f1
        let fs = layout.font
        let all = series.flatMap(\.points).filter { $0.t >= tStart && $0.t <= tEnd }.map(\.v).filter(\.isFinite)
        var m = max(band * 1.5, all.map { abs($0) }.max() ?? 0)
        if m < 1e-9 || !m.isFinite { m = 1 }
        let lo = -m * 1.1
        let hi = m * 1.1
        let top = fs + 12
        let plotHeight = layout.narrow ? 140.0 : 150.0
        let height = top + plotHeight + 2 * fs + 14
        // Larger is lower, as on the location plot.
        func y(_ v: Double) -> Double { top + (v - lo) / (hi - lo) * plotHeight }
        let variant = layout.narrow ? "narrow" : "wide"
        var s =
            "<svg class=\"plot \(variant)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(r(width))\" height=\"\(r(height))\" viewBox=\"0 0 \(r(width)) \(r(height))\" role=\"img\" aria-label=\"residual\" font-size=\"\(r(fs))\">\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(r(width))\" height=\"\(r(height))\" fill=\"#ffffff\"/>\n"
        if band > 0 && band.isFinite {
            let b = min(band, hi)
            s +=
                "<rect x=\"\(r(left))\" y=\"\(FixedNumber.format(y(-b), decimals: 2))\" width=\"\(r(plotWidth))\" height=\"\(FixedNumber.format(max(0.5, y(b) - y(-b)), decimals: 2))\" fill=\"\(HTMLReport.bandColor)\" fill-opacity=\"0.28\"><title>tolerance ±\(CanonicalNumber.format(band)) pt</title></rect>\n"
        }
        s += axes(lo: lo, hi: hi, top: top, plotHeight: plotHeight, y: y, label: label)
        s +=
            "<line x1=\"\(r(left))\" y1=\"\(r(y(0)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(0)))\" stroke=\"#57606a\" stroke-width=\"1\"/>\n"
        for line in series {
            let pts = line.points.filter { $0.v.isFinite }
            if line.dots {
                for p in pts where p.t >= tStart && p.t <= tEnd {
                    s +=
                        "<circle cx=\"\(r(x(p.t)))\" cy=\"\(r(y(p.v)))\" r=\"4\" fill=\"\(line.color)\"><title>\(Markup.escape(line.label)) t = \(FixedNumber.format(p.t, decimals: 6)) s: Δ \(CanonicalNumber.format(p.v))</title></circle>\n"
                }
                continue
            }
            var d = ""
            for p in pts {
                d +=
                    (d.isEmpty ? "M" : " L")
                    + "\(r(x(min(max(p.t, tStart), tEnd)))) \(FixedNumber.format(y(p.v), decimals: 2))"
            }
            if !d.isEmpty {
                s +=
                    "<path d=\"\(d)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"\(line.wide ? "4\" stroke-opacity=\"0.75" : "1.6")\" stroke-linejoin=\"round\"><title>\(Markup.escape(line.label))</title></path>\n"
            }
        }
        let bandText = "tolerance ±\(CanonicalNumber.format(band)) pt"
        if band > 0 && band.isFinite {
            s +=
                "<text x=\"\(r(left + plotWidth - 4))\" y=\"\(r(top + fs + 2))\" text-anchor=\"end\" fill=\"#57606a\">\(bandText)</text>\n"
        }
        if let (lt, text) = largest, lt >= tStart, lt <= tEnd {
            let lx = x(lt)
            s +=
                "<line x1=\"\(r(lx))\" y1=\"\(r(top - 2))\" x2=\"\(r(lx))\" y2=\"\(r(top + plotHeight))\" stroke=\"\(HTMLReport.alertColor)\" stroke-dasharray=\"3 3\"/>\n"
            let label =
                layout.narrow ? text.replacingOccurrences(of: "largest location error ", with: "largest ") : text
            let w = layout.textWidth(label)
            let anchorEnd = lx + 4 + w > width - 2 && lx - 4 - w >= 2
            let tx = anchorEnd ? lx - 4 : min(lx + 4, max(2, width - 2 - w))
            s +=
                "<text x=\"\(r(tx))\" y=\"\(r(fs + 2))\" fill=\"\(HTMLReport.alertColor)\"\(anchorEnd ? " text-anchor=\"end\"" : "")>\(Markup.escape(label))</text>\n"
        }
        return s + "</svg>\n"
    }
}
