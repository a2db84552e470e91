import PanelGolden
import PanelSimCLI
import PanelSimCore
import PanelTrace

/// A fifth panel system, defined entirely outside `Sources/`: a sheet with two detents that follows
/// finger 0 while it is down and, on release, snaps linearly to the nearer detent.
///
/// Header section `twoDetent`: `small` and `large` (the detents' top edges, pt, container y;
/// small > large) and `snapDuration` (s). The sheet starts at `small`. A touch that begins at or
/// below the sheet's top edge drags it: location = location at touch-down + (finger y − touch-down
/// y), clamped to [large, small]. On `ended` the snap runs from the location l₀ at the release
/// time t₀ to the nearer detent d (a tie goes to `large`) over `snapDuration` D:
/// l(t) = l₀ + (d − l₀)·min(1, (t − t₀)/D), evaluated at each frame time t = k / frameRate, and
/// writes `didSnap {"to": name}` at the frame where it arrives. The call `{"call": "snap", "to":
/// "small"|"large"}` starts the same snap from where the sheet is.
///
/// Frames: `location` (pt), `state` (`small`, `large` or `moving`), `isDragging`.
struct TwoDetentSheet: PanelSystemConfiguration, Equatable {
    static let model = PanelModel(rawValue: "twodetent")
    var small: Double
    var large: Double
    var snapDuration: Double

    func simulate(_ trace: Trace, options: SimulationOptions) -> SimulationResult {
        replay(TwoDetentSystem(sheet: self, frameRate: trace.header.environment.frameRate), trace: trace, options: options)
    }
}

/// `{"call": "snap", "to": …}`.
struct TwoDetentSnap: PanelSystemCall, Equatable {
    static let model = TwoDetentSheet.model
    var toLarge: Bool
}

/// The replay model of `TwoDetentSheet`.
struct TwoDetentSystem: PanelSystem {
    let sheet: TwoDetentSheet
    let frameRate: Int
    var records = RecordList()
    var location: Double
    var dragStart: (finger: Double, location: Double)?
    /// The running snap: start time (µs), start location, target.
    var snap: (start: Microseconds, from: Double, toLarge: Bool)?
    var lastFrame: SystemFrame?

    init(sheet: TwoDetentSheet, frameRate: Int) {
        self.sheet = sheet; self.frameRate = frameRate; location = sheet.small
    }

    var isTouchDown: Bool { dragStart != nil }

    var state: String {
        if dragStart == nil && snap == nil && location == sheet.small { return "small" }
        if dragStart == nil && snap == nil && location == sheet.large { return "large" }
        return "moving"
    }

    mutating func start() {}
    mutating func reserveRecords(_ n: Int) { records.reserveCapacity(n) }

    mutating func process(_ sample: TraceSample) {
        switch sample.kind {
        case .touch(let touch) where touch.id == 0:
            switch touch.phase {
            case .began where touch.location.y >= location:
                snap = nil
                dragStart = (touch.location.y, location)
            case .moved, .stationary, .ended, .cancelled:
                guard let start = dragStart else { return }
                location = min(max(start.location + touch.location.y - start.finger, sheet.large), sheet.small)
                if touch.phase == .ended || touch.phase == .cancelled {
                    dragStart = nil
                    snap = (sample.time, location, abs(location - sheet.large) <= abs(location - sheet.small))
                }
            default: break
            }
        case .systemCall(let call):
            if let call = call as? TwoDetentSnap, dragStart == nil { snap = (sample.time, location, call.toLarge) }
        default: break
        }
    }

    mutating func reachEnd(at time: Microseconds) {}

    mutating func runFrame(index: Int, time: Microseconds) -> Bool {
        let seconds = Double(index) / Double(frameRate)
        if let s = snap {
            let target = s.toLarge ? sheet.large : sheet.small
            let progress = min(1, (seconds - Double(s.start) / 1_000_000) / sheet.snapDuration)
            location = s.from + (target - s.from) * progress
            if progress >= 1 {
                location = target
                snap = nil
                records.append(.event(time: frameTime(index, frameRate: frameRate),
                                      .system(SystemEvent(name: "didSnap", fields: [RecordField("to", .string(s.toLarge ? "large" : "small"))]))))
            }
        }
        let frame = SystemFrame(index: index, channels: [RecordField("location", .number(location)), RecordField("state", .string(state)),
                                                         RecordField("isDragging", .bool(dragStart != nil))])
        if lastFrame.map({ !$0.sameValues(as: frame) }) ?? true {
            records.append(.systemFrame(frame))
            lastFrame = frame
        }
        return snap != nil
    }

    mutating func finish() -> (records: RecordList, warnings: [String]) { (records, []) }
}

/// The trace format of `TwoDetentSheet`.
struct TwoDetentTraceFormat: SystemTraceFormat {
    var model: PanelModel { TwoDetentSheet.model }
    var headerSections: [String] { ["twoDetent"] }
    func hint(forSection section: String) -> String { "\"model\": \"twodetent\" for a twoDetent section" }
    var observedKeys: [String] { ["location", "state"] }

    func parseSections(_ header: JSONObject, environment: PanelEnvironment, context: TraceFormatContext) throws(TraceError)
        -> any PanelSystemConfiguration {
        guard case .object(let o)? = header["twoDetent"] else { throw context.error("twoDetent", "expected an object") }
        func number(_ key: String) throws(TraceError) -> Double {
            guard case .number(let n)? = o[key], n.double.isFinite else { throw context.error("twoDetent." + key, "expected a number") }
            return n.double
        }
        let sheet = TwoDetentSheet(small: try number("small"), large: try number("large"), snapDuration: try number("snapDuration"))
        guard sheet.small > sheet.large else { throw context.error("twoDetent.large", "expected large < small") }
        guard sheet.snapDuration > 0 else { throw context.error("twoDetent.snapDuration", "expected a duration > 0 s") }
        return sheet
    }

    func parseCall(_ sample: JSONObject, header: TraceHeader, context: TraceFormatContext) throws(TraceError) -> SampleKind {
        guard case .string("snap")? = sample["call"] else { throw context.error("call", "expected \"snap\"") }
        switch sample["to"] {
        case .string("large")?: return .systemCall(TwoDetentSnap(toLarge: true))
        case .string("small")?: return .systemCall(TwoDetentSnap(toLarge: false))
        default: throw context.error("to", "expected \"small\" or \"large\"")
        }
    }

    func parseObservedState(_ value: JSONValue, header: TraceHeader, context: TraceFormatContext) throws(TraceError) -> String {
        guard case .string(let s) = value, ["small", "large", "moving"].contains(s) else {
            throw context.error("observed.state", "expected small, large or moving")
        }
        return s
    }

    func writeSections(of header: TraceHeader, to writer: inout JSONLine) {
        guard let sheet = header.system as? TwoDetentSheet else { return }
        writer.key("twoDetent"); writer.open("{")
        writer.key("small"); writer.number(sheet.small)
        writer.key("large"); writer.number(sheet.large)
        writer.key("snapDuration"); writer.number(sheet.snapDuration)
        writer.close("}")
    }

    func writeCall(_ call: any PanelSystemCall, to writer: inout JSONLine) {
        guard let call = call as? TwoDetentSnap else { return }
        writer.key("call"); writer.string("snap")
        writer.key("to"); writer.string(call.toLarge ? "large" : "small")
    }

    func importOrigin(for header: TraceHeader) -> Point {
        Point(x: header.environment.container.width / 2, y: ((header.system as? TwoDetentSheet)?.small ?? 0) + 100)
    }
}

/// The golden description of `TwoDetentSheet`.
struct TwoDetentGolden: SystemGoldenDescription {
    var model: PanelModel { TwoDetentSheet.model }
    func toleranceChannel(of field: String) -> Channel? { field == "location" ? .location : nil }
    func subtitle(for header: TraceHeader) -> String { "two-detent sheet" }
    func anchors(for header: TraceHeader) -> (anchors: [(name: String, location: Double)], states: [String]) {
        guard let sheet = header.system as? TwoDetentSheet else { return ([], []) }
        return ([("large", sheet.large), ("small", sheet.small)], ["large", "small", "moving"])
    }
}

/// Runs `body` with the fifth system registered in every layer: one entry in each of the three
/// registries.
func withTwoDetentSheet<R>(_ body: () throws -> R) rethrows -> R {
    try TraceFormats.$registered.withValue(TraceFormats.registered + [TwoDetentTraceFormat()]) {
        try GoldenSystems.$registered.withValue(GoldenSystems.registered + [TwoDetentGolden()]) {
            try CommandSystems.$registered.withValue(CommandSystems.registered + [TwoDetentCommands()]) { try body() }
        }
    }
}
