import XCTest
@testable import PanelSimCore

/// The frame loop's incremental clock must give `frameTime(k, frameRate)` at every frame.
final class FrameClockTests: XCTestCase {
    func testAdvanceMatchesFrameTime() {
        // 128 and 256 Hz have frames whose time is exactly halfway (n divisible by d): the carry boundary.
        for rate in [1, 7, 24, 30, 59, 60, 90, 120, 128, 144, 240, 256, 512, 999, 1000, 3000, 10_000] {
            var clock = FrameClock(frameRate: rate)
            for k in 0..<50_000 {
                XCTAssertEqual(clock.index, k)
                if clock.time != frameTime(k, frameRate: rate) {
                    XCTFail("rate \(rate), frame \(k): \(clock.time) != \(frameTime(k, frameRate: rate))")
                    break
                }
                clock.advance()
            }
        }
    }

    func testSetThenAdvance() {
        for rate in [60, 120, 7] {
            var clock = FrameClock(frameRate: rate)
            for start in [0, 1, 119, 120, 1_000_001, 12_000_000_000] {
                clock.set(start)
                for k in start..<(start + 500) {
                    XCTAssertEqual(clock.time, frameTime(k, frameRate: rate), "rate \(rate), frame \(k)")
                    clock.advance()
                }
            }
        }
    }
}
