import XCTest
@testable import PanelSimCore

/// `FrameLookahead` returns, at every frame asked for, the value of that frame, whatever the order
/// of the frames asked (consecutive, the same frame twice, gaps, going back), and evaluates two
/// frames at a time, one frame early, along consecutive frames.
final class FrameLookaheadTests: XCTestCase {
    private let timebase = ReplayTimebase(frameRate: 120)

    /// The curve: a frame's value is its index (so a wrong frame's value shows).
    private func ask(_ lookahead: inout FrameLookahead<Int>, _ k: Int, evaluations: inout [Int]) -> Int {
        lookahead.value(atFrame: timebase.frame(k)) { a, b in
            XCTAssertEqual(b.ticks - a.ticks, ReplayTimebase.ticksPerFrame, "the pair is two consecutive frames")
            evaluations.append(Int(a.ticks / ReplayTimebase.ticksPerFrame))
            return (Int(a.ticks / ReplayTimebase.ticksPerFrame), Int(b.ticks / ReplayTimebase.ticksPerFrame))
        }
    }

    func testConsecutiveFramesEvaluateTwoFramesEveryOtherFrameOneFrameEarly() {
        var lookahead = FrameLookahead<Int>()
        var evaluations: [Int] = []
        for k in 10..<20 { XCTAssertEqual(ask(&lookahead, k, evaluations: &evaluations), k) }
        // Frame 10 evaluates 10 and 11; frame 11 starts 12 and 13; frame 13 starts 14 and 15; …
        XCTAssertEqual(evaluations, [10, 12, 14, 16, 18, 20])
    }

    func testAnyOrderOfFramesGivesEachFramesValue() {
        var lookahead = FrameLookahead<Int>()
        var evaluations: [Int] = []
        for k in [0, 0, 1, 1, 2, 5, 6, 6, 7, 3, 4, 100, 101, 102, 50, 51] {
            XCTAssertEqual(ask(&lookahead, k, evaluations: &evaluations), k, "frame \(k)")
        }
        // 0: empty, evaluates (0, 1); 0: held; 1: held, starts (2, 3); 1 again: (2, 3) does not
        // hold it, evaluates (1, 2); 2: held, starts (3, 4); 5: evaluates (5, 6); 6: starts (7, 8);
        // 6 again: evaluates (6, 7); 7: starts (8, 9); 3: evaluates (3, 4); 4: starts (5, 6);
        // 100: evaluates; 101: starts (102, 103); 102: held; 50: evaluates; 51: starts (52, 53).
        XCTAssertEqual(evaluations, [0, 2, 1, 3, 5, 7, 6, 8, 3, 5, 100, 102, 50, 52])
    }

    func testAResetLookaheadEvaluatesAgain() {
        var lookahead = FrameLookahead<Int>()
        var evaluations: [Int] = []
        _ = ask(&lookahead, 4, evaluations: &evaluations)
        lookahead = FrameLookahead()
        XCTAssertEqual(ask(&lookahead, 5, evaluations: &evaluations), 5)
        XCTAssertEqual(evaluations, [4, 5])
    }
}
