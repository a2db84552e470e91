/// Canonical number formatting for result and trace files. STUB: API fixed, body to be written.
public enum CanonicalNumber {
    /// Formats a finite Double in the project's canonical form (see implementation doc).
    public static func format(_ value: Double) -> String { "\(value)" }
    /// Formats µs as seconds with exactly six decimals, e.g. 208333 → "0.208333".
    public static func formatSeconds(_ micros: Int64) -> String { "\(micros)" }
}
