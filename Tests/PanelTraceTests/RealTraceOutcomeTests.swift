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

    /// y velocities by CSV file stem (Tests/Fixtures/real-traces/expected_velocities.csv), px/s or logical px/s:
    /// the rows whose estimator column starts with `estimator` and whose kind starts with `kind`
    /// (touch recordings only: the delta-input axis-scroll rows are left out).
    static func expectedY(estimator: String, kind: String) throws -> [String: Double] {
        let csv = try String(
            contentsOf: root.appendingPathComponent("Tests/Fixtures/real-traces/expected_velocities.csv"),
            encoding: .utf8)
        var result: [String: Double] = [:]
        for line in csv.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 7, f[3] == "y", f[7].hasPrefix(kind), f[2].hasPrefix(estimator), !f[2].contains("delta")
            else { continue }
            let stem = String(f[1].split(separator: "/").last!.dropLast(4))
            result[stem] = Double(f[4])
        }
        return result
    }

    /// Asserted lsq2 y velocities by CSV file stem.
    static func assertedLSQ2() throws -> [String: Double] {
        try expectedY(estimator: "flutter-lsq2", kind: "asserted").merging(
            try expectedY(estimator: "android-lsq2", kind: "asserted")
        ) { a, _ in a }
    }

    /// FloatingPanel's target rule for a bottom panel, restated from floatingpanel-core.md §4.2 for
    /// the three-anchor case: project y + 0.499·v, never past the next anchor in the direction of
    /// motion, then choose the far anchor when the projected progress exceeds 0.5.
    static func expectedTarget(y: Double, v: Double, state: Double, anchors: [(String, Double)]) -> String {
        let sorted = anchors.sorted { $0.1 < $1.1 }
        let projected = y + v * (0.998 / (1 - 0.998)) / 1000
        let forward = v == 0 ? y > state : v > 0
        // Segment around the current location in the direction of motion.
        var lower = sorted[0]
        var upper = sorted[sorted.count - 1]
        if let i = sorted.firstIndex(where: { forward ? y < $0.1 : y <= $0.1 }) {
            if i == 0 {
                lower = sorted[0]
                upper = sorted[0]
            } else {
                lower = sorted[i - 1]
                upper = sorted[i]
            }
        } else {
            lower = sorted[sorted.count - 1]
            upper = lower
        }
        if lower == upper {
            let i = sorted.firstIndex { $0 == lower }!
            if forward { upper = sorted[min(i + 1, sorted.count - 1)] } else { lower = sorted[max(i - 1, 0)] }
        }
        let (from, to) = forward ? (lower, upper) : (upper, lower)
        guard from != to else { return from.0 }
        let limit =
            forward
            ? sorted[min(sorted.firstIndex { $0 == to }! + 1, sorted.count - 1)].1
            : sorted[max(sorted.firstIndex { $0 == to }! - 1, 0)].1
        let p = forward ? max(min(projected, limit), from.1) : max(min(projected, from.1), limit)
        return abs(p - from.1) / abs(from.1 - to.1) > 0.5 ? to.0 : from.0
    }

    /// One estimator's folder of imports: every target follows the projection rule for its own
    /// release; the release velocity matches `expected` (by stem, px/s) within `tolerance`.
    /// - Returns: how many velocities were checked.
    func checkFolder(_ folder: String, count: Int, expected: [String: Double], tolerance: Double) throws -> Int {
        let dir = Self.root.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }
            .sorted()
        XCTAssertEqual(files.count, count, "\(folder): 14 Flutter gestures (13 + interrupted) and 19 AOSP flings")
        var velocityChecks = 0
        for name in files {
            let file = folder + "/" + name
            let loaded = try TraceLoader.load(path: dir.appendingPathComponent(name).path)
            let result = simulate(loaded.trace)
            let events = result.records.compactMap { r -> DelegateEvent? in
                if case .event(_, let e) = r { return e } else { return nil }
            }
            let anchors: [(String, Double)] = [("full", 100), ("half", 422), ("tip", 741)]
            guard let endIndex = events.firstIndex(where: { $0.name == "willEndDragging" }),
                case .willEndDragging(let velocity, let proposed, _) = events[endIndex]
            else {
                // A gesture that never moved 10 pt is a tap for the pan recognizer: the panel stays.
                XCTAssertFalse(events.contains { $0.name == "willBeginDragging" }, file)
                continue
            }
            let releaseLocation =
                events[..<endIndex].reversed().compactMap { e -> Double? in
                    if case .didMove(let l) = e { return l } else { return nil }
                }.first ?? 422
            let expectedTarget = Self.expectedTarget(y: releaseLocation, v: velocity.y, state: 422, anchors: anchors)
            XCTAssertEqual(proposed, expectedTarget, "\(file): released at \(releaseLocation) with \(velocity.y) pt/s")
            let final = result.records.compactMap { r -> FrameRecord? in
                if case .frame(let f) = r { return f } else { return nil }
            }.last!
            XCTAssertEqual(final.state, expectedTarget, file)
            XCTAssertEqual(final.location, anchors.first { $0.0 == expectedTarget }!.1, file)
            // The release velocity is the recording's expected velocity, converted to pt/s (O18).
            let stem = String(name.dropLast(6))
            if let pxPerSecond = expected[stem] {
                let pointsPerUnit = name.hasPrefix("Sailfish") || name.hasPrefix("Swordfish") ? 1.0 / 3 : 1.0
                XCTAssertEqual(
                    velocity.y, pxPerSecond * pointsPerUnit, accuracy: abs(pxPerSecond * pointsPerUnit) * tolerance,
                    "\(file): release velocity vs expected_velocities.csv")
                velocityChecks += 1
            }
        }
        return velocityChecks
    }

    /// lsq2 (traces/real/): the asserted Flutter and AOSP lsq2 velocities within ±0.2 %.
    func testImportedRecordingsReplayAsTheirVelocitiesPredict() throws {
        let checks = try checkFolder("traces/real", count: 33, expected: try Self.assertedLSQ2(), tolerance: 0.002)
        XCTAssertGreaterThanOrEqual(checks, 31)
    }

    /// impulse (traces/real/impulse/): the AOSP flings' asserted impulse velocities within the
    /// source test's ±20 % (physics.md §5.1); Flutter asserts no impulse values, so only the target rule.
    func testImpulseImports() throws {
        let expected = try Self.expectedY(estimator: "android-impulse", kind: "asserted")
        let checks = try checkFolder(
            "traces/real/impulse", count: 33, expected: expected.filter { $0.key.hasPrefix("S") }, tolerance: 0.2)
        XCTAssertEqual(checks, 19)
    }

    /// ios (traces/real/ios/): the Flutter gestures' derived iOS-weighted velocities (not ground
    /// truth: the same published weighting computed independently) within ±0.2 %; AOSP: the target rule.
    func testIOSImports() throws {
        let expected = try Self.expectedY(estimator: "ios-weighted", kind: "derived")
        let checks = try checkFolder("traces/real/ios", count: 33, expected: expected, tolerance: 0.002)
        XCTAssertGreaterThanOrEqual(checks, 13)
    }
}

/// The Android AXIS_SCROLL recordings imported as `scroll` samples (traces/real/axis-scroll/): each
/// trace's offsets integrate the recording's deltas (100 pt per unit from 1000), and Android's
/// impulse estimator over those offsets reproduces the velocity AOSP asserts for the recording.
final class AxisScrollImportTests: XCTestCase {
    func testImportedAxisScrollTracesReproduceTheAssertedImpulseVelocity() throws {
        let root = CorpusExpectationTests.repositoryRoot
        let csv = try String(
            contentsOf: root.appendingPathComponent("Tests/Fixtures/real-traces/expected_velocities.csv"),
            encoding: .utf8)
        var asserted: [String: Double] = [:]
        for line in csv.split(separator: "\n") where line.contains("axis-scroll/") && line.contains("impulse") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            asserted[String(f[1].split(separator: "/").last!.dropLast(4))] = Double(f[4])
        }
        XCTAssertEqual(asserted.count, 4)
        for (stem, expected) in asserted.sorted(by: { $0.key < $1.key }) {
            let trace = try TraceLoader.load(
                path: root.appendingPathComponent("traces/real/axis-scroll/\(stem).jsonl").path
            ).trace
            var tracker = VelocityTracker(strategy: .impulse)
            var count = 0
            for sample in trace.samples {
                guard case .scroll(let s) = sample.kind, let offset = s.contentOffset else { continue }
                tracker.addMovement(timeNanos: sample.time * 1000, position: Point(x: 0, y: (offset.y - 1000) / 100))
                count += 1
            }
            XCTAssertGreaterThan(count, 3, stem)
            // Offsets move with the deltas, so the velocity keeps AOSP's sign; tolerance rel 0.2 (the AOSP test's).
            let v = tracker.currentVelocity().y
            XCTAssertEqual(v, expected, accuracy: abs(expected) * 0.2, "\(stem): impulse over imported offsets")
        }
    }
}
