import XCTest
@testable import PanelSimCLI

final class UsageTests: CLITestCase {
    func testTopLevelHelp() {
        for args in [["--help"], ["-h"], ["help"]] {
            let r = run(args)
            XCTAssertEqual(r.code, 0)
            XCTAssertEqual(r.stderr, "")
            XCTAssertEqual(r.stdout, PanelSimCommand.helpText)
        }
        let help = PanelSimCommand.helpText
        XCTAssertTrue(help.hasPrefix("OVERVIEW: "))
        XCTAssertTrue(help.contains("USAGE: panelsim <command> [arguments] [options]"))
        XCTAssertTrue(help.contains("\n  replay                  Replay one trace and write its result file.\n"))
        XCTAssertTrue(
            help.contains("\n  check                   Replay every trace and compare it with its golden result.\n"))
        XCTAssertTrue(help.contains("\n  import                  "))
        XCTAssertTrue(help.contains("  125  a trace cannot be evaluated at this revision"))
        XCTAssertTrue(help.hasSuffix("See 'panelsim help <command>' for detailed help.\n"))
    }

    /// The overview names every panel system; usage lines list every option (`soak --emit`,
    /// `tune --settle-tolerance`); help texts cite no spec file outside the repository (such as
    /// `trace-format.md §1.1`, `floatingpanel-core.md §9 O8`).
    func testHelpTextsAreCompleteAndCiteOnlyTheRepository() {
        let overview = PanelSimCommand.helpText.split(separator: "\n\n")[0]
        for system in ["FloatingPanel", "DrawerKit", "LNPopupController", "UISheetPresentationController"] {
            XCTAssertTrue(overview.contains(system), "\(system) in «\(overview)»")
        }
        var texts = [("panelsim", PanelSimCommand.helpText)]
        for c in PanelSimCommand.commands {
            let info = c.info
            texts.append((info.name, info.helpText()))
            guard !info.usage.contains("[options]") else { continue }
            for option in info.options {
                XCTAssertTrue(
                    option.names.contains { info.usage.contains($0 + " ") || info.usage.contains($0 + "]") },
                    "\(info.name): \(option.names) missing from its usage line «\(info.usage)»")
            }
        }
        let outside = [
            "trace-format.md", "floatingpanel-core.md", "floatingpanel-layout-behavior.md", "scenarios.md",
            "physics.md", "real-traces/README.md", "spec/",
        ]
        for (name, text) in texts {
            for file in outside {
                XCTAssertFalse(text.contains(file), "\(name) cites \(file), which is not in the repository")
            }
            // Repository documents are cited with their folder; a section sign only after docs/FORMATS.md.
            for model in ["drawerkit.md", "uisheet.md", "lnpopup.md"] {
                XCTAssertEqual(
                    text.components(separatedBy: model).count, text.components(separatedBy: "docs/" + model).count,
                    "\(name) cites \(model) without docs/")
            }
            XCTAssertEqual(
                text.components(separatedBy: "§").count, text.components(separatedBy: "docs/FORMATS.md §").count,
                "\(name) cites a section of a document outside the repository")
        }
    }

    func testCommandHelp() {
        let check = run(["help", "check"])
        XCTAssertEqual(check.code, 0)
        XCTAssertEqual(run(["check", "--help"]).stdout, check.stdout)
        XCTAssertEqual(run(["check", "-h", "--record", "bogus"]).stdout, check.stdout)  // help wins
        XCTAssertTrue(
            check.stdout.hasPrefix(
                """
                OVERVIEW: Replay every trace and compare it with its golden result.

                USAGE: panelsim check [TRACE_DIR | TRACE…] [--golden DIR] [--record MODE] [options]

                ARGUMENTS:
                  TRACE_DIR               Directory searched recursively for *.jsonl traces (default: traces).
                  TRACE…                  Or one or more trace files (of one trace folder): check only those.

                OPTIONS:
                  --golden DIR            Directory of golden result files: the golden of

                """), check.stdout)
        XCTAssertTrue(
            check.stdout.contains("  --record MODE           When to write goldens: never, missing, failed, all or\n"))
        XCTAssertTrue(check.stdout.contains("  -h, --help              Show help information.\n"))
        XCTAssertTrue(check.stdout.contains("<N> passed, <M> failed"))

        // Each command lists its own exit codes, not check's.
        XCTAssertTrue(check.stdout.contains("EXIT CODES:\n  0    everything passed\n  1    a regression"))
        let report = run(["help", "report"]).stdout
        XCTAssertTrue(
            report.contains(
                "EXIT CODES:\n  0    report written; the result matches the golden (or there is none)\n  1    report written; the result differs from the golden\n"
            ), report)
        XCTAssertFalse(report.contains("a regression: a golden differs"), report)
        XCTAssertTrue(run(["help", "diff"]).stdout.contains("\n  1    different\n"))
        XCTAssertTrue(
            run(["help", "replay"]).stdout.contains("\n  125  an input of a format version this revision cannot read"))

        let replay = run(["help", "replay"])
        XCTAssertTrue(replay.stdout.contains("USAGE: panelsim replay TRACE [-o OUT] [options]"))
        XCTAssertTrue(replay.stdout.contains("  -o, --output OUT        Write the result file to OUT"))
        let imp = run(["import", "--help"])
        XCTAssertTrue(
            imp.stdout.contains(
                "USAGE: panelsim import csv|getevent|pointer|axis-scroll FILE [--points-per-unit K] --template HEADER.json [-o OUT] [--swap-axes] [--flip-x] [--flip-y]"
            ))
        XCTAssertEqual(run(["--version"]).stdout, "panelsim 0.1.0\n")
    }

    private func assertUsageError(
        _ args: [String], env: [String: String] = [:], _ message: String,
        usage: String?, file: StaticString = #filePath, line: UInt = #line
    ) {
        let r = run(args, env: env)
        XCTAssertEqual(r.code, 2, file: file, line: line)
        XCTAssertEqual(r.stdout, "", file: file, line: line)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "error: " + message, r.stderr, file: file, line: line)
        if let usage {
            XCTAssertEqual(lines.dropFirst().first, "Usage: " + usage, file: file, line: line)
        }
    }

    func testUsageErrors() throws {
        assertUsageError([], "missing command", usage: "panelsim <command> [arguments] [options]")
        assertUsageError(
            ["frobnicate"], "unknown command 'frobnicate'", usage: "panelsim <command> [arguments] [options]")
        assertUsageError(["--frob"], "unknown option '--frob'", usage: nil)
        assertUsageError(["help", "frob"], "unknown command 'frob'", usage: nil)
        assertUsageError(["replay"], "missing TRACE", usage: "panelsim replay TRACE [-o OUT] [options]")
        assertUsageError(
            ["replay", "a.jsonl", "b.jsonl"], "unexpected argument 'b.jsonl'",
            usage: "panelsim replay TRACE [-o OUT] [options]")
        assertUsageError(
            ["replay", "a.jsonl", "-o"], "option '-o' needs a value OUT",
            usage: "panelsim replay TRACE [-o OUT] [options]")
        assertUsageError(
            ["replay", "a.jsonl", "-o", "x", "--output", "y"], "option '--output' given twice", usage: nil)
        assertUsageError(
            ["check", "--frob"], "unknown option '--frob'",
            usage: "panelsim check [TRACE_DIR | TRACE…] [--golden DIR] [--record MODE] [options]")
        try FileManager.default.createDirectory(atPath: root + "/traces", withIntermediateDirectories: true)
        assertUsageError(
            ["check", "--record", "sometimes"],
            "invalid record mode 'sometimes' from --record (expected never, missing, failed, all or pending)",
            usage: nil)
        assertUsageError(
            ["check", "--record=sometimes"],
            "invalid record mode 'sometimes' from --record (expected never, missing, failed, all or pending)",
            usage: nil)
        assertUsageError(
            ["check"], env: ["PANELSIM_RECORD": "yes"],
            "invalid record mode 'yes' from PANELSIM_RECORD (expected never, missing, failed, all or pending)",
            usage: nil)
        assertUsageError(
            ["check", "nowhere"], "trace directory 'nowhere' does not exist or is not a directory", usage: nil)
        assertUsageError(["check", "a", "b"], "trace 'a' does not exist", usage: nil)  // several arguments: trace files
        assertUsageError(["import"], "missing the input format (csv, getevent, pointer or axis-scroll)", usage: nil)
        assertUsageError(
            ["import", "xls", "f"], "unknown import format 'xls' (supported: csv, getevent, pointer, axis-scroll)",
            usage: nil)
        assertUsageError(["import", "csv", "f.csv", "--template", "t"], "missing --points-per-unit K", usage: nil)
        assertUsageError(
            ["import", "csv", "f.csv", "--points-per-unit", "-1", "--template", "t"],
            "--points-per-unit must be a positive number or a fraction like 1/3, got '-1'", usage: nil)
        assertUsageError(
            ["import", "csv", "f.csv", "--points-per-unit", "1/3"], "missing --template HEADER.json", usage: nil)
        assertUsageError(
            ["import", "csv", "f.csv", "--swap-axes=yes"], "option '--swap-axes' takes no value", usage: nil)
    }

    func testPointsPerUnitParsing() {
        XCTAssertEqual(ImportCommand.parsePositive("1"), 1)
        XCTAssertEqual(ImportCommand.parsePositive("1/3"), 1.0 / 3)
        XCTAssertEqual(ImportCommand.parsePositive("0.5"), 0.5)
        XCTAssertNil(ImportCommand.parsePositive("0"))
        XCTAssertNil(ImportCommand.parsePositive("1/0"))
        XCTAssertNil(ImportCommand.parsePositive("nan"))
        XCTAssertNil(ImportCommand.parsePositive("a/b"))
    }

    func testDoubleDashEndsOptions() throws {
        let r = run(["replay", "--", "-weird.jsonl"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.hasPrefix("-weird.jsonl: "), r.stderr)  // a load error, not a usage error
    }
}
