import PanelGolden
import PanelSimCore
import PanelTrace

/// `panelsim import csv FILE --points-per-unit K --template HEADER.json [-o OUT] [--swap-axes]`:
/// turn a real touch recording (`t_ms,phase,x_px,y_px`, real-traces/README.md) into a trace.
struct ImportCommand: PanelCommand {
    static let info = CommandInfo(
        name: "import",
        abstract: "Convert a touch recording from another format into a trace.",
        usage: "panelsim import csv FILE --points-per-unit K --template HEADER.json [-o OUT] [--swap-axes]",
        arguments: [("csv", "The input format (only csv: t_ms,phase,x_px,y_px)."),
                    ("FILE", "The recording to import.")],
        options: [
            OptionSpec(names: ["--points-per-unit"], valueName: "K",
                       help: "Points per recorded unit (> 0): 1 for Flutter logical pixels,\n1/displayScale for AOSP physical pixels."),
            OptionSpec(names: ["--template"], valueName: "HEADER.json",
                       help: "A file whose first line is a trace header (trace-format.md §1.1)."),
            OptionSpec(names: ["-o", "--output"], valueName: "OUT",
                       help: "Write the trace to OUT (atomically) instead of standard output."),
            OptionSpec(names: ["--swap-axes"], valueName: nil,
                       help: "Swap the recording's x and y before placing it."),
        ],
        discussion: """
            Placement (floatingpanel-core.md §9 O18): the recording's first (down) row goes to
            x = container width / 2, y = location of the template's initial state + 100 pt for a
            bottom panel (top: − 100 pt; left/right: the same on the x axis, y = container
            height / 2); the gesture keeps its relative motion and timing; up becomes ended
            without a velocity.

            \(HelpFormat.exitCodes)
            """)

    var file: String
    var pointsPerUnit: Double = 1
    var pointsPerUnitText: String?
    var template: String?
    var output: String?
    var swapAxes: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard let format = parsed.positionals.first else {
            throw UsageError("missing the input format (csv)", command: "import")
        }
        guard format == "csv" else {
            throw UsageError("unknown import format '\(format)' (supported: csv)", command: "import")
        }
        guard parsed.positionals.count >= 2 else { throw UsageError("missing FILE", command: "import") }
        guard parsed.positionals.count == 2 else {
            throw UsageError("unexpected argument '\(parsed.positionals[2])'", command: "import")
        }
        file = parsed.positionals[1]
        pointsPerUnitText = parsed.values["--points-per-unit"]
        template = parsed.values["--template"]
        output = parsed.values["-o"]
        swapAxes = parsed.flags.contains("--swap-axes")
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        guard let text = pointsPerUnitText else { throw UsageError("missing --points-per-unit K", command: "import") }
        guard let k = Self.parsePositive(text) else {
            throw UsageError("--points-per-unit must be a positive number or a fraction like 1/3, got '\(text)'", command: "import")
        }
        pointsPerUnit = k
        guard let template, !template.isEmpty else { throw UsageError("missing --template HEADER.json", command: "import") }
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

    /// Where the recording's down row is placed (§9 O18).
    static func origin(for header: TraceHeader) -> Point {
        let env = header.environment
        let position = LayoutGeometry(panel: header.panel, environment: env).position(of: header.panel.initialState)
        switch header.panel.position {
        case .bottom: return Point(x: env.container.width / 2, y: position + 100)
        case .top: return Point(x: env.container.width / 2, y: position - 100)
        case .right: return Point(x: position + 100, y: env.container.height / 2)
        case .left: return Point(x: position - 100, y: env.container.height / 2)
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let importer = context.services.importer else {
            context.stderr.line("error: 'panelsim import csv' is not implemented yet in this build (RealTraceCSV.importTouches has not landed)")
            return .badInput
        }
        let templatePath = context.resolve(template!)
        let templateText: String
        switch Files.read(templatePath) {
        case .success(let t): templateText = t
        case .failure(let f): context.stderr.line("error: \(f.message)"); return .badInput
        }
        guard let headerLine = templateText.split(separator: "\n").first(where: {
            !$0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
        }) else {
            context.stderr.line("error: \(template!): empty template (expected a trace header line)")
            return .badInput
        }
        let csvPath = context.resolve(file)
        let csv: String
        switch Files.read(csvPath) {
        case .success(let t): csv = t
        case .failure(let f): context.stderr.line("error: \(f.message)"); return .badInput
        }
        do {
            var trace = try importer.parse(String(headerLine) + "\n", template!)
            // A template without its own name or source describes the recording it imports.
            if case .object(let object)? = try? JSON.parse(String(headerLine)) {
                if object["name"] == nil { trace.header.name = Self.stem(file) }
                if object["source"] == nil {
                    trace.header.source.kind = "recorded"
                    trace.header.source.origin = "imported from \(Self.lastComponent(file))"
                }
            }
            let samples = try importer.importTouches(csv, file, pointsPerUnit, Self.origin(for: trace.header), swapAxes)
            trace.samples += samples
            let text = importer.write(trace)
            if let output {
                do {
                    try AtomicFile.write(text, to: context.resolve(output))
                } catch {
                    context.stderr.line("error: \(error.description)")
                    return .badInput
                }
            } else {
                context.stdout.write(text)
            }
            return .success
        } catch {
            context.stderr.line(error.description)
            return error.kind == .unsupported ? .unsupported : .badInput
        }
    }
}
