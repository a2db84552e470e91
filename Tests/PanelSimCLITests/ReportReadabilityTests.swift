import XCTest
import Foundation
@testable import PanelSimCLI
@testable import PanelGolden
import PanelSimCore
import PanelTrace

/// The HTML report's parts on results built by hand: event lanes, hover values and zooms, the
/// event table, the narrow renderings and the one colour scheme.
final class ReportReadabilityTests: XCTestCase {
    private let header = ResultHeader(
        trace: "t", traceDigest: "sha256:" + String(repeating: "ab", count: 32), frameRate: 60, displayScale: 3)

    private func frame(_ k: Int, _ location: Double, _ state: String = "half", dragging: Bool = false) -> ResultRecord {
        .frame(
            FrameRecord(
                index: k, location: location, state: state, backdropAlpha: 0, isAttracting: false, isDragging: dragging)
        )
    }

    private func input(_ golden: [ResultRecord], _ actual: [ResultRecord]) -> HTMLReport.Input {
        let g = ResultDocument(header: header, records: golden)
        let a = ResultDocument(header: header, records: actual)
        return HTMLReport.Input(
            title: "t", header: nil, golden: g, actual: a, comparison: Comparator.compare(expected: g, actual: a))
    }

    /// A drag released at 0.5 s: `shouldBeginDragging` asked three times in a row, then the
    /// release's events; `target` and the state are what `tip` changes.
    private func drag(target: String, releaseAt release: Microseconds = 500_000) -> [ResultRecord] {
        var r: [ResultRecord] = [.event(time: 0, .didChangeState(state: "half")), frame(0, 400)]
        for k in 6...8 { r.append(.event(time: frameTime(k, frameRate: 60), .shouldBeginDragging(result: true))) }
        r.append(.event(time: 150_000, .willBeginDragging(state: "half")))
        r.append(
            .event(time: release, .willEndDragging(velocity: Point(x: 0, y: -300), proposed: "half", target: target)))
        r.append(.event(time: release, .didChangeState(state: target)))
        r.append(frame(30, 380, target))
        return r
    }

    /// Differing events are ringed in both lanes with what changed (`target half→tip`); every
    /// dot has a label or belongs to a run labelled `name ×N`; the colour key lists the event
    /// kinds, the ring and the states.
    func testEventLanesMarkDifferingEventsAndLabelEveryDotWithAKey() throws {
        let inp = input(drag(target: "half"), drag(target: "tip"))
        let html = HTMLReport.render(inp)
        XCTAssertEqual(
            html.components(separatedBy: "fill=\"#c62828\">willEndDragging target half→tip</text>").count - 1, 2,
            "both lanes, wide layout")
        XCTAssertTrue(html.contains(">shouldBeginDragging ×3</text>"), "a run of close, matching events: one label")
        let plot = Plot(input: inp)
        for layout in [PlotLayout.wide, .phone] {
            var p = plot
            p.layout = layout
            for block in p.laneBlocks() {
                let items = block.rows.flatMap { $0 }
                let counted = items.compactMap(\.label).map { label -> Int in
                    guard let r = label.range(of: " ×") else { return 1 }
                    return Int(label[r.upperBound...].prefix { $0.isNumber }) ?? 1
                }.reduce(0, +)
                XCTAssertEqual(counted, items.count, "\(block.title): every dot is labelled or part of a labelled run")
            }
        }
        let key = try XCTUnwrap(html.components(separatedBy: "<b>events</b>").dropFirst().first)
        for entry in [
            "dragging", "state, presentation", "differs (ringed)", "<b>states</b>", ">half</span>", ">tip</span>",
        ] {
            XCTAssertTrue(key.contains(entry), entry)
        }
    }

    /// Hover text gives each frame's golden and actual values and Δ; besides the zoom at the
    /// first difference there is one at the largest error when it is elsewhere.
    func testHoverValuesAndAZoomAtTheLargestError() throws {
        let golden = (0...120).map { frame($0, Double($0)) }
        var actual = golden
        actual[10] = frame(10, 10.5)
        actual[100] = frame(100, 114.4)
        let html = HTMLReport.render(input(golden, actual))
        XCTAssertTrue(
            html.contains("<title>t = 1.666667 s · frame 100\ngolden 100 pt\nactual 114.4 pt\nΔ +14.4 pt</title>"),
            "hover values")
        XCTAssertTrue(html.contains("<h2>Zoom at the first difference (t = 0.166667 s)</h2>"))
        XCTAssertTrue(html.contains("<h2>Zoom at the largest location error (t = 1.666667 s)</h2>"))
        XCTAssertTrue(html.contains(">largest location error 14.4 pt, t = 1.666667 s</text>"))
        // Close together, one zoom shows both.
        var near = golden
        near[10] = frame(10, 10.5)
        near[12] = frame(12, 26.4)
        XCTAssertFalse(HTMLReport.render(input(golden, near)).contains("Zoom at the largest location error"))
    }

    /// The event table: a Δ column; values rounded to what the tolerance sees (the text report
    /// keeps every digit); matching `didMove` rows collapse, one beyond tolerance stays; an event
    /// that only moved in time reads as moved (both times), not as missing.
    func testEventTableHasDeltasRoundedValuesCollapsedRunsAndMovedRows() throws {
        func result(changed: Bool) -> [ResultRecord] {
            var r: [ResultRecord] = [.event(time: 0, .didChangeState(state: "half"))]
            for k in 1...40 {
                var location = 100 + Double(k) / 3
                if changed && k == 20 { location += 0.3 }
                if changed && (21...25).contains(k) { location += 5e-7 }
                r.append(.event(time: frameTime(k, frameRate: 60), .didMove(location: location)))
                r.append(frame(k, location, dragging: true))
            }
            // Ten more that the actual result reports 4 ms later, with the same values.
            for k in 41...50 {
                r.append(.event(time: frameTime(k, frameRate: 60) + (changed ? 4000 : 0), .didMove(location: 120)))
                r.append(frame(k, 120, dragging: true))
            }
            r.append(
                .event(
                    time: changed ? 916_667 : 900_000,
                    .willEndDragging(velocity: Point(x: 0, y: -300), proposed: "full", target: "full")))
            return r
        }
        let inp = input(result(changed: false), result(changed: true))
        let table = HTMLReport.eventTable(inp)
        XCTAssertTrue(table.contains("<th>golden</th><th>actual</th><th>Δ</th>"))
        XCTAssertFalse(
            table.contains("100.33333333333333") || table.contains("106.66666666666667"), "rounded to the tolerance")
        XCTAssertTrue(table.contains(">location 106.666667<"), table)
        XCTAssertTrue(
            HTMLReport.render(inp).contains("expected: 106.66666666666667"), "the text report keeps every digit")
        XCTAssertTrue(
            table.contains(
                "<tr class=\"chg\"><td class=\"mark\">≠</td><td class=\"num\">0.333333</td><td class=\"ev\">didMove</td>"
            ), table)
        XCTAssertTrue(table.contains("<td class=\"d\" data-label=\"Δ\">location +0.3 pt</td>"), table)
        XCTAssertTrue(table.contains(" more didMove rows, unchanged ("), "matching didMove rows collapse")
        XCTAssertTrue(
            table.contains(
                "<td class=\"mark\">Δt</td><td class=\"num\">0.900000</td><td class=\"ev\">willEndDragging</td><td class=\"g\" data-label=\"golden\">t 0.900000 · velocity (0, -300)"
            ), table)
        XCTAssertTrue(table.contains("<td class=\"a\" data-label=\"actual\">t 0.916667 · velocity (0, -300)"), table)
        XCTAssertTrue(table.contains("Δt +16.667 ms"), table)
        XCTAssertFalse(table.contains("(absent)"), "a moved event is not a missing one")
        let differences = try XCTUnwrap(table.components(separatedBy: "<details>").first)
        XCTAssertTrue(differences.contains("Differences only (12 of 52 events"), differences)
        XCTAssertTrue(
            differences.contains(
                "… 8 more didMove rows, each moved by Δt +4 ms, values within tolerance (0.700000–0.816667 s)"),
            "didMove rows that only moved by the same time collapse: \(differences)")
    }

    /// Every chart comes wide and narrow; the narrow one keeps text at 10 CSS px or more on a
    /// 420 px window (388 px of page), the wide one from 1000 px windows up; the style sheet shows
    /// one by width and stacks the event table on phones.
    func testEveryChartHasANarrowRenderingReadableAt420Pixels() {
        let golden = (0...60).map { frame($0, Double($0)) }
        var actual = golden
        actual[30] = frame(30, 33)
        let html = HTMLReport.render(input(golden, actual))
        let wide = html.components(separatedBy: "<svg class=\"plot wide\"").count - 1
        let narrow = html.components(separatedBy: "<svg class=\"plot narrow\"").count - 1
        XCTAssertGreaterThanOrEqual(wide, 3)
        XCTAssertEqual(wide, narrow)
        XCTAssertEqual(html.components(separatedBy: "viewBox=\"0 0 520.0 ").count - 1, narrow)
        XCTAssertEqual(html.components(separatedBy: "font-size=\"14.0\"").count - 1, narrow)
        XCTAssertGreaterThanOrEqual(PlotLayout.phone.font * (420 - 32) / PlotLayout.phone.width, 10)
        XCTAssertGreaterThanOrEqual(PlotLayout.wide.font * (1000 - 32) / PlotLayout.wide.width, 10)
        for rule in [
            "@media (max-width: 999px) { svg.plot.wide { display: none; } }",
            "@media (min-width: 1000px) { svg.plot.narrow { display: none; } }",
            "table.events td[data-label]::before",
        ] {
            XCTAssertTrue(HTMLReport.styleSheet.contains(rule), rule)
        }
        XCTAssertFalse(html.contains("font-size=\"10\"") || html.contains("font-size=\"11\""))
    }

    /// One colour per meaning, the same in text and charts: golden, actual, differences,
    /// finger and observed are distinct and no state or event kind uses them; the golden line
    /// and golden text share the golden's colour; the residual is drawn like the location plot
    /// (a positive difference lower); the sweep's minimum is labelled in its own curve's colour.
    func testOneColourSchemeInTextAndChartsAndTheResidualOrientedLikeThePlot() throws {
        let meanings = [
            HTMLReport.goldenColor, HTMLReport.actualColor, HTMLReport.alertColor, HTMLReport.fingerColor,
            HTMLReport.observedColor,
        ]
        XCTAssertEqual(Set(meanings).count, meanings.count)
        for state in [
            "full", "half", "tip", "open", "barPresented", "large", "medium", "transitioning", "somethingElse",
        ] {
            for strong in [true, false] {
                XCTAssertFalse(meanings.contains(HTMLReport.stateColor(state, strong: strong)), state)
            }
        }
        for category in Plot.EventCategory.allCases {
            XCTAssertFalse(meanings.contains(category.color), category.rawValue)
        }
        let golden = (0...60).map { frame($0, Double($0)) }
        var actual = golden
        actual[30] = frame(30, 35)
        let inp = input(golden, actual)
        let html = HTMLReport.render(inp)
        XCTAssertTrue(html.contains("stroke=\"\(HTMLReport.goldenColor)\" stroke-width=\"5\""), "golden line")
        XCTAssertTrue(html.contains("stroke=\"\(HTMLReport.actualColor)\" stroke-width=\"1.6\""), "actual line")
        XCTAssertTrue(
            HTMLReport.styleSheet.contains(
                ".g { color: #57606a; font-weight: 600; border-bottom: 3px solid \(HTMLReport.goldenColor); }"))
        XCTAssertTrue(
            HTMLReport.styleSheet.contains(
                ".a { color: #0b4f9c; font-weight: 600; border-bottom: 2px solid \(HTMLReport.actualColor); }"))
        XCTAssertTrue(
            html.contains("<span class=\"g\">  expected: 30</span>")
                && html.contains("<span class=\"a\">  actual:   35  (|error| 5)</span>"))
        // The residual: +5 at frame 30 lies below the zero line.
        var plot = Plot(input: inp)
        plot.residualEvents = [Plot.Point2(t: 0.5, v: 5)]
        let svg = plot.residualSVG(
            [Plot.ResidualSeries(label: "e", color: HTMLReport.alertColor, points: plot.residualEvents, dots: true)],
            band: 1, label: "")
        func number(after marker: String, in text: String) throws -> Double {
            let r = try XCTUnwrap(text.range(of: marker))
            return try XCTUnwrap(Double(text[r.upperBound...].prefix { $0 != "\"" }))
        }
        let zero = try number(
            after: "\" y1=\"",
            in: try XCTUnwrap(
                svg.components(separatedBy: "\n").first { $0.contains("stroke=\"#57606a\" stroke-width=\"1\"") }))
        XCTAssertGreaterThan(
            try number(after: "cy=\"", in: svg), zero, "a positive residual is drawn lower, like a larger location")
        // The sweep: no red curve, and the minimum in the colour of the curve it is on.
        for color in SVGChart.palette {
            let rgb = [1, 3, 5].map { Int(color.dropFirst($0).prefix(2), radix: 16)! }
            XCTAssertFalse(rgb[0] > 160 && rgb[1] < 80 && rgb[2] < 80, "\(color) is red")
        }
        var chart = SVGChart(
            title: "t", xLabel: "x", yLabel: "y",
            series: [
                .init(label: "a", points: [(0, 5), (1, 4)], color: SVGChart.palette[0]),
                .init(label: "b", points: [(0, 3), (1, 1)], color: SVGChart.palette[1]),
            ])
        chart.markMinimum = true
        XCTAssertTrue(
            chart.render().contains(
                "fill=\"\(SVGChart.palette[1])\" font-weight=\"bold\" stroke=\"#ffffff\" stroke-width=\"4\" paint-order=\"stroke\">minimum 1 at 1</text>"
            ))
    }
}
