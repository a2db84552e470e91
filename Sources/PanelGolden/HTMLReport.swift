import PanelSimCore
import PanelTrace

/// Escaping for HTML and XML text and attribute values.
public enum Markup {
    /// `&`, `<`, `>`, `"` and `'` as entities; other characters unchanged, except C0 controls
    /// other than tab, newline and carriage return, which XML 1.0 forbids, as U+FFFD.
    /// - Complexity: O(length).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// Fixed-precision decimal formatting, independent of locale and platform.
public enum FixedNumber {
    /// `value` rounded half away from zero to `decimals` (0…9) digits after the point, e.g.
    /// `format(-1.005, decimals: 1) == "-1.0"` (binary value below the half), `format(2, decimals: 2)
    /// == "2.00"`; `"-0.00"` prints as `"0.00"`; non-finite values and |value| ≥ 1e15 fall back to
    /// `CanonicalNumber.format`.
    /// - Complexity: O(digits).
    public static func format(_ value: Double, decimals: Int) -> String {
        let d = max(0, min(9, decimals))
        var scale = 1.0
        for _ in 0..<d { scale *= 10 }
        guard value.isFinite, abs(value) < 1e15 else { return CanonicalNumber.format(value) }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return CanonicalNumber.format(value) }
        let n = Int64(scaled)
        var digits = String(n)
        if d > 0 {
            if digits.count <= d { digits = String(repeating: "0", count: d - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -d))
        }
        return (value < 0 && n != 0 ? "-" : "") + digits
    }
}

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

    // MARK: Event table

    static func fields(_ event: DelegateEvent) -> String {
        switch event {
        case .shouldBeginDragging(let r): return "result \(r)"
        case .willBeginDragging(let s): return "state \(s)"
        case .didMove(let l): return "location \(CanonicalNumber.format(l))"
        case .willEndDragging(let v, let p, let t):
            return "velocity (\(CanonicalNumber.format(v.x)), \(CanonicalNumber.format(v.y))) proposed \(p) target \(t)"
        case .didEndDragging(let w): return "willAttract \(w)"
        case .willBeginAttracting(let to): return "to \(to)"
        case .didChangeState(let s): return "state \(s)"
        case .shouldRemove(let v, let r): return "velocity (\(CanonicalNumber.format(v.x)), \(CanonicalNumber.format(v.y))) result \(r)"
        case .didEndAttracting, .willRemove, .didRemove: return ""
        case .system(let e):
            return e.fields.map { field in
                switch field.value {
                case .number(let x): return "\(field.key) \(CanonicalNumber.format(x))"
                case .string(let text): return "\(field.key) \(text)"
                case .bool(let b): return "\(field.key) \(b)"
                case .point(let v): return "\(field.key) (\(CanonicalNumber.format(v.x)), \(CanonicalNumber.format(v.y)))"
                case .null: return "\(field.key) null"
                }
            }.joined(separator: " ")
        }
    }

    static func events(_ doc: ResultDocument?) -> [(Microseconds, DelegateEvent)] {
        guard let doc else { return [] }
        return doc.records.compactMap { if case .event(let t, let e) = $0 { return (t, e) } else { return nil } }
    }

    /// The events of both results aligned by name (Myers), one row per event: `=` same, `≠` same
    /// name but different fields or time, `-` golden only, `+` actual only. With a golden: a
    /// table of the differing rows first (each with the row before it for context), then the
    /// whole table in a `<details>` element, where a run of more than 3 identical rows (same
    /// event, unchanged) is one row saying how many it stands for.
    static func eventTable(golden: ResultDocument?, actual: ResultDocument) -> String {
        let a = events(actual)
        typealias Row = (cls: String, mark: String, t: Microseconds, name: String, gf: String, af: String)
        var rows: [Row] = []
        if let golden {
            let g = events(golden)
            let edits = SequenceDiff.edits(from: g.map(\.1.name), to: a.map(\.1.name)) ?? (
                g.indices.map { SequenceDiff.Edit.delete(oldIndex: $0) } + a.indices.map { SequenceDiff.Edit.insert(newIndex: $0) })
            for edit in edits {
                switch edit {
                case .keep(let i, let j):
                    let same = g[i].0 == a[j].0 && g[i].1 == a[j].1
                    rows.append((same ? "" : "chg", same ? "" : "≠", a[j].0, a[j].1.name,
                                 g[i].0 == a[j].0 ? fields(g[i].1) : "t \(CanonicalNumber.formatSeconds(g[i].0)) " + fields(g[i].1), fields(a[j].1)))
                case .delete(let i):
                    rows.append(("del", "−", g[i].0, g[i].1.name, fields(g[i].1), "(absent)"))
                case .insert(let j):
                    rows.append(("ins", "+", a[j].0, a[j].1.name, "(absent)", fields(a[j].1)))
                }
            }
        } else {
            rows = a.map { ("", "", $0.0, $0.1.name, "", fields($0.1)) }
        }
        let head = golden == nil ? "<tr><th></th><th>#</th><th>t (s)</th><th>event</th><th>fields</th></tr>\n"
                                 : "<tr><th></th><th>#</th><th>t (s)</th><th>event</th><th>golden</th><th>actual</th></tr>\n"
        func row(_ k: Int) -> String {
            let r = rows[k]
            var s = "<tr" + (r.cls.isEmpty ? "" : " class=\"\(r.cls)\"") + "><td class=\"mark\">\(r.mark)</td><td class=\"num\">\(k)</td><td class=\"num\">\(CanonicalNumber.formatSeconds(r.t))</td><td>\(r.name)</td>"
            if golden != nil { s += "<td>\(Markup.escape(r.gf))</td>" }
            return s + "<td>\(Markup.escape(r.af))</td></tr>\n"
        }
        let columns = golden == nil ? 5 : 6
        /// The rows `range` with runs of identical unchanged rows collapsed.
        func collapsed() -> String {
            var s = "", k = 0
            while k < rows.count {
                var end = k + 1
                if rows[k].cls.isEmpty {
                    while end < rows.count, rows[end].cls.isEmpty, rows[end].name == rows[k].name { end += 1 }
                }
                if end - k > 3 {
                    s += row(k)
                    s += "<tr class=\"run\"><td></td><td colspan=\"\(columns - 1)\">… \(end - k - 2) more \(rows[k].name) rows, unchanged (#\(k + 1)–#\(end - 2))</td></tr>\n"
                    s += row(end - 1)
                } else {
                    for m in k..<end { s += row(m) }
                }
                k = end
            }
            return s
        }
        guard golden != nil else {
            return "<div class=\"scroll\"><table>\n" + head + collapsed() + "</table></div>\n"
        }
        var out = ""
        let changed = rows.indices.filter { !rows[$0].cls.isEmpty }
        if changed.isEmpty {
            out += "<p>The events of the golden and the actual result are identical (\(rows.count) events).</p>\n"
        } else {
            out += "<p>Differences only (\(changed.count) of \(rows.count) rows; the row before each for context):</p>\n"
            out += "<div class=\"scroll\"><table>\n" + head
            var shown = Set<Int>()
            for k in changed {
                if k > 0 && !shown.contains(k - 1) && rows[k - 1].cls.isEmpty { out += row(k - 1); shown.insert(k - 1) }
                if shown.insert(k).inserted { out += row(k) }
            }
            out += "</table></div>\n"
        }
        out += "<details\(changed.isEmpty ? "" : "")><summary>All events (\(rows.count) rows; runs of identical rows collapsed)</summary>\n"
        out += "<div class=\"scroll\"><table>\n" + head + collapsed() + "</table></div>\n</details>\n"
        return out
    }
}

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
