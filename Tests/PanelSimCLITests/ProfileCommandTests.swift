import XCTest
import Foundation
@testable import PanelSimCLI
import PanelGolden
import PanelSimCore
import PanelTrace

/// Version profiles on the command line (profiles.md §2): the header member and `--profile`, the
/// result header, `panelsim profiles`, the gates, `upgrade-diff` on the profile corpus, and the
/// invariants PI1–PI7 of §4.1.
final class ProfileCommandTests: CLITestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs in the repository (its `traces/` and `golden/`).
    func runInRepository(_ args: [String]) -> RunResult {
        let out = StringSink(), err = StringSink()
        let code = PanelSimCommand.run(arguments: args, environment: [:], stdout: out, stderr: err, workingDirectory: Self.repository)
        return RunResult(code: code, stdout: out.text, stderr: err.text)
    }

    func point(_ text: String) -> String? {
        if case .success(let p) = TraceProfiles.parse(commandLine: text) { return p.point }
        return nil
    }

    // MARK: Versions and points (§2.2)

    func testVersionsMapToTheLatestPointAtOrBelowThem() {
        let examples = ["floatingpanel@2.5.1": "2.3.0", "floatingpanel@2.5.4": "2.5.2",
                        "floatingpanel@2.6.5": "2.6.4", "floatingpanel@3.0.0": "2.8.8", "floatingpanel@3.2.2": "3.2.1",
                        "lnpopup@4.5.5": "4.5.4", "lnpopup@4.4.11": "4.3.0", "lnpopup@4.5.6.1": "4.5.6", "uisheet@17.4": "16",
                        "uisheet@15.0.1": "15", "drawerkit@v0.7.0": "0.7.0", "drawerkit@bc1c220": "master", "drawerkit@master": "master"]
        for (text, expected) in examples { XCTAssertEqual(point(text), expected, text) }
        for refused in ["floatingpanel@2.6.7", "floatingpanel@2.7.1", "floatingpanel@3.2.3", "floatingpanel@1.7.6", "floatingpanel@2.0.0-beta.1", "lnpopup@4.5.7",
                        "lnpopup@3.0.7", "uisheet@26", "uisheet@14", "uisheet@16.1.2.3", "drawerkit@0.6.0", "drawerkit@0.7.1",
                        "drawerkit@bc1c22", "foo@1.0", "lnpopup"] {
            XCTAssertNil(point(text: refused), refused)
        }
    }

    private func point(text: String) -> String? { point(text) }

    func testRefusalsNameThePointsAndTheRange() {
        XCTAssertEqual(try? TraceProfiles.parse(commandLine: "floatingpanel@2.6.7").get(), nil)
        guard case .failure(let m) = TraceProfiles.parse(commandLine: "floatingpanel@2.6.7") else { return XCTFail("accepted") }
        XCTAssertEqual(m.text, "unknown floatingpanel version \"2.6.7\"; points 2.0.0 2.0.1 2.1.0 2.2.0 2.3.0 2.5.2 2.6.0 2.6.3 2.6.4 2.6.6 2.7.0 2.8.0 2.8.1 2.8.2 2.8.4 2.8.7 2.8.8 3.2.1; released versions 2.0.0–3.2.2 map to the latest point at or below them")
        guard case .failure(let above) = TraceProfiles.parse(commandLine: "lnpopup@4.5.8") else { return XCTFail("accepted") }
        XCTAssertTrue(above.text.hasPrefix("lnpopup version \"4.5.8\" is after the ceiling 4.5.6.1 (not studied); points 4.0.0 "), above.text)
        guard case .failure(let below) = TraceProfiles.parse(commandLine: "floatingpanel@1.7.6") else { return XCTFail("accepted") }
        XCTAssertTrue(below.text.contains("is below the floor 2.0.0 (not modelled)"), below.text)
        guard case .failure(let library) = TraceProfiles.parse(commandLine: "sheet@16") else { return XCTFail("accepted") }
        XCTAssertTrue(library.text.contains("floatingpanel, drawerkit, uisheet, lnpopup"), library.text)

        let r = runInRepository(["replay", "traces/lnpopup/s1/drag-40pt-v0-tab.jsonl", "--profile", "lnpopup@4.5.7"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("error: --profile lnpopup@4.5.7: lnpopup version \"4.5.7\" is after the ceiling"), r.stderr)
    }

    func testProfilesCommandListsPointsSwitchesAndValues() {
        let all = run(["profiles"])
        XCTAssertEqual(all.code, 0)
        for line in ["floatingpanel: default 3.2.1, floor 2.0.0, ceiling 3.2.2", "lnpopup: default 4.5.6, floor 4.0.0, ceiling 4.5.6.1",
                     "drawerkit: default master", "uisheet: default 16", "  4.5.4  4.5.4, 4.5.5\n", "  2.8.8  2.8.8, 3.0.0 – 3.2.0\n"] {
            XCTAssertTrue(all.stdout.contains(line), line)
        }
        let table = run(["profiles", "lnpopup"])
        XCTAssertTrue(table.stdout.contains("LN-S7 releaseRule "), table.stdout)
        XCTAssertTrue(table.stdout.contains("LN-G1 automaticStyle"), table.stdout)
        let values = run(["profiles", "lnpopup@4.5.5"])
        XCTAssertTrue(values.stdout.hasPrefix("lnpopup@4.5.5 → point 4.5.4\n"), values.stdout)
        XCTAssertTrue(values.stdout.contains("LN-S5 closeSpring             seeded\n"), values.stdout)
        XCTAssertEqual(run(["profiles", "floatingpanel@2.6.7"]).code, 2)
        XCTAssertEqual(run(["profiles", "nope"]).code, 2)
    }

    /// A library name on the command line in any letter case (`FloatingPanel@3.2.2`) is the
    /// library; in a trace header it is exact, and the error names the right spelling.
    func testCommandLineLibraryNamesIgnoreCase() throws {
        XCTAssertEqual(point("FloatingPanel@3.2.2"), "3.2.1")
        XCTAssertEqual(point("LNPopup@4.5.5"), "4.5.4")
        let mixed = run(["profiles", "FloatingPanel@3.2.2"]), lower = run(["profiles", "floatingpanel@3.2.2"])
        XCTAssertEqual(mixed.code, 0, mixed.stderr)
        XCTAssertEqual(mixed.stdout, lower.stdout)
        XCTAssertEqual(run(["profiles", "UISheet"]).stdout, run(["profiles", "uisheet"]).stdout)
        let replay = runInRepository(["replay", "traces/lnpopup/s1/drag-40pt-v0-tab.jsonl", "--profile", "LNPopup@4.5.5", "-o", root + "/r.jsonl"])
        XCTAssertEqual(replay.code, 0, replay.stderr)
        XCTAssertTrue(read("r.jsonl")?.contains(#""profile": {"library": "lnpopup", "point": "4.5.4"}"#) == true, read("r.jsonl") ?? "")
        guard case .failure(let unknown) = TraceProfiles.parse(commandLine: "FloatPanel@3.2.2") else { return XCTFail("accepted") }
        XCTAssertFalse(unknown.text.contains("did you mean"), unknown.text)

        try write(header(#"{"library": "LNPopup", "version": "4.5.5"}"#), "a.jsonl")
        let r = run(["replay", "a.jsonl"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.hasPrefix(#"a.jsonl:1: profile.library: unknown library "LNPopup" (did you mean "lnpopup"? library names are lower case)"#),
                      r.stderr)
    }

    // MARK: The header member and the result header (§2.1, §2.4)

    func header(_ profile: String, model: String = "lnpopup") -> String {
        #"{"format": "panelsim-trace", "version": 1, "model": "\#(model)", "profile": \#(profile), "environment": {"container": {"width": 390, "height": 844}}}"#
            + "\n"
    }

    func testHeaderProfileErrorsNameTheMember() throws {
        let cases: [(String, String)] = [
            (#"{"library": "lnpopup", "version": "4.4.12"}"#, "a.jsonl:1: profile.version: unknown lnpopup version \"4.4.12\"; points"),
            (#"{"library": "floatingpanel", "version": "2.6.6"}"#, "a.jsonl:1: profile.library: \"floatingpanel\" does not match the trace's model \"lnpopup\""),
            (#"{"library": "lnpopup", "version": "4.5.5", "point": "4.5.4"}"#, "a.jsonl:1: profile.point: unknown key 'point'"),
            (#"{"library": "lnpopup", "version": 4.5}"#, "a.jsonl:1: profile.version: "),
            (#""lnpopup@4.5.5""#, "a.jsonl:1: profile: "),
        ]
        for (profile, message) in cases {
            try write(header(profile), "a.jsonl")
            let r = run(["replay", "a.jsonl"])
            XCTAssertEqual(r.code, 2, profile)
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(profile): \(r.stderr)")
        }
        try write(header(#"{"library": "floatingpanel", "version": "2.6.6"}"#, model: "floatingpanel")
                  .replacingOccurrences(of: #""environment""#, with: #""panel": {"anchors": {"full": {"absoluteInset": 18, "edge": "top"}}, "initialState": "full"}, "environment""#), "fp.jsonl")
        XCTAssertEqual(run(["replay", "fp.jsonl"]).code, 0)
    }

    /// PI1, PI2, PI3: absent = today; the default point named gives the same records and digests
    /// with `profile` after `parameterDigest`; two versions of one point give identical bytes.
    func testResultHeaderRecordsThePoint() throws {
        let trace = "traces/lnpopup/s2/drag-300-plus600-nobar.jsonl"
        let plain = runInRepository(["replay", trace])
        XCTAssertEqual(plain.stdout, try String(contentsOfFile: Self.repository + "/golden/lnpopup/s2/drag-300-plus600-nobar.golden.jsonl", encoding: .utf8))
        XCTAssertFalse(plain.stdout.contains("\"profile\""))
        let named = runInRepository(["replay", trace, "--profile", "lnpopup@4.5.6"])
        let plainLines = plain.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let namedLines = named.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(Array(plainLines.dropFirst()), Array(namedLines.dropFirst()))
        XCTAssertEqual(String(namedLines[0]), String(plainLines[0]).replacingOccurrences(
            of: #", "engine""#, with: #", "profile": {"library": "lnpopup", "point": "4.5.6"}, "engine""#))
        XCTAssertEqual(runInRepository(["replay", trace, "--profile", "lnpopup@4.5.6.1"]).stdout, named.stdout)
        XCTAssertEqual(runInRepository(["replay", trace, "--profile", "lnpopup@4.5.4"]).stdout,
                       runInRepository(["replay", trace, "--profile", "lnpopup@4.5.5"]).stdout)
        let other = runInRepository(["replay", trace, "--profile", "floatingpanel@2.6.6"])
        XCTAssertEqual(other.code, 2)
        XCTAssertTrue(other.stderr.contains("the trace's model is lnpopup"), other.stderr)
    }

    /// PI5, and a golden of one point against a replay of another (§2.4).
    func testCheckUnderAProfile() {
        let fp = runInRepository(["check", "traces/scroll", "--profile", "lnpopup@4.0.0"])
        XCTAssertEqual(fp.code, 0, fp.stdout)
        XCTAssertTrue(fp.stdout.contains("warning: --profile lnpopup@4.0.0: no lnpopup trace was checked"), fp.stdout)
        let other = runInRepository(["check", "traces/profiles/lnpopup/ln-s8", "--profile", "lnpopup@4.5.4"])
        XCTAssertEqual(other.code, 1)
        XCTAssertTrue(other.stdout.contains("header differs: expected profile lnpopup@4.5.3, actual profile lnpopup@4.5.4"), other.stdout)
        XCTAssertTrue(other.stdout.contains("PASS traces/profiles/lnpopup/ln-s8/drag-style-open.4.5.4.jsonl"), other.stdout)
        XCTAssertEqual(runInRepository(["check", "traces/profiles/lnpopup", "--profile", "lnpopup@4.5.5", "--profile", "lnpopup@4.5.6"]).code, 2)
    }

    func testGatesOnTheCommandLine() {
        let gate = "traces/profiles/lnpopup/gates/ln-g1-automatic-style.4.5.4.jsonl"
        let r = runInRepository(["replay", gate, "--profile", "lnpopup@4.5.3"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "\(gate):1: popup.interactionStyle: automatic needs lnpopup 4.5.4 (not in 4.5.3)\n")
        let dk = runInRepository(["replay", "traces/profiles/drawerkit/gates/dk-g1-set-drawer-state.master.jsonl", "--profile", "drawerkit@0.7.0"])
        XCTAssertTrue(dk.stderr.hasSuffix(":2: call: setDrawerState needs drawerkit master (not in 0.7.0)\n"), dk.stderr)
        XCTAssertEqual(runInRepository(["replay", gate, "--profile", "lnpopup@4.5.5"]).code, 0)
    }

    /// The other replaying commands take `--profile` and refuse a trace its version cannot honour.
    func testOtherCommandsTakeTheProfile() {
        let gate = "traces/profiles/lnpopup/gates/ln-g1-automatic-style.4.5.4.jsonl"
        for args in [["report", gate, "-o", root + "/r.html"], ["fidelity", gate], ["soak", "--model", "drawerkit", "--count", "1"]] {
            let r = runInRepository(args + ["--profile", "lnpopup@4.5.3"])
            XCTAssertEqual(r.code, 2, "\(args): \(r.stdout)\(r.stderr)")
        }
        let report = runInRepository(["report", "traces/profiles/lnpopup/ln-s8/drag-style-open.4.5.3.jsonl", "-o", root + "/r.html",
                                      "--profile", "lnpopup@4.5.4"])
        XCTAssertEqual(report.code, 1, report.stderr)
        XCTAssertTrue(exists("r.html"))
        let soak = runInRepository(["soak", "--count", "3", "--profile", "floatingpanel@2.6.6", "--out", root + "/soak"])
        XCTAssertEqual(soak.code, 0, soak.stdout)
        XCTAssertTrue(soak.stdout.contains("profile: floatingpanel@2.6.6 (point 2.6.6); "), soak.stdout)
        let popup = runInRepository(["soak", "--model", "lnpopup", "--count", "3", "--profile", "lnpopup@4.5.3", "--out", root + "/soak"])
        XCTAssertEqual(popup.code, 0, popup.stdout)
        XCTAssertTrue(popup.stdout.hasPrefix("soak: lnpopup seeds 1…3: "), popup.stdout)
        XCTAssertTrue(popup.stdout.contains("profile: lnpopup@4.5.3 (point 4.5.3); "), popup.stdout)
    }

    /// PI6: a gate accepted at a point is accepted at every later point.
    func testGatesOpenOnce() {
        for catalog in TraceProfiles.catalogs {
            for row in catalog.rows where row.isGate {
                let open = row.values.map { $0 == "open" }
                if let first = open.firstIndex(of: true) { XCTAssertFalse(open[first...].contains(false), row.label) }
            }
        }
    }

    // MARK: upgrade-diff (§2.6, PI4, PI7)

    /// Each switch folder compared across its two points: every trace differs and its attribution
    /// names the folder's switch (alone where the two points differ only in it).
    func testUpgradeDiffAttributesEachCorpusTraceToItsSwitch() throws {
        let folders: [(String, String, String, String)] = [
            ("floatingpanel", "fp-s1", "2.0.0", "2.0.1"), ("floatingpanel", "fp-s2", "2.0.0", "2.0.1"),
            ("floatingpanel", "fp-s3", "2.6.0", "2.6.3"), ("floatingpanel", "fp-s4", "2.6.3", "2.6.4"),
            ("floatingpanel", "fp-s5", "2.5.1", "2.5.2"), ("floatingpanel", "fp-s6", "2.6.6", "2.7.0"),
            ("floatingpanel", "fp-s7", "2.6.6", "2.7.0"), ("floatingpanel", "fp-s8", "2.7.0", "2.8.0"),
            ("floatingpanel", "fp-s9", "2.8.0", "2.8.1"), ("floatingpanel", "fp-s10", "2.8.2", "2.8.4"),
            ("floatingpanel", "fp-s11", "2.8.4", "2.8.7"), ("floatingpanel", "fp-s12", "2.8.7", "2.8.8"),
            ("floatingpanel", "fp-s13", "3.2.0", "3.2.1"), ("floatingpanel", "fp-s14", "2.8.0", "2.8.1"),
            ("floatingpanel", "fp-s15", "2.5.1", "2.5.2"),
            ("lnpopup", "ln-s1", "4.0.8", "4.0.9"), ("lnpopup", "ln-s2", "4.0.9", "4.2.1"), ("lnpopup", "ln-s3", "4.2.1", "4.3.0"),
            ("lnpopup", "ln-s4", "4.3.0", "4.5.1"), ("lnpopup", "ln-s5", "4.5.1", "4.5.2"), ("lnpopup", "ln-s6", "4.5.5", "4.5.6"),
            ("lnpopup", "ln-s7", "4.5.5", "4.5.6"), ("lnpopup", "ln-s8", "4.5.3", "4.5.4"),
            ("drawerkit", "dk-s1", "0.7.0", "master"), ("drawerkit", "dk-s2", "0.7.0", "master"),
        ]
        for (library, folder, from, to) in folders {
            let json = root + "/\(folder).json"
            let r = runInRepository(["upgrade-diff", "--from", "\(library)@\(from)", "--to", "\(library)@\(to)",
                                     "traces/profiles/\(library)/\(folder)", "--json", json, "--jobs", "2"])
            XCTAssertEqual(r.code, 1, "\(folder): \(r.stdout)\(r.stderr)")
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
            let switches = try XCTUnwrap(doc["switches"] as? [String]).filter { !$0.contains("-G") }
            let id = folder.uppercased()
            let label = try XCTUnwrap(switches.first { $0.hasPrefix(id + " ") }, "\(folder): \(switches)")
            for t in try XCTUnwrap(doc["traces"] as? [[String: Any]]) {
                let path = t["path"] as? String ?? "?"
                XCTAssertEqual(t["status"] as? String, "diff", "\(folder)/\(path)")
                let attribution = try XCTUnwrap(t["attribution"] as? [String], "\(folder)/\(path)")
                XCTAssertEqual(t["attributionComplete"] as? Bool, true)
                if switches.count == 1 { XCTAssertEqual(attribution, [label], "\(folder)/\(path)") }
                XCTAssertTrue(attribution.contains(label), "\(folder)/\(path): \(attribution)")
            }
        }
    }

    /// PI7: swapping the sides keeps every status and swaps the values; one point against itself is
    /// SAME everywhere; the attributed switches, copied into FROM, give TO's records.
    func testUpgradeDiffSymmetryAndAttribution() throws {
        let folder = "traces/profiles/lnpopup/ln-s7"
        let a = runInRepository(["upgrade-diff", "--from", "lnpopup@4.5.5", "--to", "lnpopup@4.5.6", folder, "--json", root + "/a.json", "--no-attribution"])
        let b = runInRepository(["upgrade-diff", "--from", "lnpopup@4.5.6", "--to", "lnpopup@4.5.5", folder, "--json", root + "/b.json", "--no-attribution"])
        XCTAssertEqual(a.code, b.code)
        func statuses(_ s: String) -> [String] { s.split(separator: "\n").map { String($0.prefix { $0 != " " }) } }
        XCTAssertEqual(statuses(a.stdout), statuses(b.stdout))
        let ja = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/a.json"))) as? [String: Any])
        let jb = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/b.json"))) as? [String: Any])
        for (x, y) in zip(ja["traces"] as? [[String: Any]] ?? [], jb["traces"] as? [[String: Any]] ?? []) {
            let fx = x["final"] as? [String: Any], fy = y["final"] as? [String: Any]
            XCTAssertEqual(fx?["from"] as? NSDictionary, fy?["to"] as? NSDictionary)
            XCTAssertEqual(fx?["to"] as? NSDictionary, fy?["from"] as? NSDictionary)
        }
        let same = runInRepository(["upgrade-diff", "--from", "lnpopup@4.5.5", "--to", "lnpopup@4.5.4", "traces/profiles/lnpopup"])
        XCTAssertEqual(same.code, 0, same.stdout)
        XCTAssertTrue(same.stdout.hasSuffix("traces of lnpopup: 0 differ, 26 same, 0 gated, 0 invalid, 0 skipped; 0 of other models\n"), same.stdout)

        // The attribution of a trace whose difference needs two switches reproduces TO's records.
        let loaded = try TraceLoader.load(path: Self.repository + "/traces/profiles/floatingpanel/fp-s6/spring-move-after-set-offset.2.6.6.jsonl")
        let catalog = try XCTUnwrap(TraceProfiles.catalog(for: "floatingpanel"))
        let from = try TraceProfiles.parse(commandLine: "floatingpanel@2.6.6").get(), to = try TraceProfiles.parse(commandLine: "floatingpanel@2.7.0").get()
        let engine = UpgradeDiff(from: from, to: to, catalog: catalog, pipeline: TraceCheckPipeline.live, attribution: true)
        let entry = engine.compare(path: loaded.path, shown: "x", tolerances: .default)
        XCTAssertEqual(entry.status, .diff)
        XCTAssertTrue(entry.attributionComplete)
        var mixed = from
        mixed.borrowed = catalog.rows.filter { entry.attribution.contains($0.label) }.map { ProfileBorrow(switchID: $0.id, point: to.point) }
        XCTAssertEqual(engine.replay(loaded, profile: mixed).records, engine.replay(loaded, profile: to).records)
        XCTAssertGreaterThan(entry.attribution.count, 1, "\(entry.attribution)")
    }

    /// V11: a folder mixing models, one trace that differs, one that does not, one gated; a folder
    /// without a trace of the library; the report folder.
    func testUpgradeDiffOnAMixedFolder() throws {
        for (source, target) in [("traces/profiles/lnpopup/ln-s7/a-open-p06-still.4.5.5.jsonl", "t/a.jsonl"),
                                 ("traces/lnpopup/s1/bar-touch-tap-nobar.jsonl", "t/b.jsonl"),
                                 ("traces/profiles/lnpopup/gates/ln-g1-automatic-style.4.5.4.jsonl", "t/c.jsonl"),
                                 ("traces/scroll/s1-content-at-top.jsonl", "t/d.jsonl")] {
            try write(try String(contentsOfFile: Self.repository + "/" + source, encoding: .utf8), target)
        }
        let r = run(["upgrade-diff", "--from", "lnpopup@4.5.3", "--to", "lnpopup@4.5.6", "t", "--report-dir", "reports", "--quiet"])
        XCTAssertEqual(r.code, 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("DIFF a.jsonl: first divergence at t="), lines[0])
        XCTAssertEqual(lines[1], "SAME b.jsonl")
        XCTAssertEqual(lines[2], "GATED c.jsonl: c.jsonl:1: popup.interactionStyle: automatic needs lnpopup 4.5.4 (not in 4.5.3) (from)")
        XCTAssertEqual(lines[3], "3 traces of lnpopup: 1 differ, 1 same, 1 gated, 0 invalid, 0 skipped; 1 of other models")
        XCTAssertTrue(exists("reports/a.html"))
        XCTAssertFalse(exists("reports/b.html"))
        let none = run(["upgrade-diff", "--from", "drawerkit@0.7.0", "--to", "drawerkit@master", "t"])
        XCTAssertEqual(none.code, 2)
        XCTAssertEqual(run(["upgrade-diff", "--from", "lnpopup@4.5.5", "--to", "lnpopup@4.5.6", "missing"]).code, 2)
        XCTAssertEqual(run(["upgrade-diff", "--from", "lnpopup@4.5.5", "--to", "drawerkit@master", "t"]).code, 2)
    }
}
