import PanelGolden

/// `check --report-dir DIR`'s `DIR/index.html`: every trace of the run, failures first with the
/// headline of their report and a link to it (`HTMLReport.index`).
enum CheckReportIndex {
    /// The index entries of `summary`, in its order (the page sorts by status).
    static func entries(_ summary: CheckSummary) -> [HTMLReport.IndexEntry] {
        summary.traces.map { t in
            let reason =
                t.headline
                ?? (t.status.countsAsPassed
                    ? ""
                    : t.lines.first.map { line in
                        // The status line without its status word and path: the reason.
                        let rest = line.drop { $0 != " " }.dropFirst()
                        return rest.hasPrefix(t.path)
                            ? String(rest.dropFirst(t.path.count).drop { $0 == ":" || $0 == " " }) : String(rest)
                    } ?? "")
            return HTMLReport.IndexEntry(status: t.status, trace: t.path, headline: reason, link: t.reportLink)
        }
    }

    /// Writes the index into `directory` (atomically); the line `check` prints, or a warning.
    static func write(_ summary: CheckSummary, directory: String, shown: String, title: String) -> String {
        let path = Files.join(shown, "index.html")
        do {
            try AtomicFile.write(
                HTMLReport.index(title: title, summaryLine: summary.summaryLine, entries: entries(summary)),
                to: directory + "/index.html", shownAs: path)
            return "report index: \(path)"
        } catch {
            return "warning: \(error.description)"
        }
    }
}
