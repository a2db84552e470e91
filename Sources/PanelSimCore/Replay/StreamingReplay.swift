/// The replay loop of `simulate(_:options:)` over samples that arrive a batch at a time.

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
/// implements `PanelSystem.takeFinalRecords()` hands over, after each batch, the records no later
/// frame changes (FloatingPanel: all but the frame the next one is compared with; a system that
/// records through a `SystemRecorder`: all of them); one that does not hands everything over at
/// the end.
/// - Complexity: as `simulate(_:options:)`, plus O(records) for the hand-overs.
public func replay<System: PanelSystem, Feed: SampleFeed>(_ system: System, header: TraceHeader, feed: inout Feed,
                                                          options: SimulationOptions,
                                                          sink: (RecordList) -> Void) -> SimulationResult {
    var replay = StreamingReplayLoop(system: system, frameRate: Int64(header.environment.frameRate), settleBudget: options.settleBudget)
    return replay.run(&feed, sink: sink)
}

/// The loop of `Replay` (Replay.swift) with the samples taken from a feed: the same frame clock,
/// sample dispatch, `end` rule and settle budget, the frame that processes a sample found the same
/// way. (The array replay keeps its own loop: it reads the trace in place, and its specialized
/// code is what the benchmarks measure.)
struct StreamingReplayLoop<System: PanelSystem> {
    var system: System
    let frameRate: Int64
    let settleBudget: Microseconds

    mutating func run<Feed: SampleFeed>(_ feed: inout Feed, sink: (RecordList) -> Void) -> SimulationResult {
        system.start()
        system.reserveRecords(1 << 14)
        var batch = feed.nextBatch() ?? []
        var next = 0
        // The time of the last sample taken (the trace's last sample once all are taken).
        var lastSampleTime: Microseconds = 0
        var clock = FrameClock(frameRate: Int(frameRate))
        let frameRate = self.frameRate
        func dueFrame() -> Int64 {
            next < batch.count ? (batch[next].time * frameRate + 999_999) / 1_000_000 : .max
        }
        var nextDue = dueFrame()
        var budgetExceeded = false
        frames: while true {
            let k = clock.index, tk = clock.time
            var sawEnd = false
            while nextDue <= Int64(k) {
                let i = next
                next += 1
                lastSampleTime = batch[i].time
                if case .end = batch[i].kind { system.reachEnd(at: lastSampleTime); sawEnd = true; break }
                batch.withUnsafeBufferPointer { system.process(at: $0.baseAddress.unsafelyUnwrapped + i) }
                if next == batch.count, let more = feed.nextBatch() {
                    batch = more
                    next = 0
                    if let records = system.takeFinalRecords() { sink(records) }
                }
                nextDue = dueFrame()
            }
            var animating = system.runFrame(index: k, time: tk)
            if sawEnd { break frames }
            if next == batch.count {
                if !system.isTouchDown && !animating { break frames }
                if tk - lastSampleTime >= settleBudget { budgetExceeded = true; break frames }
            }
            clock.advance()
            if animating, next < batch.count, nextDue > Int64(clock.index) {
                animating = system.runFrames(&clock, before: nextDue)
            }
            if !animating, next < batch.count, nextDue > Int64(clock.index) {
                clock.set(Int(nextDue))
            }
        }
        let (records, warnings) = system.finish()
        sink(records)
        return SimulationResult(records: RecordList(), warnings: warnings, budgetExceeded: budgetExceeded)
    }
}
