import PanelSimCore

// What a set of traces can and cannot say about a tunable parameter: whether the model reads it
// at all for these traces, how much the fit's error changes across its range, and a confidence
// interval. System-agnostic: everything is computed by replaying the traces.

/// Whether replays depend on a parameter at all, decided by replaying.
public enum ParameterEffect {
    /// The values of `parameter` at which `effect` replays the traces: the given values, the
    /// header value of each trace, and halfway to each end of what the simulator accepts
    /// (`TunableParameter.isValid`, probed by halving), distinct and sorted.
    static func probes(_ parameter: TunableParameter, around values: [Double], traces: [Trace]) -> [Double] {
        var out = values + traces.map { parameter.value(in: $0) }
        for v in values {
            for candidate in [v * 0.5, v * 1.5, (v + 1) / 2] where parameter.isValid(candidate) { out.append(candidate) }
        }
        var seen: [Double] = []
        for v in out.sorted() where v.isFinite && parameter.isValid(v) && !seen.contains(v) { seen.append(v) }
        return seen
    }

    /// Whether replaying `traces` with `parameter` at the different `values` ever gives a
    /// different result (records compared exactly). False means the model does not read the
    /// parameter for these traces: no observation can tell its values apart.
    /// - Complexity: values · traces replays, on `jobs` threads.
    public static func hasEffect(_ parameter: TunableParameter, values: [Double], traces: [Trace], jobs: Int) -> Bool {
        guard values.count > 1 else { return true }
        let evaluations = TuningProblem(traces: traces, parameters: [parameter], jobs: jobs)
            .evaluate(values.map { [$0] }, keepResults: true)
        for t in traces.indices {
            let first = evaluations[0][t].result?.records
            if evaluations.dropFirst().contains(where: { $0[t].result?.records != first }) { return true }
        }
        return false
    }
}

/// How well the traces determine one fitted parameter (`Identifiability.analyze`).
public struct ParameterIdentifiability: Sendable, Equatable {
    public enum Verdict: String, Sendable, Equatable {
        /// The error rises beyond the noise floor somewhere in the range: a value and an interval.
        case identifiable
        /// The error stays within the noise floor over the whole range: no value is reported.
        case flat
    }
    public var parameter: TunableParameter
    public var verdict: Verdict
    /// The fitted value.
    public var value: Double
    /// How much the RMS location error (pt) rises across the parameter's range, the other
    /// parameters at their fitted values: max over that slice − the fitted error.
    public var sensitivity: Double
    /// The rise of the RMS error (pt) that the observations cannot tell from noise
    /// (`Identifiability.noiseFloor`).
    public var noiseFloor: Double
    /// The 95 % profile-likelihood interval (`ProfileLikelihood`): the values where the error,
    /// with the other free parameters fitted again at each value, stays within the noise floor.
    public var lower: Double
    public var upper: Double
    /// Whether the interval reaches the end of the search range on that side (it may extend
    /// beyond it).
    public var lowerAtRangeEnd: Bool
    public var upperAtRangeEnd: Bool
    /// The interval's ends are found to this step (precision × the range's width, parameter units).
    public var resolution: Double = 0
    /// Whether the true interval is narrower than `resolution` on both sides: no value other than
    /// the fitted one was found within the noise floor, and `lower`/`upper` are value ∓ resolution.
    public var belowResolution = false
    /// Objective evaluations spent on the interval.
    public var evaluations = 0
}

/// Sensitivity, noise floor and confidence interval of fitted parameters.
///
/// The rule (README, "Tuning spring parameters offline"): with N observed locations, p fitted
/// parameters and E the fitted pooled RMS error, a parameter value θ is compatible with the
/// observations at 95 % when its profile RMS error E(θ) (the other free parameters fitted again
/// with this one at θ, `ProfileLikelihood`) satisfies N·E(θ)² ≤ N·E² · (1 + χ²₁(0.95)/(N − p)),
/// χ²₁(0.95) = 3.841 (the likelihood-ratio interval of least squares with the noise variance
/// estimated from the residual, Bates & Watts 1988, "Nonlinear Regression Analysis and Its
/// Applications", §6.1; Venzon & Moolgavkar 1988 for the profile). The noise floor is that rise,
/// E·(√(1 + 3.841/(N − p)) − 1) pt, and never less than 1e-6 pt (`check`'s default location
/// tolerance: smaller differences are not told apart anywhere in PanelSim). The sensitivity is
/// measured on a slice instead (the others at their fitted values, `profilePoints` values across
/// the range); a parameter whose slice rises by no more than the noise floor anywhere is `flat`
/// (the profile, never above the slice, is then flat too).
public enum Identifiability {
    /// χ²₁(0.95): the 95 % quantile of the chi-square distribution with one degree of freedom.
    public static let chiSquare95 = 3.841458820694124
    /// The smallest noise floor, pt.
    public static let minimumNoiseFloor = 1e-6
    /// Profile points across each range (both ends included).
    public static let profilePoints = 11

    /// E·(√(1 + χ²/(N − p)) − 1), at least `minimumNoiseFloor` (pt).
    public static func noiseFloor(bestError: Double, observations: Int, fitted: Int) -> Double {
        let dof = max(1, observations - fitted)
        return max(minimumNoiseFloor, bestError * ((1 + chiSquare95 / Double(dof)).squareRoot() - 1))
    }

    /// Analyzes every free parameter (lower < upper) of a finished fit.
    /// - Parameters:
    ///   - best: the fitted values, one per range.
    ///   - bestError: the objective at `best` (pt).
    ///   - observations: N, the pooled number of observed locations.
    ///   - precision: the interval ends are found to `precision` × the range.
    /// - Complexity: per free parameter, `profilePoints` objective evaluations plus the profile
    ///   interval's (`ProfileLikelihood.interval`); each replays every trace.
    public static func analyze(_ problem: TuningProblem, ranges: [ParameterRange], best: [Double], bestError: Double,
                               observations: Int, precision: Double) -> [ParameterIdentifiability] {
        let free = ranges.indices.filter { ranges[$0].lower < ranges[$0].upper }
        let floor = noiseFloor(bestError: bestError, observations: observations, fitted: free.count)
        let threshold = bestError + floor
        return free.map { i in
            let range = ranges[i]
            func point(_ v: Double) -> [Double] { var p = best; p[i] = v; return p }
            func errors(_ values: [Double]) -> [Double] { problem.evaluate(values.map(point)).map(TuningProblem.objective) }
            let grid = range.grid(steps: profilePoints)
            let profile = errors(grid)
            let sensitivity = (profile.max() ?? bestError) - min(bestError, profile.min() ?? bestError)
            var result = ParameterIdentifiability(parameter: range.parameter, verdict: .flat, value: best[i], sensitivity: sensitivity,
                                                  noiseFloor: floor, lower: range.lower, upper: range.upper,
                                                  lowerAtRangeEnd: true, upperAtRangeEnd: true)
            guard profile.contains(where: { $0 > threshold }) else { return result }
            result.verdict = .identifiable
            let interval = ProfileLikelihood.interval(of: i, ranges: ranges, best: best, threshold: threshold, precision: precision) {
                problem.evaluate($0).map(TuningProblem.objective)
            }
            result.lower = interval.lower; result.lowerAtRangeEnd = interval.lowerAtRangeEnd
            result.upper = interval.upper; result.upperAtRangeEnd = interval.upperAtRangeEnd
            result.resolution = interval.resolution
            result.belowResolution = interval.isBelowResolution
            result.evaluations = interval.evaluations
            return result
        }
    }
}
