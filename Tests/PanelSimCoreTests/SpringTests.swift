import XCTest
@testable import PanelSimCore

final class SpringTests: XCTestCase {
    private func spring(_ x0: Double, _ v0: Double, _ xt: Double, scale: Double, rate: Int) -> NumericSpring {
        NumericSpring(
            value: x0, velocity: v0, target: xt, decelerationRate: 0.991, responseTime: 0.4, frameRate: rate,
            displayScale: scale)
    }

    private func run(_ s: inout NumericSpring) -> (values: [Double], stopFrame: Int) {
        var values: [Double] = []
        for frame in 1...1000 {
            let done = s.advance()
            values.append(s.value)
            if done { return (values, frame) }
        }
        return (values, -1)
    }

    func testDampingRatioDefaults() {
        let fast = spring(0, -1000, 1, scale: 3, rate: 60)
        XCTAssertEqual(fast.dampingRatio, 0.57555168024845693, accuracy: 1e-15)
        XCTAssertEqual(fast.angularFrequency, 15.707963267948966)
        XCTAssertEqual(spring(0, 300, 1, scale: 3, rate: 60).dampingRatio, 1)  // strict > 300
    }

    /// layout-behavior.md §5.4 reference traces.
    func testReferenceTraces() {
        var s = spring(333.66666666666669, -1000, 18, scale: 3, rate: 60)
        var r = run(&s)
        XCTAssertEqual(
            Array(r.values.prefix(3)), [305.70681506954105, 271.92320116728666, 235.79131269488906].map { $0 },
            accuracy: 1e-9)
        XCTAssertEqual(r.stopFrame, 31)
        XCTAssertEqual(s.value, 17.680739703575327, accuracy: 1e-9)
        XCTAssertEqual(s.velocity, 17.37257501315241, accuracy: 1e-7)

        s = spring(333.66666666666669, 0, 18, scale: 3, rate: 60)
        r = run(&s)
        XCTAssertEqual(
            Array(r.values.prefix(3)), [320.07773380764826, 298.90617739516563, 274.08849888524094], accuracy: 1e-9)
        XCTAssertEqual(r.stopFrame, 48)
        XCTAssertEqual(s.value, 18.287558281677118, accuracy: 1e-9)

        s = spring(333.5, -1000, 18, scale: 2, rate: 120)
        r = run(&s)
        XCTAssertEqual(
            Array(r.values.prefix(3)), [321.73499044277139, 307.35187171025007, 290.97079393628968], accuracy: 1e-9)
        XCTAssertEqual(r.stopFrame, 55)
        XCTAssertEqual(s.value, 17.740595688021276, accuracy: 1e-9)

        s = spring(100, 200, 18, scale: 2, rate: 60)
        r = run(&s)
        XCTAssertEqual(
            Array(r.values.prefix(3)), [98.563655600366175, 94.232209865670399, 88.347130068508278], accuracy: 1e-9)
        XCTAssertEqual(r.stopFrame, 37)
        XCTAssertEqual(s.value, 18.459763624136595, accuracy: 1e-9)
    }

    /// floatingpanel-core.md §4.4 table: 18 → 598 at +2000 pt/s overshoots to 616.19 and settles in 33 frames.
    func testOvershootTable() {
        var s = spring(18, 2000, 598, scale: 3, rate: 60)
        let r = run(&s)
        XCTAssertEqual(r.stopFrame, 33)
        XCTAssertEqual(r.values.max()!, 616.19, accuracy: 0.005)
        XCTAssertEqual(Array(r.values.prefix(3)), [71.351, 134.698, 201.806], accuracy: 0.0005)
    }

    func testTransitionSpringDuration() {
        let t = TransitionSpring(from: 944, to: 422, relativeVelocity: 0)
        XCTAssertEqual(t.zeta, 0.79978031540922934, accuracy: 1e-14)
        XCTAssertEqual(t.duration, 0.369, accuracy: 0.0005)  // O13: 0.369 s at v = 0
        XCTAssertEqual(t.location(at: 0), 944, accuracy: 1e-9)
        XCTAssertEqual(t.location(at: 5), 422, accuracy: 1e-6)
    }

    func testDeterministicMath() {
        XCTAssertEqual(DeterministicMath.log(0.991), -0.00904074465214907, accuracy: 2e-18)
        XCTAssertEqual(DeterministicMath.log(10), 2.302585092994046, accuracy: 4e-16)
        XCTAssertEqual(DeterministicMath.log(1e-300), -690.7755278982137, accuracy: 1e-12)
        XCTAssertEqual(DeterministicMath.exp(1), 2.718281828459045, accuracy: 1e-15)
        XCTAssertEqual(DeterministicMath.exp(-20), 2.061153622438558e-09, accuracy: 1e-23)
        XCTAssertEqual(DeterministicMath.sin(1), 0.8414709848078965, accuracy: 2e-16)
        XCTAssertEqual(DeterministicMath.cos(1), 0.5403023058681398, accuracy: 2e-16)
        XCTAssertEqual(DeterministicMath.sin(25), -0.13235175009777303, accuracy: 1e-15)
        XCTAssertEqual(DeterministicMath.cos(-3), -0.9899924966004454, accuracy: 1e-15)
    }
}

func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line)
{
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, file: file, line: line) }
}
