import PanelSimCore
import PanelTrace

/// Writes `observed` samples into a trace from a replay with other behavior parameters: the
/// "device" of a worked tuning example, whose true parameters are known.
public struct ObservationSynthesizer: Sendable {
    /// The parameters the "device" used (the trace's header keeps its own values).
    public var parameters: [TunableParameter]
    public var values: [Double]
    /// One observation every `every` display frames (≥ 1), starting at frame 0.
    public var every: Int
    /// Uniform noise of ±`noise` pt on each observed location (SplitMix64 seeded by `seed`).
    public var noise: Double
    public var seed: UInt64
    /// Observations continue this long past the replay's last frame (µs), showing the rest.
    public var tail: Microseconds

    public init(
        parameters: [TunableParameter], values: [Double], every: Int = 1, noise: Double = 0,
        seed: UInt64 = 1, tail: Microseconds = 250_000
    ) {
        self.parameters = parameters
        self.values = values
        self.every = max(1, every)
        self.noise = noise
        self.seed = seed
        self.tail = tail
    }

    /// `trace` with its `observed` samples replaced by the frames of a replay at `values`: at
    /// frame times k·every (location with noise, state, backdrop alpha, and content offset with a
    /// scroll view), through the last frame plus `tail`, never past an `end` sample. Observations
    /// sort after the other samples of the same time and before an `end`.
    /// - Complexity: one replay plus O(samples + observations).
    public func observe(_ trace: Trace) -> Trace {
        let device = TunableParameter.apply(parameters, values, to: trace)
        let rate = trace.header.environment.frameRate
        let timeline = FrameTimeline(result: simulate(device), frameRate: rate)
        guard let last = timeline.last else { return trace }
        let endTime = trace.samples.first { if case .end = $0.kind { return true } else { return false } }?.time
        var limit = frameTime(last.index, frameRate: rate) + tail
        if let endTime { limit = min(limit, endTime) }
        var random = SplitMix64(seed: seed)
        var observed: [TraceSample] = []
        // Only a system whose observed samples carry a backdrop gets one (its trace format says).
        let observesBackdrop =
            TraceFormats.format(for: trace.header.model)?.observedKeys.contains("backdropAlpha") ?? false
        var k = 0
        while frameTime(k, frameRate: rate) <= limit {
            let t = frameTime(k, frameRate: rate)
            if let f = timeline.frame(at: t) {
                let jitter = noise > 0 ? noise * (2 * random.nextUnit() - 1) : 0
                observed.append(
                    TraceSample(
                        time: t,
                        kind: .observed(
                            ObservedSample(
                                location: f.location + jitter, state: f.state, contentOffset: f.contentOffset,
                                backdropAlpha: observesBackdrop ? f.backdropAlpha : nil))))
            }
            k += every
        }
        var merged: [TraceSample] = []
        var inputs = trace.samples.filter { if case .observed = $0.kind { return false } else { return true } }[...]
        for o in observed {
            while let s = inputs.first, s.time < o.time || (s.time == o.time && !isEnd(s)) {
                merged.append(s)
                inputs = inputs.dropFirst()
            }
            merged.append(o)
        }
        merged += inputs
        var copy = trace
        copy.samples = merged
        return copy
    }

    private func isEnd(_ s: TraceSample) -> Bool { if case .end = s.kind { return true } else { return false } }
}
