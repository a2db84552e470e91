import PanelSimCore

// Fidelity: how far a replay is from what the panel did on a device (the trace's `observed`
// samples). Pure functions on values; used by `fidelity`, `tune` and `sweep`.

/// Every display frame of a replay, reconstructed from the frames a result writes (frame 0 and
/// every frame whose values changed): an unwritten frame repeats the previous one.
public struct FrameTimeline: Sendable {
    /// Display-link rate (Hz) of the replay.
    public let frameRate: Int
    /// The written frames, in index order (never empty for a real replay).
    public let frames: [FrameRecord]

    /// Collects the frames of `result`, in order.
    /// - Complexity: O(records).
    public init(result: SimulationResult, frameRate: Int) {
        self.frameRate = frameRate
        frames = result.records.compactMap {
            switch $0 {
            case .frame(let f): return f
            case .systemFrame(let f): return f.frameRecordView
            case .event: return nil
            }
        }
    }

    /// The last frame of the replay (nil when the result has no frames).
    public var last: FrameRecord? { frames.last }

    /// The frame on screen at time `t` (µs): frame k with the largest k such that
    /// `frameTime(k) ≤ t` (the frame in force, a zero-order hold; no interpolation), carried forward
    /// past the last frame. Nil when there are no frames.
    /// - Complexity: O(log frames).
    public func frame(at t: Microseconds) -> FrameRecord? {
        guard !frames.isEmpty else { return nil }
        // Largest k with frameTime(k) <= t; frameTime is monotonic in k.
        var k = Int((t * Int64(frameRate)) / 1_000_000)
        while k > 0 && frameTime(k, frameRate: frameRate) > t { k -= 1 }
        while frameTime(k + 1, frameRate: frameRate) <= t { k += 1 }
        // Last written frame with index <= k.
        var lo = 0
        var hi = frames.count - 1
        if frames[0].index > k { return frames[0] }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if frames[mid].index <= k { lo = mid } else { hi = mid - 1 }
        }
        return frames[lo]
    }

    /// The time (µs) from which the surface location stays within `tolerance` pt of its final
    /// value: the time of the first frame after the last frame that is farther away than that
    /// (0 when no frame is). Nil without frames.
    /// - Complexity: O(frames).
    public func settleTime(tolerance: Double) -> Microseconds? {
        guard let final = frames.last?.location else { return nil }
        guard let j = frames.lastIndex(where: { abs($0.location - final) > tolerance }) else {
            return frameTime(frames[0].index, frameRate: frameRate)
        }
        return frameTime(frames[j + 1].index, frameRate: frameRate)
    }

    /// The largest excursion (pt, ≥ 0) of the surface past the anchor an attraction ends at,
    /// over every attraction that ran to its end (`willBeginAttracting` … `didEndAttracting`):
    /// for each, the frames from its start to its end are compared with the location at its end,
    /// on the far side from the location it started at. 0 when nothing overshoots.
    /// - Complexity: O(records).
    public static func overshoot(_ result: SimulationResult, frameRate: Int) -> Double {
        var worst = 0.0
        var current: Double?  // location of the last written frame
        var start: Double?  // location in force when the running attraction began
        var segment: [Double] = []  // frames of the running attraction
        var attracting = false
        var endTime: Microseconds?  // time of a didEndAttracting whose frame is pending
        func finish(target: Double) {
            worst = max(worst, excursion(start: start, frames: segment + [target], target: target))
            endTime = nil
        }
        for record in result.records {
            switch record {
            case .frame(let f):
                if let end = endTime {
                    // The settling frame is written right after the event (same frame time); if it
                    // repeated the previous frame, the previous location is the anchor.
                    if frameTime(f.index, frameRate: frameRate) == end {
                        finish(target: f.location)
                    } else if let c = current {
                        finish(target: c)
                    }
                    endTime = nil
                } else if attracting {
                    segment.append(f.location)
                }
                current = f.location
            case .event(_, .willBeginAttracting):
                attracting = true
                start = current
                segment = []
                endTime = nil
            case .event(let t, .didEndAttracting):
                if attracting { endTime = t }
                attracting = false
            default:
                break
            }
        }
        if endTime != nil, let c = current { finish(target: c) }
        return worst
    }

    private static func excursion(start: Double?, frames: [Double], target: Double) -> Double {
        guard let start, start != target else { return 0 }
        let direction: Double = target > start ? 1 : -1
        var worst = 0.0
        for x in frames { worst = max(worst, (x - target) * direction) }
        return worst
    }
}

/// An error statistic over a set of samples: count, sum of squares, RMS and maximum |error|.
public struct ErrorStatistic: Sendable, Equatable {
    /// Number of compared samples.
    public var count = 0
    /// Σ error² (unit²).
    public var sumOfSquares = 0.0
    /// max |error| (unit); 0 when `count` is 0.
    public var maximum = 0.0
    public init() {}

    /// √(Σe²/n); nil when there are no samples.
    public var rms: Double? { count == 0 ? nil : (sumOfSquares / Double(count)).squareRoot() }

    /// Adds one error (simulated − observed).
    public mutating func add(_ error: Double) {
        count += 1
        sumOfSquares += error * error
        maximum = max(maximum, abs(error))
    }

    /// Pools another statistic into this one (sums and maxima; the order of merges is the caller's,
    /// so results are reproducible when it is fixed).
    public mutating func merge(_ other: ErrorStatistic) {
        count += other.count
        sumOfSquares += other.sumOfSquares
        maximum = max(maximum, other.maximum)
    }
}

/// How one replay compares with the `observed` samples of its trace.
///
/// Definitions (the errors are simulated − observed):
/// * location: each observed `location` at time t against the surface location of the frame in
///   force at t (`FrameTimeline.frame(at:)`), pt;
/// * settle time: the time from which the location stays within the settle tolerance of its final
///   value, for the observed samples (in time order; the last one is the final value) and for
///   the replay's frames alike (`FrameTimeline.settleTime`), s;
/// * final state: the last observed `state` against the state of the replay's last frame;
/// * content offset and backdrop alpha: like location, where observed and where the frame has one.
public struct FidelityMetrics: Sendable, Equatable {
    public var location = ErrorStatistic()
    public var contentOffset = ErrorStatistic()
    public var backdropAlpha = ErrorStatistic()
    /// Observed samples with a `state`, and how many equal the state of the frame in force.
    public var statesObserved = 0
    public var statesMatched = 0
    /// Settle times, s; nil when there is nothing to measure (the simulated one is always measured
    /// when the replay has frames, the observed one needs observed locations).
    public var observedSettleTime: Double?
    public var simulatedSettleTime: Double?
    public var observedFinalState: String?
    public var simulatedFinalState: String?
    public init() {}

    /// simulated − observed settle time, s.
    public var settleTimeError: Double? {
        guard let o = observedSettleTime, let s = simulatedSettleTime else { return nil }
        return s - o
    }

    /// Whether the last observed state is the replay's final state; nil when no state was observed.
    public var finalStateAgrees: Bool? {
        guard let o = observedFinalState else { return nil }
        return o == simulatedFinalState
    }
}

/// Computes fidelity metrics.
public enum Fidelity {
    /// The default settle tolerance, pt.
    public static let defaultSettleTolerance = 1.0

    /// True when `trace` has at least one `observed` sample with a location.
    public static func hasObservedLocations(_ trace: Trace) -> Bool {
        trace.samples.contains { if case .observed(let o) = $0.kind { return o.location != nil } else { return false } }
    }

    /// Compares the replay `result` of `trace` with the trace's `observed` samples.
    /// - Parameters:
    ///   - settleTolerance: pt (> 0); see `FidelityMetrics`.
    /// - Complexity: O(records + observed samples · log frames).
    public static func measure(
        trace: Trace, result: SimulationResult,
        settleTolerance: Double = defaultSettleTolerance
    ) -> FidelityMetrics {
        let timeline = FrameTimeline(result: result, frameRate: trace.header.environment.frameRate)
        var m = FidelityMetrics()
        m.simulatedFinalState = timeline.last?.state
        var observedPath: [(time: Microseconds, location: Double)] = []
        for sample in trace.samples {
            guard case .observed(let o) = sample.kind, let frame = timeline.frame(at: sample.time) else { continue }
            if let x = o.location {
                m.location.add(frame.location - x)
                observedPath.append((sample.time, x))
            }
            if let c = o.contentOffset, let sim = frame.contentOffset { m.contentOffset.add(sim - c) }
            if let a = o.backdropAlpha { m.backdropAlpha.add(frame.backdropAlpha - a) }
            if let s = o.state {
                m.statesObserved += 1
                if s == frame.state { m.statesMatched += 1 }
                m.observedFinalState = s
            }
        }
        if let final = observedPath.last?.location {
            let j = observedPath.lastIndex { abs($0.location - final) > settleTolerance }
            m.observedSettleTime = seconds(observedPath[j.map { $0 + 1 } ?? 0].time)
        }
        m.simulatedSettleTime = timeline.settleTime(tolerance: settleTolerance).map(seconds)
        return m
    }

    /// Pooled metrics of several traces, merged in the given order: sums and maxima of the error
    /// statistics, and the state counts. Settle times and final states are per trace and stay nil.
    public static func pooled(_ all: [FidelityMetrics]) -> FidelityMetrics {
        var p = FidelityMetrics()
        for m in all {
            p.location.merge(m.location)
            p.contentOffset.merge(m.contentOffset)
            p.backdropAlpha.merge(m.backdropAlpha)
            p.statesObserved += m.statesObserved
            p.statesMatched += m.statesMatched
        }
        return p
    }

    static func seconds(_ t: Microseconds) -> Double { Double(t) / 1_000_000 }
}
