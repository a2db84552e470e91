import XCTest
@testable import PanelSimCore
import PanelTrace

/// LNPopup calls queued around a dismissal, and the checks of its observed samples, snap percent,
/// geometry and content-offset calls. Expected values come from lnpopup.md (§2.2, §2.3, §3.11,
/// §3.13, L12) and the choices documented in docs/lnpopup.md, not from the simulator.
final class LNPopupDismissalQueueAndInputTests: XCTestCase {
    static let tabBar =
        #"{"format": "panelsim-trace", "version": 1, "model": "lnpopup", "name": "t", "environment": {"container": {"width": 390, "height": 844}}, "popup": {"bottomBar": {"kind": "tabBar", "height": 83}}}"#

    static func run(_ lines: [String]) throws -> SimulationResult {
        simulate(try TraceLoader.parse(text: ([tabBar] + lines).joined(separator: "\n") + "\n", file: "a.jsonl"))
    }

    static func labels(_ r: SimulationResult) -> [String] {
        LNPopupCorpusTests.events(r).map { LNPopupCorpusTests.label($0.0, $0.1) }
    }

    /// The t = 0 records of `initialState: barPresented` (§2.3) and a closed bar's animated
    /// dismissal at 0.1 s (§3.11: 0.5 s bar animator).
    static let dismissedAt01 = [
        "willPresentPopupBar@0.000000", "didChangeState:barPresented@0.000000", "didPresentPopupBar@0.000000",
        "willDismissPopupBar@0.100000", "didChangeState:barHidden@0.600000", "didDismissPopupBar@0.600000",
    ]

    /// At rest with no bar (P1, P2 with the tab bar of D1: dock 761): barHidden, bar invisible and
    /// 0 pt tall, the content at the docking line, the tab bar on screen.
    func assertRestsWithoutBar(_ r: SimulationResult, file: StaticString = #filePath, line: UInt = #line) throws {
        let last = try XCTUnwrap(LNPopupCorpusTests.frames(r).last, file: file, line: line)
        XCTAssertEqual(last.state, "barHidden", file: file, line: line)
        XCTAssertEqual(LNPopupCorpusTests.string(last["internalState"]), "barHidden", file: file, line: line)
        XCTAssertEqual(last.location, 761, file: file, line: line)
        XCTAssertEqual(LNPopupCorpusTests.bool(last["barVisible"]), false, file: file, line: line)
        XCTAssertEqual(LNPopupCorpusTests.number(last["barHeight"]), 0, file: file, line: line)
        XCTAssertEqual(LNPopupCorpusTests.bool(last["bottomBarVisible"]), true, file: file, line: line)
        XCTAssertEqual(LNPopupCorpusTests.bool(last["isAnimating"]), false, file: file, line: line)
    }

    /// An app close or open queued behind a running dismissal is dropped with a warning when
    /// it would start without a bar (no didChangeState(barPresented), no didClosePopup without
    /// willClosePopup, no open with no bar).
    func testCallsQueuedDuringDismissalAreDroppedWithoutBar() throws {
        for call in ["closePopup", "openPopup"] {
            let r = try Self.run([#"{"t": 0.1, "call": "dismissBar"}"#, #"{"t": 0.2, "call": "\#(call)"}"#])
            XCTAssertEqual(Self.labels(r), Self.dismissedAt01, call)
            try assertRestsWithoutBar(r)
            XCTAssertEqual(r.warnings.count, 1, "\(r.warnings)")
            XCTAssertTrue(r.warnings.first?.hasPrefix("line 3: \(call) ignored") == true, "\(r.warnings)")
        }
    }

    /// A dropped entry does not hold the queue: a presentBar queued after it (present does not
    /// coalesce an open, §3.8) starts in the same completion frame.
    func testQueueGoesOnAfterADroppedEntry() throws {
        let r = try Self.run([
            #"{"t": 0.1, "call": "dismissBar"}"#, #"{"t": 0.2, "call": "openPopup"}"#,
            #"{"t": 0.3, "call": "presentBar"}"#,
        ])
        XCTAssertEqual(
            Self.labels(r),
            Self.dismissedAt01 + [
                "willPresentPopupBar@0.600000", "didChangeState:barPresented@1.100000",
                "didPresentPopupBar@1.100000",
            ])
        XCTAssertEqual(LNPopupCorpusTests.frames(r).last?.state, "barPresented")
    }

    /// The snap swipe's 0.15 s open timer (L12) is cancelled when the dismissal starts, and the
    /// gesture-ignore flag it set is cleared: after a new presentation a snap swipe opens again.
    func testDismissalCancelsTheSnapOpenTimer() throws {
        let swipe = [
            #"{"t": 0.1, "touch": "began", "x": 195, "y": 730}"#,
            #"{"t": 0.108333, "touch": "moved", "x": 195, "y": 710, "velocity": {"x": 0, "y": -800}}"#,
            #"{"t": 0.108333, "touch": "ended", "x": 195, "y": 710, "velocity": {"x": 0, "y": -800}}"#,
        ]
        let r = try Self.run(swipe + [#"{"t": 0.15, "call": "dismissBar"}"#])
        XCTAssertEqual(
            Self.labels(r),
            [
                "willPresentPopupBar@0.000000", "didChangeState:barPresented@0.000000", "didPresentPopupBar@0.000000",
                "willDismissPopupBar@0.150000", "didChangeState:barHidden@0.650000", "didDismissPopupBar@0.650000",
            ])
        try assertRestsWithoutBar(r)
        XCTAssertEqual(r.warnings.count, 1, "\(r.warnings)")
        XCTAssertTrue(
            r.warnings.first?.hasPrefix("line 3: the snap swipe's open (due at 0.258333 s) is cancelled") == true,
            "\(r.warnings)")

        let again = swipe.map { $0.replacingOccurrences(of: #""t": 0.1"#, with: #""t": 1.1"#) }
        let r2 = try Self.run(
            swipe + [#"{"t": 0.15, "call": "dismissBar"}"#, #"{"t": 0.7, "call": "presentBar", "animated": false}"#]
                + again)
        // The second swipe is recognized at 1.108333: open at + 0.15 s (§3.13), done 0.5 s later.
        XCTAssertEqual(
            Array(Self.labels(r2).suffix(3)),
            ["willOpenPopup@1.258333", "didChangeState:open@1.758333", "didOpenPopup@1.758333"])
        XCTAssertEqual(LNPopupCorpusTests.frames(r2).last?.state, "open")
    }

    /// The loader's error for `text`, nil when it loads.
    static func error(_ text: String) -> TraceError? {
        do {
            _ = try TraceLoader.parse(text: text, file: "p.jsonl")
            return nil
        } catch { return error }
    }

    /// §2.2 limits observed to location, state and contentOffset; the state is the public one.
    func testObservedKeysAndPublicStates() {
        let h = LNPopupLoaderTests.header() + "\n"
        let error = Self.error
        let alpha = error(h + #"{"t": 0.05, "observed": {"location": 761, "backdropAlpha": 0.7}}"#)
        XCTAssertEqual(alpha?.line, 2)
        XCTAssertEqual(alpha?.field, "observed.backdropAlpha")
        let transitioning = error(h + #"{"t": 0.05, "observed": {"state": "transitioning"}}"#)
        XCTAssertEqual(transitioning?.line, 2)
        XCTAssertEqual(transitioning?.field, "observed.state")
        XCTAssertNil(
            error(h + #"{"t": 0.05, "observed": {"location": 761, "state": "barPresented", "contentOffset": 0}}"#))
    }

    /// Every finite snapPercent is clamped to [0.1, 0.9] (§2.1, the setter).
    func testSnapPercentClampedOnBothSides() throws {
        for (written, effective) in [(0.0, 0.1), (-1, 0.1), (0.05, 0.1), (0.5, 0.5), (1.5, 0.9)] {
            let t = try TraceLoader.parse(
                text: LNPopupLoaderTests.header(#"{"snapPercent": \#(written)}"#) + "\n", file: "a.jsonl")
            XCTAssertEqual(t.header.popup?.snapPercent, written)
            XCTAssertEqual(t.header.popup?.effectiveSnapPercent, effective, "\(written)")
        }
    }

    /// The docking line and the closed bar must lie inside the 844 pt container.
    func testGeometryOutsideTheContainerIsRefused() {
        let error = Self.error
        func env(_ safeBottom: Int) -> String {
            #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": \#(safeBottom), "right": 0}}"#
        }
        let noBar = LNPopupLoaderTests.header(nil)
        let safe = error(noBar.replacingOccurrences(of: LNPopupLoaderTests.environment, with: env(900)) + "\n")
        XCTAssertEqual(safe?.line, 1)
        XCTAssertEqual(safe?.field, "environment.safeArea.bottom")
        // dock 844 − 800 = 44 < the 64 pt default bar.
        XCTAssertEqual(
            error(noBar.replacingOccurrences(of: LNPopupLoaderTests.environment, with: env(800)) + "\n")?.field,
            "environment.safeArea.bottom")
        // dock 64: the bar fills 0–64 exactly.
        XCTAssertNil(error(noBar.replacingOccurrences(of: LNPopupLoaderTests.environment, with: env(780)) + "\n"))
        XCTAssertEqual(
            error(LNPopupLoaderTests.header(#"{"bar": {"style": "custom", "height": 900}}"#) + "\n")?.field,
            "popup.bar.height")
        XCTAssertEqual(
            error(LNPopupLoaderTests.header(#"{"bottomBar": {"kind": "tabBar", "height": 800}}"#) + "\n")?.field,
            "popup.bottomBar.height")
        XCTAssertEqual(
            error(LNPopupLoaderTests.header(#"{"bar": {"offset": -800}}"#) + "\n")?.field, "popup.bar.offset")
        // Tab bar 83: dock 761, so offsets from 64 − 761 = −697 to 844 − 761 = 83 keep the bar inside.
        XCTAssertEqual(
            error(
                LNPopupLoaderTests.header(#"{"bottomBar": {"kind": "tabBar", "height": 83}, "bar": {"offset": 84}}"#)
                    + "\n")?.field, "popup.bar.offset")
        XCTAssertNil(
            error(
                LNPopupLoaderTests.header(#"{"bottomBar": {"kind": "tabBar", "height": 83}, "bar": {"offset": 83}}"#)
                    + "\n"))
        XCTAssertNil(
            error(
                LNPopupLoaderTests.header(#"{"bottomBar": {"kind": "tabBar", "height": 83}, "bar": {"offset": -697}}"#)
                    + "\n"))
        XCTAssertNil(error(LNPopupLoaderTests.header(#"{"glass": true, "bar": {"offset": -8}}"#) + "\n"))
    }

    /// Like FloatingPanel's setContentOffset, at least one axis.
    func testSetContentOffsetNeedsAnAxis() {
        let h = LNPopupLoaderTests.header() + "\n"
        let error = Self.error
        let offset = error(h + #"{"t": 0.1, "call": "setContentOffset"}"#)
        XCTAssertEqual(offset?.line, 2)
        XCTAssertEqual(offset?.field, "y")
        XCTAssertEqual(error(h + #"{"t": 0.1, "call": "setContentOffset", "x": null, "y": null}"#)?.field, "y")
        XCTAssertNil(error(h + #"{"t": 0.1, "call": "setContentOffset", "x": 5}"#))
    }
}
