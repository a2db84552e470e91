import XCTest
@testable import PanelSimCore

/// The curves evaluated four frames at a time (`AnimatorTiming.remaining(after:)` of lanes,
/// `AdditiveAnimator.presentations`, `DampedSpring.state(at:)` of lanes,
/// `SheetAnimation.states`) give, lane by lane, the bits of the one-frame evaluation they stand
/// for, over whole animations at several frame rates, for every curve kind the systems use.
final class FourFrameCurveTests: XCTestCase {
    private func assertSameBits(
        _ a: Double, _ b: Double, _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line
    ) {
        if a.bitPattern != b.bitPattern && !(a.isNaN && b.isNaN) {
            XCTFail("\(what()): \(a) ≠ \(b)", file: file, line: line)
        }
    }

    private let timings: [AnimatorTiming] = [
        .linear(duration: 0.4), .linear(duration: 0),
        .stretchedSpring(SpringStepResponse.systemSpring, duration: 0.4),
        .stretchedSpring(SpringStepResponse.systemSpring, duration: 0.25),
        .physicalSpring(SpringStepResponse.systemSpring, naturalFrequency: SpringStepResponse.systemSpringNaturalFrequency),
        .stretchedSpring(dampingRatio: 0.8, duration: 0.5), .stretchedSpring(dampingRatio: 1, duration: 0.5),
        .stretchedSpring(dampingRatio: 0.3, duration: 0.7), .stretchedSpring(dampingRatio: 1.7, duration: 0.35),
    ]

    func testRemainingSharesMatchTheScalarCurve() {
        for frameRate in [60, 120, 90, 7] {
            let timebase = ReplayTimebase(frameRate: frameRate)
            for timing in timings {
                // Starts on and between frames; the lanes run past the duration.
                for start in [ReplayInstant(ticks: 0), timebase.sample(12_345), timebase.frame(3)] {
                    for k in 0..<(frameRate + 8) {
                        let lanes = timing.remaining(after: timebase.seconds(from: start, toFramesFrom: k))
                        for j in 0..<4 {
                            let t = timebase.seconds(from: start, to: timebase.frame(k + j))
                            assertSameBits(lanes[j], timing.remaining(after: t), "\(timing) at \(frameRate) Hz, frame \(k + j)")
                        }
                    }
                }
            }
        }
    }

    private struct Two: AdditiveChannels {
        var y: Double, alpha: Double
        func adding(_ delta: Two, scaledBy r: Double) -> Two { Two(y: y + delta.y * r, alpha: alpha + delta.alpha * r) }
    }

    func testPresentationsOfFourFramesMatchThePresentationOfEachFrame() {
        let timebase = ReplayTimebase(frameRate: 120)
        var animator = AdditiveAnimator<Two, Int>(timebase: timebase)
        // Three overlapping animators of different curves and starts.
        animator.add(start: timebase.frame(0), timing: timings[2], delta: Two(y: 250, alpha: -1), completion: 0)
        animator.add(start: timebase.sample(40_000), timing: timings[5], delta: Two(y: -120.5, alpha: 0.5), completion: 1)
        animator.add(start: timebase.frame(9), timing: timings[0], delta: Two(y: 33, alpha: 0), completion: 2)
        let model = Two(y: 412.25, alpha: 0.75)
        var compared = 0
        // Blocks from frames on and off a multiple of four, before and past the animators' ends.
        for first in [0, 9, 13, 22, 55, 57] {
            let lanes = animator.presentations(of: model, fromFrame: first)
            for (j, four) in [lanes.frame0, lanes.frame1, lanes.frame2, lanes.frame3].enumerated() {
                let one = animator.presentation(of: model, at: timebase.frame(first + j))
                assertSameBits(four.y, one.y, "y at frame \(first + j)")
                assertSameBits(four.alpha, one.alpha, "alpha at frame \(first + j)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 24)
        // And the values move: the test compares curves, not constants.
        XCTAssertNotEqual(
            animator.presentations(of: model, fromFrame: 60).frame0.y,
            animator.presentation(of: model, at: timebase.frame(9)).y)
    }

    /// The sheet spring's formulas (`DampedSpring`'s comment) evaluated one time at a time with the
    /// scalar `DeterministicMath` functions, in the type's order of operations.
    private func plainSpringState(d0: Double, v0: Double, response: Double, zeta: Double, _ tau: Double) -> (Double, Double) {
        let w = 2 * Double.pi / response
        if zeta == 1 {
            let e = DeterministicMath.exp(-w * tau)
            let b = v0 + w * d0
            return ((d0 + b * tau) * e, (v0 - w * b * tau) * e)
        }
        if zeta < 1 {
            let wd = w * (1 - zeta * zeta).squareRoot()
            let a = (v0 + zeta * w * d0) / wd
            let e = DeterministicMath.exp(-zeta * w * tau)
            let (s, c) = DeterministicMath.sinAndCos(wd * tau)
            let x = d0 * c + a * s
            return (e * x, e * (-zeta * w * x + wd * (a * c - d0 * s)))
        }
        let s = (zeta * zeta - 1).squareRoot()
        let p = -w * (zeta - s)
        let q = -w * (zeta + s)
        let c1 = (v0 - q * d0) / (p - q)
        let c2 = d0 - c1
        let e1 = DeterministicMath.exp(p * tau)
        let e2 = DeterministicMath.exp(q * tau)
        return (c1 * e1 + c2 * e2, c1 * p * e1 + c2 * q * e2)
    }

    func testSheetSpringFormulasMatchAScalarEvaluation() {
        var compared = 0
        for (zeta, velocity) in [(1.0, 0.0), (1.0, -2400), (0.8, 900), (0.3, 0), (1.6, -3500), (0.999, 10)] {
            let spring = DampedSpring(displacement: -187.25, velocity: velocity, response: 0.45, dampingRatio: zeta)
            for k in 0..<200 {
                let tau = Double(k) / 120
                let plain = plainSpringState(d0: -187.25, v0: velocity, response: 0.45, zeta: zeta, tau)
                let lanes = spring.state(at: DeterministicMath.Lanes(tau, tau * 0.5, 0.001, tau))
                assertSameBits(lanes.displacement[0], plain.0, "ζ \(zeta) d at \(tau)")
                assertSameBits(lanes.velocity[0], plain.1, "ζ \(zeta) v at \(tau)")
                assertSameBits(lanes.displacement[3], plain.0, "ζ \(zeta) d at \(tau), lane 3")
                let one = spring.state(at: tau)
                assertSameBits(one.displacement, plain.0, "ζ \(zeta) scalar d at \(tau)")
                assertSameBits(one.velocity, plain.1, "ζ \(zeta) scalar v at \(tau)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 1_200)
    }

    func testSheetSpringStatesMatchOneFrameEach() {
        let timebase = ReplayTimebase(frameRate: 120)
        for (zeta, velocity) in [(1.0, 0.0), (1.0, -2400), (0.8, 900), (0.3, 0), (1.6, -3500), (0.999, 10)] {
            for ease in [0.0, 0.25] {
                let spring = DampedSpring(displacement: 212.5, velocity: velocity, response: 0.5, dampingRatio: zeta)
                let animation = SheetAnimation(
                    start: timebase.sample(8_333), target: 300, spring: spring, kind: .settle, easeDuration: ease)
                for k in 0..<150 {
                    let four = animation.states(fromFrame: k, timebase)
                    for j in 0..<4 {
                        let one = animation.state(at: timebase.frame(k + j), timebase)
                        assertSameBits(four.displacement[j], one.displacement, "ζ \(zeta) ease \(ease) d at \(k + j)")
                        assertSameBits(four.velocity[j], one.velocity, "ζ \(zeta) ease \(ease) v at \(k + j)")
                    }
                }
            }
        }
    }
}
