import PanelSimCore
import PanelTrace

extension HTMLReport {
    /// A series of errors over time for `trajectoryCharts`, drawn in the colour of the result it
    /// belongs to.
    public struct ErrorSeries: Sendable {
        public var label: String
        /// True: the golden's role (grey); false: the actual's (blue).
        public var isGolden: Bool
        /// (time s, error) pairs, in time order.
        public var points: [(t: Double, error: Double)]
        public init(label: String, isGolden: Bool, points: [(t: Double, error: Double)]) {
            self.label = label
            self.isGolden = isGolden
            self.points = points
        }
    }

    /// The charts of one trace outside a golden comparison (`tune --report`): the colour key, the
    /// location plot of `input` at full width (state strips and bands, anchors, finger, observed
    /// samples, the events of both results), and below it `errors` over time on a chart of its
    /// own with a zero line. Both renderings of each, as in `render`.
    /// - Complexity: O(records + samples + error points).
    public static func trajectoryCharts(_ input: Input, errors: [ErrorSeries], errorTitle: String) -> String {
        let plot = Plot(input: input)
        var html = legend(input: input, plot: plot)
        html += plot.svgPair(channel: .location)
        guard !errors.isEmpty else { return html }
        html += "<h3>\(Markup.escape(errorTitle))</h3>\n"
        let series = errors.map {
            Plot.ResidualSeries(
                label: $0.label, color: $0.isGolden ? goldenColor : actualColor,
                points: $0.points.map { Plot.Point2(t: $0.t, v: $0.error) }, wide: $0.isGolden)
        }
        var narrow = plot
        narrow.layout = .phone
        return html + plot.residualSVG(series, band: 0, label: "replay − observed (pt)")
            + narrow.residualSVG(series, band: 0, label: "replay − observed (pt)")
    }
}
