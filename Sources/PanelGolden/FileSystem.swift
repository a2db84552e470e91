import Foundation
import PanelTrace
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system helpers shared by `check` (PanelSimCLI) and `assertPanelTrace` (PanelSimTesting):
/// probing and reading goldens, listing trace folders in a fixed order. Package access: not API.
package enum Files {
    package static func isDirectory(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }
    /// What is at `path` (links followed): a file, nothing (no such file or folder on the way),
    /// or something that cannot be used, with the reason (a folder, or a `stat` error such as a
    /// folder on the way that cannot be searched).
    package enum Probe: Equatable { case file, missing, unusable(String) }
    package static func probe(_ path: String) -> Probe {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .missing }
            return .unusable(String(cString: strerror(code)))
        }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .unusable("is a directory") : .file
    }

    package static func isFile(_ path: String) -> Bool { probe(path) == .file }

    /// Relative paths of the files under `root` whose name ends in `suffix` (anything but a
    /// directory, symbolic links to files included), skipping any path component that starts
    /// with "." (hidden files, temporary files of atomic writes) and not descending into symbolic
    /// links to directories; sorted by their UTF-8 bytes.
    /// - Complexity: one `readdir` per entry, `lstat` only where `readdir` gives no type (the
    ///   listing is the serial part of `check`).
    package static func list(under root: String, suffix: String, excluding excluded: String? = nil) -> [String] {
        listing(under: root, suffix: suffix, excluding: excluded).files
    }

    /// `list` plus what it had to leave out, as "relative path: reason", sorted: folders that
    /// cannot be read or searched, names that are not UTF-8 (no String spells their path; the
    /// bad bytes are shown as U+FFFD) and broken symbolic links, where the name (for a file)
    /// ends in `suffix` and not in `excluded`.
    /// `hidden`, when given, receives the relative path of every hidden entry (name starting
    /// with ".") in the folders walked, other than "." and "..".
    package static func listing(
        under root: String, suffix: String, excluding excluded: String? = nil,
        hidden: ((String) -> Void)? = nil
    ) -> (files: [String], skipped: [String]) {
        var found: [String] = []
        var skipped: [String] = []
        func walk(_ directory: String, _ prefix: String) {
            func skip(_ rel: String, _ reason: String) { skipped.append(rel + ": " + reason) }  // "" is the root
            // A folder whose entries cannot be listed, or opened (not searchable), is left out.
            guard let handle = opendir(directory) else {
                return skip(prefix, "the folder cannot be read (\(String(cString: strerror(errno))))")
            }
            defer { closedir(handle) }
            guard faccessat(AT_FDCWD, directory, X_OK, AT_EACCESS) == 0 else {
                return skip(prefix, "the folder cannot be searched (\(String(cString: strerror(errno))))")
            }
            while let entry = readdir(handle) {
                let (name, isUTF8) = withUnsafeBytes(of: entry.pointee.d_name) { raw -> (String, Bool) in
                    let bytes = raw.prefix(while: { $0 != 0 })
                    let decoded = String(decoding: bytes, as: UTF8.self)  // repairs bad bytes: compare
                    return (decoded, decoded.utf8.elementsEqual(bytes))
                }
                if name.hasPrefix(".") {  // hidden, and "." and ".."
                    if let hidden, isUTF8, name != ".", name != ".." {
                        hidden(prefix.isEmpty ? name : prefix + "/" + name)
                    }
                    continue
                }
                let path = directory + "/" + name
                let rel = prefix.isEmpty ? name : prefix + "/" + name
                // The entry's type from readdir where the file system gives it, else from lstat.
                let isDirectory: Bool
                let isLink: Bool
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_DIR):
                    isDirectory = true
                    isLink = false
                case Int32(DT_LNK):
                    isDirectory = false
                    isLink = true
                case Int32(DT_UNKNOWN):
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    isDirectory = info.st_mode & S_IFMT == S_IFDIR
                    isLink = info.st_mode & S_IFMT == S_IFLNK
                default:
                    isDirectory = false
                    isLink = false
                }
                let wanted = rel.hasSuffix(suffix) && !(excluded.map { rel.hasSuffix($0) } ?? false)
                guard isUTF8 else {
                    if isDirectory || wanted { skip(rel, "the name is not UTF-8") }
                    continue
                }
                if isDirectory {
                    walk(path, rel)
                    continue
                }
                guard wanted else { continue }
                if isLink && !isFile(path) {  // a link to a directory (not followed), or broken
                    if !Files.isDirectory(path) { skip(rel, "a broken symbolic link") }
                    continue
                }
                found.append(rel)
            }
        }
        walk(root, "")
        return (found.sorted(by: utf8Precedes), skipped.sorted(by: utf8Precedes))
    }

    /// The goldens under `root` (as `list(under: root, suffix: ".golden.jsonl")`) and the
    /// temporary files that interrupted atomic writes left among the hidden names the listing
    /// skips (`.NAME.tmp-PID-XXXXXXXX`, `AtomicFile.temporaryOwner(of:)`), each sorted by bytes.
    /// - Complexity: one walk of the folder.
    package static func goldenListing(under root: String) -> (goldens: [String], temporaries: [String]) {
        var temporaries: [String] = []
        let goldens = listing(
            under: root, suffix: ".golden.jsonl",
            hidden: { rel in
                let name = rel.split(separator: "/").last.map(String.init) ?? rel
                if AtomicFile.temporaryOwner(of: name) != nil { temporaries.append(rel) }
            }
        ).files
        return (goldens, temporaries.sorted(by: utf8Precedes))
    }

    /// Reads a UTF-8 text file, or says why it cannot, naming it `shown` (default: `path`):
    /// `cannot read NAME: no such file or directory` (or `is a directory`, or the system's reason),
    /// or, as the trace loader words it, `NAME:LINE: invalid UTF-8 at column C (expected UTF-8
    /// encoded text, found byte 0xXX)`.
    /// - Complexity: O(file size).
    package static func read(_ path: String, shown: String? = nil) -> Result<String, ReadFailure> {
        let name = shown ?? path
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ReadFailure(message: "cannot read \(name): \(unreadableReason(path))"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            if let (line, message) = TraceLoader.invalidUTF8([UInt8](data)) {
                return .failure(ReadFailure(message: "\(name):\(line): \(message)"))
            }
            return .failure(ReadFailure(message: "\(name) is not UTF-8 text"))
        }
        return .success(text)
    }

    /// Why the file at `path` cannot be read: `no such file or directory`, `is a directory`, or
    /// the system's reason (`Permission denied`, …).
    package static func unreadableReason(_ path: String) -> String {
        switch probe(path) {
        case .missing: return "no such file or directory"
        case .unusable(let reason): return reason
        case .file:
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { return String(cString: strerror(errno)) }
            close(fd)
            return "the file could not be read"
        }
    }

    package struct ReadFailure: Error {
        package var message: String
        package init(message: String) { self.message = message }
    }

    /// True when the file at `path` holds exactly `bytes` (false when it cannot be read).
    package static func contentsEqual(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard let data = FileManager.default.contents(atPath: path), data.count == bytes.count else { return false }
        if bytes.isEmpty { return true }
        return data.withUnsafeBytes { d in
            bytes.withUnsafeBytes { b in memcmp(d.baseAddress!, b.baseAddress!, b.count) == 0 }
        }
    }

    /// `a/b` for display, without doubling slashes.
    package static func join(_ a: String, _ b: String) -> String {
        if a.isEmpty || a == "." { return b }
        return a.hasSuffix("/") ? a + b : a + "/" + b
    }
}

/// Byte order of the UTF-8 encodings (what `a.utf8.lexicographicallyPrecedes(b.utf8)` gives),
/// compared with `memcmp`: the order of listings and summaries, the same on every platform.
/// - Complexity: O(min(a, b) length).
package func utf8Precedes(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { pa in
        b.withUTF8 { pb in
            let n = min(pa.count, pb.count)
            if n > 0, let x = pa.baseAddress, let y = pb.baseAddress {
                let c = memcmp(x, y, n)
                if c != 0 { return c < 0 }
            }
            return pa.count < pb.count
        }
    }
}
