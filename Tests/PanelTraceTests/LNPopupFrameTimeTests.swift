import XCTest
import Foundation
@testable import PanelSimCore
import PanelTrace

/// lnpopup.md L1 and L4: an animator is evaluated at each frame's exact time k / frameRate, not at
/// the microsecond-rounded time a record prints. The expected positions are computed here from
/// L4's closed form with Foundation's `exp`, `cos` and `sin`, independently of the model's curves.
final class LNPopupFrameTimeTests: XCTestCase {
    /// A 300 pt drag down of the open content (tab bar, 390 × 844 container), released at `release`
    /// seconds moving down at 600 pt/s: a gesture close (§3.5.5 rule 2) with the 0.87 spring, from
    /// location 300 to the dock at 761 (lnpopup.md §3.4, `PopupGeometry.dock`).
    private func dragReleasedAt(_ release: Double, frameRate: Int) -> String {
        var lines = [
            #"{"format": "panelsim-trace", "version": 1, "model": "lnpopup", "name": "gesture-close", "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": \#(frameRate)}, "popup": {"interactionStyle": "default", "bottomBar": {"kind": "tabBar", "height": 83}, "initialState": "open"}, "recognizer": {"velocity": "recorded", "beginThreshold": 10}}"#,
        ]
        let start = release - 0.125
        func time(_ s: Double) -> String { String(format: "%.6f", s) }
        lines.append(#"{"t": \#(time(start)), "touch": "began", "x": 195, "y": 200}"#)
        for i in 1...15 {
            let t = i == 15 ? release : start + Double(i) * 0.125 / 15
            lines.append(#"{"t": \#(time(t)), "touch": "moved", "x": 195, "y": \#(200 + 20 * i), "velocity": {"x": 0, "y": 600}}"#)
        }
        lines.append(#"{"t": \#(time(release)), "touch": "ended", "x": 195, "y": 500, "velocity": {"x": 0, "y": 600}}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// L4: P(τ) = 1 − x(U_s·τ/D) with ζ = 0.87, β = √(1 − ζ²), x(u) = e^(−ζu)(cos βu + (ζ/β) sin βu),
    /// U_s = ln(1000/β)/ζ, D = 0.5 s.
    private func progress(_ tau: Double) -> Double {
        let zeta = 0.87, beta = (1 - zeta * zeta).squareRoot()
        let settle = log(1000 / beta) / zeta
        let u = settle * tau / 0.5
        return 1 - exp(-zeta * u) * (cos(beta * u) + zeta / beta * sin(beta * u))
    }

    func testGestureCloseIsEvaluatedAtEachFramesExactTime() throws {
        for (release, rate) in [(1.385, 120), (0.7, 60), (2.015, 90)] {
            let trace = try TraceLoader.parse(text: dragReleasedAt(release, frameRate: rate), file: "gesture-close.jsonl")
            let result = simulate(trace)
            var compared = 0, roundedWouldDiffer = 0
            for case let .systemFrame(frame) in result.records {
                let exact = Double(frame.index) / Double(rate)
                let tau = exact - release
                guard tau > 0, tau < 0.5 else { continue }
                let expected = 300 + 461 * progress(tau)
                XCTAssertEqual(frame.location, expected, accuracy: 1e-9, "frame \(frame.index) at \(rate) Hz")
                let printed = (exact * 1e6).rounded() / 1e6
                if abs(300 + 461 * progress(printed - release) - expected) > 1e-7 { roundedWouldDiffer += 1 }
                compared += 1
            }
            XCTAssertGreaterThanOrEqual(compared, rate / 2 - 1, "the frames of the 0.5 s close at \(rate) Hz")
            if rate != 60 { XCTAssertGreaterThan(roundedWouldDiffer, 0, "frames whose rounded time gives another position at \(rate) Hz") }
        }
    }
}
