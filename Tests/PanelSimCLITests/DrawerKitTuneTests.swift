import XCTest
import Foundation
import PanelSimCore
import PanelTrace
import PanelSimCLI

/// `tune` on DrawerKit's timing (drawerkit.md §3.8): observations synthesized from hidden values of
/// `totalDurationInSeconds` and the spring's damping ratio are fitted back; parameters of another
/// panel system are refused.
final class DrawerKitTuneTests: XCTestCase {
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    func testTuneRecoversHiddenDurationAndDampingRatio() throws {
        var traces: [Trace] = []
        for name in ["durations/d1-partial-to-full-fixed.jsonl", "flick/d1-partial-up.jsonl"] {
            let t = try TraceLoader.load(
                path: Self.repositoryRoot.appendingPathComponent("traces/drawerkit/" + name).path
            ).trace
            traces.append(
                ObservationSynthesizer(
                    parameters: [.totalDurationInSeconds, .dampingRatio], values: [0.3, 0.7],
                    every: 1, noise: 0.1, seed: 7
                ).observe(t))
        }
        let ranges = [
            ParameterRange(parameter: .totalDurationInSeconds, lower: 0.1, upper: 0.8),
            ParameterRange(parameter: .dampingRatio, lower: 0.3, upper: 2.0),
        ]
        let outcome = Tuner.run(
            TuningProblem(traces: traces, parameters: ranges.map(\.parameter), jobs: 2), ranges: ranges,
            options: TuningOptions(gridSteps: 5, precision: 1e-4))
        XCTAssertEqual(outcome.best[0], 0.3, accuracy: 0.01)
        XCTAssertEqual(outcome.best[1], 0.7, accuracy: 0.05)
        let before = TuningProblem(traces: traces, parameters: []).evaluate([[]])[0]
        XCTAssertGreaterThan(TuningProblem.objective(before), 5 * outcome.bestError)
    }

    func testValueAndSetFollowTheTimingCurve() throws {
        var header = TraceHeader(
            name: "t", environment: PanelEnvironment(container: Size(width: 390, height: 844)),
            drawer: DrawerConfiguration(heightOfPartiallyExpandedDrawer: 300))
        XCTAssertEqual(TunableParameter.dampingRatio.value(in: header), 4.564354645876384, accuracy: 1e-12)
        TunableParameter.dampingRatio.set(0.8, in: &header)
        XCTAssertEqual(header.drawer?.timingCurveProvider, .dampingRatio(0.8))
        TunableParameter.springResponseTime.set(0.9, in: &header)  // a FloatingPanel parameter: no DrawerKit field changes
        XCTAssertEqual(header.drawer?.totalDurationInSeconds, 0.4)
        XCTAssertEqual(TunableParameter.totalDurationInSeconds.model, .drawerKit)
        XCTAssertEqual(TunableParameter.springResponseTime.model, .floatingPanel)
    }
}
