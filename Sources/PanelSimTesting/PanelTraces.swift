import Foundation
import PanelGolden

/// One trace file of a test's corpus, as listed by `PanelTraces`: pass it to
/// `assertPanelTrace(_:)` (one Swift Testing test case per file with `@Test(arguments:)`).
public struct PanelTraceFile: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The trace's path as listed: the folder given to `PanelTraces`, then the path below it
    /// (`traces/flicks/up.jsonl`). Relative to `baseFolder` unless the folder was absolute.
    public let path: String
    /// The absolute folder relative paths start from: the folder of the test file that listed
    /// the trace.
    public let baseFolder: String
    /// Why this entry is not a usable trace (the folder is missing or empty, an entry could not
    /// be listed); `assertPanelTrace` reports it as a failure. Nil for a real trace file.
    public let problem: String?

    /// A trace file by path (relative to `baseFolder`, or absolute).
    public init(path: String, baseFolder: String) {
        self.init(path: path, baseFolder: baseFolder, problem: nil)
    }

    init(path: String, baseFolder: String, problem: String?) {
        self.path = path
        self.baseFolder = baseFolder
        self.problem = problem
    }

    /// The listed path (stable across machines; it names the test case).
    public var id: String { path }
    public var description: String { path }
}

/// The traces under a folder, in the order `panelsim check` replays them: every `*.jsonl` file
/// below it (subfolders included) except `*.golden.jsonl`, skipping names that start with `.`,
/// sorted by the bytes of their UTF-8 paths.
///
/// ```swift
/// @Test(arguments: PanelTraces("traces"))
/// func corpus(_ trace: PanelTraceFile) { assertPanelTrace(trace) }
/// ```
///
/// The folder is relative to the folder of the calling source file (`#filePath`), or absolute.
/// A folder that does not exist, holds no trace, or has entries the listing had to leave out
/// (a folder that cannot be read, a name that is not UTF-8, a broken link) yields an entry
/// whose `problem` says so, so the mistake fails a test case instead of passing with none.
/// - Complexity: one directory walk, at initialization.
public struct PanelTraces: RandomAccessCollection, Sendable {
    /// The listed files, in `check`'s order, then the problems.
    public let files: [PanelTraceFile]

    /// Lists the traces under `folder`.
    /// - Parameters:
    ///   - folder: relative to the folder of `filePath`, or absolute.
    ///   - filePath: the calling source file; leave the default.
    public init(_ folder: String, filePath: StaticString = #filePath) {
        self.init(folder, baseFolder: PanelTestPaths.folder(ofFile: "\(filePath)"))
    }

    /// Lists the traces under `folder`, relative to `baseFolder` (absolute) unless absolute.
    public init(_ folder: String, baseFolder: String) {
        var shown = folder
        while shown.count > 1, shown.hasSuffix("/") { shown.removeLast() }
        let root = PanelTestPaths.resolve(shown, against: baseFolder)
        func problem(_ path: String, _ text: String) -> PanelTraceFile {
            PanelTraceFile(path: path, baseFolder: baseFolder, problem: text)
        }
        guard Files.isDirectory(root) else {
            files = [problem(shown, "no trace folder \(shown): \(root) does not exist or is not a folder")]
            return
        }
        let (found, skipped) = Files.listing(under: root, suffix: ".jsonl", excluding: ".golden.jsonl")
        var files = found.map { PanelTraceFile(path: Files.join(shown, $0), baseFolder: baseFolder) }
        for entry in skipped {
            // "rel: reason", or ": reason" for the folder itself (as `check` prints them).
            let text = entry.hasPrefix(": ") ? shown + entry : Files.join(shown, entry)
            let rel =
                entry.hasPrefix(": ") ? "" : String(entry[..<(entry.range(of: ": ")?.lowerBound ?? entry.endIndex)])
            files.append(problem(Files.join(shown, rel), "skipped \(text)"))
        }
        if files.isEmpty {
            files = [problem(shown, "no *.jsonl traces under \(shown) (\(root))")]
        }
        self.files = files
    }

    public var startIndex: Int { files.startIndex }
    public var endIndex: Int { files.endIndex }
    public subscript(position: Int) -> PanelTraceFile { files[position] }
}

/// Paths of the testing library: test-file folders and paths relative to them.
enum PanelTestPaths {
    /// The folder of a source file path (`#filePath`), absolute (a relative path is taken from
    /// the current directory).
    static func folder(ofFile filePath: String) -> String {
        let absolute =
            filePath.hasPrefix("/") ? filePath : resolve(filePath, against: FileManager.default.currentDirectoryPath)
        guard let slash = absolute.lastIndex(of: "/") else { return "." }
        return slash == absolute.startIndex ? "/" : String(absolute[..<slash])
    }

    /// `path` if absolute, else `base/path` (`.` is `base`).
    static func resolve(_ path: String, against base: String) -> String {
        if path.hasPrefix("/") { return path }
        if path.isEmpty || path == "." { return base }
        return base.hasSuffix("/") ? base + path : base + "/" + path
    }
}
