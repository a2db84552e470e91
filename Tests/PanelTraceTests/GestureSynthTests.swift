import XCTest
import PanelSimCore
@testable import PanelTrace

final class GestureSynthTests: XCTestCase {
    func synth(_ script: String, rate: Int = 120, jitter: Double = 0, seed: UInt64 = 1) throws -> [TraceSample] {
        try GestureSynthesizer(rate: rate, jitter: jitter, seed: seed).samples(
            try GestureScript.parse(script, file: "s"), file: "s")
    }

    func testSplitMix64ReferenceValues() {
        // Reference outputs of SplitMix64 for seed 0 and seed 1234567.
        var a = SplitMix64(seed: 0)
        XCTAssertEqual(a.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(a.next(), 0x6E78_9E6A_A1B9_65F4)
        var b = SplitMix64(seed: 1234567)
        XCTAssertEqual(b.next(), 6457827717110365317)
        XCTAssertEqual(b.next(), 3203168211198807973)
        var c = SplitMix64(seed: 9)
        for _ in 0..<1000 {
            let u = c.nextUnit()
            XCTAssert(u >= 0 && u < 1)
        }
    }

    func testEasings() {
        for e in Easing.allCases {
            XCTAssertEqual(e.progress(0), 0, "\(e)")
            XCTAssertEqual(e.progress(1), 1, "\(e)")
        }
        XCTAssertEqual(Easing.easeIn.progress(0.5), 0.25)
        XCTAssertEqual(Easing.easeOut.progress(0.5), 0.75)
        XCTAssertEqual(Easing.easeInOut.progress(0.25), 0.125)
        XCTAssertEqual(Easing.easeInOut.progress(0.75), 0.875)
    }

    func testDragScriptSamplesAndRoundTrip() throws {
        let s = try synth(
            "down 195,700; move 195,400 300ms ease-out; hold 50ms; up velocity 0,-1500; call 0.8 move full")
        XCTAssertEqual(s.count, 1 + 36 + 1 + 1)
        XCTAssertEqual(
            s[0], TraceSample(time: 0, kind: .touch(TouchSample(phase: .began, location: Point(x: 195, y: 700)))))
        XCTAssertEqual(s[1].time, 8_333)
        XCTAssertEqual(s[36].time, 300_000)
        XCTAssertEqual(s[36].kind, .touch(TouchSample(phase: .moved, location: Point(x: 195, y: 400))))
        XCTAssertEqual(
            s[37],
            TraceSample(
                time: 350_000,
                kind: .touch(
                    TouchSample(phase: .ended, location: Point(x: 195, y: 400), velocity: Point(x: 0, y: -1500)))))
        XCTAssertEqual(s[38], TraceSample(time: 800_000, kind: .call(.move(to: .full, animated: true))))
        // ease-out: the first step covers more than a linear one would.
        guard case .touch(let first) = s[1].kind else { return XCTFail() }
        XCTAssertEqual(first.location.y, 700 - 300 * Easing.easeOut.progress(1.0 / 36), accuracy: 1e-9)

        let header = TraceHeader(
            name: "synth", environment: PanelEnvironment(container: Size(width: 390, height: 844)),
            panel: TraceRecorderTests.header().panel)
        let text = TraceWriter.write(Trace(header: header, samples: s))
        let loaded = try TraceLoader.parse(text: text, file: "synth.jsonl")
        XCTAssertEqual(loaded.samples.map { TraceSample(time: $0.time, kind: $0.kind) }, s)
    }

    func testRatesFlickTapCallsAndEnd() throws {
        for rate in [60, 120, 240] {
            let s = try synth("down 0,0; move 0,100 100ms", rate: rate)
            XCTAssertEqual(s.count, 1 + Int((0.1 * Double(rate)).rounded()), "\(rate) Hz")
        }
        let flick = try synth(
            "down 10,500; flick 10,300 100ms; call remove; end 1s".replacingOccurrences(of: "1s", with: "1"))
        guard case .touch(let up) = flick[flick.count - 3].kind else { return XCTFail() }
        XCTAssertEqual(up.phase, .ended)
        XCTAssertEqual(up.velocity, Point(x: 0, y: -2000), "linear: distance / duration")
        let eased = try synth("down 0,0; flick 0,100 100ms ease-in")
        guard case .touch(let easedUp) = eased.last!.kind else { return XCTFail() }
        XCTAssertEqual(easedUp.velocity, Point(x: 0, y: 2000), "ease-in ends at twice the average speed")
        XCTAssertEqual(flick[flick.count - 2], TraceSample(time: 100_000, kind: .call(.remove)))
        XCTAssertEqual(flick.last, TraceSample(time: 1_000_000, kind: .end))

        let tap = try synth(
            "call 20ms show instant; tap 5,6 80ms; at 1; call hide; wait 10ms; cancel".replacingOccurrences(
                of: "; cancel", with: ""))
        XCTAssertEqual(tap.map(\.time), [0, 20_000, 80_000, 1_000_000])
        XCTAssertEqual(tap[1].kind, .call(.show(animated: false)))
        XCTAssertEqual(tap[3].kind, .call(.hide(animated: true)))
    }

    func testJitterIsSeededAndDeterministic() throws {
        let a = try synth("down 0,0; move 0,100 50ms; up", jitter: 2, seed: 42)
        let b = try synth("down 0,0; move 0,100 50ms; up", jitter: 2, seed: 42)
        let c = try synth("down 0,0; move 0,100 50ms; up", jitter: 2, seed: 43)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
        let plain = try synth("down 0,0; move 0,100 50ms; up")
        for (j, p) in zip(a, plain) {
            guard case .touch(let tj) = j.kind, case .touch(let tp) = p.kind else { return XCTFail() }
            XCTAssertLessThanOrEqual(abs(tj.location.x - tp.location.x), 2)
            XCTAssertLessThanOrEqual(abs(tj.location.y - tp.location.y), 2)
            if tp.phase == .began { XCTAssertEqual(tj.location, tp.location) }
        }
        guard case .touch(let lastMove) = a[a.count - 2].kind, case .touch(let up) = a.last!.kind else {
            return XCTFail()
        }
        XCTAssertEqual(up.location, lastMove.location, "up lands where the last sample was written")
    }

    func testScriptErrors() {
        func expect(
            _ script: String, line: Int, field: String, _ fragment: String, file: StaticString = #filePath,
            sourceLine: UInt = #line
        ) {
            XCTAssertThrowsError(try synth(script), file: file, line: sourceLine) { error in
                let e = error as! TraceError
                XCTAssertEqual(e.line, line, e.description, file: file, line: sourceLine)
                XCTAssertEqual(e.field, field, e.description, file: file, line: sourceLine)
                XCTAssertTrue(
                    e.message.contains(fragment), "«\(e.description)» lacks «\(fragment)»", file: file, line: sourceLine
                )
            }
        }
        expect("down 1,2\njump 3,4", line: 2, field: "", "unknown step \"jump\"")
        expect("down 1 2", line: 1, field: "down", "expected down X,Y")
        expect("down 1,x", line: 1, field: "down", "expected a point X,Y")
        expect("down 1,2; move 3,4 300", line: 1, field: "move", "expected a duration like 300ms")
        expect("down 1,2; move 3,4 0ms", line: 1, field: "move", "expected a duration > 0")
        expect("down 1,2; move 3,4 1s bouncy", line: 1, field: "move", "expected an easing")
        expect("down 1,2; up fast", line: 1, field: "up", "expected up [velocity VX,VY]")
        expect("call 1 fly", line: 1, field: "call", "expected call [TIME] move STATE")
        expect("move 3,4 10ms", line: 0, field: "step 1", "'move' without a finger down")
        expect("down 1,2; down 1,2", line: 0, field: "step 2", "already down")
        expect("up", line: 0, field: "step 1", "'up' without a finger down")
        expect("wait 1s; at 0.5", line: 0, field: "step 2", "'at' goes back in time")
        expect("end 1; wait 1s", line: 0, field: "step 2", "nothing may follow 'end'")
        expect("call 2 remove; end 1", line: 0, field: "end", "comes before a sample at 2.000000 s")
        XCTAssertThrowsError(try GestureSynthesizer(rate: 0).samples([], file: "s"))
        XCTAssertThrowsError(try GestureSynthesizer(jitter: .nan).samples([], file: "s"))
    }

    /// Sample times are round(D·k/n) in 128-bit arithmetic (no
    /// overflow for any duration), and the sample count is bounded before sampling.
    func testLongMovesNeitherOverflowNorExhaustMemory() throws {
        XCTAssertEqual(GestureSynthesizer.roundedFraction(300_000, 1, 36), 8_333)
        XCTAssertEqual(GestureSynthesizer.roundedFraction(TraceLoader.maxTime, 999_999, 1_000_000), 99_999_900_000_000)
        XCTAssertEqual(
            GestureSynthesizer.roundedFraction(TraceLoader.maxTime, 1_000_000, 1_000_000), TraceLoader.maxTime)
        XCTAssertEqual(GestureSynthesizer.roundedFraction(.max, 3, 3), .max)
        // 10^6 samples fit (the last exactly at the end); one more move sample does not.
        let s = try synth("down 0,0; move 0,100 999.999s", rate: 1000)
        XCTAssertEqual(s.count, 1_000_000)
        XCTAssertEqual(s.last?.time, 999_999_000)
        XCTAssertThrowsError(try synth("down 0,0; move 0,100 1000s", rate: 1000)) { error in
            let e = error as! TraceError
            XCTAssertEqual(e.line, 0)
            XCTAssertEqual(e.field, "step 2")
            XCTAssertTrue(
                e.message.contains("1000000 samples at 1000 Hz over 1000 s (expected at most 1000000 samples"),
                e.message)
        }
        // Located steps name the script line and the step.
        let located = try GestureScript.parseLocated("down 0,0\n# a comment\nwait 1s; move 0,100 100000000s", file: "s")
        XCTAssertEqual(located.map(\.line), [1, 3, 3])
        XCTAssertEqual(located[2].text, "move 0,100 100000000s")
        XCTAssertThrowsError(try GestureSynthesizer().samples(script: located, file: "s")) { error in
            XCTAssertEqual(
                (error as! TraceError).description,
                "s:3: move: \"move 0,100 100000000s\": the script runs past 100000000 s")
        }
    }
}
