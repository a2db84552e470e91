import Foundation
import XCTest
@testable import PanelSimCLI
import PanelSimCore
import PanelTrace

/// Fidelity metrics, the tuner, sweeps and observation synthesis.
final class FidelityTuneTests: CLITestCase {
    /// A bottom panel on D1/B3 at half (full 100, half 422, tip 741), default behavior.
    static func header(_ name: String) -> TraceHeader {
        var panel = FloatingPanelConfiguration()
        panel.anchors = [
            AnchorEntry(state: .full, anchor: .inset(53, isFractional: false, edge: .top, guide: .safeArea)),
            AnchorEntry(state: .half, anchor: .inset(388, isFractional: false, edge: .bottom, guide: .safeArea)),
            AnchorEntry(state: .tip, anchor: .inset(69, isFractional: false, edge: .bottom, guide: .safeArea)),
        ]
        return TraceHeader(
            name: name, environment: PanelEnvironment(container: Size(width: 390, height: 844)), panel: panel)
    }

    /// A vertical drag from y0 by dy in `moves` moved samples at 120 Hz, released at velocity v (pt/s).
    static func flick(_ name: String, y0: Double, dy: Double, moves: Int, velocity v: Double) -> Trace {
        var samples = [TraceSample(time: 0, kind: .touch(TouchSample(phase: .began, location: Point(x: 195, y: y0))))]
        for i in 1...moves {
            samples.append(
                TraceSample(
                    time: Int64(i) * 8_333,
                    kind: .touch(
                        TouchSample(
                            phase: .moved, location: Point(x: 195, y: y0 + dy * Double(i) / Double(moves))))))
        }
        samples.append(
            TraceSample(
                time: Int64(moves) * 8_333,
                kind: .touch(
                    TouchSample(
                        phase: .ended, location: Point(x: 195, y: y0 + dy), velocity: Point(x: 0, y: v)))))
        return Trace(header: header(name), samples: samples)
    }

    static let hidden: [Double] = [0.55, 0.985]
    static let parameters: [TunableParameter] = [.springResponseTime, .springDecelerationRate]

    /// Traces whose observations come from the hidden values, with ±0.2 pt of seeded noise.
    static var tuningTraces: [Trace] {
        [
            flick("up-fast", y0: 600, dy: -60, moves: 6, velocity: -1800),
            flick("slow", y0: 600, dy: -100, moves: 40, velocity: -200),
        ].enumerated().map { i, t in
            ObservationSynthesizer(parameters: parameters, values: hidden, every: 2, noise: 0.2, seed: UInt64(i + 1))
                .observe(t)
        }
    }

    func testShiftedObservationReportsTheShift() {
        let trace = Self.flick("up", y0: 600, dy: -60, moves: 6, velocity: -1800)
        let result = simulate(trace)
        let timeline = FrameTimeline(result: result, frameRate: 120)
        guard let last = timeline.last else { return XCTFail("no frames") }
        var observed = trace
        for k in stride(from: 0, through: last.index + 10, by: 3) {
            let t = frameTime(k, frameRate: 120)
            let f = timeline.frame(at: t)!
            observed.samples.append(
                TraceSample(time: t, kind: .observed(ObservedSample(location: f.location + 3, state: f.state))))
        }
        observed.samples.sort { $0.time < $1.time }
        let m = Fidelity.measure(trace: observed, result: simulate(observed))
        XCTAssertEqual(m.location.count, (last.index + 10) / 3 + 1)
        XCTAssertEqual(m.location.rms!, 3, accuracy: 1e-9)
        XCTAssertEqual(m.location.maximum, 3, accuracy: 1e-9)
        XCTAssertEqual(m.finalStateAgrees, true)
        XCTAssertEqual(m.statesMatched, m.statesObserved)
        // A constant shift does not move the settle time beyond the observation spacing (3 frames).
        XCTAssertLessThanOrEqual(abs(m.settleTimeError!), 3.0 / 120 + 1e-9)
        // Unshifted: zero error.
        let exact = ObservationSynthesizer(parameters: [], values: [], every: 1).observe(trace)
        let z = Fidelity.measure(trace: exact, result: simulate(exact))
        XCTAssertEqual(z.location.rms, 0)
        XCTAssertEqual(z.settleTimeError, 0)
    }

    func testTimelineCarriesFramesForward() {
        let frames = [
            FrameRecord(
                index: 0, location: 10, state: "half", backdropAlpha: 0, isAttracting: false, isDragging: false),
            FrameRecord(index: 5, location: 20, state: "half", backdropAlpha: 0, isAttracting: true, isDragging: false),
            FrameRecord(
                index: 6, location: 20.5, state: "full", backdropAlpha: 0, isAttracting: false, isDragging: false),
        ]
        let timeline = FrameTimeline(result: SimulationResult(records: frames.map { .frame($0) }), frameRate: 120)
        XCTAssertEqual(timeline.frame(at: 0)?.location, 10)
        XCTAssertEqual(timeline.frame(at: frameTime(5, frameRate: 120) - 1)?.location, 10)
        XCTAssertEqual(timeline.frame(at: frameTime(5, frameRate: 120))?.location, 20)
        XCTAssertEqual(timeline.frame(at: 9_000_000)?.location, 20.5)
        XCTAssertEqual(timeline.settleTime(tolerance: 1), frameTime(5, frameRate: 120))
        XCTAssertEqual(timeline.settleTime(tolerance: 0.1), frameTime(6, frameRate: 120))
        XCTAssertEqual(timeline.settleTime(tolerance: 20), 0)
    }

    func testOvershootOfAnUnderdampedFlick() {
        // Default behavior: ζ = ln(0.991)·0.4/(−2π·0.001) ≈ 0.58 for a fast release, so it overshoots.
        let fast = simulate(Self.flick("up", y0: 600, dy: -60, moves: 6, velocity: -1800))
        XCTAssertGreaterThan(FrameTimeline.overshoot(fast, frameRate: 120), 1)
        // A slow release is critically damped (ζ = 1): no overshoot.
        let slow = simulate(Self.flick("slow", y0: 600, dy: -100, moves: 40, velocity: -200))
        XCTAssertEqual(FrameTimeline.overshoot(slow, frameRate: 120), 0)
    }

    func testTuneRecoversHiddenParametersWithAnyJobCount() {
        let traces = Self.tuningTraces
        let ranges = [
            ParameterRange(parameter: .springResponseTime, lower: 0.1, upper: 1.0),
            ParameterRange(parameter: .springDecelerationRate, lower: 0.95, upper: 0.9999),
        ]
        let options = TuningOptions(gridSteps: 5, precision: 1e-4)
        let one = Tuner.run(
            TuningProblem(traces: traces, parameters: Self.parameters, jobs: 1), ranges: ranges, options: options)
        let two = Tuner.run(
            TuningProblem(traces: traces, parameters: Self.parameters, jobs: 2), ranges: ranges, options: options)
        XCTAssertEqual(one.best.map(\.bitPattern), two.best.map(\.bitPattern))
        XCTAssertEqual(one.bestError.bitPattern, two.bestError.bitPattern)
        XCTAssertEqual(one.evaluations, two.evaluations)
        XCTAssertEqual(one.best[0], 0.55, accuracy: 0.0055)
        XCTAssertEqual(one.best[1], 0.985, accuracy: 0.00985)
        XCTAssertEqual(one.best[1], 0.985, accuracy: 0.0005)  // much tighter in practice
        // Uniform noise of ±0.2 pt has an RMS of 0.2/√3 ≈ 0.115 pt: the fit reaches the noise floor.
        XCTAssertLessThan(one.bestError, 0.13)
        // The header's own values are far off.
        let before = TuningProblem(traces: traces, parameters: []).evaluate([[]])[0]
        XCTAssertGreaterThan(TuningProblem.objective(before), 5)
    }

    func testParallelMapGathersByIndex() {
        for jobs in [1, 2, 3, 8] {
            XCTAssertEqual(parallelMap(count: 37, jobs: jobs) { $0 * $0 }, (0..<37).map { $0 * $0 })
        }
        XCTAssertEqual(parallelMap(count: 0, jobs: 4) { $0 }, [])
    }

    func testParameterRangeParsing() {
        XCTAssertEqual(
            try ParameterRange.parse("springResponseTime=0.1...1.0").get(),
            ParameterRange(parameter: .springResponseTime, lower: 0.1, upper: 1.0))
        XCTAssertEqual(try ParameterRange.parse("redirectionalProgress=0...1:3").get().grid(steps: 3), [0, 0.5, 1])
        XCTAssertEqual(try ParameterRange.parse("momentumProjectionRate=0.998").get().grid(steps: 9), [0.998])
        let r = try! ParameterRange.parse("springDecelerationRate=0.95...0.9999:7").get()
        XCTAssertEqual(r.grid(steps: r.steps!).last, 0.9999)
        for (text, message) in [
            ("bogus=1", "unknown parameter 'bogus'"), ("springResponseTime", "--param expects NAME=A...B"),
            ("springResponseTime=1...0.5", "lower bound 1 exceeds upper bound 0.5"),
            ("springDecelerationRate=0.9...1.2", "outside the values the simulator accepts"),
            ("springResponseTime=0.1...1:1", "a range needs at least 2 steps"),
            ("springResponseTime=a...b", "expected A...B (numbers)"),
        ] {
            guard case .failure(let e) = ParameterRange.parse(text) else {
                XCTFail(text)
                continue
            }
            XCTAssertTrue(e.message.contains(message), e.message)
        }
    }

    // MARK: Commands

    func writeTuningTraces() throws -> [String] {
        var paths: [String] = []
        for t in Self.tuningTraces {
            try write(TraceWriter.write(t), "traces/\(t.header.name).jsonl")
            paths.append("traces/\(t.header.name).jsonl")
        }
        return paths
    }

    func testFidelityTableAndJSON() throws {
        let paths = try writeTuningTraces()
        let table = run(["fidelity"] + paths)
        XCTAssertEqual(table.code, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasPrefix("trace "), table.stdout)
        XCTAssertTrue(table.stdout.contains("\noverall "), table.stdout)
        XCTAssertTrue(table.stdout.contains("full/full ok"), table.stdout)
        let json = run(["fidelity", "--json"] + paths)
        XCTAssertEqual(json.code, 0)
        XCTAssertTrue(json.stdout.hasPrefix(#"{"settleTolerance": 1, "traces": ["# + "\n"), json.stdout)
        XCTAssertTrue(
            json.stdout.contains(#""finalState": {"observed": "full", "simulated": "full", "agrees": true}"#),
            json.stdout)
        XCTAssertTrue(json.stdout.contains(#""overall": {"location": {"count": "#), json.stdout)
    }

    /// `--max-rms PT`: exit 1 naming exactly the traces whose reported location RMS is above PT,
    /// exit 0 when none is; the table is written either way.
    func testFidelityMaxRMSFailsExactlyTheTracesAboveIt() throws {
        let paths = try ["flick-down-fast", "flick-up-fast", "slow-release", "up-then-down"].map { name in
            let path = "traces/\(name).jsonl"
            try write(String(contentsOfFile: RepositoryCorpusTests.root + "/traces/tune/\(name).jsonl", encoding: .utf8), path)
            return path
        }
        let json = run(["fidelity", "--json"] + paths)
        XCTAssertEqual(json.code, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let traces = try XCTUnwrap(object["traces"] as? [[String: Any]])
        let rms = try traces.map { t -> (String, Double) in
            let location = try XCTUnwrap(t["location"] as? [String: Any])
            return (try XCTUnwrap(t["trace"] as? String), try XCTUnwrap(location["rms"] as? Double))
        }
        XCTAssertEqual(rms.count, 4)
        let sorted = rms.map(\.1).sorted()
        // Between the second and third smallest: two traces above, two within.
        let limit = (sorted[1] + sorted[2]) / 2
        let verdict = run(["fidelity", "--max-rms", String(limit)] + paths)
        XCTAssertEqual(verdict.code, 1)
        XCTAssertTrue(verdict.stdout.contains("\noverall "), verdict.stdout)
        let named = verdict.stderr.split(separator: "\n").map { $0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(named, rms.filter { $0.1 > limit }.map(\.0))
        XCTAssertEqual(named.count, 2)
        XCTAssertEqual(run(["fidelity", "--max-rms", String(sorted[3])] + paths).code, 0)
        let negative = run(["fidelity", "--max-rms", "-1"] + paths)
        XCTAssertEqual(negative.code, 2)
        XCTAssertTrue(negative.stderr.contains("--max-rms must be a number of points >= 0, got '-1'"), negative.stderr)
    }

    /// Ranges that leave the hidden values out: the best values land on the range ends, and
    /// standard error says which, with the end, for each (the run above, whose ranges hold the
    /// hidden values, warns about nothing).
    func testTuneWarnsWhenTheBestValueIsOnARangeEnd() throws {
        let paths = try writeTuningTraces()
        let result = run(
            ["tune"] + paths + [
                "--param", "springResponseTime=0.1...0.5", "--param", "springDecelerationRate=0.99...0.9999",
                "--grid", "4", "--precision", "1e-3",
            ])
        let best = try Self.parameters.map { p -> Double in
            let line = try XCTUnwrap(
                result.stdout.split(separator: "\n").first { $0.hasPrefix("  \(p.rawValue) ") }, result.stdout)
            return try XCTUnwrap(Double(line.split(separator: " ")[1]), String(line))
        }
        let ranges: [(Double, Double)] = [(0.1, 0.5), (0.99, 0.9999)]
        var warned = 0
        for ((p, value), (low, high)) in zip(zip(Self.parameters, best), ranges) {
            let end = value == low ? "lower" : value == high ? "upper" : nil
            let fragment = "warning: \(p.rawValue)'s best value"
            if let end {
                warned += 1
                XCTAssertTrue(
                    result.stderr.contains(
                        "\(fragment) \(TuneCLI.short(value)) is at the \(end) end of its range "
                            + "\(TuneCLI.short(low))...\(TuneCLI.short(high)); the best fit may lie beyond it"),
                    result.stderr)
            } else {
                XCTAssertFalse(result.stderr.contains(fragment), result.stderr)
            }
        }
        XCTAssertGreaterThan(warned, 0, "the hidden response time 0.55 lies above 0.1...0.5:\n\(result.stdout)")
    }

    func testTuneCommandIsIdenticalForAnyJobCountAndWritesAReport() throws {
        let paths = try writeTuningTraces()
        let args =
            ["tune"] + paths + [
                "--param", "springResponseTime=0.1...1.0", "--param=springDecelerationRate=0.95...0.9999",
                "--grid", "4", "--precision", "1e-3",
            ]
        let one = run(args + ["--jobs", "1", "--report", "out/report.html"])
        let two = run(args + ["-j", "2"])
        XCTAssertEqual(one.code, 0, one.stderr)
        XCTAssertEqual(one.stderr, "wrote out/report.html\n")  // no progress: standard error is not a terminal (it says what it wrote)
        XCTAssertEqual(one.stdout.replacingOccurrences(of: "jobs 1", with: "jobs 2"), two.stdout)
        XCTAssertTrue(one.stdout.contains("best parameters:\n  springResponseTime      0.55"), one.stdout)
        // The profile-likelihood intervals ([A, B], or value ± D when narrower than the
        // resolution D) hold the hidden values.
        for (name, truth) in zip(["springResponseTime", "springDecelerationRate"], Self.hidden) {
            let line = try XCTUnwrap(one.stdout.split(separator: "\n").first { $0.hasPrefix("  \(name) ") }, one.stdout)
            let words = line.split(separator: " ")
            let value = try XCTUnwrap(Double(words[1]), String(line))
            var ends: [Double] = []
            if let d = line.range(of: "< precision (±").map({ line[$0.upperBound...].prefix { $0 != ")" } }).flatMap({
                Double($0)
            }) {
                ends = [value - d, value + d]
            } else if let inside = line.split(separator: "[").last?.split(separator: "]").first {
                ends = inside.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            }
            guard ends.count == 2 else {
                XCTFail("no interval: \(line)")
                continue
            }
            XCTAssertTrue(ends[0] <= truth && truth <= ends[1], String(line))
        }
        let html = try XCTUnwrap(read("out/report.html"))
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        // Per trace, at full width: the location chart (header values and tuned replays, observed
        // samples) and the error at the observations; each wide and narrow.
        XCTAssertEqual(
            html.components(
                separatedBy: "<svg class=\"plot wide\" xmlns=\"http://www.w3.org/2000/svg\" width=\"1120.0\""
            ).count - 1, 4)
        XCTAssertEqual(html.components(separatedBy: "<svg class=\"plot narrow\"").count - 1, 4)
        XCTAssertEqual(
            html.components(separatedBy: "<h3>Error at the observations: replay − observed (pt; larger is lower)</h3>")
                .count - 1, 2)
        XCTAssertTrue(
            html.contains(">header state</text>") && html.contains(">tuned events</text>"),
            "state strips and lanes of both replays")
        XCTAssertFalse(html.contains("src=") || html.contains("href="), "self-contained")
    }

    func testSweepWritesOneRowPerPointAndAChart() throws {
        let paths = try writeTuningTraces()
        let r = run(
            ["sweep"] + paths + [
                "--param", "springResponseTime=0.45...0.65:3", "--param", "springDecelerationRate=0.985",
                "--svg", "plot.svg", "-j", "2",
            ])
        XCTAssertEqual(r.code, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(
            lines[0],
            "springResponseTime,springDecelerationRate,rms,max,up-fast.settleTime,up-fast.overshoot,up-fast.finalState,up-fast.rms,slow.settleTime,slow.overshoot,slow.finalState,slow.rms"
        )
        XCTAssertTrue(lines[2].hasPrefix("0.55,0.985,0.1"), String(lines[2]))
        XCTAssertTrue(lines[2].contains(",full,"))
        XCTAssertTrue(
            try XCTUnwrap(read("plot.svg")).hasPrefix("<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\""))
        XCTAssertEqual(
            run(
                ["sweep"] + paths + [
                    "--param", "springResponseTime=0.45...0.65:3", "--param", "springDecelerationRate=0.985", "-j", "1",
                ]
            ).stdout, r.stdout)
    }

    func testObserveIsReproducibleAndKeepsTheHeader() throws {
        try write(TraceWriter.write(Self.flick("up", y0: 600, dy: -60, moves: 6, velocity: -1800)), "in.jsonl")
        let args = [
            "observe", "in.jsonl", "--param", "springResponseTime=0.55", "--every", "2", "--noise", "0.2", "--seed",
            "3",
        ]
        let a = run(args)
        let b = run(args)
        XCTAssertEqual(a.code, 0, a.stderr)
        XCTAssertEqual(a.stdout, b.stdout)
        let trace = try TraceLoader.parse(text: a.stdout, file: "o")
        XCTAssertEqual(trace.header.panel.behavior, PanelBehavior())
        XCTAssertTrue(
            trace.header.source.origin.hasSuffix(
                "observed: panelsim observe --param springResponseTime=0.55 --every 2 --noise 0.2 --seed 3"))
        XCTAssertTrue(Fidelity.hasObservedLocations(trace))
        // Observations are not inputs: the replay is the same with or without them.
        XCTAssertEqual(
            simulate(trace).records, simulate(Self.flick("up", y0: 600, dy: -60, moves: 6, velocity: -1800)).records)
    }

    func testHelpAndUsageErrors() {
        for name in ["fidelity", "tune", "sweep", "observe"] {
            let h = run(["help", name])
            XCTAssertEqual(h.code, 0)
            XCTAssertTrue(h.stdout.contains("USAGE: panelsim \(name) "), h.stdout)
            XCTAssertTrue(PanelSimCommand.helpText.contains("\n  \(name) "), name)
        }
        XCTAssertTrue(run(["help", "tune"]).stdout.contains("  --param NAME=A...B[:STEPS]"))
        XCTAssertTrue(run(["help", "tune"]).stdout.contains("bit-identical for any --jobs"))
        let cases: [([String], String)] = [
            (["tune", "a.jsonl"], "missing --param NAME=A...B"),
            (
                ["tune", "a.jsonl", "--param", "springResponseTime=0.1...1", "--precision", "1e-300"],
                "--precision must be a number in [1e-12, 1), got '1e-300'"
            ),
            (["tune", "a.jsonl", "--param", "x=1"], "unknown parameter 'x'"),
            (
                ["tune", "a.jsonl", "--param", "springResponseTime=0.1...1", "--param", "springResponseTime=0.2...1"],
                "parameter 'springResponseTime' given twice"
            ),
            (
                ["tune", "a.jsonl", "--param", "springResponseTime=0.1...1", "--jobs", "0"],
                "--jobs must be an integer in 1…1024, got '0'"
            ),
            (
                ["tune", "a.jsonl", "--param", "springResponseTime=0.1...1", "--grid", "1"],
                "--grid must be an integer in 2…101, got '1'"
            ),
            (
                ["sweep", "a.jsonl", "--param", "springResponseTime=0.1...1", "--plot", "fun"],
                "--plot must be rms, settleTime or overshoot, got 'fun'"
            ),
            (
                ["observe", "a.jsonl", "--param", "springResponseTime=0.1...1"],
                "springResponseTime: observe takes one value (NAME=V), not a range"
            ),
            (["fidelity"], "missing TRACE"),
        ]
        for (args, message) in cases {
            let r = run(args)
            XCTAssertEqual(r.code, 2, args.joined(separator: " "))
            XCTAssertTrue(r.stderr.hasPrefix("error: " + message), r.stderr)
        }
    }

    func testTuneRejectsTracesWithoutObservations() throws {
        try write(TraceWriter.write(Self.flick("up", y0: 600, dy: -60, moves: 6, velocity: -1800)), "plain.jsonl")
        let r = run(["tune", "plain.jsonl", "--param", "springResponseTime=0.1...1"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "error: plain.jsonl: no observed locations to tune against\n")
    }
}
