/// `frameTime(index, frameRate:)` for consecutive frames without a 64-bit division per frame: the
/// replay's frame loop steps it once per frame and sets it only when it skips idle frames.
///
/// With n(k) = 2·k·10⁶ + rate and d = 2·rate, frame k's time is ⌊n(k)/d⌋. Going to k + 1 adds
/// 2·10⁶ to n, so the quotient grows by ⌊2·10⁶/d⌋ plus one carry when the remainder passes d
/// (the remainders stay below d, so one carry is enough). Tested equal to `frameTime` in
/// `FrameClockTests`.
public struct FrameClock: Sendable {
    /// The current frame's index k and time, µs.
    public private(set) var index: Int
    public private(set) var time: Microseconds
    private var remainder: Int64
    private let divisor: Int64, stepQuotient: Int64, stepRemainder: Int64

    /// A clock at frame `index` of a `frameRate` Hz display (frameRate > 0).
    public init(frameRate: Int, index: Int = 0) {
        divisor = 2 * Int64(frameRate)
        stepQuotient = 2_000_000 / divisor
        stepRemainder = 2_000_000 % divisor
        self.index = 0
        time = 0
        remainder = 0
        set(index)
    }

    /// Moves to frame `k` (one division).
    public mutating func set(_ k: Int) {
        let n = 2 * Int64(k) * 1_000_000 + divisor / 2
        index = k
        time = n / divisor
        remainder = n % divisor
    }

    /// Moves to the next frame.
    @inline(__always)
    public mutating func advance() {
        // Unchecked: the index stays far below Int.max (the replay reaches frame k only through a
        // sample time t with k ≤ t·frameRate/10⁶ + settle frames, and t·frameRate is checked first).
        index &+= 1
        time &+= stepQuotient
        remainder &+= stepRemainder
        if remainder >= divisor {
            remainder &-= divisor
            time &+= 1
        }
    }
}
