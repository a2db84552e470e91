import Foundation

/// A small, dependency-free line and scatter chart written as standalone SVG text (sweep plots).
/// Deterministic: the same data gives the same bytes. One layout for phones and desktops: a
/// 600-unit viewBox shown at most 640 px wide, text of 15 units (≥ 10 CSS px from 404 px of
/// width up), the legend below the plot.
struct SVGChart {
    enum Style { case line, dashed, dots }

    struct Series {
        var label: String
        /// (x, y) in data units; non-finite points are skipped.
        var points: [(x: Double, y: Double)]
        var color: String
        var style: Style = .line
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var series: [Series]
    var width = 600.0
    /// Height of the plot area (the legend below it adds rows as needed).
    var plotHeight = 300.0
    /// Draw y growing downwards (screen coordinates, e.g. a bottom panel's location).
    var invertY = false
    /// Mark the smallest y of the line series (a sweep's best point) with a ring and a label.
    var markMinimum = false

    /// A palette of distinguishable colours, without red (the reports' colour for differences).
    static let palette = [
        "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
    ]
    /// Label size (units); the title is a little larger.
    static let font = 15.0

    /// The `<svg>` element (with its xmlns), ending with a newline.
    /// - Complexity: O(points).
    func render() -> String {
        let font = Self.font
        // The title, wrapped at spaces to the chart's width.
        var titleLines: [String] = [""]
        for word in title.split(separator: " ") {
            let candidate =
                titleLines[titleLines.count - 1].isEmpty ? String(word) : titleLines[titleLines.count - 1] + " " + word
            if Double(candidate.count) * (font + 2) * 0.6 > width - 8 && !titleLines[titleLines.count - 1].isEmpty {
                titleLines.append(String(word))
            } else {
                titleLines[titleLines.count - 1] = candidate
            }
        }
        let left = 70.0
        let right = 16.0
        let top = 26.0 + Double(titleLines.count) * (font + 6)
        let plotW = width - left - right
        let plotH = plotHeight
        // Legend rows below the axis title: entries side by side while they fit.
        var legendRows: [[Int]] = [[]]
        var rowWidth = 0.0
        for (i, s) in series.enumerated() {
            let w = 34 + Double(s.label.count) * font * 0.6 + 18
            if rowWidth + w > width - 16 && !legendRows[legendRows.count - 1].isEmpty {
                legendRows.append([])
                rowWidth = 0
            }
            legendRows[legendRows.count - 1].append(i)
            rowWidth += w
        }
        let legendTop = top + plotH + 2 * font + 30
        let height = legendTop + Double(legendRows.count) * (font + 8) + 8
        let all = series.flatMap(\.points).filter { $0.x.isFinite && $0.y.isFinite }
        var (x0, x1) = (all.map(\.x).min() ?? 0, all.map(\.x).max() ?? 1)
        var (y0, y1) = (all.map(\.y).min() ?? 0, all.map(\.y).max() ?? 1)
        if x0 == x1 {
            x0 -= 0.5
            x1 += 0.5
        }
        if y0 == y1 {
            y0 -= 0.5
            y1 += 0.5
        }
        let pad = (y1 - y0) * 0.05
        y0 -= pad
        y1 += pad
        let xTicks = Self.ticks(x0, x1, count: 4)
        let yTicks = Self.ticks(y0, y1, count: 5)
        func px(_ x: Double) -> Double { left + (x - x0) / (x1 - x0) * plotW }
        func py(_ y: Double) -> Double {
            let f = (y - y0) / (y1 - y0)
            return invertY ? top + f * plotH : top + (1 - f) * plotH
        }
        // Scales with the page (the report's look: same fonts and colours as `panelsim report`).
        var out =
            "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" style=\"max-width:640px;height:auto;display:block\" font-family=\"-apple-system, Segoe UI, Roboto, Arial, sans-serif\" font-size=\"\(Self.n(font))\" fill=\"#1f2328\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        for (i, line) in titleLines.enumerated() {
            out +=
                "<text x=\"\(Self.n(width / 2))\" y=\"\(Self.n(22 + Double(i) * (font + 6)))\" text-anchor=\"middle\" font-size=\"\(Self.n(font + 2))\" font-weight=\"bold\">\(Self.escape(line))</text>\n"
        }
        for t in xTicks {
            let x = px(t)
            out +=
                "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(top))\" x2=\"\(Self.n(x))\" y2=\"\(Self.n(top + plotH))\" stroke=\"#e6e6e6\"/>\n"
            out +=
                "<text x=\"\(Self.n(x))\" y=\"\(Self.n(top + plotH + font + 6))\" text-anchor=\"middle\">\(Self.label(t))</text>\n"
        }
        for t in yTicks {
            let y = py(t)
            out +=
                "<line x1=\"\(Self.n(left))\" y1=\"\(Self.n(y))\" x2=\"\(Self.n(left + plotW))\" y2=\"\(Self.n(y))\" stroke=\"#e6e6e6\"/>\n"
            out +=
                "<text x=\"\(Self.n(left - 6))\" y=\"\(Self.n(y + font * 0.35))\" text-anchor=\"end\">\(Self.label(t))</text>\n"
        }
        out +=
            "<rect x=\"\(Self.n(left))\" y=\"\(Self.n(top))\" width=\"\(Self.n(plotW))\" height=\"\(Self.n(plotH))\" fill=\"none\" stroke=\"#333\"/>\n"
        out +=
            "<text x=\"\(Self.n(left + plotW / 2))\" y=\"\(Self.n(top + plotH + 2 * font + 14))\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>\n"
        out +=
            "<text transform=\"translate(\(Self.n(font + 2)) \(Self.n(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">\(Self.escape(yLabel))</text>\n"
        out += "<g clip-path=\"none\">\n"
        for s in series {
            let pts = s.points.filter { $0.x.isFinite && $0.y.isFinite }
            switch s.style {
            case .dots:
                for p in pts {
                    out +=
                        "<circle cx=\"\(Self.n(px(p.x)))\" cy=\"\(Self.n(py(p.y)))\" r=\"2\" fill=\"\(s.color)\" fill-opacity=\"0.7\"/>\n"
                }
            case .line, .dashed:
                guard !pts.isEmpty else { continue }
                let d = pts.enumerated().map {
                    "\($0.offset == 0 ? "M" : "L")\(Self.n(px($0.element.x))) \(Self.n(py($0.element.y)))"
                }.joined(separator: " ")
                let dash = s.style == .dashed ? " stroke-dasharray=\"6 4\"" : ""
                out +=
                    "<path d=\"\(d)\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash)><title>\(Self.escape(s.label))</title></path>\n"
                if pts.count <= 40 {
                    for p in pts {
                        out +=
                            "<circle cx=\"\(Self.n(px(p.x)))\" cy=\"\(Self.n(py(p.y)))\" r=\"3\" fill=\"\(s.color)\"><title>\(Self.escape(s.label)): \(Self.label(p.x)), \(Self.label(p.y))</title></circle>\n"
                    }
                }
            }
        }
        var best: (p: (x: Double, y: Double), s: Series)?
        for s in series where s.style != .dots {
            for p in s.points where p.x.isFinite && p.y.isFinite {
                if let b = best, !(p.y < b.p.y || (p.y == b.p.y && p.x < b.p.x)) { continue }
                best = (p, s)
            }
        }
        if markMinimum, let best {
            // Ringed and labelled in the colour of the curve it is on.
            let (bx, by) = (px(best.p.x), py(best.p.y))
            out +=
                "<circle cx=\"\(Self.n(bx))\" cy=\"\(Self.n(by))\" r=\"8\" fill=\"none\" stroke=\"\(best.s.color)\" stroke-width=\"2.5\"/>\n"
            let text = "minimum \(Self.label(best.p.y)) at \(Self.label(best.p.x))"
            let w = Double(text.count) * font * 0.6
            let anchorEnd = bx + 12 + w > left + plotW
            let ty =
                invertY ? (by + 24 > top + plotH ? by - 12 : by + 24) : (by - 12 < top + font + 2 ? by + 24 : by - 12)
            out +=
                "<text x=\"\(Self.n(anchorEnd ? max(left + w + 2, bx - 12) : bx + 12))\" y=\"\(Self.n(ty))\" text-anchor=\"\(anchorEnd ? "end" : "start")\" fill=\"\(best.s.color)\" font-weight=\"bold\" stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\">\(Self.escape(text))</text>\n"
        }
        out += "</g>\n"
        // Legend, below the plot.
        for (r, row) in legendRows.enumerated() {
            var x = 16.0
            let y = legendTop + Double(r) * (font + 8)
            for i in row {
                let s = series[i]
                switch s.style {
                case .dots:
                    out +=
                        "<circle cx=\"\(Self.n(x + 12))\" cy=\"\(Self.n(y - font * 0.35))\" r=\"3.5\" fill=\"\(s.color)\"/>\n"
                case .line, .dashed:
                    let dash = s.style == .dashed ? " stroke-dasharray=\"6 4\"" : ""
                    out +=
                        "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(y - font * 0.35))\" x2=\"\(Self.n(x + 26))\" y2=\"\(Self.n(y - font * 0.35))\" stroke=\"\(s.color)\" stroke-width=\"2.5\"\(dash)/>\n"
                }
                out += "<text x=\"\(Self.n(x + 32))\" y=\"\(Self.n(y))\">\(Self.escape(s.label))</text>\n"
                x += 34 + Double(s.label.count) * font * 0.6 + 18
            }
        }
        out += "</svg>\n"
        return out
    }

    /// Round tick values (1, 2 or 5 × 10^k apart) covering [lo, hi], about `count` of them.
    static func ticks(_ lo: Double, _ hi: Double, count: Double = 5) -> [Double] {
        let raw = (hi - lo) / count
        guard raw > 0, raw.isFinite else { return [lo] }
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var out: [Double] = []
        var k = (lo / step).rounded(.up)
        while k * step <= hi + step * 1e-9 && out.count < 50 {
            out.append(k * step)
            k += 1
        }
        return out
    }

    /// A tick label: up to 6 significant digits, no exponent for everyday magnitudes.
    static func label(_ v: Double) -> String {
        let r = abs(v) < 1e-12 ? 0 : v
        return String(format: "%g", r)
    }

    /// A coordinate with two decimals.
    static func n(_ v: Double) -> String { String(format: "%.2f", v) }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
