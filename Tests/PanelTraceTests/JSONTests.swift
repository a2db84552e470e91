import XCTest
@testable import PanelTrace

final class JSONTests: XCTestCase {
    private func parse(_ s: String) throws -> JSONValue { try JSON.parse(s) }

    private func assertSyntaxError(
        _ text: String, column: Int, contains fragment: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        do {
            let v = try JSON.parse(text)
            XCTFail("expected a syntax error for \(text), got \(v)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.column, column, "column for \(text): \(error.message)", file: file, line: line)
            XCTAssertTrue(
                error.message.contains(fragment), "message \(error.message) lacks \(fragment)", file: file, line: line)
        }
    }

    func testScalarsAndWhitespace() throws {
        XCTAssertEqual(try parse(" \t true \r\n"), .bool(true))
        XCTAssertEqual(try parse("false"), .bool(false))
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse("\"a\""), .string("a"))
        XCTAssertEqual(try parse("[]"), .array([]))
        XCTAssertEqual(try parse("{}"), .object(JSONObject()))
    }

    func testNumbersKeepTextAndDouble() throws {
        for (text, value) in [
            ("0", 0.0), ("-0", -0.0), ("12.50", 12.5), ("1e3", 1000), ("2.5E-1", 0.25),
            ("-1.25e+2", -125), ("0.1", 0.1), ("406.5", 406.5),
        ] {
            guard case .number(let n) = try parse(text) else { return XCTFail(text) }
            XCTAssertEqual(n.text, text)
            XCTAssertEqual(n.double, value)
        }
        guard case .number(let big) = try parse("1e999") else { return XCTFail() }
        XCTAssertEqual(big.double, .infinity, "overflow is kept as infinity; callers reject it")
        XCTAssertEqual(big.text, "1e999")
    }

    func testObjectKeepsKeyOrder() throws {
        guard case .object(let o) = try parse(#"{"z": 1, "a": [true, null], "m": {"k": "v"}}"#) else {
            return XCTFail()
        }
        XCTAssertEqual(o.keys, ["z", "a", "m"])
        XCTAssertEqual(o["a"], .array([.bool(true), .null]))
        XCTAssertNil(o["missing"])
    }

    func testStringEscapesAndUnicode() throws {
        XCTAssertEqual(try parse(#""\" \\ \/ \b \f \n \r \t""#), .string("\" \\ / \u{08} \u{0C} \n \r \t"))
        XCTAssertEqual(try parse(#""\u00e9\u0041""#), .string("éA"))
        XCTAssertEqual(try parse(#""\ud83d\ude00""#), .string("😀"))
        XCTAssertEqual(try parse("\"é😀\""), .string("é😀"))
    }

    func testSyntaxErrorsCarryColumnAndExpectation() {
        assertSyntaxError("", column: 1, contains: "expected a JSON value")
        assertSyntaxError("{\"a\": 1,}", column: 9, contains: "expected a string key")
        assertSyntaxError("[1, 2,]", column: 7, contains: "expected a JSON value")
        assertSyntaxError("{\"a\" 1}", column: 6, contains: "expected ':'")
        assertSyntaxError("{\"a\": 1 \"b\": 2}", column: 9, contains: "expected ',' or '}'")
        assertSyntaxError("[1 2]", column: 4, contains: "expected ',' or ']'")
        assertSyntaxError("true false", column: 6, contains: "expected end of input")
        assertSyntaxError("{} x", column: 4, contains: "found 'x'")
        assertSyntaxError("tru", column: 1, contains: "expected 'true'")
        assertSyntaxError("nul", column: 1, contains: "expected 'null'")
        // What other encoders write for non-finite numbers is named.
        assertSyntaxError(
            "NaN", column: 1,
            contains: "NaN is not a JSON number (JSON has no NaN or Infinity; expected a finite number)")
        assertSyntaxError("Infinity", column: 1, contains: "Infinity is not a JSON number")
        assertSyntaxError("-Infinity", column: 1, contains: "-Infinity is not a JSON number")
        assertSyntaxError("-Inf", column: 2, contains: "expected a digit after '-'")
        assertSyntaxError("Nope", column: 1, contains: "expected a JSON value")
        assertSyntaxError("'a'", column: 1, contains: "expected a JSON value")
        assertSyntaxError("\"abc", column: 5, contains: "expected '\"' to close the string")
        assertSyntaxError("{\"é\": 1, \"é\": 2}", column: 10, contains: "duplicate key")
    }

    /// A syntax error inside a value says whose value it is.
    func testSyntaxErrorsNameThePathOfTheValue() {
        func path(_ text: String) -> String? {
            do {
                _ = try JSON.parse(text)
                return nil
            } catch { return error.path }
        }
        XCTAssertEqual(path(#"{"t": 1, "y": NaN}"#), "y")
        XCTAssertEqual(path(#"{"velocity": {"x": 0, "y": -Infinity}}"#), "velocity.y")
        XCTAssertEqual(path(#"{"detents": [{"height": 1}, {"height": 01}]}"#), "detents[1].height")
        XCTAssertEqual(path(#"[[1, 2], [3, x]]"#), "[1][1]")
        XCTAssertEqual(path(#"{"a": 1 "b": 2}"#), "", "an error in the object itself, not in a value")
        XCTAssertEqual(path(#"{"a": {"b": 1 "c": 2}}"#), "a")
    }

    func testNumberGrammar() {
        assertSyntaxError("01", column: 2, contains: "leading zeros")
        assertSyntaxError("-01", column: 3, contains: "leading zeros")
        assertSyntaxError("1.", column: 3, contains: "expected a digit after the decimal point")
        assertSyntaxError(".5", column: 1, contains: "expected a JSON value")
        assertSyntaxError("+1", column: 1, contains: "expected a JSON value")
        assertSyntaxError("1e", column: 3, contains: "expected a digit in the exponent")
        assertSyntaxError("1e+", column: 4, contains: "expected a digit in the exponent")
        assertSyntaxError("0x10", column: 2, contains: "expected end of input")
        assertSyntaxError("1.5.2", column: 4, contains: "expected end of input")
    }

    func testStringErrors() {
        assertSyntaxError("\"a\tb\"", column: 3, contains: "control character")
        assertSyntaxError("\"a\nb\"", column: 3, contains: "control character")
        assertSyntaxError(#""\x""#, column: 2, contains: #"one of \" \\"#)
        assertSyntaxError(#""\u12""#, column: 6, contains: "4 hexadecimal digits")
        assertSyntaxError(#""\u12G4""#, column: 6, contains: "4 hexadecimal digits")
        assertSyntaxError(#""\ud83d""#, column: 2, contains: "lone surrogate")
        assertSyntaxError(#""\ud83d\u0041""#, column: 2, contains: "lone surrogate")
        assertSyntaxError(#""\ude00""#, column: 2, contains: "lone surrogate")
        assertSyntaxError(#""x\ud83d""#, column: 3, contains: "lone surrogate")
    }

    func testInvalidUTF8Bytes() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
        ] {
            XCTAssertThrowsError(try JSON.parse(utf8: bytes)) { error in
                guard let e = error as? JSONSyntaxError else { return XCTFail() }
                XCTAssertEqual(e.column, 2)
                XCTAssertTrue(e.message.contains("UTF-8"), e.message)
            }
        }
        XCTAssertThrowsError(try JSON.parse(utf8: [0xFF]))
        XCTAssertEqual(try JSON.parse(utf8: [0x22, 0xC3, 0xA9, 0x22]), .string("é"))
    }

    func testColumnCountsScalarsNotBytes() {
        assertSyntaxError("[\"éé\", x]", column: 8, contains: "found 'x'")
    }

    func testNestingLimit() throws {
        let ok = String(repeating: "[", count: JSON.maxDepth) + String(repeating: "]", count: JSON.maxDepth)
        XCTAssertNoThrow(try JSON.parse(ok))
        let deep = String(repeating: "[", count: JSON.maxDepth + 1) + String(repeating: "]", count: JSON.maxDepth + 1)
        assertSyntaxError(deep, column: JSON.maxDepth + 1, contains: "nesting deeper than 64")
        let huge = String(repeating: "{\"a\":", count: 100_000)
        XCTAssertThrowsError(try JSON.parse(huge))
        let hugeArray = String(repeating: "[", count: 1_000_000)
        XCTAssertThrowsError(try JSON.parse(hugeArray))
    }
}

final class ExactDecimalTests: XCTestCase {
    func testRoundingHalfAwayFromZero() {
        func us(_ s: String) -> Int64? { ExactDecimal(s)?.rounded(shiftingBy: 6) }
        XCTAssertEqual(us("0.0000005"), 1)
        XCTAssertEqual(us("0.0000004999999"), 0)
        XCTAssertEqual(us("0.0000015"), 2)
        XCTAssertEqual(us("1e-3"), 1000)
        XCTAssertEqual(us("2.5e-1"), 250_000)
        XCTAssertEqual(us("0.208333"), 208_333)
        XCTAssertEqual(us("0.2083335"), 208_334)
        XCTAssertEqual(us("1E+2"), 100_000_000)
        XCTAssertEqual(us("0"), 0)
        XCTAssertEqual(us("-0"), 0)
        XCTAssertEqual(us("0e99999999999999999999"), 0)
        XCTAssertEqual(us("5e-99999999999999999999"), 0)
        XCTAssertEqual(us("-0.0000005"), -1)
        XCTAssertEqual(us("1.000000500"), 1_000_001)
        XCTAssertEqual(us("0.00000050000000000000000000000000001"), 1)
        XCTAssertEqual(us("9223372036854.775807"), Int64.max)
        XCTAssertNil(us("9223372036854.775808"))
        XCTAssertNil(us("1e99999999999999999999"))
        XCTAssertNil(us("1e19"))
    }

    func testGrammarAndIntegers() {
        for bad in ["", "-", "+1", ".5", "1.", "01", "1e", "NaN", "inf", "1 ", " 1", "0x1", "1e+-2"] {
            XCTAssertNil(ExactDecimal(bad), bad)
        }
        XCTAssertEqual(ExactDecimal("120")?.integerValue, 120)
        XCTAssertEqual(ExactDecimal("1.2e2")?.integerValue, 120)
        XCTAssertEqual(ExactDecimal("120.000")?.integerValue, 120)
        XCTAssertNil(ExactDecimal("120.5")?.integerValue)
        XCTAssertNil(ExactDecimal("1e30")?.integerValue)
        XCTAssertEqual(ExactDecimal("-7")?.integerValue, -7)
        XCTAssertEqual(ExactDecimal("00.5".dropFirst())?.digits, [5])
    }
}

final class SHA256Tests: XCTestCase {
    func testStandardVectors() {
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex(
                Array(
                    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
                        .utf8)),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        XCTAssertEqual(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testPaddingBoundaries() {
        // 55, 56 and 64 bytes straddle the one-block / two-block padding boundary.
        XCTAssertEqual(SHA256.digest([UInt8](repeating: 0x61, count: 55)).count, 32)
        XCTAssertNotEqual(
            SHA256.hex([UInt8](repeating: 0x61, count: 55)), SHA256.hex([UInt8](repeating: 0x61, count: 56)))
        XCTAssertEqual(
            SHA256.hex([UInt8](repeating: 0x61, count: 64)),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }
}
