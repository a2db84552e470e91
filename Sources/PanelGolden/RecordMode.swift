/// When `panelsim check` writes goldens (DESIGN.md, golden workflow).
public enum RecordMode: String, Sendable, Equatable, CaseIterable {
    /// Write nothing; a missing golden is a failure. The default on CI.
    case never
    /// Write goldens that do not exist yet (they count as passed); compare the others. The
    /// default on a developer machine.
    case missing
    /// Also rewrite goldens that fail (or cannot be compared: unreadable, other format version).
    case failed
    /// Rewrite every golden whose bytes would change; nothing fails on a golden mismatch.
    case all
    /// Touch no golden: a golden that fails (or is missing, unreadable, of another format
    /// version) gets the actual result written beside it as `NAME.golden.jsonl.new`, a pending
    /// golden that `panelsim review`, `accept` or `reject` settles (the workflow of insta's
    /// `.snap.new` files). The trace still fails.
    case pending

    /// The environment variable that selects a mode when no flag is given.
    public static let environmentVariable = "PANELSIM_RECORD"

    /// Resolves the mode: the `--record` flag wins, then `PANELSIM_RECORD`, then `never` when
    /// `CI` is set, else `missing`.
    ///
    /// An empty `PANELSIM_RECORD` counts as unset. `CI` counts as set when it is present and not
    /// empty, `"0"` or `"false"` (case-insensitive).
    /// - Parameters:
    ///   - flag: the `--record` value, nil when not given.
    ///   - environment: the process environment.
    /// - Throws: `RecordModeError` for a value that is not one of the five modes.
    /// - Complexity: O(1).
    public static func resolve(flag: String?, environment: [String: String]) throws(RecordModeError) -> RecordMode {
        try resolution(flag: flag, environment: environment).mode
    }

    /// Where a resolved mode came from (for messages such as "record mode never, because CI is set").
    public enum Source: String, Sendable, Equatable {
        /// The `--record` flag (or `assertPanelTrace`'s `record:` argument).
        case flag
        /// The `PANELSIM_RECORD` environment variable.
        case environment
        /// `CI` is set and nothing else chose: `never`.
        case ci
        /// Nothing chose: `missing`.
        case `default`
    }

    /// `resolve(flag:environment:)` with the rule that decided: the one implementation of the
    /// record-mode rules (`check`'s `--record` and `assertPanelTrace`'s `record:` both use it).
    /// - Throws: `RecordModeError` for a value that is not one of the five modes.
    /// - Complexity: O(1).
    public static func resolution(flag: String?, environment: [String: String]) throws(RecordModeError) -> (
        mode: RecordMode, source: Source
    ) {
        if let flag {
            guard let mode = RecordMode(rawValue: flag) else {
                throw RecordModeError(source: "--record", value: flag)
            }
            return (mode, .flag)
        }
        if let value = environment[environmentVariable], !value.isEmpty {
            guard let mode = RecordMode(rawValue: value) else {
                throw RecordModeError(source: environmentVariable, value: value)
            }
            return (mode, .environment)
        }
        if let ci = environment["CI"], !ci.isEmpty, ci != "0", ci.lowercased() != "false" {
            return (.never, .ci)
        }
        return (.missing, .default)
    }

    /// Whether a golden that does not exist is written.
    public var writesMissing: Bool { self == .missing || self == .failed || self == .all }
    /// Whether a golden that fails (or cannot be compared) is rewritten.
    public var rewritesFailed: Bool { self == .failed || self == .all }
    /// Whether every golden is rewritten when its bytes would change.
    public var rewritesAll: Bool { self == .all }
    /// Whether a golden that fails or is missing gets a pending golden (`NAME.new`) beside it.
    public var writesPending: Bool { self == .pending }
    /// Whether the mode writes anything into the golden folder.
    public var writes: Bool { self != .never }

    /// The suffix of a pending golden: `a.golden.jsonl` → `a.golden.jsonl.new`.
    public static let pendingSuffix = ".new"
}

/// A record mode value that is not `never`, `missing`, `failed`, `all` or `pending`.
public struct RecordModeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the value came from: `--record` or `PANELSIM_RECORD`.
    public var source: String
    public var value: String
    public var description: String {
        "invalid record mode '\(value)' from \(source) (expected never, missing, failed, all or pending)"
    }
}
