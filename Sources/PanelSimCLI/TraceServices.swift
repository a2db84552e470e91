import PanelSimCore
import PanelTrace

// The only file of the CLI that names the trace-loading API of branch `trace`
// (`TraceLoader`, `TraceError`, `RealTraceCSV`, `TraceWriter`). Until that branch is merged, the
// live services below report "not available"; after the merge, `live` forwards to it (see the
// commented bodies, which are the intended code).

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

/// A loaded trace with what result headers need.
struct LoadedTraceInfo {
    var trace: Trace
    /// `"sha256:<hex>"` of the file's bytes.
    var digest: String
    var path: String
}

/// The CSV importer and trace writer (branch `trace`); nil until available.
struct TraceImporter {
    /// Parses a trace text (here: one header line plus "\n").
    var parse: (_ text: String, _ file: String) throws(TraceProblem) -> Trace
    /// `RealTraceCSV.importTouches(csv:file:pointsPerUnit:origin:swapAxes:)`.
    var importTouches: (_ csv: String, _ file: String, _ pointsPerUnit: Double, _ origin: Point, _ swapAxes: Bool) throws(TraceProblem) -> [TraceSample]
    /// `TraceWriter.write`: the trace file text.
    var write: (_ trace: Trace) -> String
}

/// What the commands need from trace loading, simulation and import, as replaceable values so
/// tests can run the CLI against fakes.
struct TraceServices {
    var load: (_ path: String) throws(TraceProblem) -> LoadedTraceInfo
    var simulate: (_ trace: Trace) -> SimulationResult
    var importer: TraceImporter?

    /// The real loader, simulator and importer.
    static var live: TraceServices {
        TraceServices(
            load: { path throws(TraceProblem) in
                // After merging `trace`:
                // do {
                //     let loaded = try TraceLoader.load(path: path)
                //     return LoadedTraceInfo(trace: loaded.trace, digest: loaded.digest, path: loaded.path)
                // } catch { throw TraceProblem(error) }
                throw TraceProblem(kind: .io, description: "\(path): trace loading is not available in this build (TraceLoader not merged yet)")
            },
            simulate: { trace in PanelSimCore.simulate(trace) },
            importer: nil)
    }
}
