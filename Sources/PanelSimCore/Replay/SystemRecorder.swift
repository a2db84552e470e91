/// The records of a panel system other than FloatingPanel while it replays (trace-format.md §2):
/// its events with their times; its warnings; and its frames, packed by `Frame`'s layout and written only when a value changed
/// (frame 0 always: floatingpanel-core.md §9 O1, drawerkit.md §2.3). One per replay; the system
/// hands the records over with `finish()`, and in a streaming replay also between samples
/// (`takeRecords()`).
struct SystemRecorder<Frame: PackedSystemFrame> {
    private(set) var records = RecordList()
    /// Non-fatal notes, in the order they arose (see `warn(_:_:)`).
    var warnings: [String] = []
    /// The last name `nameIndex(_:)` looked up and its index (a one-entry cache: a frame's name
    /// rarely changes between frames).
    private var lastName: String?, lastNameIndex = SystemFrameLayout.nullName
    /// The last frame recorded, nil before the first.
    private var lastFrame: Frame?

    init() { records.usePackedFrames(Frame.layout) }

    /// Reserves room for about `n` records (a hint; `PanelSystem.reserveRecords`).
    mutating func reserve(_ n: Int) {
        records.reserveForReplay(n)
        records.reservePackedFrames(n / 2)
    }

    /// Records the event `name` with `fields` (in the order they are written) at `time` µs.
    mutating func emit(_ name: String, _ fields: [RecordField], at time: Microseconds) {
        // `owned`: the recorder is its list's only producer (RecordList.appendEntry).
        records.appendEvent(time: time, .system(SystemEvent(name: name, fields: fields)), owned: true)
    }

    /// Records the warning "line `line`: `message`".
    mutating func warn(_ line: Int, _ message: String) { warnings.append("line \(line): \(message)") }

    /// Records `frame` as frame number `index` when any of its values differs from the last frame
    /// recorded (always at index 0). O(channels); allocates only when the list grows.
    @inline(__always)
    mutating func record(_ frame: Frame, index: Int) {
        if index != 0, let last = lastFrame, last == frame { return }
        lastFrame = frame
        records.appendPackedFrame(frame, index: index, owned: true)
    }

    /// Records the frames of a steady run (`MovingChannelRun`) at `indices`: frame k is
    /// `run.frame(values)` for its moving channels, until the run ends, each recorded only when it
    /// differs from the frame before it: the records that `record(run.frame(values), index: k)`
    /// for each k would make, with room made once for the run and the last frame kept in a local
    /// value while it runs (`RecordList.appendMovingChannelRun`).
    /// - Returns: the first k not recorded (the one at which `run` ended, else
    ///   `indices.upperBound`).
    /// - Complexity: O(indices.count · channels).
    @inline(__always)
    mutating func recordRun<Run: MovingChannelRun>(_ indices: Range<Int>, _ run: inout Run) -> Int
    where Run.Frame == Frame {
        let done = records.appendMovingChannelRun(indices, after: lastFrame, &run)
        lastFrame = done.last
        return done.end
    }

    /// The name-table index of `name` for a `name` channel (`SystemFrameLayout.nullName` for nil).
    /// O(1) when it is the name asked for last; else `RecordList.nameIndex(_:)`.
    mutating func nameIndex(_ name: String?) -> UInt32 {
        if name == lastName && (name != nil || lastNameIndex == SystemFrameLayout.nullName) { return lastNameIndex }
        lastName = name
        lastNameIndex = name.map { records.nameIndex($0) } ?? SystemFrameLayout.nullName
        return lastNameIndex
    }

    /// The records and warnings, once the replay is done.
    func finish() -> (records: RecordList, warnings: [String]) { (records, warnings) }

    /// Every record so far, for a streaming replay (`PanelSystem.takeFinalRecords()`); nil when
    /// there is none. Every one is final: the recorder only appends, and compares the next frame
    /// with its own copy of the last one (`lastFrame`), never with the list. It goes on in an
    /// empty list with the same name table, so that the name indices it keeps stay valid
    /// (`RecordList.takeAllRecords()`).
    /// - Complexity: O(names in the table).
    mutating func takeRecords() -> RecordList? {
        records.isEmpty ? nil : records.takeAllRecords()
    }
}

/// A panel system that records through a `SystemRecorder` (`recorder`): the event, warning,
/// end and hand-over parts of `PanelSystem` come from here, the hand-over between samples of a
/// streaming replay included (`takeFinalRecords()`).
protocol RecordingPanelSystem: PanelSystem {
    associatedtype Frame: PackedSystemFrame
    var recorder: SystemRecorder<Frame> { get set }
    /// Time of the sample, timer or frame being processed (µs): events emitted now carry it.
    var now: Microseconds { get set }
    /// `PanelSystem.runFrame`'s work, declared `@inline(__always)` by the system so that
    /// `runFrames` steps its frames in one loop.
    mutating func stepFrame(index: Int, time: Microseconds) -> Bool
    /// How far the steady frames that follow a frame that reported animating may go: an e ≥
    /// `index` such that, of the frames `index..<e`, those before the first one
    /// `recordSteadyFrames` stops at would each, in `stepFrame`, do nothing but record a frame
    /// computed from the time alone (no completion, timer, scroll deceleration or other change of
    /// state; each reports animating). `index` when there are none. The default: none.
    func steadyFramesEnd(from index: Int) -> Int
    /// Records the steady frames at the start of `frames` (a range `steadyFramesEnd(from:)`
    /// allowed, not empty): the records that `stepFrame` at each of them would make, through
    /// `SystemRecorder.recordRun(_:_:)`, up to the first frame that needs `stepFrame` (one whose
    /// state change the run cannot tell in advance, such as a spring coming to rest).
    /// - Returns: the end of the frames recorded (`frames.lowerBound` when none was). The system's
    ///   exact clock is then at the last of them (`runFrames` sets `now`).
    mutating func recordSteadyFrames(_ frames: Range<Int>) -> Int
}

extension RecordingPanelSystem {
    mutating func runFrame(index: Int, time: Microseconds) -> Bool { stepFrame(index: index, time: time) }

    /// The frames that process no sample, back to back (`PanelSystem.runFrames`), with the frame's
    /// work inlined in the loop.
    ///
    /// After a frame that reported animating, the steady frames that follow it
    /// (`steadyFramesEnd(from:)`, up to the frame before `dueFrame`) are recorded as one run
    /// (`recordSteadyFrames(_:)`): the same records, without the checks of `stepFrame` per frame.
    mutating func runFrames(_ clock: inout FrameClock, before dueFrame: Int64) -> Bool {
        var animating: Bool
        repeat {
            animating = stepFrame(index: clock.index, time: clock.time)
            clock.advance()
            if animating && Int64(clock.index) < dueFrame {
                let bound = Int(Swift.min(Int64(steadyFramesEnd(from: clock.index)), dueFrame))
                let end = bound > clock.index ? recordSteadyFrames(clock.index..<bound) : clock.index
                if end > clock.index {
                    // To the run's last frame: one division for a long run, steps for a short one.
                    if end &- clock.index > 8 {
                        clock.set(end &- 1)
                    } else {
                        while clock.index < end &- 1 { clock.advance() }
                    }
                    now = clock.time
                    clock.advance()
                }
            }
        } while animating && Int64(clock.index) < dueFrame
        return animating
    }

    func steadyFramesEnd(from index: Int) -> Int { index }

    mutating func recordSteadyFrames(_ frames: Range<Int>) -> Int { frames.lowerBound }

    /// Records the event `name` with `fields` at `now`.
    mutating func emit(_ name: String, _ fields: [RecordField] = []) { recorder.emit(name, fields, at: now) }

    /// Records the warning "line `line`: `message`".
    mutating func warn(_ line: Int, _ message: String) { recorder.warn(line, message) }

    mutating func reserveRecords(_ n: Int) { recorder.reserve(n) }

    mutating func reachEnd(at time: Microseconds) { now = time }

    mutating func finish() -> (records: RecordList, warnings: [String]) { recorder.finish() }

    /// Every record so far (`SystemRecorder.takeRecords()`): a streaming replay of a system that
    /// records through a `SystemRecorder` holds the records of one batch of samples at a time.
    mutating func takeFinalRecords() -> RecordList? { recorder.takeRecords() }
}
