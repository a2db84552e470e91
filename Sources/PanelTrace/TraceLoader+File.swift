/// Reading trace files from disk and checking their UTF-8.
import Foundation
import PanelSimCore

extension TraceLoader {
    /// Where the first ill-formed UTF-8 sequence of `bytes` is and what to say about it:
    /// (1-based line, `invalid UTF-8 at column C (expected UTF-8 encoded text, found byte 0xXX)`),
    /// nil for well-formed text. The one wording of the trace loader and of the result and text
    /// files the commands read (`Files.read`).
    /// - Complexity: O(n).
    package static func invalidUTF8(_ bytes: [UInt8]) -> (line: Int, message: String)? {
        guard let bad = UTF8Validation.firstInvalidOffset(bytes) else { return nil }
        return bytes.withUnsafeBufferPointer { invalidUTF8($0, at: bad) }
    }

    static func invalidUTF8(_ body: UnsafeBufferPointer<UInt8>, at bad: Int) -> (line: Int, message: String) {
        var line = 1
        var lineStart = 0
        for k in 0..<bad where body[k] == 0x0A { line += 1; lineStart = k + 1 }
        var column = 1
        for k in lineStart..<bad where body[k] & 0xC0 != 0x80 { column += 1 }
        return (line, "invalid UTF-8 at column \(column) (expected UTF-8 encoded text, found byte 0x\(String(body[bad], radix: 16, uppercase: true)))")
    }

    /// The bytes of the trace file at `path`, read as ``load(path:)`` reads them (a regular file
    /// only), for ``load(bytes:file:)`` and `TraceRecovery.recover(bytes:file:)`.
    /// - Throws: `TraceError` of kind `.io`, naming the file as `shown`.
    /// - Complexity: O(file size).
    public static func readBytes(path: String, shown: String) throws(TraceError) -> [UInt8] {
        do throws(TraceError) {
            return try readFile(path)
        } catch {
            var named = error
            named.file = shown
            throw named
        }
    }

    /// The bytes of the file at `path`.
    /// - Throws: `TraceError` of kind `.io`.
    static func readFile(_ path: String) throws(TraceError) -> [UInt8] {
        try checkReadable(path)
        if let bytes = readRegularFile(path) { return bytes }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return [UInt8](data)
        } catch {
            // The error's description, without its userInfo dictionary (whose order varies between runs).
            let ns = error as NSError
            var reason = ns.localizedDescription
            if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError { reason += " (\(underlying.localizedDescription))" }
            throw TraceError(file: path, line: 0, field: "", message: "cannot read the file: \(oneLine(reason))", kind: .io)
        }
    }

    /// The bytes of the regular file at `path`, read straight into the array (no `Data` copy);
    /// nil when it cannot be read that way (not a regular file, an error, the size changed while
    /// reading), so that the caller falls back to `Data(contentsOf:)` and its error messages.
    /// - Complexity: O(file size).
    static func readRegularFile(_ path: String) -> [UInt8]? {
        // Only a regular file is opened: opening a FIFO for reading would wait for a writer.
        var pathInfo = stat()
        guard stat(path, &pathInfo) == 0, (pathInfo.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var done = 0
            while done < size {
                let n = read(fd, buffer.baseAddress! + done, size - done)
                if n > 0 { done += n; continue }
                if n < 0 && errno == EINTR { continue }
                break
            }
            // Zero-fill what was not read: the array must be initialized; it is discarded below.
            if done < size { (buffer.baseAddress! + done).initialize(repeating: 0, count: size - done) }
            initialized = size
            if done == size {
                var extra: UInt8 = 0
                complete = read(fd, &extra, 1) == 0
            }
        }
        return complete ? bytes : nil
    }
}
