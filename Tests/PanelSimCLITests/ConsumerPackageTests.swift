import XCTest
import Foundation
import PanelGolden

/// An app's own package, built for real in a temporary folder: `MyApp`, depending on this
/// repository by path, traces in `Tests/MyPanelTests/traces`, goldens in `Tests/MyPanelTests/golden`,
/// one trace asserted by three tests (an XCTest, a Swift Testing test and a `PanelTraces` case).
/// Every command runs from the package's root, as a user would.
///
/// One build serves every assertion. Its products go to `.build/consumer-package` of this
/// repository (a scratch path shared by runs, so only the first run builds PanelSim's libraries
/// again: about 90 s on two cores, then about 15 s). `panelsim` is the executable built next to
/// the tests. Skipped when `swift`, `git` or that executable is missing, or when
/// `PANELSIM_SKIP_CONSUMER_PACKAGE` is set.
final class ConsumerPackageTests: XCTestCase {
    static let trace = "flicks/flick-d1-half-to-full-1500"
    let tests = "Tests/MyPanelTests"

    struct Run {
        var code: Int32
        var output: String
    }

    /// Runs `executable args` in `folder` (`TestProcess.environment(extra)`); output and error together.
    @discardableResult
    func sh(
        _ executable: String, _ args: [String], in folder: String, env extra: [String: String] = [:], expect: Int32? = 0
    ) throws -> Run {
        let (code, output) = try TestProcess.run(
            executable, args, in: folder, environment: TestProcess.environment(extra))
        let run = Run(code: code, output: output)
        if let expect { XCTAssertEqual(run.code, expect, "\(args.joined(separator: " ")):\n\(run.output)") }
        return run
    }

    /// The pass/fail lines of a `swift test` run (XCTest and Swift Testing), without timings, sorted.
    static func outcomes(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            let text = String(line)
            if text.hasPrefix("Test Case '"), text.contains("' passed") || text.contains("' failed") {
                return text.components(separatedBy: " (").first
            }
            if text.hasPrefix("✔ Test ") || text.hasPrefix("✘ Test ") {
                return text.components(separatedBy: " after ").first
            }
            return nil
        }.sorted()
    }

    func testAnAppsPackageFromItsRoot() throws {
        if ProcessInfo.processInfo.environment["PANELSIM_SKIP_CONSUMER_PACKAGE"] != nil {
            throw XCTSkip("PANELSIM_SKIP_CONSUMER_PACKAGE is set")
        }
        guard let panelsim = GitBisectTests.panelsimExecutable() else {
            throw XCTSkip("panelsim executable not built next to the tests")
        }
        guard let git = GitBisectTests.gitExecutable() else { throw XCTSkip("git not installed") }
        let env = "/usr/bin/env"
        guard (try? sh(env, ["swift", "--version"], in: "/", expect: nil))?.code == 0 else {
            throw XCTSkip("swift not on PATH")
        }
        let repo = RepositoryCorpusTests.root
        let app = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panelsim-consumer-\(UUID().uuidString)/MyApp"
        ).path
        defer { try? FileManager.default.removeItem(atPath: (app as NSString).deletingLastPathComponent) }
        let fm = FileManager.default
        func write(_ text: String, _ rel: String) throws {
            try fm.createDirectory(
                atPath: ((app + "/" + rel) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: app + "/" + rel, atomically: true, encoding: .utf8)
        }
        try write(
            """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "MyApp",
                dependencies: [.package(name: "PanelSim", path: "\(repo)")],
                targets: [
                    .testTarget(name: "MyPanelTests", dependencies: [.product(name: "PanelSimTesting", package: "PanelSim")],
                                exclude: ["traces", "golden"]),
                ]
            )

            """, "Package.swift")
        // One trace, three assertions: the README's pattern of a named test beside a corpus test.
        try write(
            """
            import XCTest
            import Testing
            import PanelSimTesting

            final class PanelXCTests: XCTestCase {
                func testFlick() { assertPanelTrace("traces/fp-flick.jsonl") }
            }

            @Test func flick() { assertPanelTrace("traces/fp-flick.jsonl") }

            @Test(arguments: PanelTraces("traces"))
            func corpus(_ trace: PanelTraceFile) { assertPanelTrace(trace) }

            """, "\(tests)/PanelTests.swift")
        try write(".build/\n", ".gitignore")
        let traceText = try String(contentsOfFile: repo + "/traces/\(Self.trace).jsonl", encoding: .utf8)
        let goldenText = try String(contentsOfFile: repo + "/golden/\(Self.trace).golden.jsonl", encoding: .utf8)
        let golden = app + "/\(tests)/golden/fp-flick.golden.jsonl"

        // A revision without a traces folder cannot be evaluated: 125, never "bad".
        try sh(git, ["init", "-q"], in: app)
        try sh(git, ["add", "-A"], in: app)
        try sh(git, ["commit", "-q", "-m", "the package, no traces yet"], in: app)
        let noTraces = try sh(git, ["rev-parse", "HEAD"], in: app).output.trimmingCharacters(
            in: .whitespacesAndNewlines)
        XCTAssertEqual(try sh(panelsim, ["check", "\(tests)/traces", "--bisect"], in: app, expect: nil).code, 125)

        // One build for everything below.
        let scratch = repo + "/.build/consumer-package"
        try sh(env, ["swift", "build", "--build-tests", "--scratch-path", scratch], in: app)
        let swiftTest = ["swift", "test", "--skip-build", "--scratch-path", scratch]

        // The same trace asserted by three tests, goldens deleted before each run: 10 runs, the
        // same outcomes (the record rule: the golden written passes, and so does every other
        // assertion of the trace, whichever runs first).
        try write(traceText, "\(tests)/traces/fp-flick.jsonl")
        var first: [String]?
        for run in 1...10 {
            try? fm.removeItem(atPath: app + "/\(tests)/golden")
            let r = try sh(env, swiftTest, in: app, env: ["PANELSIM_RECORD": "missing"], expect: nil)
            let outcomes = Self.outcomes(r.output)
            XCTAssertEqual(r.code, 0, "run \(run):\n\(r.output)")
            XCTAssertEqual(outcomes.count, 4, "run \(run): \(outcomes)")  // the XCTest, the suite's tests and the corpus case
            if let first { XCTAssertEqual(outcomes, first, "run \(run)") } else { first = outcomes }
            XCTAssertEqual(
                try String(contentsOfFile: golden, encoding: .utf8), goldenText,
                "run \(run): the golden is the replay's")
        }

        // From the package root: check finds Tests/MyPanelTests/golden by the same rule.
        let check = try sh(panelsim, ["check", "\(tests)/traces"], in: app)
        XCTAssertTrue(check.output.hasSuffix("1 passed, 0 failed\n"), check.output)

        // After a nudge, the failing test in pending mode prints an accept command; run as
        // printed (from the package root), it accepts the pending golden.
        let nudged = goldenText.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.contains("\"frame\""), let r = line.range(of: "\"location\": ") else { return String(line) }
            let number = line[r.upperBound...].prefix { "0123456789.-".contains($0) }
            return line.replacingOccurrences(
                of: "\"location\": \(number)", with: "\"location\": \(Double(number)! + 3)")
        }.joined(separator: "\n")
        try nudged.write(toFile: golden, atomically: true, encoding: .utf8)
        let pending = try sh(env, swiftTest, in: app, env: ["PANELSIM_RECORD": "pending"], expect: nil)
        XCTAssertNotEqual(pending.code, 0, pending.output)
        let marker = "accept it with panelsim accept "
        let printed = try XCTUnwrap(
            pending.output.range(of: marker).map {
                String(pending.output[$0.upperBound...].prefix { $0 != " " && $0 != "\n" })
            },
            pending.output)
        XCTAssertEqual(printed, golden + ".new")
        let accepted = try sh(panelsim, ["accept", printed], in: app)
        XCTAssertTrue(accepted.output.hasPrefix("accepted "), accepted.output)
        XCTAssertEqual(try String(contentsOfFile: golden, encoding: .utf8), goldenText)
        try sh(panelsim, ["check", "\(tests)/traces", "--record", "never"], in: app)

        // git bisect run over five commits: no traces yet (above), traces added, harmless,
        // a parameter change, harmless. It names the parameter change.
        try sh(git, ["add", "-A"], in: app)
        try sh(git, ["commit", "-q", "-m", "traces and goldens"], in: app)
        try write("notes\n", "NOTES")
        try sh(git, ["add", "-A"], in: app)
        try sh(git, ["commit", "-q", "-m", "harmless"], in: app)
        let changed = traceText.replacingOccurrences(
            of: #""panel": {"#, with: #""panel": {"behavior": {"springResponseTime": 0.3}, "#)
        XCTAssertNotEqual(changed, traceText)
        try write(changed, "\(tests)/traces/fp-flick.jsonl")
        try sh(git, ["commit", "-q", "-am", "a parameter change"], in: app)
        let culprit = try sh(git, ["rev-parse", "HEAD"], in: app).output.trimmingCharacters(in: .whitespacesAndNewlines)
        try write("more notes\n", "NOTES")
        try sh(git, ["commit", "-q", "-am", "harmless again"], in: app)
        try sh(git, ["bisect", "start", "HEAD", noTraces], in: app)
        let bisect = try sh(
            git, ["bisect", "run", panelsim, "check", "\(tests)/traces", "--bisect"], in: app, expect: nil)
        XCTAssertTrue(bisect.output.contains("\(culprit) is the first bad commit"), bisect.output)
        try sh(git, ["bisect", "reset", "-q"], in: app, expect: nil)
    }
}
