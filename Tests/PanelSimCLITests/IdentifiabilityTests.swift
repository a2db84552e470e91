import XCTest
@testable import PanelSimCLI
import PanelSimCore
import PanelTrace

/// `tune` and `observe` say what the traces cannot determine: a parameter the model does not
/// read for them is refused, one whose error is flat within the noise gets no value, and the
/// others come with a sensitivity and a 95 % interval.
final class IdentifiabilityTests: CLITestCase {
    /// A sheet at medium flicked up 60 pt at `v` pt/s (fast: |v| ≥ 1000 uses the fast-flick damping).
    func sheetTrace(_ name: String, dy: Double, velocity v: Double, observing parameter: TunableParameter, _ value: Double, seed: UInt64) throws -> String {
        let trace = UISheetTuneTests.flick(name, dy: dy, velocity: v, moves: v == 0 ? 20 : 6)
        let observed = ObservationSynthesizer(parameters: [parameter], values: [value], every: 1, noise: 0.05, seed: seed).observe(trace)
        try write(TraceWriter.write(observed), name + ".jsonl")
        return name + ".jsonl"
    }

    /// The value printed for `parameter` on `tune`'s "best parameters" line.
    func fitted(_ stdout: String, _ parameter: TunableParameter) -> Double? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("  " + parameter.rawValue + " ") }) else { return nil }
        return Double(line.split(separator: " ")[1])
    }

    func testFastSheetFlickLeavesTheDampingRatioUndeterminedAndFitsTheFastDamping() throws {
        let fast = try sheetTrace("fast", dy: -60, velocity: -2500, observing: .sheetFastDampingRatio, 0.85, seed: 3)
        // observe refuses a parameter the trace does not depend on, instead of ignoring it.
        let observe = run(["observe", fast, "--param", "sheet.dampingRatio=0.85"])
        XCTAssertEqual(observe.code, 2)
        XCTAssertTrue(observe.stderr.contains("sheet.dampingRatio has no effect on this trace"), observe.stderr)
        // tune reports it as not identifiable (exit 1), never as a value.
        let damping = run(["tune", fast, "--param", "sheet.dampingRatio=0.3...2", "-j", "2"])
        XCTAssertEqual(damping.code, 1, damping.stdout + damping.stderr)
        XCTAssertTrue(damping.stderr.contains("sheet.dampingRatio is not identifiable from these traces: it has no effect on them"), damping.stderr)
        XCTAssertNil(fitted(damping.stdout, .sheetDampingRatio))
        // The fast-flick damping is tunable, and recovered within 1 %.
        let fastDamping = run(["tune", fast, "--param", "sheet.fastDampingRatio=0.3...2", "-j", "2"])
        XCTAssertEqual(fastDamping.code, 0, fastDamping.stdout + fastDamping.stderr)
        let value = try XCTUnwrap(fitted(fastDamping.stdout, .sheetFastDampingRatio), fastDamping.stdout)
        XCTAssertEqual(value, 0.85, accuracy: 0.0085)
        // An interval, or one narrower than the search resolution (0.0001 × 1.7), never a point.
        XCTAssertTrue(fastDamping.stdout.contains("95% [") || fastDamping.stdout.contains("95% < precision (±0.00017)"), fastDamping.stdout)
    }

    func testSlowSheetReleasesDetermineTheDampingRatio() throws {
        let traces = [try sheetTrace("slow", dy: -150, velocity: 0, observing: .sheetDampingRatio, 0.85, seed: 1),
                      try sheetTrace("down", dy: 60, velocity: 700, observing: .sheetDampingRatio, 0.85, seed: 2)]
        let r = run(["tune"] + traces + ["--param", "sheet.dampingRatio=0.3...2", "-j", "2"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        let value = try XCTUnwrap(fitted(r.stdout, .sheetDampingRatio), r.stdout)
        XCTAssertEqual(value, 0.85, accuracy: 0.0085)
        // The interval holds the true value's neighbourhood and lies inside the range.
        let line = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("  sheet.dampingRatio ") })
        XCTAssertTrue(line.contains("95% [") && line.contains("sensitivity "), String(line))
        XCTAssertFalse(line.contains("≤") || line.contains("≥"), String(line))
    }

    /// Heavy noise and a tiny range: the replays differ, but the error does not rise past the
    /// noise floor anywhere in the range, so no value is reported.
    func testErrorFlatWithinTheNoiseIsNotIdentifiable() throws {
        let source = try TraceLoader.load(path: RepositoryCorpusTests.root + "/traces/tune/flick-up-fast.jsonl").trace
        let noisy = ObservationSynthesizer(parameters: [.springResponseTime], values: [0.55], every: 1, noise: 30, seed: 5).observe(source)
        try write(TraceWriter.write(noisy), "noisy.jsonl")
        let r = run(["tune", "noisy.jsonl", "--param", "springResponseTime=0.55...0.5505", "-j", "2"])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("  springResponseTime  not identifiable: the RMS error rises by "), r.stdout)
        XCTAssertTrue(r.stdout.contains("within the noise floor (no value reported)"), r.stdout)
    }

    /// The noise floor rule: E·(√(1 + 3.841/(N − p)) − 1), at least 1e-6 pt.
    func testNoiseFloor() {
        XCTAssertEqual(Identifiability.noiseFloor(bestError: 1, observations: 101, fitted: 1), (1 + 3.841458820694124 / 100).squareRoot() - 1, accuracy: 1e-15)
        XCTAssertEqual(Identifiability.noiseFloor(bestError: 0, observations: 10, fitted: 1), 1e-6)
    }
}
