import PanelGolden
import PanelSimCore
import PanelTrace

/// `panelsim import csv|getevent|pointer FILE [--points-per-unit K] --template HEADER.json [-o OUT]
/// [--swap-axes] [--flip-x] [--flip-y]`: turn a touch recording into a trace (the real-traces CSV
/// schema `t_ms,phase,x_px,y_px`, an Android `getevent -lt` log, or a JSON-lines W3C Pointer
/// Events log).
struct ImportCommand: PanelCommand {
    static let info = CommandInfo(
        name: "import",
        abstract: "Convert a touch recording from another format into a trace.",
        usage:
            "panelsim import csv|getevent|pointer|axis-scroll FILE [--points-per-unit K] --template HEADER.json [-o OUT] [--swap-axes] [--flip-x] [--flip-y]",
        arguments: [
            (
                "FORMAT",
                "csv: t_ms,phase,x_px,y_px rows (docs/FORMATS.md §4);\ngetevent: 'adb shell getevent -lt' output (multi-touch protocol B);\npointer: JSON lines of W3C pointer events (pointerId, type,\nclientX, clientY, timeStamp in ms);\naxis-scroll: t_ms,phase,scroll_delta rows of relative scroll steps,\nimported as `scroll` samples of the template's scroll view."
            ),
            ("FILE", "The recording to import."),
        ],
        options: [
            OptionSpec(
                names: ["--points-per-unit"], valueName: "K",
                help:
                    "Points per recorded unit (> 0): 1 for Flutter logical pixels,\n1/displayScale for device pixels (csv, getevent: required;\npointer: default 1, CSS px = pt)."
            ),
            OptionSpec(
                names: ["--template"], valueName: "HEADER.json",
                help:
                    "A file whose first line is a trace header\n(docs/FORMATS.md §1.1; e.g. traces/real/template-d1-b3-half.json)."
            ),
            OptionSpec(
                names: ["-o", "--output"], valueName: "OUT",
                help: "Write the trace to OUT (atomically) instead of standard output."),
            OptionSpec(
                names: ["--swap-axes"], valueName: nil,
                help: "Swap the recording's x and y before placing it."),
            OptionSpec(names: ["--flip-x"], valueName: nil, help: "Negate the horizontal motion (after --swap-axes)."),
            OptionSpec(names: ["--flip-y"], valueName: nil, help: "Negate the vertical motion (after --swap-axes)."),
        ],
        discussion: """
            Placement: the recording's first (down) row goes to
            x = container width / 2, y = location of the template's initial state + 100 pt for a
            bottom panel (top: − 100 pt; left/right: the same on the x axis, y = container
            height / 2); the gesture keeps its relative motion and timing; up becomes ended
            without a velocity. getevent and pointer logs may hold several fingers: a contact
            that goes down takes the lowest finger id not in use (finger 0 drives the panel), and
            all contacts move relative to the first one's start. Lines that cannot be read are
            reported as FILE:LINE: FIELD: what was expected.

            \(HelpFormat.exitCodes([(0, "trace written"), HelpFormat.usageOrBadInput, HelpFormat.otherVersion]))
            """)

    static let formats = ["csv", "getevent", "pointer", "axis-scroll"]

    var format: String
    var file: String
    var pointsPerUnit: Double = 1
    var pointsPerUnitText: String?
    var template: String?
    var output: String?
    var swapAxes: Bool
    var flipX: Bool
    var flipY: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard let format = parsed.positionals.first else {
            throw UsageError("missing the input format (csv, getevent, pointer or axis-scroll)", command: "import")
        }
        guard Self.formats.contains(format) else {
            throw UsageError(
                "unknown import format '\(format)' (supported: csv, getevent, pointer, axis-scroll)", command: "import")
        }
        self.format = format
        guard parsed.positionals.count >= 2 else { throw UsageError("missing FILE", command: "import") }
        guard parsed.positionals.count == 2 else {
            throw UsageError("unexpected argument '\(parsed.positionals[2])'", command: "import")
        }
        file = parsed.positionals[1]
        pointsPerUnitText = parsed.values["--points-per-unit"]
        template = parsed.values["--template"]
        output = parsed.values["-o"]
        swapAxes = parsed.flags.contains("--swap-axes")
        flipX = parsed.flags.contains("--flip-x")
        flipY = parsed.flags.contains("--flip-y")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        if let text = pointsPerUnitText {
            guard let k = Self.parsePositive(text) else {
                throw UsageError(
                    "--points-per-unit must be a positive number or a fraction like 1/3, got '\(text)'",
                    command: "import")
            }
            pointsPerUnit = k
        } else if format != "pointer" {
            throw UsageError("missing --points-per-unit K", command: "import")
        }
        guard let template, !template.isEmpty else {
            throw UsageError("missing --template HEADER.json", command: "import")
        }
        if let output, output.isEmpty { throw UsageError("empty output path", command: "import") }
    }

    /// A positive finite number, or `a/b` of two positive numbers.
    static func parsePositive(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        switch parts.count {
        case 1: value = Double(parts[0])
        case 2:
            guard let a = Double(parts[0]), let b = Double(parts[1]), b != 0 else { return nil }
            value = a / b
        default: value = nil
        }
        guard let v = value, v.isFinite, v > 0 else { return nil }
        return v
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Last path component without its extension.
    static func stem(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Where the recording's down row is placed (§9 O18): ``ImportPlacement/origin(for:)``.
    static func origin(for header: TraceHeader) -> Point { ImportPlacement.origin(for: header) }

    func run(_ context: CommandContext) -> ExitCode {
        guard let importer = context.services.importer else {
            context.stderr.line(
                "error: 'panelsim import' is not implemented yet in this build (the importers have not landed)")
            return .badInput
        }
        let inputPath = context.resolve(file)
        let input: String
        switch Files.read(inputPath, shown: file) {
        case .success(let t): input = t
        case .failure(let f):
            context.stderr.line("error: \(f.message)")
            return .badInput
        }
        do {
            var trace = try Self.readTemplate(
                template!, context, importer, defaultName: Self.stem(file),
                origin: "imported from \(Self.lastComponent(file))", kind: "recorded",
                provenance:
                    "Imported by `panelsim import \(format)` from \(Self.lastComponent(file)) (\(CanonicalNumber.format(pointsPerUnit)) pt per unit)."
            )
            if format == "axis-scroll" {
                // Relative scroll steps become `scroll` samples of the template's scroll view.
                guard let sv = trace.header.scrollView else {
                    context.stderr.line("error: \(template!): axis-scroll import needs a template with a scrollView")
                    return .badInput
                }
                do {
                    trace.samples += try AxisScrollCSV.importScroll(
                        csv: input, file: file, pointsPerUnit: pointsPerUnit,
                        start: sv.contentOffset, vertical: trace.header.floatingPanel?.panel.position.isVertical ?? true
                    )
                } catch {
                    context.stderr.line(error.description)
                    return .badInput
                }
                return try Self.emit(Self.checkedText(trace, importer, file), to: output, context)
            }
            let placement = ImportPlacement(
                origin: Self.origin(for: trace.header), pointsPerUnit: pointsPerUnit,
                swapAxes: swapAxes, flipX: flipX, flipY: flipY)
            trace.samples += try importer.importTouches(format, input, file, placement)
            return try Self.emit(Self.checkedText(trace, importer, file), to: output, context)
        } catch {
            context.stderr.line(error.description)
            return error.kind == .unsupported ? .unsupported : .badInput
        }
    }

    /// The template's header as a trace without samples. A template without its own `name` or
    /// `source` gets `defaultName` and a source of `kind` with `origin`. The description always
    /// starts with `provenance` (how this trace was made), followed by the template's own
    /// description after "Template: ", so a template written for one tool never mislabels another's output.
    /// - Throws: `TraceProblem` for an unreadable, empty or invalid template.
    static func readTemplate(
        _ template: String, _ context: CommandContext, _ importer: TraceImporter,
        defaultName: String, origin: String, kind: String,
        provenance: String
    ) throws(TraceProblem) -> Trace {
        let templateText: String
        switch Files.read(context.resolve(template), shown: template) {
        case .success(let t): templateText = t
        case .failure(let f): throw TraceProblem(kind: .io, description: "error: \(f.message) (the --template file)")
        }
        guard
            let headerLine = templateText.split(separator: "\n").first(where: {
                !$0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
            })
        else {
            throw TraceProblem(
                kind: .invalid, description: "error: \(template): empty template (expected a trace header line)")
        }
        var trace: Trace
        do throws(TraceProblem) {
            trace = try importer.parse(String(headerLine) + "\n", template)
        } catch {
            // Say which file this is: the template, whose first line must be a trace header.
            throw TraceProblem(
                kind: error.kind,
                description: error.description
                    + " (the --template file: expected a trace header line, {\"format\": \"panelsim-trace\", \"version\": 1, …})"
            )
        }
        let own = trace.header.description
        trace.header.description = own.isEmpty ? provenance : provenance + " Template: " + own
        if case .object(let object)? = try? JSON.parse(String(headerLine)) {
            if object["name"] == nil { trace.header.name = defaultName }
            if object["source"] == nil {
                trace.header.source.kind = kind
                trace.header.source.origin = origin
            }
        }
        return trace
    }

    /// The trace's file text, loaded back before anything is written: an import that succeeds
    /// always loads. The importers refuse at the input line whatever the loader would refuse, so
    /// this check failing is a bug; it is reported (exit 2) instead of writing a trace that
    /// `replay` would refuse.
    /// - Throws: `TraceProblem` naming the recording `file` and what the loader refused.
    /// - Complexity: O(size of the trace).
    static func checkedText(_ trace: Trace, _ importer: TraceImporter, _ file: String) throws(TraceProblem) -> String {
        let text = importer.write(trace)
        do {
            _ = try importer.parse(text, "imported trace")
        } catch {
            throw TraceProblem(
                kind: .invalid,
                description: "\(file): the imported trace would not load (please report this): \(error.description)")
        }
        return text
    }

    /// Writes `text` to `output` (atomically) or standard output.
    static func emit(_ text: String, to output: String?, _ context: CommandContext) -> ExitCode {
        guard let output else {
            context.stdout.write(text)
            return .success
        }
        do {
            try AtomicFile.write(text, to: context.resolve(output), shownAs: output)
        } catch {
            context.stderr.line("error: \(error.description)")
            return .badInput
        }
        context.stderr.line("wrote \(output)")
        return .success
    }
}
