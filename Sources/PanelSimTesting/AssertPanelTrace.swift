import Foundation
import PanelGolden
import PanelSimCore
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Replays a recorded trace and checks it against its golden result, as `panelsim check` does,
/// failing the calling test (XCTest or Swift Testing) at the caller's line when it differs.
///
/// ```swift
/// func testFlick() { assertPanelTrace("traces/flick.jsonl") }          // XCTest
/// @Test func flick() { assertPanelTrace("traces/flick.jsonl") }        // Swift Testing
/// ```
///
/// `trace` is relative to the folder of the calling test file (`#filePath`), or absolute. The
/// golden is `golden/flick.golden.jsonl` beside `traces/` (the last `traces` folder of the path
/// becomes `golden`; see `PanelTraceCheck.evaluate` for paths without one), unless `golden`
/// names it. Tolerances, record mode and simulator options are those of `check`.
///
/// Fails the test, with `check`'s text for the trace and the next step, when the result
/// differs beyond tolerance (the first divergence, the max error per channel, context rows and
/// the event diff), when the golden is missing and the record mode is `never` (the default when
/// `CI` is set; nothing is written), in record mode `pending` (the actual result waits beside the
/// golden as `NAME.golden.jsonl.new`, and the message prints the `panelsim accept` command for it
/// with an absolute path, so that it works from any folder), and for an unreadable or malformed
/// trace or golden (naming the file). A golden this call writes (record modes `missing`,
/// `failed`, `all`) passes, as it does for `check`: the record rule of
/// `TraceCheckResult.passes`, so every assertion of one trace in a run has the same outcome
/// whatever the order of the tests. Under Swift Testing the failure is an `Issue` at the
/// caller's source location and, with Swift 6.2 or later, the HTML report and the actual result
/// file are attached (outside Apple platforms only when `swift test` is given
/// `--attachments-path DIR`; otherwise the message says how to keep them); under XCTest it is an
/// `XCTFail` at the caller's file and line, with the same attachments on Apple platforms.
/// - Parameters:
///   - trace: the trace file, relative to the calling file's folder or absolute.
///   - golden: the golden file (same base); nil for the layout above.
///   - tolerances: `CHANNEL=VALUE` settings, the syntax of `check --tolerance`: `location`,
///     `contentOffset` (pt), `backdropAlpha` (0…1), `velocity` (pt/s), `time` (s, absolute);
///     VALUE `X`, `abs:X`, `rel:Y` or `abs:X,rel:Y`. They win over `panelsim.tolerances` files.
///   - record: `never`, `missing`, `failed`, `all` or `pending`; nil: `PANELSIM_RECORD`, else `never` when
///     `CI` is set, else `missing`.
///   - simulation: simulator options (floatingpanel-core.md §9 O3, O8).
///   - profile: `LIBRARY@VERSION` (e.g. `"floatingpanel@2.6.3"`, `panelsim profiles` lists them):
///     replay the trace as that version of its library behaved, as `check --profile` does; nil
///     for the trace's own header (docs/profiles.md). The golden is where `check --profile`
///     looks, the layout above, and records the profile point in its header, so a test that
///     replays one trace under several versions gives each its own `golden` (e.g.
///     `"golden-fp-2.6.3/flick.golden.jsonl"`, the tree of `check --profile … --golden
///     golden-fp-2.6.3`). A refused version, a library other than the trace's, or a trace that
///     uses what the version lacks fails the test naming it.
///   - warnings: the replay's warnings (`check`'s `  warning: …` lines): `.report` (default)
///     prints them as `FILE:LINE: warning: …` at the caller's line, `.fail` fails the test on
///     any of them (`PanelTraceWarnings`).
///   - fileID, filePath, line, column: the caller's location; leave the defaults.
/// - Returns: the outcome (status, `check`'s lines, paths, the actual result).
@discardableResult
public func assertPanelTrace(_ trace: String, golden: String? = nil, tolerances: [String] = [],
                             record: RecordMode? = nil, simulation: SimulationOptions = SimulationOptions(), profile: String? = nil,
                             warnings: PanelTraceWarnings = .report,
                             fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                             line: UInt = #line, column: UInt = #column) -> PanelTraceOutcome {
    let outcome = PanelTraceCheck.evaluate(trace: trace, baseFolder: PanelTestPaths.folder(ofFile: "\(filePath)"),
                                           golden: golden, tolerances: tolerances, record: record, simulation: simulation,
                                           profile: profile)
    return PanelTestFailure.report(outcome, warnings: warnings,
                                   at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// `assertPanelTrace` for one file of a `PanelTraces` listing (`profile` as above):
/// `@Test(arguments: PanelTraces("traces")) func corpus(_ t: PanelTraceFile) { assertPanelTrace(t) }`.
/// The failure is reported at the caller's line; a listing problem (missing or empty folder)
/// fails with its description.
@discardableResult
public func assertPanelTrace(_ trace: PanelTraceFile, golden: String? = nil, tolerances: [String] = [],
                             record: RecordMode? = nil, simulation: SimulationOptions = SimulationOptions(), profile: String? = nil,
                             warnings: PanelTraceWarnings = .report,
                             fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                             line: UInt = #line, column: UInt = #column) -> PanelTraceOutcome {
    let outcome = PanelTraceCheck.evaluate(trace, golden: golden, tolerances: tolerances, record: record, simulation: simulation,
                                           profile: profile)
    return PanelTestFailure.report(outcome, warnings: warnings,
                                   at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// The source location of an assertion's caller.
struct CallerLocation {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
}

/// Reports a failed outcome to the test framework that is running the caller.
enum PanelTestFailure {
    /// Name stem of attachments: the trace's file name without `.jsonl`.
    static func stem(_ outcome: PanelTraceOutcome) -> String {
        let name = outcome.tracePath.split(separator: "/").last.map(String.init) ?? "trace"
        return name.hasSuffix(".jsonl") ? String(name.dropLast(".jsonl".count)) : name
    }

    /// The attachments of a failure: (file name, text).
    static func attachments(_ outcome: PanelTraceOutcome) -> [(name: String, text: String)] {
        var list: [(name: String, text: String)] = []
        if let html = outcome.htmlReport { list.append((stem(outcome) + ".html", html)) }
        if let actual = outcome.actualResult { list.append((stem(outcome) + ".actual.golden.jsonl", actual)) }
        return list
    }

    /// Applies the warnings policy, then reports a failure to the framework running the caller,
    /// or prints the warnings of a pass on standard output. Returns the outcome as applied.
    static func report(_ outcome: PanelTraceOutcome, warnings: PanelTraceWarnings, at location: CallerLocation) -> PanelTraceOutcome {
        let outcome = outcome.applying(warnings)
        for line in outcome.warningReport(file: "\(location.filePath)", line: location.line) { print(line) }
        report(outcome, at: location)
        return outcome
    }

    /// Whether Swift Testing keeps the attachments of this run: always on Apple platforms (the
    /// test results hold them); elsewhere only when the run was given a folder for them
    /// (`swift test --attachments-path DIR`, which passes the option on to the test process), so
    /// that nothing says "Attached" when nothing is stored.
    static func attachmentsAreKept(arguments: [String] = CommandLine.arguments) -> Bool {
        #if canImport(Darwin)
        return true
        #else
        return arguments.contains { $0 == "--attachments-path" || $0.hasPrefix("--attachments-path=")
            || $0 == "--experimental-attachments-path" || $0.hasPrefix("--experimental-attachments-path=") }
        #endif
    }

    /// The note a failure message gets when its attachments are not kept.
    static let attachmentsNote = "  (the HTML report and the actual result are attached when swift test runs with --attachments-path DIR)"

    static func report(_ outcome: PanelTraceOutcome, at location: CallerLocation) {
        guard let message = outcome.failureMessage else { return }
        #if canImport(Testing)
        if Test.current != nil {
            let source = SourceLocation(fileID: "\(location.fileID)", filePath: "\(location.filePath)",
                                        line: Int(location.line), column: Int(location.column))
            #if compiler(>=6.2)
            let files = attachments(outcome)
            let kept = attachmentsAreKept()
            Issue.record(Comment(rawValue: message + (kept || files.isEmpty ? "" : "\n" + attachmentsNote)), sourceLocation: source)
            if kept {
                for (name, text) in files { Attachment.record(text, named: name, sourceLocation: source) }
            }
            #else
            Issue.record(Comment(rawValue: message), sourceLocation: source)
            #endif
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: location.filePath, line: location.line)
        #if canImport(Darwin)
        // XCTAttachment exists on Apple platforms only (not in swift-corelibs-xctest).
        let files = attachments(outcome)
        if !files.isEmpty, Thread.isMainThread {
            MainActor.assumeIsolated {
                XCTContext.runActivity(named: "PanelSim: \(stem(outcome))") { activity in
                    for file in files {
                        let attachment = XCTAttachment(string: file.text)
                        attachment.name = file.name
                        attachment.lifetime = .keepAlways
                        activity.add(attachment)
                    }
                }
            }
        }
        #endif
        #else
        // Neither framework: say it on standard error (an assertion must never be silent).
        FileHandle.standardError.write(Data("\(location.filePath):\(location.line): \(message)\n".utf8))
        #endif
    }
}
