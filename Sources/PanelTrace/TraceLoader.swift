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
        let bytes = try readFile(path)
        // A large file is hashed on another thread while this one validates and parses it.
        let digest = FileDigest.start(bytes)
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let trace = try bytes.withUnsafeBufferPointer { (all) throws(TraceError) -> Trace in
            let body = UnsafeBufferPointer(rebasing: all[(hasBOM ? 3 : 0)...])
            if let bad = UTF8Validation.firstInvalidOffset(body) {
                let (line, message) = invalidUTF8(body, at: bad)
                throw TraceError(file: path, line: line, field: "", message: message)
            }
            return try parse(buffer: body, file: path, fastPath: true)
        }
        return LoadedTrace(trace: trace, digest: digest.value, path: path)
    }

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

    /// The bytes of the file at `path`.
    /// - Throws: `TraceError` of kind `.io`.
    static func readFile(_ path: String) throws(TraceError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TraceError(file: path, line: 0, field: "", message: "no such file (expected a readable trace file)", kind: .io)
        }
        if isDirectory.boolValue {
            throw TraceError(file: path, line: 0, field: "", message: "is a directory (expected a trace file)", kind: .io)
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            // Reading a FIFO would wait for a writer; a device or socket is no trace either.
            throw TraceError(file: path, line: 0, field: "", message: "is not a regular file (a FIFO, socket or device; expected a trace file)", kind: .io)
        }
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
        var header: TraceHeader?
        var haveHeader = false
        var states = StateTable([])
        var headerLine = 0
        var samples: [TraceSample] = []
        var sequence = SampleSequence()
        var current = LayoutContext(header: nil, panelJSON: JSONObject(), environmentJSON: JSONObject())
        var format: any SystemTraceFormat = FloatingPanelTraceFormat()
        // One pass to size the sample list (no regrowth copies of a large trace), then the lines
        // are walked in place rather than split into an array of slices first.
        samples.reserveCapacity(LineScan.count(of: 0x0A, in: bytes))
        var lineStart = 0
        var index = -1
        while lineStart <= bytes.count {
            index += 1
            let lineEnd = LineScan.next(0x0A, in: bytes, from: lineStart)
            defer { lineStart = lineEnd + 1 }
            let lineNumber = index + 1
            var contentEnd = lineEnd
            if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            // (`haveHeader`, not `header != nil`: the comparison copies the whole optional header.)
            if fastPath, haveHeader,
               TouchLineFastPath.append(bytes, lineStart, contentEnd, line: lineNumber, sequence: &sequence, to: &samples) {
                continue
            }
            sequence.materializeTimeText(bytes)
            let line = Array(bytes[lineStart..<contentEnd])
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let value: JSONValue
            do {
                value = try JSON.parse(utf8: line)
            } catch {
                throw TraceError(file: file, line: lineNumber, field: error.path,
                                 message: "invalid JSON at column \(error.column): \(error.message)")
            }
            let r = FieldReader(file: file, line: lineNumber)
            if haveHeader {
                var sample = try parseSample(value, r: r, states: states, sequence: &sequence, format: format, header: current.header)
                // Layout and environment changes are merged over the current ones and validated
                // as a whole, so that later lines are checked against the layout in force.
                if case .call(.invalidateLayout) = sample.kind, case .object(let o) = value {
                    let patch = try r.object(o["panel"] ?? .null, "panel")
                    try r.checkKeys(patch, "panel", panelKeys)
                    let merged = merge(current.panelJSON, patch)
                    // A patch without `states` is read over the layout in force (O(patch)), one
                    // with `states` merged and read whole (its anchors and names are re-checked).
                    // (`fastPath: false` reads every patch merged, for the differential tests.)
                    let panel = fastPath && patch["states"] == nil ? try parsePanel(.object(patch), r: r, over: (current.header.panel, states))
                                                                   : try parsePanel(.object(merged), r: r)
                    try validateAgainst(panel: panel, environment: current.header.environment, r: r)
                    current.panelJSON = merged
                    current.header.panel = panel
                    if patch["anchors"] != nil { current.anchorStates = Set(panel.anchors.map(\.state)) }
                    if patch["states"] != nil { states = StateTable(panel.states) }
                    sample.kind = .call(.invalidateLayout(panel))
                }
                if case .environment = sample.kind, case .object(let o) = value {
                    let patch = try r.object(o["environment"] ?? .null, "environment")
                    let merged = merge(current.environmentJSON, patch)
                    let environment = try parseEnvironment(.object(merged), r: r, extraKeys: format.environmentKeys)
                    for (key, unchanged) in [("displayScale", environment.displayScale == current.header.environment.displayScale),
                                             ("frameRate", environment.frameRate == current.header.environment.frameRate)] where !unchanged {
                        throw r.error("environment.\(key)", "cannot change during a trace (floatingpanel-core.md §9 O16); expected the header's value")
                    }
                    if let fp = current.header.floatingPanel {
                        try validateAgainst(panel: fp.panel, environment: environment, r: r)
                    }
                    try format.validate(environment: environment, header: current.header, context: r.context)
                    current.environmentJSON = merged
                    current.header.environment = environment
                    sample.kind = .environment(environment)
                }
                if case .call(.move(let to, _)) = sample.kind, to != .hidden, !current.anchorStates.contains(to) {
                    throw r.error("to", "\(quotedSingle(to.name)) is neither an anchor state of this layout nor hidden (FloatingPanel asserts); expected one of \(FieldReader.list(current.header.panel.anchors.map(\.state.name) + ["hidden"]))")
                }
                samples.append(sample)
            } else {
                let h = try parseHeader(value, r: r, defaultName: stem(of: file))
                headerLine = lineNumber
                do {
                    if h.floatingPanel != nil { try PanelSimCore.validate(h) }
                } catch {
                    throw TraceError(file: file, line: headerLine, field: error.field, message: error.message)
                }
                header = h
                haveHeader = true
                format = TraceFormats.format(for: h.model) ?? format
                states = StateTable(h.floatingPanel?.panel.states ?? [])
                if case .object(let o) = value, case .object(let env)? = o["environment"] {
                    let panel: JSONObject
                    if case .object(let p)? = o["panel"] { panel = p } else { panel = JSONObject() }
                    current = LayoutContext(header: h, panelJSON: panel, environmentJSON: env)
                    current.anchorStates = Set(h.floatingPanel?.panel.anchors.map(\.state) ?? [])
                }
            }
        }
        guard let h = header else {
            throw TraceError(file: file, line: 0, field: "",
                             message: "empty trace (expected a header line with \"format\": \"panelsim-trace\")")
        }
        return Trace(header: h, samples: samples)
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

    /// O19 on a changed layout or environment, reported at the line that changed it.
    static func validateAgainst(panel: PanelConfiguration, environment: PanelEnvironment, r: FieldReader) throws(TraceError) {
        var h = TraceHeader(name: "", environment: environment, panel: panel)
        h.panel = panel
        do { try PanelSimCore.validate(h) } catch { throw r.error(error.field, error.message) }
    }
}

// MARK: - State names

/// The states a trace knows: the built-ins plus `panel.states`.
///
/// Built once per header and per `invalidateLayout` that is read, so it must stay linear in the
/// number of states (issue 19: a check of each name against all earlier ones made 10⁵ states
/// cost about a minute).
struct StateTable {
    var byName: [String: PanelState] = [:]
    /// Hash-table operations made while building (one per state offered): what the size test of
    /// issue 19 bounds, instead of a time.
    private(set) var buildSteps = 0

    /// - Complexity: O(n) expected, n = built-ins + `custom.count` (one hashed insert each; a
    ///   name that is already known keeps its first state).
    init(_ custom: [PanelState]) {
        byName.reserveCapacity(PanelState.builtIn.count + custom.count)
        for s in PanelState.builtIn + custom {
            buildSteps += 1
            if byName[s.name] == nil { byName[s.name] = s }
        }
    }

    /// - Complexity: O(1) expected.
    func lookup(_ name: String) -> PanelState? { byName[name] }

    /// The most names ``listing`` spells out.
    static let listedNames = 24

    /// The known names for error messages, by descending order then name, e.g. `full, half, tip,
    /// hidden`; beyond ``listedNames`` names, the first ones and how many more there are.
    /// Computed only when an error needs it.
    /// - Complexity: O(n log n).
    var listing: String {
        let sorted = byName.values.sorted { ($0.order, $1.name) > ($1.order, $0.name) }.map(\.name)
        guard sorted.count > Self.listedNames else { return sorted.joined(separator: ", ") }
        return sorted.prefix(Self.listedNames).joined(separator: ", ") + ", … (\(sorted.count - Self.listedNames) more)"
    }
}

// MARK: - Field reading

/// Reads typed values out of JSON for one line, turning every mismatch into a `TraceError`.
struct FieldReader {
    let file: String
    let line: Int

    func error(_ field: String, _ message: String, _ kind: TraceError.Kind = .invalid) -> TraceError {
        TraceError(file: file, line: line, field: field, message: message, kind: kind)
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return "a boolean (\(b))"
        case .number(let n): return "a number (\(n.text.count > 40 ? String(n.text.prefix(40)) + "…" : n.text))"
        case .string(let s): return "a string (\(quoted(s)))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func object(_ v: JSONValue, _ path: String) throws(TraceError) -> JSONObject {
        guard case .object(let o) = v else { throw error(path, "expected an object, got \(Self.describe(v))") }
        return o
    }

    func array(_ v: JSONValue, _ path: String) throws(TraceError) -> [JSONValue] {
        guard case .array(let a) = v else { throw error(path, "expected an array, got \(Self.describe(v))") }
        return a
    }

    func string(_ v: JSONValue, _ path: String) throws(TraceError) -> String {
        guard case .string(let s) = v else { throw error(path, "expected a string, got \(Self.describe(v))") }
        return s
    }

    func bool(_ v: JSONValue, _ path: String) throws(TraceError) -> Bool {
        guard case .bool(let b) = v else { throw error(path, "expected true or false, got \(Self.describe(v))") }
        return b
    }

    /// A finite number.
    func jsonNumber(_ v: JSONValue, _ path: String) throws(TraceError) -> JSONNumber {
        guard case .number(let n) = v else { throw error(path, "expected a number, got \(Self.describe(v))") }
        guard n.double.isFinite else {
            throw error(path, "expected a finite number, got \(n.text.count > 40 ? String(n.text.prefix(40)) + "…" : n.text) (out of the range of a double)")
        }
        return n
    }

    enum Range {
        case any, positive, nonNegative, unitInterval, openUnitInterval
        var text: String {
            switch self {
            case .any: return "a finite number"
            case .positive: return "a number > 0"
            case .nonNegative: return "a number ≥ 0"
            case .unitInterval: return "a number in [0, 1]"
            case .openUnitInterval: return "a number in (0, 1), exclusive"
            }
        }
        func contains(_ d: Double) -> Bool {
            switch self {
            case .any: return true
            case .positive: return d > 0
            case .nonNegative: return d >= 0
            case .unitInterval: return d >= 0 && d <= 1
            case .openUnitInterval: return d > 0 && d < 1
            }
        }
    }

    /// The largest magnitude accepted for a coordinate, length, velocity or ratio (pt, pt/s): far
    /// beyond any screen, small enough that no sum or projection of such values overflows.
    static let maxMagnitude = 1e7

    func number(_ v: JSONValue, _ path: String, _ range: Range = .any) throws(TraceError) -> Double {
        let n = try jsonNumber(v, path)
        guard range.contains(n.double) else { throw error(path, "expected \(range.text), got \(n.text)") }
        guard abs(n.double) <= Self.maxMagnitude else {
            throw error(path, "expected a magnitude ≤ 10000000, got \(n.text.count > 40 ? String(n.text.prefix(40)) + "…" : n.text)")
        }
        return n.double
    }

    /// A whole number ≥ `minimum` that fits in Int.
    func integer(_ v: JSONValue, _ path: String, minimum: Int = Int.min) throws(TraceError) -> Int {
        let n = try jsonNumber(v, path)
        let bound = minimum == Int.min ? "an integer" : "an integer ≥ \(minimum)"
        guard let d = ExactDecimal(n.text), let i = d.integerValue else {
            throw error(path, "expected \(bound), got \(n.text)")
        }
        guard i >= minimum else { throw error(path, "expected \(bound), got \(n.text)") }
        return i
    }

    /// One of `cases` (a string).
    func choice(_ v: JSONValue, _ path: String, _ cases: [String]) throws(TraceError) -> String {
        guard case .string(let s) = v else {
            throw error(path, "expected one of \(Self.list(cases)), got \(Self.describe(v))")
        }
        guard cases.contains(s) else { throw error(path, "expected one of \(Self.list(cases)), got \(quoted(s))") }
        return s
    }

    func state(_ v: JSONValue, _ path: String, _ states: StateTable) throws(TraceError) -> PanelState {
        let name = try string(v, path)
        return try stateNamed(name, path, states)
    }

    func stateNamed(_ name: String, _ path: String, _ states: StateTable) throws(TraceError) -> PanelState {
        guard let s = states.lookup(name) else {
            throw error(path, "unknown state \(quotedSingle(name)) (known: \(states.listing))")
        }
        return s
    }

    func stateNames(_ v: JSONValue, _ path: String, _ states: StateTable) throws(TraceError) -> [String] {
        let items = try array(v, path)
        var names: [String] = []
        for (k, item) in items.enumerated() {
            names.append(try state(item, "\(path)[\(k)]", states).name)
        }
        return names
    }

    func required(_ o: JSONObject, _ key: String, _ path: String, _ what: String) throws(TraceError) -> JSONValue {
        guard let v = o[key] else { throw error(Self.join(path, key), "missing required field (expected \(what))") }
        return v
    }

    /// Rejects keys outside `allowed`, naming the first one and suggesting a close match.
    func checkKeys(_ o: JSONObject, _ path: String, _ allowed: [String]) throws(TraceError) {
        for entry in o.entries where !allowed.contains(entry.key) {
            let key = entry.key
            var message = "unknown key \(quotedSingle(key))"
            if let near = Self.nearest(key, allowed) { message += " (did you mean \(quotedSingle(near))?)" }
            message += "; expected one of \(Self.list(allowed))"
            throw error(Self.join(path, key), message)
        }
    }

    static func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    /// The allowed name within edit distance 2 (case-insensitive) of `key`, if any.
    static func nearest(_ key: String, _ allowed: [String]) -> String? {
        let a = Array(key.lowercased().unicodeScalars)
        guard a.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in allowed {
            let b = Array(candidate.lowercased().unicodeScalars)
            var previous = Array(0...b.count)
            for (i, ca) in a.enumerated() {
                var current = [i + 1] + Array(repeating: 0, count: b.count)
                for (j, cb) in b.enumerated() {
                    current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
                }
                previous = current
            }
            let d = previous[b.count]
            if d <= 2, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }
}

/// `name` in single quotes, control characters escaped.
func quotedSingle(_ name: String) -> String {
    let q = quoted(name)
    return "'" + q.dropFirst().dropLast() + "'"
}

// MARK: - Header

extension TraceLoader {
    /// The header keys every system reads; the registered formats' sections go between
    /// `environment` and `recognizer`.
    static let commonHeaderKeys = ["format", "version", "model", "name", "description", "source", "environment"]

    /// `names` without repeats, first occurrences in order.
    static func uniqued(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    static func parseHeader(_ root: JSONValue, r: FieldReader, defaultName: String) throws(TraceError) -> TraceHeader {
        guard case .object(let o) = root else {
            throw r.error("", "expected the header object ({\"format\": \"panelsim-trace\", \"version\": 1, …}), got \(FieldReader.describe(root))")
        }
        guard let format = o["format"] else {
            if o["t"] != nil {
                throw r.error("format", "missing header (expected the first line to be the header with \"format\": \"panelsim-trace\", found a sample)")
            }
            throw r.error("format", "missing required field (expected \"panelsim-trace\")")
        }
        guard case .string(let formatName) = format, formatName == "panelsim-trace" else {
            throw r.error("format", "expected \"panelsim-trace\", got \(FieldReader.describe(format))")
        }
        let versionValue = try r.required(o, "version", "", "1")
        let versionNumber = try r.jsonNumber(versionValue, "version")
        guard let version = ExactDecimal(versionNumber.text)?.integerValue, version >= 1 else {
            throw r.error("version", "expected 1, got \(versionNumber.text)")
        }
        if version != 1 {
            throw r.error("version", "trace format version \(version) is not supported yet (this build reads version 1)", .unsupported)
        }
        let formats = TraceFormats.registered
        let sectionOwners = formats.flatMap { f in f.headerSections.map { (key: $0, format: f) } }
        try r.checkKeys(o, "", commonHeaderKeys + uniqued(sectionOwners.map(\.key)) + ["recognizer"])

        var model = PanelModel.floatingPanel
        if let m = o["model"] {
            model = PanelModel(rawValue: try r.choice(m, "model", formats.map(\.model.rawValue)))
        }
        guard let format = TraceFormats.format(for: model) else {
            throw r.error("model", "no registered trace format reads \(quotedSingle(model.rawValue))")
        }
        // A section of another system is invalid input (trace-format.md §1.1a).
        if let key = o.keys.first(where: { key in !format.headerSections.contains(key) && sectionOwners.contains { $0.key == key } }) {
            let owner = sectionOwners.first { $0.key == key }!.format
            let hint = format.replacement(forSection: key) ?? owner.hint(forSection: key)
            throw r.error(key, "a \(quotedSingle(key)) section does not belong in a \(model.rawValue) trace; expected " + hint)
        }
        let name = try o["name"].map { v throws(TraceError) in try r.string(v, "name") } ?? defaultName
        let environment = try parseEnvironment(try r.required(o, "environment", "", "an object with \"container\""), r: r,
                                               extraKeys: format.environmentKeys)
        var header = TraceHeader(name: name, environment: environment,
                                 system: try format.parseSections(o, environment: environment, context: r.context))
        if let v = o["description"] { header.description = try r.string(v, "description") }
        if let v = o["source"] {
            let s = try r.object(v, "source")
            try r.checkKeys(s, "source", ["kind", "origin", "device"])
            if let k = s["kind"] { header.source.kind = try r.string(k, "source.kind") }
            if let k = s["origin"] { header.source.origin = try r.string(k, "source.origin") }
            if let k = s["device"] { header.source.device = try r.string(k, "source.device") }
        }
        if let v = o["scrollView"], v != .null { try format.parseScrollView(v, into: &header, context: r.context) }
        try format.finishHeader(&header, from: o, context: r.context)
        if let v = o["recognizer"] {
            let rec = try r.object(v, "recognizer")
            try r.checkKeys(rec, "recognizer", ["velocity", "beginThreshold"])
            if let k = rec["velocity"] {
                let raw = try r.choice(k, "recognizer.velocity", VelocitySource.allCases.map(\.rawValue) + format.velocityChoices)
                header.recognizer.velocity = VelocitySource(rawValue: raw) ?? .recorded
                if VelocitySource(rawValue: raw) == nil { format.applyVelocityChoice(raw, to: &header) }
            }
            if let k = rec["beginThreshold"] {
                header.recognizer.beginThreshold = try r.number(k, "recognizer.beginThreshold", .nonNegative)
            }
        }
        return header
    }

    /// A `scrollView` object: `frame` and `contentSize` required; `contentInset`, `contentOffset`,
    /// `bounces`, `alwaysBounceVertical`, `alwaysBounceHorizontal` and (added) `decelerationRate` optional.
    /// A `scrollView` object. `floatingPanel`: FloatingPanel's list, which also takes `systemInset`
    /// and a zero-size frame (a `UIScrollView()` never laid out); the other systems' lists keep a
    /// frame of positive size and no system inset.
    static func parseScrollView(_ v: JSONValue, _ path: String, r: FieldReader, floatingPanel: Bool = false) throws(TraceError) -> ScrollViewConfiguration {
        let o = try r.object(v, path)
        var keys = ["frame", "contentSize", "contentInset", "contentOffset", "bounces",
                    "alwaysBounceVertical", "alwaysBounceHorizontal", "decelerationRate"]
        if floatingPanel { keys.insert("systemInset", at: 3) }
        try r.checkKeys(o, path, keys)
        let framePath = FieldReader.join(path, "frame")
        let f = try r.object(try r.required(o, "frame", path, "an object {\"x\", \"y\", \"width\", \"height\"}"), framePath)
        try r.checkKeys(f, framePath, ["x", "y", "width", "height"])
        func field(_ obj: JSONObject, _ objPath: String, _ key: String, _ range: FieldReader.Range = .any) throws(TraceError) -> Double {
            try r.number(try r.required(obj, key, objPath, range.text), FieldReader.join(objPath, key), range)
        }
        let frame = Rect(x: try field(f, framePath, "x"), y: try field(f, framePath, "y"),
                         width: try field(f, framePath, "width", floatingPanel ? .nonNegative : .positive),
                         height: try field(f, framePath, "height", floatingPanel ? .nonNegative : .positive))
        let sizePath = FieldReader.join(path, "contentSize")
        let sz = try r.object(try r.required(o, "contentSize", path, "an object {\"width\", \"height\"}"), sizePath)
        try r.checkKeys(sz, sizePath, ["width", "height"])
        var c = ScrollViewConfiguration(frame: frame, contentSize: Size(width: try field(sz, sizePath, "width", .nonNegative),
                                                                        height: try field(sz, sizePath, "height", .nonNegative)))
        if let i = o["contentInset"] { c.contentInset = try parseInsets(i, FieldReader.join(path, "contentInset"), r: r) }
        if let i = o["systemInset"] { c.systemInset = try parseInsets(i, FieldReader.join(path, "systemInset"), r: r) }
        if let off = o["contentOffset"] {
            let offPath = FieldReader.join(path, "contentOffset")
            let oo = try r.object(off, offPath)
            try r.checkKeys(oo, offPath, ["x", "y"])
            c.contentOffset = Point(x: try field(oo, offPath, "x"), y: try field(oo, offPath, "y"))
        }
        if let b = o["bounces"] { c.bounces = try r.bool(b, FieldReader.join(path, "bounces")) }
        if let b = o["alwaysBounceVertical"] { c.alwaysBounceVertical = try r.bool(b, FieldReader.join(path, "alwaysBounceVertical")) }
        if let b = o["alwaysBounceHorizontal"] { c.alwaysBounceHorizontal = try r.bool(b, FieldReader.join(path, "alwaysBounceHorizontal")) }
        if let d = o["decelerationRate"] { c.decelerationRate = try r.number(d, FieldReader.join(path, "decelerationRate"), .openUnitInterval) }
        return c
    }

    /// An `environment` object; `extraKeys`: the system's own keys (the sheet's `keyboard`).
    static func parseEnvironment(_ v: JSONValue, r: FieldReader, extraKeys: [String] = []) throws(TraceError) -> PanelEnvironment {
        let keyboard = extraKeys.contains("keyboard")
        let o = try r.object(v, "environment")
        try r.checkKeys(o, "environment", ["container", "safeArea", "displayScale", "frameRate"] + extraKeys)
        let c = try r.object(try r.required(o, "container", "environment", "an object {\"width\", \"height\"}"), "environment.container")
        try r.checkKeys(c, "environment.container", ["width", "height"])
        let width = try r.number(try r.required(c, "width", "environment.container", "a number > 0"), "environment.container.width", .positive)
        let height = try r.number(try r.required(c, "height", "environment.container", "a number > 0"), "environment.container.height", .positive)
        var env = PanelEnvironment(container: Size(width: width, height: height))
        if let s = o["safeArea"] { env.safeArea = try parseInsets(s, "environment.safeArea", r: r) }
        if let s = o["displayScale"] { env.displayScale = try r.number(s, "environment.displayScale", .positive) }
        if let f = o["frameRate"] {
            let n = try r.jsonNumber(f, "environment.frameRate")
            guard let rate = ExactDecimal(n.text)?.integerValue, rate >= 1, rate <= maxFrameRate else {
                throw r.error("environment.frameRate", "expected a positive integer ≤ \(maxFrameRate) (frames per second), got \(n.text)")
            }
            env.frameRate = rate
        }
        if keyboard, let k = o["keyboard"], k != .null { env.keyboard = try parseKeyboard(k, r: r) }
        return env
    }

    static func parseInsets(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> Insets {
        let o = try r.object(v, path)
        let keys = ["top", "left", "bottom", "right"]
        try r.checkKeys(o, path, keys)
        var values: [Double] = []
        for key in keys {
            let value = try r.required(o, key, path, "a number ≥ 0 (all four insets are required)")
            values.append(try r.number(value, FieldReader.join(path, key), .nonNegative))
        }
        return Insets(top: values[0], left: values[1], bottom: values[2], right: values[3])
    }

    static let panelKeys = ["position", "states", "anchors", "initialState", "intrinsicLength", "backdropAlpha",
                            "contentMode", "grabberAreaOffset", "removalInteractionEnabled", "backdrop",
                            "presented", "behavior"]

    /// A `panel` object.
    /// - Parameter base: the layout in force and its state table, to read an `invalidateLayout`
    ///   patch that does not name `states`: only the fields the patch names are read (each
    ///   replaces that field of `base` whole), which gives what reading the merged panel gives, in
    ///   O(size of the patch) instead of O(size of the layout).
    /// - Complexity: O(size of `v`).
    static func parsePanel(_ v: JSONValue, r: FieldReader, over base: (panel: PanelConfiguration, states: StateTable)? = nil) throws(TraceError) -> PanelConfiguration {
        let o = try r.object(v, "panel")
        try r.checkKeys(o, "panel", panelKeys)
        precondition(base == nil || o["states"] == nil, "a patch that names states is read merged")
        var panel = base?.panel ?? PanelConfiguration()
        if let p = o["position"] {
            let raw = try r.choice(p, "panel.position", PanelPosition.allCases.map(\.rawValue))
            panel.position = PanelPosition(rawValue: raw) ?? .bottom
        }
        if let s = o["states"] { panel.states = try parseStates(s, r: r) }
        let states = base?.states ?? StateTable(panel.states)

        if base == nil || o["anchors"] != nil {
            let anchorsValue = try r.required(o, "anchors", "panel", "an object mapping state names to anchors")
            let anchors = try r.object(anchorsValue, "panel.anchors")
            guard !anchors.entries.isEmpty else {
                throw r.error("panel.anchors", "expected at least one anchor, got an empty object")
            }
            panel.anchors = []
            for (key, value) in anchors.entries {
                let path = "panel.anchors." + key
                let state = try r.stateNamed(key, path, states)
                panel.anchors.append(AnchorEntry(state: state, anchor: try parseAnchor(value, path, r: r)))
            }
        }
        if let s = o["initialState"] { panel.initialState = try r.state(s, "panel.initialState", states) }
        if let s = o["intrinsicLength"] { panel.intrinsicLength = try r.number(s, "panel.intrinsicLength", .nonNegative) }
        if let s = o["backdropAlpha"] {
            let map = try r.object(s, "panel.backdropAlpha")
            var alphas: [String: Double] = [:]
            for (key, value) in map.entries {
                let path = "panel.backdropAlpha." + key
                _ = try r.stateNamed(key, path, states)
                alphas[key] = try r.number(value, path, .unitInterval)
            }
            panel.backdropAlpha = alphas
        }
        if let s = o["contentMode"] {
            let raw = try r.choice(s, "panel.contentMode", ["static", "fitToBounds"])
            panel.contentMode = ContentMode(rawValue: raw) ?? .static
        }
        if let s = o["grabberAreaOffset"] { panel.grabberAreaOffset = try r.number(s, "panel.grabberAreaOffset", .nonNegative) }
        if let s = o["removalInteractionEnabled"] { panel.removalInteractionEnabled = try r.bool(s, "panel.removalInteractionEnabled") }
        if let s = o["backdrop"] {
            let b = try r.object(s, "panel.backdrop")
            try r.checkKeys(b, "panel.backdrop", ["dismissalTapEnabled"])
            if let d = b["dismissalTapEnabled"] { panel.dismissalTapEnabled = try r.bool(d, "panel.backdrop.dismissalTapEnabled") }
        }
        if let s = o["presented"] { panel.presented = try r.bool(s, "panel.presented") }
        if let s = o["behavior"] { panel.behavior = try parseBehavior(s, r: r, states: states) }
        return panel
    }

    static func parseStates(_ v: JSONValue, r: FieldReader) throws(TraceError) -> [PanelState] {
        let items = try r.array(v, "panel.states")
        var result: [PanelState] = []
        var declaredAt: [String: Int] = [:]
        declaredAt.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            let path = "panel.states[\(k)]"
            let o = try r.object(item, path)
            try r.checkKeys(o, path, ["name", "order"])
            let name = try r.string(try r.required(o, "name", path, "a state name"), path + ".name")
            guard !name.isEmpty else { throw r.error(path + ".name", "expected a non-empty state name, got \"\"") }
            if let builtIn = PanelState.builtIn.first(where: { $0.name == name }) {
                throw r.error(path + ".name", "state \(quotedSingle(name)) collides with the built-in state \(builtIn.name) (order \(builtIn.order)); expected a new name")
            }
            if let earlier = declaredAt[name] {
                throw r.error(path + ".name", "duplicate state \(quotedSingle(name)) (already declared at panel.states[\(earlier)])")
            }
            declaredAt[name] = k
            let order = try r.integer(try r.required(o, "order", path, "an integer order"), path + ".order")
            result.append(PanelState(name: name, order: order))
        }
        return result
    }

    static let anchorKinds = ["absoluteInset", "fractionalInset", "absoluteOffset", "fractionalOffset", "adaptive"]

    static func parseAnchor(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> LayoutAnchor {
        let o = try r.object(v, path)
        let kinds = o.keys.filter { anchorKinds.contains($0) }
        guard let kind = kinds.first else {
            if let other = o.keys.first(where: { $0 != "edge" && $0 != "referenceGuide" }) {
                throw r.error(FieldReader.join(path, other),
                              "unknown anchor kind \(quotedSingle(other)) (valid kinds: \(FieldReader.list(anchorKinds)))")
            }
            throw r.error(path, "missing anchor kind (expected one of \(FieldReader.list(anchorKinds)))")
        }
        if kinds.count > 1 {
            throw r.error(FieldReader.join(path, kinds[1]),
                          "expected exactly one anchor kind, found both \(quotedSingle(kinds[0])) and \(quotedSingle(kinds[1]))")
        }
        if kind == "adaptive" {
            try r.checkKeys(o, path, [kind])
            return try parseAdaptiveAnchor(o[kind] ?? .null, FieldReader.join(path, kind), r: r)
        }
        let isInset = kind.hasSuffix("Inset")
        let isFractional = kind.hasPrefix("fractional")
        let allowed = isInset ? [kind, "edge", "referenceGuide"] : [kind, "referenceGuide"]
        for entry in o.entries where !allowed.contains(entry.key) {
            let key = entry.key
            if key == "edge" {
                throw r.error(FieldReader.join(path, key), "\(kind) anchors measure from the intrinsic length and take no edge (expected only \(FieldReader.list(allowed)))")
            }
            try r.checkKeys(o, path, allowed)
        }
        let value = try r.number(o[kind] ?? .null, FieldReader.join(path, kind))
        var guide = ReferenceGuide.safeArea
        if let g = o["referenceGuide"] {
            let raw = try r.choice(g, FieldReader.join(path, "referenceGuide"), ReferenceGuide.allCases.map(\.rawValue))
            guide = ReferenceGuide(rawValue: raw) ?? .safeArea
        }
        if isInset {
            let e = try r.required(o, "edge", path, "one of top, left, bottom, right")
            let raw = try r.choice(e, FieldReader.join(path, "edge"), ReferenceEdge.allCases.map(\.rawValue))
            let edge = ReferenceEdge(rawValue: raw) ?? .top
            return .inset(value, isFractional: isFractional, edge: edge, guide: guide)
        }
        return .intrinsic(value, isFractional: isFractional, guide: guide)
    }

    /// `{"adaptive": {…}}`: FloatingPanelAdaptiveLayoutAnchor (floatingpanel-layout-behavior.md §3.3,
    /// §3.4c): `absoluteOffset` or `fractionalOffset`, `contentLength` (the measured main dimension of
    /// the content layout guide, ≥ 0, required), `referenceGuide` (default safeArea) and
    /// `contentBoundingGuide` (none, superview or safeArea; default none).
    static func parseAdaptiveAnchor(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> LayoutAnchor {
        let o = try r.object(v, path)
        let offsetKinds = ["absoluteOffset", "fractionalOffset"]
        let kinds = o.keys.filter { offsetKinds.contains($0) }
        guard let kind = kinds.first else {
            throw r.error(path, "missing adaptive anchor offset (expected one of \(FieldReader.list(offsetKinds)))")
        }
        if kinds.count > 1 {
            throw r.error(FieldReader.join(path, kinds[1]),
                          "expected exactly one offset, found both \(quotedSingle(kinds[0])) and \(quotedSingle(kinds[1]))")
        }
        try r.checkKeys(o, path, [kind, "contentLength", "referenceGuide", "contentBoundingGuide"])
        let value = try r.number(o[kind] ?? .null, FieldReader.join(path, kind))
        let length = try r.number(try r.required(o, "contentLength", path, FieldReader.Range.nonNegative.text),
                                  FieldReader.join(path, "contentLength"), .nonNegative)
        var guide = ReferenceGuide.safeArea
        if let g = o["referenceGuide"] {
            let raw = try r.choice(g, FieldReader.join(path, "referenceGuide"), ReferenceGuide.allCases.map(\.rawValue))
            guide = ReferenceGuide(rawValue: raw) ?? .safeArea
        }
        var bounding = ContentBoundingGuide.none
        if let g = o["contentBoundingGuide"] {
            let raw = try r.choice(g, FieldReader.join(path, "contentBoundingGuide"), ContentBoundingGuide.allCases.map(\.rawValue))
            bounding = ContentBoundingGuide(rawValue: raw) ?? .none
        }
        return .adaptive(value, isFractional: kind == "fractionalOffset", contentLength: length, guide: guide, bounding: bounding)
    }

    static func parseBehavior(_ v: JSONValue, r: FieldReader, states: StateTable) throws(TraceError) -> PanelBehavior {
        let path = "panel.behavior"
        let o = try r.object(v, path)
        try r.checkKeys(o, path, ["springDecelerationRate", "springResponseTime", "momentumProjectionRate",
                                  "redirectionalProgress", "projectsMomentumTo", "rubberBandingEdges",
                                  "removalInteractionVelocityThreshold"])
        var b = PanelBehavior()
        if let x = o["springDecelerationRate"] { b.springDecelerationRate = try r.number(x, path + ".springDecelerationRate", .openUnitInterval) }
        if let x = o["springResponseTime"] { b.springResponseTime = try r.number(x, path + ".springResponseTime", .positive) }
        if let x = o["momentumProjectionRate"] { b.momentumProjectionRate = try r.number(x, path + ".momentumProjectionRate", .openUnitInterval) }
        if let x = o["redirectionalProgress"] { b.redirectionalProgress = try r.number(x, path + ".redirectionalProgress") }
        if let x = o["projectsMomentumTo"] { b.projectsMomentumTo = try r.stateNames(x, path + ".projectsMomentumTo", states) }
        if let x = o["rubberBandingEdges"] {
            let items = try r.array(x, path + ".rubberBandingEdges")
            b.rubberBandingEdges = []
            for (k, item) in items.enumerated() {
                b.rubberBandingEdges.append(try r.choice(item, "\(path).rubberBandingEdges[\(k)]", ["top", "bottom", "left", "right"]))
            }
        }
        if let x = o["removalInteractionVelocityThreshold"] {
            b.removalInteractionVelocityThreshold = try r.number(x, path + ".removalInteractionVelocityThreshold")
        }
        return b
    }

    static func parseDelegate(_ v: JSONValue, r: FieldReader, states: StateTable) throws(TraceError) -> DelegateConfiguration {
        let path = "delegate"
        let o = try r.object(v, path)
        try r.checkKeys(o, path, ["shouldBeginDragging", "scrollableStates", "targetStateOverrides",
                                  "shouldRemove", "didMove", "didChangeState"])
        var d = DelegateConfiguration()
        if let x = o["shouldBeginDragging"] { d.shouldBeginDragging = try r.bool(x, path + ".shouldBeginDragging") }
        if let x = o["scrollableStates"], x != .null { d.scrollableStates = try r.stateNames(x, path + ".scrollableStates", states) }
        if let x = o["targetStateOverrides"] {
            let map = try r.object(x, path + ".targetStateOverrides")
            for (key, value) in map.entries {
                let p = path + ".targetStateOverrides." + key
                _ = try r.stateNamed(key, p, states)
                d.targetStateOverrides[key] = try r.state(value, p, states).name
            }
        }
        if let x = o["shouldRemove"] {
            let raw = try r.choice(x, path + ".shouldRemove", ["default", "always", "never"])
            d.shouldRemove = RemovalAnswer(rawValue: raw) ?? .default
        }
        if let x = o["didMove"], x != .null {
            let p = path + ".didMove"
            let m = try r.object(x, p)
            try r.checkKeys(m, p, ["clamp", "dismissBeyond"])
            var recipes = DidMoveRecipes()
            if let c = m["clamp"], c != .null {
                let cp = p + ".clamp"
                let co = try r.object(c, cp)
                try r.checkKeys(co, cp, ["min", "max"])
                let lo = try parseStateOffset(try r.required(co, "min", cp, "{\"state\", \"offset\"}"), cp + ".min", r: r, states: states)
                let hi = try parseStateOffset(try r.required(co, "max", cp, "{\"state\", \"offset\"}"), cp + ".max", r: r, states: states)
                recipes.clamp = (min: lo, max: hi)
            }
            if let db = m["dismissBeyond"], db != .null {
                recipes.dismissBeyond = try parseStateOffset(db, p + ".dismissBeyond", r: r, states: states)
            }
            d.didMove = recipes
        }
        if let x = o["didChangeState"], x != .null {
            let p = path + ".didChangeState"
            let c = try r.object(x, p)
            try r.checkKeys(c, p, ["dismissIn"])
            if let list = c["dismissIn"] { d.dismissIn = try r.stateNames(list, p + ".dismissIn", states) }
        }
        return d
    }

    static func parseStateOffset(_ v: JSONValue, _ path: String, r: FieldReader, states: StateTable) throws(TraceError) -> StateOffset {
        let o = try r.object(v, path)
        try r.checkKeys(o, path, ["state", "offset"])
        let state = try r.state(try r.required(o, "state", path, "a state name"), path + ".state", states)
        let offset = try r.number(try r.required(o, "offset", path, "a number (pt)"), path + ".offset")
        return StateOffset(state: state, offset: offset)
    }
}

// MARK: - Samples

/// What the loader remembers from earlier samples to check the later ones.
struct SampleSequence {
    var lastTime: Microseconds = 0
    /// The previous time as written (its Double), so that sub-µs decreases are caught before rounding.
    var lastTimeValue: Double = 0
    var lastTimeText: String?
    /// Where ``TouchLineFastPath`` left the previous time's text (byte offsets into the file) instead
    /// of building `lastTimeText`; ``materializeTimeText(_:)`` turns it into `lastTimeText` before a
    /// line takes the general path. At most one of the two is set.
    var pendingTimeText: Range<Int>?
    var lastTimeLine = 0
    /// Finger id → line of its `began`, for fingers currently down.
    var down = FingerLines()
    var endLine: Int?

    /// Sets `lastTimeText` from `pendingTimeText` (offsets into `bytes`), as the general path
    /// would have set it.
    mutating func materializeTimeText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let range = pendingTimeText else { return }
        lastTimeText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        pendingTimeText = nil
    }
}

extension TraceLoader {
    static let supportedCalls = ["move", "show", "hide", "remove", "tapBackdrop", "setContentOffset", "setContentSize", "track", "untrack", "invalidateLayout"]

    /// A `scroll` sample: `contentOffset` {x, y} (required: the sample is the content offset the
    /// device reported), `contentSize` {width, height} and `isDecelerating` (optional).
    static func parseScroll(_ o: JSONObject, r: FieldReader) throws(TraceError) -> ScrollSample {
        try r.checkKeys(o, "", ["t", "scroll"])
        let so = try r.object(o["scroll"] ?? .null, "scroll")
        try r.checkKeys(so, "scroll", ["contentOffset", "contentSize", "isDecelerating"])
        var sample = ScrollSample()
        let offset = try r.object(try r.required(so, "contentOffset", "scroll", "the content offset {\"x\", \"y\"} in pt"), "scroll.contentOffset")
        try r.checkKeys(offset, "scroll.contentOffset", ["x", "y"])
        sample.contentOffset = Point(x: try r.number(try r.required(offset, "x", "scroll.contentOffset", "a number (pt)"), "scroll.contentOffset.x"),
                                     y: try r.number(try r.required(offset, "y", "scroll.contentOffset", "a number (pt)"), "scroll.contentOffset.y"))
        if let v = so["contentSize"] {
            let p = try r.object(v, "scroll.contentSize")
            try r.checkKeys(p, "scroll.contentSize", ["width", "height"])
            sample.contentSize = Size(width: try r.number(try r.required(p, "width", "scroll.contentSize", "a number ≥ 0"), "scroll.contentSize.width", .nonNegative),
                                      height: try r.number(try r.required(p, "height", "scroll.contentSize", "a number ≥ 0"), "scroll.contentSize.height", .nonNegative))
        }
        if let v = so["isDecelerating"] { sample.isDecelerating = try r.bool(v, "scroll.isDecelerating") }
        return sample
    }

    /// One sample line. `format` and `header`: the trace's system (FloatingPanel's calls and states
    /// are read here against `states`, the others by their format).
    static func parseSample(_ value: JSONValue, r: FieldReader, states: StateTable, sequence: inout SampleSequence,
                            format: any SystemTraceFormat = FloatingPanelTraceFormat(), header: TraceHeader? = nil) throws(TraceError) -> TraceSample {
        if let endLine = sequence.endLine {
            throw r.error("end", "nothing may follow the 'end' sample (line \(endLine)); expected the end of the trace")
        }
        guard case .object(let o) = value else {
            throw r.error("", "expected a sample object ({\"t\": …, \"touch\"|\"call\"|\"observed\"|\"end\": …}), got \(FieldReader.describe(value))")
        }
        guard let tValue = o["t"] else {
            if o["format"] != nil {
                throw r.error("format", "expected a sample, found a second header (the header is the first line only)")
            }
            throw r.error("t", "missing required field (expected the sample time in seconds, a number ≥ 0)")
        }
        let tNumber = try r.jsonNumber(tValue, "t")
        guard tNumber.double >= 0, let decimal = ExactDecimal(tNumber.text), !decimal.negative || decimal.isZero else {
            throw r.error("t", "expected a time ≥ 0 s, got \(tNumber.text)")
        }
        guard let time = decimal.rounded(shiftingBy: 6), time <= maxTime else {
            throw r.error("t", "expected a time ≤ 100000000 s (about 3 years), got \(tNumber.text)")
        }
        if let previous = sequence.lastTimeText, time < sequence.lastTime || tNumber.double < sequence.lastTimeValue {
            throw r.error("t", "time goes backwards: t = \(tNumber.text) s comes after t = \(previous) s (line \(sequence.lastTimeLine)); expected t ≥ \(previous)")
        }
        sequence.lastTime = time
        sequence.lastTimeValue = tNumber.double
        sequence.lastTimeText = tNumber.text
        sequence.lastTimeLine = r.line

        // The kinds present, in `sampleKinds` order (one pass over the line's few keys).
        var present: [String] = []
        for entry in o.entries where entry.key != "t" && sampleKinds.contains(entry.key) { present.append(entry.key) }
        if present.count > 1 {
            present.sort { sampleKinds.firstIndex(of: $0)! < sampleKinds.firstIndex(of: $1)! }
        }
        guard let kind = present.first else {
            let others = o.keys.filter { $0 != "t" }
            let expected = "one of the sample kinds \(FieldReader.list(sampleKinds))"
            if let key = others.first {
                var message = "unknown key \(quotedSingle(key))"
                if let near = FieldReader.nearest(key, sampleKinds) {
                    message += " (did you mean \(quotedSingle(near))?)"
                }
                throw r.error(key, message + "; expected " + expected)
            }
            throw r.error("", "missing sample kind (expected \(expected))")
        }
        if present.count > 1 {
            throw r.error(present[1], "expected exactly one sample kind per line, found both \(quotedSingle(present[0])) and \(quotedSingle(present[1]))")
        }
        let sampleKind: SampleKind
        switch kind {
        case "touch": sampleKind = .touch(try parseTouch(o, r: r, sequence: &sequence))
        case "call":
            if let header, header.floatingPanel == nil {
                sampleKind = try format.parseCall(o, header: header, context: r.context)
            } else {
                sampleKind = .call(try parseCall(o, r: r, states: states))
            }
        case "observed": sampleKind = .observed(try parseObserved(o, r: r, states: states, format: format, header: header))
        case "scroll":
            sampleKind = .scroll(try parseScroll(o, r: r))
        case "environment":
            if let refusal = format.environmentSampleRefusal {
                throw r.error("environment", refusal)
            }
            // Merged over the environment in force by the caller (`parse(utf8:file:)`).
            try r.checkKeys(o, "", ["t", "environment"])
            let e = try r.object(o["environment"] ?? .null, "environment")
            try r.checkKeys(e, "environment", ["container", "safeArea", "displayScale", "frameRate"] + format.environmentKeys)
            sampleKind = .environment(PanelEnvironment(container: Size(width: 1, height: 1)))
        case "end":
            try r.checkKeys(o, "", ["t", "end"])
            let e = try r.bool(o["end"] ?? .null, "end")
            guard e else { throw r.error("end", "expected true, got false") }
            sequence.endLine = r.line
            sampleKind = .end
        default:
            preconditionFailure("sampleKinds lists only the kinds handled above")
        }
        return TraceSample(time: time, line: r.line, kind: sampleKind)
    }

    static func parseTouch(_ o: JSONObject, r: FieldReader, sequence: inout SampleSequence) throws(TraceError) -> TouchSample {
        try r.checkKeys(o, "", ["t", "touch", "id", "x", "y", "velocity"])
        let raw = try r.choice(o["touch"] ?? .null, "touch", touchPhases)
        let phase = TouchPhase(rawValue: raw) ?? .began
        var id = 0
        if let v = o["id"] { id = try r.integer(v, "id", minimum: 0) }
        let x = try r.number(try r.required(o, "x", "", "a number (pt)"), "x")
        let y = try r.number(try r.required(o, "y", "", "a number (pt)"), "y")
        var velocity: Point?
        if let v = o["velocity"], v != .null {
            let vo = try r.object(v, "velocity")
            try r.checkKeys(vo, "velocity", ["x", "y"])
            let vx = try r.number(try r.required(vo, "x", "velocity", "a number (pt/s)"), "velocity.x")
            let vy = try r.number(try r.required(vo, "y", "velocity", "a number (pt/s)"), "velocity.y")
            velocity = Point(x: vx, y: vy)
        }
        switch phase {
        case .began:
            if let since = sequence.down[id] {
                throw r.error("touch", "'began' for finger \(id), which is already down since line \(since) (expected 'moved', 'stationary', 'ended' or 'cancelled')")
            }
            sequence.down[id] = r.line
        case .moved, .stationary, .ended, .cancelled:
            guard sequence.down[id] != nil else {
                throw r.error("touch", "'\(phase.rawValue)' for finger \(id) without a preceding 'began' (expected 'began' first)")
            }
            if phase == .ended || phase == .cancelled { sequence.down[id] = nil }
        }
        return TouchSample(phase: phase, id: id, location: Point(x: x, y: y), velocity: velocity)
    }

    static func parseCall(_ o: JSONObject, r: FieldReader, states: StateTable) throws(TraceError) -> PanelCall {
        guard case .string(let name) = o["call"] ?? .null else {
            throw r.error("call", "expected a call name (one of \(FieldReader.list(supportedCalls))), got \(FieldReader.describe(o["call"] ?? .null))")
        }
        func animated() throws(TraceError) -> Bool {
            guard let a = o["animated"] else { return true }
            return try r.bool(a, "animated")
        }
        switch name {
        case "move":
            try r.checkKeys(o, "", ["t", "call", "to", "animated"])
            let to = try r.state(try r.required(o, "to", "", "a state name"), "to", states)
            return .move(to: to, animated: try animated())
        case "show":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            return .show(animated: try animated())
        case "hide":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            return .hide(animated: try animated())
        case "remove":
            try r.checkKeys(o, "", ["t", "call"])
            return .remove
        case "tapBackdrop":
            try r.checkKeys(o, "", ["t", "call"])
            return .tapBackdrop
        case "setContentOffset":
            try r.checkKeys(o, "", ["t", "call", "x", "y", "animated"])
            let x = try o["x"].map { v throws(TraceError) in try r.number(v, "x") }
            let y = try o["y"].map { v throws(TraceError) in try r.number(v, "y") }
            guard x != nil || y != nil else { throw r.error("y", "missing required field (expected \"x\" and/or \"y\", the content offset in pt)") }
            return .setContentOffset(x: x, y: y, animated: try animated())
        case "setContentSize":
            try r.checkKeys(o, "", ["t", "call", "width", "height"])
            let w = try o["width"].map { v throws(TraceError) in try r.number(v, "width", .nonNegative) }
            let h = try o["height"].map { v throws(TraceError) in try r.number(v, "height", .nonNegative) }
            guard w != nil || h != nil else { throw r.error("height", "missing required field (expected \"width\" and/or \"height\", pt)") }
            return .setContentSize(width: w, height: h)
        case "track":
            try r.checkKeys(o, "", ["t", "call", "scrollView"])
            return .track(try parseScrollView(try r.required(o, "scrollView", "", "a scrollView object"), "scrollView", r: r, floatingPanel: true))
        case "untrack":
            try r.checkKeys(o, "", ["t", "call"])
            return .untrack
        case "invalidateLayout":
            // The partial `panel` is merged over the layout in force by the caller (`parse(utf8:file:)`).
            try r.checkKeys(o, "", ["t", "call", "panel"])
            _ = try r.object(try r.required(o, "panel", "", "a partial panel object"), "panel")
            return .invalidateLayout(PanelConfiguration())
        default:
            var message = "unknown call \(quotedSingle(name))"
            if let near = FieldReader.nearest(name, supportedCalls) { message += " (did you mean \(quotedSingle(near))?)" }
            throw r.error("call", message + "; expected one of \(FieldReader.list(supportedCalls))")
        }
    }

    static func parseObserved(_ o: JSONObject, r: FieldReader, states: StateTable,
                              format: any SystemTraceFormat = FloatingPanelTraceFormat(), header: TraceHeader? = nil) throws(TraceError) -> ObservedSample {
        try r.checkKeys(o, "", ["t", "observed"])
        let obs = try r.object(o["observed"] ?? .null, "observed")
        try r.checkKeys(obs, "observed", format.observedKeys)
        var sample = ObservedSample()
        func optionalNumber(_ key: String, _ range: FieldReader.Range = .any) throws(TraceError) -> Double? {
            guard let v = obs[key], v != .null else { return nil }
            return try r.number(v, "observed." + key, range)
        }
        sample.location = try optionalNumber("location")
        sample.contentOffset = try optionalNumber("contentOffset")
        sample.backdropAlpha = try optionalNumber("backdropAlpha", .unitInterval)
        sample.dimming = try optionalNumber("dimming", .unitInterval)
        if let s = obs["state"], s != .null {
            if let header, header.floatingPanel == nil {
                sample.state = try format.parseObservedState(s, header: header, context: r.context)
            } else {
                sample.state = try r.state(s, "observed.state", states).name
            }
        }
        return sample
    }
}

/// Finger id → line of its `began`, for the fingers currently down: ids 0…15 in a fixed table
/// (no hashing on the per-sample path), any other id in a dictionary.
struct FingerLines {
    /// Line of the `began` for ids 0…15; 0 when that finger is up (lines are 1-based).
    private var small: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var large: [Int: Int] = [:]

    /// The line of finger `id`'s `began` while it is down, nil while it is up; setting nil lifts it.
    /// - Complexity: O(1).
    subscript(id: Int) -> Int? {
        get {
            guard id >= 0 && id < 16 else { return large[id] }
            let line = withUnsafeBytes(of: small) { $0.load(fromByteOffset: id * MemoryLayout<Int>.stride, as: Int.self) }
            return line == 0 ? nil : line
        }
        set {
            guard id >= 0 && id < 16 else { large[id] = newValue; return }
            withUnsafeMutableBytes(of: &small) { $0.storeBytes(of: newValue ?? 0, toByteOffset: id * MemoryLayout<Int>.stride, as: Int.self) }
        }
    }
}

/// The file digest (`"sha256:<hex>"`) of a trace being loaded.
enum FileDigest {
    /// Files at least this large (bytes) are hashed on their own thread while the loader parses;
    /// below it a thread costs more than it saves.
    static let concurrencyThreshold = 1 << 20

    /// The digest ignores a UTF-8 byte order mark and the line-ending style: it is taken over
    /// the bytes without a leading BOM and with every CR LF as LF, so a trace saved by an editor
    /// that adds either replays (and digests) the same; a file with neither is hashed as is.
    static func start(_ bytes: [UInt8]) -> BackgroundValue<String> {
        let digest: @Sendable () -> String = { "sha256:" + SHA256.hex(canonicalBytes(bytes)) }
        return bytes.count >= concurrencyThreshold ? BackgroundValue(digest) : BackgroundValue(ready: digest())
    }
}

extension FileDigest {
    /// `bytes` without a leading UTF-8 BOM and with CR LF pairs as LF (the input itself when it
    /// has neither).
    /// - Complexity: O(n) (one `memchr` pass when there is no CR).
    static func canonicalBytes(_ bytes: [UInt8]) -> [UInt8] {
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let hasCR = bytes.withUnsafeBufferPointer { LineScan.next(0x0D, in: $0, from: 0) < $0.count }
        guard hasBOM || hasCR else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var k = hasBOM ? 3 : 0
        while k < bytes.count {
            if bytes[k] == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A { k += 1; continue }
            out.append(bytes[k]); k += 1
        }
        return out
    }
}

// MARK: - Line scanning

/// Byte searches over the loader's buffer with `memchr` (vectorized in the C library).
enum LineScan {
    /// The offset of the first `byte` at or after `start`, or `b.count` when there is none.
    /// - Complexity: O(distance to it).
    static func next(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < b.count, let base = b.baseAddress else { return b.count }
        guard let hit = memchr(base + start, Int32(byte), b.count - start) else { return b.count }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// How many times `byte` occurs in `b`.
    /// - Complexity: O(n).
    static func count(of byte: UInt8, in b: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        var k = next(byte, in: b, from: 0)
        while k < b.count {
            n += 1
            k = next(byte, in: b, from: k + 1)
        }
        return n
    }
}
