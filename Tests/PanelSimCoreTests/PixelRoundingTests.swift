import XCTest
@testable import PanelSimCore

/// `PixelRounding` must give the same bits as the standard library's `rounded`, sign of zero
/// included, since goldens are compared byte for byte.
final class PixelRoundingTests: XCTestCase {
    private func assertSameBits(_ x: Double, file: StaticString = #filePath, line: UInt = #line) {
        let t = PixelRounding.towardZero(x)
        let r = PixelRounding.halfAwayFromZero(x)
        let et = x.rounded(.towardZero)
        let er = x.rounded(.toNearestOrAwayFromZero)
        if x.isNaN {
            XCTAssertTrue(t.isNaN && r.isNaN, "NaN in, NaN out", file: file, line: line)
            return
        }
        XCTAssertEqual(t.bitPattern, et.bitPattern, "towardZero(\(x)) = \(t), expected \(et)", file: file, line: line)
        XCTAssertEqual(
            r.bitPattern, er.bitPattern, "halfAwayFromZero(\(x)) = \(r), expected \(er)", file: file, line: line)
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
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        for _ in 0..<200_000 {
            // Random bit patterns cover every exponent; scaled uniform values cover the pixel range.
            assertSameBits(Double(bitPattern: next()))
            let u = Double(next() >> 11) / Double(1 << 53)
            assertSameBits((u - 0.5) * 8_000)
            assertSameBits(((u - 0.5) * 8_000).rounded() + 0.5)  // exact halfway cases
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

/// `roundedByDisplayScale`'s shortcut (`PixelRounding.nearestPixelCount`) must give the bits of
/// FloatingPanel's two-step formula, written here with the standard library's `rounded`.
final class DisplayScaleRoundingTests: XCTestCase {
    private func reference(_ v: Double, _ s: Double) -> Double {
        let truncated = (v * 1e9).rounded(.towardZero) / 1e9
        return (truncated * s).rounded(.toNearestOrAwayFromZero) / s
    }

    private func check(_ v: Double, _ s: Double, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let got = roundedByDisplayScale(v, scale: s)
        let want = reference(v, s)
        if got.bitPattern == want.bitPattern || (got.isNaN && want.isNaN) { return true }
        XCTFail("roundedByDisplayScale(\(v), scale: \(s)) = \(got), expected \(want)", file: file, line: line)
        return false
    }

    func testAgainstTheExactFormula() {
        var state: UInt64 = 0x2545F4914F6CDD1D
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        let scales: [Double] = [1, 2, 3, 0.5, 0.75, 1.5, 2.5, 4, 7, 63.999, 64, 64.5, 0.4999, 100]
        var failures = 0
        for _ in 0..<150_000 where failures < 5 {
            let s = scales[Int(next() % UInt64(scales.count))]
            let k = (unit() - 0.5) * 6000  // pixel counts around the screen
            let candidates = [
                (unit() - 0.5) * 2000,  // any location
                (k.rounded() + 0.5) / s,  // halfway between two pixels
                ((k.rounded() + 0.5) / s).nextUp, ((k.rounded() + 0.5) / s).nextDown,
                (k.rounded() + 0.5 + (unit() - 0.5) * 4e-6) / s,  // within the shortcut's margin
                (k.rounded() + 0.5 + (unit() - 0.5) * 4e-8) / s,  // within the truncation's reach
                k.rounded() / s,  // on a pixel
                (k.rounded() + (unit() - 0.5) * 1e-9) / s,
                (unit() - 0.5) * 1e-8,  // around zero, both signs
                (unit() - 0.5) * 0x1p26,  // near the shortcut's bound
                Double(bitPattern: next()),  // anything, NaN and ±∞ included
            ]
            for v in candidates where !check(v, s) { failures += 1 }
        }
        for v in [0.0, -0.0, 1e-10, -1e-10, 333.5, 333.222, -0.5, 0.16666666666674246, -0.16666666666674246] {
            for s in scales { _ = check(v, s) }
        }
    }
}

/// `mirroredRoundedByDisplayScale` (only for `SimulationOptions.mirrorImageArithmetic`) is the
/// mirror image of FloatingPanel's rounding: f(H − u) = H − roundedByDisplayScale(u) for u ≥ 0
/// and a container H of whole pixels, ties and the 1e-9 truncation included.
final class MirroredDisplayScaleRoundingTests: XCTestCase {
    func testMirrorImageOfTheRoundingOnTiesAndNearTies() {
        for s in [1.0, 2, 3] {
            let h = 932.0
            for k in stride(from: 0.0, through: 2700, by: 1) {
                let tie = (k + 0.5) / s
                for u in [tie, tie + 4e-10, tie - 4e-10, tie + 2e-9, tie - 2e-9, k / s, (k + 0.3) / s]
                where u >= 0 && u <= h {
                    // Mirrored exactly (dyadic u) or to within an ulp: compare pixel counts.
                    let image = h - mirroredRoundedByDisplayScale(h - u, scale: s)
                    let bottom = roundedByDisplayScale(u, scale: s)
                    XCTAssertEqual((image * s).rounded(), (bottom * s).rounded(), "u = \(u), scale \(s)")
                }
            }
        }
        // The ties of the tests' traces: 487.5 on a 1x display rounds up on a bottom panel (488);
        // FloatingPanel rounds its mirror 444.5 up too (445, the image of 487), its mirror image down.
        XCTAssertEqual(roundedByDisplayScale(487.5, scale: 1), 488)
        XCTAssertEqual(roundedByDisplayScale(444.5, scale: 1), 445)
        XCTAssertEqual(mirroredRoundedByDisplayScale(444.5, scale: 1), 444)
        // At scale 3 a sixth of a point is half a pixel; the truncation at 1e-9 decides it.
        XCTAssertEqual(roundedByDisplayScale(797.1666666666666, scale: 3), 797)
        XCTAssertEqual((roundedByDisplayScale(134.83333333333334, scale: 3) * 3).rounded(), 404)
        XCTAssertEqual(mirroredRoundedByDisplayScale(134.83333333333334, scale: 3), 135)
        // Pixel values come back unchanged, bit for bit.
        for k in stride(from: -300.0, through: 3000, by: 1) {
            for s in [1.0, 2, 3] {
                XCTAssertEqual(
                    mirroredRoundedByDisplayScale(k / s, scale: s).bitPattern,
                    roundedByDisplayScale(k / s, scale: s).bitPattern, "\(k)/\(s)")
            }
        }
    }
}
