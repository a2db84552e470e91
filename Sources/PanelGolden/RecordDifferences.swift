import PanelSimCore
import PanelTrace

/// What differs between a golden result and an actual one, computed once per comparison and read
/// by everything that reports it: the comparison's first divergence, per-channel errors and
/// counts, the context rows, the HTML headline, the plots' markers and residual, and the event
/// table. None of them compares records on its own, so they cannot disagree.
///
/// The records are aligned by time and kind before they are compared:
/// * **Frames** by frame number. A result omits a frame that repeats the previous one, so a frame
///   written by one side only is compared with the frame the other side holds there (its last
///   written frame at or before that number).
/// * **Events** first by (name, time): events of the same name at the same microsecond pair up;
///   then, within each stretch left unpaired, by name alone in order (shortest edit script), which
///   pairs an event that moved in time. What is left is an event of one side only.
///
/// Every aligned pair becomes a `Row`, in time order (golden time when the golden has the record;
/// events before frames at the same time). A row differs when a value is outside its channel's
/// tolerance, a discrete value (name, state, answer, target, flag) is not equal, or one side has
/// no such record.
public struct RecordDifferences: Sendable, Equatable {
    /// The kind of an aligned record.
    public enum Kind: String, Sendable, Equatable { case frame, event }

    /// One value that differs between the two sides of a row.
    public struct Change: Sendable, Equatable {
        /// The channel the value is compared in: a tolerance channel (`location`, `velocity`, …),
        /// a discrete one (`state`, `target`, …), `field` for another discrete field of a panel
        /// system, `event` for an event one side lacks, `record` for a frame one side has not
        /// written yet, `t` for an event's time.
        public var channel: Channel
        /// The field's name as written in result files (`location`, `barTop`, `identifier`, `t`,
        /// `event`, `frame`).
        public var field: String
        /// The golden's and the actual's value, rendered canonically (`(none)` when absent).
        public var golden: String
        public var actual: String
        /// The numbers behind `golden`/`actual` when the field is a number (a time in µs for
        /// channel `t`), else nil.
        public var goldenNumber: Double?
        public var actualNumber: Double?
        /// |actual − golden| for numbers and vectors (largest component), nil otherwise.
        public var error: Double?
        /// The tolerance the value was compared with (`.exact` for discrete values).
        public var tolerance: Tolerance

        /// actual − golden for a plain number (pt, pt/s, µs, …), nil otherwise.
        public var delta: Double? {
            guard let g = goldenNumber, let a = actualNumber else { return nil }
            return a - g
        }

        public init(channel: Channel, field: String, golden: String, actual: String, goldenNumber: Double? = nil,
                    actualNumber: Double? = nil, error: Double? = nil, tolerance: Tolerance = .exact) {
            self.channel = channel; self.field = field; self.golden = golden; self.actual = actual
            self.goldenNumber = goldenNumber; self.actualNumber = actualNumber; self.error = error; self.tolerance = tolerance
        }

        /// True for a channel compared within a tolerance (`Channel.continuous`).
        public var isContinuous: Bool { Channel.continuous.contains(channel) }
    }

    /// A golden record aligned with an actual one (either may be missing).
    public struct Row: Sendable, Equatable {
        public var kind: Kind
        /// The event's name, or `frame`.
        public var name: String
        /// Frame rows: the frame number.
        public var frame: Int?
        /// The record's time on each side, µs: for a frame, its frame time; for an event, its `t`;
        /// nil on a side without the event.
        public var goldenTime: Microseconds?
        public var actualTime: Microseconds?
        /// Index of the record in each result's record list; nil when that side did not write it
        /// (an omitted frame, or an event it lacks).
        public var goldenRecord: Int?
        public var actualRecord: Int?
        /// Frame rows: index of the frame record each side holds at this frame number (the written
        /// frame, or the last one before it); nil before that side's first frame.
        public var goldenHeld: Int?
        public var actualHeld: Int?
        /// The surface location (pt) on each side: for a frame row the held frames' `location`,
        /// for an event row its `location` field (`didMove`); nil when absent.
        public var goldenLocation: Double?
        public var actualLocation: Double?
        /// What differs, in field order; empty when the row matches within tolerances.
        public var changes: [Change]

        /// The row's time: the golden's when it has the record, else the actual's (µs).
        public var time: Microseconds { goldenTime ?? actualTime ?? 0 }
        /// True when something differs.
        public var differs: Bool { !changes.isEmpty }
        /// True when one side lacks the event (an event row with only one side).
        public var isOneSided: Bool { kind == .event && (goldenRecord == nil) != (actualRecord == nil) }
        /// True when a discrete value differs (event presence, name, state, answer, target, flag,
        /// record order): what the comparison reports as events, states and decisions.
        public var hasDiscreteChange: Bool { changes.contains { !$0.isContinuous } }
        /// The change with the largest error on `channel`, if any.
        public func largest(on channel: Channel) -> Change? {
            changes.filter { $0.channel == channel && $0.error != nil }.max { ($0.error ?? 0) < ($1.error ?? 0) }
        }
    }

    /// Every aligned row, in time order.
    public var rows: [Row]
    /// The golden's frame rate (Hz), for frame numbers of event times.
    public var frameRate: Int
    /// When every row matches but the files differ record by record (the same records in another
    /// order, or a frame one side omits within tolerance of the one the other holds), the first
    /// place where they do, as a positional divergence; else nil.
    public var orderDivergence: Divergence?
    /// Largest error per continuous channel over all aligned values, in `Channel.continuous` order.
    public var channelErrors: [ChannelError]
    /// True when the event alignment gave up (more than `Comparator.maxEventEdits` edits): the
    /// events are then listed as golden-only and actual-only rows.
    public var eventsUnaligned: Bool

    public init(rows: [Row], frameRate: Int, orderDivergence: Divergence? = nil, channelErrors: [ChannelError] = [],
                eventsUnaligned: Bool = false) {
        self.rows = rows; self.frameRate = frameRate; self.orderDivergence = orderDivergence
        self.channelErrors = channelErrors; self.eventsUnaligned = eventsUnaligned
    }

    /// Indices of the rows that differ, in time order.
    /// - Complexity: O(rows).
    public var differingRows: [Int] { rows.indices.filter { rows[$0].differs } }

    /// True when nothing differs (no row, and no record order).
    public var isEmpty: Bool { orderDivergence == nil && !rows.contains { $0.differs } }

    /// The first row that differs, nil when none does.
    public var first: Row? { rows.first { $0.differs } }

    /// The first row with a discrete change (events, states, decisions), nil when none has.
    public var firstDiscrete: Row? { rows.first { $0.hasDiscreteChange } }

    /// The row with the largest location error beyond tolerance (frames and `didMove`-like
    /// events), nil when no location differs. Ties: the earliest.
    /// - Complexity: O(rows).
    public var largestLocationError: Row? {
        var best: Row?, bestError = -1.0
        for row in rows where row.differs {
            guard let e = row.largest(on: .location)?.error, e.isNaN || e > bestError else { continue }
            best = row; bestError = e.isNaN ? .infinity : e
        }
        return best
    }

    /// The frame whose time an event row's time falls on: the frame whose written time equals it,
    /// else the first frame after it (a sample is handled at the first frame at or after its time).
    /// - Complexity: O(1).
    public func frame(of row: Row) -> Int? {
        if let f = row.frame { return f }
        guard frameRate > 0 else { return nil }
        let t = row.time
        let k = Int(t * Int64(frameRate) / 1_000_000)
        for candidate in [k, k + 1] where frameTime(candidate, frameRate: frameRate) == t { return candidate }
        return frameTime(k, frameRate: frameRate) >= t ? k : k + 1
    }

    /// The row as a `Divergence` (its first change): record index in the golden, or in the actual
    /// result when the golden has no such record.
    public func divergence(_ row: Row) -> Divergence? {
        row.changes.first.map { divergence(row, $0) }
    }

    /// The row's first discrete change (event presence, state, answer, target, flag) as a
    /// divergence: what "events, states and decisions: first differ" names, never a location or
    /// another continuous value of the same record. Nil when the row has none.
    public func discreteDivergence(_ row: Row) -> Divergence? {
        row.changes.first { !$0.isContinuous }.map { divergence(row, $0) }
    }

    private func divergence(_ row: Row, _ c: Change) -> Divergence {
        let index = row.goldenRecord ?? row.actualRecord ?? row.goldenHeld ?? row.actualHeld ?? 0
        return Divergence(recordIndex: index, time: row.time, frame: row.kind == .frame ? row.frame : nil, channel: c.channel,
                          expected: c.golden, actual: c.actual, error: c.error,
                          field: c.field == c.channel.rawValue ? nil : c.field)
    }

    /// Counts of the differing rows by kind.
    public var differingCounts: (frames: Int, events: Int) {
        var f = 0, e = 0
        for row in rows where row.differs { if row.kind == .frame { f += 1 } else { e += 1 } }
        return (f, e)
    }
}
