import PanelSimCore

/// DrawerKit's trace format (drawerkit.md §2): the `drawer` section, DrawerKit calls, observed
/// `location`, `state` and `contentOffset` (no backdrop). Its pull-to-dismiss list lives in
/// `drawer.content`, so the shared `scrollView` section is refused.
struct DrawerKitTraceFormat: SystemTraceFormat {
    var model: PanelModel { .drawerKit }
    var headerSections: [String] { ["drawer"] }
    func hint(forSection section: String) -> String { "\"model\": \"drawerkit\" for a drawer section" }
    /// Assigned property by property (the configuration) or independent switches (the simulator options).
    var fieldwiseObjects: [String] { ["drawer.configuration", "drawer.simulator"] }
    var observedKeys: [String] { ["location", "state", "contentOffset"] }
    /// DrawerKit 0.7.0 and master (profiles.md §3.3).
    var profiles: ProfileCatalog? { DrawerKitProfiles.catalog }
    func replacement(forSection section: String) -> String? {
        section == "scrollView" ? "drawer.content.scrollView for DrawerKit's pull-to-dismiss list" : nil
    }

    func parseSections(_ header: JSONObject, environment: PanelEnvironment, context: TraceFormatContext)
        throws(TraceError)
        -> any PanelSystemConfiguration
    {
        let r = context.reader
        return try TraceLoader.parseDrawer(
            try r.required(header, "drawer", "", "an object with \"heightOfPartiallyExpandedDrawer\""),
            environment: environment, safeAreaGiven: TraceLoader.hasSafeArea(header), r: r)
    }

    func parseCall(_ sample: JSONObject, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> SampleKind
    {
        .drawerCall(try TraceLoader.parseDrawerCall(sample, r: context.reader))
    }

    func parseObservedState(_ value: JSONValue, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> String
    {
        try context.reader.choice(value, "observed.state", DrawerState.allCases.map(\.rawValue) + ["transitioning"])
    }

    func writeSections(of header: TraceHeader, to o: inout JSONLine) {
        guard let drawer = header.drawer else { return }
        o.key("drawer")
        TraceWriter.drawer(drawer, &o)
    }

    func writeCall(_ call: any PanelSystemCall, to o: inout JSONLine) {
        if let call = call as? DrawerCall { TraceWriter.drawerCall(call, &o) }
    }

    /// 100 pt below the drawer's top edge at its initial state (drawerkit.md §3.1).
    func importOrigin(for header: TraceHeader) -> Point {
        let env = header.environment
        guard let drawer = header.drawer else { return Point(x: env.container.width / 2, y: env.container.height / 2) }
        let initial = drawer.initialState ?? (drawer.supportsPartialExpansion ? .partiallyExpanded : .fullyExpanded)
        let y = drawer.anchorPositions(environment: env).first { $0.0 == initial.rawValue }?.1 ?? env.container.height
        return Point(x: env.container.width / 2, y: y + 100)
    }
}
