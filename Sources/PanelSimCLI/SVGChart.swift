import Foundation

/// A small, dependency-free line and scatter chart written as standalone SVG text (for sweep
/// plots and the tuning report). Deterministic: the same data gives the same bytes.
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
    var width = 760.0
    var height = 440.0
    /// Draw y growing downwards (screen coordinates, e.g. a bottom panel's location).
    var invertY = false
    /// Mark the smallest y of the line series (a sweep's best point) with a ring and a label.
    var markMinimum = false

    /// A palette of distinguishable colors.
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]

    /// The `<svg>` element (with its xmlns), ending with a newline.
    /// - Complexity: O(points).
    func render() -> String {
        let left = 78.0, right = 200.0, top = 40.0, bottom = 58.0
        let plotW = width - left - right, plotH = height - top - bottom
        let all = series.flatMap(\.points).filter { $0.x.isFinite && $0.y.isFinite }
        var (x0, x1) = (all.map(\.x).min() ?? 0, all.map(\.x).max() ?? 1)
        var (y0, y1) = (all.map(\.y).min() ?? 0, all.map(\.y).max() ?? 1)
        if x0 == x1 { x0 -= 0.5; x1 += 0.5 }
        if y0 == y1 { y0 -= 0.5; y1 += 0.5 }
        let pad = (y1 - y0) * 0.05
        y0 -= pad; y1 += pad
        let xTicks = Self.ticks(x0, x1), yTicks = Self.ticks(y0, y1)
        func px(_ x: Double) -> Double { left + (x - x0) / (x1 - x0) * plotW }
        func py(_ y: Double) -> Double {
            let f = (y - y0) / (y1 - y0)
            return invertY ? top + f * plotH : top + (1 - f) * plotH
        }
        // Scales with the page (the report's look: same fonts and colours as `panelsim report`).
        var out = "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" style=\"max-width:\(Self.n(width))px;height:auto;display:block\" font-family=\"-apple-system, Segoe UI, Roboto, Arial, sans-serif\" font-size=\"12\" fill=\"#1f2328\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        out += "<text x=\"\(Self.n(left + plotW / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">\(Self.escape(title))</text>\n"
        for t in xTicks {
            let x = px(t)
            out += "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(top))\" x2=\"\(Self.n(x))\" y2=\"\(Self.n(top + plotH))\" stroke=\"#e6e6e6\"/>\n"
            out += "<text x=\"\(Self.n(x))\" y=\"\(Self.n(top + plotH + 18))\" text-anchor=\"middle\">\(Self.label(t))</text>\n"
        }
        for t in yTicks {
            let y = py(t)
            out += "<line x1=\"\(Self.n(left))\" y1=\"\(Self.n(y))\" x2=\"\(Self.n(left + plotW))\" y2=\"\(Self.n(y))\" stroke=\"#e6e6e6\"/>\n"
            out += "<text x=\"\(Self.n(left - 8))\" y=\"\(Self.n(y + 4))\" text-anchor=\"end\">\(Self.label(t))</text>\n"
        }
        out += "<rect x=\"\(Self.n(left))\" y=\"\(Self.n(top))\" width=\"\(Self.n(plotW))\" height=\"\(Self.n(plotH))\" fill=\"none\" stroke=\"#333\"/>\n"
        out += "<text x=\"\(Self.n(left + plotW / 2))\" y=\"\(Self.n(height - 14))\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>\n"
        out += "<text transform=\"translate(18 \(Self.n(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">\(Self.escape(yLabel))</text>\n"
        out += "<g clip-path=\"none\">\n"
        for s in series {
            let pts = s.points.filter { $0.x.isFinite && $0.y.isFinite }
            switch s.style {
            case .dots:
                for p in pts {
                    out += "<circle cx=\"\(Self.n(px(p.x)))\" cy=\"\(Self.n(py(p.y)))\" r=\"2\" fill=\"\(s.color)\" fill-opacity=\"0.7\"/>\n"
                }
            case .line, .dashed:
                guard !pts.isEmpty else { continue }
                let d = pts.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(Self.n(px($0.element.x))) \(Self.n(py($0.element.y)))" }.joined(separator: " ")
                let dash = s.style == .dashed ? " stroke-dasharray=\"6 4\"" : ""
                out += "<path d=\"\(d)\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash)/>\n"
                if pts.count <= 40 {
                    for p in pts { out += "<circle cx=\"\(Self.n(px(p.x)))\" cy=\"\(Self.n(py(p.y)))\" r=\"2.5\" fill=\"\(s.color)\"/>\n" }
                }
            }
        }
        if markMinimum, let best = series.filter({ $0.style != .dots }).flatMap(\.points)
            .filter({ $0.x.isFinite && $0.y.isFinite }).min(by: { $0.y < $1.y || ($0.y == $1.y && $0.x < $1.x) }) {
            let (bx, by) = (px(best.x), py(best.y))
            out += "<circle cx=\"\(Self.n(bx))\" cy=\"\(Self.n(by))\" r=\"7\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"2\"/>\n"
            let text = "minimum \(Self.label(best.y)) at \(Self.label(best.x))"
            let anchorEnd = bx + 10 + 7 * Double(text.count) > left + plotW
            let ty = invertY ? (by + 22 > top + plotH ? by - 12 : by + 22) : (by - 12 < top + 14 ? by + 22 : by - 12)
            out += "<text x=\"\(Self.n(anchorEnd ? bx - 10 : bx + 10))\" y=\"\(Self.n(ty))\"\(anchorEnd ? " text-anchor=\"end\"" : "") fill=\"#c62828\">\(Self.escape(text))</text>\n"
        }
        out += "</g>\n"
        // Legend.
        for (i, s) in series.enumerated() {
            let y = top + 10 + Double(i) * 20
            let x = left + plotW + 16
            switch s.style {
            case .dots: out += "<circle cx=\"\(Self.n(x + 12))\" cy=\"\(Self.n(y))\" r=\"3\" fill=\"\(s.color)\"/>\n"
            case .line, .dashed:
                let dash = s.style == .dashed ? " stroke-dasharray=\"6 4\"" : ""
                out += "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(y))\" x2=\"\(Self.n(x + 24))\" y2=\"\(Self.n(y))\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash)/>\n"
            }
            out += "<text x=\"\(Self.n(x + 30))\" y=\"\(Self.n(y + 4))\">\(Self.escape(s.label))</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// Round tick values (1, 2 or 5 × 10^k apart) covering [lo, hi], about five of them.
    static func ticks(_ lo: Double, _ hi: Double) -> [Double] {
        let raw = (hi - lo) / 5
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
