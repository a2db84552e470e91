// Profile-likelihood confidence intervals of least-squares fits: for each value of one parameter
// the other free parameters are fitted again, so an interval follows a valley of correlated
// parameters instead of cutting across it. System-agnostic: works on any objective of points.

/// A profile-likelihood interval of one parameter (`ProfileLikelihood.interval`).
public struct ProfileInterval: Sendable, Equatable {
    /// The interval's ends, in the parameter's units: on each side the nearest value found where
    /// the profile exceeds the threshold (the outer end of the last bracket, so the interval holds
    /// every value the search could not exclude), or the end of the search range.
    public var lower: Double
    public var upper: Double
    /// Whether the profile stays within the threshold up to the end of the search range on that
    /// side (the interval may go on beyond it).
    public var lowerAtRangeEnd: Bool
    public var upperAtRangeEnd: Bool
    /// Whether, on that side, no value other than the best was found within the threshold: the
    /// true end is closer to the best than `resolution`, and the end reported is best ± resolution.
    public var lowerWithinResolution: Bool
    public var upperWithinResolution: Bool
    /// The smallest step the ends are resolved to: precision × (upper − lower of the range).
    public var resolution: Double
    /// Objective evaluations made (each replays every trace in `tune`).
    public var evaluations: Int

    /// Whether the interval is narrower than the resolution on both sides.
    public var isBelowResolution: Bool { lowerWithinResolution && upperWithinResolution }
}

/// Profile-likelihood intervals (Venzon & Moolgavkar, "A Method for Computing
/// Profile-Likelihood-Based Confidence Intervals", Applied Statistics 37, 1988; Bates & Watts,
/// "Nonlinear Regression Analysis and Its Applications", 1988, §6.1).
///
/// The profile of parameter i at value v is the smallest objective over the other free
/// parameters with parameter i held at v. The interval is where the profile stays within
/// `threshold` (for `tune`: the best error plus the noise floor, `Identifiability`). Where the
/// parameters are correlated the profile is lower than the objective with the others held at
/// their best values, so this interval is wider than such a conditional slice and is the one with
/// the stated coverage.
///
/// Each side is searched outward from the best value: steps of 4, 8, 16, … × the resolution
/// (precision × range) until the profile exceeds the threshold or the range ends, then bisection
/// of the last bracket down to the resolution. The other parameters at each profiled value are
/// fitted by Nelder–Mead (`SimplexSearch`, the same rules and stopping precision as `Tuner`),
/// started from a linear extrapolation of the last two fits on that side; a fit that ends above
/// the threshold by less than the threshold's own rise over the best error is restarted from its
/// answer (a fresh simplex) while that improves it, so a value near the threshold is excluded only
/// when a restart cannot bring it inside. The objective of replays is only piecewise smooth (the spring's stop test
/// settles on a whole frame, so some errors jump by up to a pixel); reporting the outer end of
/// each bracket keeps every value the search could not exclude inside the interval, and an
/// interval is never narrower than the resolution on either side.
public enum ProfileLikelihood {
    /// The first outward step, in resolutions.
    static let firstStep = 4.0
    /// The inner fits stop when their simplex spans less than this × precision: the profile is a
    /// minimum over the other parameters, and a fit stopped at the outer precision can sit
    /// anywhere in a valley narrower than that, overstating the profile by up to the noise floor.
    static let innerPrecision = 1.0 / 16

    /// The profile-likelihood interval of free parameter `index`.
    /// - Parameters:
    ///   - ranges: the search box, one per parameter; a range with lower = upper is fixed.
    ///   - best: the fitted values (all parameters), inside `ranges`.
    ///   - threshold: the largest objective compatible with the data (same units as `evaluate`).
    ///   - precision: the resolution of the ends and the inner fits' stopping size, as a fraction of
    ///     each range (> 0).
    ///   - evaluate: the objective of several points (values of all parameters each), in order;
    ///     it must be deterministic for the interval to be.
    /// - Complexity: per side about log₂(width / resolution) profile values for the bracket and as
    ///   many for the bisection; each profile value is one inner Nelder–Mead fit over the other
    ///   free parameters (a few dozen objective evaluations), or one evaluation when there are none.
    public static func interval(of index: Int, ranges: [ParameterRange], best: [Double], threshold: Double,
                                precision: Double, evaluate: @escaping ([[Double]]) -> [Double]) -> ProfileInterval {
        var profiler = Profiler(index: index, ranges: ranges, best: best, precision: precision, evaluate: evaluate)
        let range = ranges[index]
        let resolution = precision * (range.upper - range.lower)
        let below = profiler.side(-1, threshold: threshold, resolution: resolution)
        let above = profiler.side(1, threshold: threshold, resolution: resolution)
        return ProfileInterval(lower: below.end, upper: above.end, lowerAtRangeEnd: below.atRangeEnd, upperAtRangeEnd: above.atRangeEnd,
                               lowerWithinResolution: below.withinResolution, upperWithinResolution: above.withinResolution,
                               resolution: resolution, evaluations: profiler.evaluations)
    }

    /// The profile at one value: the smallest objective found over the other free parameters,
    /// and the point where it was found.
    /// - Parameters:
    ///   - guess: where the inner fit starts (its value of parameter `index` is replaced by `value`).
    ///   - size: the inner fit's first simplex size, unit coordinates.
    public static func profile(of index: Int, at value: Double, ranges: [ParameterRange], guess: [Double], size: Double,
                               precision: Double, evaluate: @escaping ([[Double]]) -> [Double]) -> (point: [Double], error: Double) {
        var profiler = Profiler(index: index, ranges: ranges, best: guess, precision: precision, evaluate: evaluate)
        return profiler.fit(at: value, guess: guess, size: size)
    }
}

/// The search of `ProfileLikelihood.interval`, counting evaluations.
struct Profiler {
    let index: Int
    let ranges: [ParameterRange]
    let best: [Double]
    let precision: Double
    let evaluate: ([[Double]]) -> [Double]
    /// The free parameters other than `index`.
    let others: [Int]
    var evaluations = 0
    /// The objective at `best`, evaluated once when a side is first searched.
    var bestError: Double?

    init(index: Int, ranges: [ParameterRange], best: [Double], precision: Double, evaluate: @escaping ([[Double]]) -> [Double]) {
        self.index = index; self.ranges = ranges; self.best = best; self.precision = precision; self.evaluate = evaluate
        others = ranges.indices.filter { $0 != index && ranges[$0].lower < ranges[$0].upper }
    }

    /// Fits the other free parameters with parameter `index` at `value`, from `guess`, stopping
    /// early once the error is at or below `target` (that already decides the value is inside),
    /// and restarting (up to twice) while the error is still above `target` but at most `confirm`
    /// and the restart improves it.
    mutating func fit(at value: Double, guess: [Double], size: Double, target: Double = -.infinity,
                      confirm: Double = -.infinity) -> (point: [Double], error: Double) {
        var start = guess
        start[index] = value
        for j in others { start[j] = min(ranges[j].upper, max(ranges[j].lower, start[j])) }
        let startError = evaluate([start])[0]
        evaluations += 1
        guard !others.isEmpty, startError > target else { return (start, startError) }
        var held = ranges
        held[index] = ParameterRange(parameter: ranges[index].parameter, lower: value, upper: value)
        var search = SimplexSearch(evaluate: evaluate, ranges: held, free: others, evaluations: 0,
                                   precision: precision * ProfileLikelihood.innerPrecision, progress: nil)
        search.target = target
        var u = others.map { (start[$0] - ranges[$0].lower) / (ranges[$0].upper - ranges[$0].lower) }
        var error = startError
        for round in 0..<3 where error > target && (round == 0 || error <= confirm) {
            let (next, e) = search.minimize(from: u, error: error, size: size, maxIterations: 200)
            guard e < error else { break }
            u = next; error = e
        }
        evaluations += search.evaluations
        // `values` gives parameter `index` its held value and every other fixed one its range's.
        return (search.values(u), error)
    }

    /// One side (`direction` −1: below the best, +1: above): the interval's end on that side.
    mutating func side(_ direction: Double, threshold: Double, resolution: Double) -> (end: Double, atRangeEnd: Bool, withinResolution: Bool) {
        let range = ranges[index], center = best[index]
        if bestError == nil { bestError = evaluate([best])[0]; evaluations += 1 }
        let confirm = threshold + max(0, threshold - bestError!)
        let room = direction < 0 ? center - range.lower : range.upper - center
        guard room > 0, resolution > 0 else { return (center, true, false) }
        func value(_ distance: Double) -> Double {
            distance >= room ? (direction < 0 ? range.lower : range.upper) : center + direction * distance
        }
        // Fits within the threshold on this side, nearest first: (distance from the best, point).
        var inside: [(distance: Double, point: [Double])] = [(0, best)]
        func profile(_ distance: Double) -> Double {
            let last = inside[inside.count - 1]
            var guess = last.point
            if inside.count > 1 {
                let previous = inside[inside.count - 2]
                let t = (distance - last.distance) / (last.distance - previous.distance)
                for j in others { guess[j] = last.point[j] + t * (last.point[j] - previous.point[j]) }
            }
            let size = max(2 * precision, 0.5 * (distance - last.distance) / (range.upper - range.lower))
            let (point, error) = fit(at: value(distance), guess: guess, size: min(0.25, size), target: threshold, confirm: confirm)
            if error <= threshold { inside.append((distance, point)) }
            return error
        }
        var outside = 0.0
        var step = ProfileLikelihood.firstStep * resolution
        while true {
            let distance = min(step, room)
            if profile(distance) > threshold { outside = distance; break }
            if distance >= room { return (value(room), true, false) }
            step *= 2
        }
        while outside - inside[inside.count - 1].distance > resolution {
            let low = inside[inside.count - 1].distance
            let mid = low + (outside - low) / 2
            if profile(mid) > threshold { outside = mid }
        }
        return (value(outside), false, inside.count == 1)
    }
}
