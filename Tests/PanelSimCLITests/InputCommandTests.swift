import XCTest
import Foundation
@testable import PanelSimCLI
import PanelSimCore
import PanelTrace

/// `panelsim import getevent|pointer` and `panelsim synth`, in-process with the live services.
final class InputCommandTests: CLITestCase {
    static let template =
        #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, "panel": {"anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}, "initialState": "half"}}"#
    static let examples = RepositoryCorpusTests.root + "/examples/logs/"

    func testImportGeteventAndPointerLogs() throws {
        try write(Self.template + "\n", "t.json")
        let g = run([
            "import", "getevent", Self.examples + "flick-up.getevent.txt", "--points-per-unit", "1/3", "--template",
            "t.json", "-o", "traces/flick.jsonl",
        ])
        XCTAssertEqual(g.code, 0, g.stderr)
        let flick = try TraceLoader.load(path: root + "/traces/flick.jsonl").trace
        XCTAssertEqual(flick.header.name, "flick-up.getevent")
        XCTAssertEqual(flick.header.source.origin, "imported from flick-up.getevent.txt")
        XCTAssertEqual(flick.samples.first?.kind, .touch(TouchSample(phase: .began, location: Point(x: 195, y: 522))))
        XCTAssertEqual(run(["replay", "traces/flick.jsonl"]).code, 0)

        // pointer: CSS px = pt unless told otherwise; flips apply.
        let p = run([
            "import", "pointer", Self.examples + "drag-down.pointer.jsonl", "--template", "t.json", "--flip-y",
        ])
        XCTAssertEqual(p.code, 0, p.stderr)
        let drag = try TraceLoader.parse(text: p.stdout, file: "p.jsonl")
        guard case .touch(let second) = drag.samples[1].kind else { return XCTFail() }
        XCTAssertEqual(second.location, Point(x: 195.5, y: 522 - 18))

        // Errors: one line naming file, line and field; exit 2.
        try write(
            "[   1.000000] EV_ABS ABS_MT_TRACKING_ID 00000001\n[   1.000000] EV_ABS ABS_MT_POSITION_X zz\n", "bad.txt")
        let bad = run(["import", "getevent", "bad.txt", "--points-per-unit", "1", "--template", "t.json"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertEqual(bad.stderr, "bad.txt:2: value: ABS_MT_POSITION_X: expected up to 8 hex digits, got \"zz\"\n")
        let missing = run(["import", "getevent", "bad.txt", "--template", "t.json"])
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.stderr.contains("missing --points-per-unit K"), missing.stderr)
        let unknown = run(["import", "hid", "bad.txt", "--template", "t.json"])
        XCTAssertTrue(
            unknown.stderr.contains("unknown import format 'hid' (supported: csv, getevent, pointer, axis-scroll)"),
            unknown.stderr)
    }

    func testSynthIsDeterministicAndValid() throws {
        try write(Self.template + "\n", "t.json")
        let script = "down 195,700; move 195,400 300ms ease-out; hold 50ms; up velocity 0,-1500; call 0.8 move full"
        let a = run(["synth", "--template", "t.json", "--rate", "240", script])
        let b = run(["synth", "--template", "t.json", "--rate", "240", script])
        XCTAssertEqual(a.code, 0, a.stderr)
        XCTAssertEqual(a.stdout, b.stdout, "same inputs, same bytes")
        let trace = try TraceLoader.parse(text: a.stdout, file: "s.jsonl")
        XCTAssertEqual(trace.samples.count, 1 + 72 + 1 + 1)
        XCTAssertEqual(trace.header.source.kind, "synthetic")
        XCTAssertTrue(
            trace.header.source.origin.hasPrefix("panelsim synth --rate 240 \"down 195,700;"),
            trace.header.source.origin)

        try write("# a flick with noise\ndown 195,600\nflick 195,400 80ms\nend 1.5\n", "flick.txt")
        let j = run([
            "synth", "--template", "t.json", "--jitter", "0.5", "--seed", "99", "--file", "flick.txt", "-o",
            "traces/s.jsonl",
        ])
        XCTAssertEqual(j.code, 0, j.stderr)
        XCTAssertEqual(j.stderr, "seed: 99\nwrote traces/s.jsonl\n")  // commands that write files say so
        let replay = run(["replay", "traces/s.jsonl"])
        XCTAssertEqual(replay.code, 0, replay.stderr)
        XCTAssertTrue(replay.stdout.contains(#""event": "didChangeState", "state": "full""#), replay.stdout)

        let bad = run(["synth", "--template", "t.json", "down 1,2; move 3,4 5"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertEqual(
            bad.stderr, "SCRIPT:1: move: \"move 3,4 5\": expected a duration like 300ms or 0.3s, got \"5\"\n")
        let notAnchor = run(["synth", "--template", "t.json", "call 1 move lastQuart"])
        XCTAssertEqual(notAnchor.code, 2)
        XCTAssertTrue(notAnchor.stderr.contains("'lastQuart' is neither an anchor state"), notAnchor.stderr)
        XCTAssertEqual(run(["synth", "--template", "t.json", "--rate", "0", "down 1,2"]).code, 2)
        XCTAssertEqual(run(["synth", "--template", "t.json"]).code, 2)
        XCTAssertTrue(run(["help", "synth"]).stdout.contains("flick X,Y DURATION [EASING]"))
    }

    /// A template of another panel system takes a script of touches; a script call, which is a
    /// FloatingPanel call, is refused at its line (exit 2) instead of stopping the process.
    func testSynthOnOtherSystemsTemplatesWritesTouchesAndRefusesCalls() throws {
        let templates = [
            "drawerkit": "traces/drawerkit/flick", "lnpopup": "traces/lnpopup/s1", "uisheet": "traces/uisheet/x9",
        ]
        for (model, folder) in templates.sorted(by: { $0.key < $1.key }) {
            let files = try FileManager.default.contentsOfDirectory(atPath: RepositoryCorpusTests.root + "/" + folder)
                .filter { $0.hasSuffix(".jsonl") }.sorted()
            let template = try XCTUnwrap(files.first.map { RepositoryCorpusTests.root + "/" + folder + "/" + $0 })
            let touches = run(["synth", "--template", template, "down 195,700; move 195,500 100ms; up", "-o", "s.jsonl"])
            XCTAssertEqual(touches.code, 0, "\(model): \(touches.stderr)")
            let written = try TraceLoader.load(path: root + "/s.jsonl").trace
            XCTAssertEqual(written.header.model.rawValue, model)
            XCTAssertEqual(written.samples.count, 14, model)

            let call = run(["synth", "--template", template, "down 195,700; up; call 0.8 move full"])
            XCTAssertEqual(call.code, 2, model)
            XCTAssertEqual(
                call.stderr,
                "SCRIPT:1: call: \"call 0.8 move full\": a script's calls are FloatingPanel calls, and the template "
                    + "is a \(model) trace; write its calls into the trace file instead (docs/FORMATS.md)\n")
        }
    }

    /// A `move` too long to sample (d × i would overflow at 1000 Hz over 10⁶ s, and at 120 Hz over
    /// ~280000 s) is refused at its script line, like the other step errors, before any sample is
    /// made.
    func testSynthRefusesMovesTooLongToSample() throws {
        try write(Self.template + "\n", "t.json")
        let crash = run(["synth", "--template", "t.json", "--rate", "1000", "down 195,700; move 195,400 1000000s; up"])
        XCTAssertEqual(crash.code, 2, crash.stderr)
        XCTAssertEqual(
            crash.stderr,
            "SCRIPT:1: move: \"move 195,400 1000000s\": 1000000000 samples at 1000 Hz over 1000000 s "
                + "(expected at most 1000000 samples in a trace: a shorter duration or a lower rate)\n")
        XCTAssertEqual(crash.stdout, "")
        let slow = run(["synth", "--template", "t.json", "down 195,700\nhold 1s\nmove 195,400 280000s\nup"])
        XCTAssertEqual(slow.code, 2, slow.stderr)
        XCTAssertTrue(
            slow.stderr.hasPrefix("SCRIPT:3: move: \"move 195,400 280000s\": 33600000 samples at 120 Hz"), slow.stderr)
        // At 1 Hz the longest duration the parser takes (10^8 s) is 10^8 samples: refused too.
        let longest = run(["synth", "--template", "t.json", "--rate", "1", "down 195,700; move 195,400 99999999s"])
        XCTAssertEqual(longest.code, 2, longest.stderr)
        XCTAssertTrue(longest.stderr.hasPrefix("SCRIPT:1: move: "), longest.stderr)
        // The run-time checks name the script line and the step, not just "step 3".
        try write("down 195,700\nhold 99999999s\nhold 2s\n", "long.txt")
        let past = run(["synth", "--template", "t.json", "--file", "long.txt"])
        XCTAssertEqual(past.code, 2)
        XCTAssertEqual(past.stderr, "long.txt:3: hold: \"hold 2s\": the script runs past 100000000 s\n")
        // A flick whose release velocity the loader would refuse is refused at its step.
        let flick = run(["synth", "--template", "t.json", "down 195,700; flick 195,-9000000 1ms"])
        XCTAssertEqual(flick.code, 2)
        XCTAssertTrue(
            flick.stderr.hasPrefix(
                "SCRIPT:1: flick: \"flick 195,-9000000 1ms\": the release velocity would be (0, -9000700000) pt/s"),
            flick.stderr)
        // Jitter pushing a sample past the loader's bound: refused at the move, not at the load-back.
        let edge = run([
            "synth", "--template", "t.json", "--jitter", "1000", "--seed", "3",
            "down 195,9999999; move 195,10000000 500ms",
        ])
        XCTAssertEqual(edge.code, 2)
        XCTAssertTrue(
            edge.stderr.contains("SCRIPT:1: move: \"move 195,10000000 500ms\": a moved sample with jitter lands at"),
            edge.stderr)
        // A long move at the highest rate is still written.
        let fits = run(["synth", "--template", "t.json", "--rate", "1000", "down 195,700; move 195,400 10s; up"])
        XCTAssertEqual(fits.code, 0, fits.stderr)
    }

    /// `replay -` reads the trace from standard input: the same result bytes as the file gives
    /// when the header names the trace, and `stdin` in errors.
    func testReplayReadsStandardInput() throws {
        try write(Self.template + "\n", "t.json")
        let synth = run([
            "synth", "--template", "t.json", "down 195,700; move 195,400 300ms; up velocity 0,-1500", "-o", "s.jsonl",
        ])
        XCTAssertEqual(synth.code, 0, synth.stderr)
        let bytes = Array(try XCTUnwrap(read("s.jsonl")).utf8)
        func replay(_ input: [UInt8]) -> RunResult {
            let out = StringSink()
            let err = StringSink()
            let code = PanelSimCommand.run(
                arguments: ["replay", "-"], environment: [:], stdout: out, stderr: err,
                workingDirectory: root, services: .live, standardInput: { input })
            return RunResult(code: code.rawValue, stdout: out.text, stderr: err.text)
        }
        let piped = replay(bytes)
        XCTAssertEqual(piped.code, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, run(["replay", "s.jsonl"]).stdout)
        // A header without a name: the file's stem from a file, `stdin` from the pipe.
        let unnamed = replay(Array((Self.template + "\n").utf8))
        XCTAssertEqual(unnamed.code, 0, unnamed.stderr)
        XCTAssertTrue(
            unnamed.stdout.hasPrefix(#"{"format": "panelsim-result", "version": 1, "trace": "stdin""#), unnamed.stdout)
        let bad = replay(Array("{\"format\": \"panelsim-trace\", \"version\": 1,\n}\n".utf8))
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("stdin:1: invalid JSON"), bad.stderr)
        XCTAssertTrue(run(["help", "replay"]).stdout.contains("- reads the trace from standard input"))
    }

    /// `recover` writes a trace cut off mid-line without its last line, says what it dropped,
    /// and refuses a trace with another problem (writing nothing).
    func testRecoverDropsTheIncompleteLastLine() throws {
        try write(Self.template + "\n", "t.json")
        XCTAssertEqual(
            run([
                "synth", "--template", "t.json", "down 195,700; move 195,400 100ms; up velocity 0,-1500", "-o",
                "s.jsonl",
            ]).code, 0)
        let whole = try XCTUnwrap(read("s.jsonl"))
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        let keptLines = lines.count - 3  // the header and samples before the last sample (and the final "")
        let kept = lines.prefix(keptLines).joined(separator: "\n") + "\n"
        let cutLine = lines[keptLines].prefix(20)
        try write(kept + cutLine, "cut.jsonl")
        let refused = run(["replay", "cut.jsonl"])
        XCTAssertEqual(refused.code, 2)
        XCTAssertTrue(refused.stderr.contains("panelsim recover \(root)/cut.jsonl -o OUT"), refused.stderr)

        let r = run(["recover", "cut.jsonl", "-o", "fixed.jsonl"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(
            r.stderr,
            "cut.jsonl:\(keptLines + 1): dropped an incomplete last line (20 bytes without a line break); "
                + "\(keptLines - 1) samples kept\nwrote fixed.jsonl\n")
        XCTAssertEqual(read("fixed.jsonl"), kept)
        XCTAssertEqual(run(["replay", "fixed.jsonl"]).code, 0)
        // A whole trace is written unchanged, with a note; to standard output without -o.
        let again = run(["recover", "fixed.jsonl"])
        XCTAssertEqual(again.code, 0)
        XCTAssertEqual(again.stdout, kept)
        XCTAssertEqual(
            again.stderr, "fixed.jsonl: nothing dropped: the last line is complete (\(keptLines - 1) samples)\n")
        // Another problem before the cut: reported as the loader reports it, nothing written.
        try write(kept.replacingOccurrences(of: #""touch": "moved""#, with: #""touch": "slid""#) + cutLine, "bad.jsonl")
        let bad = run(["recover", "bad.jsonl", "-o", "out.jsonl"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("bad.jsonl:3: touch: "), bad.stderr)
        XCTAssertFalse(exists("out.jsonl"))
        XCTAssertEqual(run(["recover"]).code, 2)
    }
}
