import PanelSimCore
import PanelTrace

/// What checking one trace against its golden gave, as `panelsim check` prints it.
public enum GoldenStatus: String, Sendable, Equatable, CaseIterable {
    /// Matches its golden within tolerances.
    case pass
    /// Differs from its golden (a regression).
    case fail
    /// No golden, and recording is off (counts as failed).
    case missing
    /// No golden existed; written (counts as passed by `check`).
    case new
    /// Golden rewritten by record mode `failed`/`all` (counts as passed by `check`).
    case updated
    /// The trace or its golden is malformed or unreadable (`check` exits 2).
    case error
    /// Cannot be evaluated at this revision (`check` exits 125).
    case skip

    /// True for `pass`, `new` and `updated`.
    public var countsAsPassed: Bool { self == .pass || self == .new || self == .updated }
    /// True for `fail` and `missing`.
    public var countsAsFailed: Bool { self == .fail || self == .missing }
}

/// The verdict on one replayed trace: status, the lines `check` prints for it, whether the golden
/// was written, and what an HTML report needs.
public struct GoldenVerdict: Sendable {
    public var status: GoldenStatus
    /// Every line `check` prints for the trace, in order: the status line (`PASS path`,
    /// `FAIL path`, …), the failure report or notes (indented by two spaces), then the
    /// simulation warnings. `check --report-dir` may add a `  report: …` line after them.
    public var lines: [String]
    /// Whether the golden file was written (atomically) by this check (`new`, `updated`).
    public var wroteGolden: Bool
    /// The golden as read, when it was read and parsed.
    public var golden: ResultDocument?
    /// The comparison with the golden, when one was made.
    public var comparison: Comparison?
    /// The actual result.
    public var actual: ResultDocument
    /// The rendered actual result (the bytes a golden of it holds).
    public var actualBytes: [UInt8]
    /// The golden's path as shown in `lines`.
    public var goldenName: String
    /// The trace's path as shown in `lines`.
    public var traceName: String

    /// Whether `check --report-dir` writes an HTML report for this outcome (FAIL and MISSING).
    public var isReportable: Bool { status == .fail || status == .missing }

    /// The self-contained HTML report of this outcome (`panelsim report`'s format): trajectory of
    /// the golden and the actual result, states, anchors, events and the failure report.
    /// - Parameter traceHeader: the trace's header, for the anchors; nil leaves them out.
    /// - Complexity: O(records).
    public func htmlReport(traceHeader: TraceHeader?) -> String {
        HTMLReport.render(HTMLReport.Input(title: traceName, header: traceHeader, golden: golden, actual: actual,
                                           comparison: comparison, goldenName: goldenName))
    }
}

/// Compares a replayed trace with its golden and writes the golden as the record mode says: the
/// one implementation behind `panelsim check` (PanelSimCLI) and `assertPanelTrace`
/// (PanelSimTesting), so both report the same statuses with the same text.
public enum GoldenCheck {
    /// The path of a trace's golden relative to the golden folder, from the trace's path relative
    /// to the trace folder: `a/b.jsonl` → `a/b.golden.jsonl` (a name without `.jsonl` gets
    /// `.golden.jsonl` appended).
    /// - Complexity: O(path length).
    public static func goldenRelativePath(forTrace relativePath: String) -> String {
        let stem = relativePath.hasSuffix(".jsonl") ? String(relativePath.dropLast(".jsonl".count)) : relativePath
        return stem + ".golden.jsonl"
    }

    /// The golden of a trace path in the layout `check` uses by default (`traces/` and `golden/`
    /// side by side): the last folder named `traces` becomes `golden` and `.jsonl` becomes
    /// `.golden.jsonl`, so `traces/a/b.jsonl` → `golden/a/b.golden.jsonl` and
    /// `x/traces/b.jsonl` → `x/golden/b.golden.jsonl`. Nil when the path does not end in
    /// `.jsonl` or has no `traces` folder. (`panelsim report`'s default golden.)
    /// - Complexity: O(path length).
    public static func defaultGoldenPath(forTrace path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard path.hasSuffix(".jsonl"), let i = parts.dropLast().lastIndex(of: "traces") else { return nil }
        parts[i] = "golden"
        return goldenRelativePath(forTrace: parts.joined(separator: "/"))
    }

    /// The warning lines `check` prints after a trace's status line for a replay's warnings
    /// (`  warning: …`, and one when the panel did not come to rest within the settle budget).
    /// - Complexity: O(warnings).
    public static func warningLines(_ result: SimulationResult) -> [String] {
        var warnings = result.warnings.map { "  warning: \($0)" }
        if result.budgetExceeded { warnings.append("  warning: the panel did not come to rest within the settle budget") }
        return warnings
    }

    /// Compares `actual` with the golden at `goldenPath` and writes the golden when `mode` says so.
    ///
    /// * No golden: `new` (written) unless `mode` is `never`, then `missing`.
    /// * Something other than a readable file at `goldenPath` (a folder, a path through a folder
    ///   that cannot be searched): `error`, and nothing is written in any mode.
    /// * Byte-identical golden: `pass`. Otherwise it is parsed and compared with `Comparator`:
    ///   within `tolerances` `pass` (`updated` when `mode` is `all`), else `fail` (`updated` when
    ///   `mode` is `failed` or `all`); a golden of another format version is `skip` and an
    ///   unparsable one `error` (both `updated` in `failed`/`all`).
    ///
    /// Writes are atomic (`AtomicFile`). A write that fails makes the verdict an `error` naming
    /// the path (no exception escapes).
    /// - Parameters:
    ///   - actual: the replay's result; `actualBytes` must be `ResultFile.renderBytes(actual)`
    ///     (passed in so a caller that already rendered it does not render twice).
    ///   - goldenPath: where the golden is read and written (absolute, or relative to the
    ///     process's current directory).
    ///   - goldenName / traceName: the paths as shown in the lines.
    ///   - mode: the resolved record mode (`RecordMode.resolve(flag:environment:)`).
    ///   - tolerances: per-channel tolerances of the continuous channels.
    ///   - warnings: lines appended after the status line and report (`warningLines(_:)`).
    /// - Complexity: O(size of the golden + size of the result).
    public static func evaluate(actual: ResultDocument, actualBytes: [UInt8], goldenPath: String, goldenName: String,
                                traceName shown: String, mode: RecordMode, tolerances: Tolerances,
                                warnings: [String]) -> GoldenVerdict {
        var verdict = GoldenVerdict(status: .pass, lines: [], wroteGolden: false, golden: nil, comparison: nil,
                                    actual: actual, actualBytes: actualBytes, goldenName: goldenName, traceName: shown)
        func emit(_ status: GoldenStatus, _ line: String, _ extra: [String] = [], wrote: Bool = false) -> GoldenVerdict {
            var v = verdict
            v.status = status; v.lines = [line] + extra + warnings; v.wroteGolden = wrote
            return v
        }
        /// An I/O failure: one line, without the warnings (as `check` has always printed it).
        func ioError(_ line: String) -> GoldenVerdict {
            var v = verdict
            v.status = .error; v.lines = [line]; v.wroteGolden = false
            return v
        }
        /// Writes the golden; on failure the verdict is an ERROR.
        func record(_ status: GoldenStatus, _ line: String, _ extra: [String] = []) -> GoldenVerdict {
            do {
                try AtomicFile.write(String(decoding: actualBytes, as: UTF8.self), to: goldenPath, shownAs: goldenName)
                return emit(status, line, extra, wrote: true)
            } catch {
                return ioError("ERROR \(shown): \(error.description)")
            }
        }

        switch Files.probe(goldenPath) {
        case .file: break
        case .missing:
            if mode.writesMissing { return record(.new, "NEW \(shown) (golden written)") }
            return emit(.missing, "MISSING \(shown) (no golden)")
        case .unusable(let reason):
            // There is something at the golden's path, or it cannot be seen: never MISSING (and
            // never overwritten by record mode missing).
            return emit(.error, "ERROR \(shown): cannot read the golden \(goldenName): \(reason)")
        }
        // The usual case: the golden's bytes are the rendered result's (no text decoding needed).
        if Files.contentsEqual(goldenPath, actualBytes) { return emit(.pass, "PASS \(shown)") }
        let goldenText: String
        switch Files.read(goldenPath) {
        case .success(let text): goldenText = text
        case .failure(let failure): return ioError("ERROR \(shown): \(failure.message)")
        }

        let golden: ResultDocument
        do {
            golden = try ResultFile.read(text: goldenText, file: goldenName)
        } catch {
            if mode.rewritesFailed {
                return record(.updated, "UPDATED \(shown) (golden rewritten; it was unreadable: \(error.description))")
            }
            return emit(.error, "ERROR \(shown): unreadable golden: \(error.description)")
        }
        verdict.golden = golden

        let comparison = Comparator.compare(expected: golden, actual: actual, tolerances: tolerances)
        verdict.comparison = comparison
        switch comparison.status {
        case .incompatible(let version):
            if mode.rewritesFailed {
                return record(.updated, "UPDATED \(shown) (golden rewritten; it was format version \(version))")
            }
            return emit(.skip, "SKIP \(shown): golden format version \(version), this build writes \(ResultHeader.currentVersion)")
        case .passed:
            let notes = comparison.notes.map { "  note: " + $0 }
            if mode.rewritesAll {
                return record(.updated, "UPDATED \(shown) (golden rewritten; it matched within tolerances)", notes)
            }
            return emit(.pass, "PASS \(shown)", notes)
        case .failed:
            let report = comparison.report(indent: "  ").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if mode.rewritesFailed { return record(.updated, "UPDATED \(shown) (golden rewritten)", report) }
            return emit(.fail, "FAIL \(shown)", report)
        }
    }
}
