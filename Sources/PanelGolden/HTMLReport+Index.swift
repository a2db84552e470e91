import PanelSimCore
import PanelTrace

extension HTMLReport {
    /// One trace of a check run, as the index page lists it.
    public struct IndexEntry: Sendable, Equatable {
        public var status: GoldenStatus
        /// The trace path as shown.
        public var trace: String
        /// What differs first (the report's headline), or the status line's reason.
        public var headline: String
        /// The trace's report relative to the index (`a/b.html`), nil when none was written.
        public var link: String?
        public init(status: GoldenStatus, trace: String, headline: String, link: String?) {
            self.status = status
            self.trace = trace
            self.headline = headline
            self.link = link
        }
    }

    /// The index page of a report folder (`check --report-dir DIR` → `DIR/index.html`): the
    /// failing and missing traces first, each with its headline and a link to its report, then
    /// errors and skips with their reason, then the passing traces (folded). Links are relative,
    /// so the folder can be moved or kept as a CI artifact; the page itself has no external
    /// resource and no script, and the same run gives the same bytes.
    /// - Complexity: O(entries).
    public static func index(title: String, summaryLine: String, entries: [IndexEntry]) -> String {
        let failing = entries.filter { $0.status.countsAsFailed }
        let troubled = entries.filter { $0.status == .error || $0.status == .skip }
        let passing = entries.filter { $0.status.countsAsPassed }
        let badge =
            failing.isEmpty && troubled.isEmpty
            ? ("pass", "ALL PASS") : ("fail", failing.isEmpty ? "ERRORS" : "\(failing.count) FAILING")
        var html = documentHead(
            title: "\(title) — PanelSim reports",
            extraStyle: """
                ul.index { list-style: none; padding: 0; margin: 0; }
                ul.index li { padding: 6px 0 8px; border-bottom: 1px solid #eaeef2; overflow-wrap: anywhere; }
                ul.index .trace { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
                ul.index .why { display: block; margin-top: 2px; color: #3d444d; }
                a { color: #0969da; }

                """)
        html += """
            <h1>\(Markup.escape(title))<span class="badge \(badge.0)">\(badge.1)</span></h1>
            <p class="verdict \(badge.0)">\(Markup.escape(summaryLine))</p>

            """
        func item(_ e: IndexEntry) -> String {
            let name =
                e.link.map { "<a class=\"trace\" href=\"\(Markup.escape(urlPath($0)))\">\(Markup.escape(e.trace))</a>" }
                ?? "<span class=\"trace\">\(Markup.escape(e.trace))</span>"
            let status = e.status.rawValue.uppercased()
            let cls = e.status.countsAsFailed || e.status == .error ? "fail" : (e.status == .skip ? "skip" : "pass")
            return "<li><span class=\"badge \(cls)\" style=\"margin:0 8px 0 0\">\(status)</span>\(name)"
                + (e.headline.isEmpty ? "" : "<span class=\"why\">\(Markup.escape(e.headline))</span>") + "</li>\n"
        }
        if !failing.isEmpty {
            html +=
                "<h2>Failing (\(failing.count))</h2>\n<ul class=\"index\">\n" + failing.map(item).joined() + "</ul>\n"
        }
        if !troubled.isEmpty {
            html +=
                "<h2>Errors and skips (\(troubled.count))</h2>\n<ul class=\"index\">\n" + troubled.map(item).joined()
                + "</ul>\n"
        }
        if !passing.isEmpty {
            html +=
                "<h2>Passing (\(passing.count))</h2>\n<details><summary>\(passing.count == 1 ? "1 trace matches its golden" : "\(passing.count) traces match their goldens")</summary>\n<ul class=\"index\">\n"
                + passing.map(item).joined() + "</ul>\n</details>\n"
        }
        return html + "</body>\n</html>\n"
    }

    /// A relative path as a URL path: unreserved characters and `/` as they are, every other
    /// UTF-8 byte `%XX`.
    static func urlPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for b in path.utf8 {
            let c = Character(UnicodeScalar(b))
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || "-._~/".utf8.contains(b)
            {
                out.append(c)
            } else {
                out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
            }
        }
        return out
    }
}
