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

/// The outcome of comparing a golden result with an actual one.
public struct Comparison: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// Everything matches within tolerances.
        case passed
        /// A regression: at least one divergence.
        case failed
        /// The golden was written in another format version; records were not compared.
        case incompatible(goldenVersion: Int)
    }
    public var status: Status
    public var passed: Bool { status == .passed }
    /// The first difference: the first of `headerDifferences` when the headers differ, else
    /// `firstRecordDivergence` (nil when passed or incompatible).
    public var firstDivergence: Divergence?
    /// Every header field that differs and fails the comparison (`trace`, `model`, `frameRate`,
    /// `profile`, `simulator`, `displayScale`, in that order; channel `header`). The records are compared
    /// all the same.
    public var headerDifferences: [Divergence] = []
    /// The first diverging record in file order, whatever the header says (nil when the
    /// records match within tolerances, or when incompatible).
    public var firstRecordDivergence: Divergence?
    /// The first divergence on a discrete channel (record kind or order, event name, state,
    /// `isAttracting`/`isDragging`, answers and targets: the events, states and arbitration
    /// decisions, which compare exactly), found ignoring continuous values. Nil when they all match.
    public var firstDiscreteDivergence: Divergence?
    /// Number of golden + actual records involved in a divergence (aligned frames by index,
    /// events by the event-name alignment); 0 when passed.
    public var divergentRecords: Int
    public var expectedCount: Int
    public var actualCount: Int
    /// Max error per channel, in `Channel.continuous` order.
    public var channelErrors: [ChannelError]
    /// Header differences that do not fail the comparison (trace edited since blessed, engine).
    public var notes: [String]
    /// Unified-style diff of the event-name sequences (empty when they are equal). Each line is
    /// the event's time in seconds and its name: `-` lines are golden events at the golden's
    /// times, `+` lines actual events at the actual's times, and context lines (`" "`, an event
    /// of both) the golden's time followed by `(actual T)` when the actual's time differs.
    public var eventDiff: [String]
    /// Rows of records around the first divergence (`" "` matching, `"-"` golden, `"+"` actual).
    public var context: [String]

    /// The multi-line failure report (no trailing newline). Every line is indented by `indent`.
    /// - Complexity: O(size of the report).
    public func report(indent: String = "  ") -> String {
        var lines: [String] = []
        switch status {
        case .incompatible(let v):
            lines.append("golden format version \(v), this build writes \(ResultHeader.currentVersion); not compared (re-record with --record failed)")
        case .passed:
            lines.append("matches the golden (\(expectedCount) records)")
        case .failed:
            for h in headerDifferences {
                lines.append("header differs: expected \(h.expected), actual \(h.actual)")
            }
            guard let d = firstRecordDivergence else {
                // Only the header differs.
                lines.append("records: identical within tolerances (\(expectedCount) records)")
                break
            }
            var at = "first divergence at record \(d.recordIndex) (line \(d.recordIndex + 2)), t = \(CanonicalNumber.formatSeconds(d.time)) s"
            if let f = d.frame { at += ", frame \(f)" }
            lines.append(at + ": \(d.channelName)")
            lines.append("  expected: \(d.expected)")
            var actualLine = "  actual:   \(d.actual)"
            if let e = d.error { actualLine += "  (|error| \(CanonicalNumber.format(e)))" }
            lines.append(actualLine)
            if let x = firstDiscreteDivergence {
                if x != d {
                    var at = "events, states and decisions: first differ at record \(x.recordIndex) (line \(x.recordIndex + 2)), t = \(CanonicalNumber.formatSeconds(x.time)) s"
                    if let f = x.frame { at += ", frame \(f)" }
                    lines.append(at + ": \(x.channelName): expected \(x.expected), actual \(x.actual)")
                }
            } else {
                lines.append("events, states and decisions: identical (only continuous values differ)")
            }
            lines.append("records: expected \(expectedCount), actual \(actualCount); \(divergentRecords) differ")
            lines.append("max error per channel:")
            for c in channelErrors {
                let name = c.channel.rawValue.padding(to: 14)
                if c.compared == 0 {
                    continue   // a channel neither side has (contentOffset of a trace without a list)
                } else if c.channel == .time {
                    let at = c.maxError > 0 ? " at record \(c.recordIndex!) (t = \(CanonicalNumber.formatSeconds(c.time!)))" : ""
                    lines.append("  \(name) \(CanonicalNumber.format(c.maxError)) µs\(at), \(c.exceeded) of \(c.compared) over tolerance")
                } else {
                    let at = c.maxError > 0 || c.maxError.isNaN ? " at record \(c.recordIndex!) (t = \(CanonicalNumber.formatSeconds(c.time!)))" : ""
                    lines.append("  \(name) \(CanonicalNumber.format(c.maxError))\(at), \(c.exceeded) of \(c.compared) over tolerance")
                }
            }
            if !context.isEmpty {
                lines.append("context (- golden, + actual):")
                lines += context.map { "  " + $0 }
            }
            if !eventDiff.isEmpty {
                lines.append("event sequence diff:")
                lines.append("  --- golden")
                lines.append("  +++ actual")
                lines += eventDiff.map { "  " + $0 }
            }
        }
        for note in notes { lines.append("note: " + note) }
        return lines.map { indent + $0 }.joined(separator: "\n")
    }
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
    /// Records: the first divergence is found walking both record lists in file order, record
    /// by record (kind, then each field in file order). Max errors per channel and the count of
    /// differing records are computed over an alignment that survives insertions: frames are
    /// paired by frame number, events by a shortest edit script of their names.
    /// - Complexity: O((N + M) · D) for N, M records and D differing event names, plus O(N + M).
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
        // 1. First divergence, positional.
        func firstPositional(_ tol: Tolerances) -> Divergence? {
            for i in 0..<max(e.count, a.count) {
                if let d = diverge(i, i < e.count ? e[i] : nil, i < a.count ? a[i] : nil, tol, rates, model: expected.header.model) { return d }
            }
            return nil
        }
        // The records are compared whether or not the headers differ (a header difference alone
        // would hide where and how the results diverge).
        let firstRecord = firstPositional(tolerances)
        let first: Divergence? = headerDifferences.first ?? firstRecord
        // Discrete channels on their own: every continuous value accepted.
        var discrete: Divergence?
        if let f = firstRecord {
            discrete = Channel.continuous.contains(f.channel) ? firstPositional(.anyValue) : f
        }

        // 2. Alignment-based statistics.
        var stats = Stats(tolerances: tolerances, model: expected.header.model)
        var divergent = 0
        var actualFrames: [Int: ResultRecord] = [:]   // lookup only, never iterated into output
        for r in a { if let k = r.frameIndex { actualFrames[k] = r } }
        var expectedFrameIndices = Set<Int>()
        for (i, r) in e.enumerated() {
            guard let k = r.frameIndex else { continue }
            expectedFrameIndices.insert(k)
            guard let g = actualFrames[k] else { divergent += 1; continue }
            let t = frameTime(k, frameRate: expected.header.frameRate)
            switch (r, g) {
            case let (.frame(f), .frame(h)): if !stats.frame(f, h, at: i, time: t) { divergent += 1 }
            case let (.systemFrame(f), .systemFrame(h)): if !stats.fields(f.channels, h.channels, at: i, time: t) { divergent += 1 }
            default: divergent += 1
            }
        }
        for r in a { if let k = r.frameIndex, !expectedFrameIndices.contains(k) { divergent += 1 } }

        let ePositions = e.indices.filter { if case .event = e[$0] { return true } else { return false } }
        let aPositions = a.indices.filter { if case .event = a[$0] { return true } else { return false } }
        let eNames = ePositions.map { eventName(e[$0]) }
        let aNames = aPositions.map { eventName(a[$0]) }
        var eventDiff: [String] = []
        if let edits = SequenceDiff.edits(from: eNames, to: aNames) {
            for edit in edits {
                switch edit {
                case .keep(let i, let j):
                    if !stats.event(e[ePositions[i]], a[aPositions[j]], at: ePositions[i]) { divergent += 1 }
                case .delete, .insert:
                    divergent += 1
                }
            }
            if eNames != aNames {
                func seconds(_ r: ResultRecord) -> String { CanonicalNumber.formatSeconds(time(of: r, frameRate: 1)) }
                eventDiff = SequenceDiff.unifiedHunks(
                    edits, context: 3,
                    oldLine: { "\(seconds(e[ePositions[$0]])) \(eNames[$0])" },
                    newLine: { "\(seconds(a[aPositions[$0]])) \(aNames[$0])" },
                    keptLine: { i, j in
                        // An event of both: the golden's time, and the actual's when it differs.
                        let (te, ta) = (seconds(e[ePositions[i]]), seconds(a[aPositions[j]]))
                        return "\(te) \(eNames[i])" + (te == ta ? "" : " (actual \(ta))")
                    })
            }
        } else {
            divergent += abs(eNames.count - aNames.count) + 1
            eventDiff = ["(event sequences differ in too many places to diff: \(eNames.count) golden events, \(aNames.count) actual)"]
        }
        if eventDiff.count > maxDiffLines {
            let more = eventDiff.count - maxDiffLines
            eventDiff = Array(eventDiff.prefix(maxDiffLines)) + ["… \(more) more diff lines"]
        }

        result.channelErrors = stats.errors
        if let d = first {
            result.status = .failed
            result.firstDivergence = d
            result.headerDifferences = headerDifferences
            result.firstRecordDivergence = firstRecord
            result.firstDiscreteDivergence = discrete
            result.divergentRecords = firstRecord == nil ? divergent : max(divergent, 1)
            result.eventDiff = eventDiff
            if let r = firstRecord {
                result.context = context(around: r.recordIndex, expected: expected, actual: actual, tolerances: tolerances)
            }
        }
        return result
    }

    // MARK: Record comparison

    private static func eventName(_ r: ResultRecord) -> String {
        if case .event(_, let ev) = r { return ev.name }
        return ""
    }

    /// The record's time; frames use `frameRate` (only events are asked with frameRate 1).
    private static func time(of r: ResultRecord, frameRate: Int) -> Microseconds {
        switch r {
        case .event(let t, _): return t
        case .frame(let f): return frameTime(f.index, frameRate: frameRate)
        case .systemFrame(let f): return frameTime(f.index, frameRate: frameRate)
        }
    }

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

    private static func context(around index: Int, expected: ResultDocument, actual: ResultDocument,
                                tolerances: Tolerances) -> [String] {
        let e = expected.records, a = actual.records
        let lo = max(0, index - contextRows)
        let hi = min(max(e.count, a.count) - 1, index + contextRows)
        guard lo <= hi else { return [] }
        var rows: [String] = []
        for i in lo...hi {
            let er = i < e.count ? e[i] : nil, ar = i < a.count ? a[i] : nil
            let label = "#\(i)"
            if let x = er, let y = ar,
               diverge(i, x, y, tolerances, (expected.header.frameRate, actual.header.frameRate), model: expected.header.model) == nil {
                rows.append("  \(label) " + ResultFile.line(for: y, frameRate: actual.header.frameRate))
            } else {
                rows.append("- \(label) " + (er.map { ResultFile.line(for: $0, frameRate: expected.header.frameRate) } ?? "(none)"))
                rows.append("+ \(label) " + (ar.map { ResultFile.line(for: $0, frameRate: actual.header.frameRate) } ?? "(none)"))
            }
        }
        return rows
    }
}

/// Accumulates per-channel maximum errors over aligned records.
private struct Stats {
    var tolerances: Tolerances
    /// The system whose fields are compared (`Comparator.toleranceChannel(of:model:)`).
    var model: PanelModel
    var errors: [ChannelError] = Channel.continuous.map {
        ChannelError(channel: $0, maxError: 0, recordIndex: nil, time: nil, compared: 0, exceeded: 0)
    }

    private mutating func add(_ channel: Channel, _ x: Double, _ y: Double, _ tol: Tolerance,
                              at index: Int, time: Microseconds) -> Bool {
        let slot = Channel.continuous.firstIndex(of: channel)!
        let ok = tol.accepts(expected: x, actual: y)
        let err: Double = (x == y || (x.isNaN && y.isNaN)) ? 0 : ((x.isNaN || y.isNaN) ? .nan : abs(y - x))
        var c = errors[slot]
        c.compared += 1
        if !ok { c.exceeded += 1 }
        // NaN (a NaN met a number) dominates; otherwise keep the first occurrence of the max.
        if !c.maxError.isNaN && (err.isNaN || err > c.maxError) {
            c.maxError = err; c.recordIndex = index; c.time = time
        } else if c.recordIndex == nil {
            c.recordIndex = index; c.time = time
        }
        errors[slot] = c
        return ok
    }

    /// Returns true when the frames match on every channel.
    mutating func frame(_ x: FrameRecord, _ y: FrameRecord, at index: Int, time: Microseconds) -> Bool {
        var ok = add(.location, x.location, y.location, tolerances.location, at: index, time: time)
        ok = add(.backdropAlpha, x.backdropAlpha, y.backdropAlpha, tolerances.backdropAlpha, at: index, time: time) && ok
        switch (x.contentOffset, y.contentOffset) {
        case (let p?, let q?): ok = add(.contentOffset, p, q, tolerances.contentOffset, at: index, time: time) && ok
        case (nil, nil): break
        default: ok = false
        }
        switch (x.contentInset, y.contentInset) {
        case let (p?, q?):
            for (e, a) in [(p.top, q.top), (p.left, q.left), (p.bottom, q.bottom), (p.right, q.right)]
            where !tolerances.contentOffset.accepts(expected: e, actual: a) { ok = false }
        case (nil, nil): break
        default: ok = false
        }
        return ok && x.state == y.state && x.isAttracting == y.isAttracting && x.isDragging == y.isDragging
    }

    /// Returns true when a panel system's fields match: numbers of a tolerance channel (see
    /// `Comparator.toleranceChannel(of:model:)`) are accumulated there, the rest compare exactly.
    mutating func fields(_ x: [RecordField], _ y: [RecordField], at index: Int, time: Microseconds) -> Bool {
        guard x.count == y.count else { return false }
        var ok = true
        for (f, g) in zip(x, y) {
            guard f.key == g.key else { return false }
            let c = Comparator.toleranceChannel(of: f.key, model: model)
            switch (f.value, g.value, c) {
            case let (.number(p), .number(q), c?): ok = add(c, p, q, tolerance(c), at: index, time: time) && ok
            case let (.point(p), .point(q), c?):
                ok = add(c, p.x, q.x, tolerance(c), at: index, time: time) && ok
                ok = add(c, p.y, q.y, tolerance(c), at: index, time: time) && ok
            default: ok = ok && f.value == g.value
            }
        }
        return ok
    }

    private func tolerance(_ c: Channel) -> Tolerance {
        switch c {
        case .location: return tolerances.location
        case .backdropAlpha: return tolerances.backdropAlpha
        case .contentOffset: return tolerances.contentOffset
        case .velocity: return tolerances.velocity
        default: return .exact
        }
    }

    /// Returns true when two events of the same name match on every channel.
    mutating func event(_ x: ResultRecord, _ y: ResultRecord, at index: Int) -> Bool {
        guard case .event(let tx, let ex) = x, case .event(let ty, let ey) = y else { return false }
        var ok = add(.time, Double(tx), Double(ty), Tolerance(absolute: Double(tolerances.time)), at: index, time: tx)
        switch (ex, ey) {
        case (.didMove(let p), .didMove(let q)):
            ok = add(.location, p, q, tolerances.location, at: index, time: tx) && ok
        case (.willEndDragging(let v, let p1, let t1), .willEndDragging(let w, let p2, let t2)):
            ok = add(.velocity, v.x, w.x, tolerances.velocity, at: index, time: tx) && ok
            ok = add(.velocity, v.y, w.y, tolerances.velocity, at: index, time: tx) && ok
            ok = ok && p1 == p2 && t1 == t2
        case (.shouldRemove(let v, let r1), .shouldRemove(let w, let r2)):
            ok = add(.velocity, v.x, w.x, tolerances.velocity, at: index, time: tx) && ok
            ok = add(.velocity, v.y, w.y, tolerances.velocity, at: index, time: tx) && ok
            ok = ok && r1 == r2
        case (.system(let p), .system(let q)):
            ok = fields(p.fields, q.fields, at: index, time: tx) && ok
        default:
            ok = ex == ey && ok
        }
        return ok
    }
}

extension String {
    /// Right-pads with spaces to at least `width` characters.
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
