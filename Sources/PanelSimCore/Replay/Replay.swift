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
    /// Profiles that replace a trace's own `profile` for the traces of their library (the command
    /// line's `--profile`, profiles.md §2.5): at most one per library. Empty by default.
    public var profiles: [TraceProfile] = []
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
///   its records over (FloatingPanel, and the systems that record through a `SystemRecorder`),
///   the records of about one batch.
public func simulate<Feed: SampleFeed>(header: TraceHeader, feed: inout Feed, options: SimulationOptions = SimulationOptions(),
                                       sink: (RecordList) -> Void) -> SimulationResult {
    header.system.simulate(header: header, feed: &feed, options: options, sink: sink)
}

/// Runs the replay loop of `simulate(_:options:)` with `system`, a panel system set up for
/// `trace`: what a `PanelSystemConfiguration.simulate(_:options:)` calls.
/// - Complexity: as `simulate(_:options:)`.
public func replay<System: PanelSystem>(_ system: System, trace: Trace, options: SimulationOptions) -> SimulationResult {
    var replay = Replay(system: system, trace: trace, options: options)
    return replay.run()
}

/// The replay loop, generic over the panel system so that each system's per-frame calls are
/// direct (specialized) calls, never dispatched through an existential.
struct Replay<System: PanelSystem> {
    var system: System
    let samples: [TraceSample]
    let frameRate: Int64
    let settleBudget: Microseconds

    init(system: System, trace: Trace, options: SimulationOptions) {
        self.system = system
        samples = trace.samples
        frameRate = Int64(trace.header.environment.frameRate)
        settleBudget = options.settleBudget
    }

    mutating func run() -> SimulationResult {
        var budgetExceeded = false
        system.start()
        let lastSampleTime = samples.last?.time ?? 0
        // Room for the records a replay typically writes: a frame and a didMove per animated frame
        // while the samples last, a few per sample (capped so that idle hours reserve nothing absurd).
        let spanFrames = Int(min(lastSampleTime * frameRate / 1_000_000, 1 << 20))
        system.reserveRecords(min(2 * spanFrames + 4 * samples.count + 1024, 1 << 18))
        // The samples are read in place (borrowed, not copied out of the array and destroyed again).
        let samples = self.samples
        samples.withUnsafeBufferPointer { samples in
            budgetExceeded = loop(samples, lastSampleTime: lastSampleTime)
        }
        let (records, warnings) = system.finish()
        return SimulationResult(records: records, warnings: warnings, budgetExceeded: budgetExceeded)
    }

    /// The frame loop of `run()` over `samples` (the trace's); returns true when the settle budget
    /// ran out.
    private mutating func loop(_ samples: UnsafeBufferPointer<TraceSample>, lastSampleTime: Microseconds) -> Bool {
        var next = 0
        var clock = FrameClock(frameRate: Int(frameRate))
        let frameRate = self.frameRate
        // The frame that processes samples[next]: the first k with t·frameRate ≤ k·10⁶ (t ≥ 0).
        func dueFrame(_ i: Int) -> Int64 {
            i < samples.count ? (samples[i].time * frameRate + 999_999) / 1_000_000 : .max
        }
        var nextDue = dueFrame(0)
        while true {
            let k = clock.index, tk = clock.time
            var sawEnd = false
            while nextDue <= Int64(k) {
                let i = next
                next += 1
                nextDue = dueFrame(next)
                if case .end = samples[i].kind { system.reachEnd(at: samples[i].time); sawEnd = true; break }
                system.process(at: samples.baseAddress.unsafelyUnwrapped + i)
            }
            var animating = system.runFrame(index: k, time: tk)
            if sawEnd { return false }
            if next == samples.count {
                if !system.isTouchDown && !animating { return false }
                if tk - lastSampleTime >= settleBudget { return true }
            }
            clock.advance()
            // While something animates, the frames before the next sample's frame need none of the
            // checks above (samples remain): the system runs them back to back.
            if animating, next < samples.count, nextDue > Int64(clock.index) {
                animating = system.runFrames(&clock, before: nextDue)
            }
            // Nothing changes between samples while nothing animates: jump to the frame that
            // processes the next sample (the skipped frames would repeat this one and are not written).
            if !animating, next < samples.count, nextDue > Int64(clock.index) {
                clock.set(Int(nextDue))
            }
        }
    }
}
