/// The seam between the replay loop and a panel system.
///
/// The replay (`Replay`) owns the frame clock, sample dispatch, the settle budget and the `end`
/// rule; a panel system owns everything else: its recognizers, its model of the library, its
/// animations and the records it writes. Each system lives in its own folder beside this one
/// (`FloatingPanel/`, `DrawerKit/`, …) and uses the UIKit pieces every system shares (`UIKit/`:
/// velocity estimators, pan and tap recognition, springs and timing curves, the scroll-view model,
/// display-scale rounding). To add a system: a `model` case (`Model/Trace.swift`), a type that
/// conforms here, and one line in `simulate(_:options:)`.
///
/// The replay is generic over the system, so these calls are specialized: nothing in the frame
/// loop goes through an existential or a witness table.
protocol PanelSystem {
    /// Sets up t = 0 (the presentation before the first sample) and writes its records.
    mutating func start()
    /// Reserves room for about `n` records (a hint).
    mutating func reserveRecords(_ n: Int)
    /// Processes one sample at `sample.time` µs (never `end`; samples arrive in file order).
    mutating func process(_ sample: TraceSample)
    /// The `end` sample at `time` µs was reached; the current frame is the last one.
    mutating func reachEnd(at time: Microseconds)
    /// Steps the running animations and timers to frame `index` (at `time` µs, after the frame's
    /// samples), then records the frame when a value changed (frame 0 always).
    /// - Returns: true while anything still needs frames (an animation, a pending timer).
    mutating func runFrame(index: Int, time: Microseconds) -> Bool
    /// True while a finger is down: the replay does not stop for settling.
    var isTouchDown: Bool { get }
    /// Hands over the records and warnings once the replay is done.
    mutating func finish() -> (records: RecordList, warnings: [String])
}
