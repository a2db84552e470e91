import XCTest
@testable import PanelSimCLI
import PanelSimCore
import PanelTrace

/// `tune` and `sweep` on sheet traces: the sheet's own parameters (uisheet.md U6, U10) are fitted
/// to observed samples, and parameters of another panel system are refused.
final class UISheetTuneTests: CLITestCase {
    /// A medium/large sheet on D1, flicked from medium by `dy` pt at `v` pt/s.
    static func flick(_ name: String, dy: Double, velocity v: Double, moves: Int = 6) -> Trace {
        var sheet = SheetConfiguration()
        sheet.detents = [.medium, .large]
        let header = TraceHeader(
            name: name, environment: PanelEnvironment(container: Size(width: 390, height: 844)), sheet: sheet)
        var samples = [TraceSample(time: 0, kind: .touch(TouchSample(phase: .began, location: Point(x: 195, y: 500))))]
        samples.append(
            TraceSample(
                time: 8_333,
                kind: .touch(TouchSample(phase: .moved, location: Point(x: 195, y: 500 + (dy < 0 ? -10 : 10))))))
        for i in 1...moves {
            samples.append(
                TraceSample(
                    time: Int64(i + 1) * 8_333,
                    kind: .touch(
                        TouchSample(
                            phase: .moved, location: Point(x: 195, y: 500 + dy * Double(i) / Double(moves))))))
        }
        samples.append(
            TraceSample(
                time: Int64(moves + 2) * 8_333,
                kind: .touch(
                    TouchSample(
                        phase: .ended, location: Point(x: 195, y: 500 + dy), velocity: Point(x: 0, y: v)))))
        return Trace(header: header, samples: samples)
    }

    static let parameters: [TunableParameter] = [.sheetSpringResponse, .sheetDampingRatio, .sheetProjectionRate]
    static let hidden: [Double] = [0.42, 0.9, 0.985]

    func testTuneRecoversTheSheetSpringAndProjectionRate() {
        // A slow drag (spring only), a flick whose target depends on the projection rate, and one
        // released below the fast threshold.
        let traces = [
            Self.flick("slow", dy: -150, velocity: 0, moves: 20),
            Self.flick("flick", dy: -30, velocity: -900),
            Self.flick("down", dy: 60, velocity: 700),
        ].enumerated().map { i, t in
            ObservationSynthesizer(
                parameters: Self.parameters, values: Self.hidden, every: 1, noise: 0.05, seed: UInt64(i + 1)
            ).observe(t)
        }
        let ranges = [
            ParameterRange(parameter: .sheetSpringResponse, lower: 0.2, upper: 0.8),
            ParameterRange(parameter: .sheetDampingRatio, lower: 0.6, upper: 1.4),
            ParameterRange(parameter: .sheetProjectionRate, lower: 0.98, upper: 0.99),
        ]
        let outcome = Tuner.run(
            TuningProblem(traces: traces, parameters: Self.parameters, jobs: 2), ranges: ranges,
            options: TuningOptions(gridSteps: 5, precision: 1e-4))
        XCTAssertEqual(outcome.best[0], 0.42, accuracy: 0.01)
        XCTAssertEqual(outcome.best[1], 0.9, accuracy: 0.03)
        XCTAssertLessThan(outcome.bestError, 0.1)
        // The header's defaults are far off.
        XCTAssertGreaterThan(
            TuningProblem.objective(TuningProblem(traces: traces, parameters: []).evaluate([[]])[0]), 1)
        // The fitted values reproduce every decision of the hidden ones (final state of each trace).
        for t in traces {
            let fitted = simulate(TunableParameter.apply(Self.parameters, outcome.best, to: t))
            let truth = simulate(TunableParameter.apply(Self.parameters, Self.hidden, to: t))
            XCTAssertEqual(fitted.records.last?.frameState, truth.records.last?.frameState, t.header.name)
        }
    }

    func testParametersOfAnotherSystemAreRefused() throws {
        let sheet = ObservationSynthesizer(parameters: [], values: [], every: 2).observe(
            Self.flick("s", dy: -30, velocity: -900))
        try write(TraceWriter.write(sheet), "sheet.jsonl")
        let r = run(["tune", "sheet.jsonl", "--param", "springResponseTime=0.1...1"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(
            r.stderr.contains("a uisheet trace; tune's parameter springResponseTime belongs to floatingpanel traces"),
            r.stderr)
        let ok = run(["sweep", "sheet.jsonl", "--param", "sheet.springResponse=0.3...0.4:2", "-j", "1"])
        XCTAssertEqual(ok.code, 0, ok.stderr)
        XCTAssertTrue(ok.stdout.hasPrefix("sheet.springResponse,"), ok.stdout)
    }
}
