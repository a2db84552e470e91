import XCTest
import Foundation
@testable import PanelSimCLI
import PanelGolden
import PanelSimCore
import PanelTrace

/// The outcome of one in-process run.
struct RunResult {
    var code: Int32
    var stdout: String
    var stderr: String
}

/// A fresh temporary directory per test, removed afterwards.
class CLITestCase: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        root =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("panelsim-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Runs `panelsim args…` in `root` with the live services (real loader and simulator).
    func run(_ args: [String], env: [String: String] = [:]) -> RunResult {
        let out = StringSink()
        let err = StringSink()
        let code = PanelSimCommand.run(
            arguments: args, environment: env, stdout: out, stderr: err,
            workingDirectory: root)
        return RunResult(code: code, stdout: out.text, stderr: err.text)
    }

    /// Runs with fake trace services (see `FakeTraces`).
    func runFake(_ args: [String], env: [String: String] = [:]) -> RunResult {
        let out = StringSink()
        let err = StringSink()
        let code = PanelSimCommand.run(
            arguments: args, environment: env, stdout: out, stderr: err,
            workingDirectory: root, services: FakeTraces.services)
        return RunResult(code: code.rawValue, stdout: out.text, stderr: err.text)
    }

    func write(_ text: String, _ rel: String) throws {
        let path = root + "/" + rel
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func read(_ rel: String) -> String? {
        FileManager.default.contents(atPath: root + "/" + rel).flatMap { String(data: $0, encoding: .utf8) }
    }

    func exists(_ rel: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + rel) }

    /// Every file under `root`, relative, sorted.
    func allFiles() -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { !Files.isDirectory(root + "/" + $0) }.sorted()
    }
}

/// Fake trace services: a "trace" file is one line `LOCATION[ STATE]`, or `UNSUPPORTED` /
/// `INVALID` to make loading fail. Simulation gives a fixed little result from those values, so
/// CLI behavior (record modes, exit codes, reports) is testable without the real simulator.
enum FakeTraces {
    static var services: TraceServices {
        TraceServices(
            load: { path, shown throws(TraceError) in
                guard let data = FileManager.default.contents(atPath: path),
                    let text = String(data: data, encoding: .utf8)
                else {
                    throw TraceError(file: shown, line: 0, field: "", message: "cannot read", kind: .io)
                }
                let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if line == "UNSUPPORTED" {
                    throw TraceError(
                        file: shown, line: 2, field: "scroll", message: "not supported yet", kind: .unsupported)
                }
                let parts = line.split(separator: " ")
                guard let first = parts.first, let location = Double(first) else {
                    throw TraceError(file: shown, line: 1, field: "", message: "invalid JSON at column 1")
                }
                var header = TraceHeader(
                    name: String(shown.split(separator: "/").last!.dropLast(6)),
                    environment: PanelEnvironment(container: Size(width: 390, height: 844)),
                    panel: FloatingPanelConfiguration())
                header.panel.intrinsicLength = location
                header.description = parts.count > 1 ? String(parts[1]) : "half"
                return LoadedTraceInfo(
                    trace: Trace(header: header, samples: []),
                    digest: "sha256:" + String(text.utf8.count), path: path)
            },
            simulate: { trace, _ in
                let x = trace.header.panel.intrinsicLength
                let state = trace.header.description
                var records: [ResultRecord] = [
                    .event(time: 0, .didChangeState(state: state)), .event(time: 0, .didMove(location: x)),
                ]
                for k in 0..<4 {
                    records.append(
                        .frame(
                            FrameRecord(
                                index: k, location: x, state: state, backdropAlpha: 0,
                                isAttracting: false, isDragging: false)))
                }
                return SimulationResult(records: records)
            },
            importer: nil)
    }
}

/// A child process for tests that run built executables (`panelsim`, `git`, `swift`).
enum TestProcess {
    /// The process environment without `CI` and `PANELSIM_RECORD`, with a fixed git identity and
    /// no system or global git configuration, then `extra` over it.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CI")
        env.removeValue(forKey: "PANELSIM_RECORD")
        env["GIT_AUTHOR_NAME"] = "t"
        env["GIT_AUTHOR_EMAIL"] = "t@example.com"
        env["GIT_COMMITTER_NAME"] = "t"
        env["GIT_COMMITTER_EMAIL"] = "t@example.com"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs `executable arguments` in `folder`; returns the exit status and the output and error
    /// streams together.
    static func run(
        _ executable: String, _ arguments: [String], in folder: String,
        environment: [String: String]
    ) throws -> (code: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: folder)
        p.environment = environment
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
