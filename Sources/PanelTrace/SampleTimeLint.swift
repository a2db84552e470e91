import PanelSimCore

/// A check of a trace's sample times for the likeliest unit mistake: times written in
/// milliseconds where the contract wants seconds (trace-format.md §1, "`t` (seconds from the
/// trace start)"). Such a trace is valid and replays, but a thousand times slower than the
/// gesture was made, so the replay warns once instead of passing in silence.
///
/// A finger on a touch screen reports its moves at the display's rate, 60–240 Hz, so the moves
/// of one finger come 4–17 ms apart; a trace in which more than half of the moves come a second
/// or more after the same finger's previous sample almost surely counts in milliseconds. A trace
/// with fewer than `minimumMoves` moves never warns: a minimized (soak) trace keeps a few moves
/// far apart on purpose.
///
/// Feed it every sample in trace order (`observe(_:)`), then read `warning`.
public struct SampleTimeLint: Sendable {
    /// A move this long or longer after the same finger's previous sample counts as slow (µs).
    public static let slowMoveGap: Microseconds = 1_000_000
    /// The fewest moves that can warn.
    public static let minimumMoves = 8

    /// Moves seen (`moved` touches of a finger that is down) and how many of them were slow.
    public private(set) var moves = 0, slowMoves = 0
    /// The file line of the first slow move (0 until there is one).
    private var firstSlowLine = 0
    /// The fingers that are down and the time of each one's last sample (µs); a few at most.
    private var down: [(id: Int, time: Microseconds)] = []

    public init() {}

    /// Takes the next sample of the trace. O(fingers down).
    public mutating func observe(_ sample: TraceSample) {
        guard case .touch(let touch) = sample.kind else { return }
        let i = down.firstIndex { $0.id == touch.id }
        if touch.phase == .moved, let i {
            moves += 1
            if sample.time - down[i].time >= Self.slowMoveGap {
                slowMoves += 1
                if firstSlowLine == 0 { firstSlowLine = sample.line }
            }
        }
        switch touch.phase {
        case .ended, .cancelled:
            if let i { down.remove(at: i) }
        case .began, .moved, .stationary:
            if let i { down[i].time = sample.time } else { down.append((touch.id, sample.time)) }
        }
    }

    /// The warning for the samples seen so far, nil when their times look like seconds. It names
    /// the line of the first slow move.
    public var warning: String? {
        guard moves >= Self.minimumMoves, 2 * slowMoves > moves else { return nil }
        return "line \(firstSlowLine): \(slowMoves) of \(moves) touch moves come a second or more after the finger's "
            + "previous sample, where a finger reports its moves 4–17 ms apart; `t` is in seconds: "
            + "were the times written in milliseconds?"
    }

    /// The warning for a whole trace's samples (`warning` after observing each). O(samples).
    public static func warning(for samples: [TraceSample]) -> String? {
        var lint = SampleTimeLint()
        for s in samples { lint.observe(s) }
        return lint.warning
    }
}
