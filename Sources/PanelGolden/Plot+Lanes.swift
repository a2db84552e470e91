import PanelSimCore
import PanelTrace

extension Plot {
    /// The kinds of delegate events the lanes colour, by name: the colour key lists them.
    enum EventCategory: String, CaseIterable {
        case dragging = "dragging"
        case attraction = "attraction, animation"
        case state = "state, presentation"
        case removal = "removal, dismissal"
        case other = "other"

        /// A category from words in the event's name (`…Dragging`, `…Attracting`, `…State`,
        /// `…Present…`, `…Remove`, `…Dismiss`), so that every system's events fall in one.
        init(eventName name: String) {
            func has(_ words: [String]) -> Bool { words.contains { name.contains($0) } }
            if has(["Drag", "Pan", "Interact"]) {
                self = .dragging
            } else if has(["Remove", "Dismiss"]) {
                self = .removal
            } else if has(["Attract", "Animat", "Settl", "Transition"]) {
                self = .attraction
            } else if has(["State", "Detent", "Present", "Open", "Close", "Collapse", "Expand"]) {
                self = .state
            } else {
                self = .other
            }
        }

        /// Dot colour: hues the other meanings (golden grey, actual blue, difference red, finger
        /// orange, observed green) do not use.
        var color: String {
            switch self {
            case .dragging: return "#7b1fa2"
            case .attraction: return "#00838f"
            case .state: return "#795548"
            case .removal: return "#9e9d24"
            case .other: return "#1f2328"
            }
        }
    }

    /// One dot of a lane and, unless it continues a run, its label.
    struct LaneItem {
        var event: LaneEvent
        /// The label after (or before, near the right edge) the dot; nil for a dot of a run
        /// labelled at its last dot.
        var label: String?
        /// Where the label starts (or ends, with `labelEnd`).
        var labelX: Double = 0
        var labelEnd = false
    }

    struct LaneBlock {
        var title: String
        var rows: [[LaneItem]]
    }

    /// The lanes of each result (golden and actual, or the actual alone).
    func laneBlocks() -> [LaneBlock] {
        guard hasGolden else { return [LaneBlock(title: "events", rows: lanes(actualEvents))] }
        return [
            LaneBlock(title: sideTitle(goldenName, "events"), rows: lanes(goldenEvents)),
            LaneBlock(title: sideTitle(actualName, "events"), rows: lanes(actualEvents)),
        ]
    }

    /// Greedy lane assignment without overprinting: an event goes to the first lane with room for
    /// its dot and label. Consecutive matching events of one name whose dots are close (within 3
    /// font sizes; e.g. `shouldBeginDragging` asked on every sample) share a lane and one label,
    /// `name ×N`, after the run's last dot. Every dot is labelled or part of a labelled run;
    /// differing events carry what differs.
    /// - Complexity: O(events × labels per lane).
    func lanes(_ events: [LaneEvent]) -> [[LaneItem]] {
        var lanes: [[LaneItem]] = []
        var spans: [[(Double, Double)]] = []
        var run: (lane: Int, item: Int, count: Int, start: Double)?
        let limit = width - 2
        func text(_ e: LaneEvent, count: Int) -> String {
            let detail = layout.narrow ? e.shortDetail : e.detail
            return (count > 1 ? "\(e.name) ×\(count)" : e.name) + (detail.isEmpty ? "" : " " + detail)
        }
        /// The span a dot at `x0` and its label take, where the label goes, and whether it ends there.
        func extent(_ x0: Double, _ label: String) -> (Double, Double, Double, Bool) {
            let w = layout.textWidth(label)
            if x0 + 8 + w <= limit { return (x0 - 5, x0 + 8 + w, x0 + 8, false) }
            if x0 - 8 - w >= 2 { return (x0 - 8 - w, x0 + 5, x0 - 8, true) }
            // Too long for either side: from the left edge of its own span, over the dot.
            let start = max(2, limit - w)
            return (min(start, x0 - 5), max(start + w, x0 + 5), start, false)
        }
        func free(_ lane: Int, _ span: (Double, Double), except: Int? = nil) -> Bool {
            !spans[lane].enumerated().contains { k, s in k != except && s.0 < span.1 + 6 && span.0 < s.1 + 6 }
        }
        for e in events {
            let x0 = x(e.t)
            // A run: the same event again, matching, its dot close to the previous one.
            if var r = run, !e.differs, lanes[r.lane][r.item].event.name == e.name,
                !lanes[r.lane][r.item].event.differs,
                x0 - x(lanes[r.lane][r.item].event.t) <= 3 * layout.font
            {
                // Extend the run: its label moves after this dot.
                let label = text(e, count: r.count + 1)
                let (a, b, lx, end) = extent(x0, label)
                let span = (min(r.start - 5, a), b)
                let spanIndex = spans[r.lane].count - 1
                if free(r.lane, span, except: spanIndex) {
                    lanes[r.lane][r.item].label = nil
                    lanes[r.lane].append(LaneItem(event: e, label: label, labelX: lx, labelEnd: end))
                    spans[r.lane][spanIndex] = span
                    r.item = lanes[r.lane].count - 1
                    r.count += 1
                    run = r
                    continue
                }
            }
            let label = text(e, count: 1)
            let (a, b, lx, end) = extent(x0, label)
            let lane =
                spans.indices.first { free($0, (a, b)) }
                ?? {
                    lanes.append([])
                    spans.append([])
                    return lanes.count - 1
                }()
            lanes[lane].append(LaneItem(event: e, label: label, labelX: lx, labelEnd: end))
            spans[lane].append((a, b))
            run = (lane, lanes[lane].count - 1, 1, x0)
        }
        return lanes
    }

    /// The lanes below the time axis: per result a title and its rows of dots with stems up to
    /// the lanes' top; differing events ringed in the difference colour with what differs.
    func laneSVG(_ blocks: [LaneBlock], top: Double) -> String {
        let r = Plot.f1
        let fs = layout.font
        let rowHeight = fs + 6
        var s = ""
        var laneTop = top
        for block in blocks {
            s +=
                "<text x=\"\(r(left - 6))\" y=\"\(r(laneTop + fs * 0.35))\" text-anchor=\"end\" fill=\"#57606a\">\(Markup.escape(block.title))</text>\n"
            for (lane, items) in block.rows.enumerated() {
                let ly = laneTop + Double(lane) * rowHeight
                for item in items {
                    let e = item.event
                    let ex = x(e.t)
                    let color = EventCategory(eventName: e.name).color
                    s += "<g><title>\(Markup.escape(e.title))</title>"
                    s +=
                        "<line x1=\"\(r(ex))\" y1=\"\(r(top - fs))\" x2=\"\(r(ex))\" y2=\"\(r(ly - 4))\" stroke=\"#6e7781\" stroke-opacity=\"0.22\"/>"
                    if e.differs {
                        s +=
                            "<circle cx=\"\(r(ex))\" cy=\"\(r(ly))\" r=\"6.5\" fill=\"none\" stroke=\"\(HTMLReport.alertColor)\" stroke-width=\"2\"/>"
                    }
                    s += "<circle cx=\"\(r(ex))\" cy=\"\(r(ly))\" r=\"3.5\" fill=\"\(color)\"/>"
                    if let label = item.label {
                        s +=
                            "<text x=\"\(r(item.labelX))\" y=\"\(r(ly + fs * 0.35))\"\(item.labelEnd ? " text-anchor=\"end\"" : "") fill=\"\(e.differs ? HTMLReport.alertColor : "#1f2328")\">\(Markup.escape(label))</text>"
                    }
                    s += "</g>\n"
                }
            }
            laneTop += Double(max(1, block.rows.count)) * rowHeight + 8
        }
        return s
    }
}
