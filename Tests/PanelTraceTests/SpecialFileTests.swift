import XCTest
import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
@testable import PanelTrace

/// Files that are not regular files must fail at once with an I/O error, never block.
final class SpecialFileTests: XCTestCase {
    func testFIFOTraceFailsWithoutWaitingForAWriter() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panelsim-fifo-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/trace.jsonl"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)

        // Load on another thread so that a regression (open(2) waiting for a writer) fails this
        // test after 10 s instead of hanging the suite.
        let done = DispatchSemaphore(value: 0)
        let box = ErrorBox()
        Thread.detachNewThread {
            do { _ = try TraceLoader.load(path: fifo) } catch let error as TraceError { box.error = error } catch {}
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return XCTFail("loading a FIFO blocked") }
        let error = try XCTUnwrap(box.error, "a FIFO must not load")
        XCTAssertEqual(error.kind, .io)
        // A message of its own, the same on every run (Foundation's error text carried its
        // userInfo dictionary, in an order that changed between runs).
        XCTAssertEqual(
            error.description, fifo + ": is not a regular file (a FIFO, socket or device; expected a trace file)")
    }
}

private final class ErrorBox: @unchecked Sendable { var error: TraceError? }
