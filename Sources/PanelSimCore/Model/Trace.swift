/// The trace model: a validated header and its samples (trace-format.md §1).
/// Loading from text lives in `PanelTrace`; the core only consumes these values.

/// Time in whole microseconds since the trace start. Trace times (seconds, decimal) are converted
/// exactly from their decimal text, rounded half away from zero to 1 µs.
public typealias Microseconds = Int64

/// The panel system a trace describes: the header's `model` string (trace-format.md §1.1a). Each
/// system declares its own value beside its model (`PanelModel.floatingPanel` in `FloatingPanel/`,
/// `.drawerKit` in `DrawerKit/`, …), so a new system needs no edit here.
public struct PanelModel: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The header's `model` value, e.g. `"drawerkit"`.
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// A trace header (line 1 of a trace file).
///
/// The sections every system reads (`name`, `description`, `source`, `environment`, `recognizer`,
/// and the UIKit `scrollView` for the systems that host one) are stored here; the system's own
/// sections are one value, `system`, whose type says which system the header is for
/// (`FloatingPanelHeader`, `DrawerConfiguration`, `SheetConfiguration`, `PopupConfiguration`, or a
/// system registered from outside). Each system's folder adds a typed accessor (`floatingPanel`,
/// `drawer`, `sheet`, `popup`).
public struct TraceHeader: Sendable, Equatable {
    public var name: String
    public var description: String = ""
    public var source = TraceSource()
    public var environment: PanelEnvironment
    public var recognizer = RecognizerConfiguration()
    /// The scroll view inside the panel's content at t = 0 (`track(scrollView:)` before `show` for
    /// FloatingPanel, the popup content's or sheet's list); nil for none. A system without such a
    /// header section (DrawerKit keeps its list in `drawer.content`) refuses it when loading.
    public var scrollView: ScrollViewConfiguration? = nil
    /// The system's own header sections; its type names the system.
    public var system: any PanelSystemConfiguration
    /// The header's `profile` (profiles.md §2.1): the library version the trace is replayed as;
    /// nil (absent) for the library's default point.
    public var profile: TraceProfile? = nil

    /// A header for `system`'s sections.
    public init(name: String, environment: PanelEnvironment, system: any PanelSystemConfiguration) {
        self.name = name
        self.environment = environment
        self.system = system
    }

    /// The header's `model`: the system `system` belongs to.
    public var model: PanelModel { type(of: system).model }

    /// Simulator options the system records in result headers beside the replay's own
    /// (`PanelSystemConfiguration.optionNames(_:)`).
    public func optionNames(_ options: SimulationOptions) -> [String] { system.optionNames(options) }

    public static func == (a: TraceHeader, b: TraceHeader) -> Bool {
        a.name == b.name && a.description == b.description && a.source == b.source && a.environment == b.environment
            && a.recognizer == b.recognizer && a.scrollView == b.scrollView && a.system.isEqual(to: b.system)
            && a.profile == b.profile
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
        self.phase = phase
        self.id = id
        self.location = location
        self.velocity = velocity
    }
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
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.isDecelerating = isDecelerating
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
    public init(
        location: Double? = nil, state: String? = nil, contentOffset: Double? = nil, backdropAlpha: Double? = nil
    ) {
        self.location = location
        self.state = state
        self.contentOffset = contentOffset
        self.backdropAlpha = backdropAlpha
    }
}

/// What one sample line carries.
/// The large, rare payloads are boxed (`indirect`), so that a sample stays as small as a touch
/// (a 10^6-sample trace is one list of them).
public enum SampleKind: Sendable, Equatable {
    case touch(TouchSample)
    /// A FloatingPanel call; only in FloatingPanel traces.
    case call(FloatingPanelCall)
    /// A call of another panel system (`DrawerCall`, `SheetCall`, `PopupCall`, …); only in that
    /// system's traces. Each system's folder has a constructor (`.drawerCall(_:)`, …).
    indirect case systemCall(any PanelSystemCall)
    case scroll(ScrollSample)
    /// The environment from this time on (a partial `environment` merged over the current one):
    /// rotation, keyboard, safe-area changes (floatingpanel-core.md §9 O16).
    indirect case environment(PanelEnvironment)
    indirect case observed(ObservedSample)
    /// Replay stops at this sample's time.
    case end

    public static func == (a: SampleKind, b: SampleKind) -> Bool {
        switch (a, b) {
        case (.touch(let x), .touch(let y)): return x == y
        case (.call(let x), .call(let y)): return x == y
        case (.systemCall(let x), .systemCall(let y)): return x.isEqual(to: y)
        case (.scroll(let x), .scroll(let y)): return x == y
        case (.environment(let x), .environment(let y)): return x == y
        case (.observed(let x), .observed(let y)): return x == y
        case (.end, .end): return true
        default: return false
        }
    }
}

/// One sample line of a trace.
public struct TraceSample: Sendable, Equatable {
    /// Time since the trace start, µs. Never decreases along a trace.
    public var time: Microseconds
    /// 1-based line number in the trace file (0 for generated samples).
    public var line: Int
    public var kind: SampleKind
    public init(time: Microseconds, line: Int = 0, kind: SampleKind) {
        self.time = time
        self.line = line
        self.kind = kind
    }
}

/// A loaded, validated trace.
public struct Trace: Sendable, Equatable {
    public var header: TraceHeader
    public var samples: [TraceSample]
    public init(header: TraceHeader, samples: [TraceSample]) {
        self.header = header
        self.samples = samples
    }
}
