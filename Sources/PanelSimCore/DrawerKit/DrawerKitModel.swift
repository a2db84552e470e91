/// DrawerKit behind the replay seam: its header value, its calls, its `model` name and the typed
/// accessors of `TraceHeader` and `SampleKind` for it.

extension PanelModel {
    /// DrawerKit (`"drawerkit"`): the header's `drawer` section (drawerkit.md §2).
    public static let drawerKit = PanelModel(rawValue: "drawerkit")
}

extension DrawerConfiguration: SystemReplayConfiguration {
    public static var model: PanelModel { .drawerKit }

    func makeSystem(for trace: Trace, options: SimulationOptions) -> DrawerKitSystem {
        DrawerKitSystem(self, trace: trace, options: options)
    }
}

extension DrawerCall: PanelSystemCall {
    public static var model: PanelModel { .drawerKit }
}

extension TraceHeader {
    /// A DrawerKit header (`model: "drawerkit"`).
    public init(name: String, environment: PanelEnvironment, drawer: DrawerConfiguration) {
        self.init(name: name, environment: environment, system: drawer)
    }

    /// The `drawer` section; nil when the header is for another system. Setting a value makes the
    /// header a DrawerKit header; setting nil changes nothing.
    public var drawer: DrawerConfiguration? {
        get { system as? DrawerConfiguration }
        set { if let newValue { system = newValue } }
    }
}

extension SampleKind {
    /// A DrawerKit call sample.
    public static func drawerCall(_ call: DrawerCall) -> SampleKind { .systemCall(call) }

    /// The DrawerKit call of a `.systemCall` sample; nil for any other sample.
    public var drawerCall: DrawerCall? {
        if case .systemCall(let call) = self { return call.exactly(DrawerCall.self) }
        return nil
    }
}
