import Foundation
import PanelSimCore
import PanelTrace

/// What the corpus tests of DrawerKit, LNPopup and UISheet share: the traces of one folder under
/// `traces/`, the `expect:` clause each generator (`scripts/make_*_corpus.py`) writes at the end of
/// a description, and readers for the generic event and frame records of those systems.
protocol GeneratedCorpus {
    /// The folder under `traces/`, e.g. "drawerkit".
    static var folder: String { get }
}

extension GeneratedCorpus {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("traces/" + folder)
    }

    /// Every `.jsonl` trace below `root`, loaded, with its path relative to `root`, sorted by path.
    static func traces() throws -> [(String, Trace)] {
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "jsonl" } ?? []
        return try files.sorted { $0.path < $1.path }.map { url in
            (url.path.replacingOccurrences(of: root.path + "/", with: ""), try TraceLoader.load(path: url.path).trace)
        }
    }

    /// The `key=value` words after "expect: ", in order (none without a clause).
    static func expectationPairs(_ description: String) -> [(String, String)] {
        guard let range = description.range(of: "expect: ") else { return [] }
        return description[range.upperBound...].split(separator: " ").compactMap { pair in
            let kv = pair.split(separator: "=", maxSplits: 1)
            return kv.count == 2 ? (String(kv[0]), String(kv[1])) : nil
        }
    }

    /// The same words by key (a repeated key keeps its last value).
    static func expectations(_ description: String) -> [String: String] {
        Dictionary(expectationPairs(description), uniquingKeysWith: { _, last in last })
    }

    static func string(_ v: FieldValue?) -> String? { if case .string(let s)? = v { return s } else { return nil } }
    static func number(_ v: FieldValue?) -> Double? { if case .number(let x)? = v { return x } else { return nil } }
    static func bool(_ v: FieldValue?) -> Bool? { if case .bool(let b)? = v { return b } else { return nil } }

    /// The result's system events with their times (µs), in order.
    static func events(_ r: SimulationResult) -> [(Microseconds, SystemEvent)] {
        r.records.compactMap { if case .event(let t, .system(let e)) = $0 { return (t, e) } else { return nil } }
    }
    /// The result's system frames, in order.
    static func frames(_ r: SimulationResult) -> [SystemFrame] {
        r.records.compactMap { if case .systemFrame(let f) = $0 { return f } else { return nil } }
    }
}
