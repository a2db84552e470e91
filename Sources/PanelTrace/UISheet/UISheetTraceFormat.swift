import PanelSimCore

/// UISheetPresentationController's trace format (uisheet.md §2): the `sheet` and `sheetDelegate`
/// sections, the shared `scrollView`, the environment's `keyboard`, sheet calls, observed
/// `dimming`, and `recognizer.velocity: "uikitSheet"` (an option of the sheet model, U5).
struct UISheetTraceFormat: SystemTraceFormat {
    var model: PanelModel { .uiSheet }
    var headerSections: [String] { ["sheet", "sheetDelegate", "scrollView"] }
    func hint(forSection section: String) -> String { "\"model\": \"uisheet\" for a \(section) section" }
    var environmentKeys: [String] { ["keyboard"] }
    var velocityChoices: [String] { ["uikitSheet"] }
    /// The simulator options: independent switches.
    var fieldwiseObjects: [String] { ["sheet.simulator"] }
    var observedKeys: [String] { ["location", "state", "contentOffset", "backdropAlpha", "dimming"] }
    /// UISheetPresentationController on iOS 15 and 16–18 (profiles.md §3.4).
    var profiles: ProfileCatalog? { UISheetProfiles.catalog }
    /// FloatingPanel's `delegate` section: the sheet's delegate answers are `sheetDelegate`.
    func replacement(forSection section: String) -> String? {
        section == "delegate" ? "a \"sheetDelegate\" section for the sheet's delegate (uisheet.md §2.1, e.g. {\"shouldDismiss\": \"always\"}), "
            + "or no \"model\" (FloatingPanel) for a delegate section" : nil
    }

    func parseSections(_ header: JSONObject, environment: PanelEnvironment, context: TraceFormatContext) throws(TraceError)
        -> any PanelSystemConfiguration {
        let r = context.reader
        try TraceLoader.validateSheetEnvironment(environment, r: r)
        return try TraceLoader.parseSheet(header["sheet"] ?? .object(JSONObject()), delegate: header["sheetDelegate"], r: r)
    }

    /// `uikitSheet`: UIKit's own velocity filter, an option of the sheet model (uisheet.md U5).
    func applyVelocityChoice(_ name: String, to header: inout TraceHeader) {
        if name == "uikitSheet" { header.sheet?.simulator.uikitSheetVelocity = true }
    }

    func validate(environment: PanelEnvironment, header: TraceHeader, context: TraceFormatContext) throws(TraceError) {
        try TraceLoader.validateSheetEnvironment(environment, r: context.reader)
    }

    func parseCall(_ sample: JSONObject, header: TraceHeader, context: TraceFormatContext) throws(TraceError) -> SampleKind {
        .sheetCall(try TraceLoader.parseSheetCall(sample, shouldDismiss: header.sheet?.shouldDismiss ?? .default, r: context.reader))
    }

    /// A detent identifier.
    func parseObservedState(_ value: JSONValue, header: TraceHeader, context: TraceFormatContext) throws(TraceError) -> String {
        try context.reader.string(value, "observed.state")
    }

    func writeSections(of header: TraceHeader, to o: inout JSONLine) {
        guard let c = header.sheet else { return }
        o.key("sheet"); TraceWriter.sheet(c, &o)
        o.key("sheetDelegate"); o.open("{"); o.key("shouldDismiss"); o.string(c.shouldDismiss.rawValue); o.close("}")
        if let sv = header.scrollView { o.key("scrollView"); TraceWriter.scrollView(sv, &o) }
    }

    func writeCall(_ call: any PanelSystemCall, to o: inout JSONLine) {
        if let call = call as? SheetCall { TraceWriter.sheetCall(call, &o) }
    }

    func velocityName(of header: TraceHeader) -> String {
        header.sheet?.simulator.uikitSheetVelocity == true ? "uikitSheet" : header.recognizer.velocity.rawValue
    }

    /// 100 pt below the sheet's top edge at the selected detent (the smallest when none is).
    func importOrigin(for header: TraceHeader) -> Point {
        let env = header.environment
        let sheet = header.sheet ?? SheetConfiguration()
        let offsets = sheet.detentOffsets(environment: env)
        let y = offsets.first { $0.0 == sheet.selectedDetentIdentifier }?.1 ?? offsets.map(\.1).max() ?? env.container.height / 2
        return Point(x: env.container.width / 2, y: min(y + 100, env.container.height - 1))
    }
}
