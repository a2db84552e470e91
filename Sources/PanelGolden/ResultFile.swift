import PanelSimCore
import PanelTrace

/// Line 1 of a result file (trace-format.md §2).
///
/// `{"format": "panelsim-result", "version": 1, "trace": <name>, "traceDigest": "sha256:…",
/// "parameterDigest": "sha256:…", "engine": "panelsim 0.1.0", "frameRate": N, "displayScale": S}`
///
/// `parameterDigest` was added after version 1 shipped (fields may be added, never renamed): a
/// version-1 file without it reads with `parameterDigest == ""` and is written without it.
public struct ResultHeader: Sendable, Equatable {
    /// The `format` value of every result file.
    public static let formatName = "panelsim-result"
    /// The result-file format version this build writes (and the only one it can compare).
    public static let currentVersion = 1
    /// The `engine` value this build writes.
    public static let currentEngine = "panelsim 0.1.0"

    /// Format version of the file.
    public var version: Int
    /// The panel system of the trace (`"model"`; absent from the file for FloatingPanel, so that
    /// FloatingPanel results are unchanged by the field's addition).
    public var model: PanelModel = .floatingPanel
    /// The trace's `name` (header field of the trace file).
    public var trace: String
    /// Digest of the trace file's bytes, `"sha256:<64 hex digits>"`.
    public var traceDigest: String
    /// Digest of the trace's parameters, `"sha256:<64 hex digits>"`: SHA-256 of the canonical
    /// header line `TraceWriter.headerLine(header)` (see `parameterDigest(of:)`), so that a change
    /// of layout, behavior, delegate or recognizer parameters is visible even when the samples
    /// did not change. Empty when the file predates the field.
    public var parameterDigest: String
    /// The simulator options away from floatingpanel-core.md §9's defaults that produced the
    /// result (`SimulationOptions.nonDefaultNames`: `driveScroll`, `panelHandlerFirst`); empty,
    /// and absent from the file, for the defaults.
    public var simulator: [String]
    /// The profile point that produced the result (profiles.md §2.4), written after
    /// `parameterDigest`; nil, and absent from the file, for a replay that named no profile.
    public var profile: ResultProfile? = nil
    /// Name and version of the engine that wrote the file.
    public var engine: String
    /// `environment.frameRate` of the trace, Hz (> 0); frame k is at `frameTime(k, frameRate:)`.
    public var frameRate: Int
    /// `environment.displayScale` of the trace, pixels per pt.
    public var displayScale: Double

    public init(
        version: Int = ResultHeader.currentVersion, trace: String, traceDigest: String,
        parameterDigest: String = "", simulator: [String] = [],
        engine: String = ResultHeader.currentEngine, frameRate: Int, displayScale: Double
    ) {
        self.version = version
        self.trace = trace
        self.traceDigest = traceDigest
        self.parameterDigest = parameterDigest
        self.simulator = simulator
        self.engine = engine
        self.frameRate = frameRate
        self.displayScale = displayScale
    }

    /// `"sha256:<hex>"` of the UTF-8 bytes of `TraceWriter.headerLine(header)` (no newline): the
    /// trace header re-serialized canonically, so equal parameters give equal digests whatever
    /// the spelling (key order, number format, omitted defaults) of the trace file.
    /// - Complexity: O(size of the header).
    public static func parameterDigest(of header: TraceHeader) -> String {
        "sha256:" + SHA256.hex(SHA256.digest(Array(TraceWriter.headerLine(header).utf8)))
    }
}

/// The result header's `profile` member (profiles.md §2.4): the library and the profile point
/// (not the requested version: two versions of one point give identical results).
public struct ResultProfile: Sendable, Equatable, CustomStringConvertible {
    /// The library (`lnpopup`, …).
    public var library: String
    /// The point (`4.5.4`, …).
    public var point: String
    public init(library: String, point: String) {
        self.library = library
        self.point = point
    }
    /// `lnpopup@4.5.4`.
    public var description: String { library + "@" + point }
}

/// A parsed (or to-be-written) result file: its header and its records in file order.
public struct ResultDocument: Sendable, Equatable {
    public var header: ResultHeader
    /// Records in file order. Empty when `header.version` is not `ResultHeader.currentVersion`
    /// (a reader cannot know another version's record grammar; see `ResultFile.read`).
    public var records: RecordList
    public init(header: ResultHeader, records: RecordList) {
        self.header = header
        self.records = records
    }
    /// A document from an array of records (tests, tools that build results by hand).
    public init(header: ResultHeader, records: [ResultRecord]) {
        self.init(header: header, records: RecordList(records))
    }
}

/// A malformed result file: `file`, 1-based `line` and what is wrong.
public struct ResultFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based line number (0 when the problem is the file as a whole, e.g. it is empty).
    public var line: Int
    public var message: String
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    /// One line: `file:line: message` (line breaks inside, e.g. from a key that spells `\r`,
    /// are escaped).
    public var description: String {
        oneLine(line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)")
    }
}

/// Writing and reading result files (trace-format.md §2).
///
/// Writing is a pure function of the values: keys in a fixed order, `", "` between members,
/// `": "` after keys, numbers by `CanonicalNumber`, times by `CanonicalNumber.formatSeconds`,
/// one record per line, every line terminated by `"\n"`. The same values always give the same
/// bytes on every platform.
public enum ResultFile {

    // MARK: Writing

    /// The header line (without the newline).
    /// - Complexity: O(length of the names).
    public static func headerLine(_ header: ResultHeader) -> String {
        "{\"format\": \(quoted(ResultHeader.formatName)), \"version\": \(header.version), "
            + (header.model == .floatingPanel ? "" : "\"model\": \(quoted(header.model.rawValue)), ")
            + "\"trace\": \(quoted(header.trace)), \"traceDigest\": \(quoted(header.traceDigest)), "
            + (header.parameterDigest.isEmpty ? "" : "\"parameterDigest\": \(quoted(header.parameterDigest)), ")
            + (header.profile.map {
                "\"profile\": {\"library\": \(quoted($0.library)), \"point\": \(quoted($0.point))}, "
            } ?? "")
            + (header.simulator.isEmpty
                ? "" : "\"simulator\": [\(header.simulator.map(quoted).joined(separator: ", "))], ")
            + "\"engine\": \(quoted(header.engine)), \"frameRate\": \(header.frameRate), "
            + "\"displayScale\": \(CanonicalNumber.format(header.displayScale))}"
    }

    /// One record line (without the newline).
    ///
    /// Events: `{"t": <s>, "event": "<name>", <fields>}` with the fields of trace-format.md §2 in
    /// a fixed order. Frames: `{"t": <frameTime(k)>, "frame": k, "location": …, "state": …,
    /// "backdropAlpha": …, ["contentOffset": …,] "isAttracting": …, "isDragging": …[, "scrollLocked": …]}`,
    /// where `contentOffset` and `scrollLocked` are present only with a tracked scroll view, and
    /// `"contentInset": {"top", "left", "bottom", "right"}` (pt) last, only in a replay with the opt-in
    /// `contentInset` channel (`SimulationOptions.recordContentInset`) and a tracked scroll view.
    /// - Parameter frameRate: Hz, used for a frame's `t`.
    /// - Complexity: O(1) apart from name lengths.
    public static func line(for record: ResultRecord, frameRate: Int) -> String {
        var writer = LineWriter()
        writer.append(record, frameRate: frameRate)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The whole file: header line, then one line per record, each ending in `"\n"`.
    /// - Complexity: O(records); one growing byte buffer, no per-line strings.
    public static func render(_ document: ResultDocument) -> String {
        String(decoding: renderBytes(document), as: UTF8.self)
    }

    /// `render(_:)` as UTF-8 bytes (what `check` compares with a golden file's bytes).
    /// - Complexity: O(records).
    public static func renderBytes(_ document: ResultDocument) -> [UInt8] {
        var stream = StreamRenderer(header: document.header, reserving: 128 + 110 * document.records.count)
        stream.append(document.records)
        return stream.take(reserving: 0)
    }

    /// `renderBytes(_:)` in pieces, for records that arrive as a replay produces them
    /// (`simulate(header:feed:options:sink:)`): the header line, then each batch's lines; the
    /// pieces taken in order are the bytes `renderBytes` gives for all the records.
    public struct StreamRenderer {
        private var writer = LineWriter()
        private let frameRate: Int

        /// Starts with the header line.
        public init(header: ResultHeader, reserving capacity: Int = 1 << 16) {
            frameRate = header.frameRate
            writer.bytes.reserveCapacity(capacity)
            writer.bytes.append(contentsOf: ResultFile.headerLine(header).utf8)
            writer.bytes.append(0x0A)
        }

        /// Renders the lines of `records`.
        /// - Complexity: O(records).
        public mutating func append(_ records: RecordList) {
            for record in records {
                writer.append(record, frameRate: frameRate)
                writer.bytes.append(0x0A)
            }
        }

        /// The bytes rendered since the last `take()`; `reserving` bytes of room for the next ones.
        public mutating func take(reserving capacity: Int = 1 << 16) -> [UInt8] {
            var out: [UInt8] = []
            swap(&out, &writer.bytes)
            if capacity > 0 { writer.bytes.reserveCapacity(capacity) }
            return out
        }
    }

    /// Convenience for `render(ResultDocument(header:records:))`.
    public static func render(header: ResultHeader, records: RecordList) -> String {
        render(ResultDocument(header: header, records: records))
    }

    /// Writes record lines as UTF-8 into one buffer. Byte-identical to building each line from
    /// `CanonicalNumber.format`, `CanonicalNumber.formatSeconds` and `JSON.quote`; the last number
    /// written is remembered, since a frame's location usually repeats its `didMove` event's.
    struct LineWriter {
        var bytes: [UInt8] = []
        private var lastNumber: UInt64 = 0
        private var hasLast = false
        /// The last number's text (when it has at most 32 bytes), kept on the stack.
        private var lastDigits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        private var lastCount = 0

        mutating func raw(_ s: StaticString) {
            s.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func number(_ v: Double) {
            if hasLast && v.bitPattern == lastNumber {
                let n = lastCount
                withUnsafeBytes(of: lastDigits) {
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<n]))
                }
                return
            }
            let start = bytes.count
            CanonicalNumber.append(v, to: &bytes)
            let n = bytes.count - start
            guard n <= 32 else {
                hasLast = false
                return
            }
            var digits = lastDigits
            bytes.withUnsafeBytes { written in
                withUnsafeMutableBytes(of: &digits) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: written[start..<(start + n)]))
                }
            }
            lastDigits = digits
            lastCount = n
            lastNumber = v.bitPattern
            hasLast = true
        }

        mutating func string(_ s: String) { JSON.appendQuoted(s, to: &bytes) }

        mutating func bool(_ b: Bool) { if b { raw("true") } else { raw("false") } }

        mutating func point(_ p: Point) {
            raw("{\"x\": ")
            number(p.x)
            raw(", \"y\": ")
            number(p.y)
            raw("}")
        }

        /// The quoted state name with its neighbours, `, "state": "<name>", "backdropAlpha": `, for
        /// the last state name written (frames repeat it).
        private var stateName: String?
        private var stateSegment: [UInt8] = []

        /// `, "key": value` for each field, in order.
        mutating func fields(_ list: [RecordField]) {
            for field in list {
                raw(", ")
                string(field.key)
                raw(": ")
                switch field.value {
                case .number(let x): number(x)
                case .string(let text): string(text)
                case .bool(let b): bool(b)
                case .point(let p): point(p)
                case .null: raw("null")
                }
            }
        }

        mutating func append(_ record: ResultRecord, frameRate: Int) {
            // Constant text is written in as few pieces as possible: each append is a call with
            // its own checks, and a line has a dozen of them.
            switch record {
            case .event(let time, let event):
                raw("{\"t\": ")
                CanonicalNumber.appendSeconds(time, to: &bytes)
                switch event {
                case .shouldBeginDragging(let result):
                    raw(
                        result
                            ? ", \"event\": \"shouldBeginDragging\", \"result\": true}"
                            : ", \"event\": \"shouldBeginDragging\", \"result\": false}")
                case .willBeginDragging(let state):
                    raw(", \"event\": \"willBeginDragging\", \"state\": ")
                    string(state)
                    raw("}")
                case .didMove(let location):
                    raw(", \"event\": \"didMove\", \"location\": ")
                    number(location)
                    raw("}")
                case .willEndDragging(let velocity, let proposed, let target):
                    raw(", \"event\": \"willEndDragging\", \"velocity\": ")
                    point(velocity)
                    raw(", \"proposed\": ")
                    string(proposed)
                    raw(", \"target\": ")
                    string(target)
                    raw("}")
                case .didEndDragging(let willAttract):
                    raw(
                        willAttract
                            ? ", \"event\": \"didEndDragging\", \"willAttract\": true}"
                            : ", \"event\": \"didEndDragging\", \"willAttract\": false}")
                case .willBeginAttracting(let to):
                    raw(", \"event\": \"willBeginAttracting\", \"to\": ")
                    string(to)
                    raw("}")
                case .didEndAttracting:
                    raw(", \"event\": \"didEndAttracting\"}")
                case .didChangeState(let state):
                    raw(", \"event\": \"didChangeState\", \"state\": ")
                    string(state)
                    raw("}")
                case .shouldRemove(let velocity, let result):
                    raw(", \"event\": \"shouldRemove\", \"velocity\": ")
                    point(velocity)
                    raw(result ? ", \"result\": true}" : ", \"result\": false}")
                case .willRemove:
                    raw(", \"event\": \"willRemove\"}")
                case .didRemove:
                    raw(", \"event\": \"didRemove\"}")
                case .system(let e):
                    raw(", \"event\": ")
                    string(e.name)
                    fields(e.fields)
                    raw("}")
                }
            case .systemFrame(let f):
                raw("{\"t\": ")
                CanonicalNumber.appendSeconds(frameTime(f.index, frameRate: frameRate), to: &bytes)
                raw(", \"frame\": ")
                if f.index < 0 { raw("-") }
                CanonicalNumber.appendDigits(UInt64(f.index.magnitude), to: &bytes)
                fields(f.channels)
                raw("}")
            case .frame(let f):
                raw("{\"t\": ")
                CanonicalNumber.appendSeconds(frameTime(f.index, frameRate: frameRate), to: &bytes)
                raw(", \"frame\": ")
                if f.index < 0 { raw("-") }
                CanonicalNumber.appendDigits(UInt64(f.index.magnitude), to: &bytes)
                raw(", \"location\": ")
                number(f.location)
                if stateName != f.state {
                    var segment: [UInt8] = []
                    segment.append(contentsOf: ", \"state\": ".utf8)
                    JSON.appendQuoted(f.state, to: &segment)
                    segment.append(contentsOf: ", \"backdropAlpha\": ".utf8)
                    stateName = f.state
                    stateSegment = segment
                }
                bytes.append(contentsOf: stateSegment)
                number(f.backdropAlpha)
                if let offset = f.contentOffset {
                    raw(", \"contentOffset\": ")
                    number(offset)
                }
                switch (f.isAttracting, f.isDragging) {
                case (false, false): raw(", \"isAttracting\": false, \"isDragging\": false")
                case (true, false): raw(", \"isAttracting\": true, \"isDragging\": false")
                case (false, true): raw(", \"isAttracting\": false, \"isDragging\": true")
                case (true, true): raw(", \"isAttracting\": true, \"isDragging\": true")
                }
                if let locked = f.scrollLocked {
                    raw(locked ? ", \"scrollLocked\": true" : ", \"scrollLocked\": false")
                }
                if let i = f.contentInset {
                    raw(", \"contentInset\": {\"top\": ")
                    number(i.top)
                    raw(", \"left\": ")
                    number(i.left)
                    raw(", \"bottom\": ")
                    number(i.bottom)
                    raw(", \"right\": ")
                    number(i.right)
                    raw("}")
                }
                raw("}")
            }
        }
    }

    /// A JSON string literal for `text` (`JSON.quote`).
    public static func quoted(_ text: String) -> String { JSON.quote(text) }

    private static func num(_ value: Double) -> String { CanonicalNumber.format(value) }
    private static func point(_ p: Point) -> String { "{\"x\": \(num(p.x)), \"y\": \(num(p.y))}" }

    // MARK: Reading

    /// Parses the header line only (the first non-blank line).
    /// - Throws: `ResultFileError` when the file is empty, line 1 is not JSON, or it is not a
    ///   `panelsim-result` header. For a version other than `ResultHeader.currentVersion` only
    ///   `format` and `version` are required; missing fields read as empty / 0.
    /// - Complexity: O(length of line 1).
    public static func readHeader(text: String, file: String) throws(ResultFileError) -> ResultHeader {
        for (number, line) in numberedLines(text) where !isBlank(line) {
            return try parseHeader(line, file: file, line: number)
        }
        throw ResultFileError(file: file, line: 0, message: "empty result file (no header line)")
    }

    /// Parses a whole result file.
    ///
    /// Blank lines are ignored. Keys may come in any order; keys this version does not know are
    /// ignored (the contract allows added fields). A frame's `t` must equal
    /// `frameTime(frame, frameRate:)`. A number written as `null` reads as NaN.
    /// When the header's version is not `ResultHeader.currentVersion`, only the header is parsed
    /// and `records` is empty, so that callers can report the version instead of a syntax error.
    /// - Throws: `ResultFileError` with the 1-based line of the first problem (JSON syntax,
    ///   unknown record or event kind, missing or mistyped field).
    /// - Complexity: O(file length).
    public static func read(text: String, file: String) throws(ResultFileError) -> ResultDocument {
        var header: ResultHeader?
        var records: [ResultRecord] = []
        for (number, line) in numberedLines(text) where !isBlank(line) {
            guard let h = header else {
                let parsed = try parseHeader(line, file: file, line: number)
                if parsed.version != ResultHeader.currentVersion {
                    return ResultDocument(header: parsed, records: [])
                }
                header = parsed
                continue
            }
            records.append(try parseRecord(line, frameRate: h.frameRate, model: h.model, file: file, line: number))
        }
        guard let h = header else {
            throw ResultFileError(file: file, line: 0, message: "empty result file (no header line)")
        }
        return ResultDocument(header: h, records: records)
    }

    private static func isBlank(_ line: Substring) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }

    private static func numberedLines(_ text: String) -> [(Int, Substring)] {
        var result: [(Int, Substring)] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            result.append((number, line))
        }
        return result
    }

    private static func parseObject(_ line: Substring, file: String, line number: Int) throws(ResultFileError)
        -> FieldReader
    {
        let value: JSONValue
        do {
            value = try JSON.parse(String(line))
        } catch {
            throw ResultFileError(
                file: file, line: number,
                message: (error.path.isEmpty ? "" : "\(error.path): ") + "column \(error.column): \(error.message)")
        }
        guard case .object(let object) = value else {
            throw ResultFileError(file: file, line: number, message: "expected a JSON object")
        }
        return FieldReader(object: object, file: file, line: number)
    }

    private static func parseHeader(_ line: Substring, file: String, line number: Int) throws(ResultFileError)
        -> ResultHeader
    {
        let r: FieldReader
        do {
            r = try parseObject(line, file: file, line: number)
        } catch {
            // Not even a JSON object: most likely not a result file at all; say what one starts with.
            throw ResultFileError(
                file: file, line: number,
                message: error.message + "; not a result file (a result file starts with a header line "
                    + "{\"format\": \"\(ResultHeader.formatName)\", \"version\": \(ResultHeader.currentVersion), …})")
        }
        let format = try r.string("format")
        guard format == ResultHeader.formatName else {
            throw r.error(
                "format is \(quoted(format)), expected \(quoted(ResultHeader.formatName)) (not a result file)")
        }
        let version = try r.int("version")
        if version != ResultHeader.currentVersion {
            // Another version: read what is recognizable, never fail on its other fields.
            return ResultHeader(
                version: version, trace: r.optionalString("trace") ?? "",
                traceDigest: r.optionalString("traceDigest") ?? "",
                engine: r.optionalString("engine") ?? "", frameRate: 0, displayScale: 0)
        }
        let frameRate = try r.int("frameRate")
        guard frameRate > 0, frameRate <= maxFrameRate else {
            throw r.error(
                "frameRate must be an integer in 1…\(maxFrameRate) (a trace's environment.frameRate), got \(frameRate)")
        }
        var model = PanelModel.floatingPanel
        if r.has("model") {
            let name = try r.string("model")
            let known = GoldenSystems.registered.map(\.model.rawValue)
            guard known.contains(name) else {
                throw r.error("unknown model \(quoted(name)) (expected one of \(known.joined(separator: ", ")))")
            }
            model = PanelModel(rawValue: name)
        }
        var header = ResultHeader(
            version: version, trace: try r.string("trace"),
            traceDigest: try r.string("traceDigest"),
            parameterDigest: r.has("parameterDigest") ? try r.string("parameterDigest") : "",
            simulator: r.has("simulator") ? try r.strings("simulator") : [],
            engine: try r.string("engine"),
            frameRate: frameRate, displayScale: try r.double("displayScale"))
        header.model = model
        if r.has("profile") { header.profile = try r.profile("profile") }
        return header
    }

    /// The largest `frameRate` a result file may declare: the loader's bound on a trace's
    /// `environment.frameRate` (Hz).
    public static let maxFrameRate = TraceLoader.maxFrameRate
    /// The largest frame index a result file may hold: the last frame of a replay of the longest
    /// trace (10⁸ s plus the 10 s settle budget at 10,000 Hz is about 10¹²) with room to spare,
    /// and small enough that `frameTime` (2·index·10⁶ + rate in 64 bits) cannot overflow.
    public static let maxFrameIndex = 2_000_000_000_000
    /// The latest record time a result file may hold, µs: twice the loader's bound on sample
    /// times (a replay ends at most the 10 s settle budget after its last sample).
    public static let maxRecordTime: Microseconds = 2 * TraceLoader.maxTime

    private static func parseRecord(
        _ line: Substring, frameRate: Int, model: PanelModel, file: String, line number: Int
    ) throws(ResultFileError) -> ResultRecord {
        let r = try parseObject(line, file: file, line: number)
        let time = try r.micros("t")
        // Bounded so that differences of two files' times cannot overflow (the comparator
        // subtracts them).
        guard time >= 0, time <= maxRecordTime else {
            throw r.error(
                "field \"t\" must be a time in 0…\(maxRecordTime / 1_000_000) s, got \(CanonicalNumber.formatSeconds(time))"
            )
        }
        if r.has("frame") {
            if r.has("event") { throw r.error("a record has either \"frame\" or \"event\", not both") }
            let index = try r.int("frame")
            // Bounded before `frameTime`, whose µs arithmetic would overflow (a trap) beyond it.
            guard index >= 0, index <= maxFrameIndex else {
                throw r.error("field \"frame\" must be an integer in 0…\(maxFrameIndex), got \(index)")
            }
            let expectedTime = frameTime(index, frameRate: frameRate)
            guard expectedTime == time else {
                throw r.error(
                    "t \(CanonicalNumber.formatSeconds(time)) does not match frame \(index) at \(frameRate) Hz (\(CanonicalNumber.formatSeconds(expectedTime)))"
                )
            }
            if model != .floatingPanel {
                let channels = try r.fields(except: ["t", "frame"])
                let state = channels.first(where: { $0.key == "state" })?.value
                guard case .number? = channels.first(where: { $0.key == "location" })?.value,
                    state.map({ if case .string = $0 { return true } else { return $0 == .null } }) == true
                else {
                    throw r.error("a frame needs a number \"location\" and a string (or null) \"state\"")
                }
                return .systemFrame(SystemFrame(index: index, channels: channels))
            }
            return .frame(
                FrameRecord(
                    index: index, location: try r.double("location"), state: try r.string("state"),
                    backdropAlpha: try r.double("backdropAlpha"),
                    contentOffset: r.has("contentOffset") ? try r.double("contentOffset") : nil,
                    isAttracting: try r.bool("isAttracting"), isDragging: try r.bool("isDragging"),
                    scrollLocked: r.has("scrollLocked") ? try r.bool("scrollLocked") : nil,
                    contentInset: r.has("contentInset") ? try r.insets("contentInset") : nil))
        }
        guard r.has("event") else { throw r.error("a record needs \"event\" or \"frame\"") }
        let name = try r.string("event")
        if model != .floatingPanel {
            return .event(time: time, .system(SystemEvent(name: name, fields: try r.fields(except: ["t", "event"]))))
        }
        let event: DelegateEvent
        switch name {
        case "shouldBeginDragging": event = .shouldBeginDragging(result: try r.bool("result"))
        case "willBeginDragging": event = .willBeginDragging(state: try r.string("state"))
        case "didMove": event = .didMove(location: try r.double("location"))
        case "willEndDragging":
            event = .willEndDragging(
                velocity: try r.point("velocity"), proposed: try r.string("proposed"),
                target: try r.string("target"))
        case "didEndDragging": event = .didEndDragging(willAttract: try r.bool("willAttract"))
        case "willBeginAttracting": event = .willBeginAttracting(to: try r.string("to"))
        case "didEndAttracting": event = .didEndAttracting
        case "didChangeState": event = .didChangeState(state: try r.string("state"))
        case "shouldRemove": event = .shouldRemove(velocity: try r.point("velocity"), result: try r.bool("result"))
        case "willRemove": event = .willRemove
        case "didRemove": event = .didRemove
        default: throw r.error("unknown event \(quoted(name))")
        }
        return .event(time: time, event)
    }
}

/// Typed field access on one parsed line, with line-numbered errors.
private struct FieldReader {
    var object: JSONObject
    var file: String
    var line: Int

    func error(_ message: String) -> ResultFileError { ResultFileError(file: file, line: line, message: message) }
    func has(_ key: String) -> Bool { object[key] != nil }

    /// Every member but `excluded`, in file order, as record fields (a panel system's own
    /// records): numbers (`null` reads as NaN), strings, booleans and {x, y} vectors.
    func fields(except excluded: [String]) throws(ResultFileError) -> [RecordField] {
        var out: [RecordField] = []
        for entry in object.entries where !excluded.contains(entry.key) {
            switch entry.value {
            case .number(let n): out.append(RecordField(entry.key, .number(n.double)))
            // `null` is a nil value for the sheet's `state` (uisheet.md §2.3), else a non-finite number.
            case .null: out.append(RecordField(entry.key, entry.key == "state" ? .null : .number(.nan)))
            case .string(let s): out.append(RecordField(entry.key, .string(s)))
            case .bool(let b): out.append(RecordField(entry.key, .bool(b)))
            case .object:
                out.append(RecordField(entry.key, .point(try point(entry.key))))
            case .array:
                throw error(
                    "field \"\(entry.key)\" must be a number, string, boolean or {\"x\", \"y\"}, got \(Self.kind(entry.value))"
                )
            }
        }
        return out
    }

    /// What a JSON value is, for "got …" in messages: `a string ("x")`, `a number (3)`, `an object`, ….
    static func kind(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return "a boolean (\(b))"
        case .number(let n): return "a number (\(n.text.count > 40 ? String(n.text.prefix(40)) + "…" : n.text))"
        case .string(let s): return "a string (\(ResultFile.quoted(s.count > 40 ? String(s.prefix(40)) + "…" : s)))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func value(_ key: String) throws(ResultFileError) -> JSONValue {
        guard let v = object[key] else { throw error("missing field \"\(key)\"") }
        return v
    }
    func string(_ key: String) throws(ResultFileError) -> String {
        let v = try value(key)
        guard case .string(let s) = v else { throw error("field \"\(key)\" must be a string, got \(Self.kind(v))") }
        return s
    }
    func strings(_ key: String) throws(ResultFileError) -> [String] {
        let v = try value(key)
        guard case .array(let items) = v else {
            throw error("field \"\(key)\" must be an array of strings, got \(Self.kind(v))")
        }
        var out: [String] = []
        for (k, item) in items.enumerated() {
            guard case .string(let s) = item else {
                throw error("field \"\(key)\" must be an array of strings, got \(Self.kind(item)) at index \(k)")
            }
            out.append(s)
        }
        return out
    }
    /// A result header's `profile` object: `{"library": …, "point": …}`.
    func profile(_ key: String) throws(ResultFileError) -> ResultProfile {
        let v = try value(key)
        guard case .object(let o) = v else {
            throw error("field \"\(key)\" must be an object {\"library\", \"point\"}, got \(Self.kind(v))")
        }
        let inner = FieldReader(object: o, file: file, line: line)
        for entry in o.entries where entry.key != "library" && entry.key != "point" {
            throw error("field \"\(key)\" has an unknown member \"\(entry.key)\" (expected library and point)")
        }
        return ResultProfile(library: try inner.string("library"), point: try inner.string("point"))
    }
    func optionalString(_ key: String) -> String? {
        if case .string(let s)? = object[key] { return s }
        return nil
    }
    func bool(_ key: String) throws(ResultFileError) -> Bool {
        let v = try value(key)
        guard case .bool(let b) = v else { throw error("field \"\(key)\" must be true or false, got \(Self.kind(v))") }
        return b
    }
    func double(_ key: String) throws(ResultFileError) -> Double {
        let v = try value(key)
        switch v {
        case .number(let n): return n.double
        case .null: return .nan  // how non-finite values are written (CanonicalNumber.format)
        default: throw error("field \"\(key)\" must be a number, got \(Self.kind(v))")
        }
    }
    func int(_ key: String) throws(ResultFileError) -> Int {
        let v = try value(key)
        guard case .number(let n) = v, let i = Int(exactly: n.double),
            !n.text.contains("."), !n.text.contains("e"), !n.text.contains("E")
        else {
            throw error("field \"\(key)\" must be an integer, got \(Self.kind(v))")
        }
        return i
    }
    func micros(_ key: String) throws(ResultFileError) -> Microseconds {
        let v = try value(key)
        guard case .number(let n) = v else {
            throw error("field \"\(key)\" must be a number (seconds), got \(Self.kind(v))")
        }
        guard let us = DecimalSeconds.micros(n.text) else {
            throw error("field \"\(key)\" is not a time in seconds: \(n.text)")
        }
        return us
    }
    /// An `{"top", "left", "bottom", "right"}` object (pt), e.g. the `contentInset` frame channel.
    func insets(_ key: String) throws(ResultFileError) -> Insets {
        let v = try value(key)
        guard case .object(let o) = v else {
            throw error(
                "field \"\(key)\" must be an object {\"top\", \"left\", \"bottom\", \"right\"}, got \(Self.kind(v))")
        }
        let inner = FieldReader(object: o, file: file, line: line)
        do {
            return Insets(
                top: try inner.double("top"), left: try inner.double("left"),
                bottom: try inner.double("bottom"), right: try inner.double("right"))
        } catch {
            throw self.error("in \"\(key)\": \(error.message)")
        }
    }

    func point(_ key: String) throws(ResultFileError) -> Point {
        let v = try value(key)
        guard case .object(let o) = v else {
            throw error("field \"\(key)\" must be an object {\"x\", \"y\"}, got \(Self.kind(v))")
        }
        let inner = FieldReader(object: o, file: file, line: line)
        do {
            return Point(x: try inner.double("x"), y: try inner.double("y"))
        } catch {
            throw self.error("in \"\(key)\": \(error.message)")
        }
    }
}

/// Exact conversion of decimal seconds text to whole microseconds.
enum DecimalSeconds {
    /// Converts JSON number text (`-?int(.frac)?([eE][+-]?exp)?`) in seconds to µs, rounding half
    /// away from zero at 1 µs. Returns nil for malformed text or a value outside `Int64`.
    /// - Complexity: O(length of text + |exponent|).
    static func micros(_ text: String) -> Microseconds? {
        var negative = false
        var digits: [Int] = []
        var pointAt: Int?
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        var sawExponentDigit = false
        for (i, ch) in text.utf8.enumerated() {
            switch ch {
            case UInt8(ascii: "-") where i == 0: negative = true
            case UInt8(ascii: "-") where inExponent && !sawExponentDigit: exponentSign = -1
            case UInt8(ascii: "+") where inExponent && !sawExponentDigit: break
            case UInt8(ascii: ".") where pointAt == nil && !inExponent: pointAt = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                if inExponent || digits.isEmpty { return nil }
                inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let d = Int(ch - UInt8(ascii: "0"))
                if inExponent {
                    sawExponentDigit = true
                    exponent = exponent * 10 + d
                    if exponent > 400 { return nil }
                } else {
                    digits.append(d)
                }
            default: return nil
            }
        }
        if digits.isEmpty || (inExponent && !sawExponentDigit) { return nil }
        // Digits before the decimal point of the value in µs.
        let integerCount = (pointAt ?? digits.count) + exponentSign * exponent + 6
        var magnitude: Int64 = 0
        for i in 0..<max(0, integerCount) {
            let d = i < digits.count ? Int64(digits[i]) : 0
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(d)
            if o1 || o2 { return nil }
            magnitude = m2
        }
        if integerCount >= 0 && integerCount < digits.count && digits[integerCount] >= 5 {
            let (m, o) = magnitude.addingReportingOverflow(1)
            if o { return nil }
            magnitude = m
        }
        return negative ? -magnitude : magnitude
    }
}
