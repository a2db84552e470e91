/// The trace model: a validated header and its samples (trace-format.md §1).
/// Loading from text lives in `PanelTrace`; the core only consumes these values.

/// Time in whole microseconds since the trace start. Trace times (seconds, decimal) are converted
/// exactly from their decimal text, rounded half away from zero to 1 µs.
public typealias Microseconds = Int64

/// The panel system a trace describes (header `model`, trace-format.md §1.1a).
public enum PanelModel: String, Sendable, Equatable, CaseIterable {
    /// FloatingPanel (`"floatingpanel"`, the default when the header has no `model`).
    case floatingPanel = "floatingpanel"
    /// DrawerKit (`"drawerkit"`): the header's `drawer` section replaces `panel` (drawerkit.md §2).
    case drawerKit = "drawerkit"
    /// UIKit's `UISheetPresentationController` (`"uisheet"`): the header's `sheet` section replaces
    /// `panel` (uisheet.md §2).
    case uiSheet = "uisheet"
    /// LNPopupController / LNPopupUI (`"lnpopup"`): the header's `popup` section replaces `panel`
    /// (lnpopup.md §2).
    case lnPopup = "lnpopup"
}

/// A trace header (line 1 of a trace file).
///
/// `model` selects the panel system. A FloatingPanel header uses `panel`, `delegate` and
/// `scrollView`; a DrawerKit header uses `drawer` instead (and its `panel` is an unused
/// placeholder). `environment`, `recognizer` and `source` mean the same for every system.
public struct TraceHeader: Sendable, Equatable {
    public var model: PanelModel = .floatingPanel
    public var name: String
    public var description: String = ""
    public var source = TraceSource()
    public var environment: PanelEnvironment
    public var panel: PanelConfiguration
    public var delegate = DelegateConfiguration()
    public var recognizer = RecognizerConfiguration()
    /// The tracked scroll view at t = 0 (`track(scrollView:)` before `show`); nil for none.
    public var scrollView: ScrollViewConfiguration? = nil
    /// The `drawer` section of a DrawerKit header; nil for every other model.
    public var drawer: DrawerConfiguration? = nil
    /// The `sheet` section (and `sheetDelegate`) of a UISheet header; nil for every other model.
    public var sheet: SheetConfiguration? = nil
    /// The `popup` section of an LNPopup header; nil for every other model.
    public var popup: PopupConfiguration? = nil
    public init(name: String, environment: PanelEnvironment, panel: PanelConfiguration) {
        self.name = name; self.environment = environment; self.panel = panel
    }
    /// A DrawerKit header (`model: "drawerkit"`).
    public init(name: String, environment: PanelEnvironment, drawer: DrawerConfiguration) {
        self.init(name: name, environment: environment, panel: PanelConfiguration())
        model = .drawerKit
        self.drawer = drawer
    }
    /// A UISheetPresentationController header (`model: "uisheet"`).
    public init(name: String, environment: PanelEnvironment, sheet: SheetConfiguration) {
        self.init(name: name, environment: environment, panel: PanelConfiguration())
        model = .uiSheet
        self.sheet = sheet
    }

    /// Simulator options recorded in result headers beside `SimulationOptions.nonDefaultNames`:
    /// a sheet's `sheet.simulator` options away from their defaults (uisheet.md §4).
    public var modelOptionNames: [String] { sheet?.simulator.nonDefaultNames ?? [] }
    /// An LNPopup header (`model: "lnpopup"`); `scrollView` is the list inside the popup content.
    public init(name: String, environment: PanelEnvironment, popup: PopupConfiguration) {
        self.init(name: name, environment: environment, panel: PanelConfiguration())
        model = .lnPopup
        self.popup = popup
    }
}

/// Touch phases (UIKit `UITouch.Phase`).
public enum TouchPhase: String, Sendable, Equatable, CaseIterable {
    case began, moved, stationary, ended, cancelled
}

/// A `touch` sample: one finger's phase and location in container coordinates (pt).
public struct TouchSample: Sendable, Equatable {
    public var phase: TouchPhase
    /// Finger id; 0 drives the recognizers.
    public var id: Int
    public var location: Point
    /// What the device's recognizer reported, pt/s, container axes; nil when not recorded.
    public var velocity: Point?
    public init(phase: TouchPhase, id: Int = 0, location: Point, velocity: Point? = nil) {
        self.phase = phase; self.id = id; self.location = location; self.velocity = velocity
    }
}

/// A programmatic call by the app (`call` samples).
public enum PanelCall: Sendable, Equatable {
    /// `move(to:animated:)`.
    case move(to: PanelState, animated: Bool)
    /// `show(animated:)`.
    case show(animated: Bool)
    /// `hide(animated:)`.
    case hide(animated: Bool)
    /// The internal `remove()` (removePanelFromParent(animated: true)).
    case remove
    /// The backdrop's dismissal tap handler.
    case tapBackdrop
    /// The scroll view's own `setContentOffset(_:animated:)` (pt); a nil axis keeps its value.
    case setContentOffset(x: Double?, y: Double?, animated: Bool)
    /// The scroll view's `contentSize` (pt); a nil dimension keeps its value.
    case setContentSize(width: Double?, height: Double?)
    /// `track(scrollView:)` with a new scroll view.
    indirect case track(ScrollViewConfiguration)
    /// `untrack(scrollView:)`.
    case untrack
    /// Replace the layout (the trace's partial `panel` merged over the current one: each named field
    /// replaces that field whole), then `invalidateLayout()`.
    indirect case invalidateLayout(PanelConfiguration)
}

/// A `scroll` sample: the tracked scroll view as a device reported it (pt). An observation,
/// unless the replay drives the scroll view from these samples (floatingpanel-core.md §9 O8).
public struct ScrollSample: Sendable, Equatable {
    /// Content offset (pt; larger = scrolled toward the end of the content).
    public var contentOffset: Point?
    /// Content size (pt).
    public var contentSize: Size?
    /// UIKit `isDecelerating`.
    public var isDecelerating: Bool?
    public init(contentOffset: Point? = nil, contentSize: Size? = nil, isDecelerating: Bool? = nil) {
        self.contentOffset = contentOffset; self.contentSize = contentSize; self.isDecelerating = isDecelerating
    }
}

/// An `observed` sample: what the real panel did on a device (never an input).
public struct ObservedSample: Sendable, Equatable {
    /// Surface location on the main axis (pt, container coordinates).
    public var location: Double?
    /// State name the device reported.
    public var state: String?
    /// The tracked list's content offset on the main axis (pt).
    public var contentOffset: Double?
    /// Backdrop alpha, 0…1.
    public var backdropAlpha: Double?
    /// The sheet's dimming fraction, 0…1 (uisheet.md §2.2); nil elsewhere.
    public var dimming: Double? = nil
    public init(location: Double? = nil, state: String? = nil, contentOffset: Double? = nil, backdropAlpha: Double? = nil) {
        self.location = location; self.state = state; self.contentOffset = contentOffset; self.backdropAlpha = backdropAlpha
    }
}

/// What one sample line carries.
/// The large, rare payloads are boxed (`indirect`), so that a sample stays as small as a touch
/// (a 10^6-sample trace is one list of them).
public enum SampleKind: Sendable, Equatable {
    case touch(TouchSample)
    case call(PanelCall)
    /// A DrawerKit call (drawerkit.md §2.2); only in DrawerKit traces.
    case drawerCall(DrawerCall)
    /// A UISheetPresentationController call (uisheet.md §2.2); only in sheet traces.
    indirect case sheetCall(SheetCall)
    /// An LNPopup call (lnpopup.md §2.2); only in LNPopup traces.
    case popupCall(PopupCall)
    case scroll(ScrollSample)
    /// The environment from this time on (a partial `environment` merged over the current one):
    /// rotation, keyboard, safe-area changes (floatingpanel-core.md §9 O16).
    indirect case environment(PanelEnvironment)
    indirect case observed(ObservedSample)
    /// Replay stops at this sample's time.
    case end
}

/// One sample line of a trace.
public struct TraceSample: Sendable, Equatable {
    /// Time since the trace start, µs. Never decreases along a trace.
    public var time: Microseconds
    /// 1-based line number in the trace file (0 for generated samples).
    public var line: Int
    public var kind: SampleKind
    public init(time: Microseconds, line: Int = 0, kind: SampleKind) {
        self.time = time; self.line = line; self.kind = kind
    }
}

/// A loaded, validated trace.
public struct Trace: Sendable, Equatable {
    public var header: TraceHeader
    public var samples: [TraceSample]
    public init(header: TraceHeader, samples: [TraceSample]) { self.header = header; self.samples = samples }
}
