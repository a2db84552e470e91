import XCTest
import PanelSimCore
@testable import PanelTrace

/// The dimming fade of uisheet.md §3.8 item 6 where the corpus does not reach it, and
/// `setShouldDismiss` (§2.2) in a trace built in code. Expected values are worked out here from
/// the spec: D1 (390 × 844, safe area 47/34, scale 3, 120 Hz), medium 388.333, large 57.
final class UISheetDimmingFadeTests: XCTestCase {
    static let medium = UISheetEdgeCaseTests.medium, large = UISheetEdgeCaseTests.large

    func replay(_ sheet: String, _ samples: [String]) throws -> (frames: [SystemFrame], result: SimulationResult) {
        let trace = try TraceLoader.parse(
            text: ([UISheetEdgeCaseTests.header(sheet: sheet)] + samples).joined(separator: "\n") + "\n",
            file: "f.jsonl")
        let r = simulate(trace)
        return (UISheetCorpusTests.frames(r), r)
    }

    /// P(τ) of §3.8 item 6: 1 − (1 + ωτ)e^(−ωτ), ω = 2π / 0.3441442326 s.
    static func progress(_ tau: Double) -> Double {
        let w = 2 * Double.pi / 0.3441442326
        return 1 - (1 + w * tau) * exp(-w * tau)
    }

    /// §3.8 item 2 with undimmed medium: 0 at medium, 1 at large.
    static func undimmedMediumFraction(_ y: Double) -> Double { min(max((y - medium) / (large - medium), 0), 1) }

    static func dimming(_ f: SystemFrame) -> Double { UISheetCorpusTests.number(f["dimming"]) ?? .nan }
    /// Frame k's exact time, k / 120 s (the fade is evaluated there, not at its µs rounding).
    static func time(_ f: SystemFrame) -> Double { Double(f.index) / 120 }

    static let ml = #"{"detents": "# + UISheetEdgeCaseTests.ml + "}"

    /// While the sheet moves (an animation toward large), a change inside `animateChanges` does
    /// not fade: every frame shows item 2's fraction of its offset under the new rule.
    func testNoFadeWhileTheSheetMoves() throws {
        let (frames, _) = try replay(
            Self.ml,
            [
                #"{"t": 0.1, "call": "selectDetent", "identifier": "large", "animateChanges": true}"#,
                #"{"t": 0.15, "call": "setLargestUndimmedDetent", "identifier": "medium", "animateChanges": true}"#,
            ])
        let moving = frames.filter { Self.time($0) >= 0.15 && UISheetCorpusTests.bool($0["isAttracting"]) == true }
        XCTAssertGreaterThan(moving.count, 10)
        for f in moving + [frames.last!] {
            XCTAssertEqual(
                Self.dimming(f), Self.undimmedMediumFraction(f.location), accuracy: 1e-12, "frame \(f.index)")
        }
        XCTAssertEqual(frames.last?.location, Self.large)
    }

    /// A change outside `animateChanges` during a fade ends it: the new fraction holds from that
    /// sample's frame; a change inside it that leaves the target as it is keeps the fade's clock.
    func testChangesDuringAFade() throws {
        let fadeOut = #"{"t": 0.1, "call": "setLargestUndimmedDetent", "identifier": "medium", "animateChanges": true}"#
        let (cut, _) = try replay(
            Self.ml, [fadeOut, #"{"t": 0.2, "call": "setLargestUndimmedDetent", "identifier": null}"#])
        for f in cut where f.index > 12 {
            let expected = Self.time(f) < 0.2 ? 1 - Self.progress(Self.time(f) - 0.1) : 1
            XCTAssertEqual(Self.dimming(f), expected, accuracy: 1e-9, "frame \(f.index)")
        }
        XCTAssertTrue(cut.contains { Self.time($0) < 0.2 && Self.dimming($0) < 0.6 }, "the fade ran before the cut")
        XCTAssertEqual(cut.last.map(Self.dimming), 1)
        let (kept, _) = try replay(
            Self.ml,
            [
                fadeOut,
                #"{"t": 0.2, "call": "setLargestUndimmedDetent", "identifier": "medium", "animateChanges": true}"#,
            ])
        var seen = 0
        for f in kept where f.index > 12 {
            let tau = Self.time(f) - 0.1
            guard 1 - Self.progress(tau) >= 1e-3 else {
                XCTAssertEqual(Self.dimming(f), 0)
                continue
            }
            XCTAssertEqual(Self.dimming(f), 1 - Self.progress(tau), accuracy: 1e-9, "frame \(f.index)")
            seen += 1
        }
        XCTAssertGreaterThan(seen, 40)
    }

    /// A fade past the last sample keeps the replay going until it ends (at d_b exactly).
    func testTheReplayRunsUntilTheFadeEnds() throws {
        let (frames, r) = try replay(
            #"{"detents": "# + UISheetEdgeCaseTests.ml + #", "largestUndimmedDetentIdentifier": "medium"}"#,
            [#"{"t": 0.1, "call": "setLargestUndimmedDetent", "identifier": null, "animateChanges": true}"#])
        XCTAssertFalse(r.budgetExceeded)
        let last = try XCTUnwrap(frames.last)
        XCTAssertEqual(Self.dimming(last), 1)
        // The first frame with 1 − P < 10⁻³ after the call, found here from the formula.
        var k = 13
        while 1 - Self.progress(Double(k) / 120 - 0.1) >= 1e-3 { k += 1 }
        XCTAssertEqual(last.index, k)
        XCTAssertEqual(UISheetCorpusTests.number(last["backdropAlpha"]), 0.2)
    }

    /// `setShouldDismiss` changes the answer from its sample on (the next question writes the new
    /// result); in a trace built in code for a delegate without the method it is ignored with a
    /// warning (the loader refuses that trace).
    func testSetShouldDismissInTheModel() throws {
        let env = PanelEnvironment(container: Size(width: 390, height: 844))
        var sheet = SheetConfiguration()
        sheet.detents = [.medium, .large]
        let pull: [TraceSample] = [
            TraceSample(time: 200_000, kind: .touch(TouchSample(phase: .began, location: Point(x: 195, y: 500)))),
            TraceSample(time: 210_000, kind: .touch(TouchSample(phase: .moved, location: Point(x: 195, y: 510)))),
            TraceSample(time: 220_000, kind: .touch(TouchSample(phase: .moved, location: Point(x: 195, y: 600)))),
            TraceSample(
                time: 230_000,
                kind: .touch(TouchSample(phase: .ended, location: Point(x: 195, y: 600), velocity: Point(x: 0, y: 0)))),
        ]
        let call = TraceSample(time: 100_000, line: 2, kind: .sheetCall(.setShouldDismiss(false)))
        let plain = simulate(
            Trace(header: TraceHeader(name: "d", environment: env, sheet: sheet), samples: [call] + pull))
        XCTAssertTrue(plain.warnings.contains { $0.hasPrefix("line 2: setShouldDismiss ignored") }, "\(plain.warnings)")
        XCTAssertEqual(UISheetEdgeCaseTests.events(plain).map(\.1), ["willDismiss"])
        sheet.shouldDismiss = .always
        let dirty = simulate(
            Trace(header: TraceHeader(name: "d", environment: env, sheet: sheet), samples: [call] + pull))
        XCTAssertEqual(UISheetEdgeCaseTests.events(dirty).map(\.1), ["shouldDismiss(false)"])
        XCTAssertTrue(dirty.warnings.isEmpty, "\(dirty.warnings)")
    }
}
