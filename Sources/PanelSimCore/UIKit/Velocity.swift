/// Finger velocity estimation (floatingpanel-core.md §9 O5, physics.md §5).
///
/// Three estimators share one sample history:
/// * `lsq2`    – Android's default planar strategy: unweighted quadratic least squares
///               (AOSP `frameworks/native` `libs/input/VelocityTracker.cpp`,
///               `LeastSquaresVelocityTrackerStrategy` with degree 2).
/// * `impulse` – Android's `ImpulseVelocityTrackerStrategy` (kinetic-energy model).
/// * `ios`     – Flutter's `IOSScrollViewFlingVelocityTracker` weighting (flutter PR #60501),
///               used here as the stand-in for UIKit's undocumented `velocity(in:)`.
///
/// Pure Swift standard library: only `+ - * /`, `squareRoot()` and comparisons. No Foundation,
/// no libm, no clocks, no globals; every result depends only on the samples passed in.
///
/// Units and signs: time is an `Int64` count of nanoseconds on any monotonic time base (only
/// differences are used). Positions are in the caller's unit (pt in the simulator, px in the
/// recorded test data) in container axes (x right, y down, see `Geometry.swift`). Velocities are
/// that unit per **second**, signed like the axis: moving down gives a positive `y` velocity.
/// All arithmetic is `Double`; the Android sources compute in `float`, so results can differ from
/// an Android device in about the 4th significant digit (measured ≤ 0.034 % on recorded flings).

/// The estimator strategies (floatingpanel-core.md §9 O5, physics.md §5).
public enum VelocityStrategy: String, Sendable, Equatable, CaseIterable {
    case lsq2, impulse, ios
}

/// Constants shared by the estimators. All three come from AOSP `VelocityTracker.cpp` /
/// `VelocityTracker.h` and match Flutter's `VelocityTracker` (physics.md §5.1, §5.2).
enum VelocityConstants {
    /// Samples kept (`HISTORY_SIZE` = 20 in AOSP; `_historySize` = 20 in Flutter; Flutter's iOS
    /// tracker also keeps a 20-sample ring, `_sampleSize`).
    static let historySize = 20
    /// Oldest sample age used by lsq2 and impulse, in ns (`HORIZON` = 100 ms; Flutter
    /// `_horizonMilliseconds` = 100).
    static let horizonNanos: Int64 = 100_000_000
    /// Gap after which the pointer is assumed to have stopped, in ns
    /// (`ASSUME_POINTER_STOPPED_TIME` = 40 ms; Flutter `_assumePointerMoveStoppedMilliseconds` = 40).
    static let assumeStoppedNanos: Int64 = 40_000_000
    /// Nanoseconds per second, to turn time differences into seconds.
    static let nanosPerSecond: Double = 1_000_000_000
    /// Flutter's iOS fling weights for the pair two before the newest, the one before it and the
    /// newest pair (`IOSScrollViewFlingVelocityTracker.getVelocityEstimate`, physics.md §5.3).
    static let iosWeights: (older2: Double, older1: Double, newest: Double) = (0.6, 0.35, 0.05)
}

/// Finger velocity tracker for one pointer, with Android's history rules and a choice of
/// estimator.
///
/// History rules (all strategies, from AOSP `VelocityTracker::addMovement` and the strategies'
/// `addMovement`):
/// * at most 20 samples are kept; the oldest is dropped first;
/// * a sample more than 40 ms (strictly) after the previous one clears the history before it is
///   stored (the pointer is assumed to have stopped in between);
/// * a sample with the same timestamp as the previous one replaces it.
///
/// Timestamps should not decrease. A decreasing timestamp is stored as given (like Android) and
/// never traps: every division is guarded, and a degenerate fit yields zero velocity.
///
/// Complexity: `addMovement` is O(1) (the history is a ring of 20 slots stored in the value: no
/// allocation, no copy-on-write check per sample); `currentVelocity` is O(20) for every strategy;
/// memory is O(20).
/// The type is a value: copies are independent, and `==` compares strategy and history.
public struct VelocityTracker: Sendable, Equatable {
    /// One stored sample: time in ns, position in the caller's unit.
    struct Sample: Sendable, Equatable {
        var time: Int64
        var x: Double
        var y: Double
    }

    /// The estimator this tracker uses.
    public let strategy: VelocityStrategy
    /// The history: sample i (0 = oldest) is in slot (historyStart + i) mod 20, for i < historyCount.
    /// Slots outside the history keep stale values that nothing reads.
    private var slots: Slots = VelocityTracker.emptySlots
    private var historyStart = 0
    private var historyCount = 0

    /// `VelocityConstants.historySize` (20) samples stored in the value (a homogeneous tuple is laid
    /// out like a C array).
    typealias Slots = (
        Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample,
        Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample
    )
    private static var emptySlots: Slots {
        let z = Sample(time: 0, x: 0, y: 0)
        return (z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z, z)
    }

    /// The history, oldest first, newest last; never more than `VelocityConstants.historySize` entries.
    var samples: [Sample] { (0..<historyCount).map { sample(at: slot($0)) } }

    /// Creates an empty tracker for `strategy`.
    public init(strategy: VelocityStrategy) {
        self.strategy = strategy
    }

    /// Forgets every sample (Android `VelocityTracker::clear`, done on ACTION_DOWN).
    public mutating func reset() {
        historyStart = 0
        historyCount = 0
    }

    /// Equal strategies and histories (the stale slots do not count).
    public static func == (a: VelocityTracker, b: VelocityTracker) -> Bool {
        guard a.strategy == b.strategy, a.historyCount == b.historyCount else { return false }
        for i in 0..<a.historyCount where a.sample(at: a.slot(i)) != b.sample(at: b.slot(i)) { return false }
        return true
    }

    /// The slot of history entry `i` (0 ≤ i < 20).
    @inline(__always)
    private func slot(_ i: Int) -> Int {
        let s = historyStart &+ i
        return s < VelocityConstants.historySize ? s : s &- VelocityConstants.historySize
    }

    /// The sample in `slot` (reads a copy of the slots: for the estimators and `==`, not per sample).
    private func sample(at slot: Int) -> Sample {
        withUnsafeBytes(of: slots) { $0.load(fromByteOffset: slot &* MemoryLayout<Sample>.stride, as: Sample.self) }
    }

    /// The time of the sample in `slot`, read in place (an inout access: no copy of the slots).
    @inline(__always)
    private mutating func time(at slot: Int) -> Int64 {
        withUnsafeMutableBytes(of: &slots) {
            $0.load(fromByteOffset: slot &* MemoryLayout<Sample>.stride, as: Sample.self).time
        }
    }

    @inline(__always)
    private mutating func setSample(_ sample: Sample, at slot: Int) {
        withUnsafeMutableBytes(of: &slots) {
            $0.storeBytes(of: sample, toByteOffset: slot &* MemoryLayout<Sample>.stride, as: Sample.self)
        }
    }

    /// Adds a touch-down or move sample. timeNanos: monotonic time in ns; position in pt (or px), container axes.
    ///
    /// Applies the history rules described on the type: clear after a gap of more than 40 ms,
    /// replace a sample with an equal timestamp, keep at most 20. Lift-off positions must not be
    /// added (Android and Flutter both ignore the up event's position); use `velocityAtLift`.
    @inline(__always)
    public mutating func addMovement(timeNanos: Int64, position: Point) {
        let sample = Sample(time: timeNanos, x: position.x, y: position.y)
        if historyCount > 0 {
            let newest = slot(historyCount &- 1)
            let lastTime = time(at: newest)
            if timeNanos &- lastTime > VelocityConstants.assumeStoppedNanos {
                reset()
            } else if timeNanos == lastTime {
                setSample(sample, at: newest)
                return
            }
        }
        if historyCount == VelocityConstants.historySize {
            // Drop the oldest: its slot becomes the newest one.
            historyStart = slot(1)
            historyCount &-= 1
        }
        setSample(sample, at: slot(historyCount))
        historyCount &+= 1
    }

    /// Velocity estimate at the newest sample, units per second (pt/s when positions are pt), per axis. Zero with < 2 samples (lsq2/impulse: Android semantics; see below).
    ///
    /// * `lsq2`: samples no older than 100 ms before the newest one; with 3 or more, the
    ///   per-axis `LeastSquares.fitDegree2` coefficient c1 (zero if the fit is degenerate, where
    ///   Android reports no velocity); with exactly 2, the slope between them (Android lowers the
    ///   degree to m − 1); with 1, zero.
    /// * `impulse`: Android's kinetic-energy estimate over the same 100 ms window
    ///   (see `VelocityTracker.impulse`).
    /// * `ios`: 0.6·v₋₂ + 0.35·v₋₁ + 0.05·v₀ over the newest three sample pairs, with a missing
    ///   pair counting as zero velocity (Flutter's behaviour with fewer than 4 samples). No horizon.
    ///
    /// O(20).
    public func currentVelocity() -> Point {
        let samples = self.samples
        switch strategy {
        case .lsq2: return Self.leastSquaresVelocity(samples)
        case .impulse: return Self.impulseVelocity(samples)
        case .ios: return Self.iosVelocity(samples)
        }
    }

    /// Velocity reported at lift-off at `timeNanos` (the up position is NOT added). lsq2/impulse: zero if more than 40 ms passed since the last added sample (Android ASSUME_POINTER_STOPPED_TIME); else currentVelocity(). ios: the last currentVelocity() (iOS reports the last `changed` velocity; no 40 ms rule).
    ///
    /// The 40 ms comparison is strict, as in AOSP (`delaySinceLastEvent > ASSUME_POINTER_STOPPED_TIME`);
    /// Android then reports *no* velocity, which this API expresses as zero. O(20).
    public func velocityAtLift(timeNanos: Int64) -> Point {
        guard historyCount > 0 else { return .zero }
        let last = sample(at: slot(historyCount &- 1))
        switch strategy {
        case .lsq2, .impulse:
            if timeNanos &- last.time > VelocityConstants.assumeStoppedNanos { return .zero }
            return currentVelocity()
        case .ios:
            return currentVelocity()
        }
    }

    // MARK: - Estimators

    /// The newest samples no older than 100 ms before the newest one, oldest first (AOSP
    /// `getEstimator`: `age > HORIZON` stops the walk).
    private static func horizonWindow(_ samples: [Sample]) -> ArraySlice<Sample> {
        guard let newest = samples.last else { return samples[...] }
        var start = samples.count - 1
        while start > 0 && newest.time &- samples[start - 1].time <= VelocityConstants.horizonNanos {
            start -= 1
        }
        return samples[start...]
    }

    /// Seconds from `a` to `b` (b − a) as a Double. Int64 differences below 2^53 ns (≈104 days)
    /// convert exactly.
    private static func seconds(from a: Int64, to b: Int64) -> Double {
        Double(b &- a) / VelocityConstants.nanosPerSecond
    }

    /// lsq2: AOSP `LeastSquaresVelocityTrackerStrategy(2)` with `Weighting::NONE`.
    private static func leastSquaresVelocity(_ samples: [Sample]) -> Point {
        let window = horizonWindow(samples)
        guard let newest = window.last, window.count >= 2 else { return .zero }
        if window.count == 2 {
            // Degree drops to 1: a line through two points is their slope.
            let oldest = window[window.startIndex]
            let dt = Self.seconds(from: oldest.time, to: newest.time)
            guard dt != 0 else { return .zero }
            return Point(x: (newest.x - oldest.x) / dt, y: (newest.y - oldest.y) / dt)
        }
        // t = −age in seconds, relative to the newest sample (AOSP: `-age * 0.000000001f`).
        // Times, x and y side by side in one stack buffer (no allocation per estimate).
        let n = window.count
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * n) { buffer in
            for (k, s) in window.enumerated() {
                buffer[k] = -Self.seconds(from: s.time, to: newest.time)
                buffer[n + k] = s.x
                buffer[2 * n + k] = s.y
            }
            let times = UnsafeBufferPointer(rebasing: buffer[0..<n])
            // AOSP fits each axis on its own; a failed fit leaves a degree-0 estimator there, which
            // reports no velocity (zero here).
            let vx = LeastSquares.fitDegree2(times, UnsafeBufferPointer(rebasing: buffer[n..<(2 * n)]))?.c1 ?? 0
            let vy = LeastSquares.fitDegree2(times, UnsafeBufferPointer(rebasing: buffer[(2 * n)..<(3 * n)]))?.c1 ?? 0
            return Point(x: vx, y: vy)
        }
    }

    /// impulse: AOSP `ImpulseVelocityTrackerStrategy` on positions (not deltas), per axis.
    private static func impulseVelocity(_ samples: [Sample]) -> Point {
        let window = horizonWindow(samples)
        let times = window.map(\.time)
        return Point(
            x: Self.impulse(times: times, positions: window.map(\.x)),
            y: Self.impulse(times: times, positions: window.map(\.y)))
    }

    /// Android's impulse velocity for one axis (AOSP `calculateImpulseVelocity`, physics.md §5.1).
    ///
    /// The touch surface is modelled as a unit mass pushed by the finger. For consecutive samples
    /// (oldest → newest) the segment velocity is vᵢ = Δx/Δt and the work done is
    /// W += (vᵢ − v_prev)·|vᵢ|, where v_prev = sign(W)·√(2|W|) is the velocity the energy so far
    /// corresponds to. After the oldest segment W is halved (the surface is assumed to be already
    /// moving at v₁, so it starts with energy v₁²/2). Result: sign(W)·√(2|W|).
    /// Two samples give their slope; segments with Δt = 0 are skipped (if the oldest one is
    /// skipped, no halving happens, as in AOSP); fewer than two samples give 0.
    /// - Parameters: `times` in ns and `positions`, oldest first, same length. O(n).
    static func impulse(times: [Int64], positions: [Double]) -> Double {
        let n = min(times.count, positions.count)
        guard n >= 2 else { return 0 }
        if n == 2 {
            let dt = seconds(from: times[0], to: times[1])
            guard dt != 0 else { return 0 }
            return (positions[1] - positions[0]) / dt
        }
        var work = 0.0
        for i in 1..<n {
            let dt = seconds(from: times[i - 1], to: times[i])
            if dt == 0 { continue }
            let previous = energyToVelocity(work)
            let current = (positions[i] - positions[i - 1]) / dt
            work += (current - previous) * abs(current)
            if i == 1 { work *= 0.5 }
        }
        return energyToVelocity(work)
    }

    /// Velocity of a unit mass with kinetic energy |work|, signed like `work`: sign·√(2|work|)
    /// (AOSP `kineticEnergyToVelocity`).
    private static func energyToVelocity(_ work: Double) -> Double {
        let speed = (2 * abs(work)).squareRoot()
        return work < 0 ? -speed : speed
    }

    /// ios: Flutter `IOSScrollViewFlingVelocityTracker.getVelocityEstimate`.
    ///
    /// Pair k (0 = newest pair, 1 = the one before, 2 = the one before that) has velocity
    /// Δposition / Δt. Flutter treats a pair with a missing sample or Δt = 0 as zero velocity
    /// and does not renormalise the weights; this does the same. Flutter measures Δt in whole
    /// microseconds; here Δt is exact in ns (identical for µs-aligned timestamps).
    /// Differences from Flutter's tracker: the history here is the shared one, so a gap > 40 ms
    /// starts a new history and an equal timestamp replaces the previous sample (Flutter's iOS
    /// tracker keeps both and gets a zero pair instead).
    private static func iosVelocity(_ samples: [Sample]) -> Point {
        let w = VelocityConstants.iosWeights
        let v0 = pairVelocity(samples, back: 0)
        let v1 = pairVelocity(samples, back: 1)
        let v2 = pairVelocity(samples, back: 2)
        return Point(
            x: w.older2 * v2.x + w.older1 * v1.x + w.newest * v0.x,
            y: w.older2 * v2.y + w.older1 * v1.y + w.newest * v0.y)
    }

    /// Velocity between the samples `back + 1` and `back` places before the newest one, or zero if
    /// either is missing or they share a timestamp.
    private static func pairVelocity(_ samples: [Sample], back: Int) -> Point {
        let endIndex = samples.count - 1 - back
        let startIndex = endIndex - 1
        guard startIndex >= 0 else { return .zero }
        let start = samples[startIndex]
        let end = samples[endIndex]
        let dt = Self.seconds(from: start.time, to: end.time)
        guard dt != 0 else { return .zero }
        return Point(x: (end.x - start.x) / dt, y: (end.y - start.y) / dt)
    }
}

/// Unweighted quadratic least squares as Android's solveUnweightedLeastSquaresDeg2: fit x(t)=c0+c1 t+c2 t^2 with t = -(age) in SECONDS relative to the newest sample; returns [c0,c1,c2] or nil if degenerate.
///
/// Closed form (AOSP `solveUnweightedLeastSquaresDeg2`, the normal equations after removing the
/// means): with centred sums Sxx = Σ(t−t̄)², Sxy = Σ(t−t̄)(y−ȳ), Sxx2 = Σ(t−t̄)(t²−m₂),
/// Sx2y = Σ(t²−m₂)(y−ȳ), Sx2x2 = Σ(t²−m₂)², where m₂ is the mean of t²:
///   D = Sxx·Sx2x2 − Sxx2², c2 = (Sx2y·Sxx − Sxy·Sxx2)/D, c1 = (Sxy·Sx2x2 − Sx2y·Sxx2)/D,
///   c0 = ȳ − c1·t̄ − c2·m₂.
/// AOSP accumulates raw power sums and subtracts the means afterwards; the two-pass centred sums
/// used here are the same quantities, computed with less cancellation.
public enum LeastSquares {
    /// Fits y(t) = c0 + c1·t + c2·t² to the points (times[i], values[i]), all weights 1.
    ///
    /// - Parameters:
    ///   - times: sample times in seconds; the trackers pass t = −age ≤ 0, newest at 0, so c1 is
    ///     the velocity at the newest sample (value unit per second) and c0 its fitted position.
    ///   - values: positions, same count as `times`.
    /// - Returns: `[c0, c1, c2]`, or nil when the counts differ, there are fewer than 3 points,
    ///   or D is zero or not finite (AOSP returns no solution when D == 0).
    /// - Complexity: O(n), two passes.
    public static func fitDegree2(times: [Double], values: [Double]) -> [Double]? {
        guard values.count == times.count else { return nil }
        let fit = times.withUnsafeBufferPointer { t in values.withUnsafeBufferPointer { v in fitDegree2(t, v) } }
        return fit.map { [$0.c0, $0.c1, $0.c2] }
    }

    /// `fitDegree2(times:values:)` over buffers of equal length, without allocating.
    static func fitDegree2(_ times: UnsafeBufferPointer<Double>, _ values: UnsafeBufferPointer<Double>)
        -> (c0: Double, c1: Double, c2: Double)?
    {
        let n = times.count
        guard n >= 3, values.count == n else { return nil }
        let count = Double(n)
        var tSum = 0.0
        var t2Sum = 0.0
        var ySum = 0.0
        for i in 0..<n {
            let t = times[i]
            tSum += t
            t2Sum += t * t
            ySum += values[i]
        }
        let tMean = tSum / count
        let t2Mean = t2Sum / count
        let yMean = ySum / count
        var sxx = 0.0
        var sxy = 0.0
        var sxx2 = 0.0
        var sx2y = 0.0
        var sx2x2 = 0.0
        for i in 0..<n {
            let t = times[i]
            let dt = t - tMean
            let dt2 = t * t - t2Mean
            let dy = values[i] - yMean
            sxx += dt * dt
            sxy += dt * dy
            sxx2 += dt * dt2
            sx2y += dt2 * dy
            sx2x2 += dt2 * dt2
        }
        let denominator = sxx * sx2x2 - sxx2 * sxx2
        guard denominator != 0, denominator.isFinite else { return nil }
        let c2 = (sx2y * sxx - sxy * sxx2) / denominator
        let c1 = (sxy * sx2x2 - sx2y * sxx2) / denominator
        let c0 = yMean - c1 * tMean - c2 * t2Mean
        guard c0.isFinite, c1.isFinite, c2.isFinite else { return nil }
        return (c0, c1, c2)
    }
}
