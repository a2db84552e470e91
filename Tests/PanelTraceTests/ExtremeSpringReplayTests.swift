import Foundation
import PanelSimCore
import PanelTrace
import XCTest

/// Spring settings at the edge of what the contract allows (a DrawerKit damping ratio just above 0,
/// a sheet spring's response just above 0) replay to the end with finite, bounded frames instead
/// of stopping the process (`DeterministicMath`'s reduction of huge sine and cosine arguments).
final class ExtremeSpringReplayTests: XCTestCase {
    private static let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("traces")

    /// The trace at `path` (below `traces/`) with `edit` applied to its header object.
    private func trace(_ path: String, _ edit: (inout [String: Any]) -> Void) throws -> Trace {
        let text = try String(contentsOf: Self.traces.appendingPathComponent(path), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var header = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        edit(&header)
        lines[0] = String(decoding: try JSONSerialization.data(withJSONObject: header), as: UTF8.self)
        return try TraceLoader.parse(text: lines.joined(separator: "\n"), file: path)
    }

    /// Every frame's location is finite and within `bound` of the container (pt).
    private func assertBoundedFrames(_ result: SimulationResult, height: Double, _ name: String) {
        var frames = 0
        for record in result.records {
            guard case .systemFrame(let frame) = record else { continue }
            frames += 1
            XCTAssertTrue(frame.location.isFinite, "\(name): frame \(frame.index) location \(frame.location)")
            XCTAssertLessThanOrEqual(abs(frame.location), 3 * height, "\(name): frame \(frame.index)")
        }
        XCTAssertGreaterThan(frames, 1, name)
    }

    func testDrawerKitDampingRatiosDownToTheSmallestDoubleReplay() throws {
        for zeta in [1e-5, 1e-20, 1e-100, 1e-308, 5e-324] {
            for physical in [false, true] {
                let t = try trace("drawerkit/flick/d1-full-down.jsonl") { h in
                    var drawer = h["drawer"] as? [String: Any] ?? [:]
                    var configuration = drawer["configuration"] as? [String: Any] ?? [:]
                    configuration["timingCurveProvider"] = ["dampingRatio": zeta]
                    drawer["configuration"] = configuration
                    h["drawer"] = drawer
                    if physical {
                        var simulator = drawer["simulator"] as? [String: Any] ?? [:]
                        simulator["physicalSpring"] = true
                        drawer["simulator"] = simulator
                        h["drawer"] = drawer
                    }
                }
                assertBoundedFrames(simulate(t), height: 844, "ζ \(zeta)\(physical ? " physical" : "")")
            }
        }
    }

    func testSheetSpringResponsesDownToTheSmallestDoubleReplay() throws {
        for response in [1e-5, 1e-100, 1e-308, 5e-324] {
            let t = try trace("uisheet/x2/x2-large-down-3000.jsonl") { h in
                var sheet = h["sheet"] as? [String: Any] ?? [:]
                sheet["simulator"] = ["springResponse": response]
                h["sheet"] = sheet
            }
            assertBoundedFrames(simulate(t), height: 844, "springResponse \(response)")
        }
    }
}
