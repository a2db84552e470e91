import XCTest
import Foundation
import PanelSimCore
import PanelTrace

/// Replays every sheet trace under `traces/uisheet/` and checks the `expect:` clause its
/// description ends with. The clauses are worked out by `scripts/make_uisheet_corpus.py` from
/// uisheet.md's rules alone (geometry, the release rule, permissions, the spring's closed form and
/// completion test, dimming and its fade, hand-off, keyboard), never from this simulator. Also
/// asserts the invariants SH1–SH8 of uisheet.md §5 on every sheet trace.
final class UISheetCorpusTests: XCTestCase, GeneratedCorpus {
    static let folder = "uisheet"
    static func state(_ f: SystemFrame) -> String? {
        if case .string(let s)? = f["state"] { return s } else { return nil }
    }
    /// An event as the clauses spell it: name, or name(arg) for the selection and shouldDismiss.
    static func spelled(_ e: SystemEvent) -> String {
        switch e.name {
        case "didChangeSelectedDetentIdentifier":
            if case .string(let s)? = e["identifier"] { return "\(e.name)(\(s))" }
            return "\(e.name)(?)"
        case "shouldDismiss":
            return "\(e.name)(\(bool(e["result"]).map(String.init) ?? "?"))"
        default: return e.name
        }
    }

    func testEveryExpectationHolds() throws {
        var checked = 0
        for (name, trace) in try Self.traces() {
            let expected = Self.expectations(trace.header.description)
            XCTAssertFalse(expected.isEmpty, "\(name): no expect: clause")
            let result = simulate(trace)
            XCTAssertFalse(result.budgetExceeded, name)
            let frames = Self.frames(result)
            let last = try XCTUnwrap(frames.last, name)
            let lastDrag = frames.last { Self.bool($0["isDragging"]) == true }
            func close(_ actual: Double?, _ value: String, _ what: String) {
                guard let actual else { return XCTFail("\(name): \(what) missing") }
                XCTAssertEqual(actual, Double(value) ?? .nan, accuracy: 1e-6, "\(name): \(what)")
            }
            for (key, value) in expected.sorted(by: { $0.key < $1.key }) {
                switch key {
                case "state": XCTAssertEqual(Self.state(last) ?? "null", value, "\(name): state")
                case "location": close(last.location, value, "location")
                case "presented":
                    XCTAssertEqual(Self.bool(last["presented"]).map(String.init), value, "\(name): presented")
                case "events":
                    let actual = Self.events(result).map { Self.spelled($0.1) }
                    XCTAssertEqual(actual.isEmpty ? "-" : actual.joined(separator: ","), value, "\(name): events")
                case "dimming": close(Self.number(last["dimming"]), value, "dimming")
                case "contentOffset": close(Self.number(last["contentOffset"]), value, "contentOffset")
                case "dragLocation": close(lastDrag?.location, value, "dragLocation")
                case "dragDimming": close(Self.number(lastDrag?["dimming"]), value, "dragDimming")
                case "dragContentOffset": close(Self.number(lastDrag?["contentOffset"]), value, "dragContentOffset")
                case "dimmingAt":
                    // §3.8 item 6: the fade's frame values, worked out by the generator (to 1e-9). A
                    // frame left out of the result repeats the last one written.
                    for pair in value.split(separator: "/") {
                        let kv = pair.split(separator: ":")
                        guard kv.count == 2, let k = Int(kv[0]), let v = Double(kv[1]) else {
                            XCTFail("\(name): dimmingAt \(pair)")
                            continue
                        }
                        let f = frames.last { $0.index <= k }
                        XCTAssertEqual(
                            Self.number(f?["dimming"]) ?? .nan, v, accuracy: 1e-9, "\(name): dimming at frame \(k)")
                    }
                case "restAt":
                    // The completion frame of the last sheet animation: the last isAttracting true → false.
                    var at: Double?
                    for (a, b) in zip(frames, frames.dropFirst())
                    where Self.bool(a["isAttracting"]) == true && Self.bool(b["isAttracting"]) == false {
                        at = Double(frameTime(b.index, frameRate: trace.header.environment.frameRate)) / 1_000_000
                    }
                    XCTAssertEqual(at ?? -1, Double(value) ?? .nan, accuracy: 5e-7, "\(name): restAt")
                default: XCTFail("\(name): unknown expectation key \(key)")
                }
            }
            checked += 1
        }
        XCTAssertEqual(checked, 99, "the generated sheet corpus")
    }

    /// SH1–SH8 (uisheet.md §5) on every sheet trace.
    func testInvariantsSH1toSH8() throws {
        for (name, trace) in try Self.traces() {
            let sheet = try XCTUnwrap(trace.header.sheet, name)
            let result = simulate(trace)
            let frames = Self.frames(result)
            let events = Self.events(result)
            let rate = trace.header.environment.frameRate
            let env = trace.header.environment
            let detents = Dictionary(sheet.detentOffsets(environment: env), uniquingKeysWith: { a, _ in a })
            let ordered = sheet.detentOffsets(environment: env)
            let height = env.container.height
            let smallest = ordered.last?.1 ?? height
            let hasKeyboard = trace.samples.contains {
                if case .environment(let e) = $0.kind { return e.keyboard != nil } else { return false }
            }
            let hasCalls = trace.samples.contains { $0.kind.sheetCall != nil }
            // Touch intervals (finger down), to tell rest frames.
            var down: [(Microseconds, Microseconds)] = []
            var since: Microseconds?
            for s in trace.samples {
                if case .touch(let t) = s.kind, t.id == 0 {
                    if t.phase == .began { since = s.time }
                    if t.phase == .ended || t.phase == .cancelled, let b = since {
                        down.append((b, s.time))
                        since = nil
                    }
                }
            }
            func touching(_ t: Microseconds) -> Bool { down.contains { $0.0 <= t && t <= $0.1 } }
            var selectionTimes: [(Microseconds, String)] = []
            for (t, e) in events where e.name == "didChangeSelectedDetentIdentifier" {
                if case .string(let s)? = e["identifier"] { selectionTimes.append((t, s)) }
            }
            for f in frames {
                let t = frameTime(f.index, frameRate: rate)
                let dragging = Self.bool(f["isDragging"]) == true
                let attracting = Self.bool(f["isAttracting"]) == true
                let presented = Self.bool(f["presented"]) == true
                // SH8: 0 ≤ dimming ≤ 1 (the rule of §3.8 items 1–2 and 6: `sh8Violations`).
                let dim = try XCTUnwrap(Self.number(f["dimming"]), name)
                XCTAssertTrue(dim >= 0 && dim <= 1, "\(name) frame \(f.index): SH8 dimming \(dim)")
                if presented, !dragging, !attracting, !touching(t), !hasKeyboard, !hasCalls {
                    // SH1: at rest on the selected (shown) detent.
                    let shown = Self.state(f).flatMap { detents[$0] } ?? smallest
                    XCTAssertEqual(f.location, shown, accuracy: 1e-9, "\(name) frame \(f.index): SH1")
                }
                if !presented {
                    XCTAssertEqual(f.location, height, "\(name) frame \(f.index): SH3 location after didDismiss")
                }
                // SH4: modal never goes past the smallest detent's lower band.
                if sheet.isModalInPresentation && !hasCalls {
                    let eDown = min(
                        max(0.25 * (height - (ordered.first { $0.0 == "large" }?.1 ?? ordered.first?.1 ?? 0)), 0), 200)
                    XCTAssertLessThanOrEqual(f.location, smallest + eDown + 1e-9, "\(name) frame \(f.index): SH4")
                }
                // SH2: state equals the last selection record's identifier from that record on.
                if let (_, id) = selectionTimes.last(where: { $0.0 <= t }), !hasCalls {
                    XCTAssertEqual(Self.state(f), id, "\(name) frame \(f.index): SH2")
                }
            }
            for v in Self.sh8Violations(trace, frames) { XCTFail("\(name): \(v)") }
            // SH2: records only when the identifier changes, never from calls or the keyboard.
            var previousState = sheet.selectedDetentIdentifier
            for (t, e) in events where e.name == "didChangeSelectedDetentIdentifier" {
                if case .string(let s)? = e["identifier"] {
                    XCTAssertNotEqual(s, previousState, "\(name): SH2 record without a change")
                    previousState = s
                }
                let causes = trace.samples.filter { $0.time == t }
                XCTAssertTrue(
                    causes.contains { s in
                        if case .touch(let touch) = s.kind { return touch.phase == .ended || touch.phase == .cancelled }
                        switch s.kind.sheetCall {
                        case .tapDimming?, .tapGrabber?: return true
                        default: return false
                        }
                    }, "\(name): SH2 selection record at t=\(t) not at a release or tap")
            }
            // SH3, SH4, SH7.
            var willDismissed = false
            var gone = false
            var refusedInDrag = false
            var previous: String?
            for (_, e) in events {
                XCTAssertFalse(gone, "\(name): SH3 record \(e.name) after didDismiss")
                switch e.name {
                case "willDismiss": willDismissed = true
                case "didDismiss":
                    XCTAssertTrue(willDismissed, "\(name): SH3 didDismiss without willDismiss")
                    gone = true
                case "shouldDismiss": if Self.bool(e["result"]) == false { refusedInDrag = true }
                case "didAttemptToDismiss":
                    XCTAssertTrue(
                        refusedInDrag || sheet.isModalInPresentation, "\(name): SH7 attempt without a refusal")
                    XCTAssertNotEqual(previous, "willDismiss", "\(name): SH7")
                default: break
                }
                if sheet.isModalInPresentation && !hasCalls {
                    XCTAssertFalse(
                        ["willDismiss", "didDismiss", "shouldDismiss"].contains(e.name),
                        "\(name): SH4 \(e.name) while modal")
                }
                previous = e.name
            }
            // SH5: 1:1 following between the top-most candidate and the lower bound (plain sheet drags).
            if trace.header.scrollView == nil, !hasKeyboard, let top = ordered.first?.1 {
                var offset: Double?
                var frameAt: [Int: SystemFrame] = [:]
                for f in frames { frameAt[f.index] = f }
                for s in trace.samples {
                    guard case .touch(let t) = s.kind, t.phase == .moved || t.phase == .began else { continue }
                    if t.phase == .began {
                        offset = nil
                        continue
                    }
                    let k = Int((s.time * Int64(rate) + 999_999) / 1_000_000)
                    guard let f = frames.last(where: { $0.index <= k }), Self.bool(f["isDragging"]) == true,
                        f.location > top, f.location < smallest
                    else { continue }
                    let d = f.location - t.location.y
                    if let o = offset {
                        XCTAssertEqual(d, o, accuracy: 1e-9, "\(name) frame \(f.index): SH5")
                    } else {
                        offset = d
                    }
                }
            }
            // SH6: in a hand-off, the sheet and the content do not both move between two frames,
            // except when the sheet reaches (or leaves) its top-most candidate.
            if trace.header.scrollView != nil, let top = ordered.first?.1 {
                for (a, b) in zip(frames, frames.dropFirst())
                where Self.bool(a["isDragging"]) == true && Self.bool(b["isDragging"]) == true {
                    let sheetMoved = a.location != b.location
                    let contentMoved = Self.number(a["contentOffset"]) != Self.number(b["contentOffset"])
                    if sheetMoved && contentMoved {
                        XCTAssertTrue(a.location == top || b.location == top, "\(name) frame \(b.index): SH6")
                    }
                }
            }
        }
    }

    /// SH8 (uisheet.md §5) with §3.8 items 1–2 and 6: on every presented frame the dimming is
    /// the fraction of the displayed offset under the dimming rule in force (the detents and
    /// `largestUndimmedDetentIdentifier` after the calls up to the frame), or, after a
    /// `setLargestUndimmedDetent` / `setDetents` call, between that fraction under the rule before
    /// the latest such call and under the rule after it (a fade, or its end). Each violation is a
    /// message. Traces whose container or safe area change are not checked (the rule then moves).
    static func sh8Violations(_ trace: Trace, _ frames: [SystemFrame]) -> [String] {
        guard var rule = trace.header.sheet else { return ["no sheet section"] }
        let env = trace.header.environment
        var changes: [(Microseconds, SheetConfiguration)] = []
        for s in trace.samples {
            if case .environment(let e) = s.kind, e.container != env.container || e.safeArea != env.safeArea {
                return []
            }
            switch s.kind.sheetCall {
            case .setLargestUndimmedDetent(let id, _)?: rule.largestUndimmedDetentIdentifier = id
            case .setDetents(let list, _)?: rule.detents = list
            default: continue
            }
            changes.append((s.time, rule))
        }
        /// §3.8 items 1–2, from the active detents' offsets top to bottom.
        func fraction(_ y: Double, _ c: SheetConfiguration) -> Double {
            let offsets = c.detentOffsets(environment: env)
            guard !offsets.isEmpty else { return 0 }
            let yDim: Double
            let yNext: Double
            if let iU = offsets.firstIndex(where: { $0.0 == c.largestUndimmedDetentIdentifier }) {
                if iU == 0 { return 0 }
                (yDim, yNext) = (offsets[iU - 1].1, offsets[iU].1)
            } else {
                (yDim, yNext) = (offsets[offsets.count - 1].1, env.container.height)
            }
            if yDim == yNext { return y <= yDim ? 1 : 0 }
            return min(max((y - yNext) / (yDim - yNext), 0), 1)
        }
        var out: [String] = []
        for f in frames where bool(f["presented"]) == true {
            guard let dim = number(f["dimming"]) else {
                out.append("frame \(f.index): no dimming")
                continue
            }
            let t = frameTime(f.index, frameRate: env.frameRate)
            let applied = changes.filter { $0.0 <= t }
            let after = applied.last?.1 ?? trace.header.sheet!
            let before = applied.dropLast().last?.1 ?? trace.header.sheet!
            let a = fraction(f.location, before)
            let b = fraction(f.location, after)
            if dim < min(a, b) - 1e-12 || dim > max(a, b) + 1e-12 {
                out.append(
                    "frame \(f.index): SH8 dimming \(dim) outside [\(min(a, b)), \(max(a, b))] at location \(f.location)"
                )
            }
        }
        return out
    }

    /// The SH8 check above accepts a fade and rejects a dimming outside [old, new]: the fade-out's
    /// frames pass; the same frames with one dimming pushed below 0, or one frame before the call
    /// showing a value below 1, fail.
    func testSH8AcceptsAFadeAndRejectsDimmingOutsideOldAndNew() throws {
        let (_, trace) = try XCTUnwrap(Self.traces().first { $0.0 == "x8/x8-fade-out.jsonl" })
        let frames = Self.frames(simulate(trace))
        XCTAssertTrue(
            frames.contains { (Self.number($0["dimming"]) ?? 0) > 0.4 && (Self.number($0["dimming"]) ?? 0) < 0.6 },
            "the fade shows intermediate values")
        XCTAssertEqual(Self.sh8Violations(trace, frames), [])
        func tampered(_ index: Int, _ value: Double) -> [SystemFrame] {
            frames.map { f in
                guard f.index == index else { return f }
                return SystemFrame(
                    index: f.index,
                    channels: f.channels.map { $0.key == "dimming" ? RecordField("dimming", .number(value)) : $0 })
            }
        }
        let fading = try XCTUnwrap(
            frames.first { (Self.number($0["dimming"]) ?? 0) > 0.4 && (Self.number($0["dimming"]) ?? 0) < 0.6 })
        XCTAssertEqual(Self.sh8Violations(trace, tampered(fading.index, -0.01)).count, 1)
        XCTAssertEqual(Self.sh8Violations(trace, tampered(fading.index, 1.01)).count, 1)
        XCTAssertEqual(
            Self.sh8Violations(trace, tampered(0, 0.5)).count, 1, "before the call only the header's rule holds")
    }
}
