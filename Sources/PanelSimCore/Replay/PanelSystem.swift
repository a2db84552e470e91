/// The seam between the replay loop and a panel system.
///
/// The replay (`Replay`) owns the frame clock, sample dispatch, the settle budget and the `end`
/// rule; a panel system owns everything else: its recognizers, its model of the library, its
/// animations and the records it writes. Each system lives in its own folder beside this one
/// (`FloatingPanel/`, `DrawerKit/`, …) and uses the UIKit pieces every system shares (`UIKit/`:
/// velocity estimators, pan and tap recognition, springs and timing curves, the scroll-view model,
/// display-scale rounding). A system's header value (`PanelSystemConfiguration`) starts its replay
/// with `replay(_:trace:options:)`; ARCHITECTURE.md has the checklist for adding a system.
///
/// The replay is generic over the system, so these calls are specialized: nothing in the frame
/// loop goes through an existential or a witness table (for a system compiled in this module; one
/// defined elsewhere runs through its witness table).
public protocol PanelSystem {
    /// Sets up t = 0 (the presentation before the first sample) and writes its records.
    mutating func start()
    /// Reserves room for about `n` records (a hint).
    mutating func reserveRecords(_ n: Int)
    /// Processes one sample at `sample.time` µs (never `end`; samples arrive in file order).
    mutating func process(_ sample: TraceSample)
    /// `process(_:)` for the sample at `sample` (in the trace's storage, valid for the call): a system
    /// may read the fields it needs in place instead of copying the whole sample out. The default
    /// calls `process(sample.pointee)`.
    mutating func process(at sample: UnsafePointer<TraceSample>)
    /// The `end` sample at `time` µs was reached; the current frame is the last one.
    mutating func reachEnd(at time: Microseconds)
    /// Steps the running animations and timers to frame `index` (at `time` µs, after the frame's
    /// samples), then records the frame when a value changed (frame 0 always).
    /// - Returns: true while anything still needs frames (an animation, a pending timer).
    mutating func runFrame(index: Int, time: Microseconds) -> Bool
    /// Runs the frames that process no sample back to back: `runFrame` at `clock`'s frame, then
    /// `clock.advance()`, again while that frame reported animating and the clock is before frame
    /// `dueFrame` (the frame that processes the next sample). The clock's frame is before
    /// `dueFrame` on entry. Returns the last `runFrame` result. The default calls `runFrame`; a
    /// system whose frames are cheap can keep its loop in one function (no call per frame).
    mutating func runFrames(_ clock: inout FrameClock, before dueFrame: Int64) -> Bool
    /// True while a finger is down: the replay does not stop for settling.
    var isTouchDown: Bool { get }
    /// Hands over the records and warnings once the replay is done.
    mutating func finish() -> (records: RecordList, warnings: [String])
    /// For a streaming replay (`replay(_:header:feed:options:sink:)`), between two samples: hands
    /// over the records that no later frame changes (all but the frame that the next one is
    /// compared with, and what follows it), so that they need not stay in memory. The default
    /// returns nil: the system keeps every record until `finish()`.
    mutating func takeFinalRecords() -> RecordList?
}

extension PanelSystem {
    public mutating func process(at sample: UnsafePointer<TraceSample>) { process(sample.pointee) }

    public mutating func takeFinalRecords() -> RecordList? { nil }

    public mutating func runFrames(_ clock: inout FrameClock, before dueFrame: Int64) -> Bool {
        var animating: Bool
        repeat {
            animating = runFrame(index: clock.index, time: clock.time)
            clock.advance()
        } while animating && Int64(clock.index) < dueFrame
        return animating
    }
}

/// A panel system's own header sections (FloatingPanel's `panel` and `delegate`, DrawerKit's
/// `drawer`, …): the value `TraceHeader.system` holds. Its type names the system, and it starts
/// that system's replay, so the core needs no list of systems: a system registers its trace format
/// (PanelTrace), its golden description (PanelGolden) and its commands (PanelSimCLI) in the
/// registries of those layers instead.
public protocol PanelSystemConfiguration: Sendable {
    /// The header's `model` value for this system (`"drawerkit"`, …).
    static var model: PanelModel { get }
    /// Replays `trace` (whose header holds this value) through the system's model.
    /// - Complexity: as `simulate(_:options:)`.
    func simulate(_ trace: Trace, options: SimulationOptions) -> SimulationResult
    /// Replays the samples `feed` hands over (the header is `header`, holding this value), giving
    /// the records to `sink` as they become final (`replay(_:header:feed:options:sink:)`); the
    /// result has no records. The default collects the samples and calls `simulate(_:options:)`:
    /// a system replays in bounded memory only when it implements this (as every
    /// `SystemReplayConfiguration` does).
    func simulate<Feed: SampleFeed>(
        header: TraceHeader, feed: inout Feed, options: SimulationOptions,
        sink: (RecordList) -> Void
    ) -> SimulationResult
    /// The names of the options the result header records (`ResultHeader.simulator`): the
    /// replay's options this system reads, away from their defaults, then the system's own
    /// (a sheet's `sheet.simulator`). The default: none.
    func optionNames(_ options: SimulationOptions) -> [String]
    /// Value equality with another system's sections; false across systems.
    func isEqual(to other: any PanelSystemConfiguration) -> Bool
}

extension PanelSystemConfiguration {
    public func optionNames(_ options: SimulationOptions) -> [String] { [] }

    public func simulate<Feed: SampleFeed>(
        header: TraceHeader, feed: inout Feed, options: SimulationOptions,
        sink: (RecordList) -> Void
    ) -> SimulationResult {
        var samples: [TraceSample] = []
        while let batch = feed.nextBatch() { samples += batch }
        var result = simulate(Trace(header: header, samples: samples), options: options)
        sink(result.records)
        result.records = RecordList()
        return result
    }
}

extension PanelSystemConfiguration where Self: Equatable {
    public func isEqual(to other: any PanelSystemConfiguration) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// A header value that sets its panel system up (`makeSystem(for:options:)`): both replays of
/// `PanelSystemConfiguration` come from here, the whole trace's and the streaming one, which
/// hands the records over as the system's `takeFinalRecords()` gives them (FloatingPanel's before
/// its last frame; a `RecordingPanelSystem`'s all of them) after each batch of samples.
protocol SystemReplayConfiguration: PanelSystemConfiguration {
    associatedtype System: PanelSystem
    /// The system for `trace`, whose header holds this value. It may read only the header: the
    /// streaming replay passes a trace without samples.
    func makeSystem(for trace: Trace, options: SimulationOptions) -> System
}

extension SystemReplayConfiguration {
    public func simulate(_ trace: Trace, options: SimulationOptions) -> SimulationResult {
        replay(makeSystem(for: trace, options: options), trace: trace, options: options)
    }

    /// The streaming replay (`replay(_:header:feed:options:sink:)`) of the system set up for
    /// `header`.
    public func simulate<Feed: SampleFeed>(
        header: TraceHeader, feed: inout Feed, options: SimulationOptions,
        sink: (RecordList) -> Void
    ) -> SimulationResult {
        replay(
            makeSystem(for: Trace(header: header, samples: []), options: options), header: header,
            feed: &feed, options: options, sink: sink)
    }
}

/// A programmatic call of a panel system other than FloatingPanel (`SampleKind.systemCall`):
/// `DrawerCall`, `SheetCall`, `PopupCall`, or a system registered from outside.
public protocol PanelSystemCall: Sendable {
    /// The system whose traces hold this call.
    static var model: PanelModel { get }
    /// Value equality with another call; false across systems.
    func isEqual(to other: any PanelSystemCall) -> Bool
}

extension PanelSystemCall {
    /// This call as a `T` when its dynamic type is `T`, else nil: what `self as? T` gives for a
    /// call type (a struct or an enum), found by comparing the two types' metadata instead of
    /// through the runtime's general cast (a system's replay asks it of every call sample). O(1).
    @inline(__always)
    func exactly<T: PanelSystemCall>(_: T.Type) -> T? {
        Self.self == T.self ? unsafeBitCast(self, to: T.self) : nil
    }
}

extension PanelSystemCall where Self: Equatable {
    public func isEqual(to other: any PanelSystemCall) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
