import XCTest
import Foundation
import PanelSimCore
import PanelTrace

/// Replays of FloatingPanel's own unit tests (scenee/FloatingPanel 7efcc76, `Tests/`), one trace per
/// upstream situation under `Tests/Fixtures/upstream/`, checked against the value the upstream test
/// asserts. Only situations a trace can state are here; the review report lists the others and
/// why. Upstream tests run with a 375 × 667 controller view outside a window (no safe area), so the
/// traces use that container and no safe area unless the upstream test gives the list a safe area
/// of its own (PanelSim derives the list's safe area from the container's, O11).
final class UpstreamAssertionTests: XCTestCase {
    private static let fixtures = CorpusExpectationTests.repositoryRoot.appendingPathComponent(
        "Tests/Fixtures/upstream")

    private struct Replay {
        let result: SimulationResult
        let frameRate: Double
        var frames: [FrameRecord] {
            var out: [FrameRecord] = []
            for case .frame(let f) in result.records { out.append(f) }
            return out
        }
        /// The panel as it is at time `t` (s): the last frame recorded at or before it.
        func frame(at t: Double, file: StaticString = #filePath, line: UInt = #line) throws -> FrameRecord {
            let k = Int((t * frameRate).rounded(.down))
            return try XCTUnwrap(frames.last { $0.index <= k }, "no frame by t = \(t)", file: file, line: line)
        }
    }

    private func replay(_ name: String) throws -> Replay {
        let trace = try TraceLoader.load(path: Self.fixtures.appendingPathComponent(name + ".jsonl").path).trace
        var options = SimulationOptions()
        options.recordContentInset = true
        return Replay(result: simulate(trace, options: options), frameRate: Double(trace.header.environment.frameRate))
    }

    private func assertInset(
        _ actual: Insets?, top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let a = try XCTUnwrap(actual, "no contentInset channel", file: file, line: line)
        XCTAssertEqual(a.top, top, accuracy: 1e-9, "top", file: file, line: line)
        XCTAssertEqual(a.left, left, accuracy: 1e-9, "left", file: file, line: line)
        XCTAssertEqual(a.bottom, bottom, accuracy: 1e-9, "bottom", file: file, line: line)
        XCTAssertEqual(a.right, right, accuracy: 1e-9, "right", file: file, line: line)
    }

    // MARK: - CoreTests.test_adjustScrollContentInsetIfNeeded

    /// CoreTests.test_adjustScrollContentInsetIfNeeded, bottom block (asserts at upstream lines 890 and 896): a list
    /// whose safe area is 34 pt at the bottom, every state but tip scrollable, static content: at half
    /// the inset is (0, 0, 34 + half − full, 0); after switching to fitToBounds it is the list's
    /// safe area.
    func testAdjustInsetBottomLayout() throws {
        let r = try replay("adjust-inset-bottom")
        let full = 18.0
        let half = 316.6666666666667  // half: (667 − 34) / 2 on the 1/3 pt grid
        let atHalf = try r.frame(at: 0.1)
        XCTAssertEqual(atHalf.state, "half")
        XCTAssertEqual(atHalf.location, half, accuracy: 1e-9)
        try assertInset(atHalf.contentInset, bottom: 34 + (half - full))
        try assertInset(r.frame(at: 0.2).contentInset, bottom: 34)
    }

    /// CoreTests.test_adjustScrollContentInsetIfNeeded, top block (asserts at upstream lines 917 and 922): the
    /// top-positioned test layout (full 88 from the bottom, half 216 from the top), list safe area 91
    /// at the top: at half the inset is (91 + full − half, 0, 0, 0); fitToBounds gives (91, 0, 0, 0).
    func testAdjustInsetTopPositionedLayout() throws {
        let r = try replay("adjust-inset-top")
        XCTAssertEqual(try r.frame(at: 0).location, 579, accuracy: 1e-9)  // full: 667 − 88
        let atHalf = try r.frame(at: 0.1)
        XCTAssertEqual(atHalf.state, "half")
        XCTAssertEqual(atHalf.location, 307, accuracy: 1e-9)  // 91 + 216
        try assertInset(atHalf.contentInset, top: 91 + (579 - 307))
        try assertInset(r.frame(at: 0.2).contentInset, top: 91)
    }

    /// CoreTests.test_adjustScrollContentInsetIfNeeded_normal (asserts at upstream lines 949 and 956): without a
    /// delegate only full is scrollable, so nothing is adjusted: the inset stays zero at half and at
    /// full. (Upstream gives the list a safe area of its own while the controller has none; a trace
    /// cannot separate the two, so this replay has no safe area at all.)
    func testAdjustInsetNotScrollableLeavesInsetAlone() throws {
        let r = try replay("adjust-inset-normal")
        let half = try r.frame(at: 0.1)
        let full = try r.frame(at: 0.2)
        XCTAssertEqual(half.state, "half")
        XCTAssertEqual(full.state, "full")
        try assertInset(half.contentInset)
        try assertInset(full.contentInset)
    }

    // MARK: - CoreTests.test_initial_scroll_offset_reset (a zero-frame UIScrollView)

    /// CoreTests.test_initial_scroll_offset_reset (asserts at upstream lines 1000 and 1006): at full a pan begins and
    /// is cancelled; a second later the app sets the offset to 100 and moves to half with animation;
    /// the offset is still 100 a second later (the pan's saved offset was cleared).
    func testInitialScrollOffsetIsResetAfterACancelledPan() throws {
        let r = try replay("initial-scroll-offset-reset")
        XCTAssertEqual(try r.frame(at: 1.2).contentOffset, 100)  // upstream line 1000
        let end = try r.frame(at: 2.25)
        XCTAssertEqual(end.state, "half")
        XCTAssertFalse(end.isAttracting)
        XCTAssertEqual(end.contentOffset, 100)  // upstream line 1006
        for f in r.frames where f.index >= 144 { XCTAssertEqual(f.contentOffset, 100, "frame \(f.index)") }
    }

    // MARK: - CoreTests.test_scrollLock and test_is_scrollable

    /// CoreTests.test_scrollLock (asserts at upstream lines 24-61): the table is locked (bounces and the
    /// indicator off) at half and tip, unlocked at full (after a non-animated move, and in the
    /// animated move's completion); a newly tracked table is locked after `show` puts the panel at half.
    func testScrollLock() throws {
        let r = try replay("scroll-lock")
        let expected: [(Double, String, Bool)] = [
            (0, "half", true), (0.1, "full", false), (0.2, "tip", true),
            (1.4, "full", false), (1.5, "tip", true), (1.6, "half", true),
        ]
        for (t, state, locked) in expected {
            let f = try r.frame(at: t)
            XCTAssertEqual(f.state, state, "t = \(t)")
            XCTAssertFalse(f.isAttracting, "t = \(t)")
            XCTAssertEqual(f.scrollLocked, locked, "t = \(t)")
        }
    }

    /// CoreTests.test_is_scrollable (upstream lines 828-859), with a `UIScrollView()` (zero frame),
    /// seen through the lock state at rest: without a delegate full scrolls and half does not; a
    /// delegate answering false locks both; one answering true unlocks both.
    func testIsScrollableAsLockState() throws {
        for (name, atHalf, atFull) in [
            ("is-scrollable-default", true, false), ("is-scrollable-never", true, true),
            ("is-scrollable-always", false, false),
        ] {
            let r = try replay(name)
            XCTAssertEqual(try r.frame(at: 0).scrollLocked, atHalf, "\(name) at half")
            let full = try r.frame(at: 0.1)
            XCTAssertEqual(full.state, "full", name)
            XCTAssertEqual(full.scrollLocked, atFull, "\(name) at full")
        }
    }

    // MARK: - SurfaceViewTests grabber band, all four positions

    /// A drag from the panel at full over a list scrolled into its middle: when the touch counts as in
    /// the grabber band the list's pan waits for the panel (§3.8), so the list keeps its offset and the
    /// panel moves; outside it the list scrolls.
    private func assertGrabber(
        _ name: String, contains: Bool, requirePanelMovesOrStays: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let r = try replay(name)
        let frames = r.frames
        let start = try XCTUnwrap(frames.first, file: file, line: line)
        let end = try XCTUnwrap(frames.last, file: file, line: line)
        let offsets = Set(frames.compactMap(\.contentOffset))
        if contains {
            XCTAssertEqual(offsets, [start.contentOffset!], "\(name): the list must not scroll", file: file, line: line)
            if requirePanelMovesOrStays {
                XCTAssertTrue(end.isDragging, name, file: file, line: line)
                XCTAssertNotEqual(end.location, start.location, "\(name): the panel must move", file: file, line: line)
            }
        } else {
            XCTAssertGreaterThan(offsets.count, 1, "\(name): the list must scroll", file: file, line: line)
            if requirePanelMovesOrStays {
                XCTAssertEqual(end.location, start.location, "\(name): the panel must stay", file: file, line: line)
            }
        }
    }

    /// SurfaceViewTests.test_surfaceView_grabberArea (upstream lines 232-272): with
    /// grabberAreaOffset 44 on a 375 × 500 surface the band is (0, 0, 375, 44) for bottom,
    /// (0, 456, 375, 44) for top, (331, 0, 44, 500) for left and (0, 0, 44, 500) for right. The
    /// touch goes down one pixel inside the band's inner boundary, or on the first point outside it.
    func testGrabberAreaFrameByPosition() throws {
        for position in ["bottom", "top", "left", "right"] {
            try assertGrabber("grabber-area-\(position)-in", contains: true)
            try assertGrabber("grabber-area-\(position)-out", contains: false)
        }
    }

    /// SurfaceViewTests.test_surfaceView_grabberAreaDetection (upstream lines 274-313): default 36 pt
    /// band on a 375 × 500 surface; each asserted point is where the finger is when the pans are
    /// recognized (the finger went down inside the band), including the points past the moving
    /// edge that the clamp still counts as in the band, and the points beside the surface that are
    /// not in it. When a point is outside, both pans run (the panel moves as well, since the touch
    /// began in the band), so only the list's offset tells.
    func testGrabberAreaDetectionByPosition() throws {
        let cases: [(String, Bool)] = [("a", true), ("b", true), ("c", true), ("d", false), ("e", false)]
        for position in ["bottom", "top", "left", "right"] {
            for (tag, contains) in cases {
                try assertGrabber(
                    "grabber-detect-\(position)-\(tag)", contains: contains, requirePanelMovesOrStays: contains)
            }
        }
    }
}
