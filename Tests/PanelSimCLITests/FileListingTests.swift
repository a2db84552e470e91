import XCTest
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PanelGolden
@testable import PanelSimCLI

/// `check`'s corpus listing: which files count as traces.
final class FileListingTests: XCTestCase {
    func testListingRules() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-list-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        for dir in ["t/a/b", "t/.hidden", "t/dir.jsonl", "other"] {
            try fm.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true)
        }
        for file in [
            "t/x.jsonl", "t/a/y.jsonl", "t/a/b/z.jsonl", "t/.hidden/h.jsonl", "t/.dot.jsonl",
            "t/a/w.golden.jsonl", "t/a/notes.txt", "other/o.jsonl",
        ] {
            XCTAssertTrue(fm.createFile(atPath: root + "/" + file, contents: Data("{}\n".utf8)))
        }
        try fm.createSymbolicLink(atPath: root + "/t/linkdir", withDestinationPath: "../other")
        try fm.createSymbolicLink(atPath: root + "/t/linkfile.jsonl", withDestinationPath: "../other/o.jsonl")
        try fm.createSymbolicLink(atPath: root + "/t/broken.jsonl", withDestinationPath: "nowhere.jsonl")
        XCTAssertEqual(mkfifo(root + "/t/fifo.jsonl", 0o644), 0)

        // Files (a FIFO and a link to a file included) ending in .jsonl but not .golden.jsonl; not
        // hidden ones, not directories named *.jsonl, not broken links, not inside linked directories.
        XCTAssertEqual(
            Files.list(under: root + "/t", suffix: ".jsonl", excluding: ".golden.jsonl"),
            ["a/b/z.jsonl", "a/y.jsonl", "fifo.jsonl", "linkfile.jsonl", "x.jsonl"])
        XCTAssertEqual(Files.list(under: root + "/t", suffix: ".golden.jsonl"), ["a/w.golden.jsonl"])
        XCTAssertEqual(Files.list(under: root + "/missing", suffix: ".jsonl"), [])
    }

    /// Entries `check` could not open are left out, as they were when every entry was lstat'ed:
    /// a name that is not UTF-8 (no String spells its path) and, for a user the permissions
    /// apply to, the files of a folder that cannot be searched.
    func testUnreachableEntriesAreSkipped() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-list-\(UUID().uuidString)")
            .path
        defer {
            chmod(root + "/t/locked", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        try FileManager.default.createDirectory(atPath: root + "/t/locked", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/t/ok.jsonl", contents: Data("{}\n".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/t/locked/x.jsonl", contents: Data("{}\n".utf8)))
        // b\xff.jsonl: created through the C API, since a String cannot hold the byte.
        var badName: [CChar] =
            Array((root + "/t/b").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF)] + Array(".jsonl".utf8CString)
        let fd = open(&badName, O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let everything = Files.list(under: root + "/t", suffix: ".jsonl")
        XCTAssertEqual(everything, ["locked/x.jsonl", "ok.jsonl"])
        XCTAssertEqual(chmod(root + "/t/locked", 0o644), 0)  // readable, not searchable
        let listed = Files.listing(under: root + "/t", suffix: ".jsonl")
        // root is not held back by permissions: it can open the file, so it is listed.
        XCTAssertEqual(listed.files, geteuid() == 0 ? ["locked/x.jsonl", "ok.jsonl"] : ["ok.jsonl"])
        // What was left out is said, not hidden (check prints it as warnings).
        try FileManager.default.createSymbolicLink(atPath: root + "/t/gone.jsonl", withDestinationPath: "nowhere.jsonl")
        let again = Files.listing(under: root + "/t", suffix: ".jsonl")
        XCTAssertEqual(
            again.skipped,
            ["b\u{FFFD}.jsonl: the name is not UTF-8", "gone.jsonl: a broken symbolic link"]
                + (geteuid() == 0 ? [] : ["locked: the folder cannot be searched (Permission denied)"]))
    }
}
