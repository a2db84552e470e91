import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

final class TraceRecorderTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    static func header() -> TraceHeader {
        var panel = PanelConfiguration()
        panel.anchors = [AnchorEntry(state: .full, anchor: .inset(53, isFractional: false, edge: .top, guide: .safeArea)),
                         AnchorEntry(state: .half, anchor: .inset(388, isFractional: false, edge: .bottom, guide: .safeArea)),
                         AnchorEntry(state: .tip, anchor: .inset(69, isFractional: false, edge: .bottom, guide: .safeArea))]
        panel.initialState = .half
        var h = TraceHeader(name: "recorded", environment: PanelEnvironment(container: Size(width: 390, height: 844)), panel: panel)
        h.source.kind = "recorded"
        return h
    }

    static func touch(_ t: Microseconds, _ phase: TouchPhase, _ y: Double, id: Int = 0, v: Point? = nil) -> TraceSample {
        TraceSample(time: t, kind: .touch(TouchSample(phase: phase, id: id, location: Point(x: 195, y: y), velocity: v)))
    }

    /// A small gesture with every sample kind.
    static let gesture: [TraceSample] = [
        touch(0, .began, 600), touch(8_333, .moved, 590.5), touch(16_667, .moved, 570),
        TraceSample(time: 16_667, kind: .observed(ObservedSample(location: 402, state: "half"))),
        touch(25_000, .ended, 540, v: Point(x: 0, y: -1500)),
        TraceSample(time: 500_000, kind: .call(.move(to: .tip, animated: true))),
        TraceSample(time: 1_000_000, kind: .end),
    ]

    func testRecordsWhatTheLoaderReadsBackAndSynchronizesEveryLine() throws {
        let path = directory + "/t.jsonl"
        let recorder = try TraceRecorder(header: Self.header(), path: path)
        for s in Self.gesture { try recorder.append(s) }
        try recorder.close()
        let loaded = try TraceLoader.load(path: path)
        XCTAssertEqual(loaded.trace.header, Self.header())
        XCTAssertEqual(loaded.trace.samples.map { TraceSample(time: $0.time, kind: $0.kind) }, Self.gesture)
        XCTAssertEqual(loaded.trace.samples.map(\.line), Array(2...(Self.gesture.count + 1)))

        let sink = MemoryTraceSink()
        let memory = try TraceRecorder(header: Self.header(), sink: sink)
        XCTAssertEqual(sink.synchronizations, 1, "the header is durable before the first sample")
        for (k, s) in Self.gesture.enumerated() {
            try memory.append(s)
            XCTAssertEqual(sink.synchronizations, k + 2)
            XCTAssertEqual(sink.bytes.last, 0x0A, "each line is written whole, with its newline")
        }
        XCTAssertEqual(sink.text, String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        XCTAssertEqual(memory.sampleCount, Self.gesture.count)
    }

    /// The background sink writes the same bytes, in order, once `close()` returns, and reports
    /// its sink's first failure on the next call.
    func testBackgroundSinkWritesTheSameBytesAndReportsFailures() throws {
        let direct = MemoryTraceSink(), inner = MemoryTraceSink()
        let a = try TraceRecorder(header: Self.header(), sink: direct)
        let b = try TraceRecorder(header: Self.header(), sink: BackgroundTraceSink(inner))
        for s in Self.gesture { try a.append(s); try b.append(s) }
        try a.close(); try b.close()
        XCTAssertEqual(inner.text, direct.text)
        XCTAssertEqual(inner.synchronizations, direct.synchronizations)
        XCTAssertTrue(inner.closed)

        let failing = FailingSink(failAfter: 2)
        let c = try TraceRecorder(header: Self.header(), sink: BackgroundTraceSink(failing))
        var thrown: TraceError?
        for s in Self.gesture where thrown == nil {
            do { try c.append(s) } catch { thrown = error }
        }
        if thrown == nil { XCTAssertThrowsError(try c.close()) { thrown = $0 as? TraceError } }
        XCTAssertEqual(thrown?.kind, .io)
        XCTAssertEqual(thrown?.message, "disk full")
    }

    func testAppendInSecondsRoundsToMicroseconds() throws {
        let sink = MemoryTraceSink()
        let recorder = try TraceRecorder(header: Self.header(), sink: sink)
        try recorder.append(at: 0.0123456, .touch(TouchSample(phase: .began, location: Point(x: 1, y: 2))))
        XCTAssertTrue(sink.text.hasSuffix("{\"t\": 0.012346, \"touch\": \"began\", \"x\": 1, \"y\": 2}\n"), sink.text)
        XCTAssertThrowsError(try recorder.append(at: .nan, .end))
        XCTAssertThrowsError(try recorder.append(at: -1, .end))
    }

    /// Every contract violation is refused with its reason, nothing is written, and the recorder
    /// carries on as if the sample had never been offered.
    func testRefusesSamplesThatBreakTheContract() throws {
        let sink = MemoryTraceSink()
        let recorder = try TraceRecorder(header: Self.header(), sink: sink, file: "rec.jsonl")
        try recorder.append(Self.touch(10_000, .began, 600))
        try recorder.append(Self.touch(20_000, .moved, 590))
        let cases: [(TraceSample, String, String)] = [
            (Self.touch(19_999, .moved, 580), "t", "time goes backwards"),
            (Self.touch(30_000, .moved, 580, id: 2), "touch", "'moved' for finger 2 without a preceding 'began'"),
            (Self.touch(30_000, .began, 580), "touch", "already down since line 2"),
            (Self.touch(30_000, .moved, .nan), "y", "expected a finite number"),
            (Self.touch(30_000, .moved, .infinity), "y", "expected a finite number"),
            (Self.touch(30_000, .moved, 580, v: Point(x: 0, y: .nan)), "velocity.y", "expected a finite number"),
            (Self.touch(30_000, .moved, 2e7), "y", "magnitude ≤ 10000000"),
            (Self.touch(30_000, .moved, 580, v: Point(x: -3e7, y: 0)), "velocity.x", "magnitude ≤ 10000000"),
            (TraceSample(time: 200_000_000_000_000, kind: .end), "t", "≤ 100000000 s"),
            (TraceSample(time: 30_000, kind: .call(.move(to: PanelState(name: "lastQuart", order: 750), animated: true))), "to", "neither an anchor"),
            (TraceSample(time: 30_000, kind: .observed(ObservedSample(location: .nan))), "observed.location", "finite"),
        ]
        let before = sink.bytes
        for (sample, field, fragment) in cases {
            XCTAssertThrowsError(try recorder.append(sample), "\(sample)") { error in
                let e = error as! TraceError
                XCTAssertEqual(e.file, "rec.jsonl")
                XCTAssertEqual(e.line, 4, "the line it would have had")
                XCTAssertEqual(e.field, field, e.description)
                XCTAssertTrue(e.message.contains(fragment), "«\(e.description)» lacks «\(fragment)»")
            }
        }
        XCTAssertEqual(sink.bytes, before, "refused samples are not written")
        try recorder.append(Self.touch(30_000, .ended, 580))
        try recorder.append(TraceSample(time: 40_000, kind: .end))
        XCTAssertThrowsError(try recorder.append(Self.touch(50_000, .began, 580))) { error in
            XCTAssertTrue((error as! TraceError).description.contains("rec.jsonl:6: end: nothing may follow the 'end' sample (line 5)"), "\(error)")
        }
        try recorder.close()
        XCTAssertTrue(sink.closed)
        XCTAssertThrowsError(try recorder.append(TraceSample(time: 50_000, kind: .end)))
    }

    func testRefusesAnInvalidHeaderLikeTheLoader() {
        var h = Self.header()
        h.panel.initialState = PanelState(name: "lastQuart", order: 750)
        XCTAssertThrowsError(try TraceRecorder(header: h, sink: MemoryTraceSink(), file: "rec.jsonl")) { error in
            XCTAssertEqual((error as! TraceError).line, 1, "\(error)")
        }
        XCTAssertThrowsError(try TraceRecorder(header: Self.header(), path: directory + "/missing/dir/t.jsonl")) { error in
            XCTAssertEqual((error as! TraceError).kind, .io, "\(error)")
        }
    }

    /// A recorder killed at any byte of its output leaves a file that loads up to the last
    /// complete sample, with the cut-off line reported.
    func testRecoveryAtEveryTruncationOffset() throws {
        let sink = MemoryTraceSink()
        let recorder = try TraceRecorder(header: Self.header(), sink: sink)
        for s in Self.gesture { try recorder.append(s) }
        let bytes = sink.bytes
        let headerLength = bytes.firstIndex(of: 0x0A)! + 1
        let path = directory + "/cut.jsonl"
        for cut in headerLength...bytes.count {
            let prefix = Array(bytes[..<cut])
            try Data(prefix).write(to: URL(fileURLWithPath: path))
            let recovered = try TraceRecovery.loadRecovering(path: path)
            // A cut right before a newline leaves a whole line (kept); any other cut inside a line drops it.
            let wholeButNewline = prefix.last != 0x0A && cut < bytes.count && bytes[cut] == 0x0A
            let completeLines = prefix.filter { $0 == 0x0A }.count - 1 + (wholeButNewline ? 1 : 0)
            let partial = prefix.last != 0x0A && !wholeButNewline
            XCTAssertEqual(recovered.droppedPartialLine, partial, "cut at \(cut)")
            XCTAssertEqual(recovered.droppedBytes, partial ? cut - (prefix.lastIndex(of: 0x0A)! + 1) : 0)
            XCTAssertEqual(recovered.droppedLine, partial ? completeLines + 2 : nil, "cut at \(cut)")
            XCTAssertEqual(recovered.loaded.trace.samples.map { TraceSample(time: $0.time, kind: $0.kind) },
                           Array(Self.gesture.prefix(completeLines)), "cut at \(cut)")
            if partial {
                XCTAssertEqual(recovered.notice, "\(path):\(completeLines + 2): dropped an incomplete last line (\(recovered.droppedBytes) bytes without a line break)")
                XCTAssertThrowsError(try TraceLoader.load(path: path), "the plain loader refuses a cut line (cut at \(cut))") { error in
                    // ... and names the recovery.
                    let message = (error as! TraceError).message
                    XCTAssertTrue(message.hasSuffix("; the file ends inside this line, as a recording stopped in the middle of a write leaves it: "
                                                    + "panelsim recover \(path) -o OUT (in Swift, TraceRecovery.loadRecovering(path:)) keeps the lines before it"),
                                  "cut at \(cut): \(message)")
                }
            }
        }
        // Other JSON errors get no such hint: a bad line followed by a line break, or by more lines.
        var badMiddle = Array(bytes[..<headerLength]) + Array("{\"t\": 0.1, \"tou\n".utf8)
        XCTAssertThrowsError(try TraceLoader.load(bytes: badMiddle, file: "t.jsonl")) { error in
            XCTAssertFalse((error as! TraceError).message.contains("recover"), "\(error)")
        }
        badMiddle += Array("{\"t\": 0.2, \"touch\": \"ended\", \"x\": 1, \"y\": 2}".utf8)
        XCTAssertThrowsError(try TraceLoader.load(bytes: badMiddle, file: "t.jsonl")) { error in
            XCTAssertEqual((error as! TraceError).line, 2)
            XCTAssertFalse((error as! TraceError).message.contains("recover"), "\(error)")
        }
        // A header spread over two lines: its first line ends the JSON early.
        let header = Array(bytes[..<(headerLength - 1)])
        let comma = try XCTUnwrap(header.firstIndex(of: 0x2C))   // the first ","
        let split = Array(header[...comma]) + [0x0A] + Array(header[(comma + 1)...]) + [0x0A]
        XCTAssertThrowsError(try TraceLoader.load(bytes: split, file: "t.jsonl")) { error in
            XCTAssertEqual((error as! TraceError).line, 1)
            XCTAssertTrue((error as! TraceError).message.hasSuffix("found end of input; the header must be one line (a trace is JSON Lines: one JSON object per line)"),
                          "\(error)")
        }
        // A header cut short with nothing after it is not said to be spread over lines.
        XCTAssertThrowsError(try TraceLoader.load(bytes: Array(header[...comma]) + [0x0A], file: "t.jsonl")) { error in
            XCTAssertFalse((error as! TraceError).message.contains("one line"), "\(error)")
        }
        // A last line complete but for its newline is kept (the same rule as above, on the last line).
        var noNewline = bytes
        noNewline.removeLast()
        let kept = try TraceRecovery.recover(bytes: noNewline, file: "t.jsonl")
        XCTAssertFalse(kept.droppedPartialLine)
        XCTAssertEqual(kept.loaded.trace.samples.count, Self.gesture.count)
        // Problems before the cut are reported as the loader reports them.
        let bad = Array("{\"format\": \"panelsim-trace\", \"version\": 1, \"environment\": {\"container\": {\"width\": 390, \"height\": 844}}, \"panel\": {\"anchors\": {\"full\": {\"absoluteInset\": 53, \"edge\": \"top\"}, \"tip\": {\"absoluteInset\": 69, \"edge\": \"bottom\"}}, \"initialState\": \"full\"}}\n{\"t\": 1, \"touch\": \"moved\", \"x\": 1, \"y\": 2}\n{\"t\": 2, \"tou".utf8)
        XCTAssertThrowsError(try TraceRecovery.recover(bytes: bad, file: "t.jsonl")) { error in
            XCTAssertEqual((error as! TraceError).line, 2, "\(error)")
        }
        XCTAssertThrowsError(try TraceRecovery.loadRecovering(path: directory + "/none.jsonl")) { error in
            XCTAssertEqual((error as! TraceError).kind, .io)
        }
    }
}

/// A sink whose writes fail after `failAfter` of them.
private final class FailingSink: TraceSink {
    let failAfter: Int
    var writes = 0
    init(failAfter: Int) { self.failAfter = failAfter }
    func write(_ bytes: [UInt8]) throws(TraceError) {
        writes += 1
        if writes > failAfter { throw TraceError(file: "f", line: 0, field: "", message: "disk full", kind: .io) }
    }
    func synchronize() throws(TraceError) {}
    func close() throws(TraceError) {}
}

/// The recorder checks samples with the rules of the header's own panel system.
final class TraceRecorderPanelSystemTests: XCTestCase {
    static let environment = PanelEnvironment(container: Size(width: 390, height: 844))

    /// Records `samples` after `header` in memory and returns what the loader reads back.
    func record(_ header: TraceHeader, _ samples: [(Double, SampleKind)]) throws -> Trace {
        let sink = MemoryTraceSink()
        let recorder = try TraceRecorder(header: header, sink: sink)
        for (t, kind) in samples { try recorder.append(at: t, kind) }
        try recorder.close()
        return try TraceLoader.parse(text: sink.text, file: "recording")
    }

    func testEachSystemsCallsAndStatesAreAccepted() throws {
        let drawer = try record(TraceHeader(name: "d", environment: Self.environment, drawer: DrawerConfiguration(heightOfPartiallyExpandedDrawer: 300)),
                                [(0.1, .drawerCall(.present)), (0.2, .observed(ObservedSample(state: "partiallyExpanded"))),
                                 (0.3, .drawerCall(.setDrawerState(.fullyExpanded, animated: true, completion: true))), (1, .end)])
        XCTAssertEqual(drawer.samples.count, 4)
        var sheetEnvironment = Self.environment
        sheetEnvironment.keyboard = KeyboardFrame(height: 300)
        let sheet = try record(TraceHeader(name: "s", environment: Self.environment, sheet: SheetConfiguration()),
                               [(0.1, .sheetCall(.selectDetent("large", animateChanges: true))), (0.2, .environment(sheetEnvironment)), (1, .end)])
        XCTAssertEqual(sheet.samples.map(\.kind), [.sheetCall(.selectDetent("large", animateChanges: true)), .environment(sheetEnvironment), .end])
        let popup = try record(TraceHeader(name: "p", environment: Self.environment, popup: PopupConfiguration()),
                               [(0.1, .popupCall(.openPopup(animated: true))), (0.2, .observed(ObservedSample(state: "open"))), (1, .end)])
        XCTAssertEqual(popup.samples.count, 3)
    }

    func testAnotherSystemsSamplesAreRefusedAsTheLoaderRefusesThem() throws {
        let recorder = try TraceRecorder(header: TraceHeader(name: "p", environment: Self.environment, popup: PopupConfiguration()),
                                         sink: MemoryTraceSink())
        XCTAssertThrowsError(try recorder.append(at: 0.1, .drawerCall(.present))) { error in
            XCTAssertEqual((error as? TraceError)?.line, 2)
        }
        XCTAssertThrowsError(try recorder.append(at: 0.1, .environment(Self.environment))) { error in
            XCTAssertEqual((error as? TraceError)?.field, "environment")
        }
        XCTAssertEqual(recorder.sampleCount, 0)
    }
}
