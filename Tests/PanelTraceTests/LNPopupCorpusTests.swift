import XCTest
import Foundation
@testable import PanelSimCore
import PanelTrace

/// Replays every LNPopup trace under `traces/lnpopup/` and checks the `expect:` clause its
/// description ends with. The clauses are worked out by `scripts/make_lnpopup_corpus.py` from
/// lnpopup.md's rules alone (a discrete model of states, pans, release rules, the queue, timers and
/// taps), never from this simulator. Also asserts the invariants P1–P6 of lnpopup.md §6 on every
/// LNPopup trace.
final class LNPopupCorpusTests: XCTestCase, GeneratedCorpus {
    static let folder = "lnpopup"

    /// `name[:argument]@seconds`, the generator's notation.
    static func label(_ t: Microseconds, _ e: SystemEvent) -> String {
        var name = e.name
        switch e.name {
        case "didChangeState": name += ":" + (string(e["state"]) ?? "?")
        case "willBeginDragging": name += ":" + (string(e["state"]) ?? "?") + "/" + (string(e["recognizer"]) ?? "?")
        case "willEndDragging": name += ":" + (string(e["target"]) ?? "?") + "/" + (string(e["reason"]) ?? "?")
        default: break
        }
        let fraction = String(t % 1_000_000)
        return name + "@\(t / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    func testEveryExpectationHolds() throws {
        var checked = 0
        for (name, trace) in try Self.traces() {
            let expected = Self.expectationPairs(trace.header.description)
            XCTAssertFalse(expected.isEmpty, "\(name): no expect: clause")
            let result = simulate(trace)
            XCTAssertFalse(result.budgetExceeded, name)
            let frames = Self.frames(result)
            let last = try XCTUnwrap(frames.last, name)
            let events = Self.events(result)
            let rate = trace.header.environment.frameRate
            for (key, value) in expected {
                switch key {
                case "state": XCTAssertEqual(last.state, value, "\(name): state")
                case "location":
                    XCTAssertEqual(last.location, Double(value) ?? .nan, accuracy: 1e-6, "\(name): location")
                case "bottomBarTop":
                    XCTAssertEqual(
                        Self.number(last["bottomBarTop"]) ?? .nan, Double(value) ?? .nan, accuracy: 1e-6,
                        "\(name): bottomBarTop")
                case "offset":
                    XCTAssertEqual(
                        Self.number(last["contentOffset"]) ?? .nan, Double(value) ?? .nan, accuracy: 1e-6,
                        "\(name): contentOffset")
                case "events":
                    let actual = events.map { Self.label($0.0, $0.1) }
                    XCTAssertEqual(actual, value.split(separator: ",").map(String.init), "\(name): events")
                case let k where k.hasPrefix("loc@"):
                    let t = Microseconds(((Double(k.dropFirst(4)) ?? .nan) * 1e6).rounded())
                    let frame = frames.last { frameTime($0.index, frameRate: rate) <= t }
                    // One µs of animator progress may show where an animation starts in that frame.
                    XCTAssertEqual(
                        frame?.location ?? .nan, Double(value) ?? .nan, accuracy: 1e-3,
                        "\(name): location at \(k.dropFirst(4)) s")
                default: XCTFail("\(name): unknown expectation key \(key)")
                }
            }
            checked += 1
        }
        XCTAssertEqual(checked, 75, "the generated LNPopup corpus")
    }

    /// P1–P6 of lnpopup.md §6 on every LNPopup trace.
    func testInvariantsP1toP6() throws {
        for (name, trace) in try Self.traces() {
            let popup = try XCTUnwrap(trace.header.popup, name)
            let env = trace.header.environment
            let dock =
                popup.bottomBarKind == .none
                ? env.container.height - env.safeArea.bottom
                : env.container.height - popup.bottomBarHeight
            let result = simulate(trace)
            let frames = Self.frames(result)
            let events = Self.events(result)
            var previous: SystemFrame?
            for f in frames {
                let dragging = Self.bool(f["isDragging"]) == true
                let animating = Self.bool(f["isAnimating"]) == true
                // P4: during a drag the content stays within [0, dock].
                if dragging {
                    XCTAssertGreaterThanOrEqual(f.location, -1e-9, "\(name) frame \(f.index): P4")
                    XCTAssertLessThanOrEqual(f.location, dock + 1e-9, "\(name) frame \(f.index): P4")
                }
                if !dragging && !animating {
                    // P1: internal = public; location 0 when open, the docking line otherwise.
                    XCTAssertEqual(Self.string(f["internalState"]), f.state, "\(name) frame \(f.index): P1")
                    XCTAssertEqual(
                        f.location, f.state == "open" ? 0 : dock, accuracy: 1e-9, "\(name) frame \(f.index): P1")
                    // P2: the bar is visible exactly when closed; legacy: the bottom bar exactly when not open.
                    XCTAssertEqual(
                        Self.bool(f["barVisible"]), f.state == "barPresented", "\(name) frame \(f.index): P2")
                    if popup.bottomBarKind != .none && !popup.glass {
                        XCTAssertEqual(
                            Self.bool(f["bottomBarVisible"]), f.state != "open", "\(name) frame \(f.index): P2")
                    }
                }
                // P5 (second half): the public state changes only with a didChangeState of that state
                // between the two frames.
                if let p = previous, p.state != f.state {
                    let t0 = frameTime(p.index, frameRate: env.frameRate)
                    let t1 = frameTime(f.index, frameRate: env.frameRate)
                    XCTAssertTrue(
                        events.contains {
                            $0.0 > t0 && $0.0 <= t1 && $0.1.name == "didChangeState"
                                && Self.string($0.1["state"]) == f.state
                        },
                        "\(name) frame \(f.index): P5 state changed to \(f.state) without didChangeState")
                }
                previous = f
            }
            // P5 (first half): no drag starts while an animator runs.
            for (t, e) in events where e.name == "willBeginDragging" {
                let before = frames.last { frameTime($0.index, frameRate: env.frameRate) < t }
                XCTAssertEqual(
                    before.flatMap { Self.bool($0["isAnimating"]) }, false,
                    "\(name): P5 drag started during an animation at \(t) µs")
            }
            // P3: pairing; P6: didChangeState right before the did… callback of the same completion.
            var open = 0
            var close = 0
            var present = 0
            var dismiss = 0
            var drags = 0
            for (i, (t, e)) in events.enumerated() {
                let prior = i > 0 ? events[i - 1] : nil
                func previousIs(_ state: String) -> Bool {
                    prior?.1.name == "didChangeState" && Self.string(prior?.1["state"]) == state
                }
                switch e.name {
                case "willOpenPopup":
                    if !(prior?.1.name == "willOpenPopup" && prior?.0 == t) { open += 1 }  // Q3 counts once
                case "didOpenPopup":
                    open -= 1
                    XCTAssertGreaterThanOrEqual(open, 0, "\(name): P3 didOpenPopup without willOpenPopup")
                    XCTAssertTrue(previousIs("open"), "\(name): P6 didOpenPopup at \(t)")
                case "willClosePopup": close += 1
                case "didClosePopup":
                    close -= 1
                    XCTAssertGreaterThanOrEqual(close, 0, "\(name): P3 didClosePopup")
                    XCTAssertTrue(previousIs("barPresented"), "\(name): P6 didClosePopup at \(t)")
                case "willPresentPopupBar": present += 1
                case "didPresentPopupBar":
                    present -= 1
                    XCTAssertGreaterThanOrEqual(present, 0, "\(name): P3 didPresentPopupBar")
                    XCTAssertTrue(
                        previousIs("barPresented") || prior?.1.name == "didOpenPopup"
                            || events.contains { $0.0 == t && $0.1.name == "didOpenPopup" },
                        "\(name): P6 didPresentPopupBar at \(t)")
                case "willDismissPopupBar": dismiss += 1
                case "didDismissPopupBar":
                    dismiss -= 1
                    XCTAssertGreaterThanOrEqual(dismiss, 0, "\(name): P3 didDismissPopupBar")
                    XCTAssertTrue(previousIs("barHidden"), "\(name): P6 didDismissPopupBar at \(t)")
                case "willBeginDragging":
                    drags += 1
                    XCTAssertEqual(drags, 1, "\(name): P3 a drag began inside another")
                case "willEndDragging":
                    drags -= 1
                    XCTAssertEqual(drags, 0, "\(name): P3 willEndDragging without willBeginDragging")
                default: break
                }
            }
            XCTAssertEqual([open, close, present, dismiss, drags], [0, 0, 0, 0, 0], "\(name): P3 unpaired callbacks")
        }
    }

    /// The spec's worked numbers (lnpopup.md §3.5.4, §3.7, L4) through the model's own pieces.
    func testSpecNumbers() {
        XCTAssertEqual(
            AnimatorTiming.stretchedSpring(dampingRatio: 1, duration: 0.5).progress(at: 0.1), 0.550908, accuracy: 1e-6)
        XCTAssertEqual(
            AnimatorTiming.stretchedSpring(dampingRatio: 0.87, duration: 0.5).progress(at: 0.1), 0.565866,
            accuracy: 1e-6)
        XCTAssertEqual(
            AnimatorTiming.stretchedSpring(dampingRatio: 500, duration: 0.5).progress(at: 0.1), 0.748811, accuracy: 1e-6
        )
        XCTAssertEqual(
            AnimatorTiming.stretchedSpring(dampingRatio: 1, duration: 0.5).progress(at: 0.4), 0.994805, accuracy: 1e-6)
        XCTAssertEqual(
            AnimatorTiming.stretchedSpring(dampingRatio: 0.87, duration: 0.5).progress(at: 0.4), 1.003373,
            accuracy: 1e-6)
        XCTAssertEqual(
            AnimatorTiming.stretchedSpring(dampingRatio: 500, duration: 0.5).progress(at: 0.4), 0.996019, accuracy: 1e-6
        )
        XCTAssertEqual(PopupGeometry.smoothstep(0.5), 0.5)
        XCTAssertEqual(PopupGeometry.smoothstep(0.25), 0.15625)
        XCTAssertEqual(PopupGeometry.smoothstep(0.1), 0.028000001952052114)
        var popup = PopupConfiguration()
        popup.bottomBarKind = .tabBar
        popup.bottomBarHeight = 83
        let g = PopupGeometry(popup, environment: PanelEnvironment(container: Size(width: 390, height: 844)))
        XCTAssertEqual(g.dock, 761)
        XCTAssertEqual(g.closedBarTop, 697)
        XCTAssertEqual(g.resistance(30), 9.492, accuracy: 5e-4)
        XCTAssertEqual(g.resistance(280), 81.001, accuracy: 5e-4)
        XCTAssertEqual(g.bottomBarTop(progress: 0.5), 802.5)
        XCTAssertEqual(g.closeButtonFrame, Rect(x: 174, y: 47, width: 42, height: 25))
    }
}
