import XCTest
import PanelSimCore
@testable import PanelTrace

/// Trace fields of adaptive anchors and lists: adaptive anchors, `scrollView.systemInset`, zero-size list frames.
final class AdaptiveAnchorAndListInsetTraceTests: XCTestCase {
    private let head =
        #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": ANCHOR, "half": {"absoluteInset": 300, "edge": "bottom"}}}SV}"#

    private func text(
        anchor: String = #"{"absoluteInset": 18, "edge": "top"}"#, scrollView: String = "", samples: [String] = []
    ) -> String {
        var h = head.replacingOccurrences(of: "ANCHOR", with: anchor)
        h = h.replacingOccurrences(of: "SV", with: scrollView.isEmpty ? "" : #", "scrollView": "# + scrollView)
        return ([h] + samples).joined(separator: "\n") + "\n"
    }

    private func assertError(
        _ text: String, line: Int, field: String, _ fragment: String,
        sourceFile: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        do {
            _ = try TraceLoader.parse(text: text, file: "traces/t.jsonl")
            XCTFail("expected an error", file: sourceFile, line: sourceLine)
        } catch {
            XCTAssertEqual(error.line, line, "\(error)", file: sourceFile, line: sourceLine)
            XCTAssertEqual(error.field, field, "\(error)", file: sourceFile, line: sourceLine)
            XCTAssertTrue(
                error.message.contains(fragment), "«\(error.message)» lacks «\(fragment)»", file: sourceFile,
                line: sourceLine)
        }
    }

    func testAdaptiveAnchorLoads() throws {
        let t = try TraceLoader.parse(
            text: text(
                anchor:
                    #"{"adaptive": {"fractionalOffset": 0.5, "contentLength": 420, "contentBoundingGuide": "superview"}}"#
            ), file: "t.jsonl")
        XCTAssertEqual(
            t.header.panel.anchors[0].anchor,
            .adaptive(0.5, isFractional: true, contentLength: 420, guide: .safeArea, bounding: .superview))
        let u = try TraceLoader.parse(
            text: text(
                anchor: #"{"adaptive": {"absoluteOffset": 10, "contentLength": 0, "referenceGuide": "superview"}}"#),
            file: "t.jsonl")
        XCTAssertEqual(
            u.header.panel.anchors[0].anchor,
            .adaptive(10, isFractional: false, contentLength: 0, guide: .superview, bounding: .none))
    }

    func testAdaptiveAnchorErrors() {
        let p = "panel.anchors.full.adaptive"
        assertError(
            text(anchor: #"{"adaptive": {"absoluteOffset": 0}}"#), line: 1, field: p + ".contentLength",
            "missing required field")
        assertError(
            text(anchor: #"{"adaptive": {"absoluteOffset": 0, "contentLength": -1}}"#), line: 1,
            field: p + ".contentLength", "a number ≥ 0")
        assertError(
            text(anchor: #"{"adaptive": {"contentLength": 10}}"#), line: 1, field: p, "missing adaptive anchor offset")
        assertError(
            text(anchor: #"{"adaptive": {"absoluteOffset": 0, "fractionalOffset": 1, "contentLength": 10}}"#), line: 1,
            field: p + ".fractionalOffset", "expected exactly one offset")
        assertError(
            text(anchor: #"{"adaptive": {"absoluteOffset": 0, "contentLength": 10, "contentBoundingGuide": "safe"}}"#),
            line: 1,
            field: p + ".contentBoundingGuide", "expected one of")
        assertError(
            text(anchor: #"{"adaptive": {"absoluteOffset": 0, "contentLength": 10, "referenceGuide": 1}}"#), line: 1,
            field: p + ".referenceGuide", "expected one of")
        assertError(
            text(anchor: #"{"adaptive": {"absoluteOffset": 0, "contentLength": 10, "edge": "top"}}"#), line: 1,
            field: p + ".edge", "unknown key 'edge'")
        assertError(
            text(anchor: #"{"adaptive": {"absoluteOffset": 0, "contentLength": 10}, "referenceGuide": "safeArea"}"#),
            line: 1,
            field: "panel.anchors.full.referenceGuide", "unknown key")
        assertError(text(anchor: #"{"adaptive": 3}"#), line: 1, field: p, "expected an object")
    }

    func testSystemInsetAndZeroFrame() throws {
        let sv =
            #"{"frame": {"x": 0, "y": 0, "width": 0, "height": 0}, "contentSize": {"width": 390, "height": 3000}, "systemInset": {"top": 44, "left": 0, "bottom": 0, "right": 0}}"#
        let t = try TraceLoader.parse(text: text(scrollView: sv), file: "t.jsonl")
        let c = try XCTUnwrap(t.header.scrollView)
        XCTAssertEqual(c.systemInset, Insets(top: 44, left: 0, bottom: 0, right: 0))
        XCTAssertEqual(c.frame.size, Size(width: 0, height: 0))
        XCTAssertEqual(c.contentInset, .zero)
        let plain = #"{"frame": {"x": 0, "y": 0, "width": 1, "height": 1}, "contentSize": {"width": 1, "height": 1}}"#
        XCTAssertEqual(
            try TraceLoader.parse(text: text(scrollView: plain), file: "t.jsonl").header.scrollView?.systemInset, .zero)
    }

    func testSystemInsetAndFrameErrors() {
        let base = #"{"frame": {"x": 0, "y": 0, "width": 10, "height": 10}, "contentSize": {"width": 1, "height": 1}"#
        assertError(
            text(scrollView: base + #", "systemInset": {"top": -1, "left": 0, "bottom": 0, "right": 0}}"#), line: 1,
            field: "scrollView.systemInset.top", "a number ≥ 0")
        assertError(
            text(scrollView: base + #", "systemInset": {"top": 44}}"#), line: 1, field: "scrollView.systemInset.left",
            "missing required field")
        assertError(
            text(scrollView: base + #", "systemInsets": {"top": 44}}"#), line: 1, field: "scrollView.systemInsets",
            "did you mean 'systemInset'?")
        assertError(
            text(samples: [#"{"t": 0, "call": "track", "scrollView": "# + base + #", "systemInset": 4}}"#]), line: 2,
            field: "scrollView.systemInset", "expected an object")
        assertError(
            text(samples: [
                #"{"t": 0, "call": "track", "scrollView": {"frame": {"x": 0, "y": 0, "width": 0, "height": -2}, "contentSize": {"width": 1, "height": 1}}}"#
            ]),
            line: 2, field: "scrollView.frame.height", "a number ≥ 0")
    }

    func testWriterRoundTrip() throws {
        var panel = FloatingPanelConfiguration()
        panel.anchors = [
            AnchorEntry(
                state: .full,
                anchor: .adaptive(0, isFractional: false, contentLength: 420.5, guide: .safeArea, bounding: .safeArea)),
            AnchorEntry(
                state: .half,
                anchor: .adaptive(0.5, isFractional: true, contentLength: 420.5, guide: .superview, bounding: .none)),
        ]
        var header = TraceHeader(
            name: "adaptive", environment: PanelEnvironment(container: Size(width: 390, height: 844)), panel: panel)
        var sv = ScrollViewConfiguration(
            frame: Rect(x: 0, y: 0, width: 0, height: 0), contentSize: Size(width: 390, height: 3000))
        sv.systemInset = Insets(top: 44, left: 1, bottom: 2, right: 3)
        header.scrollView = sv
        var tracked = sv
        tracked.systemInset = Insets(top: 0, left: 0, bottom: 83, right: 0)
        let trace = Trace(header: header, samples: [TraceSample(time: 10_000, line: 2, kind: .call(.track(tracked)))])
        let written = TraceWriter.write(trace)
        XCTAssertTrue(
            written.contains(
                #""adaptive": {"absoluteOffset": 0, "contentLength": 420.5, "referenceGuide": "safeArea", "contentBoundingGuide": "safeArea"}"#
            ), written)
        let reread = try TraceLoader.parse(text: written, file: "y.jsonl")
        XCTAssertEqual(reread, trace)
        XCTAssertEqual(TraceWriter.write(reread), written)
        // A list without a system inset writes no systemInset key (older traces stay byte-identical).
        header.scrollView?.systemInset = .zero
        XCTAssertFalse(TraceWriter.write(Trace(header: header, samples: [])).contains("systemInset"))
    }
}
