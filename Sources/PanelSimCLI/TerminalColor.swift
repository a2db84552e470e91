import Foundation

/// ANSI colour for the text `check` and `diff` print, in the reports' colour scheme: golden
/// values and lines grey, actual ones blue, failures and differences red, passes green, notes and
/// warnings yellow. Applied only when printing (the lines kept for JUnit, summaries and tests stay
/// plain).
///
/// `--color auto` (the default) colours when standard output is a terminal (`isatty(1)`) and
/// `NO_COLOR` is unset or empty (no-color.org); `always` colours whatever the output and
/// `NO_COLOR` (a command-line flag wins over the environment, as no-color.org asks); `never`
/// does not colour.
struct TerminalColor {
    enum Choice: String, CaseIterable { case auto, always, never }

    /// Whether lines are coloured.
    var enabled: Bool

    static let option = OptionSpec(
        names: ["--color"], valueName: "WHEN",
        help: "auto (default: when standard output is a terminal and\n$NO_COLOR is unset or empty), always or never.")

    /// `--color`'s value as parsed (nil: auto).
    /// - Throws: a usage error naming the option for a value other than auto, always or never.
    static func choice(_ value: String?, command: String) throws(UsageError) -> Choice {
        guard let choice = Choice(rawValue: value ?? "auto") else {
            throw UsageError("--color must be auto, always or never, got '\(value ?? "")'", command: command)
        }
        return choice
    }

    /// The setting for `choice`, the environment and where standard output goes.
    static func resolve(_ choice: Choice, environment: [String: String], stdout: OutputSink) -> TerminalColor {
        switch choice {
        case .always: return TerminalColor(enabled: true)
        case .never: return TerminalColor(enabled: false)
        case .auto:
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            return TerminalColor(enabled: !noColor && ((stdout as? FileHandleSink)?.isTerminal ?? false))
        }
    }

    static let reset = "\u{1B}[0m"
    static let golden = "\u{1B}[90m"
    static let actual = "\u{1B}[34m"
    static let failure = "\u{1B}[1;31m"
    static let success = "\u{1B}[32m"
    static let notice = "\u{1B}[33m"
    static let bold = "\u{1B}[1m"

    /// `text` (one output line) coloured by what it is: the status word of a trace's line, a
    /// note or warning, the first divergence, expected (golden) and actual values, context and
    /// event-diff lines of either side, the summary line. Unchanged when colour is off.
    func line(_ text: String) -> String {
        guard enabled else { return text }
        let body = text.drop { $0 == " " }
        let indent = String(text.prefix(text.count - body.count))
        func paint(_ code: String) -> String { indent + code + body + Self.reset }
        func word(_ code: String) -> String? {
            for status in ["FAIL", "MISSING", "ERROR", "PASS", "NEW", "UPDATED", "SKIP", "DIFFERENT", "SAME"]
            where body.hasPrefix(status + " ") || body == status {
                return indent + code + status + Self.reset + body.dropFirst(status.count)
            }
            return nil
        }
        if indent.isEmpty {
            if body.hasPrefix("FAIL") || body.hasPrefix("MISSING") || body.hasPrefix("ERROR")
                || body.hasPrefix("DIFFERENT")
            {
                return word(Self.failure) ?? text
            }
            if body.hasPrefix("PASS") || body.hasPrefix("NEW") || body.hasPrefix("UPDATED") || body.hasPrefix("SAME") {
                return word(Self.success) ?? text
            }
            if body.hasPrefix("SKIP") { return word(Self.notice) ?? text }
            if let first = body.first, first.isNumber, body.contains(" passed, ") {
                let clean =
                    body.contains(" passed, 0 failed") && !body.contains("error") && !body.contains("unreferenced")
                    && !body.contains("no traces")
                return paint(clean ? Self.success : Self.failure)
            }
        }
        if body.hasPrefix("note:") || body.hasPrefix("warning:") { return paint(Self.notice) }
        if body.hasPrefix("error:") { return paint(Self.failure) }
        if body.hasPrefix("first divergence") || body.hasPrefix("header differs") { return paint(Self.bold) }
        if body.hasPrefix("expected:") || body.hasPrefix("- ") || body.hasPrefix("--- ") { return paint(Self.golden) }
        if body.hasPrefix("actual:") || body.hasPrefix("+ ") || body.hasPrefix("+++ ") { return paint(Self.actual) }
        // Event diff lines: "-0.500000 name" (golden), "+0.500000 name" (actual).
        if body.count > 1, let second = body.dropFirst().first, second.isNumber {
            if body.hasPrefix("-") { return paint(Self.golden) }
            if body.hasPrefix("+") { return paint(Self.actual) }
        }
        return text
    }
}

extension FileHandleSink {
    /// Whether the handle is a terminal (`isatty`).
    var isTerminal: Bool { isatty(handle.fileDescriptor) != 0 }
}

/// Standard output with each line coloured by `TerminalColor.line`.
final class ColoredSink {
    let sink: OutputSink
    let color: TerminalColor
    init(_ sink: OutputSink, _ color: TerminalColor) {
        self.sink = sink
        self.color = color
    }
    /// Writes `text` coloured, and a newline.
    func line(_ text: String) { sink.write(color.line(text) + "\n") }
}
