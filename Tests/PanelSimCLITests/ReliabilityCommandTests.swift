import XCTest
import Foundation
@testable import PanelSimCLI
import PanelGolden
import PanelTrace
import PanelSimCore

/// Reliability through the command line: imports that succeed always load, orphan temporary files of
/// killed golden writes, and write errors that name the path as the user gave it.
final class ReliabilityCommandTests: CLITestCase {
    /// A process id that existed and no longer does (a child that has exited and been reaped).
    func deadPid() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exit 0"]
        try p.run()
        p.waitUntilExit()
        XCTAssertFalse(AtomicFile.processExists(p.processIdentifier))
        return p.processIdentifier
    }

    // MARK: - 1. Importers

    func testImportsOfTimesBeyondTheLoaderBoundFailAtTheInputLine() throws {
        try write(InputCommandTests.template + "\n", "t.json")
        try write("t_ms,phase,x_px,y_px\n0,down,10,10\n100000000001,move,10,12\n100000000002,up,10,12\n", "big.csv")
        let csv = run(["import", "csv", "big.csv", "--points-per-unit", "1", "--template", "t.json", "-o", "out.jsonl"])
        XCTAssertEqual(csv.code, 2)
        XCTAssertEqual(csv.stderr, "big.csv:3: t_ms: column 1: expected a time within 100000000 s (10^11 ms) of the down row on line 2, got 100000000001 ms\n")
        XCTAssertFalse(exists("out.jsonl"))

        let list = #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}}, "initialState": "full"}, "scrollView": {"frame": {"x": 0, "y": 36, "width": 390, "height": 761}, "contentSize": {"width": 390, "height": 3000}}}"#
        try write(list + "\n", "list.json")
        for (name, rows, line) in [("late.csv", "0,scroll,1\n100000000001,scroll,1\n", 3),
                                   ("far.csv", "-9000000000000000,scroll,1\n9000000000000000,scroll,1\n", 3)] {
            try write("t_ms,phase,scroll_delta\n" + rows, name)
            let axis = run(["import", "axis-scroll", name, "--points-per-unit", "1", "--template", "list.json", "-o", "out.jsonl"])
            XCTAssertEqual(axis.code, 2, axis.stderr)
            XCTAssertTrue(axis.stderr.hasPrefix("\(name):\(line): t_ms: column 1: expected a time within 100000000 s"), axis.stderr)
        }
        // At the bound the import succeeds, and what it wrote replays.
        try write("t_ms,phase,scroll_delta\n0,scroll,1\n100000000000,scroll,1\n", "edge.csv")
        let edge = run(["import", "axis-scroll", "edge.csv", "--points-per-unit", "1", "--template", "list.json", "-o", "edge.jsonl"])
        XCTAssertEqual(edge.code, 0, edge.stderr)
        XCTAssertEqual(try TraceLoader.load(path: root + "/edge.jsonl").trace.samples.last?.time, TraceLoader.maxTime)
    }

    // MARK: - 4. Orphan temporary files after a kill

    func testOrphanTemporaryFilesOfKilledGoldenWritesAreReportedThenRemoved() throws {
        try write(LiveCommandTests.trace, "traces/a.jsonl")
        XCTAssertEqual(run(["check", "--record", "missing"]).code, 0)
        let dead = try deadPid()
        let orphan = "golden/.a.golden.jsonl.tmp-\(dead)-0A1B2C3D"
        let running = "golden/.a.golden.jsonl.tmp-1-DEADBEEF"   // process 1 always exists
        try write("{\"format\": \"panelsim-res", orphan)
        try write("{\"format\": \"panelsim-res", running)

        // --record never: reported with how to remove it, left in place, never taken for a golden.
        let never = run(["check", "--record", "never"])
        XCTAssertEqual(never.code, 0, never.stdout)
        XCTAssertEqual(never.stdout, """
            PASS traces/a.jsonl
            warning: \(running) is the temporary file of a golden write by process 1, which is running; if no panelsim is writing goldens there, remove it (rm \(running))
            warning: \(orphan) was left by an interrupted golden write (process \(dead) no longer exists); remove it (rm \(orphan)) or run check with --record missing, failed or all, which removes such files
            1 passed, 0 failed

            """)
        XCTAssertTrue(exists(orphan))

        // A mode that writes removes the orphan, and only it.
        let missing = run(["check", "--record", "missing", "--jobs", "2"])
        XCTAssertEqual(missing.code, 0, missing.stdout)
        XCTAssertTrue(missing.stdout.contains("note: removed \(orphan), left by an interrupted golden write (process \(dead) no longer exists)\n"), missing.stdout)
        XCTAssertFalse(exists(orphan))
        XCTAssertTrue(exists(running))
        XCTAssertFalse(run(["check"]).stdout.contains(orphan))
    }

    func testTemporaryNamesParseBackToTheirWriter() {
        let name = AtomicFile.temporaryName(for: "a.tmp-3.golden.jsonl", pid: 4242, tag: "0a1B2c3D")
        XCTAssertEqual(name, ".a.tmp-3.golden.jsonl.tmp-4242-0a1B2c3D")
        XCTAssertEqual(AtomicFile.temporaryOwner(of: name)?.target, "a.tmp-3.golden.jsonl")
        XCTAssertEqual(AtomicFile.temporaryOwner(of: name)?.pid, 4242)
        for other in [".a.golden.jsonl", "a.golden.jsonl.tmp-1-0A1B2C3D", ".a.tmp--0A1B2C3D", ".a.tmp-1-0A1B2C3", ".a.tmp-1-0A1B2C3G",
                      ".tmp-1-0A1B2C3D", ".a.tmp-0-0A1B2C3D", ".a.tmp-99999999999-0A1B2C3D", ".a.tmp-1x0A1B2C3D"] {
            XCTAssertNil(AtomicFile.temporaryOwner(of: other), other)
        }
    }

    // MARK: - 5. Write errors name the path as given

    func testWriteErrorsNameThePathAsGiven() throws {
        try write(LiveCommandTests.trace, "traces/sub/a.jsonl")
        try write("not a folder\n", "golden/sub")
        let check = run(["check", "--record", "missing"])
        XCTAssertEqual(check.code, 2)
        XCTAssertTrue(check.stdout.hasPrefix("ERROR traces/sub/a.jsonl: cannot write golden/sub/a.golden.jsonl: cannot create the folder golden/sub (a file is in the way)\n"), check.stdout)
        XCTAssertFalse(check.stdout.contains(root), check.stdout)

        let replay = run(["replay", "traces/sub/a.jsonl", "-o", "golden/sub/out.jsonl"])
        XCTAssertEqual(replay.code, 2)
        XCTAssertEqual(replay.stderr, "cannot write golden/sub/out.jsonl: cannot create the folder golden/sub (a file is in the way)\n")

        try write("not a folder\n", "reports/sub")
        let report = run(["check", "--record", "never", "--report-dir", "reports"])
        XCTAssertTrue(report.stdout.contains("  warning: cannot write reports/sub/a.html: cannot create the folder reports/sub (a file is in the way)\n"), report.stdout)
        XCTAssertFalse(report.stdout.contains(root), report.stdout)
    }

    /// `observe` of a trace with 2·10⁴ states and 100 `invalidateLayout` patches writes a trace of
    /// about its input's size (each patch written as the whole layout made 0.74 MB into 74 MB),
    /// which replays to the same records as the input.
    func testObserveOfManyStatesAndLayoutPatchesWritesAboutTheInputSize() throws {
        // A flick first (the observed parameter shapes its attraction), then the layout patches.
        let states = (0..<20_000).map { #"{"name": "s\#($0)", "order": \#(2000 + $0)}"# }.joined(separator: ", ")
        var lines = [#"{"format": "panelsim-trace", "version": 1, "name": "many-states", "environment": {"container": {"width": 390, "height": 844}}, "panel": {"states": ["# + states
                     + #"], "anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}, "initialState": "half"}}"#,
                     #"{"t": 0, "touch": "began", "x": 195, "y": 500}"#, #"{"t": 0.008333, "touch": "moved", "x": 195, "y": 480}"#,
                     #"{"t": 0.016666, "touch": "moved", "x": 195, "y": 440}"#,
                     #"{"t": 0.025, "touch": "ended", "x": 195, "y": 400, "velocity": {"x": 0, "y": -1500}}"#]
        for k in 0..<100 {
            lines.append(#"{"t": \#(2 + Double(k) / 100), "call": "invalidateLayout", "panel": {"intrinsicLength": \#(300 + k % 7)}}"#)
            lines.append(#"{"t": \#(2 + Double(k) / 100), "call": "move", "to": "full", "animated": false}"#)
        }
        let input = lines.joined(separator: "\n") + "\n"
        try write(input, "many.jsonl")
        let r = run(["observe", "many.jsonl", "--param", "springResponseTime=0.5", "--every", "4", "-o", "observed.jsonl"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let output = try XCTUnwrap(read("observed.jsonl"))
        XCTAssertLessThan(output.utf8.count, 5 * input.utf8.count, "\(output.utf8.count) bytes written for \(input.utf8.count)")
        let original = try TraceLoader.parse(text: input, file: "many.jsonl")
        let observed = try TraceLoader.parse(text: output, file: "observed.jsonl")
        XCTAssertEqual(observed.header.panel, original.header.panel)
        let layouts = { (t: Trace) in t.samples.compactMap { s -> PanelConfiguration? in
            if case .call(.invalidateLayout(let p)) = s.kind { return p } else { return nil } } }
        XCTAssertEqual(layouts(observed), layouts(original))
        XCTAssertEqual(layouts(original).count, 100)
    }

    /// `replay` of a trace at or above the streaming threshold (lowered here) writes the bytes of
    /// the in-memory replay, to standard output and to `-o`; a trace that does not load leaves no
    /// output file.
    func testStreamingReplayWritesTheSameBytes() throws {
        let trace = FidelityTuneTests.flick("s", y0: 600, dy: -200, moves: 30, velocity: -2500)
        try write(TraceWriter.write(trace), "s.jsonl")
        let whole = run(["replay", "s.jsonl"])
        XCTAssertEqual(whole.code, 0, whole.stderr)
        let streamed = run(["replay", "s.jsonl"], env: ["PANELSIM_STREAMING_BYTES": "0"])
        XCTAssertEqual(streamed.code, 0, streamed.stderr)
        XCTAssertEqual(streamed.stdout, whole.stdout)
        XCTAssertEqual(run(["replay", "s.jsonl", "-o", "out.golden.jsonl", "--drive-scroll"], env: ["PANELSIM_STREAMING_BYTES": "0"]).code, 0)
        XCTAssertEqual(read("out.golden.jsonl"), run(["replay", "s.jsonl", "--drive-scroll"]).stdout)
        try write(TraceWriter.write(trace) + "{\"t\": 0, \"touch\": \"moved\"}\n", "bad.jsonl")
        let bad = run(["replay", "bad.jsonl", "-o", "bad.golden.jsonl"], env: ["PANELSIM_STREAMING_BYTES": "0"])
        XCTAssertEqual(bad.code, 2)
        XCTAssertEqual(bad.stderr, run(["replay", "bad.jsonl"]).stderr)
        XCTAssertFalse(exists("bad.golden.jsonl"))
        XCTAssertEqual(allFiles(), ["bad.jsonl", "out.golden.jsonl", "s.jsonl"])
    }

    /// A DrawerKit, an LNPopup and a UISheet corpus trace replayed streaming (threshold lowered)
    /// write the bytes of the whole-file path, which are their goldens', and `check` of them
    /// compared as produced passes.
    func testStreamingReplayOfTheNewerSystemsWritesTheirGoldens() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let streaming = ["PANELSIM_STREAMING_BYTES": "0"]
        for name in ["drawerkit/flick/d1-partial-up", "lnpopup/s1/drag-slow-to-top-tab", "uisheet/x1/x1-large-down-past-mid"] {
            let trace = try XCTUnwrap(FileManager.default.contents(atPath: "\(repository)/traces/\(name).jsonl"))
            let golden = try XCTUnwrap(FileManager.default.contents(atPath: "\(repository)/golden/\(name).golden.jsonl"))
            try write(String(decoding: trace, as: UTF8.self), "traces/\(name).jsonl")
            try write(String(decoding: golden, as: UTF8.self), "golden/\(name).golden.jsonl")
            let streamed = run(["replay", "traces/\(name).jsonl"], env: streaming)
            XCTAssertEqual(streamed.code, 0, streamed.stderr)
            XCTAssertEqual(streamed.stdout, run(["replay", "traces/\(name).jsonl"]).stdout, name)
            XCTAssertEqual(Array(streamed.stdout.utf8), Array(golden), name)
        }
        let check = run(["check", "--record", "never"], env: streaming)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("3 passed, 0 failed"), check.stdout)
    }

    /// `check` of traces at or above the streaming threshold (lowered here) prints what the
    /// whole check prints: a pass compared as produced, a failure (a golden nudged) and a missing
    /// golden through the whole check.
    func testStreamingCheckPrintsWhatTheWholeCheckPrints() throws {
        for k in 0..<3 {
            let trace = FidelityTuneTests.flick("c\(k)", y0: 600, dy: -60 - 40 * Double(k), moves: 8, velocity: -1800)
            try write(TraceWriter.write(trace), "traces/c\(k).jsonl")
        }
        XCTAssertEqual(run(["check", "--record", "missing", "traces/c0.jsonl", "traces/c1.jsonl"]).code, 0)
        let golden = try XCTUnwrap(read("golden/c1.golden.jsonl"))
        try write(golden.replacingOccurrences(of: #""frame": 0, "location": "#, with: #""frame": 0, "location": 1"#), "golden/c1.golden.jsonl")
        let streaming = ["PANELSIM_STREAMING_BYTES": "0"]
        let whole = run(["check", "--record", "never"]), streamed = run(["check", "--record", "never"], env: streaming)
        XCTAssertEqual(streamed.code, whole.code)
        XCTAssertEqual(streamed.stdout, whole.stdout)
        XCTAssertTrue(whole.stdout.hasPrefix("PASS traces/c0.jsonl\nFAIL traces/c1.jsonl\n"), whole.stdout)
        XCTAssertTrue(whole.stdout.contains("MISSING traces/c2.jsonl"), whole.stdout)
        XCTAssertEqual(run(["check", "--record", "never", "--drive-scroll"], env: streaming).stdout,
                       run(["check", "--record", "never", "--drive-scroll"]).stdout)
    }

    /// An atomic write never renames its temporary file over a device or FIFO: `replay -o FIFO`
    /// is an error and the FIFO stays one.
    func testWritesRefuseToReplaceAFIFO() throws {
        try write(TraceWriter.write(FidelityTuneTests.flick("f", y0: 600, dy: -60, moves: 5, velocity: -1500)), "f.jsonl")
        XCTAssertEqual(mkfifo(root + "/out.fifo", 0o644), 0)
        let r = run(["replay", "f.jsonl", "-o", "out.fifo"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("out.fifo: is not a regular file"), r.stderr)
        var info = stat()
        XCTAssertEqual(stat(root + "/out.fifo", &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO)
    }
}
