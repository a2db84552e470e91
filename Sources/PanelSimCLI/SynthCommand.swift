import PanelGolden
import PanelSimCore
import PanelTrace

/// `panelsim synth --template HEADER.json [--rate HZ] [--jitter PT] [--seed N] [-o OUT] (SCRIPT | --file SCRIPT_FILE)`:
/// write a trace from a gesture script (`GestureScript`).
struct SynthCommand: PanelCommand {
    static let info = CommandInfo(
        name: "synth",
        abstract: "Write a trace from a short gesture script.",
        usage:
            "panelsim synth --template HEADER.json [--rate HZ] [--jitter PT] [--seed N] [-o OUT] (SCRIPT | --file SCRIPT_FILE)",
        arguments: [
            (
                "SCRIPT",
                "Steps separated by ';', e.g.\n\"down 195,700; move 195,400 300ms ease-out; hold 50ms;\nup velocity 0,-1500; call 0.8 move full\"."
            )
        ],
        options: [
            OptionSpec(
                names: ["--template"], valueName: "HEADER.json",
                help:
                    "A file whose first line is a trace header\n(docs/FORMATS.md §1.1; e.g. traces/real/template-d1-b3-half.json)."
            ),
            OptionSpec(
                names: ["--rate"], valueName: "HZ", help: "Touch samples per second while moving (default 120; 1…1000)."
            ),
            OptionSpec(
                names: ["--jitter"], valueName: "PT", help: "Uniform noise of ±PT on each moved sample (default 0)."),
            OptionSpec(
                names: ["--seed"], valueName: "N", help: "Seed of the jitter generator, SplitMix64 (default 1)."),
            OptionSpec(
                names: ["--file"], valueName: "SCRIPT_FILE",
                help: "Read the script from a file (steps on lines or\nseparated by ';'; '#' comments)."),
            OptionSpec(
                names: ["-o", "--output"], valueName: "OUT",
                help: "Write the trace to OUT (atomically) instead of standard output."),
        ],
        discussion: """
            STEPS (one finger; the clock starts at 0 s):
              down X,Y                    touch began at X,Y (pt)
              move X,Y DURATION [EASING]  moved samples at the rate; EASING: linear (default),
                                          ease-in, ease-out, ease-in-out
              hold DURATION, wait DURATION  time passes, no samples
              up [velocity VX,VY]         touch ended, with a recorded velocity (pt/s) if given
              cancel                      touch cancelled
              flick X,Y DURATION [EASING] move, then up with the velocity at the end of the motion
              tap X,Y [DURATION]          down, hold (default 50ms), up
              call [TIME] move STATE [instant] | show [instant] | hide [instant] | remove | tapBackdrop
                                          (FloatingPanel templates; other systems: touches only)
              at TIME                     set the clock (never backwards)
              end [TIME]                  the end sample
            DURATION is 300ms or 0.3s; TIME is seconds (0.8) or 800ms. The output is a valid trace
            (it is loaded back before it is written) and the same inputs give the same bytes. With
            --jitter the seed is printed on standard error. A script may run to 100000000 s and
            write at most 1000000 samples (a move of D s writes D x HZ); an error names the script
            line and step (SCRIPT:LINE: STEP: "the step": what was expected).

            \(HelpFormat.exitCodes([(0, "trace written"), HelpFormat.usageOrBadInput, HelpFormat.otherVersion]))
            """)

    var script: String?
    var scriptFile: String?
    var template: String
    var rate = 120
    var jitter = 0.0
    var seed: UInt64 = 1
    var output: String?
    let parsed: ParsedArguments

    init(_ parsed: ParsedArguments) throws(UsageError) {
        self.parsed = parsed
        guard parsed.positionals.count <= 1 else {
            throw UsageError(
                "unexpected argument '\(parsed.positionals[1])' (quote the script as one argument)", command: "synth")
        }
        script = parsed.positionals.first
        scriptFile = parsed.values["--file"]
        template = parsed.values["--template"] ?? ""
        output = parsed.values["-o"]
    }

    mutating func validate(_ context: CommandContext) throws(UsageError) {
        guard !template.isEmpty else { throw UsageError("missing --template HEADER.json", command: "synth") }
        guard (script == nil) != (scriptFile == nil) else {
            throw UsageError(
                script == nil ? "missing the SCRIPT (or --file SCRIPT_FILE)" : "give either SCRIPT or --file, not both",
                command: "synth")
        }
        if let text = parsed.values["--rate"] {
            guard let r = Int(text), (1...1000).contains(r) else {
                throw UsageError("--rate must be an integer in 1…1000 (Hz), got '\(text)'", command: "synth")
            }
            rate = r
        }
        if let j = try parsed.points("--jitter", command: "synth") { jitter = j }
        if let s = try parsed.seed(command: "synth") { seed = s }
        if let output, output.isEmpty { throw UsageError("empty output path", command: "synth") }
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let importer = context.services.importer else {
            context.stderr.line("error: 'panelsim synth' needs the trace writer, which this build lacks")
            return .badInput
        }
        var text = script ?? ""
        var scriptName = "SCRIPT"
        if let scriptFile {
            scriptName = scriptFile
            switch Files.read(context.resolve(scriptFile), shown: scriptFile) {
            case .success(let t): text = t
            case .failure(let f):
                context.stderr.line("error: \(f.message)")
                return .badInput
            }
        }
        do throws(TraceProblem) {
            let steps: [ScriptStep]
            do throws(TraceError) { steps = try GestureScript.parseLocated(text, file: scriptName) } catch {
                throw TraceProblem(error)
            }
            var settings = "--rate \(rate)"
            if jitter > 0 {
                settings += " --jitter \(CanonicalNumber.format(jitter)) --seed \(seed)"
                context.stderr.line("seed: \(seed)")
            }
            let oneLine = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == ";" })
                .map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }
                .map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ") }
                .filter { !$0.isEmpty }.joined(separator: "; ")
            var trace = try ImportCommand.readTemplate(
                template, context, importer, defaultName: "synth",
                origin: "panelsim synth \(settings) \"\(oneLine)\"", kind: "synthetic",
                provenance: "Synthesized by `panelsim synth`: \(oneLine).")
            // The script's calls are FloatingPanel calls: another system's template takes touches only.
            let floatingPanel = trace.header.system as? FloatingPanelHeader
            if floatingPanel == nil, let call = steps.first(where: { if case .call = $0.step { true } else { false } }) {
                throw TraceProblem(
                    TraceError(
                        file: scriptName, line: call.line, field: "call",
                        message: "\"\(call.text)\": a script's calls are FloatingPanel calls, and the template is a "
                            + "\(trace.header.model.rawValue) trace; write its calls into the trace file instead "
                            + "(docs/FORMATS.md)"))
            }
            let synth = GestureSynthesizer(rate: rate, jitter: jitter, seed: seed)
            var samples: [TraceSample]
            do throws(TraceError) { samples = try synth.samples(script: steps, file: scriptName) } catch {
                throw TraceProblem(error)
            }
            // Custom states named in calls take their order from the template.
            for i in samples.indices {
                if case .call(.move(let to, let animated)) = samples[i].kind,
                    let state = floatingPanel?.panel.states.first(where: { $0.name == to.name })
                {
                    samples[i].kind = .call(.move(to: state, animated: animated))
                }
            }
            trace.samples = samples
            let written = importer.write(trace)
            _ = try importer.parse(written, output ?? "synthesized trace")
            return ImportCommand.emit(written, to: output, context)
        } catch {
            context.stderr.line(error.description)
            return error.kind == .unsupported ? .unsupported : .badInput
        }
    }
}
