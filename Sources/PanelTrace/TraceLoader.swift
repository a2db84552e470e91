/// Loading and validating trace files (trace-format.md §1).
import Foundation
import PanelSimCore

/// A trace read from disk, with the digest result files quote (`traceDigest`).
public struct LoadedTrace: Sendable, Equatable {
    public var trace: Trace
    /// `"sha256:<64 lowercase hex digits>"` of the file's bytes exactly as stored.
    public var digest: String
    /// The path the trace was loaded from, as given.
    public var path: String
    public init(trace: Trace, digest: String, path: String) {
        self.trace = trace; self.digest = digest; self.path = path
    }
}

/// Reads trace files (UTF-8 JSON Lines, trace-format.md §1) into validated `Trace` values.
///
/// Rules beyond the contract's text, chosen as a user would expect:
/// * Blank lines (only spaces, tabs, CR) are skipped; CRLF line ends and a UTF-8 byte order mark at
///   the start of the file are accepted. Line numbers in errors and in `TraceSample.line` are the
///   file's physical, 1-based line numbers.
/// * Unknown keys anywhere are errors naming the key (typo protection). A header of a later format
///   version is `.unsupported` ("not supported yet"); every sample kind and call of version 1 is read.
/// * `null` stands for "absent" only where absence means "none": `scrollView`,
///   `delegate.scrollableStates`, `delegate.didMove` (and its `clamp`, `dismissBeyond`),
///   `delegate.didChangeState`, a touch's `velocity`, and the fields of `observed`. Elsewhere a
///   `null` is a type error.
/// * A header value replaces the default whole: `panel.states`, `panel.backdropAlpha` and the
///   arrays replace the default list or map; `environment.safeArea` needs all four insets.
/// * Integers (`version`, `frameRate`, state `order`, touch `id`) may be spelled in any JSON number
///   form whose value is whole (`120`, `1.2e2`); times convert to µs exactly from their decimal text.
/// * Value ranges: container width/height > 0, safe-area insets ≥ 0, displayScale > 0,
///   frameRate an integer in 1…10000, t in 0…10⁸ s, intrinsicLength/grabberAreaOffset/beginThreshold ≥ 0, backdrop alphas in
///   [0, 1], springResponseTime > 0, springDecelerationRate and momentumProjectionRate in (0, 1).
/// * After the header is built, `PanelSimCore.validate(_:)` checks what the simulator cannot replay
///   (floatingpanel-core.md §9 O19); its errors are reported on the header line.
public enum TraceLoader {
    /// The sample kinds the loader replays, in the order error messages list them.
    static let sampleKinds = ["touch", "call", "scroll", "environment", "observed", "end"]
    /// `TouchPhase` raw values (built once, not per touch).
    static let touchPhases = TouchPhase.allCases.map(\.rawValue)
    /// Largest accepted sample time, µs (10⁸ s): keeps time × frame rate within Int64 downstream.
    public static let maxTime: Microseconds = 100_000_000_000_000
    /// Largest accepted `environment.frameRate`, frames per second.
    public static let maxFrameRate = 10_000

    /// Parses the text of a trace file.
    ///
    /// - Parameters:
    ///   - text: the whole file, UTF-8 JSON Lines.
    ///   - file: the name used in errors; its stem (last path component without its extension)
    ///     is the trace `name` when the header has none.
    /// - Returns: the header with the contract's defaults filled in, and every sample with its time
    ///   in µs and its 1-based line number.
    /// - Throws: `TraceError` for the first problem found, with its line and field: `.invalid` for
    ///   malformed input, `.unsupported` for contract features this revision cannot replay yet.
    /// - Complexity: O(n) in the length of the text (each line is parsed once; state tables, state
    ///   names and anchor states are hashed, so nothing is quadratic in the number of states),
    ///   plus O(a log a) per `invalidateLayout` or `environment` sample, a the anchors of the layout
    ///   in force: a patch is read over the layout in force in O(size of the patch), but the new
    ///   layout is validated whole, as FloatingPanel lays out every anchor again (a patch that
    ///   names `states` is also read whole, O(states + anchors)). 10⁵ states, or 1,100 states with
    ///   420 `invalidateLayout` lines, load in well under a second (`panelsim bench`).
    public static func parse(text: String, file: String) throws(TraceError) -> Trace {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return try parse(utf8: bytes, file: file)
    }

    /// Reads and parses the trace file at `path`.
    ///
    /// - Returns: the trace, the SHA-256 digest of the file's bytes and the path as given.
    /// - Throws: `TraceError` of kind `.io` when the file cannot be read, `.invalid` when it is not
    ///   UTF-8 (with the line of the first bad byte), and everything ``parse(text:file:)`` throws.
    /// - Complexity: O(file size); the file is read once into memory (no second copy), and a file of
    ///   1 MiB or more is hashed on a second thread while this one validates and parses it
    ///   (10⁶ touch samples, 59 MB: about 0.3 s and 150 MB peak on the 2-core bench machine,
    ///   `BENCHMARKS.md`).
    public static func load(path: String) throws(TraceError) -> LoadedTrace {
        try load(bytes: try readFile(path), file: path)
    }

    /// Parses the bytes of a trace already read (a file, standard input) exactly as
    /// ``load(path:)`` parses a file's: the digest is of `bytes`, `file` names them in errors and
    /// gives the trace its default name (the file name without directories and extension).
    /// - Throws: `TraceError` of kind `.invalid` when `bytes` are not UTF-8, and everything
    ///   ``parse(text:file:)`` throws; a JSON error on a last line cut off without its line break,
    ///   or on a header continued on the next line, says so (`explained(_:in:)`).
    /// - Complexity: as ``load(path:)`` without the read.
    public static func load(bytes: [UInt8], file: String) throws(TraceError) -> LoadedTrace {
        // A large file is hashed on another thread while this one validates and parses it.
        let digest = FileDigest.start(bytes)
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let trace: Trace
        do throws(TraceError) {
            trace = try bytes.withUnsafeBufferPointer { (all) throws(TraceError) -> Trace in
                let body = UnsafeBufferPointer(rebasing: all[(hasBOM ? 3 : 0)...])
                if let bad = UTF8Validation.firstInvalidOffset(body) {
                    let (line, message) = invalidUTF8(body, at: bad)
                    throw TraceError(file: file, line: line, field: "", message: message)
                }
                return try parse(buffer: body, file: file, fastPath: true)
            }
        } catch {
            throw explained(error, in: bytes)
        }
        return LoadedTrace(trace: trace, digest: digest.value, path: file)
    }

    /// A JSON syntax error with what the file's shape says about it:
    /// * on the last line of a file that does not end with a line break (a recording stopped in
    ///   the middle of a write): the recovery, `panelsim recover FILE -o OUT` or
    ///   `TraceRecovery.loadRecovering(path:)`, which keep the lines before it;
    /// * on line 1, cut at its end, with more lines after it: the header must be one line.
    /// Any other error is returned as it is.
    /// - Complexity: O(bytes), only when called with a JSON syntax error.
    static func explained(_ error: TraceError, in bytes: [UInt8]) -> TraceError {
        guard error.kind == .invalid, error.message.hasPrefix("invalid JSON at column") else { return error }
        let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let afterFirstLine = bytes.firstIndex(of: 0x0A).map { bytes[($0 + 1)...] } ?? []
        let moreLines = afterFirstLine.contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x0A }
        var explained = error
        if bytes.last != 0x0A, error.line == lines, error.line > 1 {
            explained.message += "; the file ends inside this line, as a recording stopped in the middle of a write leaves it: "
                + "panelsim recover \(error.file) -o OUT (in Swift, TraceRecovery.loadRecovering(path:)) keeps the lines before it"
        } else if error.line == 1, moreLines, error.message.hasSuffix("found end of input") {
            explained.message += "; the header must be one line (a trace is JSON Lines: one JSON object per line)"
        }
        return explained
    }

    /// The file name without directories and without its last extension.
    static func stem(of file: String) -> String {
        let last = file.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? file
        if let dot = last.lastIndex(of: "."), dot != last.startIndex {
            return String(last[..<dot])
        }
        return last
    }

    /// Parses UTF-8 JSON Lines (already validated as UTF-8, byte order mark removed).
    ///
    /// Touch sample lines go through ``TouchLineFastPath`` first (no JSON tree, no strings); every
    /// line it declines, and every line when `fastPath` is false, takes the general path below, so
    /// the result and every error are the general path's. Likewise an `invalidateLayout` patch
    /// without `states` is read over the layout in force rather than merged and read whole.
    /// `fastPath: false` (neither shortcut) exists for the differential tests.
    /// - Complexity: as ``parse(text:file:)``: O(n) in the number of bytes plus O(a log a) per
    ///   layout or environment change (with `fastPath: false`, O(states + anchors) per layout change).
    static func parse(utf8 bytes: [UInt8], file: String, fastPath: Bool = true) throws(TraceError) -> Trace {
        try bytes.withUnsafeBufferPointer { (buffer) throws(TraceError) -> Trace in
            try parse(buffer: buffer, file: file, fastPath: fastPath)
        }
    }

    static func parse(buffer bytes: UnsafeBufferPointer<UInt8>, file: String, fastPath: Bool) throws(TraceError) -> Trace {
        var parser = TraceLineParser(file: file, fastPath: fastPath)
        var samples: [TraceSample] = []
        // One pass to size the sample list (no regrowth copies of a large trace), then the lines
        // are walked in place rather than split into an array of slices first.
        samples.reserveCapacity(LineScan.count(of: 0x0A, in: bytes))
        var lineStart = 0
        var index = -1
        while lineStart <= bytes.count {
            index += 1
            let lineEnd = LineScan.next(0x0A, in: bytes, from: lineStart)
            defer { lineStart = lineEnd + 1 }
            try parser.read(bytes, lineStart, lineEnd, line: index + 1, into: &samples)
        }
        let trace = Trace(header: try parser.finish(), samples: samples)
        // Gates (profiles.md §2.3): a feature the header's profile lacks, on the header or a sample.
        try TraceProfiles.checkGates(trace, profile: trace.header.profile, file: file)
        return trace
    }
}

/// Reads a trace one line at a time: the header, then each sample against the layout and
/// environment in force. The whole-file loader and the chunked reader (`TraceFileStream`) both
/// read through it, so a trace read either way gives the same samples and the same errors.
struct TraceLineParser {
    let file: String
    let fastPath: Bool
    private(set) var header: TraceHeader?
    private var haveHeader = false
    private var states = StateTable([])
    private var headerLine = 0
    private(set) var sequence = SampleSequence()
    private var current = LayoutContext(header: nil, panelJSON: JSONObject(), environmentJSON: JSONObject())

    init(file: String, fastPath: Bool) { self.file = file; self.fastPath = fastPath }

    /// Reads the line `bytes[lineStart..<lineEnd]` (without its LF; a CR before it is dropped),
    /// numbered `lineNumber`: the header, or a sample appended to `samples`; blank lines are
    /// skipped. `bytes` must stay valid until the next call or ``endOfBuffer(_:)``.
    /// - Throws: `TraceError` for the line's first problem.
    @inline(__always)
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, _ lineStart: Int, _ lineEnd: Int, line lineNumber: Int,
                       into samples: inout [TraceSample]) throws(TraceError) {
        var contentEnd = lineEnd
        if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        // (`haveHeader`, not `header != nil`: the comparison copies the whole optional header.)
        if fastPath, haveHeader,
           TouchLineFastPath.append(bytes, lineStart, contentEnd, line: lineNumber, sequence: &sequence, to: &samples) {
            return
        }
        sequence.materializeTimeText(bytes)
        try readGeneral(Array(bytes[lineStart..<contentEnd]), line: lineNumber, into: &samples)
    }

    /// Before the buffer of the lines read so far goes away (a chunk of a file): what the parser
    /// still refers to in it is copied out.
    mutating func endOfBuffer(_ bytes: UnsafeBufferPointer<UInt8>) { sequence.materializeTimeText(bytes) }

    /// A line the touch fast path declined: parsed as JSON and read as the header or a sample.
    private mutating func readGeneral(_ line: [UInt8], line lineNumber: Int, into samples: inout [TraceSample]) throws(TraceError) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let value: JSONValue
        do {
            value = try JSON.parse(utf8: line)
        } catch {
            throw TraceError(file: file, line: lineNumber, field: error.path,
                             message: "invalid JSON at column \(error.column): \(error.message)")
        }
        let r = FieldReader(file: file, line: lineNumber)
        if haveHeader {
            var sample = try TraceLoader.parseSample(value, r: r, states: states, sequence: &sequence, header: current.header)
            // Layout and environment changes are merged over the current ones and validated
            // as a whole, so that later lines are checked against the layout in force.
            if case .call(.invalidateLayout) = sample.kind, case .object(let o) = value {
                let patch = try r.object(o["panel"] ?? .null, "panel")
                try r.checkKeys(patch, "panel", TraceLoader.panelKeys)
                let merged = TraceLoader.merge(current.panelJSON, patch)
                // A patch without `states` is read over the layout in force (O(patch)), one
                // with `states` merged and read whole (its anchors and names are re-checked).
                // (`fastPath: false` reads every patch merged, for the differential tests.)
                let panel = fastPath && patch["states"] == nil ? try TraceLoader.parsePanel(.object(patch), r: r, over: (current.header.panel, states))
                                                               : try TraceLoader.parsePanel(.object(merged), r: r)
                try TraceLoader.validateAgainst(panel: panel, environment: current.header.environment, r: r)
                current.panelJSON = merged
                current.header.panel = panel
                if patch["anchors"] != nil { current.anchorStates = Set(panel.anchors.map(\.state)) }
                if patch["states"] != nil { states = StateTable(panel.states) }
                sample.kind = .call(.invalidateLayout(panel))
            }
            if case .environment = sample.kind, case .object(let o) = value {
                let patch = try r.object(o["environment"] ?? .null, "environment")
                let merged = TraceLoader.merge(current.environmentJSON, patch)
                let environment = try TraceLoader.parseEnvironment(.object(merged), r: r, keyboard: TraceLoader.hasKeyboard(current.header.model))
                for (key, unchanged) in [("displayScale", environment.displayScale == current.header.environment.displayScale),
                                         ("frameRate", environment.frameRate == current.header.environment.frameRate)] where !unchanged {
                    throw r.error("environment.\(key)", "cannot change during a trace (floatingpanel-core.md §9 O16); expected the header's value")
                }
                try TraceLoader.validateEnvironmentChange(environment, header: current.header, r: r)
                current.environmentJSON = merged
                current.header.environment = environment
                sample.kind = .environment(environment)
            }
            if case .call(.move(let to, _)) = sample.kind, to != .hidden, !current.anchorStates.contains(to) {
                throw r.error("to", "\(quotedSingle(to.name)) is neither an anchor state of this layout nor hidden (FloatingPanel asserts); expected one of \(FieldReader.list(current.header.panel.anchors.map(\.state.name) + ["hidden"]))")
            }
            samples.append(sample)
        } else {
            let h = try TraceLoader.parseHeader(value, r: r, defaultName: TraceLoader.stem(of: file))
            headerLine = lineNumber
            do {
                try TraceLoader.validateHeader(h)
            } catch {
                throw TraceError(file: file, line: headerLine, field: error.field, message: error.message)
            }
            header = h
            haveHeader = true
            states = StateTable(h.floatingPanel?.panel.states ?? [])
            if case .object(let o) = value, case .object(let env)? = o["environment"] {
                let panel: JSONObject
                if case .object(let p)? = o["panel"] { panel = p } else { panel = JSONObject() }
                current = LayoutContext(header: h, panelJSON: panel, environmentJSON: env)
                current.anchorStates = Set(h.floatingPanel?.panel.anchors.map(\.state) ?? [])
            }
        }
    }

    /// The header, once every line is read.
    /// - Throws: `TraceError` when there was no header line (an empty trace).
    func finish() throws(TraceError) -> TraceHeader {
        guard let h = header else {
            throw TraceError(file: file, line: 0, field: "",
                             message: "empty trace (expected a header line with \"format\": \"panelsim-trace\")")
        }
        return h
    }
}

/// The layout and environment in force while samples are read (changed by `invalidateLayout` and
/// `environment` samples), with the JSON they were parsed from so that partial changes can merge.
struct LayoutContext {
    var header: TraceHeader!
    var panelJSON: JSONObject
    var environmentJSON: JSONObject
    /// The states of `header.panel.anchors`, hashed: a `move` is checked in O(1), not O(anchors).
    var anchorStates: Set<PanelState> = []
}

extension TraceLoader {
    /// `base` with each key of `patch` replacing that key whole (new keys appended in patch order).
    static func merge(_ base: JSONObject, _ patch: JSONObject) -> JSONObject {
        var merged = base
        for (key, value) in patch.entries {
            if let i = merged.entries.firstIndex(where: { $0.key == key }) { merged.entries[i].value = value }
            else { merged.entries.append((key: key, value: value)) }
        }
        return merged
    }
}
