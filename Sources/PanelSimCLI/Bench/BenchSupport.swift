import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch

/// Clocks for the benchmark, in seconds (Double). Benchmarks only: nothing here reaches a result.
enum BenchClock {
    private static func read(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
    /// Monotonic wall clock.
    static func wall() -> Double { read(CLOCK_MONOTONIC) }
    /// CPU time of the calling thread (user + system).
    static func threadCPU() -> Double { read(CLOCK_THREAD_CPUTIME_ID) }
}

/// Peak and current resident memory of this process, KiB.
enum ProcessMemory {
    /// Peak resident set size: Linux `/proc/self/status` `VmHWM`; elsewhere `getrusage` `ru_maxrss`
    /// (bytes on Darwin, KiB on other systems).
    static func peakKiB() -> Int {
        #if os(Linux)
            if let v = statusField("VmHWM:") { return v }
        #endif
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        #if canImport(Darwin)
            return Int(usage.ru_maxrss) / 1024
        #else
            return Int(usage.ru_maxrss)
        #endif
    }

    /// Current resident set size (Linux `VmRSS`), or nil elsewhere.
    static func currentKiB() -> Int? {
        #if os(Linux)
            return statusField("VmRSS:")
        #else
            return nil
        #endif
    }

    private static func statusField(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}

/// What the benchmark reports about the machine.
struct MachineInfo: Sendable {
    var cores: Int
    var cpuModel: String
    /// `/proc/loadavg`'s 1-minute load when the bench starts (other work on the machine skews the
    /// scaling section), nil elsewhere.
    var loadAverage: Double?

    static func current() -> MachineInfo {
        var model = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
            .flatMap { $0.split(separator: " ").first }.flatMap { Double($0) }
        return MachineInfo(cores: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model, loadAverage: load)
    }
}

/// Median of a non-empty list (mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Minimal file writer (appends UTF-8 text) for generating large benchmark inputs.
final class FileWriter {
    private let handle: FileHandle
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard let h = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
        handle = h
    }
    func write(_ text: String) throws { try handle.write(contentsOf: Data(text.utf8)) }
    func close() { try? handle.close() }
}
