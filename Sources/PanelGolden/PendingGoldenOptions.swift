import Foundation
import PanelSimCore

/// Pending goldens of one folder recorded with other simulator options than a `--record pending`
/// run's: found before the run writes anything, so that it refuses instead of leaving pending
/// goldens of two option sets side by side (each file whole, the folder a mix).
///
/// A pending golden's header lists the options its replay ran with (`"simulator"`, as every
/// result does). The options a command line chooses for every trace are FloatingPanel's
/// (`driveScroll`, `panelHandlerFirst`, `contentInset`, `mirrorImageArithmetic`): a FloatingPanel
/// pending golden conflicts when its list differs from the run's. The other systems record the
/// options of the trace's own `simulator` section, which no run changes, so their pending goldens
/// never conflict here (`GoldenCheck.evaluate` still refuses to overwrite any pending golden whose
/// list differs from the replay's).
public enum PendingGoldenOptions {
    /// A pending golden whose options differ from the run's: its path below the golden folder and
    /// the option names in its header.
    public struct Conflict: Sendable, Equatable {
        public var path: String
        public var recorded: [String]
    }

    /// The pending goldens under `goldenRoot` recorded with other command-line simulator options
    /// than `options`, sorted by path. Unreadable or malformed pending goldens are not conflicts
    /// (`review` and `accept` report them).
    /// - Complexity: one walk of the folder and one header line read per pending golden.
    public static func conflicts(goldenRoot: String, options: SimulationOptions) -> [Conflict] {
        let mine = options.floatingPanel.nonDefaultNames
        var found: [Conflict] = []
        for rel in Files.listing(under: goldenRoot, suffix: ".golden.jsonl" + RecordMode.pendingSuffix).files {
            guard let line = firstLine(of: goldenRoot + "/" + rel),
                let header = try? ResultFile.readHeader(text: line, file: rel),
                header.model == .floatingPanel, header.simulator != mine
            else { continue }
            found.append(Conflict(path: rel, recorded: header.simulator))
        }
        return found
    }

    /// Why a pending run refuses, in one line: how many pending goldens, one of them, their
    /// options and the run's, and what to do.
    public static func refusal(_ conflicts: [Conflict], goldenShown: String, options: SimulationOptions) -> String {
        let first = conflicts[0]
        let count = conflicts.count == 1 ? "1 pending golden" : "\(conflicts.count) pending goldens"
        return
            "\(count) under \(goldenShown) were recorded with \(described(first.recorded)) (e.g. \(Files.join(goldenShown, first.path))); "
            + "this run uses \(described(options.floatingPanel.nonDefaultNames)), and its pending goldens would be mixed with them: "
            + "nothing was checked or written. Review them first (panelsim review, accept or reject), or record with the same options"
    }

    /// `simulator options driveScroll, contentInset`, or `the default simulator options`.
    public static func described(_ names: [String]) -> String {
        names.isEmpty ? "the default simulator options" : "simulator options " + names.joined(separator: ", ")
    }

    /// The file's first line (at most 64 KiB of it), nil when it cannot be read.
    static func firstLine(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 65_536)) ?? Data()
        let bytes = [UInt8](head)
        let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
        return String(validating: bytes[..<end], as: UTF8.self)
    }
}
