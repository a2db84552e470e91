/// An instant of the replay clock held exactly, for the curves of the systems whose animations are
/// functions of time (DrawerKit's and LNPopup's animators, the sheet spring).
///
/// Frame k is at k / frameRate s and a sample at its whole µs (DESIGN.md, "Rules that keep it
/// deterministic"; lnpopup.md §5 L1): a curve is evaluated at the frame's exact time, never at its
/// µs rounding (the printed `t`). Both kinds of instant are whole numbers of ticks of
/// 1 / (frameRate · 10⁶) s: frame k is k · 10⁶ ticks, a sample at t µs is t · frameRate ticks. The
/// difference of two instants is exact in integers, and the seconds between them
/// (`ReplayTimebase.seconds(from:to:)`) are one correctly rounded division.
public struct ReplayInstant: Sendable, Equatable, Comparable, Hashable {
    /// Ticks of 1 / (frameRate · 10⁶) s since the trace start.
    public var ticks: Int64
    public init(ticks: Int64) { self.ticks = ticks }
    public static func < (a: ReplayInstant, b: ReplayInstant) -> Bool { a.ticks < b.ticks }
}

/// The tick unit of a replay at `frameRate` Hz, and the conversions of `ReplayInstant`.
///
/// Range: every instant the loader accepts fits in `Int64` (10⁸ s at 10⁴ Hz is 10¹⁸ ticks); a
/// difference of instants is converted to `Double` exactly while it is below 2⁵³ ticks (about
/// 10 hours at 240 Hz), and correctly rounded beyond.
public struct ReplayTimebase: Sendable, Equatable {
    /// Display frames per second (> 0).
    public let frameRate: Int64
    /// Ticks per second: frameRate · 10⁶.
    public let ticksPerSecond: Int64
    /// `ticksPerSecond` as a `Double` (exact).
    private let ticksPerSecondValue: Double

    public init(frameRate: Int) {
        self.frameRate = Int64(max(frameRate, 1))
        ticksPerSecond = self.frameRate * 1_000_000
        ticksPerSecondValue = Double(ticksPerSecond)
    }

    /// Frame `index`'s instant, index / frameRate s.
    @inline(__always)
    public func frame(_ index: Int) -> ReplayInstant { ReplayInstant(ticks: Int64(index) &* 1_000_000) }

    /// The instant of a sample (or timer) at `time` µs.
    @inline(__always)
    public func sample(_ time: Microseconds) -> ReplayInstant { ReplayInstant(ticks: time &* frameRate) }

    /// Seconds from `start` to `end` (negative when `end` is earlier): the exact tick difference
    /// divided once by `ticksPerSecond`.
    @inline(__always)
    public func seconds(from start: ReplayInstant, to end: ReplayInstant) -> Double {
        Double(end.ticks &- start.ticks) / ticksPerSecondValue
    }

    /// `seconds(from: start, to: frame(k))` for the four frames k = `index` … `index` + 3, with its
    /// bits in every lane (each tick difference converted exactly, then one IEEE division per lane).
    @inline(__always)
    func seconds(from start: ReplayInstant, toFramesFrom index: Int) -> DeterministicMath.Lanes {
        let first = frame(index).ticks &- start.ticks
        return DeterministicMath.Lanes(
            Double(first), Double(first &+ 1_000_000), Double(first &+ 2_000_000), Double(first &+ 3_000_000))
            / ticksPerSecondValue
    }

    /// True when `instant` is at or after the sample (or timer) time `time` µs.
    @inline(__always)
    public func reached(_ time: Microseconds, at instant: ReplayInstant) -> Bool { sample(time).ticks <= instant.ticks }
}
