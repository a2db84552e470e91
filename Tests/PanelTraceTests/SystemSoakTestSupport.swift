import XCTest
import PanelSimCore
import PanelTrace
import PanelInvariants

/// Helpers of the newer systems' soak tests: a trace from its text, its replay, the rules the
/// system's checker reports for the replay or for a tampered copy of it.
enum SoakTestSupport {
    static func trace(_ lines: [String], file: String = "soak-test.jsonl") throws -> Trace {
        try TraceLoader.parse(text: lines.joined(separator: "\n") + "\n", file: file)
    }

    /// The violation keys (`rule@variant:kind`) `soak` reports on `records` as the replay of `trace`.
    static func keys(_ soak: any SystemSoak, _ trace: Trace, _ records: [ResultRecord]) -> Set<String> {
        Set(soak.check(trace, result: SimulationResult(records: records)).violations.map(\.key))
    }

    /// The rules `soak` reports on `records`.
    static func rules(_ soak: any SystemSoak, _ trace: Trace, _ records: [ResultRecord]) -> Set<String> {
        Set(soak.check(trace, result: SimulationResult(records: records)).violations.map(\.rule))
    }

    static func replay(_ trace: Trace) -> [ResultRecord] { Array(simulate(trace).records) }

    /// The regression trace `traces/soak/<folder>/<name>.jsonl` (a model bug the soak found).
    static func regression(_ folder: String, _ name: String) throws -> Trace {
        let url = CorpusExpectationTests.repositoryRoot.appendingPathComponent("traces/soak/\(folder)/\(name).jsonl")
        return try TraceLoader.load(path: url.path).trace
    }

    /// The names of the events of `records`, in order.
    static func eventNames(_ records: [ResultRecord]) -> [String] {
        records.compactMap { if case .event(_, .system(let e)) = $0 { return e.name } else { return nil } }
    }

    /// The frames of `records` with their positions.
    static func frames(_ records: [ResultRecord]) -> [(index: Int, frame: SystemFrame)] {
        records.enumerated().compactMap {
            if case .systemFrame(let f) = $0.element { return ($0.offset, f) } else { return nil }
        }
    }

    /// The position of the first event named `name` (after position `after`).
    static func event(_ records: [ResultRecord], _ name: String, after: Int = -1) -> Int? {
        records.indices.first { i in
            guard i > after, case .event(_, .system(let e)) = records[i] else { return false }
            return e.name == name
        }
    }

    /// `f` with channel `key` set to `value`.
    static func setting(_ f: SystemFrame, _ key: String, _ value: FieldValue) -> SystemFrame {
        var g = f
        if let i = g.channels.firstIndex(where: { $0.key == key }) { g.channels[i].value = value }
        return g
    }

    /// `records` with frame `i` changed by `change`.
    static func tamper(_ records: [ResultRecord], frameAt i: Int, _ change: (SystemFrame) -> SystemFrame)
        -> [ResultRecord]
    {
        var out = records
        if case .systemFrame(let f) = out[i] { out[i] = .systemFrame(change(f)) }
        return out
    }

    /// The count of rule `id`'s evaluations on the untampered replay (so a passing rule is seen
    /// to have been checked).
    static func count(_ soak: any SystemSoak, _ trace: Trace, _ id: String) -> Int {
        soak.check(trace, result: simulate(trace)).counts[id]
    }

    /// The generator gives the same valid trace of `soak`'s model for the same seed, and other
    /// traces for other seeds.
    static func assertGeneratorIsDeterministicAndValid(
        _ soak: any SystemSoak, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for seed: UInt64 in [1, 2, 99] {
            let a = TraceWriter.write(soak.trace(seed: seed))
            XCTAssertEqual(a, TraceWriter.write(soak.trace(seed: seed)), file: file, line: line)
            XCTAssertFalse(a.contains("GENERATOR ERROR"), a, file: file, line: line)
            XCTAssertEqual(
                try TraceLoader.parse(text: a, file: "g.jsonl").header.model, soak.model, file: file, line: line)
        }
        XCTAssertNotEqual(
            TraceWriter.write(soak.trace(seed: 1)), TraceWriter.write(soak.trace(seed: 2)), file: file, line: line)
    }

    /// A bounded soak of `seeds`: no generator error, no violation; returns the summed counts.
    static func boundedSoak(
        _ soak: any SystemSoak, seeds: ClosedRange<UInt64>, file: StaticString = #filePath, line: UInt = #line
    ) -> SoakCounts {
        var counts = SoakCounts()
        for seed in seeds {
            let outcome = Soak.run(seed: seed, system: soak)
            XCTAssertNil(outcome.generatorError, file: file, line: line)
            XCTAssertEqual(
                outcome.violations.map(\.key), [],
                "panelsim soak --model \(soak.model.rawValue) --seed \(seed) --count 1",
                file: file, line: line)
            counts += outcome.counts
        }
        return counts
    }
}
