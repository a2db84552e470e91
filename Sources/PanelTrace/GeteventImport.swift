/// Importing Android `getevent -lt` logs (Linux multi-touch protocol B) as trace samples.
import PanelSimCore

/// Importer for the text `adb shell getevent -lt [/dev/input/eventN]` prints.
///
/// Accepted lines (a trailing CR is allowed; blank lines are skipped):
/// * `[   SECONDS.MICROS] [/dev/input/eventN:] TYPE CODE VALUE`. TYPE and CODE are the `-l` labels
///   (`EV_ABS`, `ABS_MT_POSITION_X`, …) or 4-digit hex numbers (plain `getevent -t`); VALUE is hex
///   (`ffffffff` is −1), or `DOWN` / `UP` / `REPEAT` for keys.
/// * getevent's own preamble, which is skipped: `add device N: …`, `  name: …`, `could not …`.
///
/// Protocol B: `ABS_MT_SLOT` selects a slot (0 until the first one); `ABS_MT_TRACKING_ID` ≥ 0
/// starts a contact in that slot and −1 lifts it; `ABS_MT_POSITION_X`/`_Y` set the slot's position
/// (a slot keeps its last position, as the kernel only reports changes); `SYN_REPORT` ends a frame,
/// and every contact that started, moved or lifted in the frame becomes one sample at the frame's
/// time: lifts (`ended`, at the contact's last position) first, then starts (`began`) and moves
/// (`moved`), by slot. Everything else (`BTN_TOUCH`, `ABS_MT_PRESSURE`, `EV_MSC`, other devices'
/// keys …) is read for syntax and otherwise ignored; so filter the log to the touch screen's
/// device when several devices report `ABS_MT_*`. Events after the last `SYN_REPORT` are an
/// incomplete frame and are dropped; contacts still down at the end stay down.
/// Finger ids and placement: see `ImportPlacement` and the contact rules of the CSV importer
/// (lowest free id, relative motion from the first contact's start at `placement.origin`).
public enum GeteventLog {
    /// Converts the log into touch samples.
    ///
    /// - Parameters:
    ///   - text: the log.
    ///   - file: the name used in errors.
    ///   - placement: origin, device units → pt, axis swap and flips.
    /// - Returns: samples in log order, times in µs since the first contact started.
    /// - Throws: `TraceError` (`.invalid`) with the log line, the part at fault as `field`
    ///   (`timestamp`, `type`, `code`, `value`, or the event code such as `ABS_MT_POSITION_X`) and
    ///   what was expected; also for protocol A (`SYN_MT_REPORT`), `SYN_DROPPED`, a contact that
    ///   starts without any position, a log without any contact, and times going backwards or more
    ///   than 10⁸ s after the first contact (`timestamp`; the loader's bound).
    /// - Complexity: O(n) in the size of the text.
    public static func importTouches(text: String, file: String, placement: ImportPlacement) throws(TraceError)
        -> [TraceSample]
    {
        try placement.validate(file: file)
        var assembler = ContactAssembler(file: file, placement: placement)
        var slots: [Int: Slot] = [:]
        var currentSlot = 0
        var sawAnyEvent = false
        for (lineNumber, line) in numberedLines(text) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("add device") || trimmed.hasPrefix("name:") || trimmed.hasPrefix("could not") {
                continue
            }
            func fail(_ field: String, _ message: String) -> TraceError {
                TraceError(file: file, line: lineNumber, field: field, message: message)
            }
            let event = try parseLine(trimmed, fail: fail)
            sawAnyEvent = true
            switch (event.type, event.code) {
            case ("EV_ABS", "ABS_MT_SLOT"):
                let slot = try event.integer(fail)
                guard slot >= 0, slot < 1024 else {
                    throw fail(event.code, "expected a slot number in 0…1023, got \(slot)")
                }
                currentSlot = slot
            case ("EV_ABS", "ABS_MT_TRACKING_ID"):
                let id = try event.integer(fail)
                var s = slots[currentSlot] ?? Slot()
                if let active = s.trackingID, active != id {
                    s.lifts.append((active, s.x ?? 0, s.y ?? 0))  // a lift is only reported once its slot had a position
                    s.trackingID = nil
                    s.started = false
                }
                if id >= 0, s.trackingID == nil {
                    s.trackingID = id
                    s.started = true
                    s.startLine = lineNumber
                }
                slots[currentSlot] = s
            case ("EV_ABS", "ABS_MT_POSITION_X"), ("EV_ABS", "ABS_MT_POSITION_Y"):
                let value = Double(try event.integer(fail))
                var s = slots[currentSlot] ?? Slot()
                if event.code == "ABS_MT_POSITION_X" { s.x = value } else { s.y = value }
                s.moved = true
                slots[currentSlot] = s
            case ("EV_SYN", "SYN_REPORT"):
                for number in slots.keys.sorted() {
                    var s = slots[number]!
                    for lift in s.lifts {
                        if assembler.isDown(Int64(lift.id)) {
                            try assembler.add(
                                line: lineNumber, field: "ABS_MT_TRACKING_ID", timeField: "timestamp",
                                positionField: "ABS_MT_POSITION_X", micros: event.micros,
                                key: Int64(lift.id), phase: .up, x: lift.x, y: lift.y)
                        }
                    }
                    s.lifts = []
                    if let id = s.trackingID, s.started || s.moved {
                        guard let x = s.x, let y = s.y else {
                            throw fail(
                                "ABS_MT_POSITION_\(s.x == nil ? "X" : "Y")",
                                "contact \(id) in slot \(number) (started on line \(s.startLine)) has no \(s.x == nil ? "x" : "y") position by this SYN_REPORT (expected ABS_MT_POSITION_X and _Y)"
                            )
                        }
                        try assembler.add(
                            line: lineNumber, field: "SYN_REPORT", timeField: "timestamp",
                            positionField: "ABS_MT_POSITION_X", micros: event.micros, key: Int64(id),
                            phase: s.started ? .down : .move, x: x, y: y)
                    }
                    s.started = false
                    s.moved = false
                    slots[number] = s
                }
            case ("EV_SYN", "SYN_MT_REPORT"):
                throw fail(
                    event.code,
                    "multi-touch protocol A is not supported (expected protocol B: ABS_MT_SLOT and ABS_MT_TRACKING_ID)")
            case ("EV_SYN", "SYN_DROPPED"):
                throw fail(
                    event.code,
                    "the kernel dropped events here, so the log is incomplete (expected a log without SYN_DROPPED)")
            default:
                if event.type == "EV_ABS", event.code.hasPrefix("ABS_MT_") || event.code.hasPrefix("ABS_") {
                    _ = try event.integer(fail)
                }
            }
        }
        guard sawAnyEvent else {
            throw TraceError(
                file: file, line: 0, field: "",
                message:
                    "no events (expected lines like \"[   1234.567890] /dev/input/event2: EV_ABS ABS_MT_POSITION_X 0000021c\")"
            )
        }
        guard !assembler.samples.isEmpty else {
            throw TraceError(
                file: file, line: 0, field: "ABS_MT_TRACKING_ID",
                message: "no contact started (expected an ABS_MT_TRACKING_ID ≥ 0 followed by a SYN_REPORT)")
        }
        return assembler.samples
    }

    /// One slot of protocol B.
    struct Slot {
        var trackingID: Int?
        var x: Double?
        var y: Double?
        var started = false
        var moved = false
        var startLine = 0
        /// Contacts lifted (or replaced) in this frame: (tracking id, last x, last y).
        var lifts: [(id: Int, x: Double, y: Double)] = []
    }

    struct Event {
        var micros: Int64
        var type: String
        var code: String
        var value: Substring

        /// The value as a signed 32-bit number (hex, `ffffffff` = −1).
        func integer(_ fail: (String, String) -> TraceError) throws(TraceError) -> Int {
            guard (1...8).contains(value.count), let raw = UInt32(value, radix: 16) else {
                throw fail("value", "\(code): expected up to 8 hex digits, got \(quoted(String(value)))")
            }
            return Int(Int32(bitPattern: raw))
        }
    }

    static let types: [String: String] = ["0000": "EV_SYN", "0001": "EV_KEY", "0003": "EV_ABS", "0004": "EV_MSC"]
    static let absCodes: [String: String] = [
        "002f": "ABS_MT_SLOT", "0035": "ABS_MT_POSITION_X",
        "0036": "ABS_MT_POSITION_Y", "0039": "ABS_MT_TRACKING_ID",
    ]
    static let synCodes: [String: String] = ["0000": "SYN_REPORT", "0002": "SYN_MT_REPORT", "0003": "SYN_DROPPED"]

    static func parseLine(_ line: Substring, fail: (String, String) -> TraceError) throws(TraceError) -> Event {
        guard line.first == "[", let close = line.firstIndex(of: "]") else {
            throw fail(
                "timestamp",
                "expected a line starting with a timestamp \"[   SECONDS.MICROS]\" (getevent -lt), got \(quoted(String(line)))"
            )
        }
        let stamp = line[line.index(after: line.startIndex)..<close].trimmingSpaces
        let parts = stamp.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCIIDigit),
            (1...9).contains(parts[1].count), parts[1].allSatisfy(\.isASCIIDigit),
            let decimal = ExactDecimal(stamp), let micros = decimal.rounded(shiftingBy: 6)
        else {
            throw fail(
                "timestamp",
                "expected \"[ SECONDS.MICROS]\" with decimal digits, got \(quoted("[" + String(line[line.index(after: line.startIndex)..<close]) + "]"))"
            )
        }
        var tokens = line[line.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
        if let first = tokens.first, first.hasSuffix(":") { tokens.removeFirst() }
        guard tokens.count == 3 else {
            throw fail(
                "",
                "expected TYPE CODE VALUE after the timestamp (e.g. \"EV_ABS ABS_MT_POSITION_X 0000021c\"), got \(tokens.count) field\(tokens.count == 1 ? "" : "s")"
            )
        }
        var type = String(tokens[0])
        if let named = types[type.lowercased()] { type = named }
        guard type.hasPrefix("EV_") || (type.count == 4 && UInt16(type, radix: 16) != nil) else {
            throw fail(
                "type", "expected an event type such as EV_ABS, EV_SYN, EV_KEY or 4 hex digits, got \(quoted(type))")
        }
        var code = String(tokens[1])
        if type == "EV_ABS", let named = absCodes[code.lowercased()] { code = named }
        if type == "EV_SYN", let named = synCodes[code.lowercased()] { code = named }
        guard
            code.allSatisfy({ $0.isASCIIDigit || $0.isUppercaseASCIIWord })
                || (code.count == 4 && UInt16(code, radix: 16) != nil)
        else {
            throw fail("code", "expected an event code such as ABS_MT_POSITION_X or 4 hex digits, got \(quoted(code))")
        }
        return Event(micros: micros, type: type, code: code, value: tokens[2])
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    fileprivate var isUppercaseASCIIWord: Bool { ("A"..."Z").contains(self) || self == "_" }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}
