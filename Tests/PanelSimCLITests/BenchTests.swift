import XCTest
@testable import PanelSimCLI
import PanelSimCore
import PanelTrace

/// `panelsim bench --quick` runs in-process and its JSON has every section. No timing assertions:
/// CI machines vary; the budgets are checked by hand with the release build (BENCHMARKS.md).
final class BenchTests: XCTestCase {
    func testQuickBenchJSONHasEverySection() throws {
        var options = BenchOptions.quickRun
        options.cSource = nil  // no compiler needed in CI
        let report = try Bench.run(options)
        let json = report.json()
        let value = try JSON.parse(json)
        guard case .object(let root) = value else { return XCTFail("not an object: \(json)") }
        for section in ["machine", "core", "endToEnd", "load", "scaling", "budgets"] {
            XCTAssertNotNil(root[section], "missing section \(section)")
        }
        XCTAssertEqual(report.endToEnd.passed, report.endToEnd.traces, "every generated trace passes its golden")
        XCTAssertEqual(report.systemChecks.map(\.system), ["DrawerKit", "UISheet", "LNPopup"], "in registry order")
        for check in report.systemChecks {
            XCTAssertEqual(check.traces, options.traces, check.system)
            XCTAssertEqual(check.passed, check.traces, "every generated \(check.system) trace passes its golden")
            XCTAssertGreaterThan(check.simulatedSeconds, 0, check.system)
            XCTAssertTrue(report.table().contains("\(check.system) check, 1 job (traces/s)"), report.table())
        }
        guard case .object(let endToEnd)? = root["endToEnd"], case .array(let systems)? = endToEnd["systems"] else {
            return XCTFail("endToEnd.systems missing: \(json)")
        }
        XCTAssertEqual(systems.count, 3)
        XCTAssertEqual(report.core.systems.map(\.system), ["DrawerKit", "LNPopup", "UISheet"], "ordered by name")
        for s in report.core.systems {
            XCTAssertEqual(s.ratios.count, options.runs, "one pair per run: \(s.system)")
            XCTAssertEqual(s.toDragRatios.count, options.runs, "one pair with the drag replay per run: \(s.system)")
            XCTAssertGreaterThanOrEqual(s.replaySeconds.count, options.runs, "every replay timed: \(s.system)")
            XCTAssertTrue(report.table().contains(" of drag+attraction"), report.table())
            XCTAssertGreaterThan(s.frames, 0, s.system)
            XCTAssertTrue(report.table().contains("| \(s.system) \(s.label) replay (frames/s CPU)"), report.table())
            XCTAssertTrue(report.budgets.contains { $0.name == "core \(s.system) / bare loop" }, s.system)
        }
        guard case .object(let core)? = root["core"] else { return XCTFail("core missing: \(json)") }
        for key in ["drawerKit", "lnPopup", "uiSheet"] {
            for member in ["FramesPerSecond", "Ratio", "ToDragRatio", "FastestTenthRatio", "FramesPerReplay"] {
                XCTAssertNotNil(core[key + member], key + member)
            }
        }
        XCTAssertEqual(report.load.samples, options.loadSamples)
        XCTAssertGreaterThan(report.core.attractionFrames, 0)
        XCTAssertGreaterThan(report.core.dragFrames, 0)
        XCTAssertTrue(report.table().contains("bare spring loop"))
        guard case .object(let scaling)? = root["scaling"], case .number? = scaling["machineCapacity"] else {
            return XCTFail("scaling.machineCapacity missing: \(json)")
        }
        XCTAssertGreaterThan(report.endToEnd.machineCapacity, 0)
        // The build is named, and a debug build's table says its numbers are not the budgets'.
        XCTAssertEqual(root["build"], .string(BenchReport.isOptimizedBuild ? "release" : "debug"))
        XCTAssertEqual(report.table().hasPrefix("WARNING: a debug build"), !BenchReport.isOptimizedBuild)
    }

    /// The core ratios are medians of per-run pairs (replay rate over the same run's bare rate),
    /// not ratios of medians: a slow phase that hits one run's replay and bare loop alike cancels.
    func testCoreRatiosAreMediansOfPerRunPairs() throws {
        var options = BenchOptions.quickRun
        options.cSource = nil
        var report = try Bench.run(options)
        XCTAssertEqual(report.core.dragRatios.count, options.runs, "one pair per run")
        XCTAssertEqual(report.core.attractionRatios.count, options.runs)
        // Three runs in which the machine ran at full, half and full speed: bare 50, 25, 50 M
        // steps/s with replays at 0.4, 0.4 and 0.2 of them. Ratio of medians: 10/50 = 0.2 for the
        // drag; median of pairs: 0.4.
        report.core.bareStepsPerSecond = 50e6
        report.core.dragFramesPerSecond = 10e6
        report.core.dragRatios = [20e6 / 50e6, 10e6 / 25e6, 10e6 / 50e6]
        XCTAssertEqual(report.dragRatio, 0.4, accuracy: 1e-12)
        XCTAssertTrue(report.table().contains("0.400 of bare (runs 0.200–0.400)"), report.table())
        report.core.dragRatios = []
        XCTAssertEqual(report.dragRatio, 0.2, accuracy: 1e-12, "without pairs: the ratio of medians")
    }

    /// The fastest tenth of each side: the replay time a tenth of the way up from the shortest,
    /// and the bare loop's part rate a tenth of the way down from the highest.
    func testFastestTenthRatioReadsTheFastestTenthOfEachSide() throws {
        var options = BenchOptions.quickRun
        options.cSource = nil
        var report = try Bench.run(options)
        XCTAssertEqual(
            report.core.barePartRates.count, options.runs * 10 * (1 + report.core.systems.count),
            "ten parts before the drag+attraction row and each system's row")
        XCTAssertLessThan(report.core.dragReplaySeconds.count, 10, "a quick run replays each row once")
        XCTAssertNil(
            report.fastestTenthRatio(replaySeconds: report.core.dragReplaySeconds, frames: 1),
            "fewer than ten replays: no tenth")
        XCTAssertFalse(report.table().contains("fastest tenth"), "no note without a ratio")
        // Twenty replays of 1.0, 1.1, … 2.9 ms out of order: the fastest tenth ends at the second
        // shortest, 1.1 ms. Twenty bare parts at 10, 20, … 200 M steps/s out of order: the fastest
        // tenth ends at the second highest, 190 M.
        let replays = (0..<20).map { Double(($0 * 7) % 20) * 1e-4 + 1e-3 }
        report.core.barePartRates = (0..<20).map { Double(($0 * 3) % 20 + 1) * 10e6 }
        let ratio = try XCTUnwrap(report.fastestTenthRatio(replaySeconds: replays, frames: 20_900))
        XCTAssertEqual(ratio, 20_900 / 1.1e-3 / 190e6, accuracy: 1e-12)
        XCTAssertEqual(report.fastestTenthNote(replays, frames: 20_900), "; fastest tenth 0.100 of bare")
        XCTAssertEqual(
            report.fastestTenthRatio(replaySeconds: replays + [0, 0], frames: 20_900), ratio,
            "replays the clock saw take no time are left out")
        XCTAssertNil(report.fastestTenthRatio(replaySeconds: Array(replays.prefix(9)), frames: 20_900))
        report.core.barePartRates = []
        XCTAssertEqual(report.fastestTenthNote(replays, frames: 20_900), "", "no bare parts: no note")
    }

    /// The bare loop steps exactly NumericSpring.advance's arithmetic (bit for bit).
    func testBareLoopMatchesNumericSpring() {
        let springs = BareSpring.workload()
        var spring = springs[0]
        var steps = 0
        while !spring.advance() { steps += 1 }
        steps += 1
        // One full spring, then the first step of the next one. The loop returns the sum of each
        // spring's value where it stopped, plus the start value of the spring after the last.
        var next = springs[1]
        _ = next.advance()
        XCTAssertEqual(BareSpring.loop(springs, steps: steps + 1), spring.value + next.value + springs[2].value)
    }

    func testGeneratedCorpusIsDeterministic() {
        XCTAssertEqual(BenchCorpus.variedTrace(index: 7), BenchCorpus.variedTrace(index: 7))
        XCTAssertNotEqual(BenchCorpus.variedTrace(index: 7), BenchCorpus.variedTrace(index: 8))
    }

    /// The other systems' corpora: the same text for the same index, valid traces of their model
    /// whose replays move the panel (frames beyond frame 0) in most traces.
    func testSystemCorporaAreDeterministicAndReplay() throws {
        for (system, trace) in Bench.systemCorpora {
            XCTAssertEqual(trace(7), trace(7), system)
            XCTAssertNotEqual(trace(7), trace(8), system)
            var moving = 0
            for i in 0..<40 {
                let text = trace(i)
                XCTAssertTrue(
                    text.hasPrefix(
                        "{\"format\": \"panelsim-trace\", \"version\": 1, \"model\": \"\(system.lowercased())\""),
                    "\(system) \(i)")
                let loaded = try TraceLoader.parse(text: text, file: "\(system)-\(i).jsonl")
                if simulate(loaded).records.frameCount > 3 { moving += 1 }
            }
            XCTAssertGreaterThan(moving, 20, "\(system): most traces animate")
        }
    }

    func testHiddenCommandsStayOutOfHelp() {
        XCTAssertTrue(PanelSimCommand.helpText.contains("bench"))
        XCTAssertFalse(PanelSimCommand.helpText.contains("bench-load"))
    }
}
