/// Errors of trace loading and importing, with the file position and the field at fault.

/// A trace (or importer input) that cannot be loaded.
///
/// `description` is one line, `<file>:<line>: <field>: <message>`. The `:<line>` part is left out
/// when `line` is 0 (the error is not about one line, e.g. an unreadable file) and the
/// `<field>: ` part when `field` is empty (e.g. a JSON syntax error, whose message gives the column).
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, so that callers can choose an exit code.
    public enum Kind: String, Sendable, Equatable {
        /// Malformed or inconsistent input (CLI exit code 2).
        case invalid
        /// Well-formed input that uses a feature this revision does not implement yet
        /// (the message says "not supported yet"; for `git bisect run`, exit code 125).
        case unsupported
        /// The file cannot be read.
        case io
    }

    /// The file as the caller named it.
    public var file: String
    /// 1-based line number in `file`; 0 when the error is not about one line.
    public var line: Int
    /// Dotted path of the offending field, e.g. `panel.anchors.full.edge`, `touch`, `velocity.x`,
    /// `panel.states[1].name`; a CSV column name for importers; empty when no field applies.
    public var field: String
    /// What was expected and what was found.
    public var message: String
    public var kind: Kind

    public init(file: String, line: Int, field: String, message: String, kind: Kind = .invalid) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
        self.kind = kind
    }

    public var description: String {
        var s = file
        if line > 0 { s += ":\(line)" }
        s += ": "
        if !field.isEmpty { s += field + ": " }
        s += message
        return oneLine(s)
    }
}

/// Replaces line breaks so that a message stays on one line.
package func oneLine(_ s: String) -> String {
    guard s.contains(where: { $0.isNewline }) else { return s }
    var out = ""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": out += " "
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// `text` in double quotes with control characters escaped, shortened past 60 characters.
func quoted(_ text: String) -> String {
    var out = "\""
    var count = 0
    for scalar in text.unicodeScalars {
        if count == 60 {
            out += "…"
            break
        }
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}"
                || scalar == "\u{85}"
            {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        count += 1
    }
    return out + "\""
}
