import XCTest
import Foundation
import PanelSimCore
import PanelTrace

/// Replays every DrawerKit trace under `traces/drawerkit/` and checks the `expect:` clause its
/// description ends with. The clauses are worked out by `scripts/make_drawerkit_corpus.py` from
/// drawerkit.md's rules alone (geometry, the release table, taps, durations, D9 completion
/// frames), never from this simulator. Also asserts the invariants K1–K5 of drawerkit.md §6 on
/// every DrawerKit trace.
final class DrawerKitCorpusTests: XCTestCase, GeneratedCorpus {
    static let folder = "drawerkit"

    func testEveryExpectationHolds() throws {
        var checked = 0
        for (name, trace) in try Self.traces() {
            let expected = Self.expectations(trace.header.description)
            XCTAssertFalse(expected.isEmpty, "\(name): no expect: clause")
            let result = simulate(trace)
            XCTAssertFalse(result.budgetExceeded, name)
            let last = try XCTUnwrap(Self.frames(result).last, name)
            let events = Self.events(result)
            func count(_ event: String) -> Int { events.filter { $0.1.name == event }.count }
            for (key, value) in expected.sorted(by: { $0.key < $1.key }) {
                switch key {
                case "state": XCTAssertEqual(last.state, value, "\(name): state")
                case "location": XCTAssertEqual(last.location, Double(value), "\(name): location")
                case "presented":
                    XCTAssertEqual(Self.bool(last["presented"]).map(String.init), value, "\(name): presented")
                case "cornerRadius":
                    XCTAssertEqual(Self.number(last["cornerRadius"]), Double(value), "\(name): cornerRadius")
                case "handleAlpha":
                    XCTAssertEqual(Self.number(last["handleAlpha"]), Double(value), "\(name): handleAlpha")
                case "cornerRadius~", "handleAlpha~":
                    let channel = String(key.dropLast())
                    let v = try XCTUnwrap(Self.number(last[channel]), "\(name): \(channel)")
                    XCTAssertEqual(v, Double(value) ?? .nan, accuracy: 1e-6, "\(name): \(channel)")
                case "nextState":
                    let actual = events.filter {
                        $0.1.name == "handleDrawerDrag" && Self.string($0.1["state"]) == "ended"
                    }
                    .compactMap { Self.string($0.1["nextState"]) }
                    XCTAssertEqual(actual.joined(separator: ","), value, "\(name): nextState")
                case "transitions":
                    let actual = events.filter { $0.1.name == "transitionWillStart" }.map {
                        "\(Self.string($0.1["startDrawerState"]) ?? "?")>\(Self.string($0.1["targetDrawerState"]) ?? "?")"
                    }
                    XCTAssertEqual(actual.joined(separator: ","), value, "\(name): transitions")
                case "contentOffset":
                    XCTAssertEqual(Self.number(last["contentOffset"]), Double(value), "\(name): contentOffset")
                case "interior": XCTAssertEqual(count("drawerInteriorTapped"), Int(value), "\(name): interior")
                case "exterior": XCTAssertEqual(count("drawerExteriorTapped"), Int(value), "\(name): exterior")
                case "completions": XCTAssertEqual(count("completion"), Int(value), "\(name): completions")
                case "events": XCTAssertEqual(count("transitionWillStart"), Int(value), "\(name): events")
                case "finishAt":
                    let t = events.last { $0.1.name == "transitionDidFinish" }.map { Double($0.0) / 1_000_000 }
                    XCTAssertEqual(t ?? -1, Double(value) ?? .nan, accuracy: 5e-7, "\(name): finishAt")
                default: XCTFail("\(name): unknown expectation key \(key)")
                }
            }
            checked += 1
        }
        XCTAssertEqual(checked, 93, "the generated DrawerKit corpus")
    }

    /// K1 (rest on a named state), K2 (transition pairing and order), K3 (drag within [fullY, H]),
    /// K4 (nothing after dismissalTransitionDidEnd; no DrawerKit transition after one to dismissed
    /// under the default D3) on every DrawerKit trace.
    func testInvariantsK1toK4() throws {
        for (name, trace) in try Self.traces() {
            let result = simulate(trace)
            let drawer = try XCTUnwrap(trace.header.drawer)
            var environment = trace.header.environment
            var changes = trace.samples.compactMap { s -> (Microseconds, PanelEnvironment)? in
                if case .environment(let e) = s.kind { return (s.time, e) } else { return nil }
            }[...]
            // Finger 0 down/up times, for K1's "no touch".
            var touches = trace.samples.compactMap { s -> (Microseconds, Bool)? in
                if case .touch(let t) = s.kind, t.id == 0 {
                    switch t.phase {
                    case .began: return (s.time, true)
                    case .ended, .cancelled: return (s.time, false)
                    default: return nil
                    }
                }
                return nil
            }[...]
            var fingerDown = false
            for f in Self.frames(result) {
                let t = frameTime(f.index, frameRate: environment.frameRate)
                while let c = changes.first, c.0 <= t {
                    environment = c.1
                    changes = changes.dropFirst()
                }
                while let c = touches.first, c.0 <= t {
                    fingerDown = c.1
                    touches = touches.dropFirst()
                }
                let anchors = Dictionary(uniqueKeysWithValues: drawer.anchorPositions(environment: environment))
                let height = environment.container.height
                // K3: during a drag the drawer stays within [fullY, H].
                if Self.bool(f["isDragging"]) == true {
                    XCTAssertGreaterThanOrEqual(
                        f.location, anchors["fullyExpanded"]! - 1e-9, "\(name) frame \(f.index): K3")
                    XCTAssertLessThanOrEqual(f.location, height + 1e-9, "\(name) frame \(f.index): K3")
                }
                // K1: at rest the location is the state's position and the state is named.
                if !fingerDown && Self.bool(f["isDragging"]) == false && Self.bool(f["isAnimating"]) == false {
                    XCTAssertNotEqual(f.state, "transitioning", "\(name) frame \(f.index): K1")
                    if f.state != "transitioning", let y = anchors[f.state] ?? (f.state == "collapsed" ? height : nil) {
                        XCTAssertEqual(f.location, y, accuracy: 1e-9, "\(name) frame \(f.index): K1 at \(f.state)")
                    }
                }
            }
            // K2: each transitionWillStart has exactly one later transitionDidFinish with the same
            // info; prepare/animateAlong between, cleanup before the finish.
            let events = Self.events(result)
            var open: [[RecordField]] = []
            var dismissing = false
            var gone = false
            for (_, e) in events {
                if gone {
                    XCTAssertEqual(
                        e.name, "presentationTransitionWillBegin", "\(name): K4 record after dismissalTransitionDidEnd")
                    gone = false
                }
                switch e.name {
                case "transitionWillStart":
                    if dismissing && drawer.midTransition == .dismissalIsTerminal {
                        XCTAssertEqual(
                            Self.string(e["targetDrawerState"]), "dismissed", "\(name): K4 transition after a dismissal"
                        )
                    }
                    if Self.string(e["targetDrawerState"]) == "dismissed" { dismissing = true }
                    open.append(e.fields)
                case "transitionDidFinish":
                    let i = open.firstIndex(of: e.fields)
                    XCTAssertNotNil(i, "\(name): K2 transitionDidFinish without its transitionWillStart")
                    if let i { open.remove(at: i) }
                case "prepare", "animateAlong", "cleanup":
                    let info = Array(e.fields.dropFirst())
                    XCTAssertTrue(open.contains(info), "\(name): K2 \(e.name) outside its transition")
                case "dismissalTransitionDidEnd":
                    gone = true
                    dismissing = false
                default: break
                }
            }
            XCTAssertTrue(open.isEmpty, "\(name): K2 \(open.count) transitions never finished")
        }
    }

    /// K5: changing only `totalDurationInSeconds` changes no decision: the same release decisions,
    /// the same transitions (start > target) and the same final state.
    func testInvariantK5DurationChangesNoDecision() throws {
        for (name, trace) in try Self.traces() {
            var scaled = trace
            scaled.header.drawer?.totalDurationInSeconds *= 0.5
            let a = simulate(trace)
            let b = simulate(scaled)
            func decisions(_ r: SimulationResult) -> [String] {
                Self.events(r).filter { $0.1.name == "transitionWillStart" || $0.1.name == "handleDrawerDrag" }.map {
                    "\($0.1.name) \(Self.string($0.1["startDrawerState"]) ?? "") \(Self.string($0.1["targetDrawerState"]) ?? "") \(Self.string($0.1["nextState"]) ?? "")"
                }
            }
            // Traces whose later samples land inside a transition may see it finished or not;
            // decisions read the model y, so they still agree.
            XCTAssertEqual(decisions(a), decisions(b), "\(name): K5")
            XCTAssertEqual(Self.frames(a).last?.state, Self.frames(b).last?.state, "\(name): K5 final state")
        }
    }
}
