/// LNPopup behind the replay seam: its header value, its calls, its `model` name and the typed
/// accessors of `TraceHeader` and `SampleKind` for it.

extension PanelModel {
    /// LNPopupController / LNPopupUI (`"lnpopup"`): the header's `popup` section; `scrollView` is the list inside the popup content (lnpopup.md §2).
    public static let lnPopup = PanelModel(rawValue: "lnpopup")
}

extension PopupConfiguration: SystemReplayConfiguration {
    public static var model: PanelModel { .lnPopup }

    func makeSystem(for trace: Trace, options: SimulationOptions) -> LNPopupSystem {
        LNPopupSystem(self, trace: trace, options: options)
    }
}

extension PopupCall: PanelSystemCall {
    public static var model: PanelModel { .lnPopup }
}

extension TraceHeader {
    /// A LNPopup header (`model: "lnpopup"`).
    public init(name: String, environment: PanelEnvironment, popup: PopupConfiguration) {
        self.init(name: name, environment: environment, system: popup)
    }

    /// The `popup` section; nil when the header is for another system. Setting a value makes the
    /// header a LNPopup header; setting nil changes nothing.
    public var popup: PopupConfiguration? {
        get { system as? PopupConfiguration }
        set { if let newValue { system = newValue } }
    }
}

extension SampleKind {
    /// A LNPopup call sample.
    public static func popupCall(_ call: PopupCall) -> SampleKind { .systemCall(call) }

    /// The LNPopup call of a `.systemCall` sample; nil for any other sample.
    public var popupCall: PopupCall? {
        if case .systemCall(let call) = self { return call.exactly(PopupCall.self) }
        return nil
    }
}
