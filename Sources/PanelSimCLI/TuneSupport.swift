import Foundation
import PanelSimCore
import PanelTrace

/// Command-line pieces shared by `fidelity`, `tune`, `sweep` and `observe`.
enum TuneCLI {
    static let paramOption = OptionSpec(names: ["--param"], valueName: "NAME=A...B", help: "", repeatable: true)
    static let jobsOption = OptionSpec(
        names: ["-j", "--jobs"], valueName: "N",
        help: "Worker threads (default: the active processor count).\nAnswers do not depend on it.")
    static let toleranceOption = OptionSpec(
        names: ["--settle-tolerance"], valueName: "PT",
        help: "Settled = within PT of the final location (default 1).")
    static let parameterNames = TunableParameter.allCases.map(\.rawValue).joined(separator: ", ")

    /// `--jobs` (≥ 1; default the active processor count).
    static func jobs(_ parsed: ParsedArguments, command: String) throws(UsageError) -> Int {
        guard let text = parsed.values["-j"] else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        guard let n = Int(text), n >= 1, n <= 1024 else {
            throw UsageError("--jobs must be an integer in 1…1024, got '\(text)'", command: command)
        }
        return n
    }

    /// `--settle-tolerance` (> 0 pt; default 1).
    static func tolerance(_ parsed: ParsedArguments, command: String) throws(UsageError) -> Double {
        guard let text = parsed.values["--settle-tolerance"] else { return Fidelity.defaultSettleTolerance }
        guard let v = Double(text), v.isFinite, v > 0 else {
            throw UsageError("--settle-tolerance must be a positive number of points, got '\(text)'", command: command)
        }
        return v
    }

    /// Every `--param`, parsed; each parameter at most once.
    static func ranges(_ parsed: ParsedArguments, command: String) throws(UsageError) -> [ParameterRange] {
        var out: [ParameterRange] = []
        for text in parsed.repeated["--param"] ?? [] {
            switch ParameterRange.parse(text) {
            case .success(let r):
                if out.contains(where: { $0.parameter == r.parameter }) {
                    throw UsageError("parameter '\(r.parameter.rawValue)' given twice", command: command)
                }
                out.append(r)
            case .failure(let e):
                throw UsageError(e.message, command: command)
            }
        }
        return out
    }

    /// Loads every trace (errors on standard error); nil with the exit code on the first failure.
    /// `parameters`: what `command` (`tune`, `sweep`, `observe`) will set; a trace of another panel
    /// system than a parameter's (`TunableParameter.model`) is refused (exit 2) instead of being
    /// replayed unchanged for every value.
    /// `profiles` (the `--profile` values) replace the header's profile of the traces of their
    /// library (after their gates are checked); these commands write no result header.
    static func load(
        _ paths: [String], _ context: CommandContext, parameters: [TunableParameter] = [],
        command: String = "", profiles: [TraceProfile] = []
    ) -> Result<[LoadedTraceInfo], ExitCodeError> {
        var out: [LoadedTraceInfo] = []
        for path in paths {
            do {
                var loaded = try context.services.load(context.resolve(path), path)
                if let profile = profiles.first(where: { $0.library == loaded.trace.header.model }) {
                    try TraceProfiles.checkGates(loaded.trace, profile: profile, file: path)
                    loaded.trace.header.profile = profile
                }
                let model = loaded.trace.header.model
                if let p = parameters.first(where: { $0.model != model }) {
                    let own = TunableParameter.allCases.filter { $0.model == model }.map(\.rawValue)
                    context.stderr.line(
                        "error: \(path): a \(model.rawValue) trace; \(command)'s parameter \(p.rawValue) belongs to \(p.model.rawValue) traces"
                            + (own.isEmpty
                                ? " (\(model.rawValue) has no tunable parameters yet)"
                                : " (for \(model.rawValue): \(own.joined(separator: ", ")))"))
                    return .failure(ExitCodeError(code: .badInput))
                }
                out.append(loaded)
            } catch {
                context.stderr.line(error.description)
                return .failure(ExitCodeError(code: error.kind == .unsupported ? .unsupported : .badInput))
            }
        }
        return .success(out)
    }

    struct ExitCodeError: Error { var code: ExitCode }

    /// Fixed-point text with `digits` decimals ("-" for nil).
    static func fixed(_ value: Double?, _ digits: Int) -> String {
        guard let value else { return "-" }
        guard value.isFinite else { return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan") }
        return String(format: "%.\(digits)f", value)
    }

    /// Text padded on the right (left-aligned) or left (right-aligned) to `width`.
    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }

    /// A value as `tune` prints it: up to 6 significant digits (`%.6g`).
    static func short(_ value: Double) -> String { String(format: "%.6g", value) }

    /// A JSON number (canonical shortest form) or null.
    static func json(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return CanonicalNumber.format(value)
    }
}

/// Progress on standard error, only when it is a terminal (isatty(2)) and the context writes to
/// the process's own standard error; otherwise silent. Shows the fraction done and an estimate
/// of the time left from the elapsed time and the points done so far.
final class TerminalProgress {
    private let sink: OutputSink?
    private let start = Date()
    private var shown = false

    init(_ context: CommandContext) {
        sink = (context.stderr is FileHandleSink && isatty(2) != 0) ? context.stderr : nil
    }

    func update(_ label: String, done: Int, total: Int) {
        guard let sink, total > 0, done > 0 else { return }
        let elapsed = Date().timeIntervalSince(start)
        let left = elapsed / Double(done) * Double(max(0, total - done))
        let percent = min(100, 100 * done / total)
        sink.write("\r\u{1B}[K\(label) \(done)/\(total) (\(percent)%), about \(Int(left.rounded(.up))) s left")
        shown = true
    }

    func finish() {
        guard let sink, shown else { return }
        sink.write("\r\u{1B}[K")
    }
}
