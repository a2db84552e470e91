import Dispatch
import PanelSimCore

// Offline tuning of `panel.behavior` against observed samples: parameters, a deterministic
// parallel evaluator, a coarse grid and a pattern-search refinement.

/// A `panel.behavior` number that `tune`, `sweep` and `observe` may set.
public enum TunableParameter: String, Sendable, CaseIterable {
    case springResponseTime, springDecelerationRate, momentumProjectionRate, redirectionalProgress

    /// The values the simulator accepts: response time in (0, 100] s, the two rates in (0, 1)
    /// (per ms), redirectional progress in [0, 1].
    public func isValid(_ v: Double) -> Bool {
        guard v.isFinite else { return false }
        switch self {
        case .springResponseTime: return v > 0 && v <= 100
        case .springDecelerationRate, .momentumProjectionRate: return v > 0 && v < 1
        case .redirectionalProgress: return v >= 0 && v <= 1
        }
    }

    /// This parameter's value in `behavior`.
    public func value(in behavior: PanelBehavior) -> Double {
        switch self {
        case .springResponseTime: return behavior.springResponseTime
        case .springDecelerationRate: return behavior.springDecelerationRate
        case .momentumProjectionRate: return behavior.momentumProjectionRate
        case .redirectionalProgress: return behavior.redirectionalProgress
        }
    }

    /// Sets this parameter in `behavior`.
    public func set(_ v: Double, in behavior: inout PanelBehavior) {
        switch self {
        case .springResponseTime: behavior.springResponseTime = v
        case .springDecelerationRate: behavior.springDecelerationRate = v
        case .momentumProjectionRate: behavior.momentumProjectionRate = v
        case .redirectionalProgress: behavior.redirectionalProgress = v
        }
    }

    /// A copy of `trace` whose header's `panel.behavior` has `values[i]` for `parameters[i]`.
    /// The trace itself is a value: nothing shared is modified.
    public static func apply(_ parameters: [TunableParameter], _ values: [Double], to trace: Trace) -> Trace {
        var copy = trace
        for (p, v) in zip(parameters, values) { p.set(v, in: &copy.header.panel.behavior) }
        return copy
    }
}

/// `--param NAME=A...B[:STEPS]` or `--param NAME=V`: a parameter and the closed interval it
/// ranges over (A = B for a single value), with an optional number of grid steps.
public struct ParameterRange: Sendable, Equatable {
    public var parameter: TunableParameter
    public var lower: Double
    public var upper: Double
    /// Grid points including both ends (≥ 1; 1 only when lower = upper); nil when not given.
    public var steps: Int?

    public init(parameter: TunableParameter, lower: Double, upper: Double, steps: Int? = nil) {
        self.parameter = parameter; self.lower = lower; self.upper = upper; self.steps = steps
    }

    /// Parses `NAME=A...B`, `NAME=A...B:STEPS` or `NAME=V`.
    /// - Returns: the range, or a message saying what was expected.
    public static func parse(_ text: String) -> Result<ParameterRange, ParameterSyntaxError> {
        let names = TunableParameter.allCases.map(\.rawValue).joined(separator: ", ")
        guard let eq = text.firstIndex(of: "=") else {
            return .failure(ParameterSyntaxError("--param expects NAME=A...B, got '\(text)'"))
        }
        let name = String(text[..<eq])
        guard let parameter = TunableParameter(rawValue: name) else {
            return .failure(ParameterSyntaxError("unknown parameter '\(name)' (expected one of \(names))"))
        }
        var rest = String(text[text.index(after: eq)...])
        var steps: Int?
        if let colon = rest.lastIndex(of: ":") {
            guard let n = Int(rest[rest.index(after: colon)...]), n >= 1, n <= 10_000 else {
                return .failure(ParameterSyntaxError("\(name): steps must be an integer in 1…10000, got '\(rest[rest.index(after: colon)...])'"))
            }
            steps = n
            rest = String(rest[..<colon])
        }
        let bounds = rest.components(separatedBy: "...")
        guard bounds.count == 1 || bounds.count == 2,
              let lower = Double(bounds[0]), let upper = Double(bounds[bounds.count - 1]) else {
            return .failure(ParameterSyntaxError("\(name): expected A...B (numbers), got '\(rest)'"))
        }
        guard parameter.isValid(lower), parameter.isValid(upper) else {
            return .failure(ParameterSyntaxError("\(name): '\(rest)' is outside the values the simulator accepts"))
        }
        guard lower <= upper else { return .failure(ParameterSyntaxError("\(name): lower bound \(bounds[0]) exceeds upper bound \(bounds[1])")) }
        if lower == upper, let s = steps, s > 1 {
            return .failure(ParameterSyntaxError("\(name): a single value has 1 step, got \(s)"))
        }
        if lower < upper, let s = steps, s < 2 {
            return .failure(ParameterSyntaxError("\(name): a range needs at least 2 steps, got \(s)"))
        }
        return .success(ParameterRange(parameter: parameter, lower: lower, upper: upper, steps: steps))
    }

    /// The grid values: `steps` equally spaced values from lower to upper, both included
    /// (value i = lower + (upper − lower)·i/(steps − 1), the last one exactly upper).
    public func grid(steps n: Int) -> [Double] {
        guard n > 1, lower < upper else { return [lower] }
        return (0..<n).map { i in i == n - 1 ? upper : lower + (upper - lower) * Double(i) / Double(n - 1) }
    }

    /// lower + u·(upper − lower) for u in [0, 1] (exactly the bounds at 0 and 1).
    func value(at u: Double) -> Double {
        if u <= 0 { return lower }
        if u >= 1 { return upper }
        return lower + (upper - lower) * u
    }
}

/// A malformed `--param`.
public struct ParameterSyntaxError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Deterministic parallel map: `body(i)` for i in 0..<count on `jobs` workers (Dispatch
/// `concurrentPerform`, worker w takes i = w, w + jobs, …); results are gathered by index, so the
/// output never depends on `jobs` or on scheduling.
/// - Complexity: `count` calls of `body`, about count/jobs deep.
public func parallelMap<T: Sendable>(count: Int, jobs: Int, _ body: @Sendable (Int) -> T) -> [T] {
    guard count > 0 else { return [] }
    let workers = max(1, min(jobs, count))
    if workers == 1 { return (0..<count).map(body) }
    let slots = ResultSlots<T>(count: count)
    DispatchQueue.concurrentPerform(iterations: workers) { w in
        var i = w
        while i < count {
            slots.store(body(i), at: i)
            i += workers
        }
    }
    return slots.collect()
}

/// Write-once result slots shared by the workers of `parallelMap`; each index is written by
/// exactly one worker, and all are read after `concurrentPerform` returns.
private final class ResultSlots<T>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<T?>
    init(count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: nil)
    }
    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }
    func store(_ value: T, at i: Int) { buffer[i] = value }
    func collect() -> [T] { buffer.map { $0! } }
}

/// The traces and parameters of a tuning or sweep run.
public struct TuningProblem: Sendable {
    public var traces: [Trace]
    public var parameters: [TunableParameter]
    /// Settle tolerance, pt (see `FidelityMetrics`).
    public var settleTolerance: Double
    /// Threads to use (≥ 1).
    public var jobs: Int

    public init(traces: [Trace], parameters: [TunableParameter],
                settleTolerance: Double = Fidelity.defaultSettleTolerance, jobs: Int = 1) {
        self.traces = traces; self.parameters = parameters
        self.settleTolerance = settleTolerance; self.jobs = max(1, jobs)
    }

    /// One replay of one trace at one parameter point.
    public struct Evaluation: Sendable {
        public var metrics: FidelityMetrics
        /// `FrameTimeline.overshoot`, pt.
        public var overshoot: Double
        /// The replay, kept only when asked for.
        public var result: SimulationResult?
    }

    /// Replays every trace at every point (points × traces, in parallel) and returns
    /// `[point][trace]`. Each point is `parameters.count` values.
    /// - Complexity: points · traces replays.
    public func evaluate(_ points: [[Double]], keepResults: Bool = false) -> [[Evaluation]] {
        let n = traces.count
        let traces = self.traces, parameters = self.parameters, tolerance = settleTolerance
        let flat = parallelMap(count: points.count * n, jobs: jobs) { i -> Evaluation in
            let trace = TunableParameter.apply(parameters, points[i / n], to: traces[i % n])
            let result = simulate(trace)
            return Evaluation(metrics: Fidelity.measure(trace: trace, result: result, settleTolerance: tolerance),
                              overshoot: FrameTimeline.overshoot(result, frameRate: trace.header.environment.frameRate),
                              result: keepResults ? result : nil)
        }
        return (0..<points.count).map { p in Array(flat[(p * n)..<(p * n + n)]) }
    }

    /// The objective: the RMS location error (pt) over every observed location of every trace,
    /// pooled (√(Σe²/N), the sums taken in trace order); +∞ when nothing was observed.
    public static func objective(_ row: [Evaluation]) -> Double {
        Fidelity.pooled(row.map(\.metrics)).location.rms ?? .infinity
    }
}

/// Settings of `Tuner.run`.
public struct TuningOptions: Sendable, Equatable {
    /// Grid points per parameter for the coarse search (≥ 2), unless a range gives its own steps.
    public var gridSteps = 7
    /// The refinement stops when its step is below `precision` × (upper − lower) in every
    /// parameter (a fraction of each range, > 0).
    public var precision = 1e-4
    /// Upper bound on refinement polls (each poll is 2 × parameters points).
    public var maxPolls = 2_000
    public init(gridSteps: Int = 7, precision: Double = 1e-4, maxPolls: Int = 2_000) {
        self.gridSteps = gridSteps; self.precision = precision; self.maxPolls = maxPolls
    }
}

/// Where a tuning run is, for a progress display.
public struct TuningProgress: Sendable, Equatable {
    public enum Phase: String, Sendable { case grid, refine }
    public var phase: Phase
    /// Points evaluated so far, and an estimate of the total (exact for the grid).
    public var done: Int
    public var estimatedTotal: Int
    public var bestError: Double
}

/// The outcome of `Tuner.run`.
public struct TuningOutcome: Sendable, Equatable {
    /// Best values, one per range, in range order.
    public var best: [Double]
    /// Objective at `best` (pt).
    public var bestError: Double
    /// Best grid point and its objective.
    public var gridBest: [Double]
    public var gridError: Double
    /// Points evaluated (grid + refinement) and refinement polls.
    public var evaluations: Int
    public var polls: Int
    /// The final step, as a fraction of each range.
    public var finalStep: Double
}

/// Minimizes `TuningProblem.objective` over a box: a coarse grid, then a compass (pattern)
/// search from the best grid point.
///
/// Refinement works in coordinates u ∈ [0, 1] per parameter (value = lower + u·(upper − lower)).
/// Starting at half the grid spacing, each poll evaluates the 2·d points u ± step·eᵢ (clamped to
/// the box; all in parallel); the best one that is strictly better becomes the current point
/// (ties: the first in the order +e₀, −e₀, +e₁, …), otherwise the step halves. It stops when the
/// step is below `precision`. Every choice depends only on objective values, compared in a fixed
/// order, so the outcome is bit-identical for any number of jobs.
public enum Tuner {
    /// - Parameters:
    ///   - ranges: one per `problem.parameters`, same order; a range with lower = upper is fixed.
    ///   - progress: called on the calling thread after each batch of evaluations.
    /// - Complexity: gridSteps^d + 2·d·polls points, each a replay of every trace.
    public static func run(_ problem: TuningProblem, ranges: [ParameterRange], options: TuningOptions = TuningOptions(),
                           progress: ((TuningProgress) -> Void)? = nil) -> TuningOutcome {
        precondition(ranges.count == problem.parameters.count)
        // Grid, in lexicographic order (the first parameter varies slowest).
        let axes = ranges.map { $0.grid(steps: $0.lower == $0.upper ? 1 : ($0.steps ?? max(2, options.gridSteps))) }
        var points: [[Double]] = [[]]
        for axis in axes { points = points.flatMap { p in axis.map { p + [$0] } } }
        var errors: [Double] = []
        errors.reserveCapacity(points.count)
        let batch = max(problem.jobs * 4, 16)
        var start = 0
        while start < points.count {
            let end = min(points.count, start + batch)
            errors += problem.evaluate(Array(points[start..<end])).map(TuningProblem.objective)
            start = end
            progress?(TuningProgress(phase: .grid, done: end, estimatedTotal: points.count, bestError: errors.min() ?? .infinity))
        }
        var bestIndex = 0
        for i in errors.indices where errors[i] < errors[bestIndex] { bestIndex = i }
        let gridBest = points[bestIndex], gridError = errors[bestIndex]

        // Compass search in unit coordinates.
        let free = ranges.indices.filter { ranges[$0].lower < ranges[$0].upper }
        var u = ranges.indices.map { i -> Double in
            ranges[i].lower < ranges[i].upper ? (gridBest[i] - ranges[i].lower) / (ranges[i].upper - ranges[i].lower) : 0
        }
        var current = gridBest, currentError = gridError
        let spacing = free.map { 1 / Double(max(1, axes[$0].count - 1)) }.max() ?? 1
        var step = spacing / 2
        var polls = 0, evaluations = points.count
        let halvings = { (s: Double) in max(0, Int((log2Approx(s / options.precision)).rounded(.up))) }
        while !free.isEmpty && step >= options.precision && polls < options.maxPolls {
            var candidates: [[Double]] = [], unitCandidates: [[Double]] = []
            for i in free {
                for sign in [1.0, -1.0] {
                    var v = u
                    v[i] = min(1, max(0, u[i] + sign * step))
                    if v[i] == u[i] { continue }
                    unitCandidates.append(v)
                    candidates.append(ranges.indices.map { ranges[$0].value(at: v[$0]) })
                }
            }
            let candidateErrors = problem.evaluate(candidates).map(TuningProblem.objective)
            polls += 1
            evaluations += candidates.count
            var pick: Int?
            for j in candidateErrors.indices where candidateErrors[j] < (pick.map { candidateErrors[$0] } ?? currentError) { pick = j }
            if let j = pick {
                u = unitCandidates[j]; current = candidates[j]; currentError = candidateErrors[j]
            } else {
                step /= 2
            }
            progress?(TuningProgress(phase: .refine, done: evaluations,
                                     estimatedTotal: evaluations + halvings(step) * 2 * free.count * 2,
                                     bestError: currentError))
        }
        return TuningOutcome(best: current, bestError: currentError, gridBest: gridBest, gridError: gridError,
                             evaluations: evaluations, polls: polls, finalStep: step)
    }

    /// log₂ for positive finite x, from the exponent and a short series (no libm; only for estimates).
    static func log2Approx(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 0 }
        return Double(x.exponent) + (x.significand - 1)
    }
}
