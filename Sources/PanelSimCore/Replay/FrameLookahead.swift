/// A curve's values at two consecutive frames, evaluated together and one frame early, for the
/// curves a system evaluates at every frame while it animates (the additive animators' timing
/// curves, the sheet spring).
///
/// An evaluation is one long chain of dependent multiplications (`DeterministicMath.exp`); a vector
/// of two lanes takes two frames through it for the price of one. The pair for frames k + 1 and
/// k + 2 is started at frame k, whose own value was evaluated before, so the frame's work never
/// waits for its result: the processor runs the chain alongside the rest of frame k. Each value is
/// what evaluating the curve at its own frame gives (the caller's `evaluate` computes every lane as
/// it would alone), so the records are the same bits with or without the lookahead.
///
/// Valid while the curve is the same one: the owner resets it (`init()`) when the curve changes.
struct FrameLookahead<Value> {
    /// Ticks of the frame `values.0` belongs to (`values.1` is the frame after); `Int64.min` when
    /// empty.
    private var firstTicks = Int64.min
    private var values: (Value, Value)?

    init() {}

    /// The value at frame instant `time` (a frame's instant, `ReplayTimebase.frame(_:)`) when it
    /// is held, and the frame from which the caller evaluates two frames now (`store(_:from:)`),
    /// nil when none:
    /// * at a pair's first frame: its first value, nothing to evaluate;
    /// * at the frame after it: its second value, and the next two frames to evaluate;
    /// * at any other frame (the first of a curve, or after frames without a call): no value, and
    ///   this frame and the next to evaluate.
    /// - Complexity: O(1).
    @inline(__always)
    func lookup(atFrame time: ReplayInstant) -> (held: Value?, evaluateFrom: ReplayInstant?) {
        if let pair = values {
            if time.ticks == firstTicks { return (pair.0, nil) }
            if time.ticks == firstTicks &+ ReplayTimebase.ticksPerFrame {
                return (pair.1, ReplayTimebase.frame(after: time))
            }
        }
        return (nil, time)
    }

    /// Holds `pair`, the values at frame instant `first` and at the frame after it.
    @inline(__always)
    mutating func store(_ pair: (Value, Value), from first: ReplayInstant) {
        values = pair
        firstTicks = first.ticks
    }

    /// The value at frame instant `time`: `lookup(atFrame:)`, with `evaluate(a, b)` giving the
    /// values at frame instants a and b (b the frame after a) when a pair is due.
    /// - Complexity: O(1) plus at most one call of `evaluate`.
    @inline(__always)
    mutating func value(
        atFrame time: ReplayInstant, _ evaluate: (ReplayInstant, ReplayInstant) -> (Value, Value)
    ) -> Value {
        let (held, from) = lookup(atFrame: time)
        guard let from else { return held.unsafelyUnwrapped }
        let pair = evaluate(from, ReplayTimebase.frame(after: from))
        store(pair, from: from)
        return held ?? pair.0
    }
}

extension FrameLookahead: Sendable where Value: Sendable {}
