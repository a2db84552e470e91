/// Importing JSON-lines logs of W3C Pointer Events as trace samples.
import PanelSimCore

/// Importer for a log with one JSON object per line, using the W3C Pointer Events field names,
/// e.g. what `console.log(JSON.stringify({type: e.type, pointerId: e.pointerId, clientX: e.clientX,
/// clientY: e.clientY, timeStamp: e.timeStamp}))` prints for each event:
///
/// ```
/// {"type": "pointerdown", "pointerId": 1, "clientX": 195, "clientY": 700, "timeStamp": 1520.5}
/// ```
///
/// * Required: `type` (string), `pointerId` (integer), `timeStamp` (ms, a number ≥ 0; only
///   differences matter), and `clientX` / `clientY` (CSS px; optional on `pointercancel`, which
///   lands at the pointer's last position since browsers may report 0 there). Other keys
///   (`pointerType`, `pressure`, `buttons`, …) are ignored. Blank lines are skipped.
/// * `pointerdown` / `pointermove` / `pointerup` / `pointercancel` become `began` / `moved` /
///   `ended` / `cancelled`. The other pointer event types (`pointerover`, `pointerenter`,
///   `pointerout`, `pointerleave`, `gotpointercapture`, `lostpointercapture`, `pointerrawupdate`)
///   are skipped, and so is a `pointermove` of a pointer that is not down (a hovering mouse).
///   Any other `type` is an error.
/// * Finger ids and placement: see `ImportPlacement` (lowest free id per pointer that goes down;
///   motion relative to the first `pointerdown`, placed at `placement.origin`).
public enum PointerEventLog {
    static let handled = ["pointerdown", "pointermove", "pointerup", "pointercancel"]
    static let skipped = [
        "pointerover", "pointerenter", "pointerout", "pointerleave",
        "gotpointercapture", "lostpointercapture", "pointerrawupdate",
    ]

    /// Converts the log into touch samples.
    /// - Parameters:
    ///   - text: the log (UTF-8 JSON Lines).
    ///   - file: the name used in errors.
    ///   - placement: origin, CSS px → pt (1 by default on the command line), swap and flips.
    /// - Returns: samples in log order, times in µs since the first `pointerdown`.
    /// - Throws: `TraceError` (`.invalid`) with the line, the key at fault as `field` and what was
    ///   expected: invalid JSON (with its column), a missing or mistyped key, an unknown `type`, an
    ///   up or cancel of a pointer that is not down, a second down, times going backwards or more
    ///   than 10⁸ s after the first `pointerdown` (`timeStamp`; the loader's bound), a log
    ///   without any `pointerdown`.
    /// - Complexity: O(n) in the size of the text.
    public static func importTouches(text: String, file: String, placement: ImportPlacement) throws(TraceError)
        -> [TraceSample]
    {
        try placement.validate(file: file)
        var assembler = ContactAssembler(file: file, placement: placement)
        var lastPosition: [Int64: (x: Double, y: Double)] = [:]
        for (lineNumber, line) in numberedLines(text) {
            let value: JSONValue
            do {
                value = try JSON.parse(String(line))
            } catch {
                throw TraceError(
                    file: file, line: lineNumber, field: "",
                    message:
                        "invalid JSON at column \(error.column): \(error.message) (expected one pointer event object per line)"
                )
            }
            let r = FieldReader(file: file, line: lineNumber)
            let o = try r.object(value, "")
            let type = try r.string(try r.required(o, "type", "", "one of \(FieldReader.list(handled))"), "type")
            if skipped.contains(type) { continue }
            guard handled.contains(type) else {
                throw r.error(
                    "type",
                    "expected one of \(FieldReader.list(handled)) (or a skipped type: \(FieldReader.list(skipped))), got \(quoted(type))"
                )
            }
            let key = Int64(try r.integer(try r.required(o, "pointerId", "", "an integer"), "pointerId"))
            if type == "pointermove", !assembler.isDown(key) { continue }
            let stamp = try r.jsonNumber(try r.required(o, "timeStamp", "", "a time in ms (a number ≥ 0)"), "timeStamp")
            guard stamp.double >= 0, let decimal = ExactDecimal(stamp.text),
                let micros = decimal.rounded(shiftingBy: 3),
                micros <= Int64(1) << 60
            else {
                throw r.error("timeStamp", "expected a time in ms, a number ≥ 0 and < 10^15, got \(stamp.text)")
            }
            let x: Double
            let y: Double
            if type == "pointercancel", o["clientX"] == nil || o["clientY"] == nil, let last = lastPosition[key] {
                (x, y) = last
            } else {
                x = try r.number(try r.required(o, "clientX", "", "a number (CSS px)"), "clientX")
                y = try r.number(try r.required(o, "clientY", "", "a number (CSS px)"), "clientY")
            }
            let phase: ContactAssembler.Phase =
                type == "pointerdown" ? .down : type == "pointermove" ? .move : type == "pointerup" ? .up : .cancel
            try assembler.add(
                line: lineNumber, field: type == "pointerdown" ? "type" : "pointerId", timeField: "timeStamp",
                positionField: o["clientX"] == nil ? "type" : "clientX", micros: micros,
                key: key, phase: phase, x: x, y: y)
            lastPosition[key] = (x, y)
        }
        guard !assembler.samples.isEmpty else {
            throw TraceError(
                file: file, line: 0, field: "type", message: "no pointerdown (expected at least one pointer going down)"
            )
        }
        return assembler.samples
    }
}
