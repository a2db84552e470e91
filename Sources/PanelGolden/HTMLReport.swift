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
        public init(title: String, header: TraceHeader?, golden: ResultDocument?, actual: ResultDocument,
                    comparison: Comparison?, goldenName: String = "golden") {
            self.title = title; self.header = header; self.golden = golden; self.actual = actual
            self.comparison = comparison; self.goldenName = goldenName
        }
    }

    static let goldenColor = "#9aa3ad"
    static let actualColor = "#1565c0"
    static let alertColor = "#c62828"
    static let palette = ["#e3f2fd", "#e8f5e9", "#fff8e1", "#f3e5f5", "#e0f7fa", "#fbe9e7", "#f1f8e9", "#ede7f6"]
    static let paletteStrong = ["#64b5f6", "#81c784", "#ffb74d", "#ba68c8", "#4dd0e1", "#ff8a65", "#aed581", "#9575cd"]

    /// The whole HTML document.
    /// - Complexity: O(records of both results + anchors).
    public static func render(_ input: Input) -> String {
        let actual = input.actual, golden = input.golden
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(Markup.escape(input.title)) — PanelSim report</title>
            <style>
            body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; margin: 24px auto; max-width: 1180px; padding: 0 16px; background: #fff; }
            h1 { font-size: 20px; margin: 0 0 4px; word-break: break-all; }
            h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
            .meta { color: #57606a; font-size: 12px; margin-bottom: 12px; }
            .badge { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 600; font-size: 12px; color: #fff; vertical-align: middle; margin-left: 8px; }
            .pass { background: #2e7d32; } .fail { background: #c62828; } .none { background: #6e7781; } .skip { background: #9a6700; }
            pre { white-space: pre-wrap; word-break: break-all; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 10px 12px; overflow-x: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
            svg { display: block; margin: 8px 0; }
            svg text { font-family: -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
            table { border-collapse: collapse; width: 100%; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
            th, td { border-bottom: 1px solid #eaeef2; padding: 3px 8px; text-align: left; vertical-align: top; }
            th { background: #f6f8fa; position: sticky; top: 0; }
            tr.del td { background: #ffebe9; } tr.ins td { background: #e6ffec; } tr.chg td { background: #fff8c5; }
            td.num { text-align: right; white-space: nowrap; } td.mark { width: 1em; font-weight: 700; }
            .legend span { margin-right: 18px; white-space: nowrap; font-size: 12px; }
            .sw { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 6px; }
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
        var meta = "trace \(Markup.escape(actual.header.trace)) · \(actual.header.frameRate) Hz · display scale \(CanonicalNumber.format(actual.header.displayScale)) · \(Markup.escape(actual.header.engine))"
        if let h = input.header {
            let what = h.model == .drawerKit ? "DrawerKit drawer" : "\(Markup.escape(h.panel.position.rawValue)) panel"
            meta += " · \(what), \(CanonicalNumber.format(h.environment.container.width))×\(CanonicalNumber.format(h.environment.container.height)) pt"
        }
        html += "<div class=\"meta\">\(meta)<br>trace digest \(Markup.escape(actual.header.traceDigest))"
        if !actual.header.parameterDigest.isEmpty { html += "<br>parameter digest \(Markup.escape(actual.header.parameterDigest))" }
        html += "</div>\n"
        if let c = input.comparison, c.status != .passed {
            html += "<pre>\(Markup.escape(c.report(indent: "")))</pre>\n"
        }

        let plot = Plot(input: input)
        html += "<h2>Surface location</h2>\n"
        html += legend(hasGolden: golden != nil, goldenName: input.goldenName, divergence: plot.divergenceTime != nil)
        html += plot.svg(channel: .location)
        if plot.hasContentOffset {
            html += "<h2>Content offset</h2>\n"
            html += plot.svg(channel: .contentOffset)
        }
        // LNPopup frames: the bar's and the bottom bar's top edges (lnpopup.md §2.3).
        for (channel, title) in [(Plot.Series.barTop, "Bar top"), (.bottomBarTop, "Bottom bar top")] where plot.has(channel) {
            html += "<h2>\(title)</h2>\n"
            html += plot.svg(channel: channel)
        }
        html += "<h2>Delegate events</h2>\n"
        html += eventTable(golden: golden, actual: actual)
        html += "</body>\n</html>\n"
        return html
    }

    static func legend(hasGolden: Bool, goldenName: String, divergence: Bool) -> String {
        var s = "<div class=\"legend\">"
        if hasGolden { s += "<span><i class=\"sw\" style=\"background:\(goldenColor);height:5px\"></i>golden (\(Markup.escape(goldenName)))</span>" }
        s += "<span><i class=\"sw\" style=\"background:\(actualColor)\"></i>actual</span>"
        s += "<span><i class=\"sw\" style=\"border-top:1px dashed #57606a;height:0\"></i>anchors</span>"
        if divergence { s += "<span><i class=\"sw\" style=\"background:\(alertColor)\"></i>first divergence</span>" }
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
    /// name but different fields or time, `-` golden only, `+` actual only.
    static func eventTable(golden: ResultDocument?, actual: ResultDocument) -> String {
        let a = events(actual)
        var s = "<table>\n<tr><th></th><th>#</th><th>t (s)</th><th>event</th><th>"
        if golden == nil {
            s += "fields</th></tr>\n"
            for (i, (t, e)) in a.enumerated() {
                s += "<tr><td class=\"mark\"></td><td class=\"num\">\(i)</td><td class=\"num\">\(CanonicalNumber.formatSeconds(t))</td><td>\(e.name)</td><td>\(Markup.escape(fields(e)))</td></tr>\n"
            }
            return s + "</table>\n"
        }
        let g = events(golden)
        s += "golden</th><th>actual</th></tr>\n"
        let edits = SequenceDiff.edits(from: g.map(\.1.name), to: a.map(\.1.name)) ?? (
            g.indices.map { SequenceDiff.Edit.delete(oldIndex: $0) } + a.indices.map { SequenceDiff.Edit.insert(newIndex: $0) })
        var row = 0
        for edit in edits {
            let cls: String, mark: String, t: Microseconds, name: String, gf: String, af: String
            switch edit {
            case .keep(let i, let j):
                let same = g[i].0 == a[j].0 && g[i].1 == a[j].1
                cls = same ? "" : "chg"; mark = same ? "" : "≠"
                t = a[j].0; name = a[j].1.name
                gf = g[i].0 == a[j].0 ? fields(g[i].1) : "t \(CanonicalNumber.formatSeconds(g[i].0)) " + fields(g[i].1)
                af = fields(a[j].1)
            case .delete(let i):
                cls = "del"; mark = "−"; t = g[i].0; name = g[i].1.name; gf = fields(g[i].1); af = "(absent)"
            case .insert(let j):
                cls = "ins"; mark = "+"; t = a[j].0; name = a[j].1.name; gf = "(absent)"; af = fields(a[j].1)
            }
            s += "<tr" + (cls.isEmpty ? "" : " class=\"\(cls)\"") + "><td class=\"mark\">\(mark)</td><td class=\"num\">\(row)</td><td class=\"num\">\(CanonicalNumber.formatSeconds(t))</td><td>\(name)</td><td>\(Markup.escape(gf))</td><td>\(Markup.escape(af))</td></tr>\n"
            row += 1
        }
        return s + "</table>\n"
    }
}

/// Geometry and series of the report's charts.
private struct Plot {
    enum Series { case location, contentOffset, barTop, bottomBarTop }

    struct Point2 { var t: Double; var v: Double }
    /// Step-held series (frames that repeat the previous one are omitted from results).
    var golden: [Series: [Point2]] = [:]
    var actual: [Series: [Point2]] = [:]
    var goldenStates: [(Double, String)] = []
    var actualStates: [(Double, String)] = []
    var events: [(Double, String)] = []
    var anchors: [(String, Double)] = []
    var stateNames: [String] = []
    /// The first index of each name in `stateNames`.
    var stateIndex: [String: Int] = [:]
    var tEnd: Double = 0
    var divergenceTime: Double?
    var hasContentOffset = false

    // Layout (px).
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
            if let last = out.last { out.append(Point2(t: tEnd, v: last.v)) }
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
            // Held across omitted frames, then stepped, as `series` does.
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
            if let last = out.last { out.append(Point2(t: tEnd, v: last.v)) }
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
        if let h = input.header, let popup = h.popup {
            anchors = [("open", 0), ("barPresented", popup.dockingLine(environment: h.environment))]
            stateNames = ["open", "barPresented", "barHidden"]
        } else if let h = input.header, let drawer = h.drawer {
            for (name, y) in drawer.anchorPositions(environment: h.environment) { anchors.append((name, y)) }
            stateNames = anchors.map(\.0)
        } else if let h = input.header, let sheet = h.sheet {
            // The sheet's active detents, top to bottom (uisheet.md §3.1).
            for (name, y) in sheet.detentOffsets(environment: h.environment) { anchors.append((name, y)) }
            stateNames = anchors.map(\.0)
        } else if let h = input.header {
            let geometry = LayoutGeometry(panel: h.panel, environment: h.environment)
            for s in geometry.sortedByOrder.reversed() {
                anchors.append((s.name, geometry.position(of: s)))
            }
            stateNames = geometry.sortedByOrder.reversed().map(\.name)
        }
        // Colours by position in `stateNames`; hashed, so a layout of many states stays linear.
        for (k, name) in stateNames.enumerated() where stateIndex[name] == nil { stateIndex[name] = k }
        for name in (goldenStates + actualStates).map(\.1) where stateIndex[name] == nil {
            stateIndex[name] = stateNames.count
            stateNames.append(name)
        }
        if let d = input.comparison?.firstDivergence, d.channel != .header, input.comparison?.status != .passed {
            divergenceTime = seconds(d.time)
        }
    }

    /// True when either document has frames with `channel`.
    func has(_ channel: Series) -> Bool { !(actual[channel] ?? []).isEmpty || !(golden[channel] ?? []).isEmpty }

    func color(_ state: String, strong: Bool) -> String {
        let i = stateIndex[state] ?? 0
        let p = strong ? HTMLReport.paletteStrong : HTMLReport.palette
        return state == "hidden" ? (strong ? "#bdbdbd" : "#f5f5f5") : p[i % p.count]
    }

    func x(_ t: Double) -> Double { left + (tEnd > 0 ? t / tEnd : 0) * plotWidth }

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

    func svg(channel: Series) -> String {
        let g = golden[channel] ?? [], a = actual[channel] ?? []
        var values = (g + a).map(\.v).filter(\.isFinite)
        if channel == .location { values += anchors.map(\.1) }
        var lo = values.min() ?? 0, hi = values.max() ?? 1
        if hi - lo < 1e-9 { lo -= 1; hi += 1 }
        let pad = (hi - lo) * 0.06
        lo -= pad; hi += pad
        let laneCount = channel == .location ? eventLanes().count : 0
        let top = 40.0 + (goldenStates.isEmpty ? 0 : 16)       // state strips
        let plotHeight = channel == .location ? 380.0 : 220.0
        let eventsTop = top + plotHeight + 34
        let height = eventsTop + Double(laneCount) * 16 + (laneCount > 0 ? 14 : 0)
        // Screen-like: larger coordinates lower down.
        func y(_ v: Double) -> Double { top + (v - lo) / (hi - lo) * plotHeight }
        let r = Plot.f1
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(r(width))\" height=\"\(r(height))\" viewBox=\"0 0 \(r(width)) \(r(height))\" role=\"img\">\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(r(width))\" height=\"\(r(height))\" fill=\"#ffffff\"/>\n"

        // State bands (actual) behind the plot, and state strips above it.
        func strip(_ states: [(Double, String)], y0: Double, h: Double, strong: Bool, label: String) -> String {
            var out = "<text x=\"\(r(left - 6))\" y=\"\(r(y0 + h - 3))\" font-size=\"10\" text-anchor=\"end\" fill=\"#57606a\">\(label)</text>\n"
            for (i, st) in states.enumerated() {
                let x0 = x(st.0), x1 = x(i + 1 < states.count ? states[i + 1].0 : tEnd)
                out += "<rect x=\"\(r(x0))\" y=\"\(r(y0))\" width=\"\(r(max(0.5, x1 - x0)))\" height=\"\(r(h))\" fill=\"\(color(st.1, strong: strong))\"/>\n"
                if x1 - x0 > 36 {
                    out += "<text x=\"\(r(x0 + 4))\" y=\"\(r(y0 + h - 3))\" font-size=\"10\" fill=\"#1f2328\">\(Markup.escape(st.1))</text>\n"
                }
            }
            return out
        }
        for (i, st) in actualStates.enumerated() {
            let x0 = x(st.0), x1 = x(i + 1 < actualStates.count ? actualStates[i + 1].0 : tEnd)
            s += "<rect x=\"\(r(x0))\" y=\"\(r(top))\" width=\"\(r(max(0.5, x1 - x0)))\" height=\"\(r(plotHeight))\" fill=\"\(color(st.1, strong: false))\"/>\n"
        }
        if !goldenStates.isEmpty {
            s += strip(goldenStates, y0: 22, h: 14, strong: true, label: "golden state")
            s += strip(actualStates, y0: 38, h: 14, strong: true, label: "actual state")
        } else {
            s += strip(actualStates, y0: 22, h: 14, strong: true, label: "state")
        }

        // Grid and axes.
        let ty = Plot.step(hi - lo, target: 8)
        let dy = Plot.decimals(for: ty)
        var v = (lo / ty).rounded(.up) * ty
        while v <= hi + 1e-9 * abs(hi) {
            s += "<line x1=\"\(r(left))\" y1=\"\(r(y(v)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(v)))\" stroke=\"#000\" stroke-opacity=\"0.07\"/>\n"
            s += "<text x=\"\(r(left - 6))\" y=\"\(r(y(v) + 3.5))\" font-size=\"11\" text-anchor=\"end\" fill=\"#57606a\">\(FixedNumber.format(v, decimals: dy))</text>\n"
            v += ty
        }
        let tx = Plot.step(tEnd, target: 12)
        let dx = Plot.decimals(for: tx)
        var t = 0.0
        while t <= tEnd + 1e-12 {
            s += "<line x1=\"\(r(x(t)))\" y1=\"\(r(top))\" x2=\"\(r(x(t)))\" y2=\"\(r(top + plotHeight))\" stroke=\"#000\" stroke-opacity=\"0.07\"/>\n"
            s += "<text x=\"\(r(x(t)))\" y=\"\(r(top + plotHeight + 15))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\">\(FixedNumber.format(t, decimals: dx))</text>\n"
            t += tx
        }
        s += "<rect x=\"\(r(left))\" y=\"\(r(top))\" width=\"\(r(plotWidth))\" height=\"\(r(plotHeight))\" fill=\"none\" stroke=\"#8c959f\"/>\n"
        s += "<text x=\"\(r(left + plotWidth / 2))\" y=\"\(r(top + plotHeight + 29))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\">time (s)</text>\n"
        let yLabel = channel == .location ? "surface location (pt, larger is lower)" : "content offset (pt)"
        s += "<text x=\"14\" y=\"\(r(top + plotHeight / 2))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\" transform=\"rotate(-90 14 \(r(top + plotHeight / 2)))\">\(yLabel)</text>\n"

        // Anchors.
        if channel == .location {
            for (name, p) in anchors {
                s += "<line x1=\"\(r(left))\" y1=\"\(r(y(p)))\" x2=\"\(r(left + plotWidth))\" y2=\"\(r(y(p)))\" stroke=\"#57606a\" stroke-dasharray=\"5 4\" stroke-width=\"1\"/>\n"
                s += "<text x=\"\(r(left + plotWidth + 6))\" y=\"\(r(y(p) + 4))\" font-size=\"11\" fill=\"#1f2328\">\(Markup.escape(name)) \(CanonicalNumber.format(p))</text>\n"
            }
        }

        // Series.
        func path(_ pts: [Point2]) -> String {
            var d = ""
            for (i, p) in pts.enumerated() where p.v.isFinite {
                d += (i == 0 ? "M" : " L") + "\(r(x(p.t))) \(FixedNumber.format(y(p.v), decimals: 2))"
            }
            return d
        }
        if !g.isEmpty {
            s += "<path d=\"\(path(g))\" fill=\"none\" stroke=\"\(HTMLReport.goldenColor)\" stroke-width=\"5\" stroke-linejoin=\"round\" stroke-opacity=\"0.85\"/>\n"
        }
        if !a.isEmpty {
            s += "<path d=\"\(path(a))\" fill=\"none\" stroke=\"\(HTMLReport.actualColor)\" stroke-width=\"1.6\" stroke-linejoin=\"round\"/>\n"
        }
        if let dt = divergenceTime {
            s += "<line x1=\"\(r(x(dt)))\" y1=\"\(r(top))\" x2=\"\(r(x(dt)))\" y2=\"\(r(top + plotHeight))\" stroke=\"\(HTMLReport.alertColor)\" stroke-width=\"1.5\"/>\n"
            s += "<text x=\"\(r(x(dt) + 4))\" y=\"\(r(top + 12))\" font-size=\"11\" fill=\"\(HTMLReport.alertColor)\">first divergence t = \(FixedNumber.format(dt, decimals: 6)) s</text>\n"
        }

        // Events along the time axis, in lanes so labels do not overlap.
        if channel == .location {
            for (lane, items) in eventLanes().enumerated() {
                let ly = eventsTop + Double(lane) * 16
                for (t, name, labelled) in items {
                    s += "<line x1=\"\(r(x(t)))\" y1=\"\(r(top + plotHeight))\" x2=\"\(r(x(t)))\" y2=\"\(r(ly - 3))\" stroke=\"#6e7781\" stroke-opacity=\"0.35\"/>\n"
                    s += "<circle cx=\"\(r(x(t)))\" cy=\"\(r(ly))\" r=\"3\" fill=\"\(eventColor(name))\"/>\n"
                    if labelled {
                        s += "<text x=\"\(r(x(t) + 5))\" y=\"\(r(ly + 4))\" font-size=\"10.5\" fill=\"#1f2328\">\(Markup.escape(name))</text>\n"
                    }
                }
            }
            if laneCount > 0 {
                s += "<text x=\"\(r(left - 6))\" y=\"\(r(eventsTop + 4))\" font-size=\"10\" text-anchor=\"end\" fill=\"#57606a\">events</text>\n"
            }
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
    func eventLanes() -> [[(Double, String, Bool)]] {
        var lanes: [[(Double, String, Bool)]] = []
        var ends: [Double] = []
        var previous: (name: String, lane: Int)?
        for e in events {
            let x0 = x(e.0), x1 = x0 + 8 + Double(e.1.count) * 6
            if let p = previous, p.name == e.1 {
                // A run of the same event: one label, after the run's last dot.
                if let last = lanes[p.lane].indices.last { lanes[p.lane][last].2 = false }
                lanes[p.lane].append((e.0, e.1, true))
                ends[p.lane] = x1
            } else if let i = ends.firstIndex(where: { $0 < x0 }) {
                lanes[i].append((e.0, e.1, true)); ends[i] = x1; previous = (e.1, i)
            } else if lanes.count < 12 {
                lanes.append([(e.0, e.1, true)]); ends.append(x1); previous = (e.1, lanes.count - 1)
            } else {
                lanes[lanes.count - 1].append((e.0, e.1, false)); previous = nil
            }
        }
        return lanes
    }
}

