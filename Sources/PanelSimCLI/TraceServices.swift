import PanelGolden
import PanelSimCore
import PanelTrace

// The trace-loading, simulation and import API as the commands see it: through `TraceServices`,
// which tests replace. Loading errors stay `TraceError` values (file, line, field) up to the
// command that prints them.

/// A trace that could not be loaded, as the CLI needs it: the kind (for the exit code) and a
/// one-line description (`TraceError.description`).
struct TraceProblem: Error, Equatable {
    enum Kind: Equatable {
        /// Malformed or inconsistent trace: exit 2.
        case invalid
        /// Valid contract, but this revision cannot evaluate it: exit 125.
        case unsupported
        /// Cannot read the file: exit 2.
        case io
    }
    var kind: Kind
    var description: String
}

/// A loaded trace with what result headers need (trace, `"sha256:<hex>"` digest, path).
typealias LoadedTraceInfo = LoadedTrace

/// The CSV importer and trace writer (branch `trace`); nil until available.
struct TraceImporter {
    /// Parses a trace text (here: one header line plus "\n").
    var parse: (_ text: String, _ file: String) throws(TraceProblem) -> Trace
    /// `RealTraceCSV`, `GeteventLog` or `PointerEventLog` `.importTouches(…)` by `format`
    /// (`csv`, `getevent`, `pointer`).
    var importTouches:
        (_ format: String, _ text: String, _ file: String, _ placement: ImportPlacement) throws(TraceProblem) ->
            [TraceSample]
    /// `TraceWriter.write`: the trace file text.
    var write: (_ trace: Trace) -> String
}

/// What the commands need from trace loading, simulation and import, as replaceable values so
/// tests can run the CLI against fakes.
struct TraceServices {
    /// Loads the trace at `path` (resolved); errors name it `displayPath` (as the user spelled it).
    var load: TraceCheckPipeline.Loader
    var simulate: TraceCheckPipeline.Simulator
    var importer: TraceImporter?
    /// Whether `replay` and `check` replay trace files of `StreamingReplay.threshold` bytes or
    /// more streaming, from the file (the live services; fakes load through `load`).
    var streams = false

    /// The check pipeline (load, replay, render, compare) on these services.
    var pipeline: TraceCheckPipeline { TraceCheckPipeline(load: load, simulate: simulate) }

    /// Whether the trace at `path` is replayed streaming (`streams`, and at least the threshold:
    /// `StreamingReplay.threshold`, or `PANELSIM_STREAMING_BYTES` bytes when set, for tests).
    func streams(_ path: String, environment: [String: String]) -> Bool {
        streams(path, threshold: Self.streamingThreshold(environment))
    }

    func streams(_ path: String, threshold: Int) -> Bool {
        streams && StreamingReplay.applies(to: path, threshold: threshold)
    }

    /// `PANELSIM_STREAMING_BYTES` when set, else `StreamingReplay.threshold`.
    static func streamingThreshold(_ environment: [String: String]) -> Int {
        environment["PANELSIM_STREAMING_BYTES"].flatMap { Int($0) } ?? StreamingReplay.threshold
    }

    /// The real loader (`TraceLoader`), simulator (`simulate`) and importer (`RealTraceCSV`,
    /// `TraceWriter`).
    static var live: TraceServices {
        TraceServices(
            load: TraceCheckPipeline.live.load,
            simulate: TraceCheckPipeline.live.simulate,
            importer: TraceImporter(
                parse: { text, file throws(TraceProblem) in
                    do throws(TraceError) { return try TraceLoader.parse(text: text, file: file) } catch {
                        throw TraceProblem(error)
                    }
                },
                importTouches: { format, text, file, placement throws(TraceProblem) in
                    do throws(TraceError) {
                        switch format {
                        case "getevent":
                            return try GeteventLog.importTouches(text: text, file: file, placement: placement)
                        case "pointer":
                            return try PointerEventLog.importTouches(text: text, file: file, placement: placement)
                        default: return try RealTraceCSV.importTouches(csv: text, file: file, placement: placement)
                        }
                    } catch {
                        throw TraceProblem(error)
                    }
                },
                write: { trace in TraceWriter.write(trace) }),
            streams: true)
    }
}

extension TraceProblem {
    /// Maps the loader's error (kind and one-line description).
    init(_ error: TraceError) {
        switch error.kind {
        case .invalid: kind = .invalid
        case .unsupported: kind = .unsupported
        case .io: kind = .io
        }
        description = error.description
    }
}
