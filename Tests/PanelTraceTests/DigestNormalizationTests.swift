import XCTest
import Foundation
import PanelTrace

/// Converting a trace's line endings, or adding a BOM, is not an edit.
final class DigestNormalizationTests: XCTestCase {
    func testBOMAndCRLFDoNotChangeTheDigest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-digest-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = """
            {"format": "panelsim-trace", "version": 1, "name": "d", "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": {"absoluteInset": 16, "edge": "top", "referenceGuide": "superview"}, "half": {"fractionalInset": 0.5, "edge": "bottom", "referenceGuide": "superview"}}, "initialState": "half"}}
            {"t": 0.1, "touch": "began", "x": 100, "y": 500}
            {"t": 0.2, "touch": "ended", "x": 100, "y": 400}

            """
        var digests: [String] = []
        for (name, bytes) in [
            ("lf", Array(text.utf8)), ("crlf", Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("bom", [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
        ] {
            let path = dir + "/" + name + ".jsonl"
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            let loaded = try TraceLoader.load(path: path)
            digests.append(loaded.digest)
        }
        XCTAssertEqual(Set(digests).count, 1, "\(digests)")
        // A file with neither is hashed as is (existing goldens keep their digests).
        XCTAssertEqual(digests[0], "sha256:" + SHA256.hex(Array(text.utf8)))
    }
}
