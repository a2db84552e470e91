/// Where a recording goes: one file per recording, named after the panel system, the time and the
/// device, in the app's Documents folder.
import Foundation
import PanelTrace
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Names and places recording files.
public enum RecordingFile {
    /// `<system>-<yyyyMMdd-HHmmss>-<device>.jsonl`, the time in UTC (so that names sort by time
    /// whatever the device's time zone), e.g. `floatingpanel-20240131-142501-iPhone15_2.jsonl`.
    /// Characters of `device` other than ASCII letters, digits, `.`, `_` and `-` become `_`.
    public static func name(system: String, date: Date, device: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String {
            let s = String(v ?? 0)
            return s.count < 2 ? "0" + s : s
        }
        let stamp = String(c.year ?? 0) + two(c.month) + two(c.day) + "-" + two(c.hour) + two(c.minute) + two(c.second)
        return "\(system)-\(stamp)-\(sanitized(device)).jsonl"
    }

    /// `name` with ASCII letters, digits, `.`, `_`, `-` kept and everything else replaced by `_`
    /// (an empty name becomes `unknown`).
    static func sanitized(_ name: String) -> String {
        let kept = String(
            name.unicodeScalars.map { s -> Character in
                let v = s.value
                let ok =
                    (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || s == "."
                    || s == "_" || s == "-"
                return ok ? Character(s) : "_"
            })
        return kept.isEmpty ? "unknown" : kept
    }

    /// The app's Documents folder (`FileManager`'s `.documentDirectory` in the user domain), where
    /// the Files app and the share sheet find recordings when the app's Info.plist sets
    /// `UIFileSharingEnabled` and `LSSupportsOpeningDocumentsInPlace`.
    /// - Throws: `RecorderError.noDocumentsFolder` when the system names none.
    public static func documentsFolder() throws(RecorderError) -> URL {
        guard let url = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first else {
            throw .noDocumentsFolder
        }
        return url
    }

    /// A path in `folder` for `name` that does not exist yet: `name`, else `name` with `-2`, `-3`, …
    /// before `.jsonl` (two recordings started within one second).
    static func unusedPath(in folder: URL, name: String) -> String {
        let base = name.hasSuffix(".jsonl") ? String(name.dropLast(6)) : name
        var candidate = folder.appendingPathComponent(base + ".jsonl").path
        var n = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = folder.appendingPathComponent("\(base)-\(n).jsonl").path
            n += 1
        }
        return candidate
    }

    /// The device's model identifier: the Simulator's `SIMULATOR_MODEL_IDENTIFIER` (e.g.
    /// `iPhone15,2`), else the kernel's machine name (`uname`: `iPhone15,2` on a device,
    /// `x86_64`/`arm64` elsewhere).
    public static var deviceModel: String {
        if let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"], !simulated.isEmpty {
            return simulated
        }
        var info = utsname()
        guard uname(&info) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// Why a recording could not start or finish.
public enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The header has unread fields and the policy was `.refuse`.
    case headerFieldsMissing(HeaderFieldsMissing)
    /// The system named no Documents folder.
    case noDocumentsFolder
    /// The trace could not be written: a header the loader would reject (line 1), a sample it would
    /// reject, or a file error (`.io`), with the file, line, field and reason.
    case trace(TraceError)

    public var description: String {
        switch self {
        case .headerFieldsMissing(let missing): return missing.description
        case .noDocumentsFolder: return "the system names no Documents folder for this app"
        case .trace(let error): return error.description
        }
    }
}
