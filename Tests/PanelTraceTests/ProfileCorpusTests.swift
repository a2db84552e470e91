import XCTest
import Foundation
import PanelSimCore
import PanelTrace

/// The version-profile corpus under `traces/profiles/` (written by `scripts/make_profiles_corpus.py`
/// from profiles.md alone): each switch's shortest trace at the two points it separates, and each
/// gate. Checks every `expect:` clause under the trace's own profile, that the two points of a case
/// give different records, that the points listed as `same` (sharing every switch value the trace
/// triggers) give identical records, and that each gate refuses its trace under the version before it.
final class ProfileCorpusTests: XCTestCase, GeneratedCorpus {
    static let folder = "profiles"

    /// `name[:argument]` of an event, as the generator writes it; nil for `didMove` and
    /// `shouldBeginDragging`.
    static func label(_ e: DelegateEvent) -> String? {
        switch e {
        case .didMove, .shouldBeginDragging: return nil
        case .didChangeState(let s): return "didChangeState:" + s
        case .willEndDragging(_, _, let target): return "willEndDragging:" + target
        case .didEndDragging(let w): return "didEndDragging:\(w)"
        case .willBeginAttracting(let to): return "willBeginAttracting:" + to
        case .system(let s):
            switch s.name {
            case "didChangeState": return "didChangeState:" + (string(s["state"]) ?? "?")
            case "willEndDragging": return "willEndDragging:" + (string(s["target"]) ?? "?")
            default: return s.name
            }
        default: return e.name
        }
    }

    /// The last frame's channel `key` as the clause writes it (numbers, true/false).
    static func channel(_ r: SimulationResult, _ key: String) -> String? {
        switch r.records.last(where: { $0.frameIndex != nil }) {
        case .frame(let f)?:
            switch key {
            case "location": return CanonicalLike.text(f.location)
            case "contentOffset": return f.contentOffset.map(CanonicalLike.text)
            case "state": return f.state
            default: return nil
            }
        case .systemFrame(let f)?:
            switch f[key] {
            case .number(let x)?: return CanonicalLike.text(x)
            case .string(let s)?: return s
            case .bool(let b)?: return String(b)
            default: return nil
            }
        default: return nil
        }
    }

    static func profile(_ library: PanelModel, _ version: String) throws -> TraceProfile {
        try TraceProfiles.parse(commandLine: library.rawValue + "@" + version).get()
    }

    func testSwitchTracesMeetTheirExpectationsAtEachPoint() throws {
        var checked = 0
        var pairs = 0
        var sames = 0
        let all = try Self.traces()
        let byStem = Dictionary(
            uniqueKeysWithValues: all.map { (String($0.0.split(separator: "/").last!.dropLast(6)), $0.1) })
        for (name, trace) in all where !name.contains("/gates/") {
            let pairs_ = Self.expectationPairs(trace.header.description)
            XCTAssertFalse(pairs_.isEmpty, "\(name): no expect: clause")
            XCTAssertNotNil(trace.header.profile, "\(name): names no profile")
            let result = simulate(trace)
            XCTAssertFalse(result.budgetExceeded, name)
            let frames = result.records.filter { $0.frameIndex != nil }
            let labels = result.records.compactMap { r -> String? in
                if case .event(_, let e) = r { return Self.label(e) } else { return nil }
            }
            let rate = trace.header.environment.frameRate
            for (key, value) in pairs_ {
                switch key {
                case "state": XCTAssertEqual(Self.channel(result, "state"), value, "\(name): state")
                case "location", "offset":
                    let actual = Self.channel(result, key == "offset" ? "contentOffset" : "location").flatMap(
                        Double.init)
                    XCTAssertEqual(actual ?? .nan, Double(value) ?? .nan, accuracy: 1e-6, "\(name): \(key)")
                case let k where k.hasPrefix("frame."):
                    let actual = Self.channel(result, String(k.dropFirst(6)))
                    if let expected = Double(value) {
                        XCTAssertEqual(actual.flatMap(Double.init) ?? .nan, expected, accuracy: 1e-6, "\(name): \(k)")
                    } else {
                        XCTAssertEqual(actual, value, "\(name): \(k)")
                    }
                case "names":
                    XCTAssertEqual(
                        labels, value == "-" ? [] : value.split(separator: ",").map(String.init), "\(name): events")
                case "has": XCTAssertTrue(labels.contains(value), "\(name): has \(value) in \(labels)")
                case "lacks": XCTAssertFalse(labels.contains(value), "\(name): lacks \(value) in \(labels)")
                case "peak":
                    let peak = frames.compactMap(\.frameLocation).max() ?? .nan
                    XCTAssertEqual(peak, Double(value) ?? .nan, accuracy: 0.05, "\(name): peak")
                case let k where k.hasPrefix("loc@"):
                    let t = Microseconds(((Double(k.dropFirst(4)) ?? .nan) * 1e6).rounded())
                    let frame = frames.last { frameTime($0.frameIndex!, frameRate: rate) <= t }
                    XCTAssertEqual(frame?.frameLocation ?? .nan, Double(value) ?? .nan, accuracy: 1e-3, "\(name): \(k)")
                case "same":
                    // profiles.md PI3/PI4: identical records (the header's point differs).
                    var options = SimulationOptions()
                    options.profiles = [try Self.profile(trace.header.model, value)]
                    XCTAssertEqual(
                        simulate(trace, options: options).records, result.records,
                        "\(name): same records under \(value)")
                    sames += 1
                case "pair":
                    let other = try XCTUnwrap(byStem[value], "\(name): pair \(value)")
                    XCTAssertNotEqual(simulate(other).records, result.records, "\(name): differs from \(value)")
                    pairs += 1
                default: XCTFail("\(name): unknown expectation key \(key)")
                }
            }
            checked += 1
        }
        XCTAssertEqual(checked, 61, "switch traces in the corpus")
        XCTAssertGreaterThan(pairs, 0)
        XCTAssertGreaterThan(sames, 0)
    }

    func testEachGateRefusesItsTraceBeforeTheVersionThatAddedIt() throws {
        var checked = 0
        for (name, trace) in try Self.traces() where name.contains("/gates/") {
            let e = Self.expectations(trace.header.description)
            let refused = try Self.profile(trace.header.model, try XCTUnwrap(e["refusedAt"], name))
            let own = try XCTUnwrap(trace.header.profile, name)
            XCTAssertNoThrow(try TraceProfiles.checkGates(trace, profile: own, file: name))
            do {
                try TraceProfiles.checkGates(trace, profile: refused, file: name)
                XCTFail("\(name): accepted under \(refused.version)")
            } catch {
                XCTAssertEqual(String(error.line), e["line"], name)
                XCTAssertEqual(error.field, e["field"], name)
                XCTAssertTrue(
                    error.message.hasSuffix(
                        "needs \(trace.header.model.rawValue) \(e["opensAt"] ?? "?") (not in \(refused.version))"),
                    "\(name): \(error.message)")
            }
            checked += 1
        }
        XCTAssertEqual(checked, 8, "gate traces in the corpus")
    }
}

/// Numbers as the clause compares them (plain decimal text that `Double` reads back exactly).
enum CanonicalLike {
    static func text(_ x: Double) -> String { "\(x)" }
}
