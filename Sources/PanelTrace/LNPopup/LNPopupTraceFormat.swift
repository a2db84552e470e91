import PanelSimCore

/// LNPopup's trace format (lnpopup.md §2): the `popup` section, the popup content's list in the
/// shared `scrollView` (with its `directionalLockEnabled`), popup calls, observed `location`,
/// `state` and `contentOffset`. The environment cannot change during a trace (lnpopup.md §5 L15).
struct LNPopupTraceFormat: SystemTraceFormat {
    var model: PanelModel { .lnPopup }
    var headerSections: [String] { ["popup", "scrollView"] }
    func hint(forSection section: String) -> String { "\"model\": \"lnpopup\" for a \(section) section" }
    var environmentSampleRefusal: String? {
        "an LNPopup trace cannot change its environment (rotation and safe-area changes are outside the model, lnpopup.md §5 L15); expected no environment samples"
    }
    /// The simulator options: independent switches.
    var fieldwiseObjects: [String] { ["popup.simulator"] }
    var observedKeys: [String] { ["location", "state", "contentOffset"] }
    /// LNPopupController 4.0.0 – 4.5.6.1 (profiles.md §3.2).
    var profiles: ProfileCatalog? { LNPopupProfiles.catalog }

    func parseSections(_ header: JSONObject, environment: PanelEnvironment, context: TraceFormatContext)
        throws(TraceError)
        -> any PanelSystemConfiguration
    {
        let r = context.reader
        let popup =
            try header["popup"].map { v throws(TraceError) in
                try TraceLoader.parsePopup(v, environment: environment, r: r)
            }
            ?? PopupConfiguration()
        try TraceLoader.checkPopupGeometry(popup, environment: environment, r: r)
        return popup
    }

    /// The list with its `directionalLockEnabled`, an LNPopup extension of the section.
    func parseScrollView(_ value: JSONValue, into header: inout TraceHeader, context: TraceFormatContext)
        throws(TraceError)
    {
        let (scrollView, lock) = try TraceLoader.parsePopupScrollView(value, r: context.reader)
        header.scrollView = scrollView
        header.popup?.scrollViewDirectionalLock = lock
    }

    func parseCall(_ sample: JSONObject, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> SampleKind
    {
        .popupCall(try TraceLoader.parsePopupCall(sample, r: context.reader))
    }

    /// The public `popupPresentationState` (the frames' `state`, §2.3): `transitioning` is internal
    /// only (§3.0, §3.1) and never matches a frame, so it is refused.
    func parseObservedState(_ value: JSONValue, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> String
    {
        try context.reader.choice(
            value, "observed.state", [PopupPresentationState.barHidden, .barPresented, .open].map(\.name))
    }

    func writeSections(of header: TraceHeader, to o: inout JSONLine) {
        guard let p = header.popup else { return }
        o.key("popup")
        TraceWriter.popup(p, &o)
        if let sv = header.scrollView {
            o.key("scrollView")
            TraceWriter.scrollView(sv, directionalLock: p.scrollViewDirectionalLock, &o)
        }
    }

    func writeCall(_ call: any PanelSystemCall, to o: inout JSONLine) {
        if let call = call as? PopupCall { TraceWriter.popupCall(call, &o) }
    }

    /// The middle of the closed bar, or of the container when the popup starts open (lnpopup.md §3.3).
    func importOrigin(for header: TraceHeader) -> Point {
        let env = header.environment
        let midX = env.container.width / 2
        let popup = header.popup ?? PopupConfiguration()
        if popup.initialState == .open { return Point(x: midX, y: env.container.height / 2) }
        let bar = popup.closedBarFrame(environment: env)
        return Point(x: midX, y: bar.minY + bar.size.height / 2)
    }
}
