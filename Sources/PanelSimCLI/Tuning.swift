import PanelSimCore
import PanelTrace

// Offline tuning of `panel.behavior` against observed samples: parameters, a deterministic
// parallel evaluator, a coarse grid and a pattern-search refinement.

/// A number of a trace header that `tune`, `sweep` and `observe` may set. Each belongs to one
/// panel system (`model`) and is declared in that system's folder (`FloatingPanel/`, `DrawerKit/`,
/// `UISheet/`), listed by its `SystemCommandDescription` in `CommandSystems`; a trace of another
/// system is refused by the commands. Two parameters are equal when their names are.
public struct TunableParameter: Sendable, Hashable, CustomStringConvertible {
    /// The name `--param` takes, e.g. `springResponseTime` or `sheet.dampingRatio`.
    public let rawValue: String
    /// The panel system whose header holds the parameter.
    public let model: PanelModel
    /// The values the simulator accepts, for messages: `0 < x ≤ 100 (s)`, `0 < x < 1`, ….
    public let acceptedValues: String
    private let accepts: @Sendable (Double) -> Bool
    private let read: @Sendable (TraceHeader) -> Double?
    private let write: @Sendable (Double, inout TraceHeader) -> Void

    /// A parameter of `model`'s headers.
    /// - Parameters:
    ///   - accepts: whether the simulator accepts a finite value.
    ///   - read: the value in a header of `model` (nil: none, reported as NaN).
    ///   - write: sets the value in a header of `model`.
    public init(_ name: String, model: PanelModel, acceptedValues: String, accepts: @escaping @Sendable (Double) -> Bool,
                read: @escaping @Sendable (TraceHeader) -> Double?, write: @escaping @Sendable (Double, inout TraceHeader) -> Void) {
        rawValue = name; self.model = model; self.acceptedValues = acceptedValues
        self.accepts = accepts; self.read = read; self.write = write
    }

    /// The registered parameter named `rawValue`, nil when there is none.
    public init?(rawValue: String) {
        guard let p = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = p
    }

    /// Every registered system's parameters, in registration order.
    public static var allCases: [TunableParameter] { CommandSystems.registered.flatMap(\.tunableParameters) }

    public var description: String { rawValue }
    public static func == (a: TunableParameter, b: TunableParameter) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Whether the simulator accepts `v` (finite and within `acceptedValues`).
    public func isValid(_ v: Double) -> Bool { v.isFinite && accepts(v) }

    /// This parameter's value in `header`; NaN when the header is another system's or has none.
    public func value(in header: TraceHeader) -> Double {
        guard header.model == model else { return .nan }
        return read(header) ?? .nan
    }

    /// This parameter's value in `trace`'s header.
    public func value(in trace: Trace) -> Double { value(in: trace.header) }

    /// Sets this parameter in `header` (nothing when the header is another system's).
    public func set(_ v: Double, in header: inout TraceHeader) {
        guard header.model == model else { return }
        write(v, &header)
    }

    /// A copy of `trace` whose header has `values[i]` for `parameters[i]`.
    /// The trace itself is a value: nothing shared is modified.
    public static func apply(_ parameters: [TunableParameter], _ values: [Double], to trace: Trace) -> Trace {
        var copy = trace
        for (p, v) in zip(parameters, values) { p.set(v, in: &copy.header) }
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
            let bad = parameter.isValid(lower) ? bounds[bounds.count - 1] : bounds[0]
            return .failure(ParameterSyntaxError("\(name): '\(rest)' is outside the values the simulator accepts "
                                                 + "(\(bad) is not in \(parameter.acceptedValues))"))
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
    /// The refinement stops when the simplex spans less than `precision` × (upper − lower) in
    /// every parameter (a fraction of each range, > 0).
    public var precision = 1e-4
    /// Upper bound on Nelder–Mead iterations per start.
    public var maxIterations = 1_000
    /// Upper bound on restarts after the first run.
    public var maxRestarts = 4
    public init(gridSteps: Int = 7, precision: Double = 1e-4, maxIterations: Int = 1_000, maxRestarts: Int = 4) {
        self.gridSteps = gridSteps; self.precision = precision
        self.maxIterations = maxIterations; self.maxRestarts = maxRestarts
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
    /// Points evaluated (grid + refinement), Nelder–Mead iterations and restarts that improved.
    public var evaluations: Int
    public var iterations: Int
    public var restarts: Int
}

/// Minimizes `TuningProblem.objective` over a box: a coarse grid, then Nelder–Mead from the
/// best grid point, restarted from its answer while a restart still improves it.
///
/// The refinement works in coordinates u ∈ [0, 1] per free parameter (value = lower +
/// u·(upper − lower); trial points are clamped to the box). The first simplex is the grid point
/// plus half a grid spacing along each parameter. Each iteration evaluates the reflection,
/// expansion and both contractions together (in parallel) and then applies the standard rules
/// (coefficients 1, 2, ½, ½); a shrink evaluates its points together. A run stops when the simplex
/// spans less than `precision` in every coordinate; a restart builds a fresh simplex of the first
/// size around the best point. The objective of the replays is piecewise smooth (the spring's
/// stop test snaps to the anchor at a whole frame), which is why restarts help. Every decision
/// compares objective values in a fixed order (ties: the older vertex first), so the outcome is
/// bit-identical for any number of jobs.
public enum Tuner {
    /// - Parameters:
    ///   - ranges: one per `problem.parameters`, same order; a range with lower = upper is fixed.
    ///   - progress: called on the calling thread after each batch of evaluations.
    /// - Complexity: gridSteps^d points, then a few points per iteration; each point replays every trace.
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

        let free = ranges.indices.filter { ranges[$0].lower < ranges[$0].upper }
        var search = SimplexSearch(evaluate: { problem.evaluate($0).map(TuningProblem.objective) }, ranges: ranges, free: free,
                                   evaluations: points.count, precision: options.precision, progress: progress)
        var best = free.map { (gridBest[$0] - ranges[$0].lower) / (ranges[$0].upper - ranges[$0].lower) }
        var bestError = gridError
        var restarts = 0
        if !free.isEmpty {
            let size = free.map { 0.5 / Double(max(1, axes[$0].count - 1)) }.max() ?? 0.5
            var round = 0
            repeat {
                let (u, e) = search.minimize(from: best, error: bestError, size: size, maxIterations: options.maxIterations)
                guard e < bestError else { break }
                best = u; bestError = e
                if round > 0 { restarts += 1 }
                round += 1
            } while round <= options.maxRestarts
        }
        return TuningOutcome(best: search.values(best), bestError: bestError, gridBest: gridBest, gridError: gridError,
                             evaluations: search.evaluations, iterations: search.iterations, restarts: restarts)
    }
}

/// Nelder–Mead over the free parameters in unit coordinates (see `Tuner`), minimizing any
/// objective of whole parameter points (`Tuner`: the pooled RMS location error; `ProfileLikelihood`:
/// the same with one parameter held fixed).
struct SimplexSearch {
    /// Objectives of several points (all ranges' values each), in order.
    let evaluate: ([[Double]]) -> [Double]
    let ranges: [ParameterRange]
    let free: [Int]
    var evaluations: Int
    var iterations = 0
    let precision: Double
    let progress: ((TuningProgress) -> Void)?
    /// A run also stops as soon as its best vertex is at or below this objective (−∞: never).
    var target = -Double.infinity

    /// Parameter values (all ranges) of unit coordinates `u` of the free parameters.
    func values(_ u: [Double]) -> [Double] {
        var v = ranges.map(\.lower)
        for (k, i) in free.enumerated() { v[i] = ranges[i].value(at: u[k]) }
        return v
    }

    /// Objectives of several unit points, evaluated together.
    mutating func objectives(_ us: [[Double]], best: Double, diameter: Double) -> [Double] {
        let e = evaluate(us.map(values))
        evaluations += us.count
        let left = Tuner.halvings(diameter / precision) * 3 * (free.count + 1)
        progress?(TuningProgress(phase: .refine, done: evaluations, estimatedTotal: evaluations + left,
                                 bestError: min(best, e.min() ?? best)))
        return e
    }

    /// One Nelder–Mead run from `start` (objective `error`) with a simplex of `size`.
    mutating func minimize(from start: [Double], error: Double, size: Double, maxIterations: Int) -> ([Double], Double) {
        let m = free.count
        func clamp(_ u: [Double]) -> [Double] { u.map { min(1, max(0, $0)) } }
        var simplex: [[Double]] = [start]
        for k in 0..<m {
            var v = start
            v[k] = start[k] + size <= 1 ? start[k] + size : start[k] - size
            simplex.append(clamp(v))
        }
        var f = [error] + objectives(Array(simplex.dropFirst()), best: error, diameter: size)
        var n = 0
        while n < maxIterations {
            // Order: best first; ties keep the older vertex (lower index) first.
            let order = simplex.indices.sorted { f[$0] != f[$1] ? f[$0] < f[$1] : $0 < $1 }
            simplex = order.map { simplex[$0] }; f = order.map { f[$0] }
            let diameter = simplex.dropFirst().map { v in zip(v, simplex[0]).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
            if diameter < precision || f[0] <= target { break }
            n += 1; iterations += 1
            let worst = simplex[m]
            var centroid = [Double](repeating: 0, count: m)
            for v in simplex.dropLast() { for k in 0..<m { centroid[k] += v[k] } }
            centroid = centroid.map { $0 / Double(m) }
            func along(_ t: Double) -> [Double] { clamp((0..<m).map { centroid[$0] + t * (centroid[$0] - worst[$0]) }) }
            let trials = [along(1), along(2), along(0.5), along(-0.5)]   // reflect, expand, outside, inside
            let ft = objectives(trials, best: f[0], diameter: diameter)
            let (fr, fe, fo, fi) = (ft[0], ft[1], ft[2], ft[3])
            var replacement: ([Double], Double)?
            if fr < f[0] {
                replacement = fe < fr ? (trials[1], fe) : (trials[0], fr)
            } else if fr < f[m - 1] {
                replacement = (trials[0], fr)
            } else if fr < f[m] {
                if fo <= fr { replacement = (trials[2], fo) }
            } else if fi < f[m] {
                replacement = (trials[3], fi)
            }
            if let (v, fv) = replacement {
                simplex[m] = v; f[m] = fv
            } else {
                let shrunk = simplex.dropFirst().map { v in clamp((0..<m).map { simplex[0][$0] + 0.5 * (v[$0] - simplex[0][$0]) }) }
                let fs = objectives(shrunk, best: f[0], diameter: diameter)
                for k in 1...m { simplex[k] = shrunk[k - 1]; f[k] = fs[k - 1] }
            }
        }
        let b = f.indices.min { f[$0] != f[$1] ? f[$0] < f[$1] : $0 < $1 }!
        return (simplex[b], f[b])
    }
}

extension Tuner {
    /// Rough number of halvings from `ratio` down to 1 (for time estimates only).
    static func halvings(_ ratio: Double) -> Int {
        guard ratio > 1, ratio.isFinite else { return 0 }
        return ratio.exponent + 1
    }
}
