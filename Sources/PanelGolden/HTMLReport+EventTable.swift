import PanelSimCore
import PanelTrace

extension HTMLReport {
    // MARK: Event table

    /// The fields of an event as `key value …`, numbers in full.
    static func fields(_ event: DelegateEvent) -> String {
        RecordDifferences.fields(of: .event(time: 0, event)).map { "\($0.key) \(FieldComparer.text($0.value))" }.joined(
            separator: " ")
    }

    /// The fields of an event as `key value …`, numbers rounded to their channel's tolerance.
    static func fields(_ event: DelegateEvent, comparer: FieldComparer) -> String {
        let typed: Bool
        if case .system = event { typed = false } else { typed = true }
        return RecordDifferences.fields(of: .event(time: 0, event)).map { f in
            let tol = comparer.tolerance(comparer.channel(of: f.key, typed: typed))
            switch f.value {
            case .number(let x): return "\(f.key) \(ReportNumber.format(x, tolerance: tol))"
            case .point(let p):
                let m = max(abs(p.x), abs(p.y))
                return
                    "\(f.key) (\(ReportNumber.format(p.x, tolerance: tol, magnitude: m)), \(ReportNumber.format(p.y, tolerance: tol, magnitude: m)))"
            default: return "\(f.key) \(FieldComparer.text(f.value))"
            }
        }.joined(separator: " ")
    }

    /// One row of the event table.
    struct EventRow {
        /// `""` same, `chg` differs, `del` golden only, `ins` actual only.
        var cls: String
        var mark: String
        var time: Microseconds
        var name: String
        var golden: String
        var actual: String
        var delta: String
        /// For collapsing: the row only moved in time by this many µs (values within tolerance).
        var onlyMoved: Int64?
        var differs: Bool { !cls.isEmpty }
    }

    /// The rows of the event table, from the comparison's alignment (or the actual's events alone).
    static func eventRows(_ input: Input) -> [EventRow] {
        let comparer = FieldComparer(tolerances: input.tolerances, model: input.actual.header.model)
        func event(_ doc: ResultDocument?, _ record: Int?) -> DelegateEvent? {
            guard let doc, let record, case .event(_, let e) = doc.records[record] else { return nil }
            return e
        }
        guard let golden = input.golden, let c = input.comparison, c.status == .passed || c.status == .failed else {
            return input.actual.records.compactMap { r in
                guard case .event(let t, let e) = r else { return nil }
                return EventRow(
                    cls: "", mark: "", time: t, name: e.name, golden: "", actual: fields(e, comparer: comparer),
                    delta: "")
            }
        }
        return c.differences.rows.filter { $0.kind == .event }.map { row in
            let g = event(golden, row.goldenRecord).map { fields($0, comparer: comparer) }
            let a = event(input.actual, row.actualRecord).map { fields($0, comparer: comparer) }
            if row.goldenRecord == nil {
                return EventRow(
                    cls: "ins", mark: "+", time: row.time, name: row.name, golden: "(absent)", actual: a ?? "",
                    delta: "only in actual")
            }
            if row.actualRecord == nil {
                return EventRow(
                    cls: "del", mark: "−", time: row.time, name: row.name, golden: g ?? "", actual: "(absent)",
                    delta: "only in golden")
            }
            guard row.differs else {
                return EventRow(
                    cls: "", mark: "", time: row.time, name: row.name, golden: g ?? "", actual: a ?? "", delta: "")
            }
            let moved =
                row.changes.count == 1 && row.changes[0].channel == .time ? row.changes[0].delta.map { Int64($0) } : nil
            var gText = g ?? ""
            var aText = a ?? ""
            if let gt = row.goldenTime, let at = row.actualTime, gt != at {
                gText = "t \(CanonicalNumber.formatSeconds(gt)) · " + gText
                aText = "t \(CanonicalNumber.formatSeconds(at)) · " + aText
            }
            return EventRow(
                cls: "chg", mark: moved == nil ? "≠" : "Δt", time: row.time, name: row.name, golden: gText,
                actual: aText,
                delta: deltaText(of: row), onlyMoved: moved)
        }
    }

    /// The Δ column: `location +20 pt`, `Δt +8.333 ms`, `velocity |Δ| 14.4`, `target half→full`.
    static func deltaText(of row: RecordDifferences.Row) -> String {
        row.changes.map { c in
            if c.channel == .time, let dt = c.delta {
                return "Δt " + ReportNumber.signed(dt / 1000, tolerance: .absolute(1e-3), magnitude: 0) + " ms"
            }
            if let d = c.delta, let g = c.goldenNumber, let a = c.actualNumber {
                return "\(c.field) " + ReportNumber.signed(d, tolerance: c.tolerance, magnitude: max(abs(g), abs(a)))
                    + unit(of: c.channel)
            }
            if let e = c.error {
                return "\(c.field) |Δ| " + ReportNumber.format(e, tolerance: c.tolerance, magnitude: e)
            }
            return "\(c.field) \(c.golden)→\(c.actual)"
        }.joined(separator: ", ")
    }

    /// The event table. With a golden: the differing rows first (each with the row before it for
    /// context), then every row in a `<details>` element. In both, a run of more than 3 rows of
    /// one event name that match (or only moved in time by the same amount) is one row saying how
    /// many it stands for, so repeated `didMove` rows collapse unless they differ beyond
    /// tolerance. Values are rounded to what the tolerance can tell apart; a Δ column says what
    /// differs. On phones the table stacks (each row a block).
    static func eventTable(_ input: Input) -> String {
        let rows = eventRows(input)
        let hasGolden = input.golden != nil && input.comparison != nil
        let head =
            hasGolden
            ? "<thead><tr><th></th><th>t (s)</th><th>event</th><th>golden</th><th>actual</th><th>Δ</th></tr></thead>\n"
            : "<thead><tr><th></th><th>t (s)</th><th>event</th><th>fields</th></tr></thead>\n"
        let columns = hasGolden ? 6 : 4
        func row(_ r: EventRow) -> String {
            var s =
                "<tr" + (r.cls.isEmpty ? "" : " class=\"\(r.cls)\"")
                + "><td class=\"mark\">\(r.mark)</td><td class=\"num\">\(CanonicalNumber.formatSeconds(r.time))</td><td class=\"ev\">\(Markup.escape(r.name))</td>"
            if hasGolden {
                s +=
                    "<td class=\"g\" data-label=\"golden\">\(Markup.escape(r.golden))</td><td class=\"a\" data-label=\"actual\">\(Markup.escape(r.actual))</td>"
                s +=
                    r.delta.isEmpty
                    ? "<td class=\"d\"></td>" : "<td class=\"d\" data-label=\"Δ\">\(Markup.escape(r.delta))</td>"
            } else {
                s += "<td>\(Markup.escape(r.actual))</td>"
            }
            return s + "</tr>\n"
        }
        /// `rows` with runs collapsed: more than 3 consecutive rows of one name that match, or
        /// that only moved by the same time.
        func collapsed(_ list: [EventRow]) -> String {
            var s = ""
            var k = 0
            while k < list.count {
                var end = k + 1
                let r = list[k]
                if !r.differs || r.onlyMoved != nil {
                    while end < list.count, list[end].name == r.name, list[end].cls == r.cls,
                        list[end].onlyMoved == r.onlyMoved
                    { end += 1 }
                }
                if end - k > 3 {
                    s += row(list[k])
                    let how =
                        r.onlyMoved.map {
                            "each moved by Δt "
                                + ReportNumber.signed(Double($0) / 1000, tolerance: .absolute(1e-3), magnitude: 0)
                                + " ms, values within tolerance"
                        }
                        ?? "unchanged"
                    s +=
                        "<tr class=\"run\"><td></td><td colspan=\"\(columns - 1)\">… \(end - k - 2) more \(Markup.escape(r.name)) rows, \(how) (\(CanonicalNumber.formatSeconds(list[k + 1].time))–\(CanonicalNumber.formatSeconds(list[end - 2].time)) s)</td></tr>\n"
                    s += row(list[end - 1])
                } else {
                    for m in k..<end { s += row(list[m]) }
                }
                k = end
            }
            return s
        }
        guard hasGolden else {
            return "<table class=\"events\">\n" + head + "<tbody>\n" + collapsed(rows) + "</tbody></table>\n"
        }
        var out = ""
        let changed = rows.indices.filter { rows[$0].differs }
        if changed.isEmpty {
            out += "<p>The events of the golden and the actual result are identical (\(rows.count) events).</p>\n"
        } else {
            var shown: [EventRow] = []
            var taken = Set<Int>()  // membership only
            for k in changed {
                if k > 0 && !taken.contains(k - 1) && !rows[k - 1].differs {
                    shown.append(rows[k - 1])
                    taken.insert(k - 1)
                }
                if taken.insert(k).inserted { shown.append(rows[k]) }
            }
            out +=
                "<p>Differences only (\(changed.count) of \(rows.count) events; the row before each for context):</p>\n"
            out += "<table class=\"events\">\n" + head + "<tbody>\n" + collapsed(shown) + "</tbody></table>\n"
        }
        out += "<details><summary>All events (\(rows.count) rows; runs of matching rows collapsed)</summary>\n"
        out += "<table class=\"events\">\n" + head + "<tbody>\n" + collapsed(rows) + "</tbody></table>\n</details>\n"
        return out
    }
}
