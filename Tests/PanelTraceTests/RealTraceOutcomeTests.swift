import XCTest
import Foundation
import PanelSimCore
import PanelTrace

/// The imported real recordings (traces/real/, scenarios.md S9) replayed end to end. For each one the
/// outcome is recomputed here without the simulator's target-state code: the release velocity must
/// match the least-squares velocity the recording's own test suite asserts (converted to pt/s), and
/// the target must be what the projection rule gives for the release location and velocity.
final class RealTraceOutcomeTests: XCTestCase {
    static var root: URL { CorpusExpectationTests.repositoryRoot }

    /// Asserted lsq2 y velocities by CSV file stem (real-traces/expected_velocities.csv), px/s or logical px/s.
    static func assertedLSQ2() throws -> [String: Double] {
        let csv = try String(contentsOf: root.appendingPathComponent("../shared/real-traces/expected_velocities.csv"), encoding: .utf8)
        var result: [String: Double] = [:]
        for line in csv.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 7, f[3] == "y", f[7].hasPrefix("asserted"), f[2].contains("lsq2") else { continue }
            let stem = String(f[1].split(separator: "/").last!.dropLast(4))
            result[stem] = Double(f[4])
        }
        return result
    }

    /// FloatingPanel's target rule for a bottom panel, restated from floatingpanel-core.md §4.2 for
    /// the three-anchor case: project y + 0.499·v, never past the next anchor in the direction of
    /// motion, then choose the far anchor when the projected progress exceeds 0.5.
    static func expectedTarget(y: Double, v: Double, state: Double, anchors: [(String, Double)]) -> String {
        let sorted = anchors.sorted { $0.1 < $1.1 }
        let projected = y + v * (0.998 / (1 - 0.998)) / 1000
        let forward = v == 0 ? y > state : v > 0
        // Segment around the current location in the direction of motion.
        var lower = sorted[0], upper = sorted[sorted.count - 1]
        if let i = sorted.firstIndex(where: { forward ? y < $0.1 : y <= $0.1 }) {
            if i == 0 { lower = sorted[0]; upper = sorted[0] } else { lower = sorted[i - 1]; upper = sorted[i] }
        } else { lower = sorted[sorted.count - 1]; upper = lower }
        if lower == upper {
            let i = sorted.firstIndex { $0 == lower }!
            if forward { upper = sorted[min(i + 1, sorted.count - 1)] } else { lower = sorted[max(i - 1, 0)] }
        }
        let (from, to) = forward ? (lower, upper) : (upper, lower)
        guard from != to else { return from.0 }
        let limit = forward ? sorted[min(sorted.firstIndex { $0 == to }! + 1, sorted.count - 1)].1
                            : sorted[max(sorted.firstIndex { $0 == to }! - 1, 0)].1
        let p = forward ? max(min(projected, limit), from.1) : max(min(projected, from.1), limit)
        return abs(p - from.1) / abs(from.1 - to.1) > 0.5 ? to.0 : from.0
    }

    func testImportedRecordingsReplayAsTheirVelocitiesPredict() throws {
        let asserted = try Self.assertedLSQ2()
        let dir = Self.root.appendingPathComponent("traces/real")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        XCTAssertEqual(files.count, 32, "13 Flutter gestures and 19 AOSP flings")
        var velocityChecks = 0
        for file in files {
            let loaded = try TraceLoader.load(path: dir.appendingPathComponent(file).path)
            let result = simulate(loaded.trace)
            let events = result.records.compactMap { r -> DelegateEvent? in if case let .event(_, e) = r { return e } else { return nil } }
            let anchors: [(String, Double)] = [("full", 100), ("half", 422), ("tip", 741)]
            guard let endIndex = events.firstIndex(where: { $0.name == "willEndDragging" }),
                  case let .willEndDragging(velocity, proposed, _) = events[endIndex] else {
                // A gesture that never moved 10 pt is a tap for the pan recognizer: the panel stays.
                XCTAssertFalse(events.contains { $0.name == "willBeginDragging" }, file)
                continue
            }
            let releaseLocation = events[..<endIndex].reversed().compactMap { e -> Double? in
                if case let .didMove(l) = e { return l } else { return nil } }.first ?? 422
            let expected = Self.expectedTarget(y: releaseLocation, v: velocity.y, state: 422, anchors: anchors)
            XCTAssertEqual(proposed, expected, "\(file): released at \(releaseLocation) with \(velocity.y) pt/s")
            let final = result.records.compactMap { r -> FrameRecord? in if case let .frame(f) = r { return f } else { return nil } }.last!
            XCTAssertEqual(final.state, expected, file)
            XCTAssertEqual(final.location, anchors.first { $0.0 == expected }!.1, file)
            // The release velocity is the recording's asserted lsq2 velocity, converted to pt/s (O18).
            let stem = String(file.dropLast(6))
            if let pxPerSecond = asserted[stem] {
                let pointsPerUnit = file.hasPrefix("Sailfish") || file.hasPrefix("Swordfish") ? 1.0 / 3 : 1.0
                XCTAssertEqual(velocity.y, pxPerSecond * pointsPerUnit, accuracy: abs(pxPerSecond * pointsPerUnit) * 0.002, file)
                velocityChecks += 1
            }
        }
        XCTAssertGreaterThanOrEqual(velocityChecks, 30)
    }
}
