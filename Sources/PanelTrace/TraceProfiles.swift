import PanelSimCore

/// Reading and applying version profiles (profiles.md §2): the header's `profile` member, the
/// command line's `LIBRARY@VERSION`, and the gates. Each library's points, switches and gates are
/// its `SystemTraceFormat.profiles` (declared in the system's core folder); this file only looks
/// them up.
public enum TraceProfiles {
    /// The catalogs of the registered formats that have profiles, in registration order.
    public static var catalogs: [ProfileCatalog] { TraceFormats.registered.compactMap(\.profiles) }

    /// The catalog of `library` (a header's `model` value), nil when no registered format has one.
    public static func catalog(for library: String) -> ProfileCatalog? {
        catalogs.first { $0.library.rawValue == library }
    }

    /// The catalog a command-line library name means: `name` compared with the libraries' names
    /// ignoring ASCII case (`FloatingPanel` is `floatingpanel`), as `--profile`, `profiles` and
    /// `upgrade-diff` read `LIBRARY@VERSION`. Nil when none matches. A trace header's
    /// `profile.library` is exact (`catalog(for:)`).
    /// - Complexity: O(libraries × name length).
    public static func catalog(named name: String) -> ProfileCatalog? {
        catalog(for: name) ?? catalogs.first { $0.library.rawValue.lowercased() == name.lowercased() }
    }

    /// `unknown library "NAME"; expected one of …`, with `did you mean "…"` when `name` is a
    /// library's name in other letter case.
    public static func unknownLibrary(_ name: String) -> String {
        let hint = catalogs.first { $0.library.rawValue.lowercased() == name.lowercased() }
            .map { " (did you mean \"\($0.library.rawValue)\"? library names are lower case)" } ?? ""
        return "unknown library \"\(name)\"\(hint); expected one of \(libraryList)"
    }

    /// The library names that have profiles, as messages list them.
    public static var libraryList: String { catalogs.map(\.library.rawValue).joined(separator: ", ") }

    /// Two command-line values naming versions of one library, for messages and help texts: of the
    /// first registered catalog with two points or more, the point before its default point and
    /// the default point (the two after it when the default is the first); nil when no catalog has
    /// two points.
    public static var examples: (older: String, newer: String)? {
        guard let c = catalogs.first(where: { $0.points.count > 1 }) else { return nil }
        let d = c.index(of: c.defaultPoint) ?? c.points.count - 1
        let (a, b) = d > 0 ? (d - 1, d) : (0, 1)
        return ("\(c.library.rawValue)@\(c.points[a].name)", "\(c.library.rawValue)@\(c.points[b].name)")
    }

    /// The profile a command-line `LIBRARY@VERSION` names; LIBRARY in any letter case
    /// (`catalog(named:)`).
    /// - Returns: the profile, or the message of profiles.md §2.2 (without the `--profile …: `
    ///   prefix): an unknown library names the libraries, a refused version the library's points.
    public static func parse(commandLine text: String) -> Result<TraceProfile, ProfileMessage> {
        guard let at = text.firstIndex(of: "@") else {
            let example = examples.map { " (e.g. \($0.older))" } ?? ""
            return .failure(ProfileMessage("expected LIBRARY@VERSION\(example), libraries \(libraryList)"))
        }
        let library = String(text[..<at]), version = String(text[text.index(after: at)...])
        guard let catalog = catalog(named: library) else {
            return .failure(ProfileMessage(unknownLibrary(library)))
        }
        return catalog.profile(version: version)
    }

    /// Replaces the profile of `loaded`'s replay as `options` say (its trace's header is unchanged:
    /// digests describe the file, profiles.md §2.1) and checks the gates of the profile the replay
    /// will use.
    /// - Throws: the gate's `TraceError` (file as in `loaded.path`, the line and field that use
    ///   the feature).
    public static func checkGates(_ loaded: LoadedTrace, options: SimulationOptions) throws(TraceError) {
        guard let profile = options.profile(for: loaded.trace.header.model) else { return }
        try checkGates(loaded.trace, profile: profile, file: loaded.path)
    }

    /// Refuses a trace that uses a feature `profile` lacks (profiles.md §2.3).
    /// - Throws: `TraceError` naming `file`, the line (1 for the header), the field and the version
    ///   that introduced the feature.
    /// - Complexity: O(samples) for the gates that look at calls.
    public static func checkGates(_ trace: Trace, profile: TraceProfile?, file: String) throws(TraceError) {
        guard let profile, let catalog = catalog(for: profile.library.rawValue),
              let v = catalog.gateViolation(in: trace, profile: profile) else { return }
        throw TraceError(file: file, line: v.line, field: v.field, message: v.message)
    }
}

extension TraceLoader {
    /// The header's `profile` value (profiles.md §2.1): an object with exactly the string members
    /// `library` (a library with profiles, equal to the trace's `model`) and `version` (mapped to
    /// its point).
    /// - Throws: `TraceError` naming `profile`, `profile.library` or `profile.version`.
    static func parseProfile(_ v: JSONValue, model: PanelModel, r: FieldReader) throws(TraceError) -> TraceProfile {
        let o = try r.object(v, "profile")
        try r.checkKeys(o, "profile", ["library", "version"])
        let library = try r.string(try r.required(o, "library", "profile", "a library name (\(TraceProfiles.libraryList))"), "profile.library")
        let version = try r.string(try r.required(o, "version", "profile", "a released version string"), "profile.version")
        guard let catalog = TraceProfiles.catalog(for: library) else {
            throw r.error("profile.library", TraceProfiles.unknownLibrary(library))
        }
        guard catalog.library == model else {
            throw r.error("profile.library", "\"\(library)\" does not match the trace's model \"\(model.rawValue)\" (a profile names the trace's own library)")
        }
        switch catalog.profile(version: version) {
        case .success(let p): return p
        case .failure(let m): throw r.error("profile.version", m.text)
        }
    }
}
