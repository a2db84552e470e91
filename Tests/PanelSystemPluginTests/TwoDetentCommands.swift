import PanelInvariants
import PanelSimCLI
import PanelSimCore
import PanelTrace

/// The command description of `TwoDetentSheet`: its names, a bench core workload and its soak.
struct TwoDetentCommands: SystemCommandDescription {
    var model: PanelModel { TwoDetentSheet.model }
    var name: String { "TwoDetent" }
    var libraryName: String { "a test target's two-detent sheet" }
    var soak: (any SystemSoak)? { TwoDetentSoak() }
    var benchCoreWorkload: BenchCoreWorkload? {
        BenchCoreWorkload(label: "drag+snap", jsonKey: "twoDetent", trace: { TwoDetentSoak.text(drags: $0, seed: 1) })
    }
}

/// The soak of `TwoDetentSheet`. Its trace of a seed: detents small 500 and large 100 to 300 pt,
/// a snap of 0.1–0.4 s, and 1–4 upward or downward drags of 10 moves 20 ms apart from inside the
/// sheet, each 1 s after the last. Its rule TD1 (the sheet's spec in `TwoDetentSheet`): once the
/// finger is up and the snap has had its duration, the sheet rests at a detent, so the replay's
/// last frame is `small` or `large` at that detent's location.
struct TwoDetentSoak: SystemSoak {
    var model: PanelModel { TwoDetentSheet.model }
    var rules: [(id: String, source: String)] { [("TD1", "TwoDetentSheet")] }

    /// The trace text of `drags` drags drawn from `seed` (a 64-bit linear congruential generator,
    /// Knuth's MMIX constants).
    static func text(drags: Int, seed: UInt64) -> String {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let large = 100 + 50 * next(5), duration = [0.1, 0.2, 0.25, 0.4][next(4)]
        var lines = [#"{"format": "panelsim-trace", "version": 1, "model": "twodetent", "name": "soak-\#(seed)", "#
            + #""environment": {"container": {"width": 390, "height": 844}, "displayScale": 3, "frameRate": 60}, "#
            + #""twoDetent": {"small": 500, "large": \#(large), "snapDuration": \#(duration)}}"#]
        /// `ms` milliseconds as the seconds a sample's `t` writes (`1.020`).
        func seconds(_ ms: Int) -> String {
            let frac = String(ms % 1000)
            return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
        }
        var location = 500
        for d in 0..<drags {
            let t = 1000 * d, step = (next(2) == 0 ? -1 : 1) * (5 + next(30))
            var y = location + 20
            lines.append(#"{"t": \#(seconds(t)), "touch": "began", "x": 195, "y": \#(y)}"#)
            for k in 1...10 {
                y += step
                lines.append(#"{"t": \#(seconds(t + 20 * k)), "touch": "moved", "x": 195, "y": \#(y)}"#)
            }
            lines.append(#"{"t": \#(seconds(t + 220)), "touch": "ended", "x": 195, "y": \#(y)}"#)
            let dragged = min(500, max(large, location + 10 * step))
            location = 2 * dragged <= 500 + large ? large : 500
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func trace(seed: UInt64) -> Trace {
        let text = Self.text(drags: 1 + Int(seed % 4), seed: seed)
        do { return try TraceLoader.parse(text: text, file: "soak-\(seed).jsonl") } catch {
            var header = TraceHeader(name: "soak-\(seed)", environment: PanelEnvironment(container: Size(width: 390, height: 844)),
                                     system: TwoDetentSheet(small: 500, large: 100, snapDuration: 0.25))
            header.description = "GENERATOR ERROR: \(error)"
            return Trace(header: header, samples: [])
        }
    }

    func check(_ trace: Trace, result: SimulationResult) -> SoakCheck {
        var out = SoakCheck()
        let frames = result.records.compactMap { r -> SystemFrame? in if case .systemFrame(let f) = r { return f } else { return nil } }
        out.counts.frames = frames.count
        out.counts.records = result.records.count
        guard let sheet = trace.header.system as? TwoDetentSheet, let last = frames.last else { return out }
        out.counts.count("TD1")
        let atRest = (last.state == "small" && last.location == sheet.small) || (last.state == "large" && last.location == sheet.large)
        if !atRest {
            out.violations.append(InvariantViolation(rule: "TD1", variant: model.rawValue,
                                                     message: "the last frame is \(last.state) at \(last.location)"))
        }
        return out
    }
}
