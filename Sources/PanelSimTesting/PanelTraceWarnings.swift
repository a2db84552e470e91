/// What `assertPanelTrace` does with the replay's warnings, the lines `panelsim check` prints as
/// `  warning: …` after a trace's status line (a call naming no active detent, a gesture the
/// system refused, a panel that did not come to rest within the settle budget). A warning often
/// means the trace does not say what its author meant (`selectDetent "huge"` for `"large"`), and
/// a golden recorded from it keeps that behaviour.
public enum PanelTraceWarnings: String, Sendable, CaseIterable {
    /// Print each warning in the test output as `FILE:LINE: warning: TRACE: …` (the caller's
    /// file and line) and let the assertion pass or fail on the comparison alone.
    case report
    /// Fail the assertion when the replay gave any warning, even when the result matches its
    /// golden or this call recorded it (the golden written stays; the message names it).
    case fail
}

extension PanelTraceOutcome {
    /// The outcome under `policy`: with `.fail`, an outcome that passes but has `warnings`
    /// gets a failure message (`lines`, then what failed and what to do); otherwise unchanged.
    /// - Complexity: O(lines).
    public func applying(_ policy: PanelTraceWarnings) -> PanelTraceOutcome {
        guard policy == .fail, failureMessage == nil, !warnings.isEmpty else { return self }
        var outcome = self
        let count = warnings.count == 1 ? "a warning" : "\(warnings.count) warnings"
        var next = ["  the replay gave \(count) and warnings: .fail makes that a failure; "
                    + "correct the trace, or pass warnings: .report to accept \(warnings.count == 1 ? "it" : "them")."]
        if wroteGolden {
            next.append("  this call wrote the golden \(goldenPath) from this replay: remove it if the warning shows a mistake in the trace.")
        }
        outcome.failureMessage = (lines + next).joined(separator: "\n")
        return outcome
    }

    /// The lines `assertPanelTrace` prints for the warnings of an outcome that passes, in the
    /// `FILE:LINE: warning: …` form editors and CI logs pick up (`file`, `line`: the caller's);
    /// empty when it fails (its failure message already holds them) or has none.
    /// - Complexity: O(warnings).
    public func warningReport(file: String, line: UInt) -> [String] {
        guard failureMessage == nil else { return [] }
        return warnings.map { "\(file):\(line): warning: \(tracePath): \($0)" }
    }
}
