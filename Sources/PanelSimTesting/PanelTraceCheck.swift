import Foundation
import PanelGolden
import PanelSimCore
import PanelTrace

/// What `assertPanelTrace` found for one trace: the same status and lines `panelsim check`
/// prints, the failure message the assertion reports (nil when it passes), and what it attaches.
public struct PanelTraceOutcome: Sendable {
    /// `check`'s status for the trace. The assertion passes exactly when `check` counts the
    /// trace as passed (`TraceCheckResult.passes`): `pass`, and `new` / `updated` (this call
    /// wrote the golden, in record mode `missing`, `failed` or `all`).
    public var status: GoldenStatus
    /// The lines `panelsim check` prints for this trace: status line (`PASS traces/a.jsonl`,
    /// `FAIL …`), failure report (first divergence, max error per channel, context rows, event
    /// diff) or notes, and simulation warnings; not `check`'s line after a `FAIL` report naming
    /// the golden and its `--record failed` command (`failureMessage` says that in test terms).
    public var lines: [String]
    /// The message the assertion reports: `lines` plus what to do next (where the golden is, how
    /// to record it or accept a pending one). Nil when the assertion passes.
    public var failureMessage: String?
    /// Whether the golden was written by this call (atomically).
    public var wroteGolden: Bool
    /// The record mode used; nil when it could not be resolved (an invalid `PANELSIM_RECORD`).
    public var recordMode: RecordMode?
    /// The trace file, absolute.
    public var tracePath: String
    /// The golden file, absolute.
    public var goldenPath: String
    /// The golden's path as shown in messages (as given with `golden:`, else relative to the
    /// test file's folder, like the trace's).
    public var goldenName: String
    /// The actual result file (the text a golden of it holds); nil when the trace was not replayed.
    public var actualResult: String?
    /// The HTML report (`panelsim report`'s format) for `fail` and `missing`; nil otherwise.
    public var htmlReport: String?
    /// The replay's warnings, the ones `check` prints as `  warning: …` after the status line
    /// (e.g. `line 2: selectDetent: 'huge' names no active detent; …`); empty when the trace was
    /// not replayed. `assertPanelTrace` prints them, or fails on them (`PanelTraceWarnings`).
    public var warnings: [String] = []

    /// True when the assertion passes.
    public var passed: Bool { failureMessage == nil }
}

/// The work of `assertPanelTrace` without the reporting: load, replay, compare with (or write)
/// the golden, and describe the outcome. A pure function of its arguments and the files it reads
/// and writes, so it can be tested and called from any harness.
public enum PanelTraceCheck {
    /// Replays the trace at `trace` and checks it against its golden, as `panelsim check` does.
    ///
    /// Paths: `trace` (and `golden`) are relative to `baseFolder`, or absolute. Unless `golden`
    /// is given, the golden is found in `check`'s layout: the last folder named `traces` in the
    /// path becomes `golden` (`traces/a/b.jsonl` → `golden/a/b.golden.jsonl`, as `check` run in
    /// `baseFolder` finds it); a path without a `traces` folder has its golden in a `golden`
    /// folder beside it (`x.jsonl` → `golden/x.golden.jsonl`, `rec/x.jsonl` →
    /// `rec/golden/x.golden.jsonl`).
    ///
    /// Tolerances: `check`'s defaults, then the `panelsim.tolerances` files from the `traces`
    /// folder (or, without one, the trace's own folder) down to the trace's folder, then
    /// `tolerances` (`CHANNEL=VALUE`, exactly `check --tolerance`'s syntax).
    ///
    /// Record mode: `RecordMode.resolution(flag:environment:)` with `record` as the flag, so
    /// `record`, else `PANELSIM_RECORD`, else `never` when `CI` is set, else `missing`.
    ///
    /// Nothing is thrown: a bad argument, an unreadable or malformed trace (named with its
    /// line), an unreadable golden or a failed write becomes an `error` outcome whose message
    /// says which file and why.
    /// - Parameters:
    ///   - trace: the trace file (`*.jsonl`, trace format version 1).
    ///   - baseFolder: absolute folder for relative paths (`assertPanelTrace`: the test file's folder).
    ///   - golden: the golden file, overriding the layout above.
    ///   - tolerances: settings such as `"location=0.01"`, `"velocity=abs:1e-6,rel:1e-5"`,
    ///     `"time=0.001"` (s); units: pt for location and contentOffset, pt/s for velocity.
    ///   - record: the record mode; nil follows `PANELSIM_RECORD` and `CI`.
    ///   - simulation: simulator options (`driveScroll`, `panelHandlerFirst`); a golden records
    ///     the ones away from the defaults.
    ///   - profile: `LIBRARY@VERSION` (`"lnpopup@4.5.5"`, docs/profiles.md): replay the trace as
    ///     that version of its library behaved, replacing its header's profile, as `check
    ///     --profile` does. The golden is where `check --profile` finds it, the layout above (the
    ///     result's header records the profile point, so a golden of another point fails on
    ///     channel `header`); give `golden` to keep one golden per version. An unknown library, a
    ///     refused version, a library other than the trace's, or a trace that uses what the
    ///     version lacks is an `error` outcome (nothing is replayed or written).
    ///   - environment: where `PANELSIM_RECORD` and `CI` are read (default: the process's).
    /// - Complexity: one load, one replay and one comparison: O(trace + result + golden size)
    ///   (with `profile`, one more load of the trace to check its library).
    public static func evaluate(
        trace: String, baseFolder: String, golden: String? = nil, tolerances: [String] = [],
        record: RecordMode? = nil, simulation: SimulationOptions = SimulationOptions(),
        profile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PanelTraceOutcome {
        let place = TracePlace(trace: trace, golden: golden, baseFolder: baseFolder)
        var simulation = simulation
        var outcome = PanelTraceOutcome(
            status: .error, lines: [], failureMessage: nil, wroteGolden: false, recordMode: nil,
            tracePath: place.tracePath, goldenPath: place.goldenPath, goldenName: place.goldenName,
            actualResult: nil, htmlReport: nil)
        func stop(_ status: GoldenStatus, _ line: String) -> PanelTraceOutcome {
            var o = outcome
            o.status = status
            o.lines = [line]
            o.failureMessage = line
            return o
        }

        if let profile {
            switch Self.apply(profile: profile, tracePath: place.tracePath, to: &simulation) {
            case .success: break
            case .failure(let m): return stop(.error, "ERROR \(place.tracePath): profile \(profile): \(m.text)")
            }
        }

        let mode: RecordMode
        let source: RecordMode.Source
        do {
            (mode, source) = try RecordMode.resolution(flag: record?.rawValue, environment: environment)
        } catch {
            return stop(.error, "ERROR \(place.tracePath): \(error.description)")
        }
        outcome.recordMode = mode

        var settings: [(ToleranceChannel, Tolerance)] = []
        for text in tolerances {
            do { settings.append(try ToleranceSettings.parse(text)) } catch {
                return stop(.error, "ERROR \(place.tracePath): tolerances: \(error.description)")
            }
        }
        let resolver = ToleranceResolver(root: place.toleranceRoot, shownRoot: place.toleranceRoot, settings: settings)
        let toleranceResult = resolver.resolve(for: [place.relativeToToleranceRoot]).first?.value ?? .success(.default)
        let tolerances: Tolerances
        switch toleranceResult {
        case .success(let t): tolerances = t
        case .failure(let e): return stop(.error, "ERROR \(place.tracePath): \(e.description)")
        }

        let checked = TraceCheckPipeline.live.check(
            tracePath: place.tracePath, traceShown: place.tracePath, goldenPath: place.goldenPath,
            goldenShown: place.goldenPath, mode: mode, tolerances: tolerances,
            simulation: simulation)
        guard let verdict = checked.verdict, let replayed = checked.replayed else {
            return stop(checked.status, checked.lines[0])
        }
        outcome.status = verdict.status
        outcome.lines = verdict.lines
        outcome.wroteGolden = verdict.wroteGolden
        outcome.actualResult = String(decoding: replayed.bytes, as: UTF8.self)
        outcome.warnings = GoldenCheck.warnings(replayed.result)
        if verdict.isReportable { outcome.htmlReport = verdict.htmlReport(traceHeader: replayed.loaded.trace.header) }
        outcome.failureMessage =
            checked.passes ? nil : failureMessage(verdict, place: place, mode: mode, source: source)
        return outcome
    }

    /// Sets `simulation`'s profile for the library `text` (`LIBRARY@VERSION`) names, after checking
    /// that the trace at `tracePath` is of that library. A trace that does not load is left to the
    /// check, which reports it.
    /// - Returns: the refusal of profiles.md §2.2, or the mismatch with the trace's model.
    static func apply(profile text: String, tracePath: String, to simulation: inout SimulationOptions) -> Result<
        Void, ProfileMessage
    > {
        let profile: TraceProfile
        switch TraceProfiles.parse(commandLine: text) {
        case .success(let p): profile = p
        case .failure(let m): return .failure(m)
        }
        if let model = (try? TraceLoader.load(path: tracePath))?.trace.header.model, model != profile.library {
            return .failure(ProfileMessage("the trace is a \(model.rawValue) trace, not \(profile.library.rawValue)"))
        }
        simulation.profiles = simulation.profiles.filter { $0.library != profile.library } + [profile]
        return .success(())
    }

    /// Checks a listed trace file (`PanelTraces`); a listing problem is an `error` outcome.
    public static func evaluate(
        _ file: PanelTraceFile, golden: String? = nil, tolerances: [String] = [],
        record: RecordMode? = nil, simulation: SimulationOptions = SimulationOptions(),
        profile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PanelTraceOutcome {
        if let problem = file.problem {
            let place = TracePlace(trace: file.path, golden: golden, baseFolder: file.baseFolder)
            let line = "ERROR \(problem)"
            return PanelTraceOutcome(
                status: .error, lines: [line], failureMessage: line, wroteGolden: false, recordMode: nil,
                tracePath: place.tracePath, goldenPath: place.goldenPath, goldenName: place.goldenName,
                actualResult: nil, htmlReport: nil)
        }
        return evaluate(
            trace: file.path, baseFolder: file.baseFolder, golden: golden, tolerances: tolerances,
            record: record, simulation: simulation, profile: profile, environment: environment)
    }

    /// How the record mode was chosen, for messages.
    static func describe(_ mode: RecordMode, _ source: RecordMode.Source) -> String {
        switch source {
        case .flag: return "record mode \(mode) (the record: argument)"
        case .environment: return "record mode \(mode) (\(RecordMode.environmentVariable)=\(mode))"
        case .ci: return "record mode \(mode) (CI is set)"
        case .default: return "record mode \(mode) (the default outside CI)"
        }
    }

    /// `check`'s lines plus the next step; nil for a pass.
    static func failureMessage(_ verdict: GoldenVerdict, place: TracePlace, mode: RecordMode, source: RecordMode.Source)
        -> String?
    {
        let how = describe(mode, source)
        // How to run once in `target` mode: the `record:` argument when it chose the mode (it takes
        // precedence over the environment variable), else the environment variable.
        func step(_ target: RecordMode, _ aside: String) -> String {
            let variable = RecordMode.environmentVariable
            return source == .flag
                ? "pass record: .\(target.rawValue) in this call once (the argument takes precedence over \(variable))"
                : "run this test once with \(variable)=\(target.rawValue) (or pass record: .\(target.rawValue)\(aside))"
        }
        // Every path of the message is absolute, so that it works pasted into a shell in any
        // folder (the package's root, the test's folder, Xcode's).
        let golden = place.goldenPath
        var next: [String] = []
        switch verdict.status {
        case .pass, .new, .updated:
            return nil
        case .missing:
            next = [
                "  no golden at \(golden); nothing was written in \(how).",
                "  To record it, \(step(.missing, "; where CI is not set, missing is the default")), look at the new file and commit it.",
            ]
        case .fail:
            next = [
                "  golden: \(golden).",
                "  If the new behavior is right, rewrite the golden: \(step(.failed, "")), review the change and commit it.",
            ]
        case .error, .skip:
            next = []
        }
        if let pending = verdict.wrotePending {
            // Record mode pending: the golden is untouched; the actual result waits beside it.
            // `check`'s `pending: wrote …` line above already gives the accept command.
            next = [
                "  the golden is untouched; the actual result is pending in \(pending) (\(how)); to drop it: panelsim reject \(shellQuoted(pending))."
            ]
        }
        return (verdict.lines + next).joined(separator: "\n")
    }
}

/// Where a trace, its golden and its tolerance files are (absolute) and how they are shown.
struct TracePlace {
    var tracePath: String
    var goldenPath: String
    var goldenName: String
    /// The folder whose `panelsim.tolerances` applies first: the last `traces` folder of the
    /// path, else the trace's folder.
    var toleranceRoot: String
    var toleranceRootName: String
    /// The trace's path below `toleranceRoot`.
    var relativeToToleranceRoot: String

    init(trace: String, golden: String?, baseFolder: String) {
        tracePath = PanelTestPaths.resolve(trace, against: baseFolder)
        // `check`'s rule (GoldenLocation), with the test file's folder as the working directory.
        let placement = GoldenLocation.place(file: trace, workingDirectory: baseFolder)
        toleranceRootName = placement.traceRoot
        toleranceRoot = PanelTestPaths.resolve(toleranceRootName, against: baseFolder)
        relativeToToleranceRoot = placement.below
        goldenName =
            golden ?? Files.join(placement.goldenRoot, GoldenCheck.goldenRelativePath(forTrace: placement.below))
        goldenPath = PanelTestPaths.resolve(goldenName, against: baseFolder)
    }
}
