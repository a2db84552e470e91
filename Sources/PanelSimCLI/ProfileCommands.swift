import PanelGolden
import PanelSimCore
import PanelTrace

/// `--profile LIBRARY@VERSION` (profiles.md §2.5): the option every replaying command takes.
enum ProfileFlag {
    /// The option, repeatable (at most one per library).
    static var option: OptionSpec {
        let example = TraceProfiles.examples.map { "; e.g. \($0.older)" } ?? ""
        return OptionSpec(
            names: ["--profile"], valueName: "LIBRARY@VERSION",
            help: HelpFormat.wrap("Replay the traces of LIBRARY as VERSION behaved (docs/profiles.md\(example)), replacing their "
                                  + "header's profile; at most one per library. 'panelsim profiles' lists the versions.", width: 72),
            repeatable: true)
    }

    /// The profiles the `--profile` values of `parsed` name, in command-line order.
    /// - Throws: `UsageError` (exit 2) for an unknown library or a refused version (the message of
    ///   profiles.md §2.2 after `--profile VALUE: `), or two values for one library.
    static func profiles(_ parsed: ParsedArguments, command: String) throws(UsageError) -> [TraceProfile] {
        var out: [TraceProfile] = []
        for value in parsed.repeated["--profile"] ?? [] {
            switch TraceProfiles.parse(commandLine: value) {
            case .success(let p):
                if let other = out.first(where: { $0.library == p.library }) {
                    throw UsageError("--profile \(value): \(p.library.rawValue) already has --profile \(other.library.rawValue)@\(other.version) (at most one per library)", command: command)
                }
                out.append(p)
            case .failure(let m):
                throw UsageError("--profile \(value): \(m.text)", command: command)
            }
        }
        return out
    }

    /// The warning of profiles.md §2.5 for each `--profile` whose library none of `models` uses.
    static func unusedWarnings(_ profiles: [TraceProfile], models: Set<PanelModel>) -> [String] {
        profiles.filter { !models.contains($0.library) }.map {
            "warning: --profile \($0.library.rawValue)@\($0.version): no \($0.library.rawValue) trace was checked"
        }
    }
}

/// `panelsim profiles [LIBRARY[@VERSION]]` (profiles.md §2.5): each library's points, the versions
/// each covers and the default; with LIBRARY the switch table; with LIBRARY@VERSION the point the
/// version maps to and every switch value there.
struct ProfilesCommand: PanelCommand {
    static var info: CommandInfo { CommandInfo(
        name: "profiles",
        abstract: "List the version profiles (points, versions, switches) of each library.",
        usage: "panelsim profiles [LIBRARY[@VERSION]]",
        arguments: [("LIBRARY[@VERSION]", "A library (\(TraceProfiles.libraryList)), optionally with a version.")],
        options: [],
        discussion: """
            Without an argument: every library's profile points, the released versions each point
            covers, and the default point (the model a trace without a profile replays). With
            LIBRARY: also the table of switches and gates with their value at every point. With
            LIBRARY@VERSION: the point VERSION maps to (the latest point at or below it) and every
            switch value there. The switches and their sources: docs/profiles.md.

            \(HelpFormat.exitCodes([(0, "listed"), (2, "unknown library or version (the message names the points)")]))
            """) }

    var argument: String?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count <= 1 else {
            throw UsageError("unexpected argument '\(parsed.positionals[1])'", command: "profiles")
        }
        argument = parsed.positionals.first
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {}

    func run(_ context: CommandContext) -> ExitCode {
        guard let argument else {
            for c in TraceProfiles.catalogs { context.stdout.write(Self.points(c)) }
            return .success
        }
        let library = argument.split(separator: "@", maxSplits: 1).first.map(String.init) ?? argument
        guard let catalog = TraceProfiles.catalog(named: library) else {
            context.stderr.line("error: " + TraceProfiles.unknownLibrary(library))
            return .badInput
        }
        guard argument.contains("@") else {
            context.stdout.write(Self.points(catalog) + "\n" + Self.switchTable(catalog))
            return .success
        }
        switch TraceProfiles.parse(commandLine: argument) {
        case .failure(let m):
            context.stderr.line("error: \(argument): \(m.text)")
            return .badInput
        case .success(let p):
            context.stdout.write(Self.pointValues(catalog, p))
            return .success
        }
    }

    /// `lnpopup: default 4.5.6, floor 4.0.0, ceiling 4.5.6.1` then one line per point.
    static func points(_ c: ProfileCatalog) -> String {
        var out = "\(c.library): default \(c.defaultPoint), floor \(c.floor), ceiling \(c.ceiling)\n"
        let width = c.points.map(\.name.count).max() ?? 0
        for p in c.points {
            out += "  " + p.name + String(repeating: " ", count: width - p.name.count) + "  " + p.versions
                + (p.name == c.defaultPoint ? "  (default)" : "") + "\n"
        }
        return out
    }

    /// The switch table: one row per switch and gate, one column per point.
    static func switchTable(_ c: ProfileCatalog) -> String {
        let header = ["switch"] + c.points.map(\.name)
        let rows = c.rows.map { [$0.label] + $0.values }
        var widths = header.map(\.count)
        for r in rows { for (i, cell) in r.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in cell + String(repeating: " ", count: widths[i] - cell.count) }
                .joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        return ([header] + rows).map(line).joined()
    }

    /// `lnpopup@4.5.5 → point 4.5.4` then each switch's value there.
    static func pointValues(_ c: ProfileCatalog, _ p: TraceProfile) -> String {
        guard let i = c.index(of: p.point) else { return "" }
        var out = "\(c.library)@\(p.version) → point \(p.point)" + (p.point == c.defaultPoint ? " (default)" : "") + "\n"
        let width = c.rows.map(\.label.count).max() ?? 0
        for r in c.rows { out += "  " + r.label + String(repeating: " ", count: width - r.label.count) + "  " + r.values[i] + "\n" }
        return out
    }
}

extension String {
    /// The string without trailing spaces.
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
