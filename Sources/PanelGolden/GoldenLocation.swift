import Foundation

/// Where a trace's golden is: the one rule behind `check` (a folder or files), `review`,
/// `accept`, `reject`, `report` and `assertPanelTrace` (README, "Where goldens are").
///
/// * The **trace root** of a trace file or folder is the nearest folder named `traces` that
///   holds it (the folder itself when it is named `traces`). It is looked for in the path as
///   written, then in its absolute path (so `check .` inside `traces/flicks` works), then with
///   symbolic links resolved.
/// * Its **golden root** is the folder `golden` beside it (same parent), and the golden of
///   `TRACE_ROOT/a/b.jsonl` is `GOLDEN_ROOT/a/b.golden.jsonl`.
/// * Outside any `traces` folder, the folder given (for a file, the file's own folder) is the
///   trace root and `golden` inside it the golden root.
///
/// Paths are shown the way they were written when the `traces` folder is in the written path,
/// else relative to the working directory, so that a printed path works pasted where the
/// command ran.
public enum GoldenLocation {
    /// A trace file or folder placed by the rule.
    public struct Placement: Sendable, Equatable {
        /// The trace root, as shown.
        public var traceRoot: String
        /// The golden root, as shown.
        public var goldenRoot: String
        /// The path below the trace root ("" for the root itself), `/`-separated.
        public var below: String
        /// Whether the trace root is a folder named `traces` (false: the fallback of a path
        /// outside any `traces` folder).
        public var inTracesFolder: Bool

        /// The golden folder of the folder placed (`GOLDEN_ROOT/below`), as shown.
        public var goldenFolder: String { below.isEmpty ? goldenRoot : Files.join(goldenRoot, below) }
    }

    /// The name of the folder that makes a trace root.
    public static let tracesFolderName = "traces"
    /// The name of the golden root beside it.
    public static let goldenFolderName = "golden"

    /// Places a trace folder (`check DIR`, `accept DIR`).
    /// - Parameters:
    ///   - folder: the folder as written (absolute, or relative to `workingDirectory`).
    ///   - workingDirectory: absolute.
    /// - Complexity: O(path length), plus one `realpath` when the written and absolute paths
    ///   hold no `traces` folder.
    public static func place(folder: String, workingDirectory: String) -> Placement {
        if let found = find(folder, isFile: false, workingDirectory: workingDirectory) { return found }
        let shown = folder.isEmpty ? "." : folder
        return Placement(
            traceRoot: shown, goldenRoot: Files.join(shown, goldenFolderName), below: "", inTracesFolder: false)
    }

    /// Places a trace file (`check FILE`, `report TRACE`, `accept TRACE`, `assertPanelTrace`):
    /// `below` is the file's path below its trace root.
    /// - Complexity: as `place(folder:workingDirectory:)`.
    public static func place(file: String, workingDirectory: String) -> Placement {
        if let found = find(file, isFile: true, workingDirectory: workingDirectory) { return found }
        let parts = components(file)
        let name = parts.last ?? file
        var folder = parts.dropLast().joined(separator: "/")
        if file.hasPrefix("/") { folder = "/" + folder }
        if folder.isEmpty { folder = "." }
        return Placement(
            traceRoot: folder, goldenRoot: Files.join(folder, goldenFolderName), below: name, inTracesFolder: false)
    }

    /// The golden of a trace file, as shown: `GOLDEN_ROOT/below` with `.jsonl` → `.golden.jsonl`.
    public static func golden(ofTrace file: String, workingDirectory: String) -> String {
        let p = place(file: file, workingDirectory: workingDirectory)
        return Files.join(p.goldenRoot, GoldenCheck.goldenRelativePath(forTrace: p.below))
    }

    /// The non-empty components of a path, without `.` components.
    static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    /// An absolute path with `.` and `..` resolved lexically (no links followed).
    static func standardized(_ path: String, workingDirectory: String) -> [String] {
        let full = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        var out: [String] = []
        for part in components(full) {
            if part == ".." { if !out.isEmpty { out.removeLast() } } else { out.append(part) }
        }
        return out
    }

    /// `to` relative to `from` (both absolute, as components): `..` steps then the rest; `.`
    /// when they are the same folder.
    static func relative(_ to: [String], from: [String]) -> String {
        var common = 0
        while common < to.count, common < from.count, to[common] == from[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The placement when a `traces` folder holds the path, else nil.
    private static func find(_ path: String, isFile: Bool, workingDirectory: String) -> Placement? {
        // 1. The path as written.
        let written = components(path)
        if let i = lastTraces(written, isFile: isFile), !written[(i + 1)...].contains("..") {
            let prefix = path.hasPrefix("/") ? "/" : ""
            let root = prefix + written[...i].joined(separator: "/")
            let parent = prefix + written[..<i].joined(separator: "/")
            return Placement(
                traceRoot: root, goldenRoot: Files.join(parent.isEmpty ? "." : parent, goldenFolderName),
                below: written[(i + 1)...].joined(separator: "/"), inTracesFolder: true)
        }
        // 2. The absolute path, then 3. with links resolved; shown relative to the working
        // directory (resolved the same way).
        let absolute = standardized(path, workingDirectory: workingDirectory)
        let cwd = standardized(workingDirectory, workingDirectory: "/")
        if let i = lastTraces(absolute, isFile: isFile) {
            return placement(absolute, i, cwd: cwd)
        }
        let resolvedPath = resolveLinks("/" + absolute.joined(separator: "/"), isFile: isFile)
        let resolved = components(resolvedPath)
        if let i = lastTraces(resolved, isFile: isFile) {
            return placement(
                resolved, i, cwd: components(resolveLinks("/" + cwd.joined(separator: "/"), isFile: false)))
        }
        return nil
    }

    private static func placement(_ parts: [String], _ i: Int, cwd: [String]) -> Placement {
        Placement(
            traceRoot: relative(Array(parts[...i]), from: cwd),
            goldenRoot: relative(Array(parts[..<i]) + [goldenFolderName], from: cwd),
            below: parts[(i + 1)...].joined(separator: "/"), inTracesFolder: true)
    }

    /// The index of the last `traces` component that is a folder of the path.
    private static func lastTraces(_ parts: [String], isFile: Bool) -> Int? {
        (isFile ? parts.dropLast() : parts[...]).lastIndex(of: tracesFolderName)
    }

    /// `realpath` of the path (of its folder for a file, which may not exist yet); the path
    /// itself when it cannot be resolved.
    private static func resolveLinks(_ path: String, isFile: Bool) -> String {
        guard isFile else { return URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent)
            .path
    }
}

/// `text` as one shell word: as is when it holds only letters, digits and `._/+-,=:@%`, else in
/// single quotes (a quote inside written `'\''`). Paths in printed commands go through it, so
/// that a command pasted as printed works.
package func shellQuoted(_ text: String) -> String {
    let plain =
        !text.isEmpty
        && text.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9")
                || "._/+-,=:@%".unicodeScalars.contains($0)
        }
    return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
