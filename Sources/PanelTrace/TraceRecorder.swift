/// Recording traces as they happen (trace-format.md §1): a crash-tolerant writer that refuses
/// samples the loader would reject, and the matching recovery of a file cut off mid-line.
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PanelSimCore

/// Where a `TraceRecorder` puts its lines.
public protocol TraceSink: AnyObject {
    /// Writes all of `bytes` (one whole line), in order, after everything written before.
    /// - Throws: `TraceError` of kind `.io`.
    func write(_ bytes: [UInt8]) throws(TraceError)
    /// Makes everything written so far durable (survives a crash of the process or the machine).
    /// - Throws: `TraceError` of kind `.io`.
    func synchronize() throws(TraceError)
    /// Releases the sink; nothing is written afterwards.
    func close() throws(TraceError)
}

/// A file written with POSIX `write(2)` and made durable with `fsync(2)` after every line.
public final class FileTraceSink: TraceSink {
    public let path: String
    private var descriptor: Int32

    /// Creates (or truncates) the file at `path`, mode 0644.
    /// - Throws: `TraceError` of kind `.io` with the system's reason.
    public init(path: String) throws(TraceError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.ioError(path, "cannot create the file") }
    }

    deinit { if descriptor >= 0 { _ = posixClose(descriptor) } }

    public func write(_ bytes: [UInt8]) throws(TraceError) {
        guard descriptor >= 0 else {
            throw TraceError(file: path, line: 0, field: "", message: "the recorder is closed", kind: .io)
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.ioError(path, "cannot write")
            }
            offset += n
        }
    }

    public func synchronize() throws(TraceError) {
        guard descriptor >= 0 else { return }
        guard fsync(descriptor) == 0 else { throw Self.ioError(path, "cannot synchronize (fsync)") }
    }

    public func close() throws(TraceError) {
        guard descriptor >= 0 else { return }
        let result = posixClose(descriptor)
        descriptor = -1
        guard result == 0 else { throw Self.ioError(path, "cannot close") }
    }

    private static func ioError(_ path: String, _ what: String) -> TraceError {
        TraceError(file: path, line: 0, field: "", message: "\(what): \(String(cString: strerror(errno)))", kind: .io)
    }
}

private func posixWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, pointer, count)
}

private func posixClose(_ fd: Int32) -> Int32 { close(fd) }

/// Hands each line to another sink on a serial background queue, so that the caller (an app's
/// main thread, where UIKit delivers touches) never waits for `write(2)` or `fsync(2)`.
///
/// Lines reach `inner` in order. A crash loses at most the lines still queued. The first error of
/// `inner` is kept and thrown by the next `write`/`synchronize` call and by `close()`; lines after
/// it are dropped. `close()` waits for the queue to drain.
public final class BackgroundTraceSink: TraceSink, @unchecked Sendable {
    // `inner` is only touched on `queue`; `failure` only under `lock`.
    private let inner: any TraceSink
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var failure: TraceError?

    public init(_ inner: any TraceSink, label: String = "panelsim.trace-sink") {
        self.inner = inner
        queue = DispatchQueue(label: label)
    }

    public func write(_ bytes: [UInt8]) throws(TraceError) {
        try throwFailure()
        queue.async { self.run { () throws(TraceError) in try self.inner.write(bytes) } }
    }

    public func synchronize() throws(TraceError) {
        try throwFailure()
        queue.async { self.run { () throws(TraceError) in try self.inner.synchronize() } }
    }

    public func close() throws(TraceError) {
        queue.sync { self.run { () throws(TraceError) in try self.inner.close() } }
        try throwFailure()
    }

    /// Runs `body` on the queue unless an earlier call failed; keeps the first error.
    private func run(_ body: () throws(TraceError) -> Void) {
        lock.lock()
        let failed = failure != nil
        lock.unlock()
        if failed { return }
        do { try body() } catch {
            lock.lock()
            if failure == nil { failure = error }
            lock.unlock()
        }
    }

    private func throwFailure() throws(TraceError) {
        lock.lock()
        let f = failure
        lock.unlock()
        if let f { throw f }
    }
}

/// An in-memory sink (tests, or an app that ships lines elsewhere). `bytes` holds everything
/// written; `synchronizations` counts `synchronize()` calls.
public final class MemoryTraceSink: TraceSink {
    public private(set) var bytes: [UInt8] = []
    public private(set) var synchronizations = 0
    public private(set) var closed = false
    public init() {}
    public func write(_ bytes: [UInt8]) throws(TraceError) { self.bytes += bytes }
    public func synchronize() throws(TraceError) { synchronizations += 1 }
    public func close() throws(TraceError) { closed = true }
    /// `bytes` as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Writes a trace line by line while a gesture happens, so that a crash loses at most the sample
/// being written.
///
/// The header is checked like the loader checks it and written at once; every `append` checks the
/// sample with the loader's own sample rules (`TraceLoader`'s sample parser runs on the line about
/// to be written, with the state of the lines before it), then writes the line and its newline in
/// one `write` and synchronizes the sink (`fsync` for files). A refused sample is not written and
/// does not change the recorder's state; the error names the line it would have had, the field and
/// the reason: time going backwards, `moved`/`ended`/… for a finger without `began`, a second
/// `began`, anything after `end`, a `move` to a state that is not an anchor, non-finite numbers,
/// magnitudes beyond 10⁷ (pt, pt/s) or times beyond 10⁸ s.
///
/// Not thread-safe: call it from one thread (e.g. the main thread, where UIKit delivers touches).
public final class TraceRecorder {
    public let header: TraceHeader
    /// The header with the layout and environment in force after the samples written so far.
    public private(set) var current: TraceHeader
    /// The name errors use (the path for files).
    public let file: String
    private let sink: any TraceSink
    private var sequence = SampleSequence()
    private var states: StateTable
    /// The trace format of the header's system.
    private let format: any SystemTraceFormat
    /// The states of `current.panel.anchors` (a `move` is checked in O(1)).
    private var anchorStates: Set<FloatingPanelState>
    /// Samples written so far.
    public private(set) var sampleCount = 0
    public private(set) var isClosed = false

    /// Starts a trace file at `path` (created or truncated).
    /// - Throws: `TraceError`: the header's problems as the loader reports them (line 1), `.io`.
    public convenience init(header: TraceHeader, path: String) throws(TraceError) {
        try Self.check(header, file: path)
        try self.init(header: header, sink: FileTraceSink(path: path), file: path)
    }

    /// Starts a trace on `sink`: checks the header, writes it and synchronizes.
    /// - Throws: `TraceError` for a header the loader would reject (line 1), or the sink's `.io` errors.
    public init(header: TraceHeader, sink: any TraceSink, file: String = "recording") throws(TraceError) {
        try Self.check(header, file: file)
        self.header = header
        self.current = header
        self.file = file
        self.sink = sink
        self.format = TraceFormats.format(for: header.model) ?? FloatingPanelTraceFormat()
        self.states = StateTable(header.floatingPanel?.panel.states ?? [])
        self.anchorStates = Set(header.floatingPanel?.panel.anchors.map(\.state) ?? [])
        try sink.write(Array((TraceWriter.headerLine(header) + "\n").utf8))
        try sink.synchronize()
    }

    private static func check(_ header: TraceHeader, file: String) throws(TraceError) {
        _ = try TraceLoader.parse(text: TraceWriter.headerLine(header) + "\n", file: file)
    }

    /// The line number the next sample gets.
    public var nextLine: Int { sampleCount + 2 }

    /// Checks, writes and synchronizes one sample.
    /// - Throws: `TraceError` (`.invalid`) when the sample breaks the contract (nothing is written),
    ///   `.io` when the sink fails, `.invalid` after `close()`.
    /// - Complexity: O(size of the line) per sample; O(p log p) for an `invalidateLayout` or
    ///   `environment` sample, p the anchors and states of the layout (it is validated whole).
    public func append(_ sample: TraceSample) throws(TraceError) {
        let r = FieldReader(file: file, line: nextLine)
        guard !isClosed else { throw r.error("", "the recorder is closed (expected no more samples)") }
        try Self.checkFinite(sample, r)
        let line = TraceWriter.sampleLine(sample, after: current.environment)
        let value: JSONValue
        do { value = try JSON.parse(line) } catch {
            throw r.error("", "cannot be written as JSON: \(error.message)")
        }
        var next = sequence
        let parsed = try TraceLoader.parseSample(value, r: r, states: states, sequence: &next, header: current)
        // Layout and environment changes are written whole; they become the ones in force, read
        // back from the line as the loader reads them (so their ranges are the loader's).
        var panel = current.floatingPanel?.panel ?? FloatingPanelConfiguration()
        var environment = current.environment
        var changed = false
        if case .call(.invalidateLayout) = sample.kind, case .object(let o) = value {
            panel = try TraceLoader.parsePanel(o["panel"] ?? .null, r: r)
            changed = true
        }
        if case .environment = sample.kind, case .object(let o) = value {
            environment = try TraceLoader.parseEnvironment(
                o["environment"] ?? .null, r: r, keyboard: format.environmentKeys.contains("keyboard"))
            guard environment.displayScale == current.environment.displayScale,
                environment.frameRate == current.environment.frameRate
            else {
                throw r.error(
                    "environment",
                    "displayScale and frameRate cannot change during a trace (floatingpanel-core.md §9 O16)")
            }
            changed = true
        }
        if changed {
            if current.floatingPanel != nil {
                try TraceLoader.validateAgainst(panel: panel, environment: environment, r: r)
            }
            try format.validate(environment: environment, header: current, context: r.context)
        }
        if case .call(.move(let to, _)) = parsed.kind, to != .hidden,
            !(changed ? Set(panel.anchors.map(\.state)) : anchorStates).contains(to)
        {
            throw r.error(
                "to",
                "\(quotedSingle(to.name)) is neither an anchor state of this layout nor hidden; expected one of \(FieldReader.list(panel.anchors.map(\.state.name) + ["hidden"]))"
            )
        }
        try sink.write(Array((line + "\n").utf8))
        try sink.synchronize()
        if changed {
            if let fp = current.floatingPanel {
                if panel.states != fp.panel.states { states = StateTable(panel.states) }
                if panel.anchors != fp.panel.anchors { anchorStates = Set(panel.anchors.map(\.state)) }
                current.panel = panel
            }
            current.environment = environment
        }
        sequence = next
        sampleCount += 1
    }

    /// `append` with the time in seconds since the trace start (rounded to 1 µs).
    /// - Throws: as `append(_:)`; a time that is not finite or not in 0…10⁸ s is refused.
    public func append(at seconds: Double, _ kind: SampleKind) throws(TraceError) {
        let r = FieldReader(file: file, line: nextLine)
        guard seconds.isFinite, seconds >= 0, seconds <= 1e8 else {
            throw r.error("t", "expected a finite time in 0…100000000 s, got \(seconds)")
        }
        try append(TraceSample(time: Microseconds((seconds * 1_000_000).rounded()), kind: kind))
    }

    /// Closes the sink. Further appends are refused.
    public func close() throws(TraceError) {
        guard !isClosed else { return }
        isClosed = true
        try sink.close()
    }

    private static func checkFinite(_ sample: TraceSample, _ r: FieldReader) throws(TraceError) {
        func check(_ value: Double?, _ field: String) throws(TraceError) {
            if let value, !value.isFinite { throw r.error(field, "expected a finite number, got \(value)") }
        }
        switch sample.kind {
        case .touch(let t):
            try check(t.location.x, "x")
            try check(t.location.y, "y")
            try check(t.velocity?.x, "velocity.x")
            try check(t.velocity?.y, "velocity.y")
        case .observed(let o):
            try check(o.location, "observed.location")
            try check(o.contentOffset, "observed.contentOffset")
            try check(o.backdropAlpha, "observed.backdropAlpha")
        case .scroll(let s):
            try check(s.contentOffset?.x, "scroll.contentOffset.x")
            try check(s.contentOffset?.y, "scroll.contentOffset.y")
            try check(s.contentSize?.width, "scroll.contentSize.width")
            try check(s.contentSize?.height, "scroll.contentSize.height")
        // A non-finite number in another system's call is written as null, which the loader
        // refuses naming the field.
        case .call, .systemCall, .end, .environment: break
        }
    }
}

/// A trace loaded by `TraceRecovery`, with what had to be dropped.
public struct RecoveredTrace: Sendable, Equatable {
    /// The trace as far as it was complete. `digest` is of the bytes kept (what was parsed).
    public var loaded: LoadedTrace
    /// Whether an incomplete final line was dropped.
    public var droppedPartialLine: Bool
    /// The 1-based line number of the dropped line; nil when nothing was dropped.
    public var droppedLine: Int?
    /// How many bytes were dropped.
    public var droppedBytes: Int
    /// A one-line notice for users, nil when nothing was dropped, e.g.
    /// `t.jsonl:9: dropped an incomplete last line (23 bytes without a line break)`.
    public var notice: String? {
        guard let droppedLine else { return nil }
        return
            "\(loaded.path):\(droppedLine): dropped an incomplete last line (\(droppedBytes) bytes without a line break)"
    }
}

/// Loading a trace that a recorder may have left cut off (killed mid-write).
public enum TraceRecovery {
    /// Loads `path` like `TraceLoader.load(path:)`, except that an incomplete final line is
    /// dropped and reported instead of failing the load.
    ///
    /// A final line is incomplete when the file does not end with a line break and that line is not
    /// a complete JSON value (a recorder writes whole lines, each ending in "}" then "\n", so a
    /// line cut anywhere before its "}" is never valid JSON; a line that is complete but lacks only
    /// its newline is kept). Everything before it goes through `TraceLoader.parse(text:file:)`,
    /// so any other problem is reported exactly as the loader reports it.
    /// - Throws: `TraceError`: `.io` when unreadable, `.invalid` for bad UTF-8 before the dropped
    ///   part, and everything the loader throws.
    /// - Complexity: O(file size).
    public static func loadRecovering(path: String) throws(TraceError) -> RecoveredTrace {
        let bytes = try TraceLoader.readFile(path)
        return try recover(bytes: bytes, file: path)
    }

    /// The same for bytes already in memory; `file` names them in errors.
    public static func recover(bytes: [UInt8], file: String) throws(TraceError) -> RecoveredTrace {
        var kept = bytes
        var droppedLine: Int?
        let lastBreak = bytes.lastIndex(of: 0x0A)
        let tailStart = lastBreak.map { $0 + 1 } ?? 0
        var tail = Array(bytes[tailStart...])
        if tail.last == 0x0D { tail.removeLast() }
        let blank = tail.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        if !blank, (try? JSON.parse(utf8: tail)) == nil {
            kept = Array(bytes[..<tailStart])
            droppedLine = bytes[..<tailStart].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        }
        var body = kept
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw TraceError(file: file, line: 0, field: "", message: "invalid UTF-8 (expected UTF-8 encoded text)")
        }
        let trace = try TraceLoader.parse(text: text, file: file)
        return RecoveredTrace(
            loaded: LoadedTrace(trace: trace, digest: "sha256:" + SHA256.hex(kept), path: file),
            droppedPartialLine: droppedLine != nil, droppedLine: droppedLine,
            droppedBytes: bytes.count - kept.count)
    }
}
