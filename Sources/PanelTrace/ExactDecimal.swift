/// Exact decimal arithmetic on a number's source text, for conversions that must not go through
/// `Double` (trace seconds → µs, CSV milliseconds → µs, integer fields).

/// A decimal number exactly as written: sign, significant digits and a power-of-ten exponent.
///
/// value = (negative ? −1 : 1) × digits × 10^exponent, with `digits` free of leading and trailing
/// zeros (empty for zero). The exponent saturates at ±2·10⁹, far beyond anything that converts.
public struct ExactDecimal: Sendable, Equatable {
    public var negative: Bool
    /// Significant decimal digits, each 0…9, most significant first.
    public var digits: [UInt8]
    public var exponent: Int

    private static let exponentLimit = 2_000_000_000

    /// Parses text in the JSON number grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    /// Returns nil for anything else (including empty text, `+1`, `.5`, `1.`, `NaN`).
    /// - Complexity: O(length of text).
    public init?(_ text: some StringProtocol) {
        let b = Array(text.utf8)
        var i = 0
        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }
        var negative = false
        if i < b.count, b[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard isDigit(i) else { return nil }
        var all: [UInt8] = []
        var fractionCount = 0
        if b[i] == 0x30 {
            all.append(0)
            i += 1
            if isDigit(i) { return nil }
        } else {
            while isDigit(i) {
                all.append(b[i] - 0x30)
                i += 1
            }
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return nil }
            while isDigit(i) {
                all.append(b[i] - 0x30)
                fractionCount += 1
                i += 1
            }
        }
        var exp = 0
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                expNegative = b[i] == UInt8(ascii: "-")
                i += 1
            }
            guard isDigit(i) else { return nil }
            while isDigit(i) {
                if exp < ExactDecimal.exponentLimit { exp = exp * 10 + Int(b[i] - 0x30) }
                i += 1
            }
            if expNegative { exp = -exp }
        }
        guard i == b.count else { return nil }
        // Strip leading zeros (exponent unchanged) and trailing zeros (exponent grows).
        var first = 0
        while first < all.count, all[first] == 0 { first += 1 }
        var last = all.count
        while last > first, all[last - 1] == 0 { last -= 1 }
        let trailing = all.count - last
        self.negative = negative
        self.digits = Array(all[first..<last])
        self.exponent = ExactDecimal.clamp(exp - fractionCount + trailing)
        if digits.isEmpty { self.exponent = 0 }
    }

    private static func clamp(_ e: Int) -> Int { min(max(e, -exponentLimit), exponentLimit) }

    public var isZero: Bool { digits.isEmpty }

    /// True when the value is a whole number.
    public var isInteger: Bool { digits.isEmpty || exponent >= 0 }

    /// round(value × 10^shift), half away from zero; nil when the result does not fit in Int64.
    ///
    /// Example: "0.0000005" with shift 6 → 1; "2.5e-1" with shift 6 → 250000; "-1.5" with shift 0 → −2.
    /// - Complexity: O(digits).
    public func rounded(shiftingBy shift: Int) -> Int64? {
        if digits.isEmpty { return 0 }
        let e = ExactDecimal.clamp(exponent + max(min(shift, ExactDecimal.exponentLimit), -ExactDecimal.exponentLimit))
        var magnitude: Int64 = 0
        func push(_ d: UInt8) -> Bool {
            let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
            if o1 { return false }
            let (s, o2) = m.addingReportingOverflow(Int64(d))
            if o2 { return false }
            magnitude = s
            return true
        }
        if e >= 0 {
            if digits.count + e > 19 { return nil }
            for d in digits { guard push(d) else { return nil } }
            for _ in 0..<e { guard push(0) else { return nil } }
        } else {
            let keep = digits.count + e  // number of digits before the decimal point
            if keep < 0 {
                magnitude = 0
            } else {
                if keep > 19 { return nil }
                for d in digits[0..<keep] { guard push(d) else { return nil } }
                if digits[keep] >= 5 {
                    let (s, o) = magnitude.addingReportingOverflow(1)
                    if o { return nil }
                    magnitude = s
                }
            }
        }
        return negative ? -magnitude : magnitude
    }

    /// The value as an Int when it is a whole number that fits; nil otherwise.
    public var integerValue: Int? {
        guard isInteger, let v = rounded(shiftingBy: 0) else { return nil }
        return Int(exactly: v)
    }
}
