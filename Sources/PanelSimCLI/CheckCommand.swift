import PanelGolden
import PanelSimCore

/// `panelsim check [TRACE_DIR] [--golden DIR] [--record MODE]`: replay every trace and compare
/// it with its golden result file.
struct CheckCommand: PanelCommand {
    static let info = CommandInfo(
        name: "check",
        abstract: "Replay every trace and compare it with its golden result.",
        usage: "panelsim check [TRACE_DIR] [--golden DIR] [--record MODE]",
        arguments: [("TRACE_DIR", "Directory searched recursively for *.jsonl traces (default: traces).")],
        options: [
            OptionSpec(names: ["--golden"], valueName: "DIR",
                       help: "Directory of golden result files (default: golden).\nThe golden of TRACE_DIR/a/b.jsonl is DIR/a/b.golden.jsonl."),
            OptionSpec(names: ["--record"], valueName: "MODE",
                       help: "When to write goldens: never, missing, failed or all.\nDefault: $PANELSIM_RECORD; else never when $CI is set;\nelse missing."),
        ],
        discussion: """
            Traces are replayed in the byte order of their paths relative to TRACE_DIR (files and
            directories starting with "." and files ending in .golden.jsonl are skipped). One line
            per trace:
              PASS path                     matches its golden within tolerances
              FAIL path                     differs; a report follows (first divergence, max
                                            error per channel, context rows, event diff)
              NEW path (golden written)     no golden existed; written (counts as passed)
              UPDATED path (golden rewritten)  rewritten by --record failed/all (counts as passed)
              MISSING path (no golden)      no golden and recording is off (counts as failed)
              ERROR path[:line]: <error>    the trace or its golden is malformed or unreadable
              SKIP path[:line]: <reason>    cannot be evaluated at this revision (unsupported
                                            trace feature, or a golden of another format version)
            Goldens that no trace references are listed as warnings, then a summary line:
              <N> passed, <M> failed[, <K> skipped][, <E> errors][ (<W> goldens written, <U> rewritten)]

            Record modes: never writes nothing; missing writes goldens that do not exist; failed
            also rewrites goldens that fail or cannot be compared; all rewrites every golden whose
            bytes would change. Writes are atomic (temporary file, then rename).

            Exit status: 1 if any trace FAILed or is MISSING; otherwise 2 if any ERROR; otherwise
            125 if any SKIP; otherwise 0. A regression wins over bad input, so that `git bisect
            run` treats a commit with a real regression as bad even if some trace is malformed.

            \(HelpFormat.exitCodes)
            """)

    var traceDirectory: String
    var goldenDirectory: String
    var recordFlag: String?
    /// Resolved by `validate`.
    var mode: RecordMode = .never
    var tolerances = Tolerances.default

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count <= 1 else {
            throw UsageError("unexpected argument '\(parsed.positionals[1])'", command: "check")
        }
        traceDirectory = parsed.positionals.first ?? "traces"
        goldenDirectory = parsed.values["--golden"] ?? "golden"
        recordFlag = parsed.values["--record"]
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        do {
            mode = try RecordMode.resolve(flag: recordFlag, environment: context.environment)
        } catch {
            throw UsageError(error.description, command: "check")
        }
        guard Files.isDirectory(context.resolve(traceDirectory)) else {
            throw UsageError("trace directory '\(traceDirectory)' does not exist or is not a directory", command: "check")
        }
        if goldenDirectory.isEmpty { throw UsageError("empty --golden directory", command: "check") }
        let goldenRoot = context.resolve(goldenDirectory)
        if Files.isFile(goldenRoot) {
            throw UsageError("golden directory '\(goldenDirectory)' is a file", command: "check")
        }
    }

    /// Counts per outcome.
    private struct Tally {
        var passed = 0, failed = 0, skipped = 0, errors = 0, written = 0, rewritten = 0

        var summary: String {
            var s = "\(passed) passed, \(failed) failed"
            if skipped > 0 { s += ", \(skipped) skipped" }
            if errors > 0 { s += ", \(errors) error" + (errors == 1 ? "" : "s") }
            var writes: [String] = []
            if written > 0 { writes.append("\(written) golden" + (written == 1 ? "" : "s") + " written") }
            if rewritten > 0 { writes.append("\(rewritten) rewritten") }
            if !writes.isEmpty { s += " (" + writes.joined(separator: ", ") + ")" }
            return s
        }

        var exitCode: ExitCode {
            if failed > 0 { return .regression }
            if errors > 0 { return .badInput }
            if skipped > 0 { return .unsupported }
            return .success
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let traceRoot = context.resolve(traceDirectory)
        let goldenRoot = context.resolve(goldenDirectory)
        let out = context.stdout
        let traces = Files.list(under: traceRoot, suffix: ".jsonl", excluding: ".golden.jsonl")
        var tally = Tally()
        var referenced = Set<String>()
        if traces.isEmpty { out.line("warning: no *.jsonl traces under \(traceDirectory)") }

        for rel in traces {
            let shown = Files.join(traceDirectory, rel)
            let goldenRel = String(rel.dropLast(".jsonl".count)) + ".golden.jsonl"
            referenced.insert(goldenRel)
            let goldenPath = goldenRoot + "/" + goldenRel
            checkOne(shown: shown, tracePath: traceRoot + "/" + rel, goldenPath: goldenPath,
                     goldenShown: Files.join(goldenDirectory, goldenRel), context: context, tally: &tally)
        }

        // Goldens nobody references (only meaningful, and only reported, when the golden
        // directory exists).
        if Files.isDirectory(goldenRoot) {
            for rel in Files.list(under: goldenRoot, suffix: ".golden.jsonl") where !referenced.contains(rel) {
                let traceRel = String(rel.dropLast(".golden.jsonl".count)) + ".jsonl"
                out.line("warning: unreferenced golden \(Files.join(goldenDirectory, rel)) (no trace \(Files.join(traceDirectory, traceRel)))")
            }
        }
        out.line(tally.summary)
        return tally.exitCode
    }

    private func write(_ text: String, to path: String, shown: String, context: CommandContext,
                       tally: inout Tally) -> Bool {
        do {
            try AtomicFile.write(text, to: path)
            return true
        } catch {
            context.stdout.line("ERROR \(shown): \(error.description)")
            tally.errors += 1
            return false
        }
    }

    private func checkOne(shown: String, tracePath: String, goldenPath: String, goldenShown: String,
                          context: CommandContext, tally: inout Tally) {
        let out = context.stdout
        let loaded: LoadedTraceInfo
        do {
            loaded = try context.services.load(tracePath, shown)
        } catch {
            if error.kind == .unsupported {
                // The error names the file and line itself: `SKIP path:line: field: … not supported yet`.
                out.line("SKIP \(error.description)")
                tally.skipped += 1
            } else {
                out.line("ERROR \(error.description)")
                tally.errors += 1
            }
            return
        }
        let result = context.services.simulate(loaded.trace)
        let actual = ResultDocument(header: ResultHeaderFactory.header(for: loaded), records: result.records)
        let actualText = ResultFile.render(actual)
        var warnings = result.warnings.map { "  warning: \($0)" }
        if result.budgetExceeded { warnings.append("  warning: the panel did not come to rest within the settle budget") }

        func emit(_ line: String, _ extra: [String] = []) {
            out.line(line)
            for l in extra + warnings { out.line(l) }
        }

        guard Files.isFile(goldenPath) else {
            if mode.writesMissing {
                if write(actualText, to: goldenPath, shown: shown, context: context, tally: &tally) {
                    emit("NEW \(shown) (golden written)")
                    tally.passed += 1; tally.written += 1
                }
            } else {
                emit("MISSING \(shown) (no golden)")
                tally.failed += 1
            }
            return
        }

        let goldenText: String
        switch Files.read(goldenPath) {
        case .success(let text): goldenText = text
        case .failure(let failure):
            out.line("ERROR \(shown): \(failure.message)")
            tally.errors += 1
            return
        }
        if goldenText == actualText {
            emit("PASS \(shown)")
            tally.passed += 1
            return
        }

        let golden: ResultDocument
        do {
            golden = try ResultFile.read(text: goldenText, file: goldenShown)
        } catch {
            if mode.rewritesFailed {
                if write(actualText, to: goldenPath, shown: shown, context: context, tally: &tally) {
                    emit("UPDATED \(shown) (golden rewritten; it was unreadable: \(error.description))")
                    tally.passed += 1; tally.rewritten += 1
                }
            } else {
                emit("ERROR \(shown): unreadable golden: \(error.description)")
                tally.errors += 1
            }
            return
        }

        let comparison = Comparator.compare(expected: golden, actual: actual, tolerances: tolerances)
        switch comparison.status {
        case .incompatible(let version):
            if mode.rewritesFailed {
                if write(actualText, to: goldenPath, shown: shown, context: context, tally: &tally) {
                    emit("UPDATED \(shown) (golden rewritten; it was format version \(version))")
                    tally.passed += 1; tally.rewritten += 1
                }
            } else {
                emit("SKIP \(shown): golden format version \(version), this build writes \(ResultHeader.currentVersion)")
                tally.skipped += 1
            }
        case .passed:
            let notes = comparison.notes.map { "  note: " + $0 }
            if mode.rewritesAll {
                if write(actualText, to: goldenPath, shown: shown, context: context, tally: &tally) {
                    emit("UPDATED \(shown) (golden rewritten; it matched within tolerances)", notes)
                    tally.passed += 1; tally.rewritten += 1
                }
            } else {
                emit("PASS \(shown)", notes)
                tally.passed += 1
            }
        case .failed:
            let report = comparison.report(indent: "  ").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if mode.rewritesFailed {
                if write(actualText, to: goldenPath, shown: shown, context: context, tally: &tally) {
                    emit("UPDATED \(shown) (golden rewritten)", report)
                    tally.passed += 1; tally.rewritten += 1
                }
            } else {
                emit("FAIL \(shown)", report)
                tally.failed += 1
            }
        }
    }
}
