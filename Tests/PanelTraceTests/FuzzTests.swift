import XCTest
import PanelSimCore
@testable import PanelTrace

extension SplitMix64 {
    /// A value in 0..<n (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

final class FuzzTests: XCTestCase {
    /// Fragments that tend to reach deep into the loader's checks.
    private static let tokens: [String] = [
        "1e999", "-1e999", "-0", "0.0000005", "99999999999999999999999", "-1", "1.5", "NaN", "null", "true", "false",
        "\"\"", "\"full\"", "\"hidden\"", "\"began\"", "\"ended\"", "\"moved\"", "\"move\"", "\"track\"", "[]", "{}",
        "\"\\ud800\"", "\"\\u0000\"", "{\"x\": 1}", "[[[[[[[[", "\"scrollView\"", "\"states\"", ",", ":", "\"", "\\",
        "1e-999", "9223372036854.775807", "9223372036854.775808", "0e0", "\"é\"", "\u{2028}", "\r", "\n",
    ]
    private static let bytes: [UInt8] =
        Array("{}[],:\"\\-+.0123456789eE \t\nntfaulx".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xFF, 0xED, 0xF4]

    private func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = input
        for _ in 0...rng.below(3) {
            let n = b.count
            switch rng.below(8) {
            case 0 where n > 0:  // delete a range
                let start = rng.below(n)
                b.removeSubrange(start..<min(n, start + 1 + rng.below(8)))
            case 1:  // insert a byte
                b.insert(Self.bytes[rng.below(Self.bytes.count)], at: rng.below(n + 1))
            case 2 where n > 0:  // replace a byte
                b[rng.below(n)] = Self.bytes[rng.below(Self.bytes.count)]
            case 3:  // insert a token
                b.insert(contentsOf: Array(Self.tokens[rng.below(Self.tokens.count)].utf8), at: rng.below(n + 1))
            case 4:  // replace a number with a token
                let digits = b.indices.filter { b[$0] >= 0x30 && b[$0] <= 0x39 }
                if let at = digits.isEmpty ? nil : digits[rng.below(digits.count)] {
                    var end = at
                    while end < b.count, (b[end] >= 0x30 && b[end] <= 0x39) || b[end] == 0x2E { end += 1 }
                    b.replaceSubrange(at..<end, with: Array(Self.tokens[rng.below(Self.tokens.count)].utf8))
                }
            case 5:  // duplicate, drop or swap lines
                var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                guard lines.count > 1 else { break }
                let i = rng.below(lines.count)
                let j = rng.below(lines.count)
                switch rng.below(3) {
                case 0: lines.insert(lines[i], at: j)
                case 1: lines.remove(at: i)
                default: lines.swapAt(i, j)
                }
                b = Array(lines.joined(separator: [0x0A]))
            case 6 where n > 0:  // truncate
                b.removeSubrange(rng.below(n)..<n)
            default:  // swap two bytes
                if n > 1 { b.swapAt(rng.below(n), rng.below(n)) }
            }
        }
        return b
    }

    func testMutatedTracesOnlyEverThrowTraceError() {
        var rng = SplitMix64(seed: 0x5EED_7ACE)
        let valid = Array(Fixtures.validTrace.utf8)
        var loaded = 0
        var invalid = 0
        var unsupported = 0
        for _ in 0..<4000 {
            let mutated = mutate(valid, &rng)
            // The JSON layer on raw bytes (invalid UTF-8 included) …
            for line in mutated.split(separator: 0x0A) { _ = try? JSON.parse(utf8: Array(line)) }
            // … and the loader on the decoded text: any outcome but a crash is fine, and errors are
            // always well-formed, one-line TraceErrors.
            do {
                _ = try TraceLoader.parse(text: String(decoding: mutated, as: UTF8.self), file: "fuzz.jsonl")
                loaded += 1
            } catch {
                XCTAssertEqual(error.file, "fuzz.jsonl")
                XCTAssertGreaterThanOrEqual(error.line, 0)
                XCTAssertFalse(error.message.isEmpty)
                XCTAssertFalse(error.description.contains("\n"), error.description)
                XCTAssertNotEqual(error.kind, .io)
                if error.kind == .unsupported { unsupported += 1 } else { invalid += 1 }
            }
        }
        XCTAssertEqual(loaded + invalid + unsupported, 4000)
        XCTAssertGreaterThan(invalid, 1000, "mutations should mostly break the trace")
        XCTAssertGreaterThan(loaded, 10, "some mutations should still load")
    }

    func testRandomBytesNeverCrashTheJSONParser() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<3000 {
            let count = rng.below(64)
            var b: [UInt8] = []
            for _ in 0..<count {
                b.append(
                    rng.below(4) == 0 ? UInt8(truncatingIfNeeded: rng.next()) : Self.bytes[rng.below(Self.bytes.count)])
            }
            do {
                _ = try JSON.parse(utf8: b)
            } catch {
                XCTAssertGreaterThanOrEqual(error.column, 1)
                XCTAssertLessThanOrEqual(error.column, b.count + 1)
            }
        }
    }
}
