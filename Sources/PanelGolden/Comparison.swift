import PanelSimCore
import PanelTrace

/// The outcome of comparing a golden result with an actual one.
///
/// Everything about the records (first divergence, discrete divergence, counts, per-channel
/// errors, context rows, event diff) is read from `differences`, the one alignment of the two
/// results by time and kind, so the text report, the HTML report and its plots agree.
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
    /// The earliest differing record of `differences` (time order: golden time when the golden
    /// has the record; events before the frame of their time), whatever the header says; its
    /// `recordIndex` is the golden's record, or the actual's when the golden has none. When the
    /// records agree but the files are written differently (another order, or a frame one side
    /// omits within tolerance), that place. Nil when the records match
    /// within tolerances, or when incompatible.
    public var firstRecordDivergence: Divergence?
    /// The earliest divergence on a discrete channel (an event one side lacks, an event's name,
    /// a state, `isAttracting`/`isDragging`, answers and targets: the events, states and
    /// arbitration decisions, which compare exactly). Nil when they all match.
    public var firstDiscreteDivergence: Divergence?
    /// Number of aligned records (rows of `differences`) that differ; 0 when passed.
    public var divergentRecords: Int
    public var expectedCount: Int
    public var actualCount: Int
    /// Max error per channel, in `Channel.continuous` order.
    public var channelErrors: [ChannelError]
    /// Header differences that do not fail the comparison (trace edited since blessed, engine).
    public var notes: [String]
    /// Unified-style diff of the event sequences as aligned (empty when every event has a
    /// partner with the same discrete fields). Each line is the event's time in seconds and its
    /// name: `-` lines are golden events at the golden's times, `+` lines actual events at the
    /// actual's times (an event of both whose discrete fields differ is a `-` and a `+` line,
    /// each followed by those fields and its values, `FIELD: VALUE, …`), and context lines
    /// (`" "`, an event of both) the golden's time followed by `(actual T)` when the actual's
    /// time differs.
    public var eventDiff: [String]
    /// Rows of records around the first divergence, aligned (`"  #i"` matching, `"- #i"` the
    /// golden's record i, `"+ #j"` the actual's record j).
    public var context: [String]
    /// What differs, aligned by time and kind: the one source of everything above.
    public var differences = RecordDifferences(rows: [], frameRate: 0)

    /// The multi-line failure report (no trailing newline). Every line is indented by `indent`.
    /// Notes (trace edited since the golden was blessed, …) come first: they often explain the rest.
    /// - Complexity: O(size of the report).
    public func report(indent: String = "  ") -> String {
        var lines: [String] = []
        switch status {
        case .incompatible(let v):
            lines.append("golden format version \(v), this build writes \(ResultHeader.currentVersion); not compared (re-record with --record failed)")
            for note in notes { lines.append("note: " + note) }
        case .passed:
            lines.append("matches the golden (\(expectedCount) records)")
            for note in notes { lines.append("note: " + note) }
        case .failed:
            for note in notes { lines.append("note: " + note) }
            for h in headerDifferences {
                lines.append("header differs: expected \(h.expected), actual \(h.actual)")
            }
            guard let d = firstRecordDivergence else {
                // Only the header differs.
                lines.append("records: identical within tolerances (\(expectedCount) records)")
                break
            }
            lines += divergenceLines(d)
            if let x = firstDiscreteDivergence {
                if x != d {
                    var at = "events, states and decisions: first differ at record \(x.recordIndex) (line \(x.recordIndex + 2)), t = \(CanonicalNumber.formatSeconds(x.time)) s"
                    if let f = x.frame { at += ", frame \(f)" }
                    lines.append(at + ": \(x.channelName): expected \(x.expected), actual \(x.actual)")
                }
            } else {
                lines.append("events, states and decisions: identical (only continuous values differ)")
            }
            let counts = differences.differingCounts
            var recordLine = "records: expected \(expectedCount), actual \(actualCount); \(divergentRecords) differ"
            if differences.orderDivergence != nil && counts.frames + counts.events == 0 {
                recordLine += " (the same within tolerances when aligned by time; written differently: another order, or a frame one side omits)"
            } else {
                recordLine += " (\(Self.plural(counts.frames, "frame")), \(Self.plural(counts.events, "event")))"
            }
            lines.append(recordLine)
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
        return lines.map { indent + $0 }.joined(separator: "\n")
    }

    /// `first divergence at record …: CHANNEL`, the expected and actual values, and the other
    /// fields of that record that differ.
    private func divergenceLines(_ d: Divergence) -> [String] {
        var at = "first divergence at record \(d.recordIndex) (line \(d.recordIndex + 2)), t = \(CanonicalNumber.formatSeconds(d.time)) s"
        let row = differences.first
        if let f = d.frame {
            at += ", frame \(f)"
        } else if let row, row.kind == .event, d.channel != .event {
            at += ", event \(row.name)"
        }
        var lines = [at + ": \(d.channelName)", "  expected: \(d.expected)"]
        var actualLine = "  actual:   \(d.actual)"
        if let e = d.error { actualLine += "  (|error| \(CanonicalNumber.format(e)))" }
        lines.append(actualLine)
        if let row, differences.orderDivergence == nil {
            for c in row.changes.dropFirst() {
                var also = "  also \(c.field): expected \(c.golden), actual \(c.actual)"
                if let e = c.error { also += "  (|error| \(CanonicalNumber.format(e)))" }
                lines.append(also)
            }
        }
        return lines
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)" + (n == 1 ? "" : "s") }
}

extension String {
    /// Right-pads with spaces to at least `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
