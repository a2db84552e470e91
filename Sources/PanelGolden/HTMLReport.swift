import PanelSimCore
import PanelTrace

/// A self-contained HTML report of one trace: a headline saying what differs first, golden and
/// actual trajectories overlaid in inline SVG (surface location, and content offset when present),
/// state strips and bands, anchor lines, delegate events along the time axis with the differing
/// ones marked, the residual, zooms at the first difference and at the largest error, the event
/// table and the comparison report. Everything that says what differs reads the comparison's
/// `RecordDifferences`.
///
/// The output is a pure function of the input: no dates, no external resources, no script,
/// numbers by `FixedNumber`/`CanonicalNumber`/`ReportNumber`, text escaped by `Markup.escape`.
/// Every chart is drawn twice, wide and narrow; the style sheet shows one by window width.
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
        /// The tolerances of the comparison: the residual plot's band and the rounding of numbers.
        public var tolerances: Tolerances = .default
        /// Without a golden: the command that records it, shown in the headline (`check`'s
        /// MISSING reports and `report` without a golden).
        public var recordCommand: String?
        /// What the two results are called in titles and lanes ("golden"/"actual"; the tuning
        /// report's "header values"/"tuned").
        public var goldenRole = "golden"
        public var actualRole = "actual"
        public init(
            title: String, header: TraceHeader?, golden: ResultDocument?, actual: ResultDocument,
            comparison: Comparison?, goldenName: String = "golden"
        ) {
            self.title = title
            self.header = header
            self.golden = golden
            self.actual = actual
            self.comparison = comparison
            self.goldenName = goldenName
        }
    }

    // The one colour scheme of every report, text and charts alike: golden grey, actual blue,
    // differences red, finger orange, observed (device) green, tolerance band grey; states and
    // event kinds in hues none of these use.
    public static let goldenColor = "#8c959f"
    public static let actualColor = "#1565c0"
    public static let alertColor = "#c62828"
    public static let fingerColor = "#ef6c00"
    public static let observedColor = "#2e7d32"
    public static let bandColor = "#8c959f"
    static let palette = ["#ede7f6", "#fff8e1", "#e0f7fa", "#fce4ec", "#efebe9", "#f9fbe7", "#f3e5f5", "#fff3e0"]
    static let paletteStrong = ["#b39ddb", "#ffd54f", "#80deea", "#f48fb1", "#bcaaa4", "#dce775", "#ce93d8", "#ffcc80"]

    /// One colour per state name, the same in every report (`report`, `diff`, `tune`): the
    /// states of the four systems by a fixed table, others by a stable hash of the name; hidden,
    /// dismissed and removed states white-grey.
    /// - Complexity: O(name length).
    public static func stateColor(_ state: String, strong: Bool) -> String {
        let known = [
            "full": 0, "half": 1, "tip": 2, "hidden": -1, "open": 0, "barPresented": 1, "barHidden": -1,
            "fullyExpanded": 0, "partiallyExpanded": 1, "collapsed": 2, "dismissed": -1,
            "large": 0, "medium": 1, "small": 2, "transitioning": 3,
        ]
        var index: Int
        if let k = known[state] {
            index = k
        } else {
            var h: UInt32 = 2166136261
            for b in state.utf8 { h = (h ^ UInt32(b)) &* 16777619 }
            index = 3 + Int(h % 5)
        }
        if index < 0 { return strong ? "#e6e8eb" : "#fafbfc" }
        index %= palette.count
        return strong ? paletteStrong[index] : palette[index]
    }

    /// The style sheet every PanelSim HTML report shares (`report`, `diff --report`, check's
    /// reports and index, `tune --report`): responsive charts (a wide and a narrow rendering, one
    /// shown), tables that stack on phones, no token broken mid-word, text ≥ 12 px.
    public static let styleSheet = """
        body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; margin: 24px auto; max-width: 1180px; padding: 0 16px; background: #fff; }
        h1 { font-size: 20px; margin: 0 0 4px; overflow-wrap: anywhere; }
        h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
        .meta { color: #57606a; font-size: 12px; margin-bottom: 12px; overflow-wrap: anywhere; }
        .verdict { font-size: 15px; margin: 8px 0 12px; padding: 8px 12px; border-radius: 6px; border-left: 5px solid #6e7781; background: #f6f8fa; overflow-wrap: anywhere; }
        .verdict p { margin: 4px 0; } .verdict .summary { font-size: 14px; color: #3d444d; }
        .verdict.pass { border-color: #2e7d32; } .verdict.fail { border-color: #c62828; background: #fff5f5; } .verdict.skip { border-color: #9a6700; }
        .verdict .note { font-weight: 600; color: #7d4e00; background: #fff8c5; padding: 2px 6px; border-radius: 4px; }
        .g { color: #57606a; font-weight: 600; border-bottom: 3px solid #8c959f; } .a { color: #0b4f9c; font-weight: 600; border-bottom: 2px solid #1565c0; } .d { color: #c62828; font-weight: 600; }
        code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #eff1f3; padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
        .badge { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; font-size: 12px; color: #fff; vertical-align: middle; margin-left: 8px; }
        .badge.pass { background: #2e7d32; } .badge.fail { background: #c62828; } .badge.none { background: #6e7781; } .badge.skip { background: #9a6700; }
        pre { white-space: pre; overflow-x: auto; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 10px 12px; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        pre .g, pre .a, pre .n { display: inline-block; min-width: 100%; border: 0; font-weight: 400; }
        pre .g { color: #3d444d; background: #eceef1; box-shadow: inset 3px 0 #8c959f; } pre .a { color: #0b4f9c; background: #e8f1fc; box-shadow: inset 3px 0 #1565c0; } pre .n { color: #7d4e00; background: #fff8c5; }
        svg.plot { display: block; margin: 8px 0; width: 100%; height: auto; max-width: 1120px; }
        svg.plot.narrow { max-width: 720px; }
        @media (max-width: 999px) { svg.plot.wide { display: none; } }
        @media (min-width: 1000px) { svg.plot.narrow { display: none; } }
        svg text { font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
        table { border-collapse: collapse; width: 100%; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        th, td { border-bottom: 1px solid #eaeef2; padding: 3px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
        th { background: #f6f8fa; position: sticky; top: 0; }
        tr.del td { background: #eceef1; } tr.ins td { background: #e8f1fc; } tr.chg td { background: #fff0ef; } tr.run td { color: #57606a; font-style: italic; }
        td.num { text-align: right; white-space: nowrap; } td.mark { width: 1.5em; font-weight: 700; color: #c62828; } td.g, td.a { border-bottom: 1px solid #eaeef2; font-weight: 400; } td.d { font-weight: 400; }
        @media (max-width: 700px) {
          table.events thead { display: none; }
          table.events, table.events tbody, table.events tr { display: block; }
          table.events tr { border-bottom: 1px solid #d0d7de; padding: 3px 0; }
          table.events td { display: block; border: 0; padding: 1px 6px; text-align: left; }
          table.events td.mark, table.events td.num, table.events td.ev { display: inline-block; }
          table.events td[data-label]::before { content: attr(data-label) ": "; color: #57606a; }
          table.events tr.run td { display: block; }
        }
        details { margin: 8px 0; } summary { cursor: pointer; color: #0969da; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 12px; margin: 6px 0; }
        .legend span { overflow-wrap: anywhere; } .legend b { font-weight: 600; color: #57606a; }
        .sw { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 6px; }
        .dot { display: inline-block; width: 8px; height: 8px; border-radius: 4px; vertical-align: middle; margin-right: 5px; }
        """

    /// The whole HTML document: headline, colour key, plots (trajectory with the finger and
    /// `observed` samples, residual, zooms at the first difference and the largest error), the
    /// event table, the text report, the result's header.
    /// - Complexity: O(records of both results + samples + anchors).
    public static func render(_ input: Input) -> String {
        let actual = input.actual
        let golden = input.golden
        var html = documentHead(title: "\(input.title) — PanelSim report")
        let status = badge(input.comparison, hasGolden: golden != nil)
        html += "<h1>\(Markup.escape(input.title))<span class=\"badge \(status.0)\">\(status.1)</span></h1>\n"
        html += "<div class=\"verdict \(status.0)\">\(headline(input).html)</div>\n"

        let plot = Plot(input: input)
        html += legend(input: input, plot: plot)
        html += "<h2>Surface location (pt, larger is lower)</h2>\n"
        html += plot.svgPair(channel: .location)
        if golden != nil, plot.has(.location), input.comparison?.status == .failed {
            html += "<h2>Residual: actual − golden (location, pt; larger is lower, as above)</h2>\n"
            html += plot.residualPair(tolerance: input.tolerances.location)
        }
        if let (t, label) = plot.divergence, let zoom = plot.zoomed(at: t) {
            html += "<h2>Zoom at the first difference (t = \(FixedNumber.format(t, decimals: 6)) s)</h2>\n"
            var z = zoom
            z.divergence = (t, label)
            html += z.svgPair(channel: .location, id: "zoom")
        }
        if let (t, label) = plot.largest,
            !(plot.divergence.map { plot.zoomWindow(around: $0.t, contains: t) } ?? false),
            var zoom = plot.zoomed(at: t)
        {
            html += "<h2>Zoom at the largest location error (t = \(FixedNumber.format(t, decimals: 6)) s)</h2>\n"
            zoom.divergence = (t, label)
            html += zoom.svgPair(channel: .location, id: "zoom-largest")
        }
        if plot.hasContentOffset {
            html += "<h2>Content offset (pt)</h2>\n"
            html += plot.svgPair(channel: .contentOffset)
        }
        // LNPopup frames: the bar's and the bottom bar's top edges (lnpopup.md §2.3).
        for (channel, title) in [(Plot.Series.barTop, "Bar top"), (.bottomBarTop, "Bottom bar top")]
        where plot.has(channel) {
            html += "<h2>\(title) (pt, larger is lower)</h2>\n"
            html += plot.svgPair(channel: channel)
        }
        html += "<h2>Delegate events</h2>\n"
        html += eventTable(input)
        if let c = input.comparison, c.status != .passed {
            html += "<h2>Comparison report</h2>\n"
            html +=
                "<pre>"
                + c.report(indent: "").split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                    let trimmed = line.drop(while: { $0 == " " })
                    let escaped = Markup.escape(String(line))
                    if trimmed.hasPrefix("note:") { return "<span class=\"n\">\(escaped)</span>" }
                    if trimmed.hasPrefix("- ") || trimmed.hasPrefix("-#") || trimmed.hasPrefix("expected:")
                        || (trimmed.hasPrefix("-") && !trimmed.hasPrefix("---"))
                    {
                        return "<span class=\"g\">\(escaped)</span>"
                    }
                    if trimmed.hasPrefix("+ ") || trimmed.hasPrefix("actual:")
                        || (trimmed.hasPrefix("+") && !trimmed.hasPrefix("+++"))
                    {
                        return "<span class=\"a\">\(escaped)</span>"
                    }
                    return escaped
                }.joined(separator: "\n") + "</pre>\n"
        }
        var meta =
            "trace \(Markup.escape(actual.header.trace)) · \(actual.header.frameRate) Hz · display scale \(CanonicalNumber.format(actual.header.displayScale)) · \(Markup.escape(actual.header.engine))"
        if let h = input.header {
            let what = Markup.escape(
                GoldenSystems.description(for: h.model)?.subtitle(for: h) ?? "\(h.model.rawValue) panel")
            meta +=
                " · \(what), \(CanonicalNumber.format(h.environment.container.width))×\(CanonicalNumber.format(h.environment.container.height)) pt"
        }
        html +=
            "<h2>Result</h2>\n<div class=\"meta\">\(meta)<br>trace digest \(Markup.escape(actual.header.traceDigest))"
        if !actual.header.parameterDigest.isEmpty {
            html += "<br>parameter digest \(Markup.escape(actual.header.parameterDigest))"
        }
        html += "</div>\n"
        html += "</body>\n</html>\n"
        return html
    }

    /// The start of a PanelSim HTML page up to and including `<body>`: the shared style sheet and
    /// `extraStyle` inline, `title` escaped.
    public static func documentHead(title: String, extraStyle: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Markup.escape(title))</title>
        <style>
        \(styleSheet)
        \(extraStyle)</style>
        </head>
        <body>

        """
    }

    /// The badge: class and text.
    static func badge(_ comparison: Comparison?, hasGolden: Bool) -> (String, String) {
        switch comparison?.status {
        case .passed?: return ("pass", "PASS")
        case .failed?: return ("fail", "FAIL")
        case .incompatible?: return ("skip", "OTHER FORMAT VERSION")
        case nil: return ("none", hasGolden ? "NOT COMPARED" : "NO GOLDEN")
        }
    }

    /// The colour key: the series and marks shown, the event kinds of the lanes, the states.
    static func legend(input: Input, plot: Plot) -> String {
        var s = "<div class=\"legend\">"
        if input.golden != nil {
            s +=
                "<span><i class=\"sw\" style=\"background:\(goldenColor);height:5px\"></i>\(Markup.escape(input.goldenRole)) (\(Markup.escape(input.goldenName)))</span>"
        }
        s += "<span><i class=\"sw\" style=\"background:\(actualColor)\"></i>\(Markup.escape(input.actualRole))</span>"
        if !plot.anchors.isEmpty {
            s += "<span><i class=\"sw\" style=\"border-top:1px dashed #57606a;height:0\"></i>anchors</span>"
        }
        if !plot.finger.isEmpty {
            s += "<span><i class=\"dot\" style=\"background:\(fingerColor)\"></i>finger (touch samples)</span>"
        }
        if !plot.observed.isEmpty {
            s +=
                "<span><i class=\"sw\" style=\"background:\(observedColor);width:7px;height:7px\"></i>observed (device)</span>"
        }
        if plot.divergence != nil || !plot.marks.isEmpty {
            s +=
                "<span><i class=\"sw\" style=\"background:\(alertColor)\"></i>differs: first difference, marked events, residual</span>"
            s +=
                "<span><i class=\"sw\" style=\"background:\(bandColor);opacity:0.4;height:8px\"></i>tolerance band</span>"
        }
        s += "</div>\n<div class=\"legend\"><b>events</b>"
        let shown = Set((plot.goldenEvents + plot.actualEvents).map { Plot.EventCategory(eventName: $0.name) })
        for category in Plot.EventCategory.allCases where shown.contains(category) {
            s += "<span><i class=\"dot\" style=\"background:\(category.color)\"></i>\(category.rawValue)</span>"
        }
        if (plot.goldenEvents + plot.actualEvents).contains(where: \.differs) {
            s +=
                "<span><i class=\"dot\" style=\"background:#fff;border:2px solid \(alertColor);width:6px;height:6px\"></i>differs (ringed)</span>"
        }
        var states: [String] = []
        for (_, name) in plot.goldenStates + plot.actualStates where !states.contains(name) { states.append(name) }
        if !states.isEmpty {
            s += "<b>states</b>"
            for name in states {
                s +=
                    "<span><i class=\"sw\" style=\"background:\(stateColor(name, strong: true));height:10px\"></i>\(Markup.escape(name))</span>"
            }
        }
        s += "</div>\n"
        return s
    }
}
