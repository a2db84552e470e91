/// The replay loop: feeds a trace's samples to the pan-recognizer model and the panel core on the
/// fixed frame clock of floatingpanel-core.md §9 O1, and collects the result records.

/// Options a replay may change; none of them is a trace field. The replay's own (the settle budget)
/// and each system's (`floatingPanel`: floatingpanel-core.md §9); a system records the ones it reads
/// in its result headers (`PanelSystemConfiguration.optionNames(_:)`).
public struct SimulationOptions: Sendable, Equatable {
    /// Without an `end` sample, give up this long (µs) after the last sample if the panel has not
    /// come to rest (floatingpanel-core.md §9 O1: 10 s).
    public var settleBudget: Microseconds = 10_000_000
    /// FloatingPanel's options (`FloatingPanelOptions`); the other systems read none of them.
    public var floatingPanel = FloatingPanelOptions()
    public init() {}
}

/// A configuration the simulator refuses (floatingpanel-core.md §9 O19 and unknown names).
/// `field` is the header path of the offending value, e.g. `panel.initialState`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public init(field: String, message: String) { self.field = field; self.message = message }
    public var description: String { "\(field): \(message)" }
}

/// Replays `trace` through the panel system its header names (`model`) and returns its events and
/// frames.
///
/// Frame k is at k/frameRate. At each frame: every sample with t ≤ t_k not yet processed is
/// processed in file order, the system steps its animations once and records the frame if any of
/// its values differ from the previous frame (frame 0 always). The replay stops after the frame
/// that processes an `end` sample; without one, at the first frame after the last sample with no
/// finger down and nothing animating, or when `options.settleBudget` past the last sample runs
/// out (`budgetExceeded`). (floatingpanel-core.md §9 O1; drawerkit.md §3.9 and D14.)
/// - Complexity: O(samples + animated frames · per-frame cost of the system): frames in which
///   nothing animates are skipped straight to the next sample, so idle time costs nothing.
public func simulate(_ trace: Trace, options: SimulationOptions = SimulationOptions()) -> SimulationResult {
    // One dynamic call per replay: the header's system value starts its own specialized replay.
    trace.header.system.simulate(trace, options: options)
}

/// `simulate(_:options:)` over samples handed over a batch at a time (a trace read as it is
/// replayed), with the records given to `sink` as they become final, in order; the returned
/// result has the warnings and no records. The records are those `simulate(_:options:)` gives
/// for the same samples.
/// - Complexity: as `simulate(_:options:)`; memory holds one batch and, for a system that hands
///   its records over (FloatingPanel), the records since the last frame of the previous batch.
public func simulate<Feed: SampleFeed>(header: TraceHeader, feed: inout Feed, options: SimulationOptions = SimulationOptions(),
                                       sink: (RecordList) -> Void) -> SimulationResult {
    header.system.simulate(header: header, feed: &feed, options: options, sink: sink)
}

/// Runs the replay loop of `simulate(_:options:)` with `system`, a panel system set up for
/// `trace`: what a `PanelSystemConfiguration.simulate(_:options:)` calls.
/// - Complexity: as `simulate(_:options:)`.
public func replay<System: PanelSystem>(_ system: System, trace: Trace, options: SimulationOptions) -> SimulationResult {
    var replay = Replay(system: system, frameRate: trace.header.environment.frameRate, options: options)
    // The samples are read in place (borrowed, not copied out of the array and destroyed again).
    return trace.samples.withUnsafeBufferPointer { samples in
        var cursor = BufferCursor(samples: samples)
        let lastSampleTime = samples.last?.time ?? 0
        // Room for the records a replay typically writes: a frame and a didMove per animated frame
        // while the samples last, a few per sample (capped so that idle hours reserve nothing absurd).
        let spanFrames = Int(min(lastSampleTime * Int64(trace.header.environment.frameRate) / 1_000_000, 1 << 20))
        return replay.run(&cursor, reserving: min(2 * spanFrames + 4 * samples.count + 1024, 1 << 18), sink: nil)
    }
}

/// Samples in file order, handed to a streaming replay a batch at a time (a trace file read in
/// chunks): the replay holds one batch, never the whole trace.
public protocol SampleFeed {
    /// The next samples (non-empty), nil once the trace is exhausted. Times never decrease across
    /// batches, as in a loaded trace.
    mutating func nextBatch() -> [TraceSample]?
}

/// Runs the replay loop of `simulate(_:options:)` with `system` over the samples `feed` hands
/// over, giving the records to `sink` as they become final (each call continues the records of
/// the one before; together they are the records `replay(_:trace:options:)` returns for the same
/// samples). The returned result has the warnings and no records.
///
/// Memory holds one batch of samples and the records not yet handed over: a system that
/// implements `PanelSystem.takeFinalRecords()` hands over all but the frame that later frames
/// are compared with after each batch; one that does not hands everything over at the end.
/// - Complexity: as `simulate(_:options:)`, plus O(records) for the hand-overs.
public func replay<System: PanelSystem, Feed: SampleFeed>(_ system: System, header: TraceHeader, feed: inout Feed,
                                                          options: SimulationOptions,
                                                          sink: (RecordList) -> Void) -> SimulationResult {
    var replay = Replay(system: system, frameRate: header.environment.frameRate, options: options)
    var cursor = FeedCursor(feed: feed)
    let result = withoutActuallyEscaping(sink) { sink in replay.run(&cursor, reserving: 1 << 14, sink: sink) }
    feed = cursor.feed
    return result
}

/// Where the replay loop reads its next sample.
protocol SampleCursor {
    /// True once every sample has been taken.
    var isExhausted: Bool { get }
    /// The next sample's time (µs); only read when not exhausted.
    var time: Microseconds { get }
    /// Whether the next sample is `end`.
    var isEnd: Bool { get }
    /// Hands the next sample to `system.process(at:)` and moves past it.
    mutating func processNext<System: PanelSystem>(_ system: inout System)
    /// Moves past the next sample without processing it (`end`).
    mutating func skip()
    /// True when a batch was just used up (a streaming replay hands over its final records then).
    var batchEnded: Bool { get }
}

/// The samples of a loaded trace, read in place.
struct BufferCursor: SampleCursor {
    let samples: UnsafeBufferPointer<TraceSample>
    var next = 0
    var isExhausted: Bool { @inline(__always) get { next == samples.count } }
    var time: Microseconds { @inline(__always) get { samples[next].time } }
    var isEnd: Bool {
        @inline(__always) get { if case .end = samples[next].kind { return true } else { return false } }
    }
    @inline(__always)
    mutating func processNext<System: PanelSystem>(_ system: inout System) {
        system.process(at: samples.baseAddress.unsafelyUnwrapped + next)
        next += 1
    }
    @inline(__always) mutating func skip() { next += 1 }
    var batchEnded: Bool { false }
}

/// The samples of a `SampleFeed`, one batch at a time.
struct FeedCursor<Feed: SampleFeed>: SampleCursor {
    var feed: Feed
    var batch: [TraceSample]
    var next = 0
    private(set) var batchEnded = false

    init(feed: Feed) {
        self.feed = feed
        batch = self.feed.nextBatch() ?? []
    }

    var isExhausted: Bool { next == batch.count }
    var time: Microseconds { batch[next].time }
    var isEnd: Bool { if case .end = batch[next].kind { return true } else { return false } }
    mutating func processNext<System: PanelSystem>(_ system: inout System) {
        let i = next
        batch.withUnsafeBufferPointer { system.process(at: $0.baseAddress.unsafelyUnwrapped + i) }
        advance()
    }
    mutating func skip() { advance() }
    private mutating func advance() {
        next += 1
        batchEnded = false
        if next == batch.count, let more = feed.nextBatch() {
            batch = more; next = 0; batchEnded = true
        }
    }
}

/// The replay loop, generic over the panel system so that each system's per-frame calls are
/// direct (specialized) calls, never dispatched through an existential.
struct Replay<System: PanelSystem> {
    var system: System
    let frameRate: Int64
    let settleBudget: Microseconds

    init(system: System, frameRate: Int, options: SimulationOptions) {
        self.system = system
        self.frameRate = Int64(frameRate)
        settleBudget = options.settleBudget
    }

    /// Runs the samples of `cursor`; with a `sink`, final records are handed to it after each
    /// batch and the rest at the end (the result then has no records).
    mutating func run<Cursor: SampleCursor>(_ cursor: inout Cursor, reserving hint: Int,
                                            sink: ((RecordList) -> Void)?) -> SimulationResult {
        system.start()
        system.reserveRecords(hint)
        let budgetExceeded = loop(&cursor, sink: sink)
        var (records, warnings) = system.finish()
        if let sink {
            sink(records)
            records = RecordList()
        }
        return SimulationResult(records: records, warnings: warnings, budgetExceeded: budgetExceeded)
    }

    /// The frame loop of `run` over the samples of `cursor`; returns true when the settle budget
    /// ran out.
    private mutating func loop<Cursor: SampleCursor>(_ cursor: inout Cursor, sink: ((RecordList) -> Void)?) -> Bool {
        var clock = FrameClock(frameRate: Int(frameRate))
        let frameRate = self.frameRate
        // The time of the last sample taken (the trace's last sample once all are taken).
        var lastSampleTime: Microseconds = 0
        // The frame that processes the next sample: the first k with t·frameRate ≤ k·10⁶ (t ≥ 0).
        func dueFrame(_ cursor: Cursor) -> Int64 {
            cursor.isExhausted ? .max : (cursor.time * frameRate + 999_999) / 1_000_000
        }
        var nextDue = dueFrame(cursor)
        while true {
            let k = clock.index, tk = clock.time
            var sawEnd = false
            while nextDue <= Int64(k) {
                lastSampleTime = cursor.time
                if cursor.isEnd {
                    cursor.skip()
                    system.reachEnd(at: lastSampleTime); sawEnd = true; break
                }
                cursor.processNext(&system)
                if let sink, cursor.batchEnded, let records = system.takeFinalRecords() { sink(records) }
                nextDue = dueFrame(cursor)
            }
            var animating = system.runFrame(index: k, time: tk)
            if sawEnd { return false }
            if cursor.isExhausted {
                if !system.isTouchDown && !animating { return false }
                if tk - lastSampleTime >= settleBudget { return true }
            }
            clock.advance()
            // While something animates, the frames before the next sample's frame need none of the
            // checks above (samples remain): the system runs them back to back.
            if animating, !cursor.isExhausted, nextDue > Int64(clock.index) {
                animating = system.runFrames(&clock, before: nextDue)
            }
            // Nothing changes between samples while nothing animates: jump to the frame that
            // processes the next sample (the skipped frames would repeat this one and are not written).
            if !animating, !cursor.isExhausted, nextDue > Int64(clock.index) {
                clock.set(Int(nextDue))
            }
        }
    }
}
