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
    public init(path: String, message: String) { self.path = path; self.message = message }
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
    /// - Throws: `FileWriteError` naming `path` and the failing step.
    /// - Complexity: O(text size).
    public static func write(_ text: String, to path: String) throws(FileWriteError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FileWriteError(path: path, message: "cannot create directory \(directory)")
        }
        let temp = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-" + UUID().uuidString.prefix(8)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            throw FileWriteError(path: path, message: "cannot create temporary file (\(errnoText()))")
        }
        var failure: String?
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count && failure == nil {
            let n = bytes.withUnsafeMutableBytes { buffer in
                posixWrite(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if n < 0 {
                if errno != EINTR { failure = "write failed (\(errnoText()))" }
            } else {
                written += n
            }
        }
        bytes = []
        if failure == nil && fsync(fd) != 0 { failure = "fsync failed (\(errnoText()))" }
        if close(fd) != 0 && failure == nil { failure = "close failed (\(errnoText()))" }
        if failure == nil && rename(temp, path) != 0 { failure = "rename failed (\(errnoText()))" }
        if let failure {
            unlink(temp)
            throw FileWriteError(path: path, message: failure)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// POSIX `write(2)` (named apart from the many Swift `write` methods in scope).
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
