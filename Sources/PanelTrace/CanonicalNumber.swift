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
        guard value.isFinite else { return "null" }
        if value == 0 { return "0" }

        // `description` is "[-]int[.frac][e(+|-)exp]", e.g. "100.0", "1e-07", "1.5e+20", "5e-324".
        var negative = false
        var mantissa: [UInt8] = []          // all mantissa digits, ASCII
        var integerDigits = 0                // digits before the '.' in the mantissa
        var sawPoint = false
        var exponent = 0
        var exponentNegative = false
        var inExponent = false
        for byte in value.description.utf8 {
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
                    mantissa.append(byte)
                    if !sawPoint { integerDigits += 1 }
                }
            default:
                // Not produced by `Double.description` for finite values.
                preconditionFailure("unexpected character in Double.description")
            }
        }
        if exponentNegative { exponent = -exponent }

        // Position of the decimal point within `mantissa` (number of digits before it).
        var point = integerDigits + exponent
        // Strip leading zeros (each one shifts the point left) and trailing zeros.
        var start = 0
        while start < mantissa.count && mantissa[start] == UInt8(ascii: "0") {
            start += 1
            point -= 1
        }
        var end = mantissa.count
        while end > start && mantissa[end - 1] == UInt8(ascii: "0") { end -= 1 }
        if start == end { return "0" }
        let digits = mantissa[start..<end]

        var out: [UInt8] = []
        out.reserveCapacity(digits.count + abs(point) + 3)
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
            let split = digits.startIndex + point
            out.append(contentsOf: digits[digits.startIndex..<split])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[split...])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Formats a time in whole microseconds as seconds with exactly six decimals.
    ///
    /// Shape: `-?int.dddddd`. Examples: `208333 → "0.208333"`, `1_000_000 → "1.000000"`,
    /// `0 → "0.000000"`, `-1 → "-0.000001"`. Exact for every `Int64`, including `Int64.min`.
    /// - Complexity: O(1).
    public static func formatSeconds(_ micros: Int64) -> String {
        let magnitude = micros.magnitude
        let whole = magnitude / 1_000_000
        let fraction = String(magnitude % 1_000_000)
        let padding = String(repeating: "0", count: 6 - fraction.count)
        return (micros < 0 ? "-" : "") + String(whole) + "." + padding + fraction
    }
}
