import PanelSimCore
import PanelTrace

/// Text built once as HTML and as plain text (the index page and terminals get the plain one).
struct RichText {
    private(set) var html = ""
    private(set) var text = ""

    mutating func plain(_ s: String) { html += Markup.escape(s); text += s }
    mutating func strong(_ s: String) { html += "<b>\(Markup.escape(s))</b>"; text += s }
    /// A golden value (the golden's colour).
    mutating func golden(_ s: String) { html += "<span class=\"g\">\(Markup.escape(s))</span>"; text += s }
    /// An actual value (the actual's colour).
    mutating func actual(_ s: String) { html += "<span class=\"a\">\(Markup.escape(s))</span>"; text += s }
    /// A difference (the alert colour).
    mutating func delta(_ s: String) { html += "<span class=\"d\">\(Markup.escape(s))</span>"; text += s }
    mutating func code(_ s: String) { html += "<code>\(Markup.escape(s))</code>"; text += s }
}

/// The first lines of a report: what differs first, how much of the rest differs, notes.
public struct ReportHeadline: Sendable, Equatable {
    /// The headline as HTML paragraphs (`<p>…</p>`, the summary and notes in their own).
    public var html: String
    /// The headline's first sentence as plain text (the index page's line for the trace).
    public var text: String
}

extension HTMLReport {
    /// The headline of `input`'s report, read from the comparison's `RecordDifferences`: the
    /// first differing record (frame or event), the channel or field, golden and actual values
    /// rounded to the tolerance, their difference, the time and frame; a summary of the rest; the
    /// notes (trace edited since the golden was blessed, …) right below.
    /// - Complexity: O(rows of the comparison).
    public static func headline(_ input: Input) -> ReportHeadline {
        var first = RichText()
        var extra = ""
        guard let c = input.comparison else {
            if input.golden == nil {
                first.plain("No golden to compare with: the actual result is shown alone (\(input.actual.records.count) records).")
                if let command = input.recordCommand {
                    var rec = RichText()
                    rec.plain("To record it: ")
                    rec.code(command)
                    rec.plain(" (or ")
                    rec.code(command.replacingOccurrences(of: "--record missing", with: "--record pending"))
                    rec.plain(" to review it first).")
                    extra += "<p>\(rec.html)</p>"
                    return ReportHeadline(html: "<p>\(first.html)</p>\(extra)", text: first.text + " To record it: \(command)")
                }
            } else {
                first.plain("Not compared.")
            }
            return ReportHeadline(html: "<p>\(first.html)</p>\(extra)", text: first.text)
        }
        let notes = c.notes.map { "<p class=\"note\">⚠ \(Markup.escape(capitalized(shortDigests($0)))).</p>" }.joined()
        switch c.status {
        case .passed:
            first.plain("Matches the golden within tolerances (\(c.expectedCount) records).")
            return ReportHeadline(html: "<p>\(first.html)</p>\(notes)", text: first.text)
        case .incompatible(let v):
            first.plain("The golden is result format version \(v); not compared.")
            return ReportHeadline(html: "<p>\(first.html)</p>\(notes)", text: first.text)
        case .failed:
            break
        }
        if !c.headerDifferences.isEmpty {
            first.plain("Header differs: ")
            for (k, h) in c.headerDifferences.enumerated() {
                if k > 0 { first.plain("; ") }
                first.plain("expected "); first.golden(h.expected); first.plain(", actual "); first.actual(h.actual)
            }
            first.plain(". ")
        }
        let d = c.differences
        if let row = d.first {
            describe(row, in: d, tolerances: input.tolerances, into: &first)
        } else if let o = d.orderDivergence {
            first.plain("The records match within tolerances when aligned by time, but the files are written differently (another order, or a frame one side omits) at ")
            first.strong("record \(o.recordIndex) (line \(o.recordIndex + 2)), t = \(CanonicalNumber.formatSeconds(o.time)) s")
            first.plain(": expected "); first.golden(o.expected); first.plain(", actual "); first.actual(o.actual); first.plain(".")
        } else {
            first.plain("The records match within tolerances.")
        }
        var summary = ""
        if d.first != nil {
            summary = "<p class=\"summary\">\(Markup.escape(summaryText(c)))</p>"
        }
        // The index line carries the notes' gist (the digests are in the report).
        let gist = c.notes.map { $0.components(separatedBy: " (golden ").first ?? $0 }
        return ReportHeadline(html: "<p class=\"headline\">\(first.html)</p>\(notes)\(summary)",
                              text: first.text + gist.map { " Note: \($0)." }.joined())
    }

    /// `Event didMove at t = 0.391667 s (frame 47) differs: location golden 336.583333, actual
    /// 356.583333 (Δ +20 pt).`, and the like for frames, one-sided events and moved events.
    static func describe(_ row: RecordDifferences.Row, in d: RecordDifferences, tolerances: Tolerances, into out: inout RichText) {
        let t = CanonicalNumber.formatSeconds(row.time)
        if row.kind == .frame {
            out.strong("Frame \(row.frame ?? 0)"); out.plain(" at "); out.strong("t = \(t) s")
        } else {
            out.strong("Event \(row.name)"); out.plain(" at "); out.strong("t = \(t) s")
            if let f = d.frame(of: row) { out.plain(" (frame \(f))") }
        }
        if row.isOneSided {
            out.plain(" is only in the ")
            if row.goldenRecord != nil { out.golden("golden") } else { out.actual("actual result") }
            out.plain(".")
            return
        }
        if row.kind == .frame, let c = row.changes.first, c.channel == .record {
            out.plain(": only the "); if c.golden == "(none)" { out.actual("actual result") } else { out.golden("golden") }
            out.plain(" has a frame yet.")
            return
        }
        out.plain(" differs: ")
        for (k, c) in row.changes.enumerated() {
            if k > 0 { out.plain("; ") }
            change(c, into: &out)
        }
        out.plain(".")
    }

    /// `location golden 336.583333, actual 356.583333 (Δ +20 pt)`.
    static func change(_ c: RecordDifferences.Change, into out: inout RichText) {
        if c.channel == .time, let g = c.goldenNumber, let a = c.actualNumber {
            out.strong("time"); out.plain(" golden "); out.golden(CanonicalNumber.formatSeconds(Int64(g)) + " s")
            out.plain(", actual "); out.actual(CanonicalNumber.formatSeconds(Int64(a)) + " s")
            out.plain(" ("); out.delta("Δt " + ReportNumber.signed((a - g) / 1000, tolerance: .absolute(1e-3), magnitude: 0) + " ms"); out.plain(")")
            return
        }
        out.strong(c.field)
        let unit = unit(of: c.channel)
        if let g = c.goldenNumber, let a = c.actualNumber {
            let m = max(abs(g), abs(a))
            out.plain(" golden "); out.golden(ReportNumber.format(g, tolerance: c.tolerance, magnitude: m) + unit)
            out.plain(", actual "); out.actual(ReportNumber.format(a, tolerance: c.tolerance, magnitude: m) + unit)
            out.plain(" ("); out.delta("Δ " + ReportNumber.signed(a - g, tolerance: c.tolerance, magnitude: m) + unit); out.plain(")")
        } else {
            out.plain(" golden "); out.golden(c.golden); out.plain(", actual "); out.actual(c.actual)
            if let e = c.error { out.plain(" ("); out.delta("|Δ| " + ReportNumber.format(e, tolerance: c.tolerance, magnitude: e)); out.plain(")") }
        }
    }

    static func unit(of channel: Channel) -> String {
        switch channel {
        case .location, .contentOffset, .contentInset: return " pt"
        default: return ""
        }
    }

    /// How much differs beyond the first record: counts by kind, whether events, states and
    /// decisions differ (and where first), the largest location error.
    static func summaryText(_ c: Comparison) -> String {
        let d = c.differences
        let n = d.differingCounts
        var s = "\(c.divergentRecords) of \(d.rows.count) aligned records differ (\(Comparison.plural(n.frames, "frame")), \(Comparison.plural(n.events, "event"))); "
        if let x = d.firstDiscrete {
            if x == d.first {
                let others = d.rows.filter(\.hasDiscreteChange).count - 1
                s += others == 0 ? "events, states and decisions differ only there"
                    : "events, states and decisions differ there and in \(others) later record" + (others == 1 ? "" : "s")
            } else {
                let what = x.kind == .frame ? "frame \(x.frame ?? 0)" : "event \(x.name)"
                s += "events, states and decisions first differ at t = \(CanonicalNumber.formatSeconds(x.time)) s (\(what): \(x.changes.first { !$0.isContinuous }?.field ?? ""))"
            }
        } else {
            s += "events, states and decisions are identical"
        }
        if let row = d.largestLocationError, let e = row.largest(on: .location) {
            s += "; largest location error \(ReportNumber.format(e.error ?? 0, tolerance: e.tolerance)) pt at t = \(CanonicalNumber.formatSeconds(row.time)) s"
        }
        return s + "."
    }

    /// `sha256:` digests cut to their first 12 hex digits (the comparison report has them whole).
    static func shortDigests(_ s: String) -> String {
        var out = "", rest = Substring(s)
        while let r = rest.range(of: "sha256:") {
            out += rest[..<r.upperBound]
            let hex = rest[r.upperBound...].prefix { $0.isHexDigit }
            out += hex.count > 12 ? hex.prefix(12) + "…" : hex
            rest = rest[r.upperBound...].dropFirst(hex.count)
        }
        return out + rest
    }

    private static func capitalized(_ s: String) -> String {
        guard let f = s.first else { return s }
        return f.uppercased() + s.dropFirst()
    }
}
