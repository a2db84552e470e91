/// Pieces shared by the importers (`RealTraceCSV`, `GeteventLog`, `PointerEventLog`): where a
/// recording lands in the container (floatingpanel-core.md §9 O18) and how raw contact events
/// become finger-numbered trace samples.
import PanelSimCore

/// How a recording's coordinates map onto the container.
///
/// A recorded position p becomes `origin + M·(p − p₀) × pointsPerUnit`, where p₀ is the first
/// contact's first position and M applies, in this order, the optional axis swap and then the
/// optional flips (a flip negates that container axis's motion). Only relative motion is kept, so a
/// recording made anywhere on its screen replays at `origin`.
public struct ImportPlacement: Sendable, Equatable {
    /// Container location (pt) of the recording's first contact.
    public var origin: Point
    /// Points per recorded unit: 1 for logical px / CSS px, 1/displayScale for physical px. Finite, > 0.
    public var pointsPerUnit: Double
    /// The recording's x motion drives the container's y and vice versa.
    public var swapAxes: Bool
    /// Negate the container-x motion (after the swap).
    public var flipX: Bool
    /// Negate the container-y motion (after the swap).
    public var flipY: Bool

    public init(origin: Point, pointsPerUnit: Double, swapAxes: Bool = false, flipX: Bool = false, flipY: Bool = false)
    {
        self.origin = origin
        self.pointsPerUnit = pointsPerUnit
        self.swapAxes = swapAxes
        self.flipX = flipX
        self.flipY = flipY
    }

    /// Where a recording's first contact is placed, per panel system: FloatingPanel, 100 pt beyond
    /// the initial state's anchor toward the hidden side of the panel (floatingpanel-core.md §9
    /// O18; bottom: below it; top: above it; right/left: the same on the x axis), at the centre of
    /// the container's other axis; a DrawerKit drawer, 100 pt below its top edge at the initial
    /// state (drawerkit.md §3.1); an LNPopup bar, the middle of the closed bar, or of the container
    /// when the popup starts open (lnpopup.md §3.3); a sheet, 100 pt below its top edge at the
    /// selected detent (the smallest when none is selected).
    /// - Returns: a container location, pt.
    /// - Complexity: O(anchors log anchors) (one layout).
    public static func origin(for header: TraceHeader) -> Point {
        let env = header.environment
        return TraceFormats.format(for: header.model)?.importOrigin(for: header)
            ?? Point(x: env.container.width / 2, y: env.container.height / 2)
    }

    /// Checks `pointsPerUnit` and `origin`.
    /// - Throws: `TraceError` (`.invalid`, line 0) naming `pointsPerUnit` or `origin`.
    public func validate(file: String) throws(TraceError) {
        guard pointsPerUnit.isFinite, pointsPerUnit > 0 else {
            throw TraceError(
                file: file, line: 0, field: "pointsPerUnit",
                message: "expected a finite number > 0, got \(pointsPerUnit)")
        }
        guard origin.x.isFinite, origin.y.isFinite else {
            throw TraceError(
                file: file, line: 0, field: "origin", message: "expected a finite point, got (\(origin.x), \(origin.y))"
            )
        }
    }

    /// The container location of recorded `(x, y)` when the first contact was at `(x0, y0)`;
    /// nil when the result is not finite or beyond the loader's magnitude limit (10⁷ pt).
    /// - Complexity: O(1).
    public func place(x: Double, y: Double, x0: Double, y0: Double) -> Point? {
        var dx = (x - x0) * pointsPerUnit
        var dy = (y - y0) * pointsPerUnit
        if swapAxes { swap(&dx, &dy) }
        if flipX { dx = -dx }
        if flipY { dy = -dy }
        let p = Point(x: origin.x + dx, y: origin.y + dy)
        guard p.x.isFinite, p.y.isFinite, abs(p.x) <= FieldReader.maxMagnitude, abs(p.y) <= FieldReader.maxMagnitude
        else { return nil }
        return p
    }
}

/// Turns raw contact events (down / move / up / cancel of contacts with arbitrary keys, such as
/// Android tracking ids or W3C `pointerId`s) into touch samples with small finger ids.
///
/// Finger ids: a contact that goes down takes the lowest id not held by a contact that is down,
/// so a one-finger recording is finger 0 throughout (finger 0 drives the recognizers) and a
/// second finger is 1. Times become µs since the first down; positions go through the placement
/// relative to the first down's position. Events of one contact must come as down, move…, then
/// up or cancel; a move, up or cancel of a contact that is not down is an error at its line.
struct ContactAssembler {
    let file: String
    let placement: ImportPlacement
    private(set) var samples: [TraceSample] = []
    private var firstDown: (micros: Int64, x: Double, y: Double)?
    /// Contact key → (finger id, line of its down).
    private var down: [Int64: (id: Int, line: Int)] = [:]
    private var lastMicros: Int64?

    init(file: String, placement: ImportPlacement) {
        self.file = file
        self.placement = placement
    }

    enum Phase { case down, move, up, cancel }

    /// Whether the contact with `key` is down.
    func isDown(_ key: Int64) -> Bool { down[key] != nil }

    /// Adds one event. `field` names what sequence errors point at (a key, an event code),
    /// `timeField` what time errors point at (the time stamp's key or column) and `positionField`
    /// what position errors point at.
    /// - Throws: `TraceError` at `line` for a sequence error, time going backwards, a time more than
    ///   10⁸ s after the first down (the loader's bound) or a position that leaves the
    ///   representable range after placement.
    mutating func add(
        line: Int, field: String, timeField: String, positionField: String, micros: Int64, key: Int64,
        phase: Phase, x: Double, y: Double
    ) throws(TraceError) {
        func fail(_ message: String, _ field: String) -> TraceError {
            TraceError(file: file, line: line, field: field, message: message)
        }
        func fail(_ message: String) -> TraceError { fail(message, field) }
        if let last = lastMicros, micros < last {
            throw fail(
                "expected times that never decrease, got a time \(Double(last) / 1000 - Double(micros) / 1000) ms earlier than the previous event",
                timeField)
        }
        let id: Int
        let touchPhase: TouchPhase
        switch phase {
        case .down:
            if let held = down[key] {
                throw fail(
                    "contact \(key) goes down again while down since line \(held.line) (expected a move, up or cancel)")
            }
            let used = Set(down.values.map(\.id))
            id = (0...).first { !used.contains($0) }!
            down[key] = (id, line)
            touchPhase = .began
            if firstDown == nil { firstDown = (micros, x, y) }
        case .move, .up, .cancel:
            guard let held = down[key] else {
                throw fail(
                    "contact \(key) \(phase == .move ? "moves" : "lifts") without going down first (expected a down for it)"
                )
            }
            id = held.id
            touchPhase = phase == .move ? .moved : (phase == .up ? .ended : .cancelled)
            if phase != .move { down[key] = nil }
        }
        lastMicros = micros
        guard let first = firstDown else { return }
        let (time, overflow) = micros.subtractingReportingOverflow(first.micros)
        guard !overflow, time <= TraceLoader.maxTime else {
            throw fail(
                "expected a time within 100000000 s of the first down, got \(Double(micros) / 1000 - Double(first.micros) / 1000) ms after it",
                timeField)
        }
        guard let location = placement.place(x: x, y: y, x0: first.x, y0: first.y) else {
            throw fail("expected a position within ±10000000 pt after scaling, got (\(x), \(y))", positionField)
        }
        samples.append(
            TraceSample(time: time, kind: .touch(TouchSample(phase: touchPhase, id: id, location: location))))
    }
}

/// The lines of an importer's input with their 1-based numbers: split on LF and CRLF (Swift treats
/// "\r\n" as one Character), a trailing CR dropped, lines of only spaces and tabs left out.
/// - Complexity: O(n) in the length of the text.
func numberedLines(_ text: String) -> [(number: Int, text: Substring)] {
    var result: [(number: Int, text: Substring)] = []
    for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        .enumerated()
    {
        var line = Substring(raw)
        if line.hasSuffix("\r") { line = line.dropLast() }
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
        result.append((index + 1, line))
    }
    return result
}
