import XCTest
import Foundation

/// The libraries a user's test target imports (PanelSimTesting and what it depends on) must build
/// for iOS, which has no `Process`, no `fork` and no `/proc`, and whose C library is Darwin. No iOS
/// SDK is available where this suite runs, so these checks read the sources: every such call
/// must be absent from the libraries, and in the CLI it must sit under `#if os(macOS) || os(Linux)`
/// (or `os(Linux)` for Linux-only files); every `import Glibc` must be one branch of a chain that
/// imports Darwin too, and `XCTest`/`Testing` are imported only under `canImport`.
final class PlatformGuardTests: XCTestCase {
    static let sources = URL(fileURLWithPath: PanelTraceCheckTests.repository).appendingPathComponent("Sources").path
    static let libraries = ["PanelSimCore", "PanelTrace", "PanelGolden", "PanelSimTesting"]
    /// Calls that do not exist, or are not allowed, on iOS.
    static let unavailable = [
        "Process(", "fork(", "vfork(", "posix_spawn", "execv", "waitpid(", "/proc/", "sched_getaffinity", "mallinfo",
    ]

    /// One source line with the `#if` / `#elseif` / `#else` conditions it is compiled under.
    struct Line {
        var number: Int
        var text: String
        /// Innermost last; an `#else` branch is written `!(conditions of the chain so far)`.
        var conditions: [String]
        /// The whole `#if … #endif` chain text of the innermost block (all its branch conditions).
        var chain: [String]
    }

    /// The lines of a Swift file with their compilation conditions (comments are code here; the
    /// check only looks at directives and the listed tokens).
    static func lines(of path: String) throws -> [Line] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var stack: [(id: Int, current: String)] = []
        var chains: [[String]] = []  // every branch condition of each chain, by id
        var result: [(Line, Int?)] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") {
                let c = String(line.dropFirst(4))
                chains.append([c])
                stack.append((chains.count - 1, c))
            } else if line.hasPrefix("#elseif "), let top = stack.last {
                let c = String(line.dropFirst(8))
                chains[top.id].append(c)
                stack[stack.count - 1].current = c
            } else if line == "#else", let top = stack.last {
                stack[stack.count - 1].current = "!(" + chains[top.id].joined(separator: " || ") + ")"
                chains[top.id].append("else")
            } else if line.hasPrefix("#endif"), !stack.isEmpty {
                stack.removeLast()
            } else {
                result.append(
                    (
                        Line(number: i + 1, text: String(raw), conditions: stack.map(\.current), chain: []),
                        stack.last?.id
                    ))
            }
        }
        return result.map { line, id in
            var line = line
            if let id { line.chain = chains[id] }
            return line
        }
    }

    static func swiftFiles(under folder: String) -> [String] {
        let root = sources + "/" + folder
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
            $0.hasSuffix(".swift")
        }
        return names.sorted().map { root + "/" + $0 }
    }

    /// Whether `text` uses `token`: for a name, not as the tail of a longer name (`inProcess(`).
    static func uses(_ token: String, in text: String) -> Bool {
        var search = text[...]
        while let r = search.range(of: token) {
            let before = r.lowerBound == text.startIndex ? nil : text[text.index(before: r.lowerBound)]
            if !(token.first!.isLetter && (before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)) {
                return true
            }
            search = search[r.upperBound...]
        }
        return false
    }

    /// Whether `line` is code (not a `///` or `//` comment line).
    static func isCode(_ line: Line) -> Bool {
        let t = line.text.trimmingCharacters(in: .whitespaces)
        return !t.hasPrefix("//")
    }

    func testLibrariesHaveNoProcessForkOrLinuxOnlyCalls() throws {
        var checked = 0
        for library in Self.libraries {
            let files = Self.swiftFiles(under: library)
            XCTAssertFalse(files.isEmpty, library)
            for file in files {
                for line in try Self.lines(of: file) where Self.isCode(line) {
                    checked += 1
                    for token in Self.unavailable where Self.uses(token, in: line.text) {
                        XCTFail("\(file):\(line.number): \(token) in a library a test target imports: \(line.text)")
                    }
                    let t = line.text.trimmingCharacters(in: .whitespaces)
                    if t == "import Glibc" || t == "import Musl" {
                        XCTAssertTrue(
                            line.chain.contains("canImport(Darwin)"),
                            "\(file):\(line.number): import Glibc without a Darwin branch (\(line.chain))")
                    }
                    if t == "import XCTest" || t == "import Testing" {
                        let module = String(t.dropFirst("import ".count))
                        XCTAssertEqual(
                            line.conditions.last, "canImport(\(module))", "\(file):\(line.number): unguarded \(t)")
                    }
                    if t.hasPrefix("XCTAttachment") || t.contains("XCTContext") {
                        XCTAssertTrue(
                            line.conditions.contains("canImport(Darwin)"),
                            "\(file):\(line.number): XCTest attachments exist on Apple platforms only")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    func testCLIStartsProcessesOnlyOnMacOSAndLinux() throws {
        var found = 0
        for file in Self.swiftFiles(under: "PanelSimCLI") {
            for line in try Self.lines(of: file) where Self.isCode(line) {
                for token in Self.unavailable where Self.uses(token, in: line.text) {
                    found += 1
                    let guarded = line.conditions.contains { $0 == "os(macOS) || os(Linux)" || $0 == "os(Linux)" }
                    // A path such as "/proc/self/exe" read with `try?` fails harmlessly elsewhere; a
                    // call that does not exist off macOS and Linux must be compiled out.
                    if token == "/proc/" { continue }
                    XCTAssertTrue(
                        guarded, "\(file):\(line.number): \(token) outside #if os(macOS) || os(Linux): \(line.text)")
                }
            }
        }
        XCTAssertGreaterThan(found, 0, "the scan should see the CLI's Process and /proc uses")
    }

    /// The scanner itself: conditions of nested chains and `#else` branches.
    func testConditionTracking() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("guard-\(UUID().uuidString).swift")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        #if canImport(Glibc)
        import Glibc
        #elseif canImport(Darwin)
        import Darwin
        #endif
        #if os(macOS) || os(Linux)
        let p = Process()
        #else
        throw X()
        #endif
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = try Self.lines(of: path)
        XCTAssertEqual(lines.map(\.text), ["import Glibc", "import Darwin", "let p = Process()", "throw X()"])
        XCTAssertEqual(lines[0].chain, ["canImport(Glibc)", "canImport(Darwin)"])
        XCTAssertEqual(lines[2].conditions, ["os(macOS) || os(Linux)"])
        XCTAssertEqual(lines[3].conditions, ["!(os(macOS) || os(Linux))"])
        XCTAssertTrue(Self.uses("Process(", in: "let p = Foundation.Process()"))
        XCTAssertFalse(Self.uses("Process(", in: "try LoadMeasurement.inProcess(path: p)"))
        XCTAssertTrue(Self.uses("/proc/", in: "\"/proc/self/exe\""))
    }
}
