import Foundation
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
    /// No golden existed; written (counts as passed: the record rule, `countsAsPassed`).
    case new
    /// Golden rewritten by record mode `failed`/`all` (counts as passed: the record rule).
    case updated
    /// The trace or its golden is malformed or unreadable (`check` exits 2).
    case error
    /// Cannot be evaluated at this revision (`check` exits 125).
    case skip

    /// True for `pass`, `new` and `updated`: the record rule of `check` and `assertPanelTrace`
    /// (`TraceCheckResult.passes`): a golden written by the check holds the replay's own bytes,
    /// so the trace passes, and every other check of it in the same run passes against it.
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
    /// The pending golden (`NAME.golden.jsonl.new`, as shown) written by record mode `pending`;
    /// nil when none was written.
    public var wrotePending: String? = nil
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

    /// The report with the trace's touch and `observed` samples drawn, and the residual band
    /// at `tolerances`.
    /// - Complexity: O(records + samples).
    public func htmlReport(trace: Trace, tolerances: Tolerances) -> String {
        HTMLReport.render(reportInput(trace: trace, tolerances: tolerances))
    }

    /// What `htmlReport(trace:tolerances:)` shows; `recordCommand` is the command a MISSING
    /// report gives to record the golden (nil: none).
    public func reportInput(trace: Trace, tolerances: Tolerances, recordCommand: String? = nil) -> HTMLReport.Input {
        var input = HTMLReport.Input(title: traceName, header: trace.header, golden: golden, actual: actual,
                                     comparison: comparison, goldenName: goldenName)
        input.trace = trace
        input.tolerances = tolerances
        input.recordCommand = golden == nil ? recordCommand : nil
        return input
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
    /// `.jsonl` or has no `traces` folder in the path as written (`GoldenLocation.golden(ofTrace:workingDirectory:)`
    /// also looks at the absolute path and links, and places traces outside any `traces` folder).
    /// - Complexity: O(path length).
    public static func defaultGoldenPath(forTrace path: String) -> String? {
        // `GoldenLocation`'s rule on the path as written (no working directory, no links).
        guard path.hasSuffix(".jsonl") else { return nil }
        let placement = GoldenLocation.place(file: path, workingDirectory: "/")
        return placement.inTracesFolder ? Files.join(placement.goldenRoot, goldenRelativePath(forTrace: placement.below)) : nil
    }

    /// The warning lines `check` prints after a trace's status line for a replay's warnings
    /// (`  warning: …`, and one when the panel did not come to rest within the settle budget).
    /// - Complexity: O(warnings).
    public static func warningLines(_ result: SimulationResult) -> [String] {
        warnings(result).map { "  warning: \($0)" }
    }

    /// A replay's warnings without indentation or prefix, in the order `warningLines(_:)` prints them.
    /// - Complexity: O(warnings).
    public static func warnings(_ result: SimulationResult) -> [String] {
        result.warnings + (result.budgetExceeded ? ["the panel did not come to rest within the settle budget"] : [])
    }

    /// Compares `actual` with the golden at `goldenPath` and writes the golden when `mode` says so.
    ///
    /// * No golden: `new` (written) unless `mode` is `never`, then `missing`.
    /// * Something other than a readable file at `goldenPath` (a folder, a path through a folder
    ///   that cannot be searched): `error`, and nothing is written in any mode.
    /// * Record mode `pending` writes no golden: where another mode would write one (missing,
    ///   failing, unreadable, other format version) the actual result goes to
    ///   `goldenPath + ".new"` instead (a pending golden), and the status is the one `never`
    ///   gives. A pass removes a pending golden left beside it in that mode; in the other modes a
    ///   pending golden left over is a warning. A pending golden whose header lists other
    ///   simulator options than the replay's is never replaced (`error`) nor removed (a warning):
    ///   it belongs to a run with other options (`PendingGoldenOptions`).
    /// * A golden whose header names another trace (`trace`) is an `error` that only `all`
    ///   overwrites (a golden copied to the wrong place is never taken for a regression).
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
                // A pending golden beside it is superseded by the golden just written.
                let stale = goldenPath + RecordMode.pendingSuffix
                let note = Files.probe(stale) == .file && unlink(stale) == 0
                    ? ["  note: removed \(goldenName + RecordMode.pendingSuffix) (superseded by the golden written)"] : []
                return emit(status, line, note + extra, wrote: true)
            } catch {
                return ioError("ERROR \(shown): \(error.description)")
            }
        }

        let pendingPath = goldenPath + RecordMode.pendingSuffix, pendingName = goldenName + RecordMode.pendingSuffix
        /// The simulator options of the pending golden beside the golden when they are not the
        /// replay's (it came from a run with other options); nil when there is none, it cannot be
        /// read, or its options are the replay's.
        func pendingOfOtherOptions() -> [String]? {
            guard Files.probe(pendingPath) == .file, let line = PendingGoldenOptions.firstLine(of: pendingPath),
                  let header = try? ResultFile.readHeader(text: line, file: pendingName),
                  header.simulator != actual.header.simulator else { return nil }
            return header.simulator
        }
        /// Why a pending golden of other options is kept rather than replaced or removed.
        func keptLine(_ other: [String]) -> String {
            "the pending golden \(pendingName) was recorded with \(PendingGoldenOptions.described(other)), this replay with "
                + "\(PendingGoldenOptions.described(actual.header.simulator)); it was kept: review it first "
                + "(panelsim review, accept or reject), or record with its options"
        }
        /// A pending golden beside the golden that this check does not write: a warning, or in
        /// record mode `pending`, when the trace passes, removed.
        func leftover(_ v: GoldenVerdict) -> GoldenVerdict {
            guard v.wrotePending == nil, Files.probe(pendingPath) == .file else { return v }
            var v = v
            if mode.writesPending && v.status.countsAsPassed {
                if let other = pendingOfOtherOptions() {
                    v.lines.insert("  warning: " + keptLine(other), at: 1)
                } else if unlink(pendingPath) == 0 {
                    v.lines.insert("  note: removed \(pendingName) (the trace passes)", at: 1)
                }
            } else {
                v.lines.insert("  warning: pending golden \(pendingName) left over: panelsim review (or accept, reject) it", at: 1)
            }
            return v
        }
        /// Record mode `pending`: the actual result written beside the golden.
        func pending(_ v: GoldenVerdict) -> GoldenVerdict {
            guard mode.writesPending else { return leftover(v) }
            if let other = pendingOfOtherOptions() {
                // Never replaced by a pending golden of other options: the two runs' results
                // would be mixed without a word.
                return emit(.error, "ERROR \(shown): " + keptLine(other))
            }
            var v = v
            do {
                try AtomicFile.write(String(decoding: actualBytes, as: UTF8.self), to: pendingPath, shownAs: pendingName)
            } catch {
                return ioError("ERROR \(shown): \(error.description)")
            }
            v.wrotePending = pendingName
            v.lines.insert("  pending: wrote \(pendingName); accept it with panelsim accept \(shellQuoted(pendingName)) (or panelsim review)",
                           at: min(1, v.lines.count))
            return v
        }

        switch Files.probe(goldenPath) {
        case .file: break
        case .missing:
            if mode.writesMissing { return record(.new, "NEW \(shown) (golden written)") }
            return pending(emit(.missing, "MISSING \(shown) (no golden)"))
        case .unusable(let reason):
            // There is something at the golden's path, or it cannot be seen: never MISSING (and
            // never overwritten by record mode missing).
            return emit(.error, "ERROR \(shown): cannot read the golden \(goldenName): \(reason)")
        }
        // The usual case: the golden's bytes are the rendered result's (no text decoding needed).
        if Files.contentsEqual(goldenPath, actualBytes) { return leftover(emit(.pass, "PASS \(shown)")) }
        let goldenText: String
        switch Files.read(goldenPath, shown: goldenName) {
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
            return pending(emit(.error, "ERROR \(shown): unreadable golden: \(error.description)"))
        }
        verdict.golden = golden

        if golden.header.version == actual.header.version, golden.header.trace != actual.header.trace {
            if mode.rewritesAll {
                return record(.updated, "UPDATED \(shown) (golden rewritten; it belonged to trace \(ResultFile.quoted(golden.header.trace)))")
            }
            return leftover(emit(.error, "ERROR \(shown): the golden \(goldenName) belongs to another trace "
                                 + "(its header names \(ResultFile.quoted(golden.header.trace)), this trace is \(ResultFile.quoted(actual.header.trace))); "
                                 + "move it to that trace's golden, or overwrite it with --record all"))
        }

        let comparison = Comparator.compare(expected: golden, actual: actual, tolerances: tolerances)
        verdict.comparison = comparison
        switch comparison.status {
        case .incompatible(let version):
            if mode.rewritesFailed {
                return record(.updated, "UPDATED \(shown) (golden rewritten; it was format version \(version))")
            }
            return pending(emit(.skip, "SKIP \(shown): golden format version \(version), this build writes \(ResultHeader.currentVersion)"))
        case .passed:
            let notes = comparison.notes.map { "  note: " + $0 }
            if mode.rewritesAll {
                return record(.updated, "UPDATED \(shown) (golden rewritten; it matched within tolerances)", notes)
            }
            return leftover(emit(.pass, "PASS \(shown)", notes))
        case .failed:
            let report = comparison.report(indent: "  ").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if mode.rewritesFailed { return record(.updated, "UPDATED \(shown) (golden rewritten)", report) }
            return pending(emit(.fail, "FAIL \(shown)", report))
        }
    }
}
