import XCTest
import Foundation
@testable import PanelSimCLI
import PanelSimCore

/// `panelsim soak` over the plug-in systems: `--model` picks the system, `--jobs` does not change
/// the output, trace files are checked with their own model's checker, bad models are usage errors.
final class SoakCommandTests: CLITestCase {
    func testEachModelSoaksTheSameWithOneAndTwoJobs() {
        for model in ["drawerkit", "lnpopup", "uisheet"] {
            let one = run(["soak", "--model", model, "--count", "6", "--out", "out-\(model)"])
            let two = run(["soak", "--model", model, "--count", "6", "--jobs", "2", "--out", "out-\(model)"])
            XCTAssertEqual(one.code, 0, one.stdout + one.stderr)
            XCTAssertEqual(one.stdout, two.stdout, model)
            XCTAssertTrue(one.stdout.hasPrefix("soak: \(model) seeds 1…6: 6 traces ("), one.stdout)
            XCTAssertTrue(one.stdout.contains(" frames, ") && one.stdout.contains("rule checks: "), one.stdout)
            XCTAssertTrue(one.stdout.hasSuffix("no violations\n"), one.stdout)
        }
    }

    func testFloatingPanelStaysTheDefault() {
        let r = run(["soak", "--count", "2"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("soak: seeds 1…2: 2 traces ("), lines[0])
        XCTAssertTrue(lines[0].hasSuffix("samples), each replayed on bottom, top, left and right"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("checked: ") && lines[1].hasSuffix(" rests in their state (G7)"), lines[1])
        XCTAssertEqual(run(["soak", "--model", "floatingpanel", "--count", "2"]).stdout, r.stdout)
    }

    func testAnUnknownModelIsAUsageError() {
        let r = run(["soak", "--model", "drawer"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("--model must be one of floatingpanel, drawerkit, uisheet, lnpopup, got 'drawer'"), r.stderr)
    }

    /// `--profile` goes to the soaked model's soak (every built-in one replays under a profile);
    /// a profile of another library is a usage error naming both.
    func testAProfileMustFitTheSoakedModel() {
        let other = run(["soak", "--profile", "lnpopup@4.5.5", "--count", "1"])
        XCTAssertEqual(other.code, 2)
        XCTAssertTrue(other.stderr.contains("--profile lnpopup@4.5.5 applies to --model lnpopup, not to --model floatingpanel"), other.stderr)
        let popup = run(["soak", "--model", "lnpopup", "--profile", "lnpopup@4.5.5", "--count", "1"])
        XCTAssertEqual(popup.code, 0, popup.stdout + popup.stderr)
        XCTAssertTrue(popup.stdout.contains("profile: lnpopup@4.5.5 (point 4.5.4); "), popup.stdout)
        let mismatch = run(["soak", "--model", "drawerkit", "--profile", "floatingpanel@2.6.6", "--count", "1"])
        XCTAssertEqual(mismatch.code, 2)
        XCTAssertTrue(mismatch.stderr.contains("--profile floatingpanel@2.6.6 applies to --model floatingpanel, not to --model drawerkit"), mismatch.stderr)
        let fits = run(["soak", "--model", "floatingpanel", "--profile", "floatingpanel@2.6.6", "--count", "1"])
        XCTAssertEqual(fits.code, 0, fits.stdout + fits.stderr)
        XCTAssertTrue(fits.stdout.contains("profile: floatingpanel@2.6.6 (point 2.6.6); "), fits.stdout)
    }

    func testTraceFilesAreCheckedWithTheirOwnModel() throws {
        try write(#"{"format": "panelsim-trace", "version": 1, "model": "drawerkit", "name": "d", "environment": {"container": {"width": 390, "height": 844}}, "drawer": {"heightOfPartiallyExpandedDrawer": 300}}"# + "\n"
                  + #"{"t": 0.1, "call": "setDrawerState", "state": "fullyExpanded"}"# + "\n", "d.jsonl")
        let r = run(["soak", "d.jsonl"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout, "d.jsonl: no violations\n")
        XCTAssertEqual(run(["soak", "--model", "lnpopup", "d.jsonl"]).code, 2)
    }

    func testEmitWritesEachGeneratedTrace() {
        let r = run(["soak", "--model", "uisheet", "--seed", "5", "--count", "2", "--emit", "emitted"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(exists("emitted/soak-5.jsonl") && exists("emitted/soak-6.jsonl"))
        XCTAssertFalse(exists("emitted/soak-5-top.jsonl"), "only FloatingPanel has mirrors")
    }
}
