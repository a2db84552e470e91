import XCTest
import Foundation
import Testing
import PanelGolden
import PanelTrace
import PanelSimCLI
@testable import PanelSimTesting

/// A throwaway folder holding `traces/NAME.jsonl` (a copy of a corpus trace, `edit` applied to
/// its text), for assertions that must record or fail; absolute paths, so it can live outside
/// this test's folder. Default: the flick `PanelTraceCheckTests.corpusTrace` as `flick`.
struct TemporaryCorpus {
    let base: String
    let name: String
    var trace: String { base + "/traces/\(name).jsonl" }
    var golden: String { base + "/golden/\(name).golden.jsonl" }

    init(
        copying source: String = PanelTraceCheckTests.corpusTrace, as name: String = "flick",
        edit: (String) -> String = { $0 }
    ) throws {
        self.name = name
        base =
            FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-assert-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base + "/traces", withIntermediateDirectories: true)
        let text = try String(
            contentsOfFile: PanelTraceCheckTests.repository + "/traces/\(source).jsonl", encoding: .utf8)
        try edit(text).write(toFile: trace, atomically: true, encoding: .utf8)
    }

    /// Records the golden, then moves the first frame location after the header by 3 pt.
    func recordNudgedGolden() throws {
        _ = PanelTraceCheck.evaluate(trace: trace, baseFolder: base, record: .missing, environment: [:])
        var lines = try String(contentsOfFile: golden, encoding: .utf8).split(separator: "\n").map(String.init)
        let i = try #require(lines.indices.first { lines[$0].contains("\"frame\": 2,") })
        let r = try #require(lines[i].range(of: #""location": [0-9.]+"#, options: .regularExpression))
        let value = Double(lines[i][r].dropFirst("\"location\": ".count))! + 3
        lines[i].replaceSubrange(r, with: "\"location\": \(CanonicalNumber.format(value))")
        try (lines.joined(separator: "\n") + "\n").write(toFile: golden, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(atPath: base) }
}

// MARK: - Real uses on committed traces and goldens (these must pass)

final class AssertPanelTraceXCTests: XCTestCase {
    func testCommittedTracePasses() {
        let outcome = assertPanelTrace("../../traces/flicks/flick-d1-half-to-full-1500.jsonl")
        XCTAssertEqual(outcome.status, .pass)
        XCTAssertEqual(outcome.goldenName, "../../golden/flicks/flick-d1-half-to-full-1500.golden.jsonl")
    }

    #if !canImport(Darwin)
        // swift-corelibs-xctest routes XCTFail through this method; capturing it here shows where the
        // failure lands and what it says (Apple's XCTest would use XCTExpectFailure instead).
        private var captured: [(description: String, file: String, line: Int)] = []
        private var capturing = false

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            if capturing {
                captured.append((description, filePath, lineNumber))
            } else {
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }

        func testFailureIsReportedThroughXCTestAtTheCallersLine() throws {
            let corpus = try TemporaryCorpus()
            defer { corpus.remove() }
            try corpus.recordNudgedGolden()
            capturing = true
            let line = #line + 1
            let outcome = assertPanelTrace(corpus.trace, record: .never)
            capturing = false
            XCTAssertEqual(outcome.status, .fail)
            XCTAssertEqual(captured.count, 1)
            let failure = try XCTUnwrap(captured.first)
            XCTAssertEqual(failure.file, #filePath)
            XCTAssertEqual(failure.line, line)
            let message = try XCTUnwrap(outcome.failureMessage)
            XCTAssertTrue(failure.description.hasSuffix(message), failure.description)
            XCTAssertTrue(message.contains("first divergence at record"), message)

            // A newly recorded golden passes (the record rule), reporting nothing.
            try FileManager.default.removeItem(atPath: corpus.golden)
            capturing = true
            let recorded = assertPanelTrace(corpus.trace, record: .missing)
            capturing = false
            XCTAssertEqual(recorded.status, .new)
            XCTAssertEqual(captured.count, 1)
            XCTAssertTrue(FileManager.default.fileExists(atPath: corpus.golden))

            // And a pass reports nothing.
            capturing = true
            XCTAssertEqual(assertPanelTrace(corpus.trace, record: .never).status, .pass)
            capturing = false
            XCTAssertEqual(captured.count, 1)
        }
    #endif
}

@Test func committedTracePassesUnderSwiftTesting() {
    let outcome = assertPanelTrace("../../traces/flicks/flick-d1-half-to-full-1500.jsonl")
    #expect(outcome.status == .pass)
}

@Test(arguments: PanelTraces("../../traces/custom"))
func committedCorpusFolder(_ trace: PanelTraceFile) {
    let outcome = assertPanelTrace(trace)
    #expect(outcome.status == .pass)
    #expect(trace.path.hasPrefix("../../traces/custom/"))
}

// MARK: - Failures through Swift Testing

@Test func failureIsAnIssueAtTheCallersLineWithCheckText() throws {
    let corpus = try TemporaryCorpus()
    defer { corpus.remove() }
    try corpus.recordNudgedGolden()
    let line = #line + 2
    withKnownIssue {
        assertPanelTrace(corpus.trace, record: .never)
    } matching: { issue in
        issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
            && issue.comments.contains {
                $0.rawValue.hasPrefix("FAIL " + corpus.trace + "\n") && $0.rawValue.contains("(|error| 3)")
            }
    }
}

@Test func missingGoldenOnCIIsAnIssueAndWritesNothing() throws {
    let corpus = try TemporaryCorpus()
    defer { corpus.remove() }
    // The record mode as CI resolves it (CI set, no PANELSIM_RECORD), through the same function,
    // passed as the argument (this process's own environment is the test runner's): the advice
    // names the argument, which takes precedence over PANELSIM_RECORD.
    let mode = try RecordMode.resolve(flag: nil, environment: ["CI": "true"])
    #expect(mode == .never)
    withKnownIssue {
        assertPanelTrace(corpus.trace, record: mode)
    } matching: { issue in
        issue.comments.contains {
            $0.rawValue.contains("MISSING") && $0.rawValue.contains("To record it, pass record: .missing in this call")
        }
    }
    #expect(!FileManager.default.fileExists(atPath: corpus.golden))
    #expect(!FileManager.default.fileExists(atPath: corpus.base + "/golden"))
}

/// The record rule: the assertion that writes a golden passes, and so does the next one.
@Test func newGoldenIsWrittenAndPasses() throws {
    let corpus = try TemporaryCorpus()
    defer { corpus.remove() }
    let first = assertPanelTrace(corpus.trace, record: .missing)
    #expect(first.status == .new && first.passed)
    #expect(FileManager.default.fileExists(atPath: corpus.golden))
    #expect(assertPanelTrace(corpus.trace, record: .missing).status == .pass)
}

// MARK: - PanelTraces

@Suite struct PanelTracesTests {
    @Test func listsTracesInCheckOrder() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-list-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let header = try String(
            contentsOfFile: PanelTraceCheckTests.repository + "/traces/\(PanelTraceCheckTests.corpusTrace).jsonl",
            encoding: .utf8)
        for name in [
            "b.jsonl", "a/z.jsonl", "A.jsonl", "a-b.jsonl", "é.jsonl", ".hidden.jsonl", "x.golden.jsonl", "c.txt",
            "sub/.tmp/x.jsonl", "sub/y.jsonl",
        ] {
            let path = base + "/traces/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try header.write(toFile: path, atomically: false, encoding: .utf8)
        }
        let listed = PanelTraces("traces/", baseFolder: base)
        // Byte order of the UTF-8 paths: "-" (0x2D) sorts before "/" (0x2F), "é" after ASCII.
        #expect(
            listed.map(\.path) == [
                "traces/A.jsonl", "traces/a-b.jsonl", "traces/a/z.jsonl", "traces/b.jsonl",
                "traces/sub/y.jsonl", "traces/é.jsonl",
            ])
        #expect(listed.allSatisfy { $0.problem == nil && $0.baseFolder == base })
        // The order `panelsim check` replays them in.
        let out = StringSink()
        let err = StringSink()
        _ = PanelSimCommand.run(
            arguments: ["check", "--record", "never"], environment: [:], stdout: out, stderr: err,
            workingDirectory: base)
        let checked = out.text.split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("MISSING ") ? String(line.dropFirst("MISSING ".count).prefix { $0 != " " }) : nil
        }
        #expect(checked == listed.map(\.path))
    }

    @Test func aMissingOrEmptyFolderIsAFailingEntry() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-list-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let missing = PanelTraces("nowhere", baseFolder: base)
        #expect(missing.count == 1)
        let entry = try #require(missing.first)
        #expect(entry.problem?.contains("no trace folder nowhere") == true)
        let outcome = PanelTraceCheck.evaluate(entry, environment: [:])
        #expect(outcome.status == .error)
        #expect(
            outcome.failureMessage?.hasPrefix("ERROR no trace folder nowhere: \(base)/nowhere does not exist") == true)

        try FileManager.default.createDirectory(atPath: base + "/empty", withIntermediateDirectories: true)
        let empty = PanelTraces("empty", baseFolder: base)
        #expect(empty.map(\.problem) == ["no *.jsonl traces under empty (\(base)/empty)"])
    }

    @Test func relativeToTheCallingFile() {
        let here = PanelTraces("../../traces/custom")
        #expect(here.count == 4)
        #expect(here.first?.baseFolder == PanelTestPaths.folder(ofFile: #filePath))
    }
}

// MARK: - Profiles

/// `profile:` replays a committed trace as a given library version, against the golden `check
/// --profile` uses (the layout's): the corpus golden recorded at FloatingPanel 2.8.1.
final class AssertPanelTraceProfileXCTests: XCTestCase {
    static let trace = "../../traces/profiles/floatingpanel/fp-s9/reach-full-during-drag.2.8.1.jsonl"

    func testTheGoldensOwnPointPasses() {
        let outcome = assertPanelTrace(Self.trace, record: .never, profile: "floatingpanel@2.8.1")
        XCTAssertEqual(outcome.status, .pass)
        XCTAssertEqual(
            outcome.goldenName, "../../golden/profiles/floatingpanel/fp-s9/reach-full-during-drag.2.8.1.golden.jsonl")
    }
}

@Test func anotherPointFailsAgainstTheGoldenUnderSwiftTesting() {
    let line = #line + 2
    withKnownIssue {
        assertPanelTrace(AssertPanelTraceProfileXCTests.trace, record: .never, profile: "floatingpanel@2.8.0")
    } matching: { issue in
        issue.sourceLocation?.line == line
            && issue.comments.contains { $0.rawValue.hasPrefix("FAIL ") && $0.rawValue.contains("2.8.0") }
    }
}

// MARK: - The replay's warnings

/// A sheet trace whose `selectDetent` names a detent the sheet does not have (`huge`): the
/// replay warns, as `check` does, and the result still matches the golden it records.
func mistypedSheetTrace() throws -> TemporaryCorpus {
    try TemporaryCorpus(copying: "uisheet/x6/x6-select-instant", as: "select") {
        $0.replacingOccurrences(
            of: #""call": "selectDetent", "identifier": "large""#,
            with: #""call": "selectDetent", "identifier": "huge""#)
    }
}

@Test func warningsAreReportedOnAPassByDefault() throws {
    let sheet = try mistypedSheetTrace()
    defer { sheet.remove() }
    let recorded = assertPanelTrace(sheet.trace, record: .missing)
    #expect(recorded.status == .new && recorded.passed)
    #expect(recorded.warnings.contains { $0.contains("selectDetent: 'huge' names no active detent") })
    let outcome = assertPanelTrace(sheet.trace, record: .never)
    #expect(outcome.status == .pass && outcome.passed)
    // What the assertion prints: each warning at the caller's file and line, naming the trace.
    let printed = outcome.warningReport(file: "T.swift", line: 7)
    #expect(printed.count == outcome.warnings.count)
    #expect(printed.first?.hasPrefix("T.swift:7: warning: \(sheet.trace): line 2: selectDetent: 'huge'") == true)
    // A trace without warnings prints nothing.
    #expect(
        assertPanelTrace("../../traces/flicks/flick-d1-half-to-full-1500.jsonl").warningReport(file: "T.swift", line: 7)
            .isEmpty)
}

@Test func warningsFailTheAssertionWhenAsked() throws {
    let sheet = try mistypedSheetTrace()
    defer { sheet.remove() }
    let line = #line + 2
    withKnownIssue {
        let outcome = assertPanelTrace(sheet.trace, record: .missing, warnings: .fail)
        #expect(outcome.status == .new && !outcome.passed)
        #expect(outcome.warningReport(file: "T.swift", line: 1).isEmpty)
    } matching: { issue in
        issue.sourceLocation?.line == line
            && issue.comments.contains {
                $0.rawValue.hasPrefix("NEW \(sheet.trace) (golden written)\n")
                    && $0.rawValue.contains("  warning: line 2: selectDetent: 'huge' names no active detent")
                    && $0.rawValue.contains("warnings: .fail")
                    && $0.rawValue.contains("wrote the golden \(sheet.golden)")
            }
    }
    // The golden matches now; the warning still fails the assertion.
    withKnownIssue {
        #expect(assertPanelTrace(sheet.trace, record: .never, warnings: .fail).status == .pass)
    } matching: { issue in
        issue.comments.contains {
            $0.rawValue.hasPrefix("PASS \(sheet.trace)\n") && !$0.rawValue.contains("wrote the golden")
        }
    }
    // A trace without warnings passes under .fail.
    #expect(assertPanelTrace("../../traces/flicks/flick-d1-half-to-full-1500.jsonl", warnings: .fail).passed)
}

// MARK: - Attachments

/// Outside Apple platforms Swift Testing stores attachments only when the run names a folder for
/// them: without one the failure says how to keep them instead of recording attachments.
@Test func attachmentsAreRecordedOnlyWhereTheyAreKept() throws {
    #if canImport(Darwin)
        #expect(PanelTestFailure.attachmentsAreKept(arguments: ["x"]))
    #else
        #expect(
            !PanelTestFailure.attachmentsAreKept(arguments: [
                "PanelSimPackageTests.xctest", "--testing-library", "swift-testing",
            ]))
        #expect(
            PanelTestFailure.attachmentsAreKept(arguments: [
                "PanelSimPackageTests.xctest", "--attachments-path", "/tmp/a",
            ]))
        #expect(
            PanelTestFailure.attachmentsAreKept(arguments: ["PanelSimPackageTests.xctest", "--attachments-path=/tmp/a"])
        )
        let corpus = try TemporaryCorpus()
        defer { corpus.remove() }
        try corpus.recordNudgedGolden()
        let kept = PanelTestFailure.attachmentsAreKept()
        withKnownIssue {
            assertPanelTrace(corpus.trace, record: .never)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasSuffix(PanelTestFailure.attachmentsNote) != kept }
        }
    #endif
}
