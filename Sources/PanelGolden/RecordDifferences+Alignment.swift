import PanelSimCore
import PanelTrace

extension RecordDifferences {
    /// Most edits the name alignment of the events may need (`SequenceDiff.edits`' bound): beyond
    /// it the events are left unpaired (golden-only and actual-only rows).
    public static let maxEventEdits = 4000

    /// Aligns `golden` and `actual` by time and kind and compares every aligned pair within
    /// `tolerances` (see the type's description).
    /// - Complexity: O(N + M) for the frames and the events of equal times, plus O((n + m) · d) for
    ///   each stretch of n + m events left unpaired by time, d ≤ `maxEventEdits` its edits.
    public init(golden: ResultDocument, actual: ResultDocument, tolerances: Tolerances) {
        let comparer = FieldComparer(tolerances: tolerances, model: golden.header.model)
        var stats = ErrorStats()
        let frameRows = Self.frameRows(golden: golden, actual: actual, comparer: comparer, stats: &stats)
        let (eventRows, unaligned) = Self.eventRows(golden: golden, actual: actual, comparer: comparer, stats: &stats)
        // Merge by time; at equal times events first (a frame is written after the events of its step).
        var rows: [Row] = []
        rows.reserveCapacity(frameRows.count + eventRows.count)
        var i = 0
        var j = 0
        while i < frameRows.count || j < eventRows.count {
            if j < eventRows.count && (i == frameRows.count || eventRows[j].time <= frameRows[i].time) {
                rows.append(eventRows[j])
                j += 1
            } else {
                rows.append(frameRows[i])
                i += 1
            }
        }
        self.init(
            rows: rows, frameRate: golden.header.frameRate, channelErrors: stats.errors, eventsUnaligned: unaligned)
    }

    // MARK: Frames

    /// One row per frame number either side wrote, comparing the frames both sides hold there.
    private static func frameRows(
        golden: ResultDocument, actual: ResultDocument, comparer: FieldComparer,
        stats: inout ErrorStats
    ) -> [Row] {
        func frames(_ doc: ResultDocument) -> [(record: Int, index: Int)] {
            var out: [(record: Int, index: Int)] = []
            for (i, r) in doc.records.enumerated() { if let k = r.frameIndex { out.append((i, k)) } }
            // Results list frames in frame order; a file that does not is aligned all the same.
            if zip(out, out.dropFirst()).contains(where: { $0.index > $1.index }) {
                out = out.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(
                    \.element)
            }
            return out
        }
        let g = frames(golden)
        let a = frames(actual)
        let gRate = golden.header.frameRate
        let aRate = actual.header.frameRate
        var rows: [Row] = []
        rows.reserveCapacity(max(g.count, a.count))
        var p = 0
        var q = 0
        var heldG: Int?
        var heldA: Int?
        while p < g.count || q < a.count {
            let k = min(p < g.count ? g[p].index : Int.max, q < a.count ? a[q].index : Int.max)
            let gWrote = p < g.count && g[p].index == k
            let aWrote = q < a.count && a[q].index == k
            if gWrote {
                heldG = g[p].record
                p += 1
            }
            if aWrote {
                heldA = a[q].record
                q += 1
            }
            var row = Row(
                kind: .frame, name: "frame", frame: k,
                goldenTime: heldG == nil ? nil : frameTime(k, frameRate: gRate),
                actualTime: heldA == nil ? nil : frameTime(k, frameRate: aRate),
                goldenRecord: gWrote ? heldG : nil, actualRecord: aWrote ? heldA : nil,
                goldenHeld: heldG, actualHeld: heldA, changes: [])
            let gr = heldG.map { golden.records[$0] }
            let ar = heldA.map { actual.records[$0] }
            row.goldenLocation = gr?.frameLocation
            row.actualLocation = ar?.frameLocation
            if let gr, let ar {
                comparer.compare(
                    fields(of: gr), fields(of: ar), typed: isTyped(gr), into: &row.changes,
                    stats: &stats, record: heldG ?? 0, time: row.time)
            } else {
                row.changes.append(
                    Change(
                        channel: .record, field: "frame", golden: gr == nil ? "(none)" : "frame \(k)",
                        actual: ar == nil ? "(none)" : "frame \(k)"))
            }
            rows.append(row)
        }
        return rows
    }

    // MARK: Events

    private struct EventRef {
        var record: Int
        var time: Microseconds
        var event: DelegateEvent
    }

    private enum Pair {
        case both(Int, Int)
        case golden(Int)
        case actual(Int)
    }

    /// One row per aligned event pair and per event of one side only, in alignment order.
    private static func eventRows(
        golden: ResultDocument, actual: ResultDocument, comparer: FieldComparer,
        stats: inout ErrorStats
    ) -> (rows: [Row], unaligned: Bool) {
        func events(_ doc: ResultDocument) -> [EventRef] {
            doc.records.enumerated().compactMap { i, r in
                if case .event(let t, let e) = r { return EventRef(record: i, time: t, event: e) } else { return nil }
            }
        }
        let g = events(golden)
        let a = events(actual)
        let (pairs, unaligned) = align(g, a)
        var rows: [Row] = []
        rows.reserveCapacity(pairs.count)
        for pair in pairs {
            switch pair {
            case .both(let i, let j):
                var row = Row(
                    kind: .event, name: g[i].event.name, frame: nil, goldenTime: g[i].time, actualTime: a[j].time,
                    goldenRecord: g[i].record, actualRecord: a[j].record, changes: [])
                let ge = ResultRecord.event(time: g[i].time, g[i].event)
                let ae = ResultRecord.event(time: a[j].time, a[j].event)
                comparer.compareTimes(g[i].time, a[j].time, into: &row.changes, stats: &stats, record: g[i].record)
                let gf = fields(of: ge)
                let af = fields(of: ae)
                row.goldenLocation = location(in: gf)
                row.actualLocation = location(in: af)
                comparer.compare(
                    gf, af, typed: isTyped(ge), into: &row.changes, stats: &stats, record: g[i].record, time: g[i].time)
                rows.append(row)
            case .golden(let i):
                var row = Row(
                    kind: .event, name: g[i].event.name, frame: nil, goldenTime: g[i].time, actualTime: nil,
                    goldenRecord: g[i].record, actualRecord: nil,
                    changes: [Change(channel: .event, field: "event", golden: g[i].event.name, actual: "(none)")])
                row.goldenLocation = location(in: fields(of: .event(time: g[i].time, g[i].event)))
                rows.append(row)
            case .actual(let j):
                var row = Row(
                    kind: .event, name: a[j].event.name, frame: nil, goldenTime: nil, actualTime: a[j].time,
                    goldenRecord: nil, actualRecord: a[j].record,
                    changes: [Change(channel: .event, field: "event", golden: "(none)", actual: a[j].event.name)])
                row.actualLocation = location(in: fields(of: .event(time: a[j].time, a[j].event)))
                rows.append(row)
            }
        }
        return (rows, unaligned)
    }

    private static func location(in fields: [RecordField]) -> Double? {
        for f in fields where f.key == "location" { if case .number(let x) = f.value { return x } }
        return nil
    }

    /// Pairs events by (name, time), then what is left by name in order.
    private static func align(_ g: [EventRef], _ a: [EventRef]) -> (pairs: [Pair], unaligned: Bool) {
        func sorted(_ e: [EventRef]) -> Bool { !zip(e, e.dropFirst()).contains { $0.time > $1.time } }
        var first: [Pair] = []
        if sorted(g) && sorted(a) {
            // Groups of equal time, walked together; within a group, by name.
            var i = 0
            var j = 0
            while i < g.count || j < a.count {
                let t = min(i < g.count ? g[i].time : .max, j < a.count ? a[j].time : .max)
                var gi = i
                var aj = j
                while gi < g.count && g[gi].time == t { gi += 1 }
                while aj < a.count && a[aj].time == t { aj += 1 }
                first +=
                    pairs(
                        g[i..<gi].map(\.event.name), a[j..<aj].map(\.event.name), offsets: (i, j),
                        maxEdits: maxEventEdits)
                    ?? (Array(i..<gi).map { .golden($0) } + Array(j..<aj).map { .actual($0) })
                i = gi
                j = aj
            }
        } else {
            struct Key: Equatable {
                var name: String
                var time: Microseconds
            }
            first =
                pairs(
                    g.map { Key(name: $0.event.name, time: $0.time) },
                    a.map { Key(name: $0.event.name, time: $0.time) },
                    offsets: (0, 0), maxEdits: maxEventEdits)
                ?? (g.indices.map { .golden($0) } + a.indices.map { .actual($0) })
        }
        // Each stretch of unpaired events between two pairs: by name alone.
        var out: [Pair] = []
        out.reserveCapacity(first.count)
        var unaligned = false
        var k = 0
        while k < first.count {
            if case .both = first[k] {
                out.append(first[k])
                k += 1
                continue
            }
            var gs: [Int] = []
            var as_: [Int] = []
            while k < first.count {
                if case .golden(let i) = first[k] {
                    gs.append(i)
                } else if case .actual(let j) = first[k] {
                    as_.append(j)
                } else {
                    break
                }
                k += 1
            }
            if gs.isEmpty || as_.isEmpty {
                out += gs.map { .golden($0) } + as_.map { .actual($0) }
            } else if let edits = SequenceDiff.edits(
                from: gs.map { g[$0].event.name }, to: as_.map { a[$0].event.name },
                maxEdits: maxEventEdits)
            {
                for e in edits {
                    switch e {
                    case .keep(let x, let y): out.append(.both(gs[x], as_[y]))
                    case .delete(let x): out.append(.golden(gs[x]))
                    case .insert(let y): out.append(.actual(as_[y]))
                    }
                }
            } else {
                unaligned = true
                out += gs.map { .golden($0) } + as_.map { .actual($0) }
            }
        }
        return (out, unaligned)
    }

    /// The edit script of `old` → `new` as pairs, indices offset by `offsets`; nil beyond `maxEdits`.
    private static func pairs<T: Equatable>(_ old: [T], _ new: [T], offsets: (Int, Int), maxEdits: Int) -> [Pair]? {
        if old == new { return old.indices.map { .both($0 + offsets.0, $0 + offsets.1) } }
        return SequenceDiff.edits(from: old, to: new, maxEdits: maxEdits)?.map { e -> Pair in
            switch e {
            case .keep(let x, let y): return .both(x + offsets.0, y + offsets.1)
            case .delete(let x): return .golden(x + offsets.0)
            case .insert(let y): return .actual(y + offsets.1)
            }
        }
    }

    // MARK: Fields

    /// True for FloatingPanel's typed records, whose field names are the comparator's channels.
    private static func isTyped(_ r: ResultRecord) -> Bool {
        switch r {
        case .frame: return true
        case .systemFrame: return false
        case .event(_, let e): if case .system = e { return false } else { return true }
        }
    }

    /// The record's fields as written in a result file (without `t`, `frame` and `event`);
    /// FloatingPanel's `contentInset` as four numbers `contentInset.top` … `.right`.
    static func fields(of record: ResultRecord) -> [RecordField] {
        switch record {
        case .systemFrame(let f): return f.channels
        case .frame(let f):
            var out: [RecordField] = [
                .init("location", .number(f.location)), .init("state", .string(f.state)),
                .init("backdropAlpha", .number(f.backdropAlpha)),
            ]
            if let c = f.contentOffset { out.append(.init("contentOffset", .number(c))) }
            out.append(.init("isAttracting", .bool(f.isAttracting)))
            out.append(.init("isDragging", .bool(f.isDragging)))
            if let s = f.scrollLocked { out.append(.init("scrollLocked", .bool(s))) }
            if let i = f.contentInset {
                out += [
                    .init("contentInset.top", .number(i.top)), .init("contentInset.left", .number(i.left)),
                    .init("contentInset.bottom", .number(i.bottom)), .init("contentInset.right", .number(i.right)),
                ]
            }
            return out
        case .event(_, let e):
            switch e {
            case .shouldBeginDragging(let r): return [.init("result", .bool(r))]
            case .willBeginDragging(let s): return [.init("state", .string(s))]
            case .didMove(let l): return [.init("location", .number(l))]
            case .willEndDragging(let v, let p, let t):
                return [.init("velocity", .point(v)), .init("proposed", .string(p)), .init("target", .string(t))]
            case .didEndDragging(let w): return [.init("willAttract", .bool(w))]
            case .willBeginAttracting(let to): return [.init("to", .string(to))]
            case .didChangeState(let s): return [.init("state", .string(s))]
            case .shouldRemove(let v, let r): return [.init("velocity", .point(v)), .init("result", .bool(r))]
            case .didEndAttracting, .willRemove, .didRemove: return []
            case .system(let s): return s.fields
            }
        }
    }
}

/// Compares two field lists key by key: numbers within their channel's tolerance, the rest exactly.
struct FieldComparer {
    var tolerances: Tolerances
    var model: PanelModel

    /// The channel of a field: for FloatingPanel's typed records the channel of that name
    /// (`contentInset.*` → `contentInset`); for a panel system's own records its golden
    /// description's tolerance channel, else `field`.
    func channel(of key: String, typed: Bool) -> Channel {
        if typed { return key.hasPrefix("contentInset") ? .contentInset : (Channel(rawValue: key) ?? .field) }
        return Comparator.toleranceChannel(of: key, model: model) ?? .field
    }

    /// The tolerance of `channel` (`contentInset` uses the content offset's; discrete channels exact).
    func tolerance(_ channel: Channel) -> Tolerance {
        switch channel {
        case .location: return tolerances.location
        case .backdropAlpha: return tolerances.backdropAlpha
        case .contentOffset, .contentInset: return tolerances.contentOffset
        case .velocity: return tolerances.velocity
        case .time: return Tolerance(absolute: Double(tolerances.time))
        default: return .exact
        }
    }

    func compareTimes(
        _ g: Microseconds, _ a: Microseconds, into changes: inout [RecordDifferences.Change],
        stats: inout ErrorStats, record: Int
    ) {
        let tol = tolerance(.time)
        let x = Double(g)
        let y = Double(a)
        if !stats.add(.time, x, y, tol, record: record, time: g) {
            changes.append(
                .init(
                    channel: .time, field: "t", golden: CanonicalNumber.formatSeconds(g),
                    actual: CanonicalNumber.formatSeconds(a),
                    goldenNumber: x, actualNumber: y, error: abs(y - x), tolerance: tol))
        }
    }

    /// Appends to `changes` every field of `g` and `a` that differs (by position and key; a key
    /// on one side only is a change with `(none)` on the other).
    func compare(
        _ g: [RecordField], _ a: [RecordField], typed: Bool, into changes: inout [RecordDifferences.Change],
        stats: inout ErrorStats, record: Int, time: Microseconds
    ) {
        var matched = Array(repeating: false, count: a.count)
        var position = 0
        for fg in g {
            let c = channel(of: fg.key, typed: typed)
            let tol = tolerance(c)
            // Usually the same position; else the first unmatched field of that name.
            let same = position < a.count && !matched[position] && a[position].key == fg.key
            position += 1
            guard let k = same ? position - 1 : a.indices.first(where: { !matched[$0] && a[$0].key == fg.key }) else {
                changes.append(.init(channel: c, field: fg.key, golden: Self.text(fg.value), actual: "(none)"))
                continue
            }
            matched[k] = true
            let fa = a[k]
            switch (fg.value, fa.value) {
            case (.number(let x), .number(let y)):
                if !stats.add(c, x, y, tol, record: record, time: time) {
                    changes.append(
                        .init(
                            channel: c, field: fg.key, golden: CanonicalNumber.format(x),
                            actual: CanonicalNumber.format(y),
                            goldenNumber: x, actualNumber: y, error: abs(y - x), tolerance: tol))
                }
            case (.point(let p), .point(let q)):
                let okX = stats.add(c, p.x, q.x, tol, record: record, time: time)
                let okY = stats.add(c, p.y, q.y, tol, record: record, time: time)
                if !(okX && okY) {
                    changes.append(
                        .init(
                            channel: c, field: fg.key, golden: Self.text(fg.value), actual: Self.text(fa.value),
                            error: max(abs(q.x - p.x), abs(q.y - p.y)), tolerance: tol))
                }
            default:
                if fg.value != fa.value {
                    changes.append(
                        .init(
                            channel: Channel.continuous.contains(c) ? .field : c, field: fg.key,
                            golden: Self.text(fg.value), actual: Self.text(fa.value)))
                }
            }
        }
        for (k, fa) in a.enumerated() where !matched[k] {
            changes.append(
                .init(
                    channel: channel(of: fa.key, typed: typed), field: fa.key, golden: "(none)",
                    actual: Self.text(fa.value)))
        }
    }

    /// A field value as the comparison prints it: numbers canonical, vectors `{x: …, y: …}`.
    static func text(_ v: FieldValue) -> String {
        switch v {
        case .number(let x): return CanonicalNumber.format(x)
        case .string(let s): return s
        case .bool(let b): return String(b)
        case .point(let p): return "{x: \(CanonicalNumber.format(p.x)), y: \(CanonicalNumber.format(p.y))}"
        case .null: return "null"
        }
    }
}

/// Largest error per continuous channel, and where (the first occurrence of the maximum; NaN
/// dominates).
struct ErrorStats {
    var errors: [ChannelError] = Channel.continuous.map {
        ChannelError(channel: $0, maxError: 0, recordIndex: nil, time: nil, compared: 0, exceeded: 0)
    }

    /// Compares `x` (golden) with `y` within `tol`, accumulating continuous channels; returns
    /// whether they agree.
    mutating func add(_ channel: Channel, _ x: Double, _ y: Double, _ tol: Tolerance, record: Int, time: Microseconds)
        -> Bool
    {
        let ok = tol.accepts(expected: x, actual: y)
        guard let slot = Channel.continuous.firstIndex(of: channel) else { return ok }
        let err: Double = (x == y || (x.isNaN && y.isNaN)) ? 0 : ((x.isNaN || y.isNaN) ? .nan : abs(y - x))
        var c = errors[slot]
        c.compared += 1
        if !ok { c.exceeded += 1 }
        if !c.maxError.isNaN && (err.isNaN || err > c.maxError) {
            c.maxError = err
            c.recordIndex = record
            c.time = time
        } else if c.recordIndex == nil {
            c.recordIndex = record
            c.time = time
        }
        errors[slot] = c
        return ok
    }
}
