import XCTest
import PanelSimCore
@testable import PanelTrace

final class TraceWriterTests: XCTestCase {
    /// True once `CanonicalNumber` (owned elsewhere) is implemented; with the stub,
    /// `formatSeconds` prints raw µs and written times do not read back.
    private var canonicalNumbersLanded: Bool { CanonicalNumber.formatSeconds(208_333) == "0.208333" }

    private func renumbered(_ t: Trace) -> Trace {
        var t = t
        for i in t.samples.indices { t.samples[i].line = i + 2 }
        return t
    }

    func testRoundTripOfTheFullTrace() throws {
        try XCTSkipUnless(canonicalNumbersLanded, "CanonicalNumber is still the stub; round trip checked once it lands")
        let original = try TraceLoader.parse(text: Fixtures.validTrace, file: "x.jsonl")
        let text = TraceWriter.write(original)
        let reread = try TraceLoader.parse(text: text, file: "x.jsonl")
        XCTAssertEqual(reread, renumbered(original))
        XCTAssertEqual(TraceWriter.write(reread), text, "writing is a fixed point")
    }

    func testRoundTripOfAConstructedTrace() throws {
        try XCTSkipUnless(canonicalNumbersLanded, "CanonicalNumber is still the stub; round trip checked once it lands")
        var panel = FloatingPanelConfiguration()
        panel.position = .right
        panel.states = [
            FloatingPanelState(name: "peek", order: 50), FloatingPanelState(name: "wide \"open\"\n", order: 1500),
        ]
        panel.anchors = [
            AnchorEntry(state: .full, anchor: .inset(0.25, isFractional: true, edge: .left, guide: .superview)),
            AnchorEntry(
                state: FloatingPanelState(name: "peek", order: 50),
                anchor: .intrinsic(12.5, isFractional: false, guide: .safeArea)),
        ]
        panel.initialState = FloatingPanelState(name: "peek", order: 50)
        panel.backdropAlpha = ["peek": 0.125, "full": 0.5, "hidden": 0]
        panel.behavior.projectsMomentumTo = ["full"]
        panel.behavior.rubberBandingEdges = ["top", "bottom"]
        var header = TraceHeader(
            name: "constructed é",
            environment: PanelEnvironment(container: Size(width: 1024, height: 768), frameRate: 60), panel: panel)
        header.delegate.targetStateOverrides = ["peek": "full", "full": "peek"]
        header.delegate.didMove = DidMoveRecipes(clamp: nil, dismissBeyond: StateOffset(state: .full, offset: -3.5))
        header.delegate.scrollableStates = []
        header.recognizer.velocity = .ios
        let samples = [
            TraceSample(time: 1, kind: .touch(TouchSample(phase: .began, id: 3, location: Point(x: -1.5, y: 0.1)))),
            TraceSample(
                time: 16_667,
                kind: .touch(
                    TouchSample(phase: .ended, id: 3, location: Point(x: 2, y: 3), velocity: Point(x: -1200.25, y: 0)))),
            TraceSample(time: 16_667, kind: .observed(ObservedSample(backdropAlpha: 0.5))),
            TraceSample(time: 20_000, kind: .observed(ObservedSample())),
            TraceSample(time: 1_000_000_000, kind: .end),
        ]
        let trace = Trace(header: header, samples: samples)
        let reread = try TraceLoader.parse(text: TraceWriter.write(trace), file: "y.jsonl")
        XCTAssertEqual(reread, renumbered(trace))
    }

    func testHeaderKeyOrderFollowsTheContract() throws {
        let header = try TraceLoader.parse(text: Fixtures.minimalHeader, file: "k.jsonl").header
        let line = TraceWriter.headerLine(header)
        XCTAssertFalse(line.contains("\n"))
        guard case .object(let o) = try JSON.parse(line) else { return XCTFail() }
        XCTAssertEqual(
            o.keys,
            ["format", "version", "name", "description", "source", "environment", "panel", "delegate", "recognizer"])
        guard case .object(let panel) = o["panel"] else { return XCTFail() }
        XCTAssertEqual(
            panel.keys,
            [
                "position", "states", "anchors", "initialState", "intrinsicLength", "backdropAlpha", "contentMode",
                "grabberAreaOffset", "removalInteractionEnabled", "backdrop", "presented", "behavior",
            ])
        guard case .object(let alpha) = panel["backdropAlpha"] else { return XCTFail() }
        XCTAssertEqual(alpha.keys, ["full", "half", "tip"])
        XCTAssertTrue(
            line.hasPrefix(
                #"{"format": "panelsim-trace", "version": 1, "name": "k", "description": "", "source": {"kind": "synthetic""#
            ), line)
    }

    func testSampleLines() {
        XCTAssertEqual(
            TraceWriter.sampleLine(TraceSample(time: 0, kind: .call(.remove))),
            #"{"t": \#(CanonicalNumber.formatSeconds(0)), "call": "remove"}"#)
        XCTAssertEqual(
            TraceWriter.sampleLine(TraceSample(time: 5, kind: .call(.move(to: .tip, animated: false)))),
            #"{"t": \#(CanonicalNumber.formatSeconds(5)), "call": "move", "to": "tip", "animated": false}"#)
        XCTAssertEqual(
            TraceWriter.sampleLine(TraceSample(time: 5, kind: .end)),
            #"{"t": \#(CanonicalNumber.formatSeconds(5)), "end": true}"#)
        XCTAssertEqual(JSON.quote("a\"\\\u{01}\n"), #""a\"\\\u0001\n""#)
    }
}
