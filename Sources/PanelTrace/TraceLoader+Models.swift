import PanelSimCore

/// What the loader does differently for each panel system (`TraceHeader.model`): the header
/// sections each system owns, its calls, its observed fields and its environment rules. Everything
/// else in the loader is shared by all systems.
extension TraceLoader {
    static let headerKeys = ["format", "version", "model", "name", "description", "source", "environment",
                             "panel", "scrollView", "delegate", "recognizer", "drawer", "sheet", "sheetDelegate", "popup"]

    /// The header sections that belong to some panel systems only: who may have each, and what a
    /// trace of another system should write instead (trace-format.md §1.1a).
    static let systemSections: [String: (owners: [PanelModel], hint: String)] = [
        "panel": ([.floatingPanel], "no \"model\" (FloatingPanel) for a panel section"),
        "delegate": ([.floatingPanel], "no \"model\" (FloatingPanel) for a delegate section"),
        "scrollView": ([.floatingPanel, .uiSheet, .lnPopup], "drawer.content.scrollView for DrawerKit's pull-to-dismiss list"),
        "drawer": ([.drawerKit], "\"model\": \"drawerkit\" for a drawer section"),
        "sheet": ([.uiSheet], "\"model\": \"uisheet\" for a sheet section"),
        "sheetDelegate": ([.uiSheet], "\"model\": \"uisheet\" for a sheetDelegate section"),
        "popup": ([.lnPopup], "\"model\": \"lnpopup\" for a popup section"),
    ]

    /// True when `model`'s environment may have a `keyboard` (the sheet's, uisheet.md).
    static func hasKeyboard(_ model: PanelModel) -> Bool { model == .uiSheet }

    /// The header built from `model`'s own section of the header object `o` (`panel`, `drawer`,
    /// `sheet` and `sheetDelegate`, `popup`), with `name` and `environment` already read.
    /// - Throws: `TraceError` naming the section's field.
    static func parseSystemSections(_ o: JSONObject, model: PanelModel, name: String, environment: PanelEnvironment,
                                    r: FieldReader) throws(TraceError) -> TraceHeader {
        let header: TraceHeader
        switch model {
        case .floatingPanel:
            header = TraceHeader(name: name, environment: environment,
                                 panel: try parsePanel(try r.required(o, "panel", "", "an object with \"anchors\""), r: r))
        case .drawerKit:
            header = TraceHeader(name: name, environment: environment,
                                 drawer: try parseDrawer(try r.required(o, "drawer", "", "an object with \"heightOfPartiallyExpandedDrawer\""),
                                                         environment: environment, safeAreaGiven: hasSafeArea(o), r: r))
        case .uiSheet:
            try validateSheetEnvironment(environment, r: r)
            header = TraceHeader(name: name, environment: environment,
                                 sheet: try parseSheet(o["sheet"] ?? .object(JSONObject()), delegate: o["sheetDelegate"], r: r))
        case .lnPopup:
            let popup = try o["popup"].map { v throws(TraceError) in try parsePopup(v, environment: environment, r: r) }
                ?? PopupConfiguration()
            try checkPopupGeometry(popup, environment: environment, r: r)
            header = TraceHeader(name: name, environment: environment, popup: popup)
        }
        return header
    }

    /// Reads the header's non-null `scrollView` value `v` into `header`: LNPopup's list also
    /// carries its directional lock; FloatingPanel's takes `systemInset` and a zero-size frame.
    static func parseHeaderScrollView(_ v: JSONValue, model: PanelModel, into header: inout TraceHeader,
                                      r: FieldReader) throws(TraceError) {
        if model == .lnPopup {
            let (sv, lock) = try parsePopupScrollView(v, r: r)
            header.scrollView = sv
            header.popup?.scrollViewDirectionalLock = lock
        } else {
            header.scrollView = try parseScrollView(v, "scrollView", r: r, floatingPanel: model == .floatingPanel)
        }
    }

    /// `recognizer.velocity` values `model` accepts beyond `VelocitySource`'s: the sheet adds
    /// UIKit's own filter (uisheet.md U5), an option of the sheet model.
    static func extraVelocitySources(_ model: PanelModel) -> [String] { model == .uiSheet ? ["uikitSheet"] : [] }

    /// What the simulator of `h.model` cannot replay (FloatingPanel: floatingpanel-core.md §9 O19);
    /// the other systems check their header while reading it.
    static func validateHeader(_ h: TraceHeader) throws(ConfigurationError) {
        if h.model == .floatingPanel { try PanelSimCore.validate(h) }
    }

    /// Checks an `environment` sample's new environment against `header`, the header in force,
    /// reported at the sample's line.
    static func validateEnvironmentChange(_ environment: PanelEnvironment, header: TraceHeader, r: FieldReader) throws(TraceError) {
        if header.model == .floatingPanel {
            try validateAgainst(panel: header.panel, environment: environment, r: r)
        }
        if header.model == .uiSheet { try validateSheetEnvironment(environment, r: r) }
    }

    /// Refuses an `environment` sample in a trace of a system that cannot change its environment.
    static func checkEnvironmentSamplesAllowed(_ model: PanelModel, r: FieldReader) throws(TraceError) {
        if model == .lnPopup {
            throw r.error("environment", "an LNPopup trace cannot change its environment (rotation and safe-area changes are outside the model, lnpopup.md §5 L15); expected no environment samples")
        }
    }

    /// A `call` sample of `model`.
    static func parseSystemCall(_ o: JSONObject, model: PanelModel, r: FieldReader, states: StateTable) throws(TraceError) -> SampleKind {
        switch model {
        case .floatingPanel: return .call(try parseCall(o, r: r, states: states))
        case .drawerKit: return .drawerCall(try parseDrawerCall(o, r: r))
        case .uiSheet: return .sheetCall(try parseSheetCall(o, r: r))
        case .lnPopup: return .popupCall(try parsePopupCall(o, r: r))
        }
    }

    /// The keys an `observed` sample of `model` may have. DrawerKit has no backdrop (drawerkit.md
    /// §2.2: location, state; contentOffset for a pull-to-dismiss list); the sheet adds its dimming
    /// (uisheet.md §2.2); LNPopup: location, state, contentOffset (lnpopup.md §2.2), no backdrop.
    static func observedKeys(_ model: PanelModel) -> [String] {
        switch model {
        case .floatingPanel: return ["location", "state", "contentOffset", "backdropAlpha"]
        case .drawerKit: return ["location", "state", "contentOffset"]
        case .uiSheet: return ["location", "state", "contentOffset", "backdropAlpha", "dimming"]
        case .lnPopup: return ["location", "state", "contentOffset"]
        }
    }

    /// The non-null `observed.state` value `s` of a `model` trace, as the frames' `state` spells it.
    static func parseObservedState(_ s: JSONValue, model: PanelModel, states: StateTable, r: FieldReader) throws(TraceError) -> String {
        switch model {
        case .floatingPanel: return try r.state(s, "observed.state", states).name
        case .drawerKit: return try r.choice(s, "observed.state", DrawerState.allCases.map(\.rawValue) + ["transitioning"])
        case .uiSheet: return try r.string(s, "observed.state")   // a detent identifier
        // The public popupPresentationState (the frames' `state`, §2.3): `transitioning` is internal
        // only (§3.0, §3.1) and can never match a frame, so it is refused.
        case .lnPopup: return try r.choice(s, "observed.state", [PopupPresentationState.barHidden, .barPresented, .open].map(\.name))
        }
    }
}
