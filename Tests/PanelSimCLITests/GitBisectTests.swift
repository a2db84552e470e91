import XCTest
import Foundation
import PanelGolden
@testable import PanelSimCLI

/// `git bisect run panelsim check --record never` over a throwaway history of traces and goldens:
/// exit 0 marks good, 1 bad, 125 skip. Runs the `panelsim` executable built next to the test
/// bundle (SwiftPM builds every product for `swift test`); skipped when it or `git` is missing.
final class GitBisectTests: XCTestCase {
    /// The built `panelsim` next to the test bundle (Linux: beside the .xctest file; macOS:
    /// beside the .xctest bundle).
    static func panelsimExecutable() -> String? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("panelsim").path
            if FileManager.default.isExecutableFile(atPath: candidate) && !Files.isDirectory(candidate) {
                return candidate
            }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    static func gitExecutable() -> String? {
        ["/usr/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    @discardableResult
    private func sh(_ exe: String, _ args: [String], in dir: String, expect: Int32? = 0) throws -> (Int32, String) {
        let (code, text) = try TestProcess.run(exe, args, in: dir, environment: TestProcess.environment(["HOME": dir]))
        if let expect { XCTAssertEqual(code, expect, "\(args): \(text)") }
        return (code, text)
    }

    func testGitBisectRunFindsTheCommitThatChangedAGolden() throws {
        guard let panelsim = Self.panelsimExecutable() else {
            throw XCTSkip("panelsim executable not built next to the tests")
        }
        guard let git = Self.gitExecutable() else { throw XCTSkip("git not installed") }
        let repo = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panelsim-bisect-repo-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: repo + "/traces", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: repo) }
        let source = RepositoryCorpusTests.root + "/traces/flicks/flick-d1-half-to-full-1500.jsonl"
        try FileManager.default.copyItem(atPath: source, toPath: repo + "/traces/a.jsonl")
        func commit(_ message: String) throws -> String {
            try sh(git, ["add", "-A"], in: repo)
            try sh(git, ["commit", "-q", "-m", message], in: repo)
            return try sh(git, ["rev-parse", "HEAD"], in: repo).1.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try sh(git, ["init", "-q"], in: repo)
        try sh(panelsim, ["check", "--record", "missing"], in: repo)
        let good = try commit("trace a and its golden")

        // A golden of another format version: check exits 125 and bisect skips the commit.
        try FileManager.default.copyItem(atPath: source, toPath: repo + "/traces/b.jsonl")
        try "{\"format\": \"panelsim-result\", \"version\": 99}\n".write(
            toFile: repo + "/golden/b.golden.jsonl", atomically: true, encoding: .utf8)
        _ = try commit("b with a golden from the future")
        try sh(panelsim, ["check", "--record", "never"], in: repo, expect: 125)
        try FileManager.default.removeItem(atPath: repo + "/traces/b.jsonl")
        try FileManager.default.removeItem(atPath: repo + "/golden/b.golden.jsonl")
        _ = try commit("drop b")

        // The regression: one frame of a's golden moves by 0.5 pt.
        let goldenPath = repo + "/golden/a.golden.jsonl"
        let golden = try String(contentsOfFile: goldenPath, encoding: .utf8)
        let changed = golden.replacingOccurrences(
            of: #""frame": 8, "location": 350.71648077513936"#, with: #""frame": 8, "location": 351"#)
        XCTAssertNotEqual(changed, golden, "the edited frame exists")
        try changed.write(toFile: goldenPath, atomically: true, encoding: .utf8)
        let bad = try commit("a's golden changes")
        try sh(panelsim, ["check", "--record", "never"], in: repo, expect: 1)
        try "notes\n".write(toFile: repo + "/NOTES", atomically: true, encoding: .utf8)
        _ = try commit("unrelated")

        try sh(git, ["bisect", "start", "HEAD", good], in: repo)
        let (_, output) = try sh(git, ["bisect", "run", panelsim, "check", "--record", "never"], in: repo, expect: nil)
        XCTAssertTrue(output.contains("\(bad) is the first bad commit"), output)
        try sh(git, ["bisect", "reset", "-q"], in: repo, expect: nil)
    }
}
