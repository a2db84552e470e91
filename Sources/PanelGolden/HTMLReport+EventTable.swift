import PanelSimCore
import PanelTrace

extension HTMLReport {
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
