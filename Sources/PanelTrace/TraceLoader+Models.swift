import PanelSimCore

/// Where the loader meets the panel systems: each question about a system is asked of its
/// `SystemTraceFormat` in `TraceFormats.registered` (the header sections it owns, its calls, its
/// observed fields, its environment rules). Everything else in the loader is shared by all systems.
extension TraceLoader {
    /// The header keys every system reads; the registered formats' sections go between
    /// `environment` and `recognizer`.
    static let commonHeaderKeys = [
        "format", "version", "model", "profile", "name", "description", "source", "environment",
    ]

    /// Every header key some registered format accepts, in registration order.
    static var headerKeys: [String] {
        var keys = commonHeaderKeys
        for format in TraceFormats.registered {
            for s in format.headerSections where !keys.contains(s) { keys.append(s) }
        }
        return keys + ["recognizer"]
    }

    /// The format of `model`; FloatingPanel's for a model no format reads (the header reader names
    /// such a model before any sample is read).
    static func systemFormat(_ model: PanelModel) -> any SystemTraceFormat {
        TraceFormats.format(for: model) ?? FloatingPanelTraceFormat()
    }

    /// The `model` of header object `o` (FloatingPanel without one), refused unless registered.
    static func readModel(_ o: JSONObject, r: FieldReader) throws(TraceError) -> PanelModel {
        guard let m = o["model"] else { return .floatingPanel }
        return PanelModel(rawValue: try r.choice(m, "model", TraceFormats.registered.map(\.model.rawValue)))
    }

    /// Refuses a section of another system in a `model` header (trace-format.md §1.1a), with what
    /// to write instead.
    static func checkSections(_ o: JSONObject, model: PanelModel, r: FieldReader) throws(TraceError) {
        let own = systemFormat(model)
        for key in o.keys where !own.headerSections.contains(key) {
            guard let owner = TraceFormats.registered.first(where: { $0.headerSections.contains(key) }) else {
                continue
            }
            throw r.error(
                key,
                "a \(quotedSingle(key)) section does not belong in a \(model.rawValue) trace; expected "
                    + (own.replacement(forSection: key) ?? owner.hint(forSection: key)))
        }
    }

    /// True when `model`'s environment may have a `keyboard` (the sheet's, uisheet.md).
    static func hasKeyboard(_ model: PanelModel) -> Bool { systemFormat(model).environmentKeys.contains("keyboard") }

    /// The header built from `model`'s own sections of the header object `o`, with `name` and
    /// `environment` already read.
    /// - Throws: `TraceError` naming the section's field.
    static func parseSystemSections(
        _ o: JSONObject, model: PanelModel, name: String, environment: PanelEnvironment,
        r: FieldReader
    ) throws(TraceError) -> TraceHeader {
        TraceHeader(
            name: name, environment: environment,
            system: try systemFormat(model).parseSections(o, environment: environment, context: r.context))
    }

    /// Reads the header's non-null `scrollView` value `v` into `header`, as `model` reads it.
    static func parseHeaderScrollView(
        _ v: JSONValue, model: PanelModel, into header: inout TraceHeader,
        r: FieldReader
    ) throws(TraceError) {
        try systemFormat(model).parseScrollView(v, into: &header, context: r.context)
    }

    /// What the simulator cannot replay (FloatingPanel: floatingpanel-core.md §9 O19); the other
    /// systems check their header while reading it.
    static func validateHeader(_ h: TraceHeader) throws(ConfigurationError) {
        if h.floatingPanel != nil { try PanelSimCore.validate(h) }
    }

    /// Checks an `environment` sample's new environment against `header`, the header in force,
    /// reported at the sample's line.
    static func validateEnvironmentChange(_ environment: PanelEnvironment, header: TraceHeader, r: FieldReader)
        throws(TraceError)
    {
        if let fp = header.floatingPanel {
            try validateAgainst(panel: fp.panel, environment: environment, r: r)
        }
        try systemFormat(header.model).validate(environment: environment, header: header, context: r.context)
    }

    /// Refuses an `environment` sample in a trace of a system that cannot change its environment.
    static func checkEnvironmentSamplesAllowed(_ model: PanelModel, r: FieldReader) throws(TraceError) {
        if let refusal = systemFormat(model).environmentSampleRefusal { throw r.error("environment", refusal) }
    }

    /// A `call` sample of `header`'s system (FloatingPanel's against `states`, the state table in
    /// force; nil `header`: FloatingPanel).
    static func parseSystemCall(_ o: JSONObject, header: TraceHeader?, r: FieldReader, states: StateTable)
        throws(TraceError) -> SampleKind
    {
        guard let header, header.floatingPanel == nil else { return .call(try parseCall(o, r: r, states: states)) }
        return try systemFormat(header.model).parseCall(o, header: header, context: r.context)
    }

    /// The keys an `observed` sample of `header`'s system may have.
    static func observedKeys(_ header: TraceHeader?) -> [String] {
        systemFormat(header?.model ?? .floatingPanel).observedKeys
    }

    /// The non-null `observed.state` value `s`, as the frames' `state` spells it.
    static func parseObservedState(_ s: JSONValue, header: TraceHeader?, states: StateTable, r: FieldReader)
        throws(TraceError) -> String
    {
        guard let header, header.floatingPanel == nil else { return try r.state(s, "observed.state", states).name }
        return try systemFormat(header.model).parseObservedState(s, header: header, context: r.context)
    }
}
