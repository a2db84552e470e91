import PanelSimCore

/// FloatingPanel's trace format (trace-format.md §1): the `panel` and `delegate` sections, the
/// tracked `scrollView` (which also takes `systemInset` and a zero-size frame), FloatingPanel
/// calls and observed samples with `backdropAlpha`. The loader keeps FloatingPanel's state table
/// and layout changes (`invalidateLayout` patches) itself, for speed on long traces; this value
/// reads and writes the sections.
struct FloatingPanelTraceFormat: SystemTraceFormat {
    var model: PanelModel { .floatingPanel }
    var headerSections: [String] { ["panel", "delegate", "scrollView"] }
    func hint(forSection section: String) -> String { "no \"model\" (FloatingPanel) for a \(section) section" }
    var observedKeys: [String] { ["location", "state", "contentOffset", "backdropAlpha"] }
    /// FloatingPanel 2.0.0 – 3.2.2 (profiles.md §3.1).
    var profiles: ProfileCatalog? { FloatingPanelProfiles.catalog }

    func parseSections(_ header: JSONObject, environment: PanelEnvironment, context: TraceFormatContext)
        throws(TraceError)
        -> any PanelSystemConfiguration
    {
        let r = context.reader
        return FloatingPanelHeader(
            panel: try TraceLoader.parsePanel(try r.required(header, "panel", "", "an object with \"anchors\""), r: r))
    }

    func parseScrollView(_ value: JSONValue, into header: inout TraceHeader, context: TraceFormatContext)
        throws(TraceError)
    {
        header.scrollView = try TraceLoader.parseScrollView(value, "scrollView", r: context.reader, floatingPanel: true)
    }

    func finishHeader(_ header: inout TraceHeader, from object: JSONObject, context: TraceFormatContext)
        throws(TraceError)
    {
        if let v = object["delegate"] {
            header.delegate = try TraceLoader.parseDelegate(
                v, r: context.reader, states: StateTable(header.panel.states))
        }
    }

    func parseCall(_ sample: JSONObject, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> SampleKind
    {
        .call(try TraceLoader.parseCall(sample, r: context.reader, states: StateTable(header.panel.states)))
    }

    func parseObservedState(_ value: JSONValue, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> String
    {
        try context.reader.state(value, "observed.state", StateTable(header.panel.states)).name
    }

    func writeSections(of header: TraceHeader, to o: inout JSONLine) {
        guard let fp = header.floatingPanel else { return }
        o.key("panel")
        TraceWriter.panel(fp.panel, &o)
        if let sv = header.scrollView {
            o.key("scrollView")
            TraceWriter.scrollView(sv, &o)
        }
        o.key("delegate")
        TraceWriter.delegate(fp.delegate, states: fp.panel.states, &o)
    }

    /// FloatingPanel calls are `.call` samples, written by the trace writer itself.
    func writeCall(_ call: any PanelSystemCall, to o: inout JSONLine) {}

    /// 100 pt from the initial state's anchor toward the hidden side, at the middle of the other
    /// axis (floatingpanel-core.md §9 O18).
    func importOrigin(for header: TraceHeader) -> Point {
        let env = header.environment
        let midX = env.container.width / 2
        guard let fp = header.floatingPanel else { return Point(x: midX, y: env.container.height / 2) }
        let position = LayoutGeometry(panel: fp.panel, environment: env).position(of: fp.panel.initialState)
        switch fp.panel.position {
        case .bottom: return Point(x: midX, y: position + 100)
        case .top: return Point(x: midX, y: position - 100)
        case .right: return Point(x: position + 100, y: env.container.height / 2)
        case .left: return Point(x: position - 100, y: env.container.height / 2)
        }
    }
}
