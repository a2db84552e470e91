import XCTest
import Foundation
import PanelGolden
import PanelSimCLI

/// The main job, in-process: `panelsim check traces --golden golden --record never` over the
/// repository's own corpus must pass, so CI fails on any behavior change that moves a golden.
final class RepositoryCorpusTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func testRepositoryCorpusMatchesGoldens() {
        let out = StringSink()
        let err = StringSink()
        let code = PanelSimCommand.run(
            arguments: ["check", "traces", "--golden", "golden", "--record", "never"],
            environment: [:], stdout: out, stderr: err, workingDirectory: Self.root)
        XCTAssertEqual(code, 0, out.text + err.text)
        let summary = out.text.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(summary.hasSuffix(" passed, 0 failed"), summary)
        XCTAssertFalse(
            out.text.contains("MISSING") || out.text.contains("SKIP") || out.text.contains("ERROR"), out.text)
        XCTAssertFalse(out.text.contains("unreferenced"), out.text)
    }
}
