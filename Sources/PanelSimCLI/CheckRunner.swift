import Foundation
import PanelGolden
import PanelSimCore
import PanelTrace

/// The outcome of checking one trace against its golden.
public struct TraceOutcome: Sendable, Equatable {
    /// What happened, as in `check`'s output (`GoldenStatus`, shared with `assertPanelTrace`).
    public typealias Status = GoldenStatus

    /// The trace path as shown (`TRACE_DIR/relative/path.jsonl`).
    public var path: String
    public var status: Status
    /// Every output line of this trace, in order (status line, report, notes, warnings).
    public var lines: [String]
    /// Whether the golden was written (`new`/`updated`).
    public var wroteGolden: Bool
    /// Path of the HTML report written for this trace (`--report-dir`), as shown; nil otherwise.
    public var report: String?
    /// The trace's `model` when it loaded (a `--profile` of a library no trace uses is warned about).
    public var model: PanelModel? = nil
    /// The pending golden written by record mode `pending` (`NAME.golden.jsonl.new`, as shown).
    public var pending: String?
    /// The line of the trace file an annotation points at: for a failure, the last sample at or
    /// before the first divergence (line 1 for a header divergence); for an error, its line.
    public var line: Int?
    /// The first sentence of the HTML report's headline (what differs first), when a report was
    /// written (`--report-dir`).
    public var headline: String?
    /// The report's path relative to the report folder (`a/b.html`), when one was written.
    public var reportLink: String?

    public init(path: String, status: Status, lines: [String], wroteGolden: Bool = false, report: String? = nil) {
        self.path = path; self.status = status; self.lines = lines; self.wroteGolden = wroteGolden; self.report = report
    }
}

/// The result of a `check` run: one outcome per trace of the (shard of the) corpus, in corpus
/// order, and the goldens nobody references.
public struct CheckSummary: Sendable, Equatable {
    /// Outcomes in the byte order of the traces' relative paths.
    public var traces: [TraceOutcome]
    /// Unreferenced goldens removed by `--unreferenced delete`, as shown, sorted.
    public var deleted: [String] = []
    /// Goldens no trace of the whole corpus references, as shown (`GOLDEN_DIR/…`), sorted.
    /// Listed by shard 1 only when sharded (every shard would list the same ones).
    public var unreferenced: [String]
    /// Whether unreferenced goldens fail the run (`--unreferenced fail`).
    public var unreferencedFails: Bool
    /// `"i/n"` when the run was a shard, else nil.
    public var shard: String?
    /// Entries under the trace folder the listing had to leave out, as shown (`TRACE_DIR/…:
    /// reason`): unreadable folders, names that are not UTF-8, broken links. Warnings only.
    public var unlisted: [String]
    /// Temporary files of golden writes found in the golden folder (what a killed record run
    /// leaves), sorted, and what was done with them. Listed with the unreferenced goldens (by
    /// shard 1 only when sharded); they never count as goldens. Warnings and notes only.
    public var temporaries: [TemporaryFile]
    /// True when there was nothing to check at all: the trace folder holds no trace, or the
    /// files given / `--filter` select none (before sharding: an empty shard of a non-empty
    /// selection is not this). The run then fails with exit 2, as `PanelTraces` fails a test for
    /// an empty folder, so a wrong folder or a mistyped filter cannot pass.
    public var noTraces = false
    /// Why the run checked nothing on purpose (a `--record pending` run whose pending goldens
    /// would be mixed with those of other simulator options, `PendingGoldenOptions`); the run
    /// fails with exit 2.
    public var refusal: String?

    /// A temporary file of an atomic golden write (`.NAME.tmp-PID-XXXXXXXX`, hidden).
    public struct TemporaryFile: Sendable, Equatable {
        public enum Disposition: Sendable, Equatable {
            /// Its writer no longer exists, and the record mode writes: removed.
            case removed
            /// Its writer no longer exists; `--record never` leaves the golden folder alone.
            case orphaned
            /// Its writer could not be removed: the system's reason.
            case notRemoved(String)
            /// A process with the writer's id exists (another run writing goldens, or a reused id).
            case writerRunning
        }
        /// The path as shown (`GOLDEN_DIR/…`).
        public var path: String
        /// The process id in its name (the process that wrote it).
        public var pid: Int32
        public var disposition: Disposition
        public init(path: String, pid: Int32, disposition: Disposition) {
            self.path = path; self.pid = pid; self.disposition = disposition
        }

        /// The line `check` prints for it.
        public var line: String {
            switch disposition {
            case .removed:
                return "note: removed \(path), left by an interrupted golden write (process \(pid) no longer exists)"
            case .orphaned:
                return "warning: \(path) was left by an interrupted golden write (process \(pid) no longer exists); "
                    + "remove it (rm \(shellQuoted(path))) or run check with --record missing, failed or all, which removes such files"
            case .notRemoved(let reason):
                return "warning: cannot remove \(path), left by an interrupted golden write (process \(pid) no longer exists): \(reason)"
            case .writerRunning:
                return "warning: \(path) is the temporary file of a golden write by process \(pid), which is running; "
                    + "if no panelsim is writing goldens there, remove it (rm \(shellQuoted(path)))"
            }
        }
    }

    public init(traces: [TraceOutcome], unreferenced: [String] = [], unreferencedFails: Bool = false, shard: String? = nil,
                unlisted: [String] = [], temporaries: [TemporaryFile] = []) {
        self.traces = traces; self.unreferenced = unreferenced; self.unreferencedFails = unreferencedFails; self.shard = shard
        self.unlisted = unlisted; self.temporaries = temporaries
    }

    public var passed: Int { traces.filter { $0.status.countsAsPassed }.count }
    public var failed: Int { traces.filter { $0.status.countsAsFailed }.count }
    public var skipped: Int { traces.filter { $0.status == .skip }.count }
    public var errors: Int { traces.filter { $0.status == .error }.count }
    public var written: Int { traces.filter { $0.status == .new && $0.wroteGolden }.count }
    public var rewritten: Int { traces.filter { $0.status == .updated && $0.wroteGolden }.count }
    public var pendingWritten: Int { traces.filter { $0.pending != nil }.count }
    /// Unreferenced goldens that fail the run (`--unreferenced fail`).
    public var failingUnreferenced: Int { unreferencedFails ? unreferenced.count : 0 }

    /// `<N> passed, <M> failed[, <K> skipped][, <E> errors][, <G> unreferenced goldens][, no traces]
    /// [ (<W> goldens written, <U> rewritten, <P> pending, <D> deleted)]`: every reason for a
    /// non-zero exit is named (unreferenced goldens only when they fail the run).
    public var summaryLine: String {
        var s = "\(passed) passed, \(failed) failed"
        if noTraces { s += ", no traces" }
        if refusal != nil { s += ", refused" }
        if skipped > 0 { s += ", \(skipped) skipped" }
        if errors > 0 { s += ", \(errors) error" + (errors == 1 ? "" : "s") }
        if failingUnreferenced > 0 { s += ", \(failingUnreferenced) unreferenced golden" + (failingUnreferenced == 1 ? "" : "s") }
        var writes: [String] = []
        if written > 0 { writes.append("\(written) golden" + (written == 1 ? "" : "s") + " written") }
        if rewritten > 0 { writes.append("\(rewritten) rewritten") }
        if pendingWritten > 0 { writes.append("\(pendingWritten) pending") }
        if !deleted.isEmpty { writes.append("\(deleted.count) deleted") }
        if !writes.isEmpty { s += " (" + writes.joined(separator: ", ") + ")" }
        return s
    }

    /// 1 if any trace failed or is missing (or a golden is unreferenced under `--unreferenced
    /// fail`); otherwise 2 if any error, no trace at all (`noTraces`) or a refusal; otherwise 125 if any
    /// skip; otherwise 0.
    public var exitCode: ExitCode {
        if failed > 0 || (unreferencedFails && !unreferenced.isEmpty) { return .regression }
        if errors > 0 || noTraces || refusal != nil { return .badInput }
        if skipped > 0 { return .unsupported }
        return .success
    }
}

/// Runs `check` in-process: the entry point for tools (e.g. `bench`) that need check's work
/// without its command line.
///
/// ```swift
/// let summary = CheckRunner.run(traceDirectory: "traces", goldenDirectory: "golden", jobs: 8)
/// print(summary.summaryLine, summary.exitCode)
/// ```
public enum CheckRunner {
    /// Settings of a run beyond the two directories and the job count.
    public struct Options: Sendable {
        /// When goldens are written. Default `never` (a pure check).
        public var mode: RecordMode = .never
        /// Command-line tolerance settings, applied after tolerance files (they win).
        public var tolerances: [(ToleranceChannel, Tolerance)] = []
        /// `(index, count)` with 1 ≤ index ≤ count: only traces whose 0-based position in the
        /// sorted selection (`selection` and `filters` applied) is ≡ index − 1 (mod count). Nil:
        /// the whole selection.
        public var shard: (index: Int, count: Int)?
        /// Directory for one HTML report per failing trace (`a/b.jsonl` → `DIR/a/b.html`).
        public var reportDirectory: String?
        /// Whether unreferenced goldens make the run fail (exit 1).
        public var unreferencedFails = false
        /// Whether unreferenced goldens are removed (`--unreferenced delete`).
        public var deletesUnreferenced = false
        /// The traces to check, relative to the trace folder (`check FILE…`); nil: every trace
        /// under it. Goldens are not listed for unreferenced ones when given.
        public var selection: [String]?
        /// `--filter GLOB` patterns (fnmatch, `*` also matches `/`): a trace is checked when one
        /// matches its path relative to the trace folder or as shown. Empty: no filter.
        public var filters: [String] = []
        /// Simulator options (floatingpanel-core.md §9 O3, O8): `--drive-scroll`, `--panel-handler-first`.
        public var simulation = SimulationOptions()
        /// How paths are shown in output; default: the directories as given.
        public var traceDisplay: String?
        public var goldenDisplay: String?
        public var reportDisplay: String?
        /// Trace files of this many bytes or more are replayed streaming and compared with their
        /// golden as the result is produced (`StreamingReplay`).
        public var streamingThreshold = StreamingReplay.threshold
        public init() {}
    }

    /// Replays every trace under `traceDirectory` (or one shard of them) and compares each with
    /// its golden under `goldenDirectory`.
    ///
    /// Traces run on `jobs` threads (a shared work queue); outcomes are returned, and passed to
    /// `onOutcome`, in corpus order whatever `jobs` is, so output is byte-identical to `jobs: 1`.
    /// - Parameters:
    ///   - traceDirectory / goldenDirectory: absolute paths, or relative to the process's
    ///     current directory.
    ///   - jobs: worker threads, ≥ 1 (values below 1 count as 1).
    ///   - onOutcome: called once per trace, in corpus order, as soon as the outcomes before it
    ///     are known (on a worker thread, serialized).
    /// - Complexity: O(Σ replay + compare) work, spread over `jobs` threads.
    public static func run(traceDirectory: String, goldenDirectory: String, jobs: Int = 1,
                           options: Options = Options(),
                           onOutcome: ((TraceOutcome) -> Void)? = nil) -> CheckSummary {
        run(traceRoot: traceDirectory, goldenRoot: goldenDirectory, jobs: jobs, options: options,
            services: .live, onOutcome: onOutcome)
    }

    static func run(traceRoot: String, goldenRoot: String, jobs: Int, options: Options,
                    services: TraceServices, onOutcome: ((TraceOutcome) -> Void)?) -> CheckSummary {
        let traceShown = options.traceDisplay ?? traceRoot
        let goldenShown = options.goldenDisplay ?? goldenRoot
        let (all, unlisted) = Files.listing(under: traceRoot, suffix: ".jsonl", excluding: ".golden.jsonl")
        var selected = options.selection ?? all
        if !options.filters.isEmpty {
            selected = selected.filter { rel in
                options.filters.contains { fnmatch($0, rel, 0) == 0 || fnmatch($0, Files.join(traceShown, rel), 0) == 0 }
            }
        }
        let nothingSelected = selected.isEmpty
        var shardText: String?
        if let shard = options.shard {
            // Positions in the selection (the files given, or what the filters keep), so that
            // the shards of one selection cover it exactly once.
            selected = selected.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
            shardText = "\(shard.index)/\(shard.count)"
        }
        // A pending run refuses, before it writes anything, to mix its pending goldens with those
        // of a run with other simulator options.
        if options.mode.writesPending, Files.isDirectory(goldenRoot) {
            let conflicts = PendingGoldenOptions.conflicts(goldenRoot: goldenRoot, options: options.simulation)
            if !conflicts.isEmpty {
                var summary = CheckSummary(traces: [], shard: shardText)
                summary.refusal = PendingGoldenOptions.refusal(conflicts, goldenShown: goldenShown, options: options.simulation)
                return summary
            }
        }
        let tolerances = ToleranceResolver(root: traceRoot, shownRoot: traceShown, settings: options.tolerances)
        let worker = TraceChecker(traceRoot: traceRoot, goldenRoot: goldenRoot, traceShown: traceShown,
                                  goldenShown: goldenShown, options: options, services: services,
                                  tolerances: tolerances.resolve(for: selected))
        // Goldens no trace refers to. The listing does not depend on the outcomes: with more than
        // one job it runs beside the checks instead of after them.
        let listsGoldens = Files.isDirectory(goldenRoot) && (options.shard == nil || options.shard?.index == 1)
            && options.selection == nil
        let listGoldens: @Sendable () -> (goldens: [String], temporaries: [String]) = { Files.goldenListing(under: goldenRoot) }
        let background = listsGoldens && jobs > 1 ? BackgroundValue(listGoldens) : nil
        let outcomes = OrderedParallel.map(selected, jobs: jobs, onResult: onOutcome) { worker.check($0) }

        var unreferenced: [String] = [], deleted: [String] = []
        var temporaries: [CheckSummary.TemporaryFile] = []
        if listsGoldens {
            let listing = background?.value ?? listGoldens()
            let referenced = Set(all.map(GoldenCheck.goldenRelativePath(forTrace:)))
            for rel in listing.goldens where !referenced.contains(rel) {
                if options.deletesUnreferenced && unlink(goldenRoot + "/" + rel) == 0 {
                    deleted.append(Files.join(goldenShown, rel))
                } else {
                    unreferenced.append(Files.join(goldenShown, rel))
                }
            }
            temporaries = disposeOfTemporaries(listing.temporaries, goldenRoot: goldenRoot, goldenShown: goldenShown, mode: options.mode)
        }
        var summary = CheckSummary(traces: outcomes, unreferenced: unreferenced,
                                   unreferencedFails: options.unreferencedFails, shard: shardText,
                                   unlisted: unlisted.map { $0.hasPrefix(": ") ? traceShown + $0 : Files.join(traceShown, $0) },
                                   temporaries: temporaries)
        summary.deleted = deleted
        summary.noTraces = nothingSelected
        return summary
    }

    /// What to do with the temporary files of golden writes found under the golden folder
    /// (relative paths): those of this process are writes of this run and are left alone; those
    /// whose writer no longer exists are removed when `mode` writes goldens, else reported with
    /// how to remove them; those whose writer id belongs to a running process are reported.
    /// - Complexity: one `kill(pid, 0)` and at most one `unlink` per file.
    static func disposeOfTemporaries(_ rels: [String], goldenRoot: String, goldenShown: String,
                                     mode: RecordMode) -> [CheckSummary.TemporaryFile] {
        var result: [CheckSummary.TemporaryFile] = []
        let me = getpid()
        for rel in rels {
            let name = rel.split(separator: "/").last.map(String.init) ?? rel
            guard let owner = AtomicFile.temporaryOwner(of: name), owner.pid != me else { continue }
            let shown = Files.join(goldenShown, rel)
            let disposition: CheckSummary.TemporaryFile.Disposition
            if AtomicFile.processExists(owner.pid) {
                disposition = .writerRunning
            } else if !mode.writes {
                disposition = .orphaned
            } else if unlink(goldenRoot + "/" + rel) == 0 || errno == ENOENT {
                disposition = .removed
            } else {
                disposition = .notRemoved(String(cString: strerror(errno)))
            }
            result.append(CheckSummary.TemporaryFile(path: shown, pid: owner.pid, disposition: disposition))
        }
        return result
    }
}

extension TraceChecker {
    /// A large trace (`StreamingReplay`) whose golden holds exactly the bytes of its replay: the
    /// result is compared with the golden's bytes as it is produced, and neither is held. The
    /// outcome is the `PASS` the whole check would give; nil when the check needs the whole
    /// result (a difference, which tolerances may still pass; no golden; a record mode that
    /// rewrites passing goldens; a pending golden beside it), and the whole check runs instead.
    /// - Complexity: two reads of the trace file to scan it, one to replay it, one of the golden.
    func streamedPass(tracePath: String, shown: String, goldenPath: String) -> TraceOutcome? {
        guard !options.mode.rewritesAll, Files.probe(goldenPath) == .file,
              Files.probe(goldenPath + RecordMode.pendingSuffix) == .missing,
              let golden = FileHandle(forReadingAtPath: goldenPath) else { return nil }
        defer { try? golden.close() }
        var equal = true
        let result: SimulationResult
        do throws(TraceError) {
            let scanned = try StreamingReplay.scan(path: tracePath, shown: shown)
            result = try StreamingReplay.replay(scanned, shown: shown, options: options.simulation) { bytes in
                guard equal else { return }
                let expected = (try? golden.read(upToCount: bytes.count)) ?? Data()
                equal = expected.count == bytes.count && expected.elementsEqual(bytes)
            }.result
        } catch {
            return nil   // the whole check reports the error
        }
        guard equal, ((try? golden.read(upToCount: 1)) ?? Data()).isEmpty else { return nil }
        return TraceOutcome(path: shown, status: .pass, lines: ["PASS \(shown)"] + GoldenCheck.warningLines(result))
    }
}

extension TraceChecker {
    /// The line after a `FAIL` status line naming the golden and the command that accepts the
    /// actual result (`check TRACE --record failed`, with `--golden` when the golden folder is not
    /// the one `check TRACE` finds by itself), as the `assertPanelTrace` message does.
    func acceptLine(rel: String, shown: String, goldenName: String) -> String {
        let goldenRel = GoldenCheck.goldenRelativePath(forTrace: rel)
        let found = GoldenLocation.golden(ofTrace: traceRoot + "/" + rel, workingDirectory: "/")
        let sameFolder = (found as NSString).standardizingPath == ((goldenRoot + "/" + goldenRel) as NSString).standardizingPath
        let command = "panelsim check \(shellQuoted(shown))" + (sameFolder ? "" : " --golden \(shellQuoted(goldenShown))")
        return "  golden: \(goldenName); if the new behavior is right, rewrite it with \(command) --record failed "
            + "(or --record pending to review it first)"
    }
}

/// Checks one trace (loads, replays, compares, records, writes a report). Safe to call from
/// several threads at once for different traces: it only reads its fields.
struct TraceChecker: @unchecked Sendable {
    var traceRoot: String
    var goldenRoot: String
    var traceShown: String
    var goldenShown: String
    var options: CheckRunner.Options
    var services: TraceServices
    var tolerances: [String: Result<Tolerances, ToleranceSettingError>]

    func check(_ rel: String) -> TraceOutcome {
        let shown = Files.join(traceShown, rel)
        let goldenRel = GoldenCheck.goldenRelativePath(forTrace: rel)
        let goldenName = Files.join(goldenShown, goldenRel)

        let folder = rel.split(separator: "/").dropLast().joined(separator: "/")
        let tolerances: Tolerances
        switch self.tolerances[folder] ?? .success(.default) {
        case .success(let t): tolerances = t
        case .failure(let e): return TraceOutcome(path: shown, status: .error, lines: ["ERROR \(shown): \(e.description)"])
        }

        if services.streams(traceRoot + "/" + rel, threshold: options.streamingThreshold),
           let passed = streamedPass(tracePath: traceRoot + "/" + rel, shown: shown, goldenPath: goldenRoot + "/" + goldenRel) {
            return passed
        }
        let checked = services.pipeline.check(tracePath: traceRoot + "/" + rel, traceShown: shown,
                                              goldenPath: goldenRoot + "/" + goldenRel, goldenShown: goldenName,
                                              mode: options.mode, tolerances: tolerances, simulation: options.simulation)
        var o = TraceOutcome(path: shown, status: checked.status, lines: checked.lines, wroteGolden: checked.verdict?.wroteGolden ?? false)
        o.line = checked.line
        o.model = checked.replayed?.loaded.trace.header.model
        guard let verdict = checked.verdict, let replayed = checked.replayed else { return o }
        o.pending = verdict.wrotePending
        if verdict.status == .missing && verdict.wrotePending == nil {
            // How to get out of MISSING (record mode never: CI, or --record never).
            o.lines.insert("  to record it, run check again with --record missing (writes \(goldenName)), "
                           + "or with --record pending to review it first", at: 1)
        }
        if verdict.status == .fail && verdict.wrotePending == nil {
            // After the report, before the replay's warnings (where the test message puts it).
            let end = (o.lines.lastIndex { !$0.hasPrefix("  warning: ") } ?? 0) + 1
            o.lines.insert(acceptLine(rel: rel, shown: shown, goldenName: goldenName), at: end)
        }
        guard verdict.isReportable, let dir = options.reportDirectory else { return o }
        let reportRel = String(rel.dropLast(".jsonl".count)) + ".html"
        do {
            // A MISSING report says how to record the golden (as `report` without a golden does).
            let input = verdict.reportInput(trace: replayed.loaded.trace, tolerances: tolerances,
                                            recordCommand: "panelsim check \(shellQuoted(shown)) --record missing")
            try AtomicFile.write(HTMLReport.render(input), to: dir + "/" + reportRel,
                                 shownAs: Files.join(options.reportDisplay ?? dir, reportRel))
            let name = Files.join(options.reportDisplay ?? dir, reportRel)
            o.report = name
            o.headline = HTMLReport.headline(input).text
            o.reportLink = reportRel
            o.lines.append("  report: \(name)")
        } catch {
            o.lines.append("  warning: \(error.description)")
        }
        return o
    }
}
