import XCTest
import Foundation
import PanelSimCore
import PanelTrace

/// Replays every trace under `traces/` whose description carries an `expect:` clause
/// (`state=<name> location=<pt> removed=<bool>`) and checks the outcome. The clauses are computed
/// outside the simulator (scripts/make_corpus.py, from the spec's formulas), so this is what makes a
/// blessed golden trustworthy: the golden's final state, resting location and removal decision
/// must match an independent computation. Also asserts invariants G1 (rest on an anchor) and G2
/// (event pairing) on every trace.
final class CorpusExpectationTests: XCTestCase {
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func traceFiles() -> [URL] {
        let root = repositoryRoot.appendingPathComponent("traces")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "jsonl" } ?? []
        return files.sorted { $0.path < $1.path }
    }

    func testEveryExpectationHolds() throws {
        var checked = 0
        for url in Self.traceFiles() {
            let loaded = try TraceLoader.load(path: url.path)
            guard let range = loaded.trace.header.description.range(of: "expect: ") else { continue }
            var expected: [String: String] = [:]
            for pair in loaded.trace.header.description[range.upperBound...].split(separator: " ") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { expected[String(kv[0])] = String(kv[1]) }
            }
            let result = simulate(loaded.trace)
            let name = url.lastPathComponent
            let last = try XCTUnwrap(result.frames.last, name)
            XCTAssertEqual(last.state, expected["state"], name)
            XCTAssertEqual(last.location, expected["location"].flatMap(Double.init), name)
            XCTAssertEqual(result.eventNames.contains("didRemove"), expected["removed"] == "true", name)
            XCTAssertFalse(result.budgetExceeded, name)
            checked += 1
        }
        XCTAssertEqual(checked, 65, "flicks 48, scenarios 5, custom states 4, mirrored positions 8")
    }

    func testInvariantsOnEveryTrace() throws {
        for url in Self.traceFiles() {
            let loaded = try TraceLoader.load(path: url.path)
            let result = simulate(loaded.trace)
            let name = url.lastPathComponent
            let geometry = LayoutGeometry(panel: loaded.trace.header.panel, environment: loaded.trace.header.environment)
            // G1: at rest the surface location equals an anchor position (hidden included).
            if let last = result.frames.last, !last.isAttracting, !last.isDragging {
                let anchors = Set(loaded.trace.header.panel.anchors.map { geometry.position(of: $0.state) } + [geometry.position(of: .hidden)])
                XCTAssertTrue(anchors.contains(last.location), "\(name): rests at \(last.location), not on an anchor")
            }
            // G2: attraction begin/end pair up; each willBeginDragging ends with didEndDragging or willRemove.
            var attracting = 0, dragging = 0
            for e in result.eventNames {
                switch e {
                case "willBeginAttracting": attracting += 1; XCTAssertEqual(attracting, 1, "\(name): nested attraction")
                case "didEndAttracting": attracting -= 1; XCTAssertEqual(attracting, 0, "\(name): unpaired didEndAttracting")
                case "willBeginDragging": dragging += 1; XCTAssertEqual(dragging, 1, "\(name): nested drag")
                case "didEndDragging", "willRemove": if dragging > 0 { dragging -= 1 }
                default: break
                }
            }
            XCTAssertEqual(attracting, 0, "\(name): attraction never ended")
            XCTAssertEqual(dragging, 0, "\(name): drag never ended")
        }
    }
}

private extension SimulationResult {
    var frames: [FrameRecord] { records.compactMap { if case let .frame(f) = $0 { return f } else { return nil } } }
    var eventNames: [String] { records.compactMap { if case let .event(_, e) = $0 { return e.name } else { return nil } } }
}
