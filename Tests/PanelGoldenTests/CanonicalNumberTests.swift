import XCTest
@testable import PanelTrace

// Test inputs come from the project's seeded generator, `SplitMix64` (PanelTrace).

final class CanonicalNumberTests: XCTestCase {
    func testExamples() {
        let table: [(Double, String)] = [
            (100.0, "100"), (1e-7, "0.0000001"), (-0.0, "0"), (0.0, "0"),
            (333.6666666666667, "333.6666666666667"), (0.3, "0.3"), (-1.5, "-1.5"),
            (0.1 + 0.2, "0.30000000000000004"), (1e20, "100000000000000000000"),
            (1e16, "10000000000000000"), (123456789012345680, "123456789012345680"),
            (0.0001, "0.0001"), (0.00001, "0.00001"), (-2.5e-5, "-0.000025"),
            (412.5, "412.5"), (600, "600"), (-6, "-6"), (1, "1"), (10, "10"),
            (Double.leastNonzeroMagnitude, "0." + String(repeating: "0", count: 323) + "5"),
            (1.7976931348623157e308, "17976931348623157" + String(repeating: "0", count: 292)),
            (2.2250738585072014e-308, "0." + String(repeating: "0", count: 307) + "22250738585072014"),
            (Double(1 << 53) + 2, "9007199254740994"),
            (Double(1 << 53), "9007199254740992"), (-Double(1 << 53), "-9007199254740992"),
            (Double(1 << 53) - 1, "9007199254740991"), (Double(1 << 53).nextDown, "9007199254740991"),
        ]
        for (value, expected) in table {
            XCTAssertEqual(CanonicalNumber.format(value), expected, "\(value)")
        }
    }

    /// The formatter reads `Double.write(to:)` into a stack buffer instead of `description`: the
    /// characters must be `description`'s for every finite value (the only ones it formats; NaN's
    /// `write(to:)` text shows its payload, unlike `description`, and non-finite values are `null`).
    func testDescriptionBytesEqualDescription() {
        var random = SplitMix64(seed: 0xDE5C)
        var values: [Double] = [
            0, -0.0, 1, -1, 0.1, 1e-7, 1e22, 1e23, 123.456, Double.leastNonzeroMagnitude,
            Double.greatestFiniteMagnitude, Double.leastNormalMagnitude,
        ]
        for _ in 0..<20_000 { values.append(Double(bitPattern: random.next())) }
        values.removeAll { !$0.isFinite }
        for _ in 0..<20_000 { values.append((random.nextUnit() - 0.5) * 2000) }
        let mismatches = values.filter { v in
            var sink = DescriptionBytes()
            v.write(to: &sink)
            return sink.withBytes { String(decoding: $0, as: UTF8.self) } != v.description
        }
        XCTAssertEqual(mismatches.map { String($0.bitPattern, radix: 16) }, [])
    }

    /// `append` copies an exponent-free description as it is; `appendPositional` (the general
    /// re-rendering) must agree on every such value, and `appendSeconds` with a plain formatter.
    func testDescriptionShortcutsAgreeWithTheGeneralPaths() {
        var random = SplitMix64(seed: 0x5EC0)
        var values: [Double] = [1e-4, 1e-5, 0.1, 5e-324, 1e15, 1e16, 1e17, 123456.789, 0.018633540372670808]
        for k in 40...70 {  // powers of two and their neighbours, where `description` changes notation
            let p = Double(sign: .plus, exponent: k, significand: 1)
            values += [p, -p, p.nextUp, p.nextDown, p + 0.5, p - 0.5, p * 1.5]
        }
        for _ in 0..<30_000 { values.append(Double(bitPattern: random.next())) }
        for _ in 0..<30_000 { values.append((random.nextUnit() - 0.5) * 2000) }
        for _ in 0..<10_000 { values.append((random.nextUnit() - 0.5) * 1e-3) }
        for v in values where v.isFinite && v != 0 && !(v.magnitude <= 0x1p53 && v == v.rounded(.towardZero)) {
            var fast: [UInt8] = []
            var general: [UInt8] = []
            CanonicalNumber.append(v, to: &fast)
            var sink = DescriptionBytes()
            v.write(to: &sink)
            sink.withBytes { CanonicalNumber.appendPositional(description: $0, to: &general) }
            if fast != general {
                return XCTFail(
                    "\(v): \(String(decoding: fast, as: UTF8.self)) vs \(String(decoding: general, as: UTF8.self))")
            }
        }
        for micros: Int64 in [0, 1, -1, 999_999, 1_000_000, 208_333, -208_333, 123_456_789_012, .max, .min, .min + 1] {
            let m = micros.magnitude
            var fraction = String(m % 1_000_000)
            fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
            XCTAssertEqual(
                CanonicalNumber.formatSeconds(micros), (micros < 0 ? "-" : "") + "\(m / 1_000_000).\(fraction)")
        }
    }

    func testNonFiniteIsNull() {
        XCTAssertEqual(CanonicalNumber.format(.nan), "null")
        XCTAssertEqual(CanonicalNumber.format(.infinity), "null")
        XCTAssertEqual(CanonicalNumber.format(-.infinity), "null")
    }

    /// Checks the shape and the round trip of one value.
    private func check(_ x: Double, file: StaticString = #filePath, line: UInt = #line) {
        let s = CanonicalNumber.format(x)
        XCTAssertFalse(
            s.contains("e") || s.contains("E") || s.contains("+"), "exponent in \(s)", file: file, line: line)
        XCTAssertFalse(s.hasSuffix(".0") || s.hasSuffix("."), "trailing .0 in \(s)", file: file, line: line)
        if s.contains(".") { XCTAssertFalse(s.hasSuffix("0"), "trailing zero in \(s)", file: file, line: line) }
        let unsigned = s.hasPrefix("-") ? s.dropFirst() : Substring(s)
        XCTAssertFalse(
            unsigned.hasPrefix("0") && unsigned.count > 1 && !unsigned.hasPrefix("0."),
            "leading zero in \(s)", file: file, line: line)
        guard let back = Double(s) else { return XCTFail("unparsable \(s)", file: file, line: line) }
        let expected = x == 0 ? 0.0 : x
        XCTAssertEqual(back.bitPattern, expected.bitPattern, "\(x) → \(s) → \(back)", file: file, line: line)
        // Shortest: the same significant digits as Swift's own shortest representation.
        XCTAssertEqual(significantDigits(s), significantDigits(x.description), "\(x)", file: file, line: line)
    }

    private func significantDigits(_ s: String) -> String {
        var mantissa = s
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) { mantissa = String(mantissa[..<e]) }
        var digits = mantissa.filter(\.isNumber)
        while digits.hasPrefix("0") { digits.removeFirst() }
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits
    }

    func testRoundTripRandomBitPatterns() {
        var rng = SplitMix64(seed: 0x5EED_0001)
        var checked = 0
        while checked < 40_000 {
            let x = Double(bitPattern: rng.next())
            guard x.isFinite else { continue }
            check(x)
            checked += 1
        }
    }

    func testRoundTripRandomEverydayValues() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<50_000 {
            // Values like a simulator produces: pixel-rounded locations, spring outputs, alphas.
            let unit = Double(rng.next() >> 11) / Double(1 << 53)
            let scale = [1.0, 3.0, 1e-3, 1e3, 1e-9, 1e9][Int(rng.next() % 6)]
            check((unit * 2 - 1) * 1000 * scale)
            check((unit * 844 * 3).rounded() / 3)
            check(unit)
        }
    }

    func testRoundTripNeighboursOfPowersOfTen() {
        for exponent in -320...308 {
            let p = Double("1e\(exponent)")!
            guard p.isFinite, p != 0 else { continue }
            check(p)
            check(p.nextUp)
            check(p.nextDown)
            check(-p)
        }
    }

    func testFormatSeconds() {
        let table: [(Int64, String)] = [
            (208_333, "0.208333"), (1_000_000, "1.000000"), (0, "0.000000"), (1, "0.000001"),
            (-1, "-0.000001"), (-1_500_000, "-1.500000"), (858_333, "0.858333"),
            (12_345_678_901, "12345.678901"),
            (Int64.max, "9223372036854.775807"), (Int64.min, "-9223372036854.775808"),
        ]
        for (micros, expected) in table {
            XCTAssertEqual(CanonicalNumber.formatSeconds(micros), expected)
        }
    }
}
