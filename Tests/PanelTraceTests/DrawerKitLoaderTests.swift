import XCTest
import PanelSimCore
import PanelTrace

/// The DrawerKit contract extension (drawerkit.md §2): every invalid case of §2.4 is refused with
/// the line and the field, valid headers read the spec's defaults, and a written DrawerKit trace
/// loads back equal.
final class DrawerKitLoaderTests: XCTestCase {
    static let environment =
        #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}}"#

    func header(_ drawer: String, extra: String = "") -> String {
        #"{"format": "panelsim-trace", "version": 1, "model": "drawerkit", "name": "t", "# + Self.environment
            + #", "drawer": "# + drawer + extra + "}"
    }

    func refused(
        _ text: String, line: Int, field: String, _ message: String = "", file: StaticString = #filePath,
        at: UInt = #line
    ) {
        do {
            _ = try TraceLoader.parse(text: text, file: "t.jsonl")
            XCTFail("loaded, expected an error at line \(line), field \(field)", file: file, line: at)
        } catch {
            XCTAssertEqual(error.line, line, error.description, file: file, line: at)
            XCTAssertEqual(error.field, field, error.description, file: file, line: at)
            XCTAssertTrue(
                error.description.hasPrefix("t.jsonl:\(line): \(field): "), error.description, file: file, line: at)
            if !message.isEmpty {
                XCTAssertTrue(error.message.contains(message), error.description, file: file, line: at)
            }
            XCTAssertEqual(error.kind, .invalid, error.description, file: file, line: at)
        }
    }

    func testEveryInvalidCaseOfSection2_4() {
        let ok = #"{"heightOfPartiallyExpandedDrawer": 300}"#
        // setDrawerState with a state outside the four named ones (and transitioning).
        refused(
            header(ok) + "\n" + #"{"t": 0, "call": "setDrawerState", "state": "transitioning"}"#, line: 2,
            field: "state", "traps")
        refused(header(ok) + "\n" + #"{"t": 0, "call": "setDrawerState", "state": "half"}"#, line: 2, field: "state")
        refused(
            header(ok) + "\n" + #"{"t": 0, "call": "move", "to": "full"}"#, line: 2, field: "call",
            "unknown DrawerKit call")
        // An unknown configuration field.
        refused(
            header(#"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"upperMarkGapp": 1}}"#),
            line: 1, field: "drawer.configuration.upperMarkGapp", "did you mean 'upperMarkGap'")
        // Negative values of fields marked ≥ 0.
        for key in [
            "totalDurationInSeconds", "flickSpeedThreshold", "upperMarkGap", "lowerMarkGap", "maximumCornerRadius",
        ] {
            refused(
                header(#"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {""# + key + #"": -1}}"#),
                line: 1, field: "drawer.configuration." + key, "≥ 0")
        }
        refused(
            header(
                #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"numberOfTapsForFullDrawerPresentation": -1}}"#
            ),
            line: 1, field: "drawer.configuration.numberOfTapsForFullDrawerPresentation")
        refused(
            header(
                #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"fullExpansionBehaviour": {"leavesCustomGap": -5}}}"#
            ),
            line: 1, field: "drawer.configuration.fullExpansionBehaviour.leavesCustomGap")
        // initialState dismissed / transitioning.
        for s in ["dismissed", "transitioning"] {
            refused(
                header(#"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"initialState": ""# + s + #""}}"#),
                line: 1, field: "drawer.configuration.initialState")
        }
        // A panel, scrollView or delegate section in a DrawerKit trace.
        refused(header(ok, extra: #", "panel": {"anchors": {}}"#), line: 1, field: "panel")
        refused(header(ok, extra: #", "delegate": {}"#), line: 1, field: "delegate")
        refused(header(ok, extra: #", "scrollView": null"#), line: 1, field: "scrollView")
        // A drawer section in a FloatingPanel trace, an unknown model.
        refused(
            #"{"format": "panelsim-trace", "version": 1, "# + Self.environment
                + #", "panel": {"anchors": {"full": {"absoluteInset": 0, "edge": "top"}}}, "drawer": {}}"#,
            line: 1, field: "drawer")
        refused(
            #"{"format": "panelsim-trace", "version": 1, "model": "drawers", "# + Self.environment
                + #", "drawer": {}}"#,
            line: 1, field: "model", "drawerkit")
        // A missing heightOfPartiallyExpandedDrawer; no drawer at all.
        refused(
            header(#"{"heightOfCollapsedDrawer": 100}"#), line: 1, field: "drawer.heightOfPartiallyExpandedDrawer",
            "missing")
        refused(
            #"{"format": "panelsim-trace", "version": 1, "model": "drawerkit", "# + Self.environment + "}", line: 1,
            field: "drawer")
        // alwaysShowBelowStatusBar with a status bar height of 0 (Q14).
        refused(
            header(
                #"{"heightOfPartiallyExpandedDrawer": 300, "statusBarHeight": 0, "configuration": {"cornerAnimationOption": "alwaysShowBelowStatusBar"}}"#
            ),
            line: 1, field: "drawer.configuration.cornerAnimationOption", "Q14")
        // Wrong types and unknown values.
        refused(
            header(#"{"heightOfPartiallyExpandedDrawer": "300"}"#), line: 1,
            field: "drawer.heightOfPartiallyExpandedDrawer")
        refused(
            header(
                #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"timingCurveProvider": {"dampingRatio": 0}}}"#
            ),
            line: 1, field: "drawer.configuration.timingCurveProvider.dampingRatio")
        refused(
            header(#"{"heightOfPartiallyExpandedDrawer": 300, "participants": ["presenter"]}"#), line: 1,
            field: "drawer.participants[0]")
        refused(
            header(#"{"heightOfPartiallyExpandedDrawer": 300, "simulator": {"midTransition": "fixed"}}"#), line: 1,
            field: "drawer.simulator.midTransition")
        refused(header(ok) + "\n" + #"{"t": 0, "call": "tapDrawer"}"#, line: 2, field: "y", "missing")
        refused(
            header(ok) + "\n" + #"{"t": 0, "environment": {"frameRate": 60}}"#, line: 2, field: "environment.frameRate")
    }

    func testDefaultsAndRoundTrip() throws {
        let trace = try TraceLoader.parse(
            text: header(
                #"{"heightOfPartiallyExpandedDrawer": 300, "heightOfCollapsedDrawer": 100, "participants": ["presenting", "presented"], "content": {"controls": [{"x": 10, "y": 20, "width": 30, "height": 40}]}, "configuration": {"timingCurveProvider": {"dampingRatio": 0.8}, "fullExpansionBehaviour": {"leavesCustomGap": 100}, "handleViewConfiguration": null, "passthroughTouchesInStates": []}, "simulator": {"midTransition": "shipped"}}"#
            )
                + "\n" + #"{"t": 0.5, "call": "setDrawerState", "state": "collapsed", "completion": true}"#
                + "\n" + #"{"t": 0.6, "call": "tapOutside", "x": 10, "y": 50}"#
                + "\n" + #"{"t": 0.7, "call": "present"}"# + "\n", file: "t.jsonl")
        let d = try XCTUnwrap(trace.header.drawer)
        XCTAssertEqual(trace.header.model, .drawerKit)
        XCTAssertEqual(d.totalDurationInSeconds, 0.4)
        XCTAssertEqual(d.flickSpeedThreshold, 3)
        XCTAssertNil(d.handleAutoAnimatesDimming)
        XCTAssertEqual(d.timingCurveProvider, .dampingRatio(0.8))
        XCTAssertEqual(d.fullExpansionBehaviour, .leavesCustomGap(100))
        XCTAssertEqual(d.passthroughTouchesInStates, [])
        XCTAssertEqual(d.midTransition, .shipped)
        XCTAssertTrue(d.participantPresenting && d.participantPresented)
        XCTAssertEqual(
            trace.samples.map(\.kind),
            [
                .drawerCall(.setDrawerState(.collapsed, animated: true, completion: true)),
                .drawerCall(.tapOutside(x: 10, y: 50)), .drawerCall(.present),
            ])
        let back = try TraceLoader.parse(text: TraceWriter.write(trace), file: "w.jsonl")
        XCTAssertEqual(back.header, trace.header)
        XCTAssertEqual(back.samples.map(\.kind), trace.samples.map(\.kind))
        XCTAssertEqual(back.samples.map(\.time), trace.samples.map(\.time))
    }

    /// The visible heights are not "≥ 0" fields. drawerkit.md §2.1 and
    /// §3.1 clamp them to [0, H], as DrawerKit's `GeometryEvaluator.drawerPartialH` /
    /// `drawerCollapsedH` do (min(max(0, h), H)), and DrawerKit has no ordering check between the
    /// collapsed and partial heights: an app can configure all of these, so they load (within the
    /// loader's 10^7 bound) and replay as DrawerKit would, with a warning naming the field, since
    /// such a value is most likely a mistake. Other §2.4 cases stay refused.
    func testHeightsOutsideTheScreenAreClampedWithAWarning() throws {
        let flick =
            "\n" + #"{"t": 0.1, "touch": "began", "x": 195, "y": 700}"# + "\n"
            + #"{"t": 0.2, "touch": "ended", "x": 195, "y": 700}"# + "\n"
        func replay(_ drawer: String) throws -> SimulationResult {
            simulate(try TraceLoader.parse(text: header(drawer) + flick, file: "t.jsonl"))
        }
        let cases: [(String, String, [String])] = [
            (
                #"{"heightOfPartiallyExpandedDrawer": -1}"#, #"{"heightOfPartiallyExpandedDrawer": 0}"#,
                [
                    "line 1: drawer.heightOfPartiallyExpandedDrawer -1 is outside 0…844 (the container height): DrawerKit clamps it to 0 (drawerkit.md §3.1)"
                ]
            ),
            (
                #"{"heightOfPartiallyExpandedDrawer": -1e7}"#, #"{"heightOfPartiallyExpandedDrawer": 0}"#,
                [
                    "line 1: drawer.heightOfPartiallyExpandedDrawer -10000000 is outside 0…844 (the container height): DrawerKit clamps it to 0 (drawerkit.md §3.1)"
                ]
            ),
            (
                #"{"heightOfPartiallyExpandedDrawer": 1e7}"#, #"{"heightOfPartiallyExpandedDrawer": 844}"#,
                [
                    "line 1: drawer.heightOfPartiallyExpandedDrawer 10000000 is outside 0…844 (the container height): DrawerKit clamps it to 844 (drawerkit.md §3.1)"
                ]
            ),
            (
                #"{"heightOfPartiallyExpandedDrawer": 300, "heightOfCollapsedDrawer": -1}"#,
                #"{"heightOfPartiallyExpandedDrawer": 300}"#,
                [
                    "line 1: drawer.heightOfCollapsedDrawer -1 is outside 0…844 (the container height): DrawerKit clamps it to 0 (drawerkit.md §3.1)"
                ]
            ),
            (
                #"{"heightOfPartiallyExpandedDrawer": 300, "heightOfCollapsedDrawer": 400}"#, "",
                [
                    "line 1: drawer.heightOfCollapsedDrawer 400 is greater than heightOfPartiallyExpandedDrawer 300: collapsed rests above partiallyExpanded (DrawerKit does not check the order)"
                ]
            ),
        ]
        for (drawer, clamped, warnings) in cases {
            let result = try replay(drawer)
            XCTAssertEqual(result.warnings, warnings, drawer)
            guard !clamped.isEmpty else { continue }
            let reference = try replay(clamped)
            XCTAssertEqual(reference.warnings, [], clamped)
            XCTAssertEqual(result.records, reference.records, "\(drawer) replays as \(clamped)")
        }
        // Collapsed above partial: the geometry DrawerKit computes, collapsed at 844 − 400.
        let d = try XCTUnwrap(try TraceLoader.parse(text: header(cases[4].0) + flick, file: "t.jsonl").header.drawer)
        let anchors = d.anchorPositions(environment: PanelEnvironment(container: Size(width: 390, height: 844)))
        XCTAssertEqual(anchors.map(\.0), ["fullyExpanded", "partiallyExpanded", "collapsed", "dismissed"])
        XCTAssertEqual(anchors.map(\.1), [0, 544, 444, 844])
        // Heights inside the screen, in order: no warning.
        XCTAssertEqual(
            try replay(#"{"heightOfPartiallyExpandedDrawer": 300, "heightOfCollapsedDrawer": 100}"#).warnings, [])
        XCTAssertEqual(try replay(#"{"heightOfPartiallyExpandedDrawer": 844}"#).warnings, [])
        // Beyond the loader's bound on lengths, and the §2.4 fields marked ≥ 0, are refused.
        refused(
            header(#"{"heightOfPartiallyExpandedDrawer": 1.5e7}"#), line: 1,
            field: "drawer.heightOfPartiallyExpandedDrawer", "magnitude")
        refused(
            header(
                #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"numberOfTapsForOutsideDrawerDismissal": -1}}"#
            ),
            line: 1, field: "drawer.configuration.numberOfTapsForOutsideDrawerDismissal", "≥ 0")
        refused(
            header(
                #"{"heightOfPartiallyExpandedDrawer": 300, "configuration": {"timingCurveProvider": {"dampingRatio": -1}}}"#
            ),
            line: 1, field: "drawer.configuration.timingCurveProvider.dampingRatio")
        refused(
            header(#"{"heightOfPartiallyExpandedDrawer": 300, "statusBarHeight": -1}"#), line: 1,
            field: "drawer.statusBarHeight", "≥ 0")
    }
}
