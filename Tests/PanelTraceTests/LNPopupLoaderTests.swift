import XCTest
import PanelSimCore
import PanelTrace

/// The LNPopup contract extension (lnpopup.md §2): every invalid-input case of §2.4 refused with its
/// line and field, defaults, and the writer's round trip.
final class LNPopupLoaderTests: XCTestCase {
    static let environment = #""environment": {"container": {"width": 390, "height": 844}}"#

    static func header(_ popup: String? = #"{"bottomBar": {"kind": "tabBar", "height": 83}}"#, extra: String = "")
        -> String
    {
        var h = #"{"format": "panelsim-trace", "version": 1, "model": "lnpopup", "name": "t", "# + environment
        if let popup { h += #", "popup": "# + popup }
        return h + extra + "}"
    }

    private func assertError(
        _ text: String, line: Int, field: String, _ fragment: String = "",
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        do {
            let t = try TraceLoader.parse(text: text, file: "traces/p.jsonl")
            XCTFail("expected an error, loaded \(t.samples.count) samples", file: file, line: sourceLine)
        } catch {
            XCTAssertEqual(error.file, "traces/p.jsonl", file: file, line: sourceLine)
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
            XCTAssertEqual(error.field, field, "\(error)", file: file, line: sourceLine)
            XCTAssertEqual(error.kind, .invalid, "\(error)", file: file, line: sourceLine)
            XCTAssertTrue(
                fragment.isEmpty || error.message.contains(fragment), "«\(error.message)» lacks «\(fragment)»",
                file: file, line: sourceLine)
            XCTAssertTrue(
                error.description.hasPrefix("traces/p.jsonl:\(line): \(field)"), error.description, file: file,
                line: sourceLine)
        }
    }

    func testInvalidHeadersNameLineAndField() {
        let panel = #", "panel": {"anchors": {"full": {"absoluteInset": 0, "edge": "top"}}}"#
        assertError(Self.header(extra: panel), line: 1, field: "panel", "does not belong in a lnpopup trace")
        assertError(Self.header(extra: #", "delegate": {}"#), line: 1, field: "delegate", "does not belong")
        assertError(
            Self.header(#"{"interactionStyle": "swipe"}"#), line: 1, field: "popup.interactionStyle",
            "default, automatic, snap, drag, scroll, none")
        assertError(Self.header(#"{"bar": {"style": "huge"}}"#), line: 1, field: "popup.bar.style", "floatingCompact")
        assertError(Self.header(#"{"bar": {"style": "custom"}}"#), line: 1, field: "popup.bar.height", "custom")
        assertError(Self.header(#"{"bottomBar": {"kind": "dock"}}"#), line: 1, field: "popup.bottomBar.kind", "tabBar")
        assertError(
            Self.header(#"{"bottomBar": {"kind": "tabBar"}}"#), line: 1, field: "popup.bottomBar.height", "missing")
        assertError(
            Self.header(#"{"bottomBar": {"kind": "toolbar", "height": 844}}"#), line: 1,
            field: "popup.bottomBar.height", "0 < T < 844")
        assertError(
            Self.header(#"{"bottomBar": {"kind": "tabBar", "height": 0}}"#), line: 1, field: "popup.bottomBar.height")
        assertError(
            Self.header(#"{"closeButton": {"style": "x"}}"#), line: 1, field: "popup.closeButton.style",
            "prominentGlass")
        assertError(
            Self.header(#"{"initialState": "closed"}"#), line: 1, field: "popup.initialState",
            "barHidden, barPresented, open")
        assertError(Self.header(#"{"snapPercent": "a"}"#), line: 1, field: "popup.snapPercent")
        assertError(
            Self.header(#"{"simulator": {"releaseRule": "4.4"}}"#), line: 1, field: "popup.simulator.releaseRule",
            "4.5.6, 4.5.5")
        assertError(Self.header(#"{"barStyle": "compact"}"#), line: 1, field: "popup.barStyle", "unknown key")
        // A popup section in another model's trace.
        let fp =
            #"{"format": "panelsim-trace", "version": 1, "name": "t", "# + Self.environment
            + #", "panel": {"anchors": {"full": {"absoluteInset": 0, "edge": "top"}}}, "popup": {}}"#
        assertError(fp, line: 1, field: "popup", "\"model\": \"lnpopup\"")
    }

    func testInvalidSamplesNameLineAndField() {
        let h = Self.header() + "\n"
        assertError(
            h + #"{"t": 0.1, "call": "present"}"#, line: 2, field: "call",
            "unknown LNPopup call 'present'; expected one of presentBar")
        assertError(h + #"{"t": 0.1, "call": "openPopup", "animated": 1}"#, line: 2, field: "animated")
        assertError(h + #"{"t": 0.1, "call": "tapBar", "x": 3}"#, line: 2, field: "x", "unknown key")
        assertError(
            h + #"{"t": 0.1, "touch": "began", "x": 1, "y": 2}"# + "\n"
                + #"{"t": 0.2, "environment": {"container": {"width": 844, "height": 390}}}"#,
            line: 3, field: "environment", "L15")
        assertError(
            h + #"{"t": 0.1, "observed": {"state": "closed"}}"#, line: 2, field: "observed.state", "barPresented")
    }

    func testDefaultsAndOptionalSection() throws {
        let t = try TraceLoader.parse(text: Self.header(nil) + "\n", file: "a.jsonl")
        XCTAssertEqual(t.header.model, .lnPopup)
        XCTAssertEqual(t.header.popup, PopupConfiguration())
        let p = try XCTUnwrap(t.header.popup)
        XCTAssertEqual(p.interactionStyle, .default)
        XCTAssertEqual(p.snapPercent, 0.32)
        XCTAssertEqual(p.initialState, .barPresented)
        XCTAssertEqual(p.dockingLine(environment: t.header.environment), 844 - 34)
        var clamped = PopupConfiguration()
        clamped.snapPercent = 0.95
        XCTAssertEqual(clamped.effectiveSnapPercent, 0.9)
    }

    func testWriterRoundTrip() throws {
        let text =
            Self.header(
                #"{"interactionStyle": "snap", "snapPercent": 0.4, "glass": true, "bar": {"style": "custom", "height": 70, "offset": -8}, "bottomBar": {"kind": "toolbar", "height": 83}, "closeButton": {"style": "round", "frame": {"x": 1, "y": 2, "width": 30, "height": 30}}, "interactionLimitRect": {"x": 0, "y": 0, "width": 390, "height": 500}, "initialState": "open", "simulator": {"curve": "linear", "releaseRule": "4.5.5"}}"#,
                extra:
                    #", "scrollView": {"frame": {"x": 0, "y": 0, "width": 390, "height": 844}, "contentSize": {"width": 800, "height": 2400}, "isDirectionalLockEnabled": true}"#
            )
            + "\n"
            + [
                #"{"t": 0.1, "call": "presentBar", "openPopup": true}"#,
                #"{"t": 0.2, "call": "dismissBar", "animated": false}"#,
                #"{"t": 0.3, "call": "openPopup"}"#, #"{"t": 0.4, "call": "closePopup"}"#,
                #"{"t": 0.5, "call": "tapBar"}"#,
                #"{"t": 0.6, "call": "tapCloseButton"}"#, #"{"t": 0.7, "call": "setContentOffset", "y": 30}"#,
                #"{"t": 0.8, "call": "setContentSize", "height": 900}"#,
            ].joined(separator: "\n") + "\n"
        let t = try TraceLoader.parse(text: text, file: "a.jsonl")
        let p = try XCTUnwrap(t.header.popup)
        XCTAssertEqual(p.barHeight, 70)
        XCTAssertEqual(p.barOffset, -8)
        XCTAssertTrue(p.scrollViewDirectionalLock)
        XCTAssertEqual(p.releaseRule, .legacy)
        XCTAssertEqual(
            t.samples.map(\.kind),
            [
                .popupCall(.presentBar(animated: true, openPopup: true)), .popupCall(.dismissBar(animated: false)),
                .popupCall(.openPopup(animated: true)), .popupCall(.closePopup(animated: true)),
                .popupCall(.tapBar), .popupCall(.tapCloseButton),
                .popupCall(.setContentOffset(x: nil, y: 30)), .popupCall(.setContentSize(width: nil, height: 900)),
            ])
        let again = try TraceLoader.parse(text: TraceWriter.write(t), file: "a.jsonl")
        XCTAssertEqual(again.header, t.header)
        XCTAssertEqual(again.samples.map(\.kind), t.samples.map(\.kind))
    }

    /// Warnings for what LNPopup does not support, and touches of other fingers.
    func testWarnings() throws {
        let text =
            Self.header(#"{"initialState": "barHidden"}"#) + "\n"
            + #"{"t": 0.1, "call": "openPopup"}"# + "\n" + #"{"t": 0.2, "touch": "began", "id": 1, "x": 1, "y": 2}"#
            + "\n"
            + #"{"t": 0.3, "touch": "ended", "id": 1, "x": 1, "y": 2}"# + "\n"
        let r = simulate(try TraceLoader.parse(text: text, file: "a.jsonl"))
        XCTAssertEqual(r.warnings.count, 2, "\(r.warnings)")
        XCTAssertTrue(r.warnings[0].contains("line 2: openPopup ignored"), r.warnings[0])
        XCTAssertTrue(r.warnings[1].contains("id 1"), r.warnings[1])
    }
}
