/// JSON values as the trace and result formats need them: a strict RFC 8259 parser for one line
/// of text that keeps object key order and each number's exact source text.

/// A JSON number: its exact source text (for exact decimal conversions such as seconds → µs) and its
/// nearest Double.
///
/// `double` is what `Double(text)` gives: a number too large for a Double (e.g. `1e999`) is kept as
/// ±infinity here, and callers that need a finite value must check it (the trace loader does).
public struct JSONNumber: Sendable, Equatable {
    public var text: String
    public var double: Double
    public init(text: String, double: Double) {
        self.text = text
        self.double = double
    }
}

/// A JSON object that keeps its keys in source order.
///
/// Keys are unique: the parser rejects duplicate keys. Lookup by `subscript` is a linear scan,
/// O(number of keys), which is what the small objects of trace files need.
public struct JSONObject: Sendable, Equatable {
    public var entries: [(key: String, value: JSONValue)]
    public init(_ entries: [(key: String, value: JSONValue)] = []) { self.entries = entries }
    public subscript(key: String) -> JSONValue? { entries.first { $0.key == key }?.value }
    public var keys: [String] { entries.map(\.key) }
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A parsed JSON value.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A syntax error: 1-based column within the parsed text, and what was expected.
///
/// The column counts Unicode scalars (UTF-8 lead bytes), so for ASCII text it is the byte column.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    /// 1-based column (in characters) of the offending character.
    public var column: Int
    public var message: String
    /// Where in the document the error is: the keys and array indices of the values being parsed
    /// (`velocity.y`, `detents[1].height`); empty at the top level.
    public var path: String
    public init(column: Int, message: String, path: String = "") {
        self.column = column
        self.message = message
        self.path = path
    }

    /// The error inside the value of `key` (an object member) or at `[index]` (an array element).
    func within(_ component: String) -> JSONSyntaxError {
        var e = self
        e.path = path.isEmpty ? component : component + (path.hasPrefix("[") ? "" : ".") + path
        return e
    }
}

public enum JSON {
    /// A JSON string literal for `text` (RFC 8259 §7): `"` and `\` escaped, control characters as
    /// `\n`, `\r`, `\t`, `\b`, `\f` or `\u00xx`; everything else, non-ASCII included, as UTF-8.
    /// The one string writer of the trace and result formats.
    public static func quote(_ text: String) -> String {
        if needsNoEscaping(text) { return "\"" + text + "\"" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `quote(text)` appended to `out` as UTF-8, without building a String when nothing needs escaping.
    /// - Complexity: O(length).
    public static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        // One pass over contiguous UTF-8 (a small string is copied to the stack for it); the
        // String's UTF8View would take the generic index path for every byte.
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            for byte in utf8 where !isCopiedAsIs(byte) { return false }
            out.append(0x22)
            out.append(contentsOf: utf8)
            out.append(0x22)
            return true
        }
        if !copied { out.append(contentsOf: quote(text).utf8) }
    }

    /// True when `quote` copies `text` unchanged between its quotes.
    @inline(__always)
    static func needsNoEscaping(_ text: String) -> Bool { text.utf8.allSatisfy(isCopiedAsIs) }

    /// True for a UTF-8 byte `quote` copies as it is: not a control character, quote or backslash
    /// (bytes ≥ 0x80 belong to non-ASCII scalars, which are copied as they are).
    @inline(__always)
    static func isCopiedAsIs(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x22 && byte != 0x5C }

    /// Deepest nesting of arrays and objects the parser accepts; one more level is an error.
    public static let maxDepth = 64

    /// Parses one JSON text (one line of a JSON Lines file).
    ///
    /// Strict RFC 8259: exactly one value surrounded by optional whitespace (space, tab, LF, CR);
    /// no comments, trailing commas, leading zeros, `NaN`/`Infinity`, single quotes or unescaped
    /// control characters; `\u` escapes must form valid scalars (no lone surrogates). Duplicate
    /// object keys and nesting deeper than ``maxDepth`` are errors. Never traps on any input.
    /// - Throws: `JSONSyntaxError` with the 1-based column of the offending character and what was
    ///   expected there.
    /// - Complexity: O(n) in the length of `text` (plus O(k²) string compares for an object of k keys).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(utf8: Array(text.utf8))
    }

    /// Parses one JSON text given as UTF-8 bytes; invalid UTF-8 inside strings is an error, and any
    /// other non-ASCII byte outside a string is an unexpected character.
    /// - Throws: `JSONSyntaxError`, as ``parse(_:)``.
    /// - Complexity: O(n) in the number of bytes.
    public static func parse(utf8 bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }
}

// MARK: - Parser

private struct JSONParser {
    let b: [UInt8]
    var i = 0
    var depth = 0

    init(bytes: [UInt8]) { b = bytes }

    // MARK: Errors

    func column(at offset: Int) -> Int {
        var col = 1
        var k = 0
        let end = min(offset, b.count)
        while k < end {
            if b[k] & 0xC0 != 0x80 { col += 1 }
            k += 1
        }
        return col
    }

    /// A short description of what is at `offset`.
    func found(at offset: Int) -> String {
        guard offset < b.count else { return "end of input" }
        let c = b[offset]
        switch c {
        case 0x22: return "'\"'"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x0A, 0x0D: return "a line break"
        case 0x00..<0x20, 0x7F: return "control character \(hexScalar(UInt32(c)))"
        default:
            if let (scalar, _) = decodeScalar(at: offset) {
                return "'\(Character(scalar))' (\(hexScalar(scalar.value)))"
            }
            return "invalid UTF-8 byte 0x\(hex2(c))"
        }
    }

    func fail(_ expected: String, at offset: Int? = nil) -> JSONSyntaxError {
        let at = offset ?? i
        return JSONSyntaxError(column: column(at: at), message: "expected \(expected), found \(found(at: at))")
    }

    func failPlain(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(column: column(at: offset), message: message)
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if i < b.count { throw fail("end of input after the JSON value") }
        return value
    }

    mutating func skipWhitespace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard i < b.count else { throw fail("a JSON value") }
        switch b[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            if let word = nonNumber(at: i) { throw notANumber(word, at: i) }
            throw fail("a JSON value (object, array, string, number, true, false or null)")
        }
    }

    /// `NaN`, `Infinity` or `-Infinity` (which other encoders write for non-finite numbers) at `offset`.
    func nonNumber(at offset: Int) -> String? {
        for word in ["NaN", "Infinity", "-Infinity"] {
            let w = Array(word.utf8)
            if offset + w.count <= b.count, b[offset..<(offset + w.count)].elementsEqual(w) { return word }
        }
        return nil
    }

    func notANumber(_ word: String, at offset: Int) -> JSONSyntaxError {
        failPlain("\(word) is not a JSON number (JSON has no NaN or Infinity; expected a finite number)", at: offset)
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let start = i
        let expected = Array(word.utf8)
        for (k, byte) in expected.enumerated() {
            guard i + k < b.count, b[i + k] == byte else { throw fail("'\(word)'", at: start) }
        }
        i += expected.count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSON.maxDepth {
            throw failPlain(
                "nesting deeper than \(JSON.maxDepth) levels (expected at most \(JSON.maxDepth) nested arrays/objects)",
                at: i)
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        i += 1  // {
        var entries: [(key: String, value: JSONValue)] = []
        // Duplicate keys: a linear scan for the small objects of trace lines, a set beyond 16 keys.
        var seen: Set<String>?
        skipWhitespace()
        if i < b.count, b[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return .object(JSONObject(entries))
        }
        while true {
            skipWhitespace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else {
                throw fail(entries.isEmpty ? "a string key or '}'" : "a string key after ','")
            }
            let keyStart = i
            let key = try parseString()
            let duplicate: Bool
            if seen == nil && entries.count < 16 {
                duplicate = entries.contains { $0.key == key }
            } else {
                if seen == nil { seen = Set(entries.map(\.key)) }
                duplicate = !seen!.insert(key).inserted
            }
            if duplicate {
                throw failPlain("duplicate key \"\(key)\" (expected each key at most once per object)", at: keyStart)
            }
            skipWhitespace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("':' after key \"\(key)\"") }
            i += 1
            skipWhitespace()
            let value: JSONValue
            do { value = try parseValue() } catch { throw error.within(key) }
            entries.append((key: key, value: value))
            skipWhitespace()
            guard i < b.count else { throw fail("',' or '}' after the value of \"\(key)\"") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "}") {
                i += 1
                break
            }
            throw fail("',' or '}' after the value of \"\(key)\"")
        }
        depth -= 1
        return .object(JSONObject(entries))
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        i += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if i < b.count, b[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            do { items.append(try parseValue()) } catch { throw error.within("[\(items.count)]") }
            skipWhitespace()
            guard i < b.count else { throw fail("',' or ']' after an array element") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "]") {
                i += 1
                break
            }
            throw fail("',' or ']' after an array element")
        }
        depth -= 1
        return .array(items)
    }

    // MARK: Strings

    /// Parses a string starting at the opening quote.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        i += 1  // opening quote
        // Fast path: printable ASCII without escapes is copied straight from the input.
        var j = i
        while j < b.count, b[j] >= 0x20, b[j] < 0x80, b[j] != UInt8(ascii: "\""), b[j] != UInt8(ascii: "\\") { j += 1 }
        if j < b.count, b[j] == UInt8(ascii: "\"") {
            let s = String(decoding: b[i..<j], as: UTF8.self)
            i = j + 1
            return s
        }
        var out: [UInt8] = Array(b[i..<j])
        i = j
        while true {
            guard i < b.count else { throw fail("'\"' to close the string") }
            let c = b[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0x00..<0x20:
                throw fail(
                    "'\"' or a character other than a control character in the string (escape it, e.g. \\n or \\u00XX)")
            case 0x80...0xFF:
                guard let (_, length) = decodeScalar(at: i) else {
                    throw failPlain("invalid UTF-8 byte 0x\(hex2(c)) in a string (expected UTF-8 encoded text)", at: i)
                }
                out.append(contentsOf: b[i..<(i + length)])
                i += length
            default:
                out.append(c)
                i += 1
            }
        }
    }

    mutating func parseEscape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let start = i
        i += 1  // backslash
        guard i < b.count else { throw fail("an escape character after '\\'") }
        let c = b[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hex4()
            var value = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard i + 1 < b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                    throw failPlain(
                        "lone surrogate \\u\(hex4String(unit)) (expected a \\uDC00–\\uDFFF low surrogate to follow)",
                        at: start)
                }
                i += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failPlain(
                        "lone surrogate \\u\(hex4String(unit)) (expected a \\uDC00–\\uDFFF low surrogate to follow, found \\u\(hex4String(low)))",
                        at: start)
                }
                value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw failPlain(
                    "lone surrogate \\u\(hex4String(unit)) (expected a high surrogate \\uD800–\\uDBFF before it)",
                    at: start)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw failPlain("invalid escape \\u\(hex4String(unit))", at: start)
            }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw fail("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", at: start)
        }
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt16 {
        var v: UInt16 = 0
        for _ in 0..<4 {
            guard i < b.count else { throw fail("4 hexadecimal digits after \\u") }
            let c = b[i]
            let d: UInt16
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt16(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt16(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt16(c - UInt8(ascii: "A") + 10)
            default: throw fail("4 hexadecimal digits after \\u")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = i
        // The digits as an integer mantissa and a power of ten, for `ExactDouble` (exact is false
        // once the mantissa no longer fits; then `Double(text)` decides).
        var mantissa: UInt64 = 0
        var exponent = 0
        var exact = true
        @inline(__always) func push(_ c: UInt8) {
            if mantissa <= (UInt64.max - 9) / 10 { mantissa = mantissa * 10 + UInt64(c &- 0x30) } else { exact = false }
        }
        var negative = false
        if b[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < b.count, isDigit(b[i]) else {
            if negative, let word = nonNumber(at: start) { throw notANumber(word, at: start) }
            throw fail("a digit after '-'")
        }
        if b[i] == UInt8(ascii: "0") {
            i += 1
            if i < b.count, isDigit(b[i]) {
                throw failPlain(
                    "leading zeros are not allowed in numbers (expected '.', 'e' or the end of the number after 0)",
                    at: i)
            }
        } else {
            while i < b.count, isDigit(b[i]) {
                push(b[i])
                i += 1
            }
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < b.count, isDigit(b[i]) else { throw fail("a digit after the decimal point") }
            while i < b.count, isDigit(b[i]) {
                push(b[i])
                exponent -= 1
                i += 1
            }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                expNegative = b[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < b.count, isDigit(b[i]) else { throw fail("a digit in the exponent") }
            var e = 0
            while i < b.count, isDigit(b[i]) {
                if e < 100_000 { e = e * 10 + Int(b[i] &- 0x30) } else { exact = false }
                i += 1
            }
            exponent += expNegative ? -e : e
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        // The grammar above is a subset of what Double(_:) accepts, so this never fails; overflow
        // gives ±infinity, underflow ±0. `ExactDouble` gives the same bits without strtod when it
        // applies.
        let fast = exact ? ExactDouble.value(negative: negative, mantissa: mantissa, exponent: exponent) : nil
        let double = fast ?? Double(text) ?? .nan
        return JSONNumber(text: text, double: double)
    }

    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    // MARK: UTF-8

    /// Decodes one well-formed UTF-8 scalar at `offset` (rejecting overlong forms, surrogates and
    /// values above U+10FFFF); nil when the bytes there are not well-formed.
    func decodeScalar(at offset: Int) -> (Unicode.Scalar, Int)? {
        UTF8Validation.decode(b, at: offset)
    }
}

/// Decimal → Double without `strtod` where one IEEE operation is exact: for an integer mantissa
/// m ≤ 2⁵³ and a power of ten e with |e| ≤ 22, m and 10^|e| are both exact doubles, so m × 10^e
/// (or m / 10^−e) is a single correctly rounded operation, bit for bit what the correctly rounded
/// `Double(String)` gives (Clinger, "How to read floating point numbers accurately", PLDI 1990).
enum ExactDouble {
    /// 10⁰ … 10²², each exactly representable.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// (−1)^negative × mantissa × 10^exponent correctly rounded, or nil when the exact fast
    /// conversion does not apply (the caller then uses `Double(text)`). Zero keeps its sign.
    /// - Complexity: O(1).
    @inline(__always)
    static func value(negative: Bool, mantissa: UInt64, exponent: Int) -> Double? {
        var value: Double
        if mantissa == 0 {
            value = 0
        } else {
            guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
            value = Double(mantissa)
            if exponent >= 0 { value *= powersOfTen[exponent] } else { value /= powersOfTen[-exponent] }
        }
        return negative ? -value : value
    }
}

/// UTF-8 well-formedness (Unicode 15 table 3-7), shared by the JSON parser and the trace loader.
enum UTF8Validation {
    /// Decodes the scalar at `offset`; nil when the sequence there is ill-formed or truncated.
    /// `b` is any zero-based byte collection (an array, or a buffer of the loader's file).
    static func decode<Bytes: RandomAccessCollection>(_ b: Bytes, at offset: Int) -> (Unicode.Scalar, Int)?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard offset < b.count else { return nil }
        let c0 = b[offset]
        func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> UInt32? {
            let j = offset + k
            guard j < b.count, b[j] >= lo, b[j] <= hi else { return nil }
            return UInt32(b[j] & 0x3F)
        }
        var value: UInt32
        var length: Int
        switch c0 {
        case 0x00...0x7F:
            value = UInt32(c0)
            length = 1
        case 0xC2...0xDF:
            guard let c1 = cont(1) else { return nil }
            value = (UInt32(c0 & 0x1F) << 6) | c1
            length = 2
        case 0xE0...0xEF:
            let lo: UInt8 = c0 == 0xE0 ? 0xA0 : 0x80
            let hi: UInt8 = c0 == 0xED ? 0x9F : 0xBF
            guard let c1 = cont(1, lo, hi), let c2 = cont(2) else { return nil }
            value = (UInt32(c0 & 0x0F) << 12) | (c1 << 6) | c2
            length = 3
        case 0xF0...0xF4:
            let lo: UInt8 = c0 == 0xF0 ? 0x90 : 0x80
            let hi: UInt8 = c0 == 0xF4 ? 0x8F : 0xBF
            guard let c1 = cont(1, lo, hi), let c2 = cont(2), let c3 = cont(3) else { return nil }
            value = (UInt32(c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3
            length = 4
        default:
            return nil
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The byte offset of the first ill-formed sequence, or nil when all of `b` is well-formed UTF-8.
    /// - Complexity: O(n).
    static func firstInvalidOffset(_ b: [UInt8]) -> Int? {
        b.withUnsafeBufferPointer { firstInvalidOffset($0) }
    }

    /// The byte offset of the first ill-formed sequence in `b`, or nil when all of it is well-formed
    /// UTF-8. Runs of ASCII are skipped eight bytes per step (one 64-bit load and mask).
    /// - Complexity: O(n).
    static func firstInvalidOffset(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = b.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let n = b.count
        var k = 0
        while k < n {
            while k + 8 <= n, raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                k += 8
            }
            guard k < n else { break }
            if b[k] < 0x80 {
                k += 1
                continue
            }
            guard let (_, length) = decode(b, at: k) else { return k }
            k += length
        }
        return nil
    }
}

private func hex2(_ c: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(c >> 4)], digits[Int(c & 0x0F)]])
}

private func hex4String(_ v: UInt16) -> String { hex2(UInt8(v >> 8)) + hex2(UInt8(v & 0xFF)) }

private func hexScalar(_ v: UInt32) -> String {
    var s = String(v, radix: 16, uppercase: true)
    while s.count < 4 { s = "0" + s }
    return "U+" + s
}
