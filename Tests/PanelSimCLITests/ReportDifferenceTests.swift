import XCTest
import Foundation
@testable import PanelSimCLI
@testable import PanelGolden
import PanelSimCore
import PanelTrace

/// What a failing report says first, and that every part of it (headline, summary, text report,
/// plots, event table) tells the same story: on copies of corpus traces with one touch moved
/// (`traces/` and `golden/` are only read).
final class ReportDifferenceTests: CLITestCase {
    /// `traces/REL` copied into the test folder with `old` replaced by `new` (once), and its golden
    /// as blessed.
    private func nudgedCopy(_ rel: String, _ old: String, _ new: String) throws {
        let repo = RepositoryCorpusTests.root
        let text = try String(contentsOfFile: repo + "/traces/" + rel, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: old).count, 2, "the nudge must match one line of \(rel)")
        try write(text.replacingOccurrences(of: old, with: new), "traces/" + rel)
        let golden = GoldenCheck.goldenRelativePath(forTrace: rel)
        try write(try String(contentsOfFile: repo + "/golden/" + golden, encoding: .utf8), "golden/" + golden)
    }

    /// The comparison and report input of a trace of the test folder against its golden.
    private func comparison(_ rel: String) throws -> HTMLReport.Input {
        XCTAssertEqual(run(["replay", "traces/" + rel, "-o", "actual.jsonl"]).code, 0)
        let actual = try ResultFile.read(text: try XCTUnwrap(read("actual.jsonl")), file: "actual.jsonl")
        let goldenRel = "golden/" + GoldenCheck.goldenRelativePath(forTrace: rel)
        let golden = try ResultFile.read(text: try XCTUnwrap(read(goldenRel)), file: goldenRel)
        let loaded = try TraceLoader.load(path: root + "/traces/" + rel)
        var input = HTMLReport.Input(
            title: "traces/" + rel, header: loaded.trace.header, golden: golden, actual: actual,
            comparison: Comparator.compare(expected: golden, actual: actual), goldenName: goldenRel)
        input.trace = loaded.trace
        return input
    }

    private static let slowRelease = (
        "tune/slow-release.jsonl",
        #"{"t": 0.391667, "touch": "moved", "x": 195, "y": 502.08333333333337}"#,
        #"{"t": 0.391667, "touch": "moved", "x": 195, "y": 522.08333333333337}"#
    )
    private static let lnPopup = (
        "lnpopup/s1/drag-slow-to-top-tab.jsonl",
        #"{"t": 3.06, "touch": "moved", "x": 195, "y": 20,"#, #"{"t": 3.06, "touch": "moved", "x": 195, "y": 40,"#
    )
    private static let uiSheet = (
        "uisheet/x4/x4-modal-large-far.jsonl",
        #"{"t": 0.275, "touch": "moved", "x": 195, "y": 700}"#, #"{"t": 0.275, "touch": "moved", "x": 195, "y": 680}"#
    )

    /// The text between `start` and the next `end` after it.
    private func section(_ html: String, from start: String, to end: String) throws -> String {
        let a = try XCTUnwrap(html.range(of: start), "no \(start)")
        let b = try XCTUnwrap(html.range(of: end, range: a.upperBound..<html.endIndex), "no \(end) after \(start)")
        return String(html[a.upperBound..<b.lowerBound])
    }

    /// One touch moved 20 pt changes only a `didMove` event (no frame shows it): the headline
    /// names the event, its field and both values with the difference, before any plot; the
    /// location plot marks it; both lanes ring it with what changed; the residual shows it; the
    /// text report names the event.
    /// A golden whose locations are near the largest double (a hand-edited or corrupted file)
    /// still gives a report: the value axis, whose step cannot walk such a range, gets no grid
    /// instead of a loop that never ends; `diff --report` likewise.
    func testAReportOfHugeLocationsFinishes() throws {
        let rel = "drawerkit/flick/d1-full-down.jsonl"
        try nudgedCopy(rel, "\"t\": 0.1,", "\"t\": 0.1,")
        let goldenRel = "golden/" + GoldenCheck.goldenRelativePath(forTrace: rel)
        let golden = try XCTUnwrap(read(goldenRel))
        for huge in ["9e+307", "1e+308", "-1.7976931348623157e+308"] {
            var lines = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let i = try XCTUnwrap(lines.indices.dropFirst(5).first { lines[$0].contains("\"frame\"") })
            lines[i] = lines[i].replacingOccurrences(
                of: #""location": [-0-9.e+]+"#, with: "\"location\": \(huge)", options: .regularExpression)
            try write(lines.joined(separator: "\n"), "huge.golden.jsonl")
            let report = run(["report", "traces/" + rel, "--golden", "huge.golden.jsonl", "-o", "r.html"])
            XCTAssertEqual(report.code, 1, report.stderr)
            XCTAssertTrue(try XCTUnwrap(read("r.html")).contains("</html>"), huge)
            XCTAssertEqual(run(["replay", "traces/" + rel, "-o", "a.jsonl"]).code, 0)
            XCTAssertEqual(run(["diff", "huge.golden.jsonl", "a.jsonl", "--report", "d.html"]).code, 1)
            XCTAssertTrue(try XCTUnwrap(read("d.html")).contains("</html>"), huge)
        }
    }

    func testAnEventOnlyDifferenceIsNamedFirstAndMarkedOnThePlots() throws {
        let (rel, old, new) = Self.slowRelease
        try nudgedCopy(rel, old, new)
        let r = run(["check", "--record", "never", "--report-dir", "reports"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(
            r.stdout.contains("  first divergence at record 74 (line 76), t = 0.391667 s, event didMove: location\n"),
            r.stdout)
        let html = try XCTUnwrap(read("reports/tune/slow-release.html"))
        let headline = try section(html, from: "<p class=\"headline\">", to: "</p>")
        XCTAssertEqual(
            headline,
            #"<b>Event didMove</b> at <b>t = 0.391667 s</b> (frame 47) differs: <b>location</b> golden <span class="g">336.583333 pt</span>, actual <span class="a">356.583333 pt</span> (<span class="d">Δ +20 pt</span>)."#
        )
        XCTAssertLessThan(
            try XCTUnwrap(html.range(of: "class=\"headline\"")).lowerBound,
            try XCTUnwrap(html.range(of: "<svg")).lowerBound)
        let location = try section(html, from: "<svg class=\"plot wide\"", to: "</svg>")
        XCTAssertTrue(
            location.contains(
                "<g data-mark=\"event-divergence\"><title>differs: didMove location 336.583333→356.583333 at t = 0.391667 s</title>"
            ), location)
        XCTAssertEqual(
            location.components(separatedBy: "fill=\"#c62828\">didMove location 336.583333→356.583333</text>").count
                - 1, 2,
            "labelled in both lanes, in the difference colour")
        XCTAssertEqual(
            location.components(separatedBy: "r=\"6.5\" fill=\"none\" stroke=\"#c62828\"").count - 1, 2,
            "ringed in both lanes")
        let residual = try section(html, from: "aria-label=\"residual\"", to: "</svg>")
        XCTAssertTrue(residual.contains("<title>events t = 0.391667 s: Δ 20</title>"), residual)
        XCTAssertTrue(html.contains("<h2>Zoom at the first difference (t = 0.391667 s)</h2>"))
    }

    /// An LNPopup golden whose one event differs in a discrete field (`animated`): check prints
    /// the event sequence diff with both values, and the report's summary says that only that
    /// record differs in events, states and decisions.
    func testOneChangedEventIsInTheEventDiffAndTheSummary() throws {
        let rel = "lnpopup/s1/bar-touch-outside-nobar.jsonl"
        let repo = RepositoryCorpusTests.root
        try write(try String(contentsOfFile: repo + "/traces/" + rel, encoding: .utf8), "traces/" + rel)
        let goldenRel = GoldenCheck.goldenRelativePath(forTrace: rel)
        let golden = try String(contentsOfFile: repo + "/golden/" + goldenRel, encoding: .utf8)
        let old = #""event": "didPresentPopupBar", "animated": false"#
        XCTAssertEqual(golden.components(separatedBy: old).count, 2)
        try write(
            golden.replacingOccurrences(of: old, with: #""event": "didPresentPopupBar", "animated": true"#),
            "golden/" + goldenRel)
        let r = run(["check", "--record", "never", "--report-dir", "reports"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.contains("  event sequence diff:\n"), r.stdout)
        XCTAssertTrue(
            r.stdout.contains(
                "    -0.000000 didPresentPopupBar animated: true\n    +0.000000 didPresentPopupBar animated: false\n"),
            r.stdout)
        let html = try XCTUnwrap(read("reports/" + String(rel.dropLast(".jsonl".count)) + ".html"))
        let summary = try section(html, from: "<p class=\"summary\">", to: "</p>")
        XCTAssertTrue(summary.contains("events, states and decisions differ only there"), summary)
        XCTAssertFalse(summary.contains("from there on"), summary)
    }

    /// LNPopup and UISheet copies whose records fall out of step (a frame one side does not
    /// write): the headline, the summary, the text report's counts and errors, the residual and
    /// the event table all read the one alignment and agree.
    func testHeadlineSummaryPlotsAndTablesAgreeWhenRecordsAreOutOfStep() throws {
        for (rel, old, new) in [Self.lnPopup, Self.uiSheet] {
            try nudgedCopy(rel, old, new)
            let input = try comparison(rel)
            let c = try XCTUnwrap(input.comparison)
            let d = c.differences
            let first = try XCTUnwrap(d.first, rel)
            XCTAssertEqual(first.kind, .frame, rel)
            let change = try XCTUnwrap(first.largest(on: .location), rel)
            let error = try XCTUnwrap(change.error)
            // The text report: first divergence, counts and max error from the same row.
            XCTAssertEqual(c.firstRecordDivergence?.frame, first.frame, rel)
            XCTAssertEqual(c.firstRecordDivergence?.channel, .location, rel)
            let location = try XCTUnwrap(c.channelErrors.first { $0.channel == .location })
            XCTAssertEqual(location.maxError, error, rel)
            XCTAssertGreaterThan(location.exceeded, 0, "\(rel): the summary counts the frame the residual shows")
            XCTAssertEqual(c.divergentRecords, d.differingRows.count)
            XCTAssertNil(c.firstDiscreteDivergence, "\(rel): events and states match when aligned by time")
            XCTAssertTrue(
                c.report().contains("events, states and decisions: identical (only continuous values differ)"),
                c.report())
            // The headline and summary.
            let headline = HTMLReport.headline(input)
            XCTAssertTrue(
                headline.text.hasPrefix(
                    "Frame \(first.frame!) at t = \(CanonicalNumber.formatSeconds(first.time)) s differs: location golden "
                ), headline.text)
            XCTAssertTrue(headline.html.contains("events, states and decisions are identical"), headline.html)
            // The plots: the first difference and the residual at that frame.
            let plot = Plot(input: input)
            XCTAssertEqual(plot.divergence?.t, Double(first.time) / 1e6, rel)
            let residualThere = try XCTUnwrap(
                plot.residual.first { abs($0.t - Double(first.time) / 1e6) < 1e-9 && $0.v != 0 }, rel)
            XCTAssertEqual(abs(residualThere.v), error, rel)
            for p in plot.residual where abs(p.v) > 1e-6 {
                // Off zero only at a differing frame, or held from one until the next frame.
                let held = d.rows.last { $0.kind == .frame && Double($0.time) / 1e6 <= p.t + 1e-9 }
                XCTAssertEqual(held?.differs, true, "\(rel): the residual is off at t = \(p.t) where no frame differs")
            }
            // The event table.
            let table = HTMLReport.eventTable(input)
            XCTAssertTrue(table.contains("The events of the golden and the actual result are identical"), table)
        }
    }
}
