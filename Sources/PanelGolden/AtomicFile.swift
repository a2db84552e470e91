#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// A file write that failed: the path and the system's reason.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "cannot write \(path): \(message)" }
}

/// Atomic file writes: nothing half-written survives a crash.
public enum AtomicFile {
    /// Writes `text` (UTF-8) to `path` atomically.
    ///
    /// Creates missing parent directories, writes a hidden temporary file
    /// (`.<name>.tmp-<pid>-<random>`) in the same directory, flushes it to disk (`fsync`), then
    /// `rename(2)`s it over `path`, so readers see the old file or the new one, never a part.
    /// The temporary file is removed when any step fails. New files get mode 0644 (minus umask).
    /// - Parameters:
    ///   - text: the contents.
    ///   - path: where to write, absolute or relative to the process's working directory.
    ///   - shown: the path as the user gave it (errors name it instead of `path`); nil: `path`.
    /// - Throws: `FileWriteError` naming `shown` (or `path`) and the failing step.
    /// - Complexity: O(text size).
    public static func write(_ text: String, to path: String, shownAs shown: String? = nil) throws(FileWriteError) {
        var writer = try Writer(path: path, shownAs: shown)
        var bytes = Array(text.utf8)
        do {
            try writer.append(bytes)
        } catch {
            writer.abandon()
            throw error
        }
        bytes = []
        try writer.commit()
    }

    /// An atomic write in pieces (a result written as it is produced): the pieces go to the
    /// hidden temporary file of `write(_:to:shownAs:)`, and `commit()` moves it over the path
    /// (`abandon()` removes it instead).
    public struct Writer {
        let path: String, named: String, temp: String
        let fd: Int32

        /// Creates the folders and the temporary file.
        /// - Throws: `FileWriteError` as `write(_:to:shownAs:)`.
        public init(path: String, shownAs shown: String? = nil) throws(FileWriteError) {
            let url = URL(fileURLWithPath: path)
            let directory = url.deletingLastPathComponent().path
            let named = shown ?? path
            // The rename at the end would replace a device or FIFO (`-o /dev/null` run as root
            // would leave a regular file there): those are refused. (A folder there makes the
            // rename fail.)
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
                throw FileWriteError(
                    path: named,
                    message:
                        "is not a regular file (a device, FIFO or socket; expected a file path, or no -o for standard output)"
                )
            }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                let folder = named.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
                    separator: "/")
                throw FileWriteError(
                    path: named,
                    message: "cannot create the folder \(folder.isEmpty ? (named.hasPrefix("/") ? "/" : ".") : folder)"
                        + " (\(AtomicFile.whyNoFolder(directory)))")
            }
            let temp =
                directory + "/"
                + AtomicFile.temporaryName(
                    for: url.lastPathComponent, pid: getpid(), tag: String(UUID().uuidString.prefix(8)))
            let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            guard fd >= 0 else {
                throw FileWriteError(path: named, message: "cannot create temporary file (\(AtomicFile.errnoText()))")
            }
            self.path = path
            self.named = named
            self.temp = temp
            self.fd = fd
        }

        /// Appends `bytes`.
        /// - Throws: `FileWriteError` (then call `abandon()`).
        public mutating func append(_ bytes: [UInt8]) throws(FileWriteError) {
            var written = 0
            while written < bytes.count {
                let n = bytes.withUnsafeBytes { buffer in
                    posixWrite(fd, buffer.baseAddress! + written, buffer.count - written)
                }
                if n < 0 {
                    if errno != EINTR {
                        throw FileWriteError(path: named, message: "write failed (\(AtomicFile.errnoText()))")
                    }
                } else {
                    written += n
                }
            }
        }

        /// Flushes the temporary file to disk and renames it over the path.
        /// - Throws: `FileWriteError` (the temporary file is then removed).
        public func commit() throws(FileWriteError) {
            var failure: String?
            if fsync(fd) != 0 { failure = "fsync failed (\(AtomicFile.errnoText()))" }
            if close(fd) != 0 && failure == nil { failure = "close failed (\(AtomicFile.errnoText()))" }
            if failure == nil && rename(temp, path) != 0 { failure = "rename failed (\(AtomicFile.errnoText()))" }
            if let failure {
                unlink(temp)
                throw FileWriteError(path: named, message: failure)
            }
        }

        /// Closes and removes the temporary file; the path is left as it was.
        public func abandon() {
            close(fd)
            unlink(temp)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Why the folder `directory` could not be created: a file where it (or a folder on the way)
    /// should be, or the system's reason for the outermost folder that is missing.
    static func whyNoFolder(_ directory: String) -> String {
        var target = directory
        // The outermost missing component: its parent exists (as a folder or not).
        while !FileManager.default.fileExists(atPath: target) {
            let parent = (target as NSString).deletingLastPathComponent
            if parent.isEmpty || parent == target || FileManager.default.fileExists(atPath: parent) { break }
            target = parent
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), !isFolder.boolValue {
            return "a file is in the way"
        }
        if mkdir(target, 0o755) == 0 {  // it can be created now: the failure was not lasting
            rmdir(target)
            return "the folder could not be created; try again"
        }
        return errno == ENOTDIR ? "a file is in the way" : errnoText()
    }

    /// The name of the temporary file a write of `name` uses: `.<name>.tmp-<pid>-<tag>`, where
    /// `tag` is 8 random hexadecimal digits. Hidden, so that listings of goldens never take it
    /// for one.
    public static func temporaryName(for name: String, pid: Int32, tag: String) -> String {
        "." + name + ".tmp-\(pid)-" + tag
    }

    /// The target name and writing process of a temporary file name of ``temporaryName(for:pid:tag:)``'s
    /// form; nil for any other name.
    /// - Complexity: O(length of `name`).
    public static func temporaryOwner(of name: String) -> (target: String, pid: Int32)? {
        let bytes = Array(name.utf8)
        // "." target ".tmp-" digits "-" 8 hex digits
        guard bytes.count > 1 + 5 + 1 + 1 + 8, bytes[0] == UInt8(ascii: "."),
            bytes[bytes.count - 9] == UInt8(ascii: "-"),
            bytes[(bytes.count - 8)...].allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66)
            })
        else { return nil }
        let head = bytes[1..<(bytes.count - 9)]  // target ".tmp-" pid
        var digitsStart = head.endIndex
        while digitsStart > head.startIndex, head[digitsStart - 1] >= 0x30, head[digitsStart - 1] <= 0x39 {
            digitsStart -= 1
        }
        let marker = Array(".tmp-".utf8)
        let digits = head[digitsStart...]
        guard !digits.isEmpty, digits.count <= 10, digitsStart - marker.count > head.startIndex,
            head[(digitsStart - marker.count)..<digitsStart].elementsEqual(marker),
            let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0
        else { return nil }
        return (String(decoding: head[..<(digitsStart - marker.count)], as: UTF8.self), pid)
    }

    /// Whether process `pid` exists (it may belong to another user), by `kill(pid, 0)`. A process
    /// id can be reused, so true does not prove that the process is the one that wrote a file.
    public static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

/// POSIX `write(2)` (named apart from the many Swift `write` methods in scope).
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
