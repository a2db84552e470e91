import PanelSimCore
import PanelTrace

/// A self-contained HTML report of one trace: golden and actual trajectories overlaid in inline
/// SVG (surface location, and content offset when present), state bands, anchor lines, delegate
/// events along the time axis, the comparison report and the event table.
///
/// The output is a pure function of the input: no dates, no external resources, numbers by
/// `FixedNumber`/`CanonicalNumber`, text escaped by `Markup.escape`.
public enum HTMLReport {
    /// What a report shows.
    public struct Input: Sendable {
        /// Heading (usually the trace path).
        public var title: String
        /// The trace header, for anchors and the panel position; nil when unknown (`diff`).
        public var header: TraceHeader?
        /// The golden (expected) result; nil when there is none.
        public var golden: ResultDocument?
        /// The actual result.
        public var actual: ResultDocument
        /// The comparison of `golden` with `actual`, when there is a golden.
        public var comparison: Comparison?
        /// How the golden is named in the legend.
        public var goldenName: String
        /// The replayed trace: its touch samples (the finger) and `observed` samples are drawn on
        /// the location plot. Nil leaves them out.
        public var trace: Trace?
        /// The tolerances of the comparison: the residual plot's band.
        public var tolerances: Tolerances = .default
        public init(title: String, header: TraceHeader?, golden: ResultDocument?, actual: ResultDocument,
                    comparison: Comparison?, goldenName: String = "golden") {
            self.title = title; self.header = header; self.golden = golden; self.actual = actual
            self.comparison = comparison; self.goldenName = goldenName
        }
    }

    public static let goldenColor = "#9aa3ad"
    public static let actualColor = "#1565c0"
    public static let alertColor = "#c62828"
    public static let fingerColor = "#ef6c00"
    public static let observedColor = "#2e7d32"
    static let palette = ["#e3f2fd", "#e8f5e9", "#fff8e1", "#f3e5f5", "#e0f7fa", "#fbe9e7", "#f1f8e9", "#ede7f6"]
    static let paletteStrong = ["#64b5f6", "#81c784", "#ffb74d", "#ba68c8", "#4dd0e1", "#ff8a65", "#aed581", "#9575cd"]

    /// One colour per state name, the same in every report (`report`, `diff`, `tune`): the
    /// states of the four systems by a fixed table, others by a stable hash of the name.
    /// - Complexity: O(name length).
    public static func stateColor(_ state: String, strong: Bool) -> String {
        let known = ["full": 0, "half": 1, "tip": 2, "hidden": -1, "open": 0, "barPresented": 1, "barHidden": -1,
                     "fullyExpanded": 0, "partiallyExpanded": 1, "collapsed": 2, "dismissed": -1,
                     "large": 0, "medium": 1, "small": 2, "transitioning": 3]
        var index: Int
        if let k = known[state] { index = k } else {
            var h: UInt32 = 2166136261
            for b in state.utf8 { h = (h ^ UInt32(b)) &* 16777619 }
            index = 3 + Int(h % 5)
        }
        if index < 0 { return strong ? "#bdbdbd" : "#f5f5f5" }
        index %= palette.count
        return strong ? paletteStrong[index] : palette[index]
    }

    /// The style sheet every PanelSim HTML report shares (`report`, `diff --report`, check's
    /// reports, `tune --report`): responsive SVG, no token broken mid-word.
    public static let styleSheet = """
        body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; margin: 24px auto; max-width: 1180px; padding: 0 16px; background: #fff; }
        h1 { font-size: 20px; margin: 0 0 4px; overflow-wrap: anywhere; }
        h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
        .meta { color: #57606a; font-size: 12px; margin-bottom: 12px; overflow-wrap: anywhere; }
        .verdict { font-size: 15px; margin: 8px 0 12px; padding: 8px 12px; border-radius: 6px; border-left: 5px solid #6e7781; background: #f6f8fa; overflow-wrap: anywhere; }
        .verdict.pass { border-color: #2e7d32; } .verdict.fail { border-color: #c62828; background: #fff5f5; } .verdict.skip { border-color: #9a6700; }
        .badge { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; font-size: 12px; color: #fff; vertical-align: middle; margin-left: 8px; }
        .badge.pass { background: #2e7d32; } .badge.fail { background: #c62828; } .badge.none { background: #6e7781; } .badge.skip { background: #9a6700; }
        pre { white-space: pre; overflow-x: auto; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 10px 12px; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        pre .del { color: #b31d28; background: #ffeef0; display: inline-block; min-width: 100%; } pre .ins { color: #22863a; background: #f0fff4; display: inline-block; min-width: 100%; }
        svg.plot { display: block; margin: 8px 0; width: 100%; height: auto; max-width: 1120px; }
        svg text { font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
        .scroll { overflow-x: auto; max-width: 100%; }
        table { border-collapse: collapse; width: 100%; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        th, td { border-bottom: 1px solid #eaeef2; padding: 3px 8px; text-align: left; vertical-align: top; }
        th { background: #f6f8fa; position: sticky; top: 0; }
        tr.del td { background: #ffebe9; } tr.ins td { background: #e6ffec; } tr.chg td { background: #fff8c5; } tr.run td { color: #57606a; font-style: italic; }
        td.num { text-align: right; white-space: nowrap; } td.mark { width: 1em; font-weight: 700; }
        details { margin: 8px 0; } summary { cursor: pointer; color: #0969da; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 12px; }
        .legend span { overflow-wrap: anywhere; }
        .sw { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 6px; }
        """

    /// The whole HTML document: verdict, plots (trajectory with the finger and `observed`
    /// samples, residual, zoom on the first divergence), the text report, the event table.
    /// - Complexity: O(records of both results + samples + anchors).
    public static func render(_ input: Input) -> String {
        let actual = input.actual, golden = input.golden
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Markup.escape(input.title)) — PanelSim report</title>
            <style>
            \(styleSheet)
            </style>
            </head>
            <body>

            """
        let status: (String, String)
        switch input.comparison?.status {
        case .passed?: status = ("pass", "PASS")
        case .failed?: status = ("fail", "FAIL")
        case .incompatible?: status = ("skip", "OTHER FORMAT VERSION")
        case nil: status = ("none", golden == nil ? "NO GOLDEN" : "NOT COMPARED")
        }
        html += "<h1>\(Markup.escape(input.title))<span class=\"badge \(status.0)\">\(status.1)</span></h1>\n"
        html += "<p class=\"verdict \(status.0)\">\(verdict(input))</p>\n"

        let plot = Plot(input: input)
        html += legend(input: input, plot: plot)
        html += "<h2>Surface location</h2>\n"
        html += plot.svg(channel: .location)
        if golden != nil, plot.has(.location) {
            html += "<h2>Residual: actual − golden (location, pt)</h2>\n"
            html += plot.residualSVG(tolerance: input.tolerances.location)
        }
        if let zoom = plot.zoomed() {
            html += "<h2>Zoom around the first divergence</h2>\n"
            html += zoom.svg(channel: .location, id: "zoom")
        }
        if plot.hasContentOffset {
            html += "<h2>Content offset</h2>\n"
            html += plot.svg(channel: .contentOffset)
        }
        // LNPopup frames: the bar's and the bottom bar's top edges (lnpopup.md §2.3).
        for (channel, title) in [(Plot.Series.barTop, "Bar top"), (.bottomBarTop, "Bottom bar top")] where plot.has(channel) {
            html += "<h2>\(title)</h2>\n"
            html += plot.svg(channel: channel)
        }
        if let c = input.comparison, c.status != .passed {
            html += "<h2>Failure report</h2>\n"
            html += "<pre>" + c.report(indent: "").split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                let trimmed = line.drop(while: { $0 == " " })
                let escaped = Markup.escape(String(line))
                if trimmed.hasPrefix("- ") || trimmed.hasPrefix("-#") || (trimmed.hasPrefix("-") && !trimmed.hasPrefix("---")) { return "<span class=\"del\">\(escaped)</span>" }
                if trimmed.hasPrefix("+ ") || (trimmed.hasPrefix("+") && !trimmed.hasPrefix("+++")) { return "<span class=\"ins\">\(escaped)</span>" }
                return escaped
            }.joined(separator: "\n") + "</pre>\n"
        }
        html += "<h2>Delegate events</h2>\n"
        html += eventTable(golden: golden, actual: actual)
        var meta = "trace \(Markup.escape(actual.header.trace)) · \(actual.header.frameRate) Hz · display scale \(CanonicalNumber.format(actual.header.displayScale)) · \(Markup.escape(actual.header.engine))"
        if let h = input.header {
            let what = Markup.escape(GoldenSystems.description(for: h.model)?.subtitle(for: h) ?? "\(h.model.rawValue) panel")
            meta += " · \(what), \(CanonicalNumber.format(h.environment.container.width))×\(CanonicalNumber.format(h.environment.container.height)) pt"
        }
        html += "<h2>Result</h2>\n<div class=\"meta\">\(meta)<br>trace digest \(Markup.escape(actual.header.traceDigest))"
        if !actual.header.parameterDigest.isEmpty { html += "<br>parameter digest \(Markup.escape(actual.header.parameterDigest))" }
        html += "</div>\n"
        html += "</body>\n</html>\n"
        return html
    }

    /// One sentence: the outcome and, for a failure, where it first diverges.
    static func verdict(_ input: Input) -> String {
        guard let c = input.comparison else {
            return input.golden == nil ? "No golden to compare with: the actual result is shown alone (\(input.actual.records.count) records)."
                                       : "Not compared."
        }
        switch c.status {
        case .passed: return "Matches the golden within tolerances (\(c.expectedCount) records)."
        case .incompatible(let v): return "The golden is result format version \(v); not compared."
        case .failed:
            var header = ""
            if !c.headerDifferences.isEmpty {
                header = "Differs from the golden in the header: "
                    + c.headerDifferences.map { "expected \(Markup.escape($0.expected)), actual \(Markup.escape($0.actual))" }.joined(separator: "; ")
                    + ". "
            }
            guard let d = c.firstRecordDivergence else {
                return header.isEmpty ? "Differs from the golden." : header + "The records match within tolerances."
            }
            var at = "t = \(CanonicalNumber.formatSeconds(d.time)) s"
            if let f = d.frame { at += ", frame \(f)" }
            var text = header + (header.isEmpty ? "Differs from the golden: first" : "The records differ: first")
                + " at <b>\(at)</b> on <b>\(Markup.escape(d.channelName))</b>: expected \(Markup.escape(d.expected)), actual \(Markup.escape(d.actual))"
            if let e = d.error { text += " (|error| \(CanonicalNumber.format(e)))" }
            text += ". \(c.divergentRecords) records differ"
            if let x = c.firstDiscreteDivergence, x != d {
                text += "; events, states and decisions first differ at t = \(CanonicalNumber.formatSeconds(x.time)) s (\(Markup.escape(x.channelName)))"
            } else if c.firstDiscreteDivergence == nil {
                text += "; events, states and decisions are identical"
            }
            return text + "."
        }
    }

    static func legend(input: Input, plot: Plot) -> String {
        var s = "<div class=\"legend\">"
        if input.golden != nil { s += "<span><i class=\"sw\" style=\"background:\(goldenColor);height:5px\"></i>golden (\(Markup.escape(input.goldenName)))</span>" }
        s += "<span><i class=\"sw\" style=\"background:\(actualColor)\"></i>actual</span>"
        if !plot.anchors.isEmpty { s += "<span><i class=\"sw\" style=\"border-top:1px dashed #57606a;height:0\"></i>anchors</span>" }
        if !plot.finger.isEmpty { s += "<span><i class=\"sw\" style=\"background:\(fingerColor);width:6px;height:6px;border-radius:3px\"></i>finger (touch samples)</span>" }
        if !plot.observed.isEmpty { s += "<span><i class=\"sw\" style=\"background:\(observedColor);width:6px;height:6px\"></i>observed (device)</span>" }
        if plot.divergenceTime != nil { s += "<span><i class=\"sw\" style=\"background:\(alertColor)\"></i>first divergence</span>" }
        s += "</div>\n"
        return s
    }
}
