import PanelTrace

/// Escaping for HTML and XML text and attribute values.
public enum Markup {
    /// `&`, `<`, `>`, `"` and `'` as entities; other characters unchanged, except C0 controls
    /// other than tab, newline and carriage return, which XML 1.0 forbids, as U+FFFD.
    /// - Complexity: O(length).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// Fixed-precision decimal formatting, independent of locale and platform.
public enum FixedNumber {
    /// `value` rounded half away from zero to `decimals` (0…9) digits after the point, e.g.
    /// `format(-1.005, decimals: 1) == "-1.0"` (binary value below the half), `format(2, decimals: 2)
    /// == "2.00"`; `"-0.00"` prints as `"0.00"`; non-finite values and |value| ≥ 1e15 fall back to
    /// `CanonicalNumber.format`.
    /// - Complexity: O(digits).
    public static func format(_ value: Double, decimals: Int) -> String {
        let d = max(0, min(9, decimals))
        var scale = 1.0
        for _ in 0..<d { scale *= 10 }
        guard value.isFinite, abs(value) < 1e15 else { return CanonicalNumber.format(value) }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return CanonicalNumber.format(value) }
        let n = Int64(scaled)
        var digits = String(n)
        if d > 0 {
            if digits.count <= d { digits = String(repeating: "0", count: d - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -d))
        }
        return (value < 0 && n != 0 ? "-" : "") + digits
    }
}

/// Numbers in reports rounded to what a tolerance can tell apart: values that differ by more
/// than the tolerance never print alike, values within it usually do.
public enum ReportNumber {
    private static let powers: [Double] = [1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9]

    /// The decimals d (0…9) of the largest 10^−d not above the tolerance's bound at `magnitude`
    /// (`max(absolute, relative · |magnitude|)`); nil for an exact or infinite tolerance (print
    /// every digit). Two numbers more than 10^−d apart round to different d-decimal texts.
    /// - Complexity: O(1).
    public static func decimals(for tolerance: Tolerance, magnitude: Double) -> Int? {
        let bound = max(tolerance.absolute, tolerance.relative * abs(magnitude))
        guard bound > 0, bound.isFinite else { return nil }
        var d = 0
        while d < 9 && powers[d] > bound { d += 1 }
        return d
    }

    /// `value` rounded for `tolerance` (canonical when it is exact), without trailing zeros:
    /// `format(336.58333333333337, tolerance: .absolute(1e-6)) == "336.583333"`.
    /// - Complexity: O(digits).
    public static func format(_ value: Double, tolerance: Tolerance, magnitude: Double? = nil) -> String {
        guard value.isFinite, let d = decimals(for: tolerance, magnitude: magnitude ?? value) else {
            return CanonicalNumber.format(value)
        }
        return trimmed(FixedNumber.format(value, decimals: d))
    }

    /// A signed difference rounded for `tolerance`: `+20`, `−0.5` (U+2212), `0`.
    /// - Complexity: O(digits).
    public static func signed(_ delta: Double, tolerance: Tolerance, magnitude: Double) -> String {
        let text = format(delta, tolerance: tolerance, magnitude: magnitude)
        if text.hasPrefix("-") { return "\u{2212}" + text.dropFirst() }
        return text == "0" || !delta.isFinite ? text : "+" + text
    }

    /// `text` without trailing zeros after a decimal point (and without the point when nothing
    /// is left after it); `-0` as `0`.
    static func trimmed(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: ".")) else { return text == "-0" ? "0" : text }
        var t = Substring(text)
        while t.hasSuffix("0") { t = t.dropLast() }
        if t.hasSuffix(".") { t = t.dropLast() }
        return t == "-0" ? "0" : String(t)
    }
}
