import PanelGolden

/// `check --bisect`: exit codes for `git bisect run`, chosen so that no mistake is ever taken
/// for "bad".
///
/// `git bisect run` reads 0 as good, 125 as "cannot test this revision" (skip), 1–127 except
/// 125 as bad, and anything else (here 128) as "stop bisecting" (git-bisect(1), "bisect run").
/// So a step exits:
/// * 0 when every trace passes;
/// * 1 when a trace differs from its golden (`FAIL`), whatever else happened;
/// * 125 when this revision cannot be evaluated: no trace folder or no golden folder yet, a
///   trace without a golden, a trace or golden that does not load, a golden of another format
///   version, nothing to check;
/// * 128 for a usage error (a wrong flag, `--record` other than `never`, a report that cannot be
///   written), which would be wrong at every revision.
enum BisectExit {
    /// The exit code that stops `git bisect run`.
    static let stop = ExitCode(rawValue: 128)

    /// The step's exit code for a finished check.
    static func code(_ summary: CheckSummary) -> ExitCode {
        if summary.traces.contains(where: { $0.status == .fail }) { return .regression }
        if summary.noTraces || summary.traces.contains(where: { $0.status != .pass }) { return .unsupported }
        return .success
    }

    /// Why the revision checked out cannot be evaluated before any trace is read: a trace folder
    /// or trace file, or the golden folder (the rule's, or `--golden`), that does not exist at
    /// this revision. Nil when everything is there.
    static func unevaluable(traceDirectory: String, files: [String], golden: String?, _ context: CommandContext)
        -> String?
    {
        if let missing = files.first(where: { !Files.isFile(context.resolve($0)) }) {
            return "no trace file '\(missing)'"
        }
        let goldenRoot: String
        if let file = files.first {
            goldenRoot =
                golden ?? GoldenLocation.place(file: file, workingDirectory: context.workingDirectory).goldenRoot
        } else {
            guard Files.isDirectory(context.resolve(traceDirectory)) else {
                return "no trace folder '\(traceDirectory)'"
            }
            goldenRoot =
                golden
                ?? GoldenLocation.place(folder: traceDirectory, workingDirectory: context.workingDirectory).goldenRoot
        }
        guard Files.isDirectory(context.resolve(goldenRoot)) else { return "no golden folder '\(goldenRoot)'" }
        return nil
    }

    /// Whether a command line asks for `check --bisect` (options end at `--`).
    static func requested(_ arguments: [String]) -> Bool {
        arguments.first == "check" && (arguments.dropFirst().prefix { $0 != "--" }).contains("--bisect")
    }
}
