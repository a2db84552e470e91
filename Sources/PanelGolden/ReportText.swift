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
