import XCTest
import Foundation
import PanelSimCore
import PanelTrace
import PanelInvariants

/// Replays every trace under `traces/` whose description carries an `expect:` clause
/// (`state=<name> location=<pt> removed=<bool>`) and checks the outcome. The clauses are computed
/// outside the simulator (scripts/make_corpus.py, from the spec's formulas), so this is what makes a
/// blessed golden trustworthy: the golden's final state, resting location and removal decision
/// must match an independent computation. Also asserts invariants G1 (rest on an anchor) and G2
/// (event pairing) on every trace.
final class CorpusExpectationTests: XCTestCase {
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The FloatingPanel traces: every trace under `traces/` but the other systems' folders
    /// (`traces/drawerkit/`, checked by `DrawerKitCorpusTests`; `traces/uisheet/`, by `UISheetCorpusTests`;
    /// `traces/lnpopup/`, by `LNPopupCorpusTests`; their soak findings under `traces/soak/`, by each
    /// system's soak tests) and the version-profile corpus (`traces/profiles/`, by
    /// `ProfileCorpusTests`, each trace at a point whose rules differ from the system spec's).
    static func traceFiles() -> [URL] {
        let root = repositoryRoot.appendingPathComponent("traces")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { url in
                url.pathExtension == "jsonl"
                    && !["/drawerkit/", "/uisheet/", "/lnpopup/", "/traces/profiles/"].contains {
                        url.path.contains($0)
                    }
            } ?? []
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
            if let offset = expected["contentOffset"] { XCTAssertEqual(last.contentOffset, Double(offset), name) }
            if let minimum = expected["contentOffsetMin"].flatMap(Double.init) {
                XCTAssertGreaterThanOrEqual(last.contentOffset ?? -.infinity, minimum, name)
            }
            if let count = expected["willBeginDragging"].flatMap(Int.init) {
                XCTAssertEqual(
                    result.eventNames.filter { $0 == "willBeginDragging" }.count, count, "\(name): willBeginDragging")
            }
            if let count = expected["attractions"].flatMap(Int.init) {
                XCTAssertEqual(
                    result.eventNames.filter { $0 == "willBeginAttracting" }.count, count, "\(name): attractions")
            }
            XCTAssertFalse(result.budgetExceeded, name)
            checked += 1
        }
        XCTAssertEqual(checked, 107, "flicks 48, scenarios 5, custom states 4, positions 12, scroll 19, app 15, soak 4")
    }

    /// G3: on a monotonic finger path, neither the surface nor the content offset O moves against
    /// the finger, and per sample |Δsurface| + |ΔO| ≤ |Δfinger| + 1 pt. Checked frame by frame while
    /// finger 0 is down and nothing but the finger drives the panel (no attraction in either frame);
    /// corpus samples fall on frame boundaries, one per frame.
    /// G4: at rest, O is not beyond the pinning offset, and the scroll lock matches the state
    /// (locked exactly when the state is not scrollable).
    func testScrollInvariantsG3G4() throws {
        var g3Frames = 0
        var g4Traces = 0
        for url in Self.traceFiles() {
            let loaded = try TraceLoader.load(path: url.path)
            let header = loaded.trace.header
            guard header.scrollView != nil else { continue }
            let name = url.lastPathComponent
            let result = simulate(loaded.trace)
            let position = header.panel.position
            let rate = Int64(header.environment.frameRate)
            // Every frame, carrying the last written one forward.
            var frames: [Int: FrameRecord] = [:]
            var last: FrameRecord?
            let written = result.frames
            let lastIndex = written.last?.index ?? 0
            var byIndex: [Int: FrameRecord] = [:]
            for f in written { byIndex[f.index] = f }
            for k in 0...lastIndex {
                if let f = byIndex[k] { last = f }
                frames[k] = last
            }
            // Finger position (main axis) per frame while finger 0 is down, and whether its path is monotonic.
            var finger: [Int: Double] = [:]
            var down = false
            var current = 0.0
            var direction = 0.0
            var monotonic = true
            var sampleIndex = 0
            let touches = loaded.trace.samples.compactMap { s -> (Int64, TouchSample)? in
                if case .touch(let t) = s.kind, t.id == 0 { return (s.time, t) } else { return nil }
            }
            for k in 0...lastIndex {
                while sampleIndex < touches.count, touches[sampleIndex].0 * rate <= Int64(k) * 1_000_000 {
                    let (_, t) = touches[sampleIndex]
                    let value = position.main(t.location)
                    switch t.phase {
                    case .began:
                        down = true
                        direction = 0
                    case .moved:
                        let d = value - current
                        if d != 0 {
                            if direction == 0 {
                                direction = d > 0 ? 1 : -1
                            } else if (d > 0 ? 1 : -1) != direction {
                                monotonic = false
                            }
                        }
                    case .ended, .cancelled: down = false
                    case .stationary: break
                    }
                    current = value
                    sampleIndex += 1
                }
                if down { finger[k] = current }
            }
            guard monotonic else { continue }
            for k in 1...max(1, lastIndex) {
                guard let f0 = finger[k - 1], let f1 = finger[k], let a = frames[k - 1], let b = frames[k],
                    !a.isAttracting, !b.isAttracting
                else { continue }
                g3Frames += 1
                let df = f1 - f0
                let ds = b.location - a.location
                let dO = (b.contentOffset ?? 0) - (a.contentOffset ?? 0)
                XCTAssertLessThanOrEqual(
                    abs(ds) + abs(dO), abs(df) + 1, "\(name) G3 at frame \(k): surface \(ds), O \(dO), finger \(df)")
                XCTAssertGreaterThanOrEqual(
                    ds * (df >= 0 ? 1 : -1), -1, "\(name) G3 at frame \(k): surface moves against the finger")
                XCTAssertLessThanOrEqual(
                    dO * (df >= 0 ? 1 : -1), 1, "\(name) G3 at frame \(k): content moves against the finger")
            }
            // G4 at rest.
            if let rest = written.last, !rest.isAttracting, !rest.isDragging, let offset = rest.contentOffset {
                let sv = try XCTUnwrap(header.scrollView)
                let pin =
                    position.expandsTowardLowerCoordinate
                    ? -position.main(
                        Point(
                            x: sv.contentInset.left + sv.systemInset.left, y: sv.contentInset.top + sv.systemInset.top))
                    : -Double.infinity
                XCTAssertGreaterThanOrEqual(offset, pin, "\(name) G4: O rests beyond the pinning offset")
                let geometry = LayoutGeometry(panel: header.panel, environment: header.environment)
                let scrollable =
                    header.delegate.scrollableStates.map { $0.contains(rest.state) }
                    ?? (rest.state == geometry.mostExpandedState.name)
                XCTAssertEqual(rest.scrollLocked, !scrollable, "\(name) G4: scroll lock at rest in \(rest.state)")
                g4Traces += 1
            }
        }
        XCTAssertGreaterThan(g3Frames, 500, "G3 must see the scroll corpus's drags")
        XCTAssertEqual(
            g4Traces, 26, "G4 at rest on every scroll trace (19 scenarios, 4 axis-scroll imports, 3 soak findings)")
    }

    /// The shared checker of `panelsim soak` (G1–G4, F1–F5; PanelInvariants) on every corpus trace.
    func testSharedInvariantCheckerOnEveryTrace() throws {
        var coverage = InvariantCoverage()
        for url in Self.traceFiles() {
            let trace = try TraceLoader.load(path: url.path).trace
            let (violations, c) = InvariantChecker.check(trace)
            coverage += c
            XCTAssertEqual(violations, [], url.lastPathComponent)
        }
        XCTAssertGreaterThan(coverage.g1Rests, 150)
        XCTAssertGreaterThan(coverage.g3Frames, 500)
    }

    func testInvariantsOnEveryTrace() throws {
        for url in Self.traceFiles() {
            let loaded = try TraceLoader.load(path: url.path)
            let result = simulate(loaded.trace)
            let name = url.lastPathComponent
            // The layout and environment in force at the end (after any invalidateLayout / environment sample).
            var panel = loaded.trace.header.panel
            var environment = loaded.trace.header.environment
            for sample in loaded.trace.samples {
                if case .call(.invalidateLayout(let p)) = sample.kind { panel = p }
                if case .environment(let e) = sample.kind { environment = e }
            }
            let geometry = LayoutGeometry(panel: panel, environment: environment)
            // G1: at rest the surface location equals an anchor position (hidden included).
            if let last = result.frames.last, !last.isAttracting, !last.isDragging {
                let anchors = Set(
                    panel.anchors.map { geometry.position(of: $0.state) } + [geometry.position(of: .hidden)])
                XCTAssertTrue(anchors.contains(last.location), "\(name): rests at \(last.location), not on an anchor")
            }
            // G2: attraction begin/end pair up; each willBeginDragging ends with didEndDragging or willRemove.
            var attracting = 0
            var dragging = 0
            for e in result.eventNames {
                switch e {
                case "willBeginAttracting":
                    attracting += 1
                    XCTAssertEqual(attracting, 1, "\(name): nested attraction")
                case "didEndAttracting":
                    attracting -= 1
                    XCTAssertEqual(attracting, 0, "\(name): unpaired didEndAttracting")
                case "willBeginDragging":
                    dragging += 1
                    XCTAssertEqual(dragging, 1, "\(name): nested drag")
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
    var frames: [FrameRecord] { records.compactMap { if case .frame(let f) = $0 { return f } else { return nil } } }
    var eventNames: [String] {
        records.compactMap { if case .event(_, let e) = $0 { return e.name } else { return nil } }
    }
}
