import PanelSimCore

/// The trace-format half of a panel system's description: how its header sections, calls and
/// observed samples are read and written (trace-format.md §1 and the system's §2). One value per
/// system, registered in `TraceFormats` (`TraceFormats.swift`); the loader and the writer look the
/// header's `model` up there instead of switching over systems.
///
/// The common parts of a trace (format, version, name, description, source, environment,
/// recognizer, touch/scroll/environment/end samples) are read by the loader for every system; a
/// format reads only what belongs to its system.
public protocol SystemTraceFormat: Sendable {
    /// The `model` this format reads (`PanelSystemConfiguration.model` of its header value).
    var model: PanelModel { get }
    /// The header sections this system owns besides the common ones (`"drawer"`, …); the shared
    /// `scrollView` section is listed here by the systems that accept it.
    var headerSections: [String] { get }
    /// What a trace of another system should write instead of `section` (one of `headerSections`),
    /// e.g. `"\"model\": \"drawerkit\" for a drawer section"`.
    func hint(forSection section: String) -> String
    /// Environment keys beyond `container`, `safeArea`, `displayScale` and `frameRate` (the
    /// sheet's `keyboard`). Default: none.
    var environmentKeys: [String] { get }
    /// `recognizer.velocity` choices beyond `VelocitySource`'s. Default: none.
    var velocityChoices: [String] { get }
    /// Applies one of `velocityChoices` to `header` (an option of the system's model). Default:
    /// nothing.
    func applyVelocityChoice(_ name: String, to header: inout TraceHeader)
    /// Why `environment` samples are refused in this system's traces (the whole error message);
    /// nil (the default) when they may change the environment during a trace.
    var environmentSampleRefusal: String? { get }
    /// What this system's traces use instead of another system's `section`, when there is such a
    /// thing (DrawerKit's list for `scrollView`); nil (the default) to give the owner's hint.
    func replacement(forSection section: String) -> String?
    /// Objects of the system's sections whose fields are independent settings (a header patch of
    /// `panelsim bisect` sets them one by one instead of replacing the object whole), as dotted
    /// paths such as `"drawer.configuration"`. Default: none.
    var fieldwiseObjects: [String] { get }
    /// Keys an `observed` sample of this system may have (among `location`, `state`,
    /// `contentOffset`, `backdropAlpha`, `dimming`).
    var observedKeys: [String] { get }

    /// Reads the system's sections of the header object `header` (environment already read).
    /// - Throws: `TraceError` naming the field (`context.error`).
    func parseSections(_ header: JSONObject, environment: PanelEnvironment, context: TraceFormatContext)
        throws(TraceError)
        -> any PanelSystemConfiguration
    /// Reads the shared `scrollView` section (present and not null; only for a format that lists
    /// it in `headerSections`). Default: `frame` of positive size, no `systemInset`.
    func parseScrollView(_ value: JSONValue, into header: inout TraceHeader, context: TraceFormatContext)
        throws(TraceError)
    /// Completes `header` after its `scrollView` and before its `recognizer` (FloatingPanel's
    /// `delegate`, read against the panel's states). Default: nothing.
    func finishHeader(_ header: inout TraceHeader, from object: JSONObject, context: TraceFormatContext)
        throws(TraceError)
    /// Checks an environment (the header's, and every `environment` sample's merged value) against
    /// the system's rules. Default: accepts it.
    func validate(environment: PanelEnvironment, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
    /// Reads a `call` sample (`sample` is the whole line's object, `t` included).
    func parseCall(_ sample: JSONObject, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> SampleKind
    /// Reads an observed `state` value (`observed.state`).
    func parseObservedState(_ value: JSONValue, header: TraceHeader, context: TraceFormatContext) throws(TraceError)
        -> String

    /// Writes the system's header sections (each `writer.key(…)` then its value), in the order
    /// the loader reads them back.
    func writeSections(of header: TraceHeader, to writer: inout JSONLine)
    /// Writes a call's members after `t` (`"call": …` first).
    func writeCall(_ call: any PanelSystemCall, to writer: inout JSONLine)
    /// The `recognizer.velocity` value written for `header` (a model option may stand for it).
    func velocityName(of header: TraceHeader) -> String

    /// Where an imported recording's first touch is placed by default (container pt): on the
    /// system's panel at its initial state (`ImportPlacement.origin(for:)`).
    func importOrigin(for header: TraceHeader) -> Point

    /// The library's version profiles (profiles.md §2.2): points, switches, version mapping and
    /// gates, declared in the system's core folder. Default: none (a trace of this system naming a
    /// `profile` is refused).
    var profiles: ProfileCatalog? { get }
}

extension SystemTraceFormat {
    public var environmentKeys: [String] { [] }
    public var profiles: ProfileCatalog? { nil }
    public var fieldwiseObjects: [String] { [] }
    public var velocityChoices: [String] { [] }
    public var environmentSampleRefusal: String? { nil }
    public func replacement(forSection section: String) -> String? { nil }
    public func applyVelocityChoice(_ name: String, to header: inout TraceHeader) {}
    public func parseScrollView(_ value: JSONValue, into header: inout TraceHeader, context: TraceFormatContext)
        throws(TraceError)
    {
        header.scrollView = try TraceLoader.parseScrollView(value, "scrollView", r: context.reader)
    }
    public func finishHeader(_ header: inout TraceHeader, from object: JSONObject, context: TraceFormatContext)
        throws(TraceError)
    {}
    public func validate(environment: PanelEnvironment, header: TraceHeader, context: TraceFormatContext)
        throws(TraceError)
    {}
    public func velocityName(of header: TraceHeader) -> String { header.recognizer.velocity.rawValue }
}

/// Where a format reads: the trace file and the line, for the errors it throws.
public struct TraceFormatContext: Sendable {
    /// The trace file as named to the loader.
    public var file: String
    /// The 1-based line being read.
    public var line: Int
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }
    /// An error at this line naming `field` (a dotted header path such as `drawer.cornerRadius`).
    public func error(_ field: String, _ message: String) -> TraceError {
        TraceError(file: file, line: line, field: field, message: message)
    }
    /// The loader's field reader for this line.
    var reader: FieldReader { FieldReader(file: file, line: line) }
}

extension FieldReader {
    /// The format context of this reader's line.
    var context: TraceFormatContext { TraceFormatContext(file: file, line: line) }
}
