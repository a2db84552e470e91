import Foundation
import PanelSimCore
import PanelTrace

/// `replay` and `check` of a trace file too large to hold in memory: the file is checked whole
/// in chunks (`TraceLoader.scan(path:)`: the same errors as `TraceLoader.load(path:)`), then read
/// again as it is replayed (`TraceLoader.sampleFeed(path:)`), and the result's bytes are handed
/// over as the replay produces them (`ResultFile.StreamRenderer`). The bytes are those of
/// `TraceCheckPipeline.replay` for the same file: the same parser, replay loop and renderer.
///
/// Memory holds one chunk of the file (4 MiB), its samples and, for a system that hands its
/// records over as it goes (all four built-in systems), the records of one chunk; a system that
/// does not keeps its records until the end (`PanelSystemConfiguration.simulate(header:feed:options:sink:)`).
public enum StreamingReplay {
    /// Trace files at least this large (bytes) are replayed streaming by `replay` and `check`
    /// (64 MiB: about 10⁶ touch samples, whose in-memory replay peaks near 200 MB); smaller ones
    /// are loaded whole, which is faster.
    public static let threshold = 64 << 20

    /// Whether the file at `path` is at least `threshold` bytes.
    public static func applies(to path: String, threshold: Int = StreamingReplay.threshold) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) >= threshold
    }

    /// Checks the trace at `path` whole (errors name it `shown`).
    /// - Throws: `TraceError` as `TraceLoader.load(path:)`.
    /// - Complexity: two reads of the file; memory O(chunk + header).
    public static func scan(path: String, shown: String) throws(TraceError) -> ScannedTrace {
        do throws(TraceError) {
            return try TraceLoader.scan(path: path)
        } catch {
            var renamed = error
            if renamed.file == path { renamed.file = shown }
            throw renamed
        }
    }

    /// Replays a scanned trace, handing `output` the result file's bytes in order (the header
    /// line first). Returns the replay's warnings (no records) and the result header.
    /// - Throws: `TraceError` when the file changed since it was scanned and no longer loads.
    /// - Complexity: one read of the file and one replay.
    public static func replay(
        _ scanned: ScannedTrace, shown: String, options: SimulationOptions,
        output: ([UInt8]) -> Void
    ) throws(TraceError) -> (header: ResultHeader, result: SimulationResult) {
        let header = ResultHeader(
            replaying: Trace(header: scanned.header, samples: []), traceDigest: scanned.digest, simulation: options)
        var renderer = ResultFile.StreamRenderer(header: header)
        var feed = LintedFeed(base: try TraceLoader.sampleFeed(path: scanned.path))
        defer { feed.base.close() }
        var result = simulate(header: scanned.header, feed: &feed, options: options) { records in
            renderer.append(records)
            output(renderer.take())
        }
        if let warning = feed.lint.warning { result.warnings.append(warning) }
        if var error = feed.base.error {
            if error.file == scanned.path { error.file = shown }
            throw error
        }
        let rest = renderer.take(reserving: 0)
        if !rest.isEmpty { output(rest) }
        return (header, result)
    }
}

/// A sample feed that shows every sample it hands over to a `SampleTimeLint` (the streaming
/// counterpart of `TraceCheckPipeline.replay`'s check of the loaded samples).
private struct LintedFeed<Base: SampleFeed>: SampleFeed {
    var base: Base
    var lint = SampleTimeLint()

    mutating func nextBatch() -> [TraceSample]? {
        guard let batch = base.nextBatch() else { return nil }
        for sample in batch { lint.observe(sample) }
        return batch
    }
}
