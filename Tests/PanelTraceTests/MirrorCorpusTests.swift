import XCTest
import Foundation
import PanelSimCore
import PanelTrace
import PanelInvariants

/// Invariant G6 (scenarios.md) over the whole corpus: every bottom-panel trace, mirrored onto top,
/// left and right panels (axis and coordinates flipped; safe-area sides, anchor edges, velocities,
/// rubber-band edges and clamp offsets mapped; a tracked list's frame, size, insets and offsets
/// mapped so that its pinned edge moves to the end of the content on top/left panels), gives the same
/// target states, removal decisions, event order and resting state, and the mirrored resting
/// location. A failure names the trace and position; the few mirrors FloatingPanel itself breaks are
/// listed in `knownQuirks` with the rule that breaks them. The mirror itself is `Mirror`
/// (PanelInvariants), shared with the random-gesture soak.
final class MirrorCorpusTests: XCTestCase {
    /// Mirrors that FloatingPanel itself breaks, each with the rule that breaks it. The test asserts
    /// that these still differ, so the list shrinks the day the model stops reproducing the quirk.
    static let knownQuirks: [String: String] = [
        "s2-half-scrollable.jsonl right":
            "§3.10: for a right panel adjustScrollContentInsetIfNeeded writes the offset into "
            + "contentInset.left instead of .right, which moves the pinning offset (−inset.left), so at half the list keeps "
            + "the touch (od > 0) and the panel never moves"
    ]

    func testEveryBottomTraceMirrorsOntoTopLeftAndRight() throws {
        var mirrored = 0
        for url in CorpusExpectationTests.traceFiles() {
            let trace = try TraceLoader.load(path: url.path).trace
            guard trace.header.panel.position == .bottom else { continue }
            // A system inset (FloatingPanel #602) is not mirrored: Mirror carries contentInset only, and
            // a top/left panel pins at its content end, not at −adjustedContentInset (§3.6.2).
            if let sv = trace.header.scrollView, sv.systemInset != .zero { continue }
            let name = url.lastPathComponent
            let reference = simulate(trace)
            let referenceSignature = InvariantChecker.signature(reference)
            var finalHeight = trace.header.environment.container.height
            for case .environment(let e) in trace.samples.map(\.kind) { finalHeight = e.container.height }
            let referenceFrame = try XCTUnwrap(
                reference.records.last { if case .frame = $0 { return true } else { return false } })
            guard case .frame(let rest) = referenceFrame else { continue }
            for position in [PanelPosition.top, .left, .right] {
                let mirror = Mirror(position: position, h: trace.header.environment.container.height)
                let result = simulate(mirror.trace(trace))
                if Self.knownQuirks["\(name) \(position)"] != nil {
                    XCTAssertNotEqual(
                        InvariantChecker.signature(result), referenceSignature,
                        "\(name) on \(position) mirrors now: remove it from knownQuirks")
                    mirrored += 1
                    continue
                }
                let safeArea = mirror.environment(trace.header.environment).safeArea
                if position == .left && safeArea.left != safeArea.right {
                    // FloatingPanel's left-panel attraction uses the opposite safe-area side (layout-behavior
                    // §8 item 2): the surface jumps by left − right while attracting, so an interrupted
                    // attraction can take a different number of frames. Targets and decisions still mirror.
                    XCTAssertEqual(
                        InvariantChecker.signature(result).filter { $0 != "didMove" },
                        referenceSignature.filter { $0 != "didMove" },
                        "\(name) on \(position): event order differs")
                } else {
                    XCTAssertEqual(
                        InvariantChecker.signature(result), referenceSignature,
                        "\(name) on \(position): event order differs")
                }
                guard
                    case .frame(let f)? = result.records.last(where: {
                        if case .frame = $0 { return true } else { return false }
                    })
                else {
                    XCTFail("\(name) on \(position): no frame")
                    continue
                }
                XCTAssertEqual(f.state, rest.state, "\(name) on \(position)")
                let final = Mirror(position: position, h: finalHeight)
                XCTAssertEqual(
                    f.location, final.location(rest.location), accuracy: 1e-9,
                    "\(name) on \(position): resting location")
                mirrored += 1
            }
        }
        XCTAssertGreaterThan(mirrored, 3 * 190, "every bottom trace, three ways")
    }
}
