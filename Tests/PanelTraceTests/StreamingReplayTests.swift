import XCTest
import Foundation
import PanelSimCore
@testable import PanelTrace

/// A trace read in chunks and replayed as it is read gives what the whole-file loader and
/// `simulate(_:options:)` give: the same header, digest, samples (line numbers included), errors
/// and records.
final class StreamingReplayTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Every 7th trace of the corpus (all four systems), and the BOM + CR LF fuzz regression.
    func corpus() -> [String] {
        let root = Self.repository + "/traces"
        let all = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        return stride(from: 0, to: all.count, by: 7).map { root + "/" + all[$0] }
            + [Self.repository + "/Fuzz/regressions/trace/lnpopup-bom-crlf.jsonl"]
    }

    /// Hands over a trace's samples `size` at a time.
    struct Batches: SampleFeed {
        var samples: ArraySlice<TraceSample>
        let size: Int
        mutating func nextBatch() -> [TraceSample]? {
            guard !samples.isEmpty else { return nil }
            defer { samples = samples.dropFirst(size) }
            return Array(samples.prefix(size))
        }
    }

    /// SHA-256 of bytes given in pieces is the digest of the whole (pieces across block edges).
    func testIncrementalSHA256IsTheDigestOfTheConcatenation() {
        var rng = SplitMix64(seed: 7)
        for length in [0, 1, 55, 56, 63, 64, 65, 127, 128, 1000, 4099] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            for piece in [1, 3, 64, 100, 5000] {
                var hasher = SHA256.Hasher()
                var k = 0
                while k < length {
                    let end = min(length, k + piece)
                    bytes[k..<end].withUnsafeBytes { hasher.update($0) }
                    k = end
                }
                XCTAssertEqual(hasher.finalize(), SHA256.digest(bytes), "\(length) bytes in pieces of \(piece)")
                XCTAssertEqual(hasher.finalizeHex(), SHA256.hex(bytes))
            }
        }
    }

    func testChunkedScanAndFeedGiveTheLoadersTrace() throws {
        let paths = corpus()
        XCTAssertGreaterThan(paths.count, 50)
        for path in paths {
            let loaded = try TraceLoader.load(path: path)
            for chunk in [97, 4096] {
                let scanned = try TraceLoader.scan(path: path, chunkSize: chunk)
                XCTAssertEqual(scanned.header, loaded.trace.header, path)
                XCTAssertEqual(scanned.digest, loaded.digest, path)
                XCTAssertEqual(scanned.sampleCount, loaded.trace.samples.count, path)
                var feed = try TraceLoader.sampleFeed(path: path, chunkSize: chunk)
                var samples: [TraceSample] = []
                while let batch = feed.nextBatch() { samples += batch }
                feed.close()
                XCTAssertNil(feed.error)
                XCTAssertEqual(samples, loaded.trace.samples, path)
            }
        }
    }

    /// Streams `trace` (read from `path`) in batches of 1, 5 and 64 samples: the records are the
    /// whole replay's, with its warnings, and every system hands them over as the batches go.
    func assertStreamedAsTheWholeReplay(_ trace: Trace, _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        let whole = simulate(trace)
        for size in [1, 5, 64] {
            var feed = Batches(samples: trace.samples[...], size: size)
            var records: [ResultRecord] = []
            var handOvers = 0
            let streamed = simulate(header: trace.header, feed: &feed) { list in records += list; handOvers += 1 }
            XCTAssertEqual(records, Array(whole.records), "\(path) in batches of \(size)", file: file, line: line)
            XCTAssertEqual(streamed.warnings, whole.warnings, path, file: file, line: line)
            XCTAssertEqual(streamed.budgetExceeded, whole.budgetExceeded, path, file: file, line: line)
            XCTAssertTrue(streamed.records.isEmpty, file: file, line: line)
            if trace.samples.count > 4 * size && whole.records.frameCount > 4 {
                XCTAssertGreaterThan(handOvers, 1, "\(path) in batches of \(size)", file: file, line: line)
            }
        }
    }

    func testStreamingReplayGivesTheRecordsOfTheWholeReplay() throws {
        for path in corpus() { assertStreamedAsTheWholeReplay(try TraceLoader.load(path: path).trace, path) }
    }

    /// Every DrawerKit, LNPopup and UISheet trace of the corpus: streamed in batches of 1, 5 and 64
    /// samples, the records are the whole replay's, and they are handed over as the batches go,
    /// not kept until the end.
    func testNewerSystemsStreamTheRecordsOfTheWholeReplayAsTheBatchesGo() throws {
        let root = Self.repository + "/traces"
        let paths = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".jsonl") }.sorted().map { root + "/" + $0 }
        var replayed: [PanelModel: Int] = [:]
        for path in paths {
            let trace = try TraceLoader.load(path: path).trace
            guard trace.header.model != .floatingPanel else { continue }
            replayed[trace.header.model, default: 0] += 1
            assertStreamedAsTheWholeReplay(trace, path)
        }
        for model in [PanelModel.drawerKit, .lnPopup, .uiSheet] { XCTAssertGreaterThan(replayed[model] ?? 0, 50, model.rawValue) }
    }

    /// A drag-heavy trace of each newer system (alternating drags of 48 moves, released at
    /// ±1200 pt/s, 1.1 s apart), streamed 500 samples (10 drags) at a time: no hand-over holds
    /// more than a few batches' records, and together they are the whole replay's.
    func testNewerSystemsHoldAboutOneBatchOfRecords() throws {
        let environment = #""environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, "recognizer": {"velocity": "recorded", "beginThreshold": 10}"#
        let systems: [(section: String, upFrom: Int, downFrom: Int)] = [
            (#""model": "drawerkit", "drawer": {"heightOfPartiallyExpandedDrawer": 300, "heightOfCollapsedDrawer": 100, "configuration": {"initialState": "partiallyExpanded"}}"#, 700, 300),
            (#""model": "lnpopup", "popup": {"interactionStyle": "default", "bottomBar": {"kind": "none"}, "initialState": "barPresented"}"#, 780, 200),
            (#""model": "uisheet", "sheet": {"selectedDetentIdentifier": "medium", "detents": [{"identifier": "medium", "kind": "medium"}, {"identifier": "large", "kind": "large"}]}"#, 600, 200),
        ]
        for system in systems {
            var text = #"{"format": "panelsim-trace", "version": 1, "name": "drag-heavy", "#  + system.section + ", " + environment + "}\n"
            var t = 0.1
            for drag in 0..<120 {
                let up = drag % 2 == 0
                var y = up ? system.upFrom : system.downFrom
                let step = up ? -5 : 5, velocity = up ? -1200 : 1200
                text += #"{"t": \#(t), "touch": "began", "x": 195, "y": \#(y)}"# + "\n"
                for k in 1...49 {
                    if k < 49 { y += step }
                    let time = (t * 1_000_000 + Double(k) * 1_000_000 / 120).rounded() / 1_000_000
                    text += #"{"t": \#(time), "touch": "\#(k < 49 ? "moved" : "ended")", "x": 195, "y": \#(y), "velocity": {"x": 0, "y": \#(velocity)}}"# + "\n"
                }
                t += 1.1
            }
            let trace = try TraceLoader.parse(text: text, file: "drag-heavy.jsonl")
            let whole = simulate(trace)
            var feed = Batches(samples: trace.samples[...], size: 500)
            var records: [ResultRecord] = []
            var largest = 0
            _ = simulate(header: trace.header, feed: &feed) { list in records += list; largest = max(largest, list.count) }
            XCTAssertEqual(records, Array(whole.records), trace.header.model.rawValue)
            XCTAssertGreaterThan(whole.records.frameCount, 60 * 120, "\(trace.header.model.rawValue): the drags move the panel")
            XCTAssertLessThan(largest, whole.records.count / 6, trace.header.model.rawValue)
        }
    }

    /// The whole-file loader's errors, from the chunked scan: the first bad UTF-8 before any line's
    /// problem, then the first bad line.
    func testChunkedScanReportsTheLoadersErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-stream-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let header = #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}}, "initialState": "half"}}"#
        var touches = ""
        for k in 0..<40 { touches += #"{"t": \#(Double(k) / 100), "touch": "\#(k == 0 ? "began" : "moved")", "x": 195, "y": \#(500 - k)}"# + "\n" }
        let cases: [(String, [UInt8])] = [
            ("utf8", Array((header + "\n" + touches + "{\"t\": 1, \"touch\": \"moved\", \"x\": 1, \"y\": 2, \"zz\": 1}\n").utf8) + [0xC3, 0x28, 0x0A]),
            ("json", Array((header + "\n" + touches + "{\"t\": 1, \"touch\": \n").utf8)),
            ("field", Array((header + "\n" + touches + "{\"t\": 0.1, \"touch\": \"moved\", \"x\": 1, \"y\": 2}\n").utf8)),
            ("empty", []),
            ("header", Array("{\"format\": \"panelsim-trace\", \"version\": 7}\n".utf8)),
        ]
        for (name, bytes) in cases {
            let path = dir + "/" + name + ".jsonl"
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            var expected: TraceError?
            do { _ = try TraceLoader.load(path: path) } catch { expected = error }
            XCTAssertNotNil(expected, name)
            for chunk in [50, 1 << 20] {
                XCTAssertThrowsError(try TraceLoader.scan(path: path, chunkSize: chunk), name) { error in
                    XCTAssertEqual(error as? TraceError, expected, "\(name), chunks of \(chunk)")
                }
            }
        }
    }
}
