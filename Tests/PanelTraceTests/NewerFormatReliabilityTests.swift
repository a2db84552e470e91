import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

/// Inputs at the sizes an outside reliability run used: a UISheet header with 10⁵ custom detents,
/// UISheet messages that say what was expected, and a trace of 10⁵ states changed by 100
/// `invalidateLayout` patches written back at its own size.
final class NewerFormatReliabilityTests: XCTestCase {
    static let sheetEnvironment =
        #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}"#

    /// A UISheet header whose `detents` are `n` custom detents (identifiers `detent-0`…), then `extra`.
    static func sheetHeader(detents n: Int, extra: String = "") -> String {
        var text =
            #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "# + sheetEnvironment
            + #", "sheet": {"detents": ["#
        text.reserveCapacity(n * 60 + 300)
        for i in 0..<n {
            if i > 0 { text += ", " }
            text += #"{"identifier": "detent-\#(i)", "kind": "custom", "height": \#(100 + i % 600)}"#
        }
        return text + extra + "]}}\n"
    }

    /// 10⁵ custom detents (a 6 MB header) load: the identifiers are checked for uniqueness through
    /// a hash table (comparing each with every earlier one took 19.5 s; the time is in
    /// RELIABILITY.md, this test only loads the size).
    func testOneHundredThousandSheetDetentsLoad() throws {
        let text = Self.sheetHeader(detents: 100_000)
        XCTAssertGreaterThan(text.utf8.count, 6_000_000)
        let trace = try TraceLoader.parse(text: text, file: "detents.jsonl")
        let detents = try XCTUnwrap(trace.header.sheet?.detents)
        XCTAssertEqual(detents.count, 100_000)
        XCTAssertEqual(detents[99_999].identifier, "detent-99999")
        XCTAssertEqual(detents[99_999].kind, .height(Double(100 + 99_999 % 600)))
    }

    /// A duplicate among many detents is still found, and the message names the earlier position.
    func testDuplicateDetentAmongManyNamesTheEarlierPosition() {
        let text = Self.sheetHeader(
            detents: 5_000, extra: #", {"identifier": "detent-1234", "kind": "custom", "fraction": 0.5}"#)
        XCTAssertThrowsError(try TraceLoader.parse(text: text, file: "dup.jsonl")) { error in
            guard let e = error as? TraceError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.field, "sheet.detents[5000].identifier")
            XCTAssertTrue(
                e.message.contains("duplicate detent identifier 'detent-1234' (also sheet.detents[1234])"),
                e.description)
        }
        // A medium or large detent without an identifier takes its kind's name, which must be unique too.
        let kinds =
            #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "# + Self.sheetEnvironment
            + #", "sheet": {"detents": [{"kind": "medium"}, {"kind": "large"}, {"kind": "medium"}]}}"# + "\n"
        XCTAssertThrowsError(try TraceLoader.parse(text: kinds, file: "dup.jsonl")) { error in
            XCTAssertEqual((error as? TraceError)?.field, "sheet.detents[2].identifier")
        }
    }

    /// Each of the sheet header's refusals says what was expected.
    func testSheetRefusalsSayWhatWasExpected() {
        let head =
            #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "# + Self.sheetEnvironment
            + #", "sheet": "#
        let cases: [(String, String)] = [
            (#"{"keyboardPolicy": "uikit", "expandOnKeyboard": false}"#, "sheet.expandOnKeyboard"),
            (#"{"detents": [{"kind": "custom", "height": 100}]}"#, "sheet.detents[0].identifier"),
            (#"{"detents": [{"identifier": "a", "kind": "custom"}]}"#, "sheet.detents[0].height"),
            (
                #"{"detents": [{"identifier": "a", "kind": "custom", "height": 100, "fraction": 0.5}]}"#,
                "sheet.detents[0].fraction"
            ),
        ]
        for (sheet, field) in cases {
            XCTAssertThrowsError(try TraceLoader.parse(text: head + sheet + "}\n", file: "s.jsonl"), sheet) { error in
                guard let e = error as? TraceError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.field, field, e.description)
                XCTAssertTrue(e.message.contains("expected "), e.description)
                XCTAssertEqual(e.line, 1)
            }
        }
    }

    // MARK: - Layout patches written as patches

    /// A FloatingPanel trace with `states` custom states (no anchors) and `patches`
    /// `invalidateLayout` lines, each changing the intrinsic length, with a short drag after each.
    static func manyStatesTrace(states n: Int, patches: Int) -> String {
        var text =
            #"{"format": "panelsim-trace", "version": 1, "name": "many-states", "environment": {"container": {"width": 390, "height": 844}}, "panel": {"states": ["#
        text.reserveCapacity(n * 40 + patches * 200 + 400)
        for i in 0..<n {
            if i > 0 { text += ", " }
            text += #"{"name": "s\#(i)", "order": \#(2000 + i)}"#
        }
        text +=
            #"], "anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}, "initialState": "half"}}"#
            + "\n"
        for k in 0..<patches {
            let t = Double(k)
            text += #"{"t": \#(t), "call": "invalidateLayout", "panel": {"intrinsicLength": \#(300 + k % 7)}}"# + "\n"
            text += #"{"t": \#(t + 0.1), "touch": "began", "x": 195, "y": 500}"# + "\n"
            text += #"{"t": \#(t + 0.2), "touch": "ended", "x": 195, "y": 450}"# + "\n"
        }
        return text
    }

    /// 10⁵ states × 100 `invalidateLayout` patches: the written trace is about its input's size
    /// (each patch written whole made 3.7 MB into 373 MB) and loads back to the same trace.
    func testLayoutPatchesOfManyStatesAreWrittenAtTheSizeOfTheChange() throws {
        let text = Self.manyStatesTrace(states: 100_000, patches: 100)
        let trace = try TraceLoader.parse(text: text, file: "many.jsonl")
        XCTAssertEqual(trace.samples.count, 300)
        let written = TraceWriter.write(trace)
        XCTAssertLessThan(
            written.utf8.count, 2 * text.utf8.count, "written \(written.utf8.count) bytes for \(text.utf8.count)")
        // Each patch line names only the field that changed.
        let patchLines = written.split(separator: "\n").filter { $0.contains("invalidateLayout") }
        XCTAssertEqual(patchLines.count, 100)
        XCTAssertTrue(
            patchLines.allSatisfy { $0.utf8.count < 100 },
            String(patchLines.first { $0.utf8.count >= 100 }?.prefix(200) ?? ""))
        let reloaded = try TraceLoader.parse(text: written, file: "written.jsonl")
        XCTAssertEqual(reloaded.header, trace.header)
        XCTAssertEqual(reloaded.samples.map(\.kind), trace.samples.map(\.kind))
        XCTAssertEqual(TraceWriter.write(reloaded), written)
    }

    /// Patches of every field, of states, anchors and behavior together, and a patch that
    /// changes nothing, load back to the layouts in force of the original trace.
    func testLayoutPatchesOfEveryFieldRoundTrip() throws {
        let header =
            #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"states": [{"name": "lastQuart", "order": 750}, {"name": "peek", "order": 50}], "anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "peek": {"absoluteInset": 20, "edge": "bottom"}}, "initialState": "half", "backdropAlpha": {"full": 0.3, "peek": 0.1}}}"#
        let patches = [
            #"{"intrinsicLength": 300}"#, #"{"initialState": "peek"}"#, #"{}"#,
            #"{"anchors": {"full": {"absoluteInset": 60, "edge": "top"}, "tip": {"absoluteInset": 69, "edge": "bottom"}, "peek": {"absoluteInset": 20, "edge": "bottom"}}}"#,
            #"{"backdropAlpha": {"half": 0.2}}"#,
            #"{"states": [{"name": "peek", "order": 60}, {"name": "deep", "order": 10}], "anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "deep": {"absoluteInset": 5, "edge": "bottom"}}, "initialState": "deep"}"#,
            #"{"behavior": {"projectsMomentumTo": ["deep", "full"], "springResponseTime": 0.5}}"#,
            #"{"position": "top", "anchors": {"full": {"absoluteInset": 53, "edge": "bottom"}, "half": {"absoluteInset": 300, "edge": "top"}}, "initialState": "half"}"#,
            #"{"contentMode": "fitToBounds", "presented": false, "grabberAreaOffset": 10, "removalInteractionEnabled": true, "backdrop": {"dismissalTapEnabled": true}}"#,
        ]
        var lines = [header]
        for (k, patch) in patches.enumerated() {
            lines.append(#"{"t": \#(k), "call": "invalidateLayout", "panel": \#(patch)}"#)
        }
        let trace = try TraceLoader.parse(text: lines.joined(separator: "\n") + "\n", file: "patches.jsonl")
        let written = TraceWriter.write(trace)
        let reloaded = try TraceLoader.parse(text: written, file: "written.jsonl")
        XCTAssertEqual(reloaded.samples.map(\.kind), trace.samples.map(\.kind))
        XCTAssertEqual(TraceWriter.write(reloaded), written)
        // The patch that changed nothing is written empty; the others name their fields only.
        let written2 = written.split(separator: "\n").map(String.init)
        XCTAssertEqual(written2[3], #"{"t": 2.000000, "call": "invalidateLayout", "panel": {}}"#)
        XCTAssertEqual(written2[1], #"{"t": 0.000000, "call": "invalidateLayout", "panel": {"intrinsicLength": 300}}"#)
        // The general path reads every patch merged whole, and agrees.
        XCTAssertEqual(
            try TraceLoader.parse(utf8: Array(written.utf8), file: "w.jsonl", fastPath: false).samples.map(\.kind),
            trace.samples.map(\.kind))
    }

    // MARK: - The digest of BOM and CR LF files

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The fuzz regression input (an LNPopup trace with a BOM and CR LF line endings) loads with the
    /// digest docs/FORMATS.md §2 defines, the one of the same trace saved with LF and no BOM, and
    /// the same samples: what the trace target's oracle checks (its copy of the rule is written
    /// out in Fuzz/FuzzTargets.swift, as here).
    func testBOMAndCRLFTraceDigestIsTheDocumentedOne() throws {
        let reproducer = Self.repository + "/Fuzz/regressions/trace/lnpopup-bom-crlf.jsonl"
        let original = Self.repository + "/traces/lnpopup/s2/drag-300-plus600-nobar.jsonl"
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: reproducer)).map { $0 }
        XCTAssertEqual(Array(bytes.prefix(3)), [0xEF, 0xBB, 0xBF])
        XCTAssertTrue(bytes.contains(0x0D))
        // The documented rule, spelled out: drop a leading BOM, write each CR LF as LF.
        var documented = Array(bytes.dropFirst(3))
        var k = 0
        while k + 1 < documented.count {
            if documented[k] == 0x0D && documented[k + 1] == 0x0A { documented.remove(at: k) } else { k += 1 }
        }
        let loaded = try TraceLoader.load(path: reproducer)
        XCTAssertEqual(loaded.digest, "sha256:" + SHA256.hex(documented))
        XCTAssertNotEqual(loaded.digest, "sha256:" + SHA256.hex(bytes))
        let plain = try TraceLoader.load(path: original)
        XCTAssertEqual(loaded.digest, plain.digest)
        XCTAssertEqual(loaded.trace.header.model, .lnPopup)
        XCTAssertEqual(loaded.trace.samples, plain.trace.samples)
    }

    // MARK: - An environment sample that takes the keyboard away

    /// A UISheet `environment` sample with `"keyboard": null` after a keyboard (the input of
    /// Fuzz/regressions/uisheet/, whose written trace loaded back with the header's keyboard) loads
    /// without a keyboard, and the writer and the recorder write such samples so that they load
    /// back the same: the loader merges a sample over the environment in force, so leaving the
    /// member out would keep the old keyboard.
    func testEnvironmentSampleThatTakesTheKeyboardAwayRoundTrips() throws {
        let header =
            #"{"format": "panelsim-trace", "version": 1, "model": "uisheet", "environment": {"container": {"width": 844, "height": 844}, "displayScale": 3, "keyboard": {"height": 0, "duration": 0}}}"#
        let text =
            [
                header,
                #"{"t": 0.15, "environment": {"container": {"width": 16, "height": 844}, "keyboard": null}}"#,
                #"{"t": 0.2, "environment": {"keyboard": {"height": 336, "firstResponderInSheet": true}}}"#,
                #"{"t": 0.3, "environment": {"keyboard": null}}"#,
            ].joined(separator: "\n") + "\n"
        let trace = try TraceLoader.parse(text: text, file: "keyboard.jsonl")
        func keyboards(_ t: Trace) -> [Double?] {
            t.samples.compactMap { s -> Double?? in
                guard case .environment(let e) = s.kind else { return nil }
                return .some(e.keyboard?.height)
            }
        }
        XCTAssertEqual(trace.header.environment.keyboard?.height, 0)
        XCTAssertEqual(keyboards(trace), [nil, 336, nil])

        let written = TraceWriter.write(trace)
        let reloaded = try TraceLoader.parse(text: written, file: "written.jsonl")
        XCTAssertEqual(reloaded.header, trace.header)
        XCTAssertEqual(reloaded.samples, trace.samples)
        XCTAssertEqual(keyboards(reloaded), [nil, 336, nil])
        XCTAssertEqual(written.components(separatedBy: #""keyboard": null"#).count - 1, 2, written)

        let sink = MemoryTraceSink()
        let recorder = try TraceRecorder(header: trace.header, sink: sink)
        for s in trace.samples { try recorder.append(at: Double(s.time) / 1_000_000, s.kind) }
        try recorder.close()
        let recorded = try TraceLoader.parse(text: sink.text, file: "recorded.jsonl")
        XCTAssertEqual(recorded.samples.map(\.kind), trace.samples.map(\.kind))
        XCTAssertEqual(keyboards(recorded), [nil, 336, nil])
    }
}
