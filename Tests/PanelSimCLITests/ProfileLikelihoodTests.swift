import XCTest
@testable import PanelSimCLI
import PanelSimCore

/// `ProfileLikelihood.interval` on objectives written down here, whose intervals are known in
/// closed form: a narrow diagonal valley (correlated parameters), step functions, a flat one.
final class ProfileLikelihoodTests: XCTestCase {
    /// Ranges over [lower, upper] for the first `count` registered FloatingPanel parameters (any
    /// parameter will do: the objective below never replays anything).
    func ranges(_ bounds: [(Double, Double)]) -> [ParameterRange] {
        let parameters: [TunableParameter] = [.springResponseTime, .springDecelerationRate, .momentumProjectionRate]
        return bounds.enumerated().map { ParameterRange(parameter: parameters[$0.offset], lower: $0.element.0, upper: $0.element.1) }
    }

    /// 1 + 100·(x − y)² + c·(x + y)²: a valley along x = y, minimum 1 at the origin.
    static func valley(_ c: Double) -> ([[Double]]) -> [Double] {
        { points in points.map { p in 1 + 100 * (p[0] - p[1]) * (p[0] - p[1]) + c * (p[0] + p[1]) * (p[0] + p[1]) } }
    }

    func testCorrelatedValleyProfileIntervalHoldsWhatTheSliceExcludes() {
        let c = 0.5, floor = 0.01
        let box = ranges([(-1, 1), (-1, 1)])
        let f = Self.valley(c)
        // The truth (0.05, 0.05) fits within the floor ...
        let truth = [0.05, 0.05]
        XCTAssertLessThan(f([truth])[0], 1 + floor)
        // ... but the slice through the best (y held at 0) excludes x = 0.05.
        XCTAssertGreaterThan(f([[0.05, 0]])[0], 1 + floor)
        // Profile: min over y of 100·(x − y)² + c·(x + y)² = x²·(4c·100/(100 + c)), so the
        // interval is |x| ≤ √(floor·(100 + c)/(400c)).
        let halfWidth = (floor * (100 + c) / (400 * c)).squareRoot()
        let interval = ProfileLikelihood.interval(of: 0, ranges: box, best: [0, 0], threshold: 1 + floor, precision: 1e-4, evaluate: f)
        XCTAssertLessThanOrEqual(interval.lower, -truth[0])
        XCTAssertGreaterThanOrEqual(interval.upper, truth[0])
        // The ends are the outer ends of brackets of one resolution (2e-4) around ±halfWidth; the
        // inner fits stop at 1/16 of the precision, so allow one more resolution.
        XCTAssertEqual(interval.resolution, 2e-4, accuracy: 1e-15)
        XCTAssertEqual(interval.upper, halfWidth, accuracy: 2 * interval.resolution)
        XCTAssertEqual(interval.lower, -halfWidth, accuracy: 2 * interval.resolution)
        XCTAssertGreaterThanOrEqual(interval.upper, halfWidth - interval.resolution / 4)
        XCTAssertFalse(interval.lowerAtRangeEnd || interval.upperAtRangeEnd || interval.isBelowResolution)
        // The same for y (the valley is symmetric).
        let y = ProfileLikelihood.interval(of: 1, ranges: box, best: [0, 0], threshold: 1 + floor, precision: 1e-4, evaluate: f)
        XCTAssertEqual(y.upper, halfWidth, accuracy: 2 * y.resolution)
    }

    func testValueAtTheProfileIsTheMinimumOverTheOthers() {
        let box = ranges([(-1, 1), (-1, 1)])
        let (point, error) = ProfileLikelihood.profile(of: 0, at: 0.05, ranges: box, guess: [0, 0], size: 0.01, precision: 1e-4,
                                                       evaluate: Self.valley(0.5))
        // d/dy = 0: y = x·(100 − c)/(100 + c).
        XCTAssertEqual(point[0], 0.05)
        XCTAssertEqual(point[1], 0.05 * 99.5 / 100.5, accuracy: 1e-5)
        XCTAssertEqual(error, 1 + 0.0025 * 200 / 100.5, accuracy: 1e-6)
    }

    /// A step function wider than the resolution: the interval holds the whole step around the
    /// best, its ends within one resolution outside the step's edges.
    func testStepFunctionIntervalCoversTheWholeStep() {
        let f: ([[Double]]) -> [Double] = { $0.map { 1 + 0.01 * ((abs($0[0] - 0.3) / 0.05).rounded(.down)) } }
        let box = ranges([(0, 1)])
        let interval = ProfileLikelihood.interval(of: 0, ranges: box, best: [0.31], threshold: 1.005, precision: 1e-4, evaluate: f)
        XCTAssertLessThanOrEqual(interval.lower, 0.25)
        XCTAssertGreaterThanOrEqual(interval.lower, 0.25 - interval.resolution)
        XCTAssertGreaterThanOrEqual(interval.upper, 0.35)
        XCTAssertLessThanOrEqual(interval.upper, 0.35 + interval.resolution)
    }

    /// Steps narrower than the resolution: no other value is found inside, and the interval is
    /// reported as the best ± one resolution, never as a point.
    func testIntervalNarrowerThanTheResolutionIsReportedAsSuch() {
        let f: ([[Double]]) -> [Double] = { $0.map { 1 + 0.01 * ((abs($0[0]) / 1e-6).rounded(.down)) } }
        let box = ranges([(-1, 1)])
        let interval = ProfileLikelihood.interval(of: 0, ranges: box, best: [0], threshold: 1.005, precision: 1e-4, evaluate: f)
        XCTAssertTrue(interval.isBelowResolution)
        XCTAssertEqual(interval.lower, -interval.resolution)
        XCTAssertEqual(interval.upper, interval.resolution)
        var a = ParameterIdentifiability(parameter: .springResponseTime, verdict: .identifiable, value: 0, sensitivity: 1, noiseFloor: 0.005,
                                         lower: interval.lower, upper: interval.upper, lowerAtRangeEnd: false, upperAtRangeEnd: false)
        a.resolution = interval.resolution; a.belowResolution = true
        XCTAssertEqual(TuneCommand.describe(a, value: 0, range: box[0]), "0           95% < precision (±0.0002)  sensitivity 1.0000 pt")
    }

    /// An objective that stays within the threshold to the end of the range on one side.
    func testIntervalReachingTheEndOfTheRange() {
        let f: ([[Double]]) -> [Double] = { $0.map { 1 + $0[0] * $0[0] } }
        let interval = ProfileLikelihood.interval(of: 0, ranges: ranges([(-0.05, 1)]), best: [0], threshold: 1.01, precision: 1e-4, evaluate: f)
        XCTAssertTrue(interval.lowerAtRangeEnd)
        XCTAssertEqual(interval.lower, -0.05)
        XCTAssertFalse(interval.upperAtRangeEnd)
        XCTAssertEqual(interval.upper, 0.1, accuracy: interval.resolution)
        XCTAssertGreaterThanOrEqual(interval.upper, 0.1)
    }
}
