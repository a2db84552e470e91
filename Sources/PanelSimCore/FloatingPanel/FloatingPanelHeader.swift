/// FloatingPanel's header sections (trace-format.md §1.1): the layout and behavior (`panel`) and
/// the app delegate's declarative answers (`delegate`). The header's `scrollView` is the tracked
/// scroll view at t = 0.
public struct FloatingPanelHeader: SystemReplayConfiguration, Equatable {
    public static let model = PanelModel.floatingPanel
    public var panel: FloatingPanelConfiguration
    public var delegate: FloatingPanelDelegateConfiguration
    public init(
        panel: FloatingPanelConfiguration = FloatingPanelConfiguration(),
        delegate: FloatingPanelDelegateConfiguration = FloatingPanelDelegateConfiguration()
    ) {
        self.panel = panel
        self.delegate = delegate
    }

    func makeSystem(for trace: Trace, options: SimulationOptions) -> FloatingPanelSystem {
        FloatingPanelSystem(trace: trace, options: options)
    }

    /// FloatingPanel's options set away from their defaults (`FloatingPanelOptions.nonDefaultNames`).
    public func optionNames(_ options: SimulationOptions) -> [String] { options.floatingPanel.nonDefaultNames }
}

extension PanelModel {
    /// FloatingPanel (`"floatingpanel"`, the default when a header has no `model`).
    public static let floatingPanel = PanelModel(rawValue: "floatingpanel")
}

extension TraceHeader {
    /// A FloatingPanel header.
    public init(
        name: String, environment: PanelEnvironment, panel: FloatingPanelConfiguration,
        delegate: FloatingPanelDelegateConfiguration = FloatingPanelDelegateConfiguration()
    ) {
        self.init(name: name, environment: environment, system: FloatingPanelHeader(panel: panel, delegate: delegate))
    }

    /// The FloatingPanel sections; nil when the header is for another system. Setting a value makes
    /// the header a FloatingPanel header; setting nil changes nothing.
    public var floatingPanel: FloatingPanelHeader? {
        get { system as? FloatingPanelHeader }
        set { if let newValue { system = newValue } }
    }

    /// The `panel` section of a FloatingPanel header, for FloatingPanel-only code (its model, its
    /// invariants, the soak generator). Precondition: `model == .floatingPanel`; code that may see
    /// any system reads `floatingPanel?.panel`.
    public var panel: FloatingPanelConfiguration {
        get { floatingPanelSections.panel }
        set {
            var sections = floatingPanelSections
            sections.panel = newValue
            system = sections
        }
    }

    /// The `delegate` section of a FloatingPanel header. Precondition: `model == .floatingPanel`.
    public var delegate: FloatingPanelDelegateConfiguration {
        get { floatingPanelSections.delegate }
        set {
            var sections = floatingPanelSections
            sections.delegate = newValue
            system = sections
        }
    }

    private var floatingPanelSections: FloatingPanelHeader {
        guard let sections = system as? FloatingPanelHeader else {
            preconditionFailure("a \(model.rawValue) header has no FloatingPanel sections")
        }
        return sections
    }
}

/// Earlier names of FloatingPanel's types, kept so that code written against them compiles, with
/// a deprecation warning that names the replacement (CHANGELOG.md lists the renames).
@available(*, deprecated, renamed: "FloatingPanelState")
public typealias PanelState = FloatingPanelState
@available(*, deprecated, renamed: "FloatingPanelConfiguration")
public typealias PanelConfiguration = FloatingPanelConfiguration
@available(*, deprecated, renamed: "FloatingPanelDelegateConfiguration")
public typealias DelegateConfiguration = FloatingPanelDelegateConfiguration
@available(*, deprecated, renamed: "FloatingPanelCall")
public typealias PanelCall = FloatingPanelCall
