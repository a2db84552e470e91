// libFuzzer entry points for PanelSim. Built by scripts/fuzz.sh, never by `swift build`:
// the library sources are compiled with `-sanitize=fuzzer,address` and linked with this file.
//
// One binary, several targets, chosen by PANELSIM_FUZZ_TARGET (scripts/fuzz.sh sets it):
//   trace        the trace loader (file entry point, fast and general paths), the trace writer,
//                the replay and the result file round trip
//   result       the result (golden) file reader and writer, the comparator and the reports
//   csv, getevent, pointer, axis-scroll
//                the importers, each followed by the trace writer and the loader (`panelsim import`)
//   drawerkit, lnpopup, uisheet
//                a trace of that system generated from the input's bytes read as choices
//                (Fuzz/SystemGrammar.swift), then everything the trace target does
//   drawerkit-result, lnpopup-result, uisheet-result
//                the result file of a generated trace's replay, changed in a few places by the
//                input, read as a golden, compared with the replay both ways and reported
//
// Every target checks oracles and stops with a message (a libFuzzer crash) when one fails:
//   * nothing traps (ASan and Swift's runtime checks turn memory errors and overflows into crashes);
//   * every error is one line naming the file (and its line when it has one);
//   * trace: the loader's fast and general paths agree (the same trace, bit for bit, or the same
//     error); the digest is the SHA-256 of the bytes without a BOM and with CR LF as LF; a written trace loads back equal and writes the same bytes again; the replay renders
//     the same bytes twice; a rendered result parses back, renders the same bytes and compares
//     equal to itself and to the replay;
//   * result: a file that parses renders canonically (parse → render → parse → render is stable)
//     and compares equal to itself;
//   * importers: an import that succeeds writes a trace that loads, with the same samples.
//
// The trace and result targets also reach every panel system through seeds: scripts/fuzz.sh seeds
// the trace target with every traces/**/*.jsonl and builds the dictionary from their keys and
// strings. The per-system targets know the DrawerKit, LNPopup and UISheet formats' structure.

import Foundation
import PanelGolden
import PanelSimCore
@testable import PanelTrace

enum FuzzTarget: String, CaseIterable {
    case trace, result, csv, getevent, pointer
    case axisScroll = "axis-scroll"
    case drawerKit = "drawerkit"
    case lnPopup = "lnpopup"
    case uiSheet = "uisheet"
    case drawerKitResult = "drawerkit-result"
    case lnPopupResult = "lnpopup-result"
    case uiSheetResult = "uisheet-result"
}

nonisolated(unsafe) var selectedTarget: FuzzTarget = .trace
nonisolated(unsafe) var scratchPath = ""

/// Stops the run with a message libFuzzer reports as a crash (the input is saved as an artifact).
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(
        Data(("\nPANELSIM FUZZ ORACLE FAILED (\(selectedTarget.rawValue)): " + message + "\n").utf8))
    abort()
}

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fail(message()) }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["PANELSIM_FUZZ_TARGET"] ?? "trace"
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(
            Data(
                "unknown PANELSIM_FUZZ_TARGET '\(name)' (expected one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))\n"
                    .utf8))
        exit(2)
    }
    selectedTarget = target
    let dir = ProcessInfo.processInfo.environment["PANELSIM_FUZZ_SCRATCH"] ?? NSTemporaryDirectory()
    scratchPath = dir + "/panelsim-fuzz-\(getpid()).jsonl"
    atexit { unlink(scratchPath) }  // the trace target's scratch file (left behind only by a crash)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    switch selectedTarget {
    case .trace: fuzzTrace(bytes)
    case .result: fuzzResult(bytes)
    case .csv, .getevent, .pointer, .axisScroll: fuzzImport(bytes, selectedTarget)
    case .drawerKit, .lnPopup, .uiSheet: fuzzSystemTrace(bytes, selectedTarget)
    case .drawerKitResult, .lnPopupResult, .uiSheetResult: fuzzSystemResult(bytes, selectedTarget)
    }
    return 0
}

// MARK: - Errors

/// Every error is one line that starts with the file name, then `:LINE` when it has a line.
func checkError(_ error: TraceError, file: String, lineCount: Int) {
    let text = error.description
    check(!text.contains("\n") && !text.contains("\r"), "error spans lines: \(text.debugDescription)")
    check(error.file == file, "error names \(error.file.debugDescription), not \(file.debugDescription): \(text)")
    check(
        text.hasPrefix(error.line > 0 ? "\(file):\(error.line): " : "\(file): "),
        "error does not start with file and line: \(text)")
    check(
        error.line >= 0 && error.line <= lineCount + 1,
        "error line \(error.line) outside the input's \(lineCount) lines: \(text)")
    check(!error.message.isEmpty, "error without a message: \(text)")
}

func lineCount(_ bytes: [UInt8]) -> Int { bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } }

// MARK: - trace

/// The trace with the bit patterns of every number a touch carries (`==` lets 0 and −0 pass).
struct BitExact: Equatable {
    var trace: Trace
    var bits: [UInt64]
    init(_ trace: Trace) {
        self.trace = trace
        bits = []
        for sample in trace.samples {
            guard case .touch(let t) = sample.kind else { continue }
            bits += [
                t.location.x.bitPattern, t.location.y.bitPattern, t.velocity?.x.bitPattern ?? 1,
                t.velocity?.y.bitPattern ?? 1,
            ]
        }
    }
}

/// The samples without their line numbers (a written trace has its own).
func withoutLines(_ samples: [TraceSample]) -> [TraceSample] {
    samples.map {
        var s = $0
        s.line = 0
        return s
    }
}

/// The `trace` target's oracles on `bytes`; returns the loaded trace (nil when it does not load).
/// `settleBudget` (µs) is the replay's settle budget (`SimulationOptions.settleBudget`).
@discardableResult
func fuzzTrace(_ bytes: [UInt8], settleBudget: Microseconds = SimulationOptions().settleBudget) -> Trace? {
    let file = "fuzz.jsonl"
    // The file entry point (`replay`, `check`): read, UTF-8 check, digest, fast path.
    writeScratch(bytes)
    let loaded: LoadedTrace
    do throws(TraceError) {
        loaded = try TraceLoader.load(path: scratchPath)
    } catch {
        var renamed = error
        if renamed.file == scratchPath { renamed.file = file }
        checkError(renamed, file: file, lineCount: lineCount(bytes))
        check(error.kind != .io, "an I/O error for a readable file: \(error.description)")
        // The general path, when the bytes are text, fails the same way.
        if let body = utf8Body(bytes) {
            do throws(TraceError) {
                let general = try TraceLoader.parse(utf8: body, file: scratchPath, fastPath: false)
                fail(
                    "the fast path refused (\(error.description)) what the general path loads (\(general.samples.count) samples)"
                )
            } catch let generalError {
                // `load` explains a JSON syntax error by the file's shape (a cut last line, a
                // header over two lines); the general path gets the same explanation from the bytes.
                let explainedGeneral = TraceLoader.explained(generalError, in: bytes)
                check(
                    explainedGeneral == error,
                    "fast and general paths fail differently: \(error.description) vs \(explainedGeneral.description)")
            }
        }
        return nil
    }
    check(
        loaded.digest == "sha256:" + SHA256.hex(digestedBytes(bytes)),
        "digest is not the SHA-256 of the bytes without a BOM and with CR LF as LF (docs/FORMATS.md §2)")
    guard let body = utf8Body(bytes) else { fail("a file that is not UTF-8 loaded") }
    let trace = loaded.trace
    do throws(TraceError) {
        let general = try TraceLoader.parse(utf8: body, file: scratchPath, fastPath: false)
        check(BitExact(general) == BitExact(trace), "fast and general paths load different traces")
    } catch {
        fail("the general path refused (\(error.description)) what the fast path loads")
    }

    // A written trace loads back equal and writes the same bytes again.
    let written = TraceWriter.write(trace)
    let reloaded: Trace
    do throws(TraceError) {
        reloaded = try TraceLoader.parse(text: written, file: "written.jsonl")
    } catch {
        fail("a written trace does not load: \(error.description)\n--- written:\n\(written.prefix(4000))")
    }
    check(reloaded.header == trace.header, "the written header loads back different")
    check(
        BitExact(Trace(header: reloaded.header, samples: withoutLines(reloaded.samples)))
            == BitExact(Trace(header: trace.header, samples: withoutLines(trace.samples))),
        "the written samples load back different")
    check(TraceWriter.write(reloaded) == written, "writing the reloaded trace gives other bytes")

    // Replay (options chosen by the input, so that both modes of O3 and O8 are covered), render,
    // read back, compare.
    var options = SimulationOptions()
    options.settleBudget = settleBudget
    options.driveScroll = bytes.count % 2 == 1
    options.panelHandlerFirst = bytes.count % 4 >= 2
    // The pipeline of `check`, `replay` and `assertPanelTrace`: simulate, the result header
    // (model, simulator options of every panel system), render.
    let replayed = TraceCheckPipeline.live.replay(loaded, options: options)
    let again = TraceCheckPipeline.live.replay(loaded, options: options)
    check(again.bytes == replayed.bytes, "two replays of one trace render different bytes")
    let rendered = String(decoding: replayed.bytes, as: UTF8.self)
    roundTrip(rendered, file: "fuzz.golden.jsonl", mustParse: true, replay: replayed.document)
    return trace
}

/// Replaces the scratch file's bytes with `bytes`: write over the old bytes, then cut the file to
/// the new length. No `fsync` (which `Data.write(to:)` does) and no truncation to zero (after
/// which ext4 writes the file back on close): either waited on the disk for a fifth of each
/// execution. The loader reads the file back through the page cache.
func writeScratch(_ bytes: [UInt8]) {
    let fd = open(scratchPath, O_WRONLY | O_CREAT, 0o644)
    guard fd >= 0 else { fail("cannot open the scratch file \(scratchPath): errno \(errno)") }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
        guard n > 0 else { fail("cannot write the scratch file \(scratchPath): errno \(errno)") }
        done += n
    }
    guard ftruncate(fd, off_t(bytes.count)) == 0 else {
        fail("cannot cut the scratch file \(scratchPath): errno \(errno)")
    }
}

/// What the trace digest covers (docs/FORMATS.md §2): the bytes without a leading UTF-8 byte order
/// mark, each CR LF pair as LF. Written here from the documented rule, not through the loader's
/// own function, so that the oracle checks the loader against the document.
func digestedBytes(_ bytes: [UInt8]) -> [UInt8] {
    var k = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    while k < bytes.count {
        if !(bytes[k] == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A) { out.append(bytes[k]) }
        k += 1
    }
    return out
}

/// The bytes without a UTF-8 byte order mark, when they are UTF-8.
func utf8Body(_ bytes: [UInt8]) -> [UInt8]? {
    var body = bytes
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
    return String(validating: body, as: UTF8.self) == nil ? nil : body
}

// MARK: - result

func fuzzResult(_ bytes: [UInt8]) {
    guard let text = String(validating: bytes, as: UTF8.self) else { return }  // `check` reads goldens as UTF-8
    guard let parsed = roundTrip(text, file: "fuzz.golden.jsonl", mustParse: false, replay: nil),
        parsed.header.version == ResultHeader.currentVersion
    else { return }
    // What `check`, `diff` and `report` do with a golden: compare it with a replay (both ways),
    // write the failure report and the HTML report. Only crashes and traps are findings here.
    // (Up to 400 records: the reports cost more than the rest, and size adds no new paths.)
    guard parsed.records.count <= 400 else { return }
    for (expected, actual) in [(parsed, referenceResult), (referenceResult, parsed)] {
        let comparison = Comparator.compare(expected: expected, actual: actual)
        _ = comparison.report(indent: "  ")
        _ = HTMLReport.render(
            HTMLReport.Input(
                title: "fuzz", header: referenceHeader, golden: expected, actual: actual,
                comparison: comparison, goldenName: "fuzz.golden.jsonl"))
    }
}

/// A replay to compare fuzzed goldens with: a drag released into an attraction, with a list.
let referenceHeader: TraceHeader = {
    do throws(TraceError) {
        return try TraceLoader.parse(text: listTemplate + "\n", file: "reference.jsonl").header
    } catch { fail("the reference trace does not load: \(error.description)") }
}()
let referenceResult: ResultDocument = {
    let text =
        listTemplate + "\n" + """
            {"t": 0, "touch": "began", "x": 195, "y": 300}
            {"t": 0.05, "touch": "moved", "x": 195, "y": 340}
            {"t": 0.1, "touch": "moved", "x": 195, "y": 420}
            {"t": 0.12, "touch": "ended", "x": 195, "y": 460, "velocity": {"x": 0, "y": 1500}}
            """ + "\n"
    do throws(TraceError) {
        let trace = try TraceLoader.parse(text: text, file: "reference.jsonl")
        let header = ResultHeader(
            trace: "reference", traceDigest: "sha256:" + SHA256.hex(Array(text.utf8)),
            frameRate: trace.header.environment.frameRate, displayScale: trace.header.environment.displayScale)
        return ResultDocument(header: header, records: simulate(trace).records)
    } catch { fail("the reference trace does not load: \(error.description)") }
}()

/// Parses `text` as a result file: a parsed file renders canonically (render → parse → render
/// gives the same bytes) and compares equal to itself (and to `replay`, the document it was
/// rendered from); an error is one line naming the file.
@discardableResult
func roundTrip(_ text: String, file: String, mustParse: Bool, replay: ResultDocument?) -> ResultDocument? {
    let parsed: ResultDocument
    do throws(ResultFileError) {
        parsed = try ResultFile.read(text: text, file: file)
    } catch {
        let description = error.description
        check(!mustParse, "a rendered result does not parse: \(description)\n--- rendered:\n\(text.prefix(4000))")
        check(
            !description.contains("\n") && !description.contains("\r"),
            "result error spans lines: \(description.debugDescription)")
        check(
            description.hasPrefix(error.line > 0 ? "\(file):\(error.line): " : "\(file): "),
            "result error does not start with file and line: \(description)")
        return nil
    }
    let rendered = ResultFile.render(parsed)
    if mustParse { check(rendered == text, "a rendered result parses back to other bytes") }
    guard parsed.header.version == ResultHeader.currentVersion else { return parsed }
    // When `text` is itself a rendering, the check above already showed parse → render to be the
    // identity on it: parsing `rendered` again would repeat the same reading of the same bytes.
    if rendered != text {
        do throws(ResultFileError) {
            let reparsed = try ResultFile.read(text: rendered, file: file)
            check(ResultFile.render(reparsed) == rendered, "render → parse → render is not stable")
        } catch {
            fail("a rendered result does not parse: \(error.description)")
        }
    }
    let itself = Comparator.compare(expected: parsed, actual: parsed)
    check(itself.passed, "a result does not compare equal to itself: \(itself.report(indent: ""))")
    if let replay {
        let comparison = Comparator.compare(expected: parsed, actual: replay)
        check(
            comparison.passed,
            "a rendered result does not compare equal to the replay: \(comparison.report(indent: ""))")
    }
    return parsed
}

// MARK: - importers

/// Templates the importers place recordings on (as `panelsim import --template`): a bottom panel
/// at half, a left panel (the x axis), and for axis-scroll a bottom panel at full with a list.
let templates = [
    #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}, "safeArea": {"top": 47, "left": 0, "bottom": 34, "right": 0}, "displayScale": 3, "frameRate": 120}, "panel": {"anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}, "initialState": "half"}, "recognizer": {"velocity": "lsq2"}}"#,
    #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 844, "height": 390}, "safeArea": {"top": 0, "left": 47, "bottom": 21, "right": 47}, "displayScale": 2, "frameRate": 60}, "panel": {"position": "left", "anchors": {"full": {"absoluteInset": 53, "edge": "right"}, "half": {"absoluteInset": 388, "edge": "left"}, "tip": {"absoluteInset": 69, "edge": "left"}}, "initialState": "tip"}}"#,
]
let listTemplate =
    #"{"format": "panelsim-trace", "version": 1, "environment": {"container": {"width": 390, "height": 844}}, "panel": {"anchors": {"full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}}, "initialState": "full"}, "scrollView": {"frame": {"x": 0, "y": 36, "width": 390, "height": 761}, "contentSize": {"width": 390, "height": 3000}, "contentOffset": {"x": 0, "y": 9999990}}}"#
let pointsPerUnit: [Double] = [1, 1.0 / 3, 0.5, 3, 1000]

func fuzzImport(_ bytes: [UInt8], _ target: FuzzTarget) {
    guard let text = String(validating: bytes, as: UTF8.self) else { return }  // the CLI reads recordings as UTF-8
    let file = "recording.txt"
    // Options from the input's length: every combination is reached as the fuzzer grows inputs.
    let k = bytes.count
    let ppu = pointsPerUnit[k % pointsPerUnit.count]
    let templateText = target == .axisScroll ? listTemplate : templates[(k / 5) % templates.count]
    var trace: Trace
    do throws(TraceError) {
        trace = try TraceLoader.parse(text: templateText + "\n", file: "template.json")
    } catch {
        fail("a fuzz template does not load: \(error.description)")
    }
    let samples: [TraceSample]
    do throws(TraceError) {
        switch target {
        case .axisScroll:
            samples = try AxisScrollCSV.importScroll(
                csv: text, file: file, pointsPerUnit: ppu,
                start: trace.header.scrollView!.contentOffset,
                vertical: trace.header.panel.position.isVertical)
        default:
            let placement = ImportPlacement(
                origin: ImportPlacement.origin(for: trace.header), pointsPerUnit: ppu,
                swapAxes: (k / 10) % 2 == 1, flipX: (k / 20) % 2 == 1, flipY: (k / 40) % 2 == 1)
            switch target {
            case .getevent: samples = try GeteventLog.importTouches(text: text, file: file, placement: placement)
            case .pointer: samples = try PointerEventLog.importTouches(text: text, file: file, placement: placement)
            default: samples = try RealTraceCSV.importTouches(csv: text, file: file, placement: placement)
            }
        }
    } catch {
        checkError(error, file: file, lineCount: lineCount(bytes))
        return
    }
    // A successful import always loads (what `panelsim import` writes, `replay` reads).
    trace.samples += samples
    let written = TraceWriter.write(trace)
    do throws(TraceError) {
        let loaded = try TraceLoader.parse(text: written, file: "imported.jsonl")
        check(withoutLines(loaded.samples) == samples, "an imported trace loads back with other samples")
    } catch {
        fail("an import succeeded but its trace does not load: \(error.description)\n--- input:\n\(text.prefix(2000))")
    }
}
