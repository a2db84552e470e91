import Foundation
import PanelGolden
import PanelTrace

/// Machine-readable forms of a `CheckSummary`: summary JSON (`--summary-json`, mergeable by
/// `panelsim merge-summaries`) and JUnit XML (`--junit`). Both are deterministic: no dates or
/// durations, traces in corpus order.
extension CheckSummary {
    /// The `format` value of a summary file.
    public static let formatName = "panelsim-check-summary"
    /// The summary format version this build writes and reads.
    public static let formatVersion = 1

    /// Summary JSON, one trace per line:
    /// ```
    /// {"format": "panelsim-check-summary", "version": 1, "shard": "1/2", "passed": 3, "failed": 1,
    ///  "skipped": 0, "errors": 0, "written": 0, "rewritten": 0, "exitCode": 1,
    ///  "unreferencedFails": false, "unreferenced": ["golden/x.golden.jsonl"],
    ///  "traces": [
    ///   {"path": "traces/a.jsonl", "status": "fail", "wroteGolden": false, "report": "r/a.html", "lines": ["FAIL traces/a.jsonl", "  …"]},
    ///   …]}
    /// ```
    /// `shard` is `null` for a whole-corpus run, `"merged"` after `merge-summaries`, and `report`
    /// is `null` when no report was written. Counts are derived from `traces` when read back.
    /// - Complexity: O(size of the output).
    public func summaryJSON() -> String {
        func q(_ s: String) -> String { JSON.quote(s) }
        var out = "{\"format\": \(q(Self.formatName)), \"version\": \(Self.formatVersion), "
        out += "\"shard\": \(shard.map(q) ?? "null"), "
        out += "\"passed\": \(passed), \"failed\": \(failed), \"skipped\": \(skipped), \"errors\": \(errors), "
        out += "\"written\": \(written), \"rewritten\": \(rewritten), \"exitCode\": \(exitCode.rawValue), "
        out += "\"unreferencedFails\": \(unreferencedFails), "
        out += "\"unreferenced\": [" + unreferenced.map(q).joined(separator: ", ") + "],\n\"traces\": ["
        for (i, t) in traces.enumerated() {
            out += (i == 0 ? "\n" : ",\n")
            out += " {\"path\": \(q(t.path)), \"status\": \(q(t.status.rawValue)), \"wroteGolden\": \(t.wroteGolden), "
            out += "\"report\": \(t.report.map(q) ?? "null"), "
            out += "\"lines\": [" + t.lines.map(q).joined(separator: ", ") + "]}"
        }
        out += "]}\n"
        return out
    }

    /// Parses summary JSON written by `summaryJSON()`.
    /// - Throws: `SummaryFileError` naming `file` and what is wrong.
    /// - Complexity: O(file size).
    public static func parse(summaryJSON text: String, file: String) throws(SummaryFileError) -> CheckSummary {
        func fail(_ m: String) -> SummaryFileError { SummaryFileError(file: file, message: m) }
        let value: JSONValue
        do { value = try JSON.parse(text) } catch {
            throw fail("column \(error.column): \(error.message)")
        }
        guard case .object(let o) = value, case .string(Self.formatName)? = o["format"] else {
            throw fail("not a \(Self.formatName) file")
        }
        guard case .number(let v)? = o["version"], v.double == Double(Self.formatVersion) else {
            throw fail("unsupported summary version (this build reads version \(Self.formatVersion))")
        }
        func strings(_ v: JSONValue?, _ what: String) throws(SummaryFileError) -> [String] {
            guard case .array(let items)? = v else { throw fail("\(what) must be an array of strings") }
            var out: [String] = []
            for item in items {
                guard case .string(let s) = item else { throw fail("\(what) must be an array of strings") }
                out.append(s)
            }
            return out
        }
        var summary = CheckSummary(traces: [])
        summary.unreferenced = try strings(o["unreferenced"], "unreferenced")
        if case .bool(let b)? = o["unreferencedFails"] { summary.unreferencedFails = b }
        if case .string(let s)? = o["shard"] { summary.shard = s }
        guard case .array(let items)? = o["traces"] else { throw fail("traces must be an array") }
        for (i, item) in items.enumerated() {
            guard case .object(let t) = item, case .string(let path)? = t["path"],
                case .string(let st)? = t["status"], let status = TraceOutcome.Status(rawValue: st)
            else {
                throw fail(
                    "traces[\(i)]: needs a path and a status (one of \(TraceOutcome.Status.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            var outcome = TraceOutcome(path: path, status: status, lines: try strings(t["lines"], "traces[\(i)].lines"))
            if case .bool(let b)? = t["wroteGolden"] { outcome.wroteGolden = b }
            if case .string(let r)? = t["report"] { outcome.report = r }
            summary.traces.append(outcome)
        }
        // A whole run (or a merge) without a trace checked nothing; one shard may be empty.
        summary.noTraces = summary.traces.isEmpty && summary.shard.flatMap(ShardID.init) == nil
        return summary
    }

    /// Merges shard summaries: traces sorted by path bytes, unreferenced goldens united; a merge
    /// without a single trace is `noTraces` (exit 2), as a `check` that found none.
    /// - Throws: `SummaryFileError` when a trace path appears in two inputs, when a `shard` is
    ///   neither "I/N" nor "merged", or when the inputs include shards ("I/N") but are not exactly
    ///   the shards 1…N of one N (a missing shard would otherwise merge into a summary that looks
    ///   complete).
    /// - Complexity: O(T log T) for T traces.
    public static func merge(_ parts: [CheckSummary]) throws(SummaryFileError) -> CheckSummary {
        for part in parts {
            if let text = part.shard, text != "merged", ShardID(text) == nil {
                throw SummaryFileError(
                    file: "", message: "a summary has shard '\(text)' (expected I/N with 1 <= I <= N, or merged)")
            }
        }
        let shards = parts.compactMap { $0.shard.flatMap(ShardID.init) }
        if !shards.isEmpty && shards.count < parts.count {
            throw SummaryFileError(file: "", message: "shard summaries cannot be merged with unsharded or merged ones")
        }
        if !shards.isEmpty {
            let counts = Set(shards.map(\.count))
            guard counts.count == 1, let n = counts.first else {
                throw SummaryFileError(
                    file: "",
                    message:
                        "the summaries come from different shardings (\(counts.sorted().map { "/\($0)" }.joined(separator: ", ")))"
                )
            }
            var seen = Set<Int>()
            for shard in shards where !seen.insert(shard.index).inserted {
                throw SummaryFileError(file: "", message: "shard \(shard.index)/\(n) is given more than once")
            }
            if let missing = (1...n).first(where: { !seen.contains($0) }) {
                throw SummaryFileError(
                    file: "", message: "shard \(missing)/\(n) is missing (\(seen.count) of \(n) shards given)")
            }
        }
        var traces = parts.flatMap(\.traces)
        traces.sort { utf8Precedes($0.path, $1.path) }
        for i in traces.indices.dropFirst() where traces[i].path == traces[i - 1].path {
            throw SummaryFileError(file: "", message: "trace \(traces[i].path) appears in more than one summary")
        }
        let unreferenced = Set(parts.flatMap(\.unreferenced)).sorted(by: utf8Precedes)
        var merged = CheckSummary(
            traces: traces, unreferenced: unreferenced,
            unreferencedFails: parts.contains { $0.unreferencedFails }, shard: "merged")
        merged.noTraces = traces.isEmpty
        return merged
    }

    /// JUnit XML: one `<testsuite name="panelsim check">` with one `<testcase>` per trace
    /// (`classname` = the trace's folder with `/` as `.`, `name` = its file name); `fail` and
    /// `missing` give `<failure>`, `error` gives `<error>`, `skip` gives `<skipped>`, each with the
    /// trace's output lines as text. Unreferenced goldens under `--unreferenced fail` are one more
    /// failing test case `unreferenced goldens`. No timestamps or durations.
    /// - Complexity: O(size of the output).
    public func junitXML() -> String {
        let unrefCase = unreferencedFails && !unreferenced.isEmpty
        let failures = failed + (unrefCase ? 1 : 0)
        let tests = traces.count + (unrefCase ? 1 : 0)
        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"panelsim\" \(counts)>\n"
        out += "  <testsuite name=\"panelsim check\" \(counts)>\n"
        for t in traces {
            let parts = t.path.split(separator: "/", omittingEmptySubsequences: false)
            let classname = parts.dropLast().joined(separator: ".")
            let name = parts.last.map(String.init) ?? t.path
            out +=
                "    <testcase classname=\"\(Markup.escape(classname))\" name=\"\(Markup.escape(name))\" file=\"\(Markup.escape(t.path))\""
            let body = Markup.escape(t.lines.joined(separator: "\n"))
            let message = Markup.escape(t.failureMessage)
            switch t.status {
            case .pass, .new, .updated:
                out += "/>\n"
            case .fail, .missing:
                out +=
                    ">\n      <failure message=\"\(message)\" type=\"\(t.status.rawValue)\">\(body)</failure>\n    </testcase>\n"
            case .error:
                out += ">\n      <error message=\"\(message)\" type=\"error\">\(body)</error>\n    </testcase>\n"
            case .skip:
                out += ">\n      <skipped message=\"\(message)\"/>\n    </testcase>\n"
            }
        }
        if unrefCase {
            let body = Markup.escape(unreferenced.joined(separator: "\n"))
            out += "    <testcase classname=\"panelsim\" name=\"unreferenced goldens\">\n"
            out +=
                "      <failure message=\"\(unreferenced.count) unreferenced golden(s)\" type=\"unreferenced\">\(body)</failure>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }
}

extension TraceOutcome {
    /// The status line with the first line of its report that says where it diverges (`first
    /// divergence at record …`, `header differs: …`), for JUnit's `message` and annotations.
    public var failureMessage: String {
        let head = lines.first ?? ""
        let detail = lines.dropFirst().lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("first divergence") || $0.hasPrefix("header differs") }
        return detail.map { head + ": " + $0 } ?? head
    }
}

extension CheckSummary {
    /// GitHub Actions workflow commands, one per trace that failed, is missing, or has an error
    /// (`::error file=PATH,line=N,title=TITLE::MESSAGE`; `line` is the trace line of the first
    /// divergence when there is one, `TraceOutcome.line`), and one per unreferenced golden that
    /// fails the run. The message is the trace's report, newlines as `%0A`.
    /// - Complexity: O(size of the failing traces' lines).
    public func githubAnnotations() -> [String] {
        func escapeData(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func escapeProperty(_ s: String) -> String {
            escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        var out: [String] = []
        for t in traces where t.status.countsAsFailed || t.status == .error {
            var properties = "file=" + escapeProperty(t.path)
            if let line = t.line { properties += ",line=\(line)" }
            let title: String
            switch t.status {
            case .fail:
                title =
                    "panelsim: "
                    + (t.failureMessage.split(separator: ":", maxSplits: 1).dropFirst().first.map {
                        $0.trimmingCharacters(in: .whitespaces)
                    } ?? "differs from its golden")
            case .missing: title = "panelsim: no golden"
            default: title = "panelsim: error"
            }
            let body =
                [t.failureMessage] + t.lines.dropFirst().map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }
            out.append(
                "::error \(properties),title=\(escapeProperty(title))::\(escapeData(body.joined(separator: "\n")))")
        }
        if unreferencedFails {
            for golden in unreferenced {
                out.append(
                    "::error file=\(escapeProperty(golden)),title=\(escapeProperty("panelsim: unreferenced golden"))::\(escapeData(golden + " is referenced by no trace"))"
                )
            }
        }
        return out
    }
}

/// A summary file that cannot be read or merged.
public struct SummaryFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var message: String
    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }
    public var description: String { file.isEmpty ? message : "\(file): \(message)" }
}

/// A shard named "I/N" in a summary (1 ≤ I ≤ N).
struct ShardID {
    var index: Int, count: Int
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else { return nil }
        index = i
        count = n
    }
}
