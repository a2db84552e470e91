import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

/// Edge cases of the sheet model. Every expected value
/// is worked out here from uisheet.md (and floatingpanel-core.md §9 O6/O7 for the content), never
/// copied from a replay. D1 = 390 × 844, safe area 47/34, scale 3, 120 Hz: medium 388.333, large 57.
final class UISheetEdgeCaseTests: XCTestCase {
    static let env =
        #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}"#
    static let ml = #"[{"identifier": "medium", "kind": "medium"}, {"identifier": "large", "kind": "large"}]"#
    static let medium = 844 - 34 - (0.56 * 753 * 3).rounded() / 3  // §3.1 item 4: 388.333 on the 1/3 pt grid
    static let large = 57.0

    func load(_ lines: [String], file: String = "r.jsonl") throws -> Trace {
        try TraceLoader.parse(text: lines.joined(separator: "\n") + "\n", file: file)
    }

    static func header(sheet: String, env: String = UISheetEdgeCaseTests.env, extra: String = "") -> String {
        #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "name": "r", "# + env + #", "sheet": "# + sheet
            + extra + "}"
    }

    static func touch(_ t: Double, _ phase: String, _ y: Double, x: Double = 195) -> String {
        let v = phase == "ended" ? #", "velocity": {"x": 0, "y": 0}"# : ""
        return #"{"t": \#(t), "touch": "\#(phase)", "x": \#(x), "y": \#(y)\#(v)}"#
    }

    static func events(_ r: SimulationResult) -> [(Microseconds, String)] {
        UISheetCorpusTests.events(r).map { ($0.0, UISheetCorpusTests.spelled($0.1)) }
    }

    /// §3.5, ζ = 1, v₀ = 0: the displacement d(τ) = d₀ (1 + ωτ) e^(−ωτ).
    static func spring(_ d0: Double, _ tau: Double) -> Double {
        let w = 2 * Double.pi / 0.3441442326
        return d0 * (1 + w * tau) * exp(-w * tau)
    }

    /// The UIScrollView rubber band of O6 / physics.md §2: b(x) = (1 − 1/(0.55 x/d + 1)) d.
    static func band(_ x: Double, _ d: Double) -> Double { (1 - 1 / (0.55 * x / d + 1)) * d }

    // MARK: F1 — the ended sample's lift point is the pan's last change

    func testF1LiftPointDecidesTheRelease() throws {
        // began 500, moved 490 (begins the pan), moved 480 (u = 368.333), ended at 300 at rest:
        // u = 388.333 − 200 = 188.333, nearest large (131.333 vs 200) → large with its record at 0.13.
        let t = try load([
            Self.header(sheet: #"{"detents": "# + Self.ml + "}"),
            Self.touch(0.1, "began", 500), Self.touch(0.11, "moved", 490),
            Self.touch(0.12, "moved", 480), Self.touch(0.13, "ended", 300),
        ])
        let r = simulate(t)
        let ev = Self.events(r)
        XCTAssertEqual(ev.map(\.1), ["didChangeSelectedDetentIdentifier(large)"])
        XCTAssertEqual(ev.first?.0, 130_000)
        let frames = UISheetCorpusTests.frames(r)
        // Frame 16 (t = 16/120 s, printed 0.133333) is the first after the release: the spring from
        // 188.333 to 57, evaluated at the frame's exact time (DESIGN.md), 16/120 − 0.13 s after it.
        let f16 = try XCTUnwrap(frames.first { $0.index == 16 })
        let u = Self.medium - 200
        XCTAssertEqual(u, 188 + 1.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(
            f16.location ?? .nan, Self.large + Self.spring(u - Self.large, 16.0 / 120 - 0.13), accuracy: 1e-6)
        XCTAssertEqual(frames.last?.location ?? .nan, Self.large, accuracy: 1e-9)
        XCTAssertEqual(frames.last.flatMap(UISheetCorpusTests.state), "large")
    }

    func testF1CrossingAtTheLiftPointAsksTheDelegate() throws {
        // began 500, moved 510 (begins), moved 480, ended at 700: u = 588.333 passes below medium at
        // the lift point → shouldDismiss(true), willDismiss there (§3.6 item 2); the release picks
        // medium (211.667 < 255.667 from H) → no didDismiss (Q1), no selection record (§3.4).
        let sheet = #"{"detents": "# + Self.ml + "}"
        let lines = [
            Self.header(sheet: sheet, extra: #", "sheetDelegate": {"shouldDismiss": "always"}"#),
            Self.touch(0.1, "began", 500), Self.touch(0.11, "moved", 510), Self.touch(0.12, "moved", 480),
        ]
        let r = simulate(try load(lines + [Self.touch(0.13, "ended", 700)]))
        XCTAssertEqual(Self.events(r).map(\.1), ["shouldDismiss(true)", "willDismiss"])
        XCTAssertEqual(Self.events(r).map(\.0), [130_000, 130_000])
        let last = try XCTUnwrap(UISheetCorpusTests.frames(r).last)
        XCTAssertEqual(last.location ?? .nan, Self.medium, accuracy: 1e-9)
        XCTAssertEqual(UISheetCorpusTests.bool(last["presented"]), true)
        // Lifted at 800 instead: u = 688.333 is past the midpoint 616.167 to H → dismissed.
        let d = simulate(try load(lines + [Self.touch(0.13, "ended", 800)]))
        XCTAssertEqual(Self.events(d).map(\.1), ["shouldDismiss(true)", "willDismiss", "didDismiss"])
        XCTAssertEqual(UISheetCorpusTests.frames(d).last.flatMap { UISheetCorpusTests.bool($0["presented"]) }, false)
    }

    // MARK: F2 — content that cannot scroll is never moved by the sheet's pan

    func testF2NonScrollableContentStaysAtItsEdge() throws {
        // Content 500 in a 767 pt frame: not scrollable (§3.9), so a touch in it is a sheet pan
        // (§3.9 item 2, last case) and the offset stays at its top, 0, in every frame.
        let sv =
            #", "scrollView": {"frame": {"x": 0, "y": 20, "width": 390, "height": 767}, "contentSize": {"width": 390, "height": 500}}"#
        for (selected, ys, expectedState, expectedRest) in [
            ("\"large\"", [300.0, 310, 400, 500], "medium", Self.medium),  // down 200 from large: u = 257 → medium
            ("null", [700.0, 690, 600, 500], "large", Self.large),
        ] {  // up 200 from medium: u = 188.333 → large
            let t = try load([
                Self.header(
                    sheet: #"{"detents": "# + Self.ml + #", "selectedDetentIdentifier": "# + selected + "}", extra: sv),
                Self.touch(0.1, "began", ys[0]), Self.touch(0.108333, "moved", ys[1]),
                Self.touch(0.116667, "moved", ys[2]), Self.touch(0.125, "moved", ys[3]),
                Self.touch(0.133333, "ended", ys[3]),
            ])
            let frames = UISheetCorpusTests.frames(simulate(t))
            for f in frames { XCTAssertEqual(UISheetCorpusTests.number(f["contentOffset"]), 0, "frame \(f.index)") }
            XCTAssertEqual(frames.last.flatMap(UISheetCorpusTests.state), expectedState)
            XCTAssertEqual(frames.last?.location ?? .nan, expectedRest, accuracy: 1e-9)
        }
    }

    // MARK: F3 — the hand-off remainder rubber-bands past the content's bottom edge (O6, U29)

    func testF3HandOffRemainderRubberBandsPastTheBottom() throws {
        // At large (the top-most candidate) with the content at 0, finger up 400 inside the list:
        // the sheet takes nothing (§3.9 item 2), the content gets 400 against a maximum of
        // 1000 − 767 = 233 → 233 + b(167, 767) while dragged; released beyond the edge it is back
        // at 233 at the next frame (O7). With alwaysBounceVertical and content 500 (max 0), finger
        // up 200: b(200, 767) while dragged, then 0.
        for (size, bounce, up, maxOffset) in [(1000.0, false, 400.0, 233.0), (500, true, 200, 0)] {
            let sv =
                #", "scrollView": {"frame": {"x": 0, "y": 20, "width": 390, "height": 767}, "contentSize": {"width": 390, "height": \#(size)}, "alwaysBounceVertical": \#(bounce)}"#
            let y0 = 700.0
            let t = try load([
                Self.header(sheet: #"{"detents": "# + Self.ml + #", "selectedDetentIdentifier": "large"}"#, extra: sv),
                Self.touch(0.1, "began", y0), Self.touch(0.108333, "moved", y0 - 10),
                Self.touch(0.116667, "moved", y0 - up / 2), Self.touch(0.125, "moved", y0 - up),
                Self.touch(0.133333, "ended", y0 - up),
            ])
            let frames = UISheetCorpusTests.frames(simulate(t))
            let dragged = try XCTUnwrap(frames.first { $0.index == 15 })  // processes the last moved sample
            XCTAssertEqual(
                UISheetCorpusTests.number(dragged["contentOffset"]) ?? .nan,
                maxOffset + Self.band(up - maxOffset, 767), accuracy: 1e-9, "content \(size)")
            XCTAssertEqual(UISheetCorpusTests.number(frames.last?["contentOffset"]) ?? .nan, maxOffset, accuracy: 1e-9)
            XCTAssertEqual(frames.last?.location ?? .nan, Self.large, accuracy: 1e-9)
        }
        // The worked numbers of the review: 315.03 and 96.2.
        XCTAssertEqual(233 + Self.band(167, 767), 315.03, accuracy: 0.005)
        XCTAssertEqual(Self.band(200, 767), 96.20, accuracy: 0.005)
    }

    func testF3HandOffWithoutBouncesStopsAtTheEdge() throws {
        // bounces false: the shared O6 pan clamps at the maximum offset.
        let sv =
            #", "scrollView": {"frame": {"x": 0, "y": 20, "width": 390, "height": 767}, "contentSize": {"width": 390, "height": 1000}, "bounces": false}"#
        let t = try load([
            Self.header(sheet: #"{"detents": "# + Self.ml + #", "selectedDetentIdentifier": "large"}"#, extra: sv),
            Self.touch(0.1, "began", 700), Self.touch(0.108333, "moved", 690),
            Self.touch(0.125, "moved", 300), Self.touch(0.133333, "ended", 300),
        ])
        for f in UISheetCorpusTests.frames(simulate(t)) {
            XCTAssertLessThanOrEqual(UISheetCorpusTests.number(f["contentOffset"]) ?? .nan, 233, "frame \(f.index)")
        }
    }

    // MARK: F4 — unknown identifiers in the header warn (§2.4)

    func testF4HeaderIdentifiersNamingNoDetentWarn() throws {
        let t = try load([
            Self.header(
                sheet: #"{"detents": "# + Self.ml
                    + #", "selectedDetentIdentifier": "zzz", "largestUndimmedDetentIdentifier": "yyy"}"#),
            #"{"t": 0.1, "end": true}"#,
        ])
        let r = simulate(t)
        XCTAssertTrue(
            r.warnings.contains { $0.contains("sheet.selectedDetentIdentifier: 'zzz' names no active detent") },
            "\(r.warnings)")
        XCTAssertTrue(
            r.warnings.contains { $0.contains("sheet.largestUndimmedDetentIdentifier: 'yyy' names no active detent") },
            "\(r.warnings)")
        // Behaviour as §3.2 / §3.8: the smallest detent is shown, the undimmed one counts as nil.
        let f = try XCTUnwrap(UISheetCorpusTests.frames(r).first)
        XCTAssertEqual(f.location ?? .nan, Self.medium, accuracy: 1e-9)
        XCTAssertEqual(UISheetCorpusTests.number(f["dimming"]), 1)
        // Known identifiers do not warn.
        let ok = simulate(
            try load([
                Self.header(
                    sheet: #"{"detents": "# + Self.ml
                        + #", "selectedDetentIdentifier": "large", "largestUndimmedDetentIdentifier": "medium"}"#)
            ]))
        XCTAssertFalse(ok.warnings.contains { $0.contains("names no active detent") }, "\(ok.warnings)")
    }

    // MARK: F5, F6 — compact height (§3.11, U25)

    func testF5CompactHeightWithOnlyMediumIsFullScreen() throws {
        // H = 400 < 500: medium is inactive, but without edge attachment the sheet is full screen
        // (location 0, §3.11), whatever its detents.
        let env =
            #""environment": {"container": {"width": 390, "height": 400}, "safeArea": {"top": 0, "left": 0, "bottom": 21, "right": 0}, "displayScale": 3, "frameRate": 120}"#
        let r = simulate(try load([Self.header(sheet: #"{"detents": [{"kind": "medium"}]}"#, env: env)]))
        let f = try XCTUnwrap(UISheetCorpusTests.frames(r).first)
        XCTAssertEqual(f.location, 0)
        XCTAssertEqual(UISheetCorpusTests.bool(f["presented"]), true)
        XCTAssertFalse(r.warnings.contains { $0.contains("no active detent") }, "\(r.warnings)")
        // Edge-attached in compact height: the §3.1 layout, where medium is inactive → not shown.
        let e = simulate(
            try load([
                Self.header(
                    sheet: #"{"detents": [{"kind": "medium"}], "prefersEdgeAttachedInCompactHeight": true}"#, env: env)
            ]))
        XCTAssertEqual(UISheetCorpusTests.frames(e).first.flatMap { UISheetCorpusTests.bool($0["presented"]) }, false)
        XCTAssertTrue(e.warnings.contains { $0.contains("no active detent") }, "\(e.warnings)")
    }

    func testF6RegularWidthWarningOnlyOutsideThePhoneLayouts() throws {
        func warns(_ w: Int, _ h: Int) throws -> Bool {
            let env =
                #""environment": {"container": {"width": \#(w), "height": \#(h)}, "safeArea": {"top": 0, "left": 0, "bottom": 21, "right": 0}, "displayScale": 3, "frameRate": 120}"#
            return simulate(try load([Self.header(sheet: #"{"detents": "# + Self.ml + "}", env: env)])).warnings
                .contains { $0.contains("regular width") }
        }
        XCTAssertFalse(try warns(844, 390))  // landscape phone: compact height (H < 500)
        XCTAssertFalse(try warns(932, 430))  // the largest phone in landscape
        XCTAssertFalse(try warns(390, 844))  // portrait phone
        XCTAssertTrue(try warns(1024, 768))  // iPad: both dimensions beyond the phone layouts
        XCTAssertTrue(try warns(820, 1180))
    }

    // MARK: F10 — geometry that cannot exist, and no active detent while presented

    func assertRefused(
        _ lines: [String], line: Int, field: String, file: StaticString = #filePath, lineNumber: UInt = #line
    ) {
        XCTAssertThrowsError(try load(lines), file: file, line: lineNumber) { error in
            guard let e = error as? TraceError else { return XCTFail("\(error)", file: file, line: lineNumber) }
            XCTAssertEqual(e.line, line, e.description, file: file, line: lineNumber)
            XCTAssertEqual(e.field, field, e.description, file: file, line: lineNumber)
            XCTAssertTrue(
                e.description.hasPrefix("r.jsonl:\(line): \(field): "), e.description, file: file, line: lineNumber)
        }
    }

    func testF10ImpossibleGeometryIsRefused() throws {
        func env(_ top: Int, _ bottom: Int) -> String {
            #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": \#(top), "left": 0, "bottom": \#(bottom), "right": 0}, "displayScale": 3, "frameRate": 120}"#
        }
        assertRefused([Self.header(sheet: "{}", env: env(900, 34))], line: 1, field: "environment.safeArea.top")
        assertRefused([Self.header(sheet: "{}", env: env(500, 400))], line: 1, field: "environment.safeArea.bottom")
        assertRefused(
            [
                Self.header(sheet: "{}"),
                #"{"t": 0.1, "environment": {"safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "container": {"width": 390, "height": 60}}}"#,
            ],
            line: 2, field: "environment.safeArea.bottom")
        assertRefused(
            [Self.header(sheet: #"{"simulator": {"topMargin": -100}}"#)], line: 1, field: "sheet.simulator.topMargin")
        // Still accepted: insets that fill the container exactly, a zero margin.
        XCTAssertNoThrow(try load([Self.header(sheet: #"{"simulator": {"topMargin": 0}}"#, env: env(810, 34))]))
        // A margin that leaves no room: accepted with a warning.
        let r = simulate(try load([Self.header(sheet: #"{"simulator": {"topMargin": 800}}"#)]))
        XCTAssertTrue(r.warnings.contains { $0.contains("maximumDetentValue") }, "\(r.warnings)")
    }

    func testF10SetDetentsWithoutActiveDetentWarnsAndParksTheSheet() throws {
        let t = try load([
            Self.header(sheet: #"{"detents": "# + Self.ml + "}"),
            #"{"t": 0.1, "call": "setDetents", "detents": [{"identifier": "x", "kind": "custom", "height": 100, "inactive": true}]}"#,
            #"{"t": 0.3, "end": true}"#,
        ])
        let r = simulate(t)
        XCTAssertTrue(
            r.warnings.contains {
                $0.contains("line 2: setDetents: no active detent; the sheet stays presented off screen at H")
            }, "\(r.warnings)")
        let last = try XCTUnwrap(UISheetCorpusTests.frames(r).last)
        XCTAssertEqual(last.location, 844)
        XCTAssertTrue(Self.events(r).isEmpty)
    }
}
