import XCTest
import PanelGolden
import PanelSimCore

final class ToleranceSettingsTests: XCTestCase {
    func testParseForms() throws {
        var (c, t) = try ToleranceSettings.parse("location=0.01")
        XCTAssertEqual(c, .location)
        XCTAssertEqual(t, Tolerance(absolute: 0.01))
        (c, t) = try ToleranceSettings.parse("velocity=abs:1e-9,rel:1e-6")
        XCTAssertEqual(c, .velocity)
        XCTAssertEqual(t, Tolerance(absolute: 1e-9, relative: 1e-6))
        (c, t) = try ToleranceSettings.parse(" backdropAlpha = rel:0.5 ")
        XCTAssertEqual(c, .backdropAlpha)
        XCTAssertEqual(t, Tolerance(relative: 0.5))
        (c, t) = try ToleranceSettings.parse("time=0.0005")
        XCTAssertEqual(Tolerances.default.applying([(c, t)]).time, 500)
        // `t`, the channel's name in result files and comparison reports, is the same channel.
        let alias = try ToleranceSettings.parse("t=0.0005")
        XCTAssertEqual(alias.0, .time)
        XCTAssertEqual(alias.1, t)
    }

    func testParseErrors() {
        for bad in [
            "location", "speed=1", "location=-1", "location=nan", "location=inf", "location=abs:1,abs:2",
            "location=max:1", "time=rel:0.1", "location=0x10", "location=",
        ] {
            XCTAssertThrowsError(try ToleranceSettings.parse(bad), bad)
        }
        XCTAssertEqual(try? ToleranceSettings.parse("speed=1").0, nil)
        do { _ = try ToleranceSettings.parse("speed=1") } catch {
            XCTAssertEqual(
                error.description,
                "unknown tolerance channel 'speed' (channels: location, contentOffset, backdropAlpha, velocity, time)")
        }
    }

    func testFileAndPrecedence() throws {
        let settings = try ToleranceSettings.parseFile(
            "# comment\n\nlocation = 0.5  # loose\nlocation = abs:0.25\n", file: "t/panelsim.tolerances")
        XCTAssertEqual(settings.count, 2)
        let t = Tolerances.default.applying(settings)
        XCTAssertEqual(t.location, Tolerance(absolute: 0.25))  // later wins
        XCTAssertEqual(t.velocity, Tolerances.default.velocity)  // others keep defaults
        XCTAssertThrowsError(try ToleranceSettings.parseFile("location = 1\nbogus\n", file: "f")) { error in
            XCTAssertEqual(
                (error as? ToleranceSettingError)?.description,
                "f:2: tolerance 'bogus' is not CHANNEL=VALUE (channels: location, contentOffset, backdropAlpha, velocity, time)"
            )
        }
    }

    func testFixedNumberAndMarkup() {
        XCTAssertEqual(FixedNumber.format(2, decimals: 2), "2.00")
        XCTAssertEqual(FixedNumber.format(-0.0001, decimals: 2), "0.00")
        XCTAssertEqual(FixedNumber.format(0.05, decimals: 1), "0.1")
        XCTAssertEqual(FixedNumber.format(-12.345, decimals: 0), "-12")
        XCTAssertEqual(FixedNumber.format(0.000123, decimals: 6), "0.000123")
        XCTAssertEqual(Markup.escape("a<b>&\"'\u{1}"), "a&lt;b&gt;&amp;&quot;&#39;\u{FFFD}")
    }

    func testParameterDigestHeaderRoundTrip() throws {
        let h = ResultHeader(
            trace: "t", traceDigest: "sha256:aa", parameterDigest: "sha256:bb", frameRate: 120, displayScale: 3)
        let line = ResultFile.headerLine(h)
        XCTAssertEqual(
            line,
            #"{"format": "panelsim-result", "version": 1, "trace": "t", "traceDigest": "sha256:aa", "parameterDigest": "sha256:bb", "engine": "panelsim 0.1.0", "frameRate": 120, "displayScale": 3}"#
        )
        XCTAssertEqual(try ResultFile.readHeader(text: line, file: "f"), h)
        // A version-1 file written before the field existed still reads, with an empty digest.
        let old = try ResultFile.readHeader(
            text: line.replacingOccurrences(of: #""parameterDigest": "sha256:bb", "#, with: ""), file: "f")
        XCTAssertEqual(old.parameterDigest, "")
        // The digest depends on parameters, not on how the trace spelled them.
        var header = TraceHeader(
            name: "x", environment: PanelEnvironment(container: Size(width: 390, height: 844)),
            panel: FloatingPanelConfiguration())
        let d1 = ResultHeader.parameterDigest(of: header)
        header.panel.behavior.springResponseTime = 0.3
        XCTAssertNotEqual(ResultHeader.parameterDigest(of: header), d1)
        XCTAssertTrue(d1.hasPrefix("sha256:") && d1.count == 71)
    }

    func testDiscreteDivergenceReportedSeparately() {
        let header = ResultHeader(trace: "t", traceDigest: "d", frameRate: 10, displayScale: 2)
        func doc(_ loc: Double, _ state: String) -> ResultDocument {
            ResultDocument(
                header: header,
                records: [
                    .frame(
                        FrameRecord(
                            index: 0, location: 10, state: "half", backdropAlpha: 0, isAttracting: false,
                            isDragging: false)),
                    .frame(
                        FrameRecord(
                            index: 1, location: loc, state: "half", backdropAlpha: 0, isAttracting: false,
                            isDragging: false)),
                    .event(time: 200_000, .didChangeState(state: state)),
                ])
        }
        let onlyValues = Comparator.compare(expected: doc(11, "full"), actual: doc(12, "full"))
        XCTAssertNil(onlyValues.firstDiscreteDivergence)
        XCTAssertTrue(
            onlyValues.report().contains("events, states and decisions: identical (only continuous values differ)"))
        let both = Comparator.compare(expected: doc(11, "full"), actual: doc(12, "tip"))
        XCTAssertEqual(both.firstDivergence?.channel, .location)
        XCTAssertEqual(both.firstDiscreteDivergence?.channel, .state)
        XCTAssertTrue(
            both.report().contains(
                "events, states and decisions: first differ at record 2 (line 4), t = 0.200000 s: state: expected full, actual tip"
            ), both.report())
    }
}
