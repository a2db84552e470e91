/// Canonical number formatting for result and trace files.
///
/// Result files are compared byte for byte in review and across platforms, so numbers are never
/// printed with `JSONEncoder`, `String(format:)` or locale-dependent APIs. The digits come from the
/// standard library's own `Double.description`, which produces the *shortest* decimal that reads
/// back to the same `Double` and is implemented in Swift itself (identical on Linux and macOS).
/// This type only re-renders those digits in plain positional notation.
public enum CanonicalNumber {
    /// Formats a `Double` in the project's canonical form.
    ///
    /// Shape: `-?digits(.digits)?`: the shortest decimal that parses back (with `Double(String)`
    /// or any correct JSON parser) to exactly `value`, written without exponent notation, without
    /// a trailing `.0` for integral values, without leading zeros beyond a single `0` before the
    /// point, and with `-0.0` written as `0`.
    ///
    /// Examples: `100.0 → "100"`, `1e-7 → "0.0000001"`, `-0.0 → "0"`, `0.3 → "0.3"`,
    /// `333.6666666666667 → "333.6666666666667"`, `1e20 → "100000000000000000000"`.
    ///
    /// Non-finite values have no JSON spelling; they are written as `null`, which readers of
    /// result files map back to NaN (so a broken value is visible, never silently a number).
    ///
    /// - Complexity: O(d) where d is the number of characters of the result (at most ~330 for
    ///   values near `Double.greatestFiniteMagnitude` or the smallest subnormals).
    public static func format(_ value: Double) -> String {
        var out: [UInt8] = []
        append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `format(value)`'s UTF-8 bytes to `out` (the allocation-light form used by writers).
    ///
    /// Integral values below 2^53 in magnitude are written straight from their integer digits
    /// (the shortest round-trip decimal of such a value is that integer); every other value takes
    /// its digits from `Double.description`, as `format` documents.
    /// - Complexity: O(d), d the number of characters written.
    public static func append(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if value.magnitude <= 9_007_199_254_740_992, value == value.rounded(.towardZero) {
            let i = Int64(value)
            if i < 0 { out.append(UInt8(ascii: "-")) }
            appendDigits(i.magnitude, to: &out)
            return
        }
        // `Double.description`'s digits, straight from the standard library's formatter into a stack
        // buffer (no String: a description longer than 15 bytes would allocate).
        var sink = DescriptionBytes()
        value.write(to: &sink)
        sink.withBytes { description in
            // Without an exponent the description is already positional and canonical (shortest
            // digits, no trailing zero), so it is copied as it is. The only descriptions that end
            // in ".0" are integers up to 2^53 (the last one written positionally,
            // "9007199254740992.0"), and those were written above.
            if !description.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                out.append(contentsOf: description)
            } else {
                appendPositional(description: description, to: &out)
            }
        }
    }

    /// Appends the decimal digits of `v` (no sign, no padding).
    /// - Complexity: O(digits).
    public static func appendDigits(_ v: UInt64, to out: inout [UInt8]) {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        withUnsafeMutableBytes(of: &buffer) { raw in
            var n = v
            var k = raw.count
            repeat {
                k -= 1
                raw[k] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            } while n > 0
            out.append(contentsOf: raw[k...])
        }
    }

    /// Re-renders `Double.description` text ("[-]int[.frac][e(+|-)exp]") positionally.
    static func appendPositional(description: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var negative = false
        var mantissa: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: ≥ 17 digits
        var count = 0  // mantissa digits stored
        var integerDigits = 0  // digits before the '.' in the mantissa
        var sawPoint = false
        var exponent = 0
        var exponentNegative = false
        var inExponent = false
        withUnsafeMutableBytes(of: &mantissa) { m in
            for byte in description {
                switch byte {
                case UInt8(ascii: "-"):
                    if inExponent { exponentNegative = true } else { negative = true }
                case UInt8(ascii: "+"):
                    break
                case UInt8(ascii: "."):
                    sawPoint = true
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    inExponent = true
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if inExponent {
                        exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                    } else {
                        precondition(count < m.count, "Double.description has at most 17 significant digits")
                        m[count] = byte
                        count += 1
                        if !sawPoint { integerDigits += 1 }
                    }
                default:
                    // Not produced by `Double.description` for finite values.
                    preconditionFailure("unexpected character in Double.description")
                }
            }
            if exponentNegative { exponent = -exponent }

            // Position of the decimal point within the mantissa (number of digits before it).
            var point = integerDigits + exponent
            // Strip leading zeros (each one shifts the point left) and trailing zeros.
            var start = 0
            while start < count && m[start] == UInt8(ascii: "0") {
                start += 1
                point -= 1
            }
            var end = count
            while end > start && m[end - 1] == UInt8(ascii: "0") { end -= 1 }
            if start == end {
                out.append(UInt8(ascii: "0"))
                return
            }
            let digits = UnsafeRawBufferPointer(rebasing: m[start..<end])

            if negative { out.append(UInt8(ascii: "-")) }
            if point <= 0 {
                out.append(UInt8(ascii: "0"))
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point))
                out.append(contentsOf: digits)
            } else if point >= digits.count {
                out.append(contentsOf: digits)
                out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
            } else {
                out.append(contentsOf: digits[0..<point])
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits[point...])
            }
        }
    }

    /// Formats a time in whole microseconds as seconds with exactly six decimals.
    ///
    /// Shape: `-?int.dddddd`. Examples: `208333 → "0.208333"`, `1_000_000 → "1.000000"`,
    /// `0 → "0.000000"`, `-1 → "-0.000001"`. Exact for every `Int64`, including `Int64.min`.
    /// - Complexity: O(1).
    public static func formatSeconds(_ micros: Int64) -> String {
        var out: [UInt8] = []
        appendSeconds(micros, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `formatSeconds(micros)`'s UTF-8 bytes to `out`.
    /// - Complexity: O(1).
    public static func appendSeconds(_ micros: Int64, to out: inout [UInt8]) {
        // Written right to left into one stack buffer, then appended once.
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: sign, 13 + 1 + 6
        withUnsafeMutableBytes(of: &buffer) { raw in
            var n = micros.magnitude
            var k = raw.count
            for _ in 0..<6 {
                k -= 1
                raw[k] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            }
            k -= 1
            raw[k] = UInt8(ascii: ".")
            repeat {
                k -= 1
                raw[k] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            } while n > 0
            if micros < 0 {
                k -= 1
                raw[k] = UInt8(ascii: "-")
            }
            out.append(contentsOf: raw[k...])
        }
    }
}

/// Receives the characters of `Double.write(to:)` (the same as `Double.description`) into a
/// 32-byte stack buffer; the standard library hands floating-point text over as ASCII bytes.
struct DescriptionBytes: TextOutputStream {
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0
    /// Set when the text did not fit (never for a Double: at most 24 characters); then `text` holds it.
    private var text: String?

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard text == nil, count + buffer.count <= 32 else { return write(String(decoding: buffer, as: UTF8.self)) }
        withUnsafeMutableBytes(of: &storage) { raw in
            for (k, byte) in buffer.enumerated() { raw[count + k] = byte }
        }
        count += buffer.count
    }

    mutating func write(_ string: String) {
        var all = text ?? withUnsafeBytes(of: storage) { String(decoding: $0.prefix(count), as: UTF8.self) }
        all += string
        text = all
    }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if var text { return text.withUTF8(body) }
        return withUnsafeBytes(of: storage) { raw in
            body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[0..<count]))
        }
    }
}
