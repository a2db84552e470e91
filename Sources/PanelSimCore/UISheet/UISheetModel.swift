/// UISheet behind the replay seam: its header value, its calls, its `model` name and the typed
/// accessors of `TraceHeader` and `SampleKind` for it.

extension PanelModel {
    /// UIKit's `UISheetPresentationController` (`"uisheet"`): the header's `sheet` and `sheetDelegate` sections (uisheet.md §2).
    public static let uiSheet = PanelModel(rawValue: "uisheet")
}

extension SheetConfiguration: SystemReplayConfiguration {
    public static var model: PanelModel { .uiSheet }

    func makeSystem(for trace: Trace, options: SimulationOptions) -> UISheetSystem { UISheetSystem(self, trace: trace) }

    /// The sheet's `sheet.simulator` options away from their defaults (uisheet.md §4); the
    /// replay's FloatingPanel options do not apply to a sheet.
    public func optionNames(_ options: SimulationOptions) -> [String] { simulator.nonDefaultNames }
}

extension SheetCall: PanelSystemCall {
    public static var model: PanelModel { .uiSheet }
}

extension TraceHeader {
    /// A UISheet header (`model: "uisheet"`).
    public init(name: String, environment: PanelEnvironment, sheet: SheetConfiguration) {
        self.init(name: name, environment: environment, system: sheet)
    }

    /// The `sheet` section; nil when the header is for another system. Setting a value makes the
    /// header a UISheet header; setting nil changes nothing.
    public var sheet: SheetConfiguration? {
        get { system as? SheetConfiguration }
        set { if let newValue { system = newValue } }
    }
}

extension SampleKind {
    /// A UISheet call sample.
    public static func sheetCall(_ call: SheetCall) -> SampleKind { .systemCall(call) }

    /// The UISheet call of a `.systemCall` sample; nil for any other sample.
    public var sheetCall: SheetCall? {
        if case .systemCall(let call) = self { return call.exactly(SheetCall.self) }
        return nil
    }
}
