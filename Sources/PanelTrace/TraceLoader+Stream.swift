/// Reading a trace file in chunks, for replays in bounded memory.
import Foundation
import PanelSimCore

/// A trace file checked whole without being held: its header, digest and sample count, from
/// ``TraceLoader/scan(path:chunkSize:)``; ``TraceLoader/sampleFeed(path:chunkSize:)`` then
/// hands its samples to a streaming replay.
public struct ScannedTrace: Sendable, Equatable {
    public var header: TraceHeader
    /// As `LoadedTrace.digest`.
    public var digest: String
    public var sampleCount: Int
    public var path: String
}

/// The lines of a file, read `chunkSize` bytes at a time and handed over whole: each chunk is
/// cut after its last LF (the rest waits for the next chunk), the last line at the end of the
/// file may have none. A UTF-8 byte order mark at the start is dropped.
struct ChunkedLines {
    let path: String
    let fd: Int32
    let chunkSize: Int
    private var buffer: [UInt8] = []
    private var atEnd = false
    private var first = true
    /// The 1-based number of the first line of the next chunk.
    private(set) var nextLine = 1

    /// - Throws: `TraceError` (`.io`) as `TraceLoader.load(path:)` for a missing, special or unreadable file.
    init(path: String, chunkSize: Int) throws(TraceError) {
        _ = try TraceLoader.checkReadable(path)
        self.path = path
        fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            throw TraceError(
                file: path, line: 0, field: "", message: "cannot read the file: \(String(cString: strerror(errno)))",
                kind: .io)
        }
        self.chunkSize = Swift.max(chunkSize, 1)
    }

    func close() { _ = Foundation.close(fd) }

    /// Calls `body` with the next run of whole lines (ending in LF, or the file's last line) and
    /// the number of its first line; false once the file is read.
    /// - Throws: `TraceError` (`.io`) when a read fails.
    mutating func next(_ body: (UnsafeBufferPointer<UInt8>, Int) throws(TraceError) -> Void) throws(TraceError) -> Bool
    {
        while !atEnd {
            let old = buffer.count
            var n = 0
            // Read straight into the spare capacity (nothing is zero-filled first).
            buffer.reserveCapacity(old + chunkSize)
            let fd = self.fd
            let size = chunkSize
            buffer.append(
                contentsOf: [UInt8](unsafeUninitializedCapacity: size) { raw, initialized in
                    repeat { n = read(fd, raw.baseAddress!, size) } while n < 0 && errno == EINTR
                    initialized = Swift.max(n, 0)
                })
            guard n >= 0 else {
                throw TraceError(
                    file: path, line: 0, field: "",
                    message: "cannot read the file: \(String(cString: strerror(errno)))", kind: .io)
            }
            if n == 0 { atEnd = true }
            if first, buffer.count >= 3 || atEnd {
                first = false
                if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { buffer.removeFirst(3) }
            }
            // Hand over up to the last LF (everything at the end of the file).
            let cut: Int
            if atEnd {
                cut = buffer.count
            } else if let lf = buffer.lastIndex(of: 0x0A) {
                cut = lf + 1
            } else {
                continue
            }
            if cut == 0 && atEnd { return false }
            let line = nextLine
            try buffer.withUnsafeBufferPointer { (all) throws(TraceError) in
                let lines = UnsafeBufferPointer(rebasing: all[0..<cut])
                nextLine += LineScan.count(of: 0x0A, in: lines)
                try body(lines, line)
            }
            buffer.removeFirst(cut)
            return true
        }
        return false
    }
}

extension TraceLoader {
    /// The `.io` checks before a trace file is opened (`readFile(_:)`, `ChunkedLines`): it exists,
    /// is no folder and is a regular file.
    @discardableResult
    static func checkReadable(_ path: String) throws(TraceError) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TraceError(
                file: path, line: 0, field: "", message: "no such file (expected a readable trace file)", kind: .io)
        }
        if isDirectory.boolValue {
            throw TraceError(
                file: path, line: 0, field: "", message: "is a directory (expected a trace file)", kind: .io)
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            // Reading a FIFO would wait for a writer; a device or socket is no trace either.
            throw TraceError(
                file: path, line: 0, field: "",
                message: "is not a regular file (a FIFO, socket or device; expected a trace file)", kind: .io)
        }
        return true
    }

    /// Checks the trace file at `path` whole, as `load(path:)` does (UTF-8 first, then every
    /// line), reading it `chunkSize` bytes at a time and keeping no sample: the header, the
    /// digest (`FileDigest`'s: without a BOM, CR LF as LF) and the number of samples.
    /// - Throws: what `load(path:)` throws for the same file (the same error, line and field).
    /// - Complexity: two reads of the file, O(file size) time; memory O(chunk + header).
    public static func scan(path: String, chunkSize: Int = 1 << 22) throws(TraceError) -> ScannedTrace {
        // First the bytes: UTF-8 and the digest (a UTF-8 error is reported before any other).
        var hasher = SHA256.Hasher()
        var lines = try ChunkedLines(path: path, chunkSize: chunkSize)
        defer { lines.close() }
        var canonical: [UInt8] = []
        while try lines.next({ (chunk, firstLine) throws(TraceError) in
            if let bad = UTF8Validation.firstInvalidOffset(chunk) {
                let (line, message) = invalidUTF8(chunk, at: bad)
                throw TraceError(file: path, line: firstLine + line - 1, field: "", message: message)
            }
            // CR LF as LF; a CR before LF never ends a chunk (chunks end after an LF).
            canonical.removeAll(keepingCapacity: true)
            var k = 0
            while k < chunk.count {
                if chunk[k] == 0x0D && k + 1 < chunk.count && chunk[k + 1] == 0x0A {
                    k += 1
                    continue
                }
                canonical.append(chunk[k])
                k += 1
            }
            canonical.withUnsafeBytes { hasher.update($0) }
        }) {}
        let digest = "sha256:" + hasher.finalizeHex()
        var feed = try TraceFileStream(path: path, chunkSize: chunkSize)
        defer { feed.lines.close() }
        var count = 0
        // Gates (profiles.md §2.3) after every line has loaded, as `load` checks them: the first
        // violation (the header's, then the samples' in file order) is kept until then.
        var gateError: TraceError?
        while let batch = try feed.nextBatchOrError() {
            count += batch.count
            if gateError == nil, let header = feed.parser.header {
                do {
                    try TraceProfiles.checkGates(
                        Trace(header: header, samples: batch), profile: header.profile, file: path)
                } catch { gateError = error }
            }
        }
        let header = try feed.parser.finish()
        if let gateError { throw gateError }
        try TraceProfiles.checkGates(Trace(header: header, samples: []), profile: header.profile, file: path)
        return ScannedTrace(header: header, digest: digest, sampleCount: count, path: path)
    }

    /// The samples of the trace file at `path`, read `chunkSize` bytes at a time, for
    /// `simulate(header:feed:options:sink:)`. Use after ``scan(path:chunkSize:)`` accepted the
    /// file: an error while reading (the file changed) ends the samples and is kept in `error`.
    public static func sampleFeed(path: String, chunkSize: Int = 1 << 22) throws(TraceError) -> TraceFileStream {
        try TraceFileStream(path: path, chunkSize: chunkSize)
    }
}

/// The samples of a trace file in the order of its lines, one chunk's worth at a time
/// (`SampleFeed`); the header is read before the first batch. Call `close()` when done (the
/// file stays open until then).
public struct TraceFileStream: SampleFeed {
    var lines: ChunkedLines
    var parser: TraceLineParser
    /// The first error met by `nextBatch()` (which then ends the samples); nil otherwise.
    public private(set) var error: TraceError?

    init(path: String, chunkSize: Int) throws(TraceError) {
        lines = try ChunkedLines(path: path, chunkSize: chunkSize)
        parser = TraceLineParser(file: path, fastPath: true)
    }

    /// The next samples, nil at the end of the file.
    /// - Throws: the loader's `TraceError` for the first bad line.
    mutating func nextBatchOrError() throws(TraceError) -> [TraceSample]? {
        var samples: [TraceSample] = []
        while samples.isEmpty {
            var parser = self.parser
            defer { self.parser = parser }
            let more = try lines.next { (chunk, firstLine) throws(TraceError) in
                var lineStart = 0
                var number = firstLine
                while lineStart < chunk.count {
                    let lineEnd = LineScan.next(0x0A, in: chunk, from: lineStart)
                    try parser.read(chunk, lineStart, lineEnd, line: number, into: &samples)
                    lineStart = lineEnd + 1
                    number += 1
                }
                parser.endOfBuffer(chunk)
            }
            if !more { return samples.isEmpty ? nil : samples }
        }
        return samples
    }

    /// Closes the file.
    public func close() { lines.close() }

    public mutating func nextBatch() -> [TraceSample]? {
        guard error == nil else { return nil }
        do {
            return try nextBatchOrError()
        } catch {
            self.error = error
            return nil
        }
    }
}
