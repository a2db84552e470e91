import XCTest
@testable import PanelSimCore

/// `PixelRounding` must give the same bits as the standard library's `rounded`, sign of zero
/// included, since goldens are compared byte for byte.
final class PixelRoundingTests: XCTestCase {
    private func assertSameBits(_ x: Double, file: StaticString = #filePath, line: UInt = #line) {
        let t = PixelRounding.towardZero(x), r = PixelRounding.halfAwayFromZero(x)
        let et = x.rounded(.towardZero), er = x.rounded(.toNearestOrAwayFromZero)
        if x.isNaN {
            XCTAssertTrue(t.isNaN && r.isNaN, "NaN in, NaN out", file: file, line: line)
            return
        }
        XCTAssertEqual(t.bitPattern, et.bitPattern, "towardZero(\(x)) = \(t), expected \(et)", file: file, line: line)
        XCTAssertEqual(r.bitPattern, er.bitPattern, "halfAwayFromZero(\(x)) = \(r), expected \(er)", file: file, line: line)
    }

    func testEdgeCases() {
        let edges: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
            0.5000000000000001, 1, -1, 0.3, -0.3, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .leastNormalMagnitude, 0x1p52, -0x1p52, 0x1p52 - 0.5, -(0x1p52 - 0.5), 0x1p52 + 1,
            0x1p51 + 0.5, -(0x1p51 + 0.5), 0x1p53, 0x1p63, -0x1p63, 0x1p64, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
            333.5 * 3, 1000.4999999999999, -1000.5000000000001, 4503599627370495.5,
        ]
        for x in edges { assertSameBits(x) }
    }

    func testRandomDoublesAcrossMagnitudes() {
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state }
        for _ in 0..<200_000 {
            // Random bit patterns cover every exponent; scaled uniform values cover the pixel range.
            assertSameBits(Double(bitPattern: next()))
            let u = Double(next() >> 11) / Double(1 << 53)
            assertSameBits((u - 0.5) * 8_000)
            assertSameBits(((u - 0.5) * 8_000).rounded() + 0.5)   // exact halfway cases
            assertSameBits((u - 0.5) * 8_000 * 1e9)
        }
    }

    func testHalfwayNeighbours() {
        for k in stride(from: -3000.0, through: 3000.0, by: 1) {
            let h = k + 0.5
            for x in [h, h.nextUp, h.nextDown, k, k.nextUp, k.nextDown] { assertSameBits(x) }
        }
    }
}
