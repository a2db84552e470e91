import XCTest
import Foundation
import PanelSimCore
import PanelTrace

/// A touch that goes down in the grabber band over a tracked list belongs to the panel
/// (floatingpanel-core.md §3.8 item 2: the list's pan must wait for the panel's pan to fail). In both
/// handler orders (O3) the list's content offset never changes while the finger is down, and the
/// surface follows the finger.
final class GrabberBandTests: XCTestCase {
    func testListUnderTheGrabberBandNeverScrollsInEitherHandlerOrder() throws {
        let root = CorpusExpectationTests.repositoryRoot.appendingPathComponent("traces/scroll")
        for name in ["grabber-band-list-full", "grabber-band-list-half"] {
            let trace = try TraceLoader.load(path: root.appendingPathComponent(name + ".jsonl").path).trace
            let initial = try XCTUnwrap(trace.header.scrollView?.contentOffset.y)
            for panelFirst in [false, true] {
                var options = SimulationOptions()
                options.panelHandlerFirst = panelFirst
                let result = simulate(trace, options: options)
                var dragged = 0
                for case .frame(let f) in result.records where f.isDragging {
                    XCTAssertEqual(f.contentOffset, initial, "\(name) panelHandlerFirst=\(panelFirst) frame \(f.index)")
                    dragged += 1
                }
                XCTAssertGreaterThan(dragged, 5, "\(name): the panel must be dragged")
                let moved = result.records.compactMap { r -> Double? in
                    if case .frame(let f) = r, f.isDragging { return f.location } else { return nil }
                }
                // One 5 pt finger step per frame: the surface moves exactly as much (and the list not at all).
                for (a, b) in zip(moved, moved.dropFirst()) {
                    XCTAssertEqual(a - b, 5, accuracy: 1e-9, "\(name): the surface follows the finger")
                }
            }
        }
    }
}
