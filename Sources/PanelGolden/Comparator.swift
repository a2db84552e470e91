import PanelSimCore
import PanelTrace

/// How far an actual number may be from the expected one on one channel.
///
/// A value passes when `|actual − expected| ≤ absolute` or
/// `|actual − expected| ≤ relative · max(|expected|, |actual|)`. Equal values (including equal
/// infinities) and two NaNs always pass; NaN against a number never does.
public struct Tolerance: Sendable, Equatable, CustomStringConvertible {
    /// Absolute bound, in the channel's unit (pt, pt/s, …). ≥ 0.
    public var absolute: Double
    /// Relative bound, dimensionless. ≥ 0.
    public var relative: Double
    public init(absolute: Double = 0, relative: Double = 0) {
        self.absolute = absolute; self.relative = relative
    }
    /// Only an absolute bound.
    public static func absolute(_ value: Double) -> Tolerance { Tolerance(absolute: value) }
    /// Exact equality.
    public static let exact = Tolerance()

    /// Whether `actual` is within this tolerance of `expected`.
    /// - Complexity: O(1).
    public func accepts(expected: Double, actual: Double) -> Bool {
        if expected == actual { return true }
        if expected.isNaN || actual.isNaN { return expected.isNaN && actual.isNaN }
        let error = abs(actual - expected)
        guard error.isFinite else { return false }
        return error <= absolute || error <= relative * max(abs(expected), abs(actual))
    }

    public var description: String {
        switch (absolute, relative) {
        case (0, 0): return "exact"
        case (_, 0): return "abs \(CanonicalNumber.format(absolute))"
        case (0, _): return "rel \(CanonicalNumber.format(relative))"
        default: return "abs \(CanonicalNumber.format(absolute)) or rel \(CanonicalNumber.format(relative))"
        }
    }
}

/// Per-channel tolerances of a golden comparison. Discrete channels (record kinds and order,
/// event names, states, booleans, target names) always compare exactly.
public struct Tolerances: Sendable, Equatable {
    /// Surface location of frames and `didMove`, pt. Default: absolute 1e-6 pt.
    public var location = Tolerance.absolute(1e-6)
    /// Backdrop alpha, 0…1. Default: absolute 1e-9.
    public var backdropAlpha = Tolerance.absolute(1e-9)
    /// Scroll content offset, pt. Default: absolute 1e-6 pt.
    public var contentOffset = Tolerance.absolute(1e-6)
    /// Velocities: `willEndDragging` (pt/s) and `shouldRemove` (1/s), per component.
    /// Default: relative 1e-6, with an absolute floor of 1e-9 so that values near 0 compare sanely.
    public var velocity = Tolerance(absolute: 1e-9, relative: 1e-6)
    /// Event times, µs. Default 0 (exact: times are integer µs derived from the trace).
    public var time: Microseconds = 0

    public init() {}
    /// The defaults documented on each property.
    public static let `default` = Tolerances()
    /// Every continuous value accepted (finite errors only): compares the discrete channels alone.
    public static let anyValue: Tolerances = {
        var t = Tolerances()
        let any = Tolerance(absolute: .infinity)
        t.location = any; t.backdropAlpha = any; t.contentOffset = any; t.velocity = any; t.time = .max
        return t
    }()
    /// Every channel exact.
    public static let exact: Tolerances = {
        var t = Tolerances()
        t.location = .exact; t.backdropAlpha = .exact; t.contentOffset = .exact; t.velocity = .exact; t.time = 0
        return t
    }()
}

/// A compared quantity. Continuous channels have a tolerance and a maximum error.
public enum Channel: String, Sendable, Equatable, CaseIterable {
    /// A header field (trace name, frameRate, displayScale).
    case header
    /// The kind of record (event or frame), i.e. a record inserted, removed or reordered.
    case record
    /// An event name.
    case event
    /// A record time (events; frames derive theirs from the index).
    case time = "t"
    /// A frame number.
    case frame
    case location
    case state
    case backdropAlpha
    case contentOffset
    case isAttracting
    case isDragging
    /// Whether FloatingPanel holds the tracked scroll view locked (an arbitration decision).
    case scrollLocked
    /// The opt-in `contentInset` frame channel (pt, per side), compared within the `contentOffset`
    /// tolerance (both are lengths on the tracked list).
    case contentInset
    /// `willEndDragging` and `shouldRemove` velocity components.
    case velocity
    /// `shouldBeginDragging` / `shouldRemove` answers.
    case result
    case proposed
    case target
    case willAttract
    /// `willBeginAttracting` destination.
    case to
    /// Any other field of a panel system's own events and frames (DrawerKit's `cornerRadius`,
    /// `nextState`, …); `Divergence.field` names it.
    case field
    /// One file has records after the other ended.
    case count

    /// Channels compared within a tolerance, in report order.
    public static let continuous: [Channel] = [.location, .backdropAlpha, .contentOffset, .velocity, .time]
}

/// One difference between a golden record and the actual one.
public struct Divergence: Sendable, Equatable {
    /// 0-based record index (the record's line in the file is `recordIndex + 2`).
    public var recordIndex: Int
    /// Time of the record, µs (the golden's record when it exists, else the actual one).
    public var time: Microseconds
    /// Frame number when the record is a frame.
    public var frame: Int?
    public var channel: Channel
    /// Rendered expected (golden) and actual values; `"(none)"` for an absent record or field.
    public var expected: String
    public var actual: String
    /// |actual − expected| for continuous channels.
    public var error: Double?
    /// The field's name when `channel` is `.field` (a panel system's own field), else nil.
    public var field: String?
    public init(recordIndex: Int, time: Microseconds, frame: Int?, channel: Channel,
                expected: String, actual: String, error: Double? = nil, field: String? = nil) {
        self.recordIndex = recordIndex; self.time = time; self.frame = frame; self.channel = channel
        self.expected = expected; self.actual = actual; self.error = error; self.field = field
    }
    /// The name a report prints: the field's own name for `.field`, else the channel's.
    public var channelName: String { field ?? channel.rawValue }
}

/// The largest error seen on one continuous channel, and where.
public struct ChannelError: Sendable, Equatable {
    public var channel: Channel
    /// Largest |actual − expected| over aligned records (0 when all equal; NaN when a NaN met a number).
    public var maxError: Double
    /// Golden record index and time where it occurs (nil when no aligned value exists).
    public var recordIndex: Int?
    public var time: Microseconds?
    /// Number of aligned values compared and how many exceeded the tolerance.
    public var compared: Int
    public var exceeded: Int
}

/// Compares a golden (expected) result with an actual one.
public enum Comparator {
    /// Rows of context shown before and after the first divergence.
    public static let contextRows = 2
    /// At most this many lines of event diff are kept.
    public static let maxDiffLines = 60

    /// Compares `expected` (the golden) with `actual`.
    ///
    /// Header: a different `version` gives `.incompatible` (records not compared); a different
    /// `traceDigest`, `parameterDigest` (when both files have one) or `engine` is a note; a different
    /// `trace`, `model`, `frameRate`, `profile`, `simulator` options or `displayScale` is a divergence on channel
    /// `header` (each one in `headerDifferences`), and the records are still compared.
    ///
    /// Records: aligned by time and kind (`RecordDifferences`: frames by frame number, an omitted
    /// frame standing for the one held; events by name and time, then by name), and every aligned
    /// pair compared field by field. The first divergence, the first discrete one, the count of
    /// differing records, the max error per channel, the context rows and the event diff all come
    /// from that one alignment. When it finds nothing but the files list the records in another
    /// order, the first such position is the divergence.
    /// - Complexity: O(N + M) for N, M records, plus O((n + m) · d) per stretch of events the time
    ///   alignment leaves unpaired (d edits).
    public static func compare(expected: ResultDocument, actual: ResultDocument,
                               tolerances: Tolerances = .default) -> Comparison {
        var notes: [String] = []
        if expected.header.traceDigest != actual.header.traceDigest {
            notes.append("trace edited since the golden was blessed (golden \(expected.header.traceDigest), trace \(actual.header.traceDigest))")
        }
        if !expected.header.parameterDigest.isEmpty && !actual.header.parameterDigest.isEmpty
            && expected.header.parameterDigest != actual.header.parameterDigest {
            notes.append("trace parameters changed since the golden was blessed (golden \(expected.header.parameterDigest), trace \(actual.header.parameterDigest))")
        }
        if expected.header.engine != actual.header.engine {
            notes.append("golden written by \(expected.header.engine), this is \(actual.header.engine)")
        }
        var result = Comparison(status: .passed, firstDivergence: nil, firstDiscreteDivergence: nil, divergentRecords: 0,
                                expectedCount: expected.records.count, actualCount: actual.records.count,
                                channelErrors: [], notes: notes, eventDiff: [], context: [])
        if expected.header.version != actual.header.version {
            result.status = .incompatible(goldenVersion: expected.header.version)
            return result
        }

        var headerDifferences: [Divergence] = []
        func headerField(_ name: String, _ e: String, _ a: String) {
            if e != a {
                headerDifferences.append(Divergence(recordIndex: -1, time: 0, frame: nil, channel: .header,
                                                    expected: "\(name) \(e)", actual: "\(name) \(a)"))
            }
        }
        headerField("trace", ResultFile.quoted(expected.header.trace), ResultFile.quoted(actual.header.trace))
        headerField("model", expected.header.model.rawValue, actual.header.model.rawValue)
        headerField("frameRate", String(expected.header.frameRate), String(actual.header.frameRate))
        // profiles.md §2.4: the profile must be equal, like `simulator`; both points are named.
        headerField("profile", expected.header.profile?.description ?? "none", actual.header.profile?.description ?? "none")
        func options(_ names: [String]) -> String { names.isEmpty ? "defaults" : names.joined(separator: ", ") }
        headerField("simulator", options(expected.header.simulator), options(actual.header.simulator))
        headerField("displayScale", CanonicalNumber.format(expected.header.displayScale),
                    CanonicalNumber.format(actual.header.displayScale))

        let e = expected.records, a = actual.records
        let rates = (expected: expected.header.frameRate, actual: actual.header.frameRate)
        // The records are compared whether or not the headers differ (a header difference alone
        // would hide where and how the results diverge), aligned by time and kind.
        var differences = RecordDifferences(golden: expected, actual: actual, tolerances: tolerances)
        if differences.isEmpty {
            // Aligned, every record matches; the files may still differ record by record: the same
            // records in another order, or a frame written by one side only within tolerance of the
            // frame the other holds.
            for i in 0..<max(e.count, a.count) {
                if let d = diverge(i, i < e.count ? e[i] : nil, i < a.count ? a[i] : nil, tolerances, rates, model: expected.header.model) {
                    differences.orderDivergence = d
                    break
                }
            }
        }
        let firstRecord = differences.first.flatMap(differences.divergence) ?? differences.orderDivergence
        let discrete = differences.firstDiscrete.flatMap(differences.discreteDivergence) ?? differences.orderDivergence

        result.channelErrors = differences.channelErrors
        result.differences = differences
        if let d = headerDifferences.first ?? firstRecord {
            result.status = .failed
            result.firstDivergence = d
            result.headerDifferences = headerDifferences
            result.firstRecordDivergence = firstRecord
            result.firstDiscreteDivergence = discrete
            result.divergentRecords = differences.differingRows.count + (differences.orderDivergence == nil ? 0 : 1)
            result.eventDiff = eventDiff(differences, expected: expected, actual: actual)
            if firstRecord != nil {
                result.context = context(differences, expected: expected, actual: actual)
            }
        }
        return result
    }

    /// The unified diff of the aligned events (`Comparison.eventDiff`): empty when every event has
    /// a partner with the same discrete fields. An event of both sides whose discrete fields
    /// differ (`animated`, `result`, `state`, …) is a `-` line and a `+` line naming those fields
    /// with each side's value; one whose time or continuous values alone differ is a context line.
    private static func eventDiff(_ differences: RecordDifferences, expected: ResultDocument, actual: ResultDocument) -> [String] {
        let rows = differences.rows.filter { $0.kind == .event }
        guard rows.contains(where: { $0.isOneSided || $0.hasDiscreteChange }) else { return [] }
        if differences.eventsUnaligned {
            let g = rows.filter { $0.goldenRecord != nil }.count, a = rows.filter { $0.actualRecord != nil }.count
            return ["(event sequences differ in too many places to diff: \(g) golden events, \(a) actual)"]
        }
        var goldenLines: [String] = [], actualLines: [String] = []
        var edits: [SequenceDiff.Edit] = []
        var kept: [Int: (String, String)] = [:]   // lookup only
        for row in rows {
            let g = row.goldenTime.map { "\(CanonicalNumber.formatSeconds($0)) \(row.name)" }
            let a = row.actualTime.map { "\(CanonicalNumber.formatSeconds($0)) \(row.name)" }
            switch (g, a) {
            case let (g?, a?) where row.hasDiscreteChange:
                // The same event with other discrete values: shown as changed, with the values.
                let changed = row.changes.filter { !$0.isContinuous }
                edits.append(.delete(oldIndex: goldenLines.count))
                goldenLines.append(g + " " + changed.map { "\($0.field): \($0.golden)" }.joined(separator: ", "))
                edits.append(.insert(newIndex: actualLines.count))
                actualLines.append(a + " " + changed.map { "\($0.field): \($0.actual)" }.joined(separator: ", "))
            case let (g?, a?):
                edits.append(.keep(oldIndex: goldenLines.count, newIndex: actualLines.count))
                kept[goldenLines.count] = (CanonicalNumber.formatSeconds(row.goldenTime!), CanonicalNumber.formatSeconds(row.actualTime!))
                goldenLines.append(g); actualLines.append(a)
            case let (g?, nil): edits.append(.delete(oldIndex: goldenLines.count)); goldenLines.append(g)
            case let (nil, a?): edits.append(.insert(newIndex: actualLines.count)); actualLines.append(a)
            case (nil, nil): break
            }
        }
        var lines = SequenceDiff.unifiedHunks(
            edits, context: 3, oldLine: { goldenLines[$0] }, newLine: { actualLines[$0] },
            keptLine: { i, _ in
                // An event of both: the golden's time, and the actual's when it differs.
                let (te, ta) = kept[i] ?? ("", "")
                return goldenLines[i] + (te == ta ? "" : " (actual \(ta))")
            })
        if lines.count > maxDiffLines {
            let more = lines.count - maxDiffLines
            lines = Array(lines.prefix(maxDiffLines)) + ["… \(more) more diff lines"]
        }
        return lines
    }

    // MARK: Record comparison

    /// The tolerance channel of a numeric field of `model`'s records, as its golden description
    /// says (`SystemGoldenDescription.toleranceChannel(of:)`); nil: compared exactly (also for a
    /// model with no registered description).
    static func toleranceChannel(of key: String, model: PanelModel) -> Channel? {
        GoldenSystems.description(for: model)?.toleranceChannel(of: key)
    }

    private static func fmt(_ x: Double) -> String { CanonicalNumber.format(x) }
    private static func fmt(_ p: Point) -> String { "{x: \(fmt(p.x)), y: \(fmt(p.y))}" }
    private static func fmt(_ x: Double?) -> String { x.map { fmt($0) } ?? "(none)" }
    private static func describe(_ v: FieldValue) -> String {
        switch v {
        case .number(let x): return fmt(x)
        case .string(let s): return s
        case .bool(let b): return String(b)
        case .point(let p): return fmt(p)
        case .null: return "null"
        }
    }

    private static func describe(_ r: ResultRecord?) -> String {
        switch r {
        case nil: return "(none)"
        case .event(_, let ev)?: return "event \(ev.name)"
        case .frame(let f)?: return "frame \(f.index)"
        case .systemFrame(let f)?: return "frame \(f.index)"
        }
    }

    /// The first channel on which records `e` and `a` at index `i` differ, in field order.
    private static func diverge(_ i: Int, _ e: ResultRecord?, _ a: ResultRecord?, _ tol: Tolerances,
                                _ rates: (expected: Int, actual: Int), model: PanelModel) -> Divergence? {
        func div(_ channel: Channel, _ ev: String, _ av: String, _ error: Double? = nil) -> Divergence {
            var time: Microseconds = 0, frame: Int?
            switch (e, a) {
            case (.event(let t, _)?, _), (nil, .event(let t, _)?): time = t
            case (let r?, _) where r.frameIndex != nil: frame = r.frameIndex; time = frameTime(r.frameIndex!, frameRate: rates.expected)
            case (nil, let r?) where r.frameIndex != nil: frame = r.frameIndex; time = frameTime(r.frameIndex!, frameRate: rates.actual)
            default: break
            }
            return Divergence(recordIndex: i, time: time, frame: frame, channel: channel,
                              expected: ev, actual: av, error: error)
        }
        func tolerance(_ c: Channel) -> Tolerance {
            switch c {
            case .location: return tol.location
            case .backdropAlpha: return tol.backdropAlpha
            case .contentOffset: return tol.contentOffset
            case .velocity: return tol.velocity
            default: return .exact
            }
        }
        /// A panel system's fields, in order: the same keys, numbers within their channel's
        /// tolerance, everything else exact.
        func fields(_ x: [RecordField], _ y: [RecordField]) -> Divergence? {
            for k in 0..<max(x.count, y.count) {
                let fx = k < x.count ? x[k] : nil, fy = k < y.count ? y[k] : nil
                guard let fx, let fy, fx.key == fy.key else {
                    return Divergence(recordIndex: i, time: div(.field, "", "").time, frame: div(.field, "", "").frame, channel: .field,
                                      expected: fx.map { "field \($0.key)" } ?? "(none)", actual: fy.map { "field \($0.key)" } ?? "(none)",
                                      field: fx?.key ?? fy?.key)
                }
                let c = toleranceChannel(of: fx.key, model: model)
                func named(_ d: Divergence?) -> Divergence? {
                    guard var d else { return nil }
                    if d.channel == .field || c == nil || c != Channel(rawValue: fx.key) { d.field = fx.key }
                    return d
                }
                switch (fx.value, fy.value) {
                case let (.number(p), .number(q)):
                    if let d = named(number(c ?? .field, p, q, tolerance(c ?? .field))) { return d }
                case let (.point(p), .point(q)):
                    let t = tolerance(c ?? .field)
                    if !(t.accepts(expected: p.x, actual: q.x) && t.accepts(expected: p.y, actual: q.y)) {
                        return named(div(c ?? .field, fmt(p), fmt(q), max(abs(q.x - p.x), abs(q.y - p.y))))
                    }
                default:
                    if fx.value != fy.value {
                        return named(div(.field, describe(fx.value), describe(fy.value)))
                    }
                }
            }
            return nil
        }
        func number(_ channel: Channel, _ x: Double, _ y: Double, _ t: Tolerance) -> Divergence? {
            t.accepts(expected: x, actual: y) ? nil : div(channel, fmt(x), fmt(y), abs(y - x))
        }
        func exact<T: Equatable & CustomStringConvertible>(_ channel: Channel, _ x: T, _ y: T) -> Divergence? {
            x == y ? nil : div(channel, x.description, y.description)
        }
        /// The `contentInset` channel: present in both or neither, each side within the
        /// `contentOffset` tolerance.
        func insetDivergence(_ x: Insets?, _ y: Insets?) -> Divergence? {
            func text(_ i: Insets?) -> String {
                guard let i else { return "absent" }
                return "{top \(fmt(i.top)), left \(fmt(i.left)), bottom \(fmt(i.bottom)), right \(fmt(i.right))}"
            }
            switch (x, y) {
            case (nil, nil): return nil
            case let (p?, q?):
                let pairs = [(p.top, q.top), (p.left, q.left), (p.bottom, q.bottom), (p.right, q.right)]
                if pairs.allSatisfy({ tol.contentOffset.accepts(expected: $0.0, actual: $0.1) }) { return nil }
                return div(.contentInset, text(x), text(y), pairs.map { abs($0.1 - $0.0) }.max() ?? 0)
            default: return div(.contentInset, text(x), text(y))
            }
        }
        func point(_ x: Point, _ y: Point) -> Divergence? {
            if tol.velocity.accepts(expected: x.x, actual: y.x) && tol.velocity.accepts(expected: x.y, actual: y.y) { return nil }
            let err = max(abs(y.x - x.x), abs(y.y - x.y))
            return div(.velocity, fmt(x), fmt(y), err)
        }

        switch (e, a) {
        case (nil, nil):
            return nil
        case (nil, _), (_, nil):
            return div(.count, describe(e), describe(a))
        case (.event(let te, let ee)?, .event(let ta, let ea)?):
            if ee.name != ea.name { return div(.event, ee.name, ea.name) }
            if abs(te - ta) > tol.time {
                return div(.time, CanonicalNumber.formatSeconds(te), CanonicalNumber.formatSeconds(ta), Double(abs(te - ta)))
            }
            switch (ee, ea) {
            case (.shouldBeginDragging(let x), .shouldBeginDragging(let y)): return exact(.result, x, y)
            case (.willBeginDragging(let x), .willBeginDragging(let y)): return exact(.state, x, y)
            case (.didMove(let x), .didMove(let y)): return number(.location, x, y, tol.location)
            case (.willEndDragging(let vx, let px, let tx), .willEndDragging(let vy, let py, let ty)):
                return point(vx, vy) ?? exact(.proposed, px, py) ?? exact(.target, tx, ty)
            case (.didEndDragging(let x), .didEndDragging(let y)): return exact(.willAttract, x, y)
            case (.willBeginAttracting(let x), .willBeginAttracting(let y)): return exact(.to, x, y)
            case (.didChangeState(let x), .didChangeState(let y)): return exact(.state, x, y)
            case (.shouldRemove(let vx, let rx), .shouldRemove(let vy, let ry)):
                return point(vx, vy) ?? exact(.result, rx, ry)
            case (.system(let x), .system(let y)):
                return fields(x.fields, y.fields)
            default:
                return nil   // same name, no fields
            }
        case (.systemFrame(let x)?, .systemFrame(let y)?):
            if x.index != y.index { return div(.frame, String(x.index), String(y.index)) }
            return fields(x.channels, y.channels)
        case (.frame(let x)?, .frame(let y)?):
            if x.index != y.index { return div(.frame, String(x.index), String(y.index)) }
            if let d = number(.location, x.location, y.location, tol.location) { return d }
            if let d = exact(.state, x.state, y.state) { return d }
            if let d = number(.backdropAlpha, x.backdropAlpha, y.backdropAlpha, tol.backdropAlpha) { return d }
            switch (x.contentOffset, y.contentOffset) {
            case (let p?, let q?): if let d = number(.contentOffset, p, q, tol.contentOffset) { return d }
            case (nil, nil): break
            default: return div(.contentOffset, fmt(x.contentOffset), fmt(y.contentOffset))
            }
            return exact(.isAttracting, x.isAttracting, y.isAttracting) ?? exact(.isDragging, x.isDragging, y.isDragging)
                ?? exact(.scrollLocked, x.scrollLocked.map(String.init) ?? "absent", y.scrollLocked.map(String.init) ?? "absent")
                ?? insetDivergence(x.contentInset, y.contentInset)
        default:
            return div(.record, describe(e), describe(a))
        }
    }

    // MARK: Context

    /// Rows of the aligned records around the first differing one (± `contextRows`): a matching
    /// row as `  #i` and the golden's line, a differing one as `- #i` (golden) and `+ #j` (actual),
    /// `(none)` for an event a side lacks and `(not written: frame k holds)` for an omitted frame.
    private static func context(_ differences: RecordDifferences, expected: ResultDocument, actual: ResultDocument) -> [String] {
        let rows = differences.rows
        if differences.isEmpty || differences.orderDivergence != nil {
            // Written differently: the records at that position, as the files list them.
            guard let d = differences.orderDivergence else { return [] }
            var out: [String] = []
            let e = expected.records, a = actual.records
            for i in max(0, d.recordIndex - contextRows)...min(max(e.count, a.count) - 1, d.recordIndex + contextRows) {
                let x = i < e.count ? ResultFile.line(for: e[i], frameRate: expected.header.frameRate) : "(none)"
                let y = i < a.count ? ResultFile.line(for: a[i], frameRate: actual.header.frameRate) : "(none)"
                if x == y { out.append("  #\(i) " + x) } else { out += ["- #\(i) " + x, "+ #\(i) " + y] }
            }
            return out
        }
        guard let first = rows.firstIndex(where: \.differs) else { return [] }
        func side(_ record: Int?, held: Int?, doc: ResultDocument, row: RecordDifferences.Row) -> String {
            if let record { return "#\(record) " + ResultFile.line(for: doc.records[record], frameRate: doc.header.frameRate) }
            if row.kind == .frame, let held, let k = doc.records[held].frameIndex { return "(frame \(row.frame ?? 0) not written: frame \(k) holds)" }
            return "(none)"
        }
        var out: [String] = []
        for k in max(0, first - contextRows)...min(rows.count - 1, first + contextRows) {
            let row = rows[k]
            if !row.differs {
                out.append("  " + (row.goldenRecord != nil ? side(row.goldenRecord, held: nil, doc: expected, row: row)
                                                           : side(row.actualRecord, held: nil, doc: actual, row: row)))
            } else {
                out.append("- " + side(row.goldenRecord, held: row.goldenHeld, doc: expected, row: row))
                out.append("+ " + side(row.actualRecord, held: row.actualHeld, doc: actual, row: row))
            }
        }
        return out
    }
}
