import XCTest
@testable import PanelSimCLI
import PanelSimCore
import PanelTrace

/// `panelsim bench --quick` runs in-process and its JSON has every section. No timing assertions:
/// CI machines vary; the budgets are checked by hand with the release build (BENCHMARKS.md).
final class BenchTests: XCTestCase {
    func testQuickBenchJSONHasEverySection() throws {
        var options = BenchOptions.quickRun
        options.cSource = nil // no compiler needed in CI
        let report = try Bench.run(options)
        let json = report.json()
        let value = try JSON.parse(json)
        guard case .object(let root) = value else { return XCTFail("not an object: \(json)") }
        for section in ["machine", "core", "endToEnd", "load", "scaling", "budgets"] {
            XCTAssertNotNil(root[section], "missing section \(section)")
        }
        XCTAssertEqual(report.endToEnd.passed, report.endToEnd.traces, "every generated trace passes its golden")
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

    func testHiddenCommandsStayOutOfHelp() {
        XCTAssertTrue(PanelSimCommand.helpText.contains("bench"))
        XCTAssertFalse(PanelSimCommand.helpText.contains("bench-load"))
    }
}
