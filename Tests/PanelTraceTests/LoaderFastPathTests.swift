import XCTest
import PanelSimCore
@testable import PanelTrace

/// The loader's touch-line fast path (`TouchLineFastPath`) against the general path: same traces
/// (Double bits included), same errors, on generated and mutated traces.
final class LoaderFastPathTests: XCTestCase {
    /// What a parse gives: the trace with the bit patterns of its touch numbers (`==` on Double
    /// would let 0 and −0 pass), or the error.
    enum Outcome: Equatable {
        case trace(Trace, [UInt64])
        case error(TraceError)
    }

    static func outcome(_ text: String, fast: Bool) -> Outcome {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        do {
            let trace = try TraceLoader.parse(utf8: bytes, file: "diff.jsonl", fastPath: fast)
            var bits: [UInt64] = []
            for sample in trace.samples {
                guard case .touch(let t) = sample.kind else { continue }
                bits += [
                    t.location.x.bitPattern, t.location.y.bitPattern,
                    t.velocity?.x.bitPattern ?? 1, t.velocity?.y.bitPattern ?? 1,
                ]
            }
            return .trace(trace, bits)
        } catch {
            return .error(error)
        }
    }

    /// The first differing sample or the error, short enough for a failure message.
    static func summary(_ o: Outcome) -> String {
        switch o {
        case .error(let e): return e.description
        case .trace(let t, let bits):
            return
                "\(t.samples.count) samples, last \(t.samples.last.map { "\($0)" } ?? "none"), bits \(bits.suffix(4))"
        }
    }

    private func assertSameOutcome(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Outcome {
        let fast = Self.outcome(text, fast: true)
        let general = Self.outcome(text, fast: false)
        if fast != general {
            XCTFail(
                "fast path differs (fast: \(Self.summary(fast)); general: \(Self.summary(general))) on:\n\(text)",
                file: file, line: line)
        }
        return general
    }

    // MARK: Generated lines

    /// Number texts the fast path takes, declines, or must convert with care.
    private static let numberTexts = [
        "0", "-0", "0.0", "-0.0", "1", "195", "406.5", "-12.25", "0.1", "0.3", "1e0", "1E+2", "2.5e-1", "-1.5e3",
        "10000000", "10000000.0", "10000000.000001", "-10000000", "1e7", "1.0000001e7", "9999999.999999999",
        "9007199254740992", "9007199254740993", "0.9007199254740993", "123456789012345678", "12345678901234567890",
        "1e22", "1e23", "1e-22", "1e-23", "4.35", "0.000000000000000000001", "1.7976931348623157e308", "5e-324",
        "1e999", "-1e999", "00", "01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN", "\"1\"", "null", "true",
        "3.14159265358979", "2.718281828459045", "0.30000000000000004", "100.125", "1234567.8125",
    ]
    private static let timeTexts = [
        "0", "0.0", "-0", "-0.0", "0.000000", "0.0000005", "0.0000004999", "0.00000049", "0.0000015", "1.9999995",
        "2.5e-1", "1e2", "-1", "100000000", "100000000.0000004", "100000000.0000005", "100000001", "1e999",
        "0.123456789012345678901234", "12.3456785", "99999999.9999995", "\"1\"", "null",
    ]
    private static let phases = ["began", "moved", "moved", "moved", "stationary", "ended", "cancelled"]
    private static let spaces = ["", " ", " ", " ", "  ", "\t", "\r"]

    private static func pick<T>(_ list: [T], _ rng: inout SplitMix64) -> T { list[rng.below(list.count)] }

    /// A random number text: mostly ordinary coordinates, sometimes an edge case from the list.
    private static func number(_ rng: inout SplitMix64) -> String {
        switch rng.below(10) {
        case 0: return pick(numberTexts, &rng)
        case 1:  // many digits
            var s = rng.below(2) == 0 ? "-" : ""
            s += String(1 + rng.below(9))
            for _ in 0..<rng.below(20) { s += String(rng.below(10)) }
            if rng.below(2) == 0 {
                s += "."
                for _ in 0...rng.below(20) { s += String(rng.below(10)) }
            }
            if rng.below(4) == 0 { s += "e" + (rng.below(3) == 0 ? "" : "-") + String(rng.below(40)) }
            return s
        default:
            let v = Double(rng.below(1_000_000)) / Double([1, 2, 4, 8, 10, 100, 1000][rng.below(7)])
            return rng.below(8) == 0 ? CanonicalNumber.format(-v) : CanonicalNumber.format(v)
        }
    }

    private static func member(_ key: String, _ value: String, _ rng: inout SplitMix64) -> String {
        "\"\(key)\"" + pick(spaces, &rng) + ":" + pick(spaces, &rng) + value
    }

    /// One sample line: mostly touch lines in the many spellings JSON allows, sometimes broken.
    private static func line(t: String, _ rng: inout SplitMix64) -> String {
        if rng.below(25) == 0 {
            return pick(
                [
                    "{\"t\": \(t), \"call\": \"move\", \"to\": \"full\"}",
                    "{\"t\": \(t), \"observed\": {\"location\": 400}}",
                    "{\"t\": \(t), \"end\": true}",
                    "", "   ", "\t\r",
                    "{\"t\": \(t), \"touch\": \"began\", \"call\": \"move\", \"x\": 1, \"y\": 2}",
                    "[1, 2]", "{\"t\": \(t), \"touch\": \"moved\", \"x\": 1, \"y\": 2,}",
                    "{\"format\": \"panelsim-trace\"}", "{\"t\": \(t)}", "{}",
                ], &rng)
        }
        var members: [String] = []
        if rng.below(40) != 0 { members.append(member("t", t, &rng)) }
        var phase = "\"\(pick(phases, &rng))\""
        if rng.below(60) == 0 {
            phase = pick(["\"\\u0062egan\"", "\"Began\"", "\"begun\"", "1", "null", "\"moved "], &rng)
        }
        if rng.below(40) != 0 { members.append(member(rng.below(80) == 0 ? "toch" : "touch", phase, &rng)) }
        if rng.below(4) == 0 {
            members.append(
                member(
                    "id",
                    pick(
                        [
                            "0", "0", "1", "2", "15", "16", "123456", "1.0", "1e0", "-0", "-1", "01", "0.5",
                            "99999999999999999999", "\"1\"",
                        ], &rng), &rng))
        }
        if rng.below(40) != 0 { members.append(member("x", number(&rng), &rng)) }
        if rng.below(40) != 0 { members.append(member("y", number(&rng), &rng)) }
        switch rng.below(8) {
        case 0: members.append(member("velocity", "null", &rng))
        case 1, 2:
            var inner = [member("x", number(&rng), &rng), member("y", number(&rng), &rng)]
            switch rng.below(12) {
            case 0: inner.swapAt(0, 1)
            case 1: inner.removeLast()
            case 2: inner.append(member("z", "1", &rng))
            case 3: inner.append(member("x", "1", &rng))
            default: break
            }
            members.append(
                member(
                    "velocity",
                    "{" + pick(spaces, &rng) + inner.joined(separator: "," + pick(spaces, &rng)) + pick(spaces, &rng)
                        + "}", &rng))
        case 3 where rng.below(6) == 0:
            members.append(member("velocity", pick(["[]", "1", "\"v\"", "{}", "nul"], &rng), &rng))
        default: break
        }
        if rng.below(50) == 0 { members.append(member(pick(["t", "x", "touch", "extra"], &rng), "1", &rng)) }
        if rng.below(3) == 0 { members.shuffle(using: &rng) }
        return pick(spaces, &rng) + "{" + pick(spaces, &rng)
            + members.joined(separator: pick([",", ", ", " ,", ",\t"], &rng))
            + pick(spaces, &rng) + "}" + pick(spaces, &rng)
    }

    /// A trace of `count` generated sample lines, times mostly increasing.
    private static func trace(lines count: Int, _ rng: inout SplitMix64) -> String {
        var lines = [Fixtures.minimalHeader]
        var micros: Int64 = 0
        var down = false
        for _ in 0..<count {
            micros += rng.below(4) == 0 ? 0 : Int64(rng.below(10_000)) - (rng.below(30) == 0 ? 20_000 : 0)
            var t = CanonicalNumber.formatSeconds(max(micros, 0))
            // Sub-µs digits: equal µs with a smaller Double is still time going backwards.
            if rng.below(3) == 0 { t += String(rng.below(1000)) }
            if rng.below(20) == 0 { t = pick(timeTexts, &rng) }
            var text = line(t: t, &rng)
            // Keep the finger sequence mostly consistent so that lines get past the checks.
            if rng.below(3) != 0, text.contains("\"touch\"") {
                let phase = down ? pick(["moved", "moved", "ended"], &rng) : "began"
                for p in ["began", "moved", "stationary", "ended", "cancelled"] {
                    text = text.replacingOccurrences(of: "\"\(p)\"", with: "\"\(phase)\"")
                }
            }
            if text.contains("\"began\"") { down = true }
            if text.contains("\"ended\"") || text.contains("\"cancelled\"") { down = false }
            lines.append(text)
        }
        let separator = rng.below(4) == 0 ? "\r\n" : "\n"
        return lines.joined(separator: separator) + (rng.below(2) == 0 ? separator : "")
    }

    // MARK: Tests

    func testFastPathMatchesGeneralPathOnGeneratedTraces() {
        var rng = SplitMix64(seed: 0xFA57_0001)
        var loaded = 0
        var failed = 0
        for _ in 0..<1500 {
            switch assertSameOutcome(Self.trace(lines: 1 + rng.below(16), &rng)) {
            case .trace: loaded += 1
            case .error: failed += 1
            }
        }
        XCTAssertGreaterThan(loaded, 50, "some generated traces should load")
        XCTAssertGreaterThan(failed, 300, "most generated traces should hit an error somewhere")
    }

    func testFastPathMatchesGeneralPathLineByLine() {
        // One generated line after a valid prefix: every line's own outcome (value or error) is compared.
        var rng = SplitMix64(seed: 0xFA57_0002)
        let prefix =
            Fixtures.minimalHeader + "\n{\"t\": 0.5, \"touch\": \"began\", \"x\": 1, \"y\": 2}\n"
            + "{\"t\": 0.5, \"touch\": \"began\", \"id\": 1, \"x\": 1, \"y\": 2}\n"
        var loaded = 0
        for _ in 0..<6000 {
            let t = rng.below(4) == 0 ? Self.pick(Self.timeTexts, &rng) : "0." + String(500_000 + rng.below(500_000))
            if case .trace = assertSameOutcome(prefix + Self.line(t: t, &rng)) { loaded += 1 }
        }
        XCTAssertGreaterThan(loaded, 1000)
    }

    func testFastPathMatchesGeneralPathOnMutatedBenchTraces() {
        // The bench's line shape with byte-level damage.
        var rng = SplitMix64(seed: 0xFA57_0003)
        var base = Fixtures.minimalHeader + "\n"
        for k in 0..<12 {
            let phase = k == 0 ? "began" : (k == 11 ? "ended" : "moved")
            base +=
                "{\"t\": \(CanonicalNumber.formatSeconds(Int64(k) * 8_333)), \"touch\": \"\(phase)\", \"x\": 195, \"y\": \(CanonicalNumber.format(500 + Double(k) * 2.125))}\n"
        }
        let alphabet = Array("{}[],:\"\\-+.0123456789eE \t\r\nntfaulxyidvbgmoc".utf8)
        for _ in 0..<6000 {
            var b = Array(base.utf8)
            for _ in 0...rng.below(3) {
                let at = rng.below(b.count)
                switch rng.below(3) {
                case 0: b[at] = alphabet[rng.below(alphabet.count)]
                case 1: b.insert(alphabet[rng.below(alphabet.count)], at: at)
                default: b.remove(at: at)
                }
            }
            _ = assertSameOutcome(String(decoding: b, as: UTF8.self))
        }
    }

    func testFastPathTakesTheCommonLinesAndDeclinesTheRest() {
        func fast(_ line: String, sequence: SampleSequence = SampleSequence()) -> TraceSample? {
            var s = sequence
            var samples: [TraceSample] = []
            let bytes = Array(line.utf8)
            let taken = bytes.withUnsafeBufferPointer {
                TouchLineFastPath.append($0, 0, $0.count, line: 7, sequence: &s, to: &samples)
            }
            XCTAssertEqual(taken, samples.count == 1)
            return samples.first
        }
        let sample = fast("{\"t\": 10249.461667, \"touch\": \"began\", \"x\": 195, \"y\": 698.625}")
        XCTAssertEqual(
            sample,
            TraceSample(
                time: 10_249_461_667, line: 7,
                kind: .touch(TouchSample(phase: .began, location: Point(x: 195, y: 698.625)))))
        XCTAssertEqual(
            fast(
                "{\"y\":-0,\"velocity\":{\"y\":1.5e2,\"x\":-3},\"x\":0.1,\"id\":2,\"touch\":\"began\",\"t\":0.0000005}"),
            TraceSample(
                time: 1, line: 7,
                kind: .touch(
                    TouchSample(
                        phase: .began, id: 2, location: Point(x: 0.1, y: -0.0),
                        velocity: Point(x: -3, y: 150)))))
        XCTAssertEqual(
            fast("\t{ \"t\" : 1 , \"touch\" : \"began\" , \"x\" : 1 , \"y\" : 2 , \"velocity\" : null }\r"),
            TraceSample(time: 1_000_000, line: 7, kind: .touch(TouchSample(phase: .began, location: Point(x: 1, y: 2))))
        )
        // Declined (the general path decides): escapes, exponent times, other kinds, errors.
        for line in [
            "{\"t\": 0, \"touch\": \"\\u0062egan\", \"x\": 1, \"y\": 2}",
            "{\"t\": 1e-3, \"touch\": \"began\", \"x\": 1, \"y\": 2}",
            "{\"t\": 0, \"touch\": \"moved\", \"x\": 1, \"y\": 2}",
            "{\"t\": 0, \"touch\": \"began\", \"x\": 1e23, \"y\": 2}",
            "{\"t\": 0, \"touch\": \"began\", \"x\": 1, \"y\": 2, \"y\": 3}",
            "{\"t\": 0, \"call\": \"remove\"}", "",
        ] {
            XCTAssertNil(fast(line), line)
        }
    }

    func testNumbersHaveTheBitsOfDoubleParsing() {
        var rng = SplitMix64(seed: 0xFA57_0004)
        var taken = 0
        for _ in 0..<200_000 {
            var text = rng.below(2) == 0 ? "-" : ""
            let digits = 1 + rng.below(19)
            text += String(1 + rng.below(9))
            for _ in 1..<digits { text += String(rng.below(10)) }
            if rng.below(2) == 0 {
                let point = rng.below(text.count)
                if point > (text.hasPrefix("-") ? 1 : 0) {
                    text.insert(".", at: text.index(text.startIndex, offsetBy: point))
                }
            }
            if rng.below(3) == 0 { text += ["e", "E", "e+", "e-"][rng.below(4)] + String(rng.below(400)) }
            if rng.below(50) == 0 {
                text = ["0", "-0", "0e7", "-0.0e-400", "1e400", "-1e-400", "0.000", "9007199254740993"][rng.below(8)]
            }
            let bytes = Array(text.utf8)
            let fast: Double? = bytes.withUnsafeBufferPointer { b in
                var c = TouchLineFastPath.Cursor(b: b, i: 0, end: b.count)
                guard let n = c.number(), c.i == b.count else { return nil }
                return TouchLineFastPath.Cursor.double(negative: n.negative, mantissa: n.mantissa, exponent: n.exponent)
            }
            // The general parser (ExactDouble, else Double(text)) gives the bits of Double(text) too.
            guard case .number(let n)? = try? JSON.parse(text) else {
                XCTFail(text)
                continue
            }
            XCTAssertEqual(n.double.bitPattern, Double(text)!.bitPattern, text)
            guard let fast else { continue }
            taken += 1
            XCTAssertEqual(fast.bitPattern, Double(text)!.bitPattern, text)
        }
        XCTAssertGreaterThan(taken, 50_000)
    }

    // MARK: Large files (read straight into memory, digest on another thread)

    private func temporaryFile(_ bytes: [UInt8], name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "panelsim-fastpath-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A trace of about 1.2 MB (above `FileDigest.concurrencyThreshold`), with a byte order mark.
    private static func largeTrace() -> [UInt8] {
        var text = "\u{FEFF}" + Fixtures.minimalHeader + "\n"
        for k in 0..<20_000 {
            let phase = k % 50 == 0 ? "began" : (k % 50 == 49 ? "ended" : "moved")
            text +=
                "{\"t\": \(CanonicalNumber.formatSeconds(Int64(k) * 8_333)), \"touch\": \"\(phase)\", \"x\": 195, \"y\": \(CanonicalNumber.format(400 + Double(k % 50) * 1.125))}\r\n"
        }
        return Array(text.utf8)
    }

    func testLargeFileLoadsWithTheDigestOfItsBytes() throws {
        let bytes = Self.largeTrace()
        XCTAssertGreaterThan(bytes.count, FileDigest.concurrencyThreshold)
        let path = try temporaryFile(bytes, name: "large.jsonl")
        let loaded = try TraceLoader.load(path: path)
        // The digest ignores the BOM and the CR LF line endings of this file.
        XCTAssertEqual(loaded.digest, "sha256:" + SHA256.hex(FileDigest.canonicalBytes(bytes)))
        XCTAssertNotEqual(FileDigest.canonicalBytes(bytes).count, bytes.count)
        XCTAssertEqual(loaded.trace, try TraceLoader.parse(text: String(decoding: bytes, as: UTF8.self), file: path))
        XCTAssertEqual(loaded.trace.samples.count, 20_000)
        XCTAssertEqual(
            loaded.trace, try TraceLoader.parse(utf8: Array(bytes.dropFirst(3)), file: path, fastPath: false))
    }

    func testLargeFileErrorsAreTheGeneralPathErrors() throws {
        var bytes = Self.largeTrace()
        // Invalid UTF-8 late in the file: reported with its line and column.
        var bad = bytes
        let at = bad.count - 20
        bad[at] = 0xFF
        let badPath = try temporaryFile(bad, name: "large-bad-utf8.jsonl")
        XCTAssertThrowsError(try TraceLoader.load(path: badPath)) { error in
            XCTAssertEqual(
                (error as? TraceError)?.description,
                "\(badPath):20001: invalid UTF-8 at column \(at - bad[..<at].lastIndex(of: 0x0A)!) (expected UTF-8 encoded text, found byte 0xFF)"
            )
        }
        // A time going backwards near the end, after 19,000 fast-path lines (the header line ends
        // in LF, the samples in CRLF, so component k + 1 is line k + 2).
        let text = String(decoding: bytes, as: UTF8.self)
        var edited = text.components(separatedBy: "\r\n")
        edited[19_001] = "{\"t\": 1.5, \"touch\": \"moved\", \"x\": 195, \"y\": 400}"
        bytes = Array(edited.joined(separator: "\r\n").utf8)
        let path = try temporaryFile(bytes, name: "large-backwards.jsonl")
        XCTAssertThrowsError(try TraceLoader.load(path: path)) { error in
            XCTAssertEqual(
                (error as? TraceError)?.description,
                "\(path):19003: t: time goes backwards: t = 1.5 s comes after t = 158.327000 s (line 19002); expected t ≥ 158.327000"
            )
        }
    }
}
