import PanelSimCore
import PanelTrace

/// Deterministic generator of the benchmark's synthetic traces (trace-format.md §1 text).
///
/// Everything is a pure function of the seed, so every run (and every machine) benchmarks the same
/// bytes. The traces are valid for `TraceLoader` and exercise what the repository corpus does:
/// bottom, top, left and right panels, 60 and 120 Hz, display scales 2 and 3, the four velocity
/// sources, drags with finger noise released with and without a recorded velocity, cancelled
/// touches, animated and immediate programmatic moves, hide/show and removals.
enum BenchCorpus {

    /// The project's seeded generator (`SplitMix64`, PanelTrace) with the draws the corpus needs.
    struct Random {
        var generator: SplitMix64
        init(seed: UInt64) { generator = SplitMix64(seed: seed) }
        mutating func next() -> UInt64 { generator.next() }
        /// Uniform in [0, 1).
        mutating func unit() -> Double { generator.nextUnit() }
        /// Uniform in lo...hi.
        mutating func range(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }
        /// Uniform integer in 0..<n.
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func chance(_ p: Double) -> Bool { unit() < p }
    }

    /// A layout family: the header text pieces and the anchor locations it implies (pt).
    struct Layout {
        var position: PanelPosition
        var container: (w: Double, h: Double)
        var safeArea: (top: Double, left: Double, bottom: Double, right: Double)
        var anchorsJSON: String
        /// Surface location of each state at display scale 3 and 2 (all are whole numbers here).
        var locations: [String: Double]
    }

    static let layouts: [Layout] = [
        Layout(position: .bottom, container: (390, 844), safeArea: (47, 0, 34, 0),
               anchorsJSON: #"{"full": {"absoluteInset": 53, "edge": "top", "referenceGuide": "safeArea"}, "half": {"absoluteInset": 388, "edge": "bottom", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "bottom", "referenceGuide": "safeArea"}}"#,
               locations: ["full": 100, "half": 422, "tip": 741]),
        Layout(position: .top, container: (390, 844), safeArea: (34, 0, 47, 0),
               anchorsJSON: #"{"full": {"absoluteInset": 53, "edge": "bottom", "referenceGuide": "safeArea"}, "half": {"absoluteInset": 388, "edge": "top", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "top", "referenceGuide": "safeArea"}}"#,
               locations: ["full": 744, "half": 422, "tip": 103]),
        Layout(position: .left, container: (844, 390), safeArea: (0, 34, 0, 47),
               anchorsJSON: #"{"full": {"absoluteInset": 53, "edge": "right", "referenceGuide": "safeArea"}, "half": {"absoluteInset": 388, "edge": "left", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "left", "referenceGuide": "safeArea"}}"#,
               locations: ["full": 744, "half": 422, "tip": 103]),
        Layout(position: .right, container: (844, 390), safeArea: (0, 47, 0, 34),
               anchorsJSON: #"{"full": {"absoluteInset": 53, "edge": "left", "referenceGuide": "safeArea"}, "half": {"absoluteInset": 388, "edge": "right", "referenceGuide": "safeArea"}, "tip": {"absoluteInset": 69, "edge": "right", "referenceGuide": "safeArea"}}"#,
               locations: ["full": 100, "half": 422, "tip": 741]),
    ]

    static let states = ["full", "half", "tip"]

    /// A trace whose header declares `states` custom states (each with an anchor when `anchors`),
    /// followed by `invalidations` pairs of an `invalidateLayout` (a new intrinsic length) and a
    /// `move` (to one of the custom states when they have anchors, else to full): traces that
    /// expose a state table superlinear in the number of states (10⁵ state names; 1,100 states
    /// with 420 invalidations).
    /// - Complexity: O(states + invalidations).
    static func manyStatesTrace(states: Int, anchors: Bool, invalidations: Int) -> String {
        var stateItems: [String] = [], anchorItems: [String] = []
        stateItems.reserveCapacity(states); anchorItems.reserveCapacity(states + 1)
        anchorItems.append(#""full": {"absoluteInset": 53, "edge": "top"}, "half": {"absoluteInset": 388, "edge": "bottom"}, "tip": {"absoluteInset": 69, "edge": "bottom"}"#)
        for i in 0..<states {
            stateItems.append("{\"name\": \"s\(i)\", \"order\": \(2000 + i)}")
            if anchors { anchorItems.append("\"s\(i)\": {\"absoluteInset\": \(120 + i % 300), \"edge\": \"top\"}") }
        }
        var lines = [#"{"format": "panelsim-trace", "version": 1, "name": "many-states", "environment": {"container": {"width": 390, "height": 844}}, "panel": {"states": ["#
            + stateItems.joined(separator: ", ") + #"], "anchors": {"# + anchorItems.joined(separator: ", ") + #"}, "initialState": "half"}}"#]
        var w = SampleWriter()
        for k in 0..<invalidations {
            w.t = Int64(k) * 10_000
            w.add("\"call\": \"invalidateLayout\", \"panel\": {\"intrinsicLength\": \(300 + k % 7)}")
            w.add("\"call\": \"move\", \"to\": \"\(anchors && states > 0 ? "s\(k % states)" : "full")\", \"animated\": false")
        }
        lines += w.lines
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes sample lines with strictly non-decreasing times.
    struct SampleWriter {
        var lines: [String] = []
        /// Current time, µs.
        var t: Int64 = 0
        mutating func add(_ body: String) {
            lines.append("{\"t\": \(CanonicalNumber.formatSeconds(t)), " + body + "}")
        }
    }

    static func num(_ v: Double) -> String { CanonicalNumber.format(v) }

    /// The text of trace number `index` of the end-to-end corpus (one header line, samples, each
    /// line ending in "\n"). Typical length: 2–8 simulated seconds, 20–150 samples.
    static func variedTrace(index: Int, seed: UInt64 = 0x5EED) -> String {
        var rng = Random(seed: seed &+ UInt64(index) &* 0x1000_0001)
        let layout = layouts[index % layouts.count]
        let frameRate = rng.chance(0.25) ? 60 : 120
        let scale = rng.chance(0.2) ? 2.0 : 3.0
        let velocitySources = ["recorded", "lsq2", "impulse", "ios"]
        let velocitySource = velocitySources[rng.below(velocitySources.count)]
        let removal = rng.chance(0.2)
        let initial = states[rng.below(3)]
        var behavior: [String] = []
        if rng.chance(0.3) { behavior.append(#""rubberBandingEdges": ["top", "bottom"]"#) }
        if rng.chance(0.3) { behavior.append(#""projectsMomentumTo": ["full", "tip"]"#) }
        if rng.chance(0.2) { behavior.append("\"springResponseTime\": \(num(rng.range(0.25, 0.6)))") }
        let behaviorJSON = behavior.isEmpty ? "" : ", \"behavior\": {" + behavior.joined(separator: ", ") + "}"
        let header = "{\"format\": \"panelsim-trace\", \"version\": 1, \"name\": \"bench-\(index)\", "
            + "\"environment\": {\"container\": {\"width\": \(num(layout.container.w)), \"height\": \(num(layout.container.h))}, "
            + "\"safeArea\": {\"top\": \(num(layout.safeArea.top)), \"left\": \(num(layout.safeArea.left)), \"bottom\": \(num(layout.safeArea.bottom)), \"right\": \(num(layout.safeArea.right))}, "
            + "\"displayScale\": \(num(scale)), \"frameRate\": \(frameRate)}, "
            + "\"panel\": {\"position\": \"\(layout.position.rawValue)\", \"anchors\": \(layout.anchorsJSON), \"initialState\": \"\(initial)\", "
            + "\"removalInteractionEnabled\": \(removal), \"backdrop\": {\"dismissalTapEnabled\": true}\(behaviorJSON)}, "
            + "\"recognizer\": {\"velocity\": \"\(velocitySource)\"}}"

        var w = SampleWriter()
        var state = initial
        let gestures = 1 + rng.below(4)
        for g in 0..<gestures {
            if g > 0 {
                // Park the panel at a known state (no animation) before the next gesture.
                state = states[rng.below(3)]
                w.add("\"call\": \"move\", \"to\": \"\(state)\", \"animated\": false")
                w.t += 10_000
            }
            let kind = rng.below(10)
            if kind < 7 {
                addDrag(&w, &rng, layout: layout, from: state, frameRate: frameRate, recorded: velocitySource == "recorded")
            } else if kind < 9 {
                let to = states[(states.firstIndex(of: state)! + 1 + rng.below(2)) % 3]
                w.add("\"call\": \"move\", \"to\": \"\(to)\"")
                state = to
            } else {
                w.add("\"call\": \"hide\"")
                w.t += Int64(rng.range(0.3, 0.8) * 1e6)
                w.add("\"call\": \"show\"")
                state = initial
            }
            // Let the animation settle (the spring needs well under 1.2 s).
            w.t += Int64(rng.range(1.2, 2.0) * 1e6)
        }
        if rng.chance(0.1) { w.add("\"call\": \"tapBackdrop\""); w.t += 500_000 }
        if rng.chance(0.5) { w.add("\"end\": true") }
        return header + "\n" + w.lines.joined(separator: "\n") + "\n"
    }

    /// A drag from `state`'s anchor: touch down 30 pt inside the surface, 5–30 moves one frame
    /// apart with ±0.5 pt noise, released (or, rarely, cancelled) with or without a recorded velocity.
    static func addDrag(_ w: inout SampleWriter, _ rng: inout Random, layout: Layout, from state: String,
                        frameRate: Int, recorded: Bool) {
        let location = layout.locations[state]!
        let vertical = layout.position.isVertical
        let inward = layout.position.expandsTowardLowerCoordinate ? 30.0 : -30.0
        let cross = (vertical ? layout.container.w : layout.container.h) / 2
        var main = location + inward
        let speed = rng.range(100, 4000) * (rng.chance(0.5) ? 1 : -1) // pt/s along the main axis
        let moves = 5 + rng.below(26)
        let frame = Int64(1_000_000 / frameRate)
        func point(_ m: Double, _ c: Double) -> String {
            vertical ? "\"x\": \(num(c)), \"y\": \(num(m))" : "\"x\": \(num(m)), \"y\": \(num(c))"
        }
        w.add("\"touch\": \"began\", " + point(main, cross))
        for _ in 0..<moves {
            w.t += frame
            main += speed / Double(frameRate) + (rng.unit() - 0.5)
            main = (main * 8).rounded() / 8 // recorded points are on a 1/8 pt grid
            w.add("\"touch\": \"moved\", " + point(main, cross + (rng.unit() - 0.5)))
        }
        w.t += frame / 2
        let phase = rng.chance(0.05) ? "cancelled" : "ended"
        var line = "\"touch\": \"\(phase)\", " + point(main, cross)
        if recorded && rng.chance(0.8) {
            let v = (speed * 8).rounded() / 8
            line += vertical ? ", \"velocity\": {\"x\": 0, \"y\": \(num(v))}" : ", \"velocity\": {\"x\": \(num(v)), \"y\": 0}"
        }
        w.add(line)
    }

    /// The devices of the systems' varied traces: container width and height, safe-area top and
    /// bottom (pt): an iPhone 14, an iPhone 14 Plus, an iPhone SE.
    static let devices: [(width: Double, height: Double, top: Double, bottom: Double)] = [
        (390, 844, 47, 34), (428, 926, 47, 34), (375, 667, 20, 0),
    ]

    /// The `environment` and `recognizer` header sections of a system's varied trace (one device,
    /// 60 or 120 Hz, display scale 2 or 3, one of the four velocity sources), and the environment
    /// as the simulation reads it.
    static func variedEnvironment(_ rng: inout Random, index: Int)
        -> (json: String, environment: PanelEnvironment, frameRate: Int, recorded: Bool) {
        let d = devices[index % devices.count]
        let frameRate = rng.chance(0.25) ? 60 : 120
        let scale = rng.chance(0.2) ? 2.0 : 3.0
        let velocity = ["recorded", "lsq2", "impulse", "ios"][rng.below(4)]
        let json = "\"environment\": {\"container\": {\"width\": \(num(d.width)), \"height\": \(num(d.height))}, "
            + "\"safeArea\": {\"top\": \(num(d.top)), \"left\": 0, \"bottom\": \(num(d.bottom)), \"right\": 0}, "
            + "\"displayScale\": \(num(scale)), \"frameRate\": \(frameRate)}, \"recognizer\": {\"velocity\": \"\(velocity)\"}"
        let environment = PanelEnvironment(container: Size(width: d.width, height: d.height),
                                           safeArea: Insets(top: d.top, left: 0, bottom: d.bottom, right: 0),
                                           displayScale: scale, frameRate: frameRate)
        return (json, environment, frameRate, velocity == "recorded")
    }

    /// A vertical drag from (`x`, `y`): touch down, 5–30 moves one frame apart at `speed` pt/s
    /// (positive down) with ±0.5 pt noise on a 1/8 pt grid, lifted (rarely cancelled) half a frame
    /// later, with the recorded velocity most of the time when `recorded`.
    static func addVerticalDrag(_ w: inout SampleWriter, _ rng: inout Random, x: Double, y: Double, speed: Double,
                                frameRate: Int, recorded: Bool) {
        var y = y
        let frame = Int64(1_000_000 / frameRate)
        w.add("\"touch\": \"began\", \"x\": \(num(x)), \"y\": \(num(y))")
        for _ in 0..<(5 + rng.below(26)) {
            w.t += frame
            y = ((y + speed / Double(frameRate) + (rng.unit() - 0.5)) * 8).rounded() / 8
            w.add("\"touch\": \"moved\", \"x\": \(num(x)), \"y\": \(num(y))")
        }
        w.t += frame / 2
        var line = "\"touch\": \"\(rng.chance(0.05) ? "cancelled" : "ended")\", \"x\": \(num(x)), \"y\": \(num(y))"
        if recorded && rng.chance(0.8) { line += ", \"velocity\": {\"x\": 0, \"y\": \(num((speed * 8).rounded() / 8))}" }
        w.add(line)
    }

    /// The gesture loop of a system's varied trace: 1–4 gestures at `x`, each after the samples
    /// `reset` writes to put the panel at rest at a random place (it returns the y of that place's
    /// edge) and `settle` µs: a vertical drag from that edge + `grip` (7 gestures in 10) or one of
    /// the three `actions` (samples of calls, given the edge), then 1.2–2 s; an `end` sample in half
    /// the traces. `reset` is also told the gesture's number.
    static func addVariedGestures(_ w: inout SampleWriter, _ rng: inout Random, x: Double, frameRate: Int, recorded: Bool,
                                  grip: Double, settle: Int64,
                                  reset: (_ gesture: Int, _ w: inout SampleWriter, _ rng: inout Random) -> Double,
                                  actions: [(_ y: Double, _ w: inout SampleWriter, _ rng: inout Random) -> Void]) {
        w.t = 10_000
        for g in 0..<(1 + rng.below(4)) {
            let y = reset(g, &w, &rng)
            w.t += settle
            let kind = rng.below(10)
            if kind < 7 {
                addVerticalDrag(&w, &rng, x: x, y: y + grip, speed: dragSpeed(&rng), frameRate: frameRate, recorded: recorded)
            } else {
                actions[min(kind - 7, actions.count - 1)](y, &w, &rng)
            }
            w.t += Int64(rng.range(1.2, 2.0) * 1e6)
        }
        if rng.chance(0.5) { w.add("\"end\": true") }
    }

    /// A drag speed: 100–4,000 pt/s, up or down.
    static func dragSpeed(_ rng: inout Random) -> Double { rng.range(100, 4000) * (rng.chance(0.5) ? 1 : -1) }

    /// The attraction-only core workload: a bottom panel moved programmatically (animated) between
    /// its anchors `moves` times, 0.8 s apart, so every frame steps the spring.
    static func attractionTrace(moves: Int) -> String {
        let layout = layouts[0]
        var w = SampleWriter()
        let order = ["full", "tip", "half", "full", "half", "tip"]
        for k in 0..<moves {
            w.t = Int64(k) * 800_000 + 4_167
            w.add("\"call\": \"move\", \"to\": \"\(order[k % order.count])\"")
        }
        w.t += 1_000_000
        w.add("\"end\": true")
        return coreHeader(layout: layout, name: "bench-attraction") + "\n" + w.lines.joined(separator: "\n") + "\n"
    }

    /// The drag-plus-attraction core workload: `gestures` drags of 12 frames from `half`, released
    /// with alternating recorded velocities, each followed by the attraction it starts and a reset
    /// to half.
    static func dragTrace(gestures: Int) -> String {
        let layout = layouts[0]
        var w = SampleWriter()
        addResetDrags(&w, gestures: gestures, velocities: [-2400, 1800, -600, 900, -3500, 350], startY: 452, pause: 0,
                      reset: "\"call\": \"move\", \"to\": \"half\", \"animated\": false")
        return coreHeader(layout: layout, name: "bench-drag") + "\n" + w.lines.joined(separator: "\n") + "\n"
    }

    /// `gestures` vertical drags 1.5 s apart, each of 12 moves at 120 Hz from (195, `startY`) at
    /// `velocities[g mod count]` pt/s and a lift 4 ms later that records that velocity; every drag
    /// but the first is preceded by the `reset` sample, `pause` µs before its touch-down. Ends 1.5 s
    /// after the last lift with an `end` sample.
    static func addResetDrags(_ w: inout SampleWriter, gestures: Int, velocities: [Double], startY: Double,
                              pause: Int64, reset: String) {
        for g in 0..<gestures {
            w.t = Int64(g) * 1_500_000
            if g > 0 { w.add(reset) }
            w.t += pause
            let v = velocities[g % velocities.count]
            var y = startY
            w.add("\"touch\": \"began\", \"x\": 195, \"y\": \(num(y))")
            for _ in 0..<12 {
                w.t += 8_333
                y += v / 120
                w.add("\"touch\": \"moved\", \"x\": 195, \"y\": \(num(y))")
            }
            w.t += 4_000
            w.add("\"touch\": \"ended\", \"x\": 195, \"y\": \(num(y)), \"velocity\": {\"x\": 0, \"y\": \(num(v))}")
        }
        w.t += 1_500_000
        w.add("\"end\": true")
    }

    /// A panel system's core workload: the header of `model` named `bench-<model>` on a 390×844
    /// container with the system's own `section` (a JSON member, e.g. `"drawer": {…}`), then the
    /// samples of `w`, one a line.
    static func coreSystemTrace(model: String, section: String, _ w: SampleWriter) -> String {
        "{\"format\": \"panelsim-trace\", \"version\": 1, \"model\": \"\(model)\", \"name\": \"bench-\(model)\", "
            + "\"environment\": {\"container\": {\"width\": 390, \"height\": 844}}, " + section + "}\n"
            + w.lines.joined(separator: "\n") + "\n"
    }

    static func coreHeader(layout: Layout, name: String) -> String {
        "{\"format\": \"panelsim-trace\", \"version\": 1, \"name\": \"\(name)\", "
            + "\"environment\": {\"container\": {\"width\": 390, \"height\": 844}}, "
            + "\"panel\": {\"anchors\": \(layout.anchorsJSON), \"initialState\": \"half\"}}"
    }

    /// Writes a trace of `samples` samples (plus the header) to `path` for the load benchmark:
    /// repeated 120 Hz drags of 100 samples, about 50 bytes a line.
    /// - Complexity: O(samples); streams in chunks of 1 MB.
    static func writeLargeTrace(samples: Int, to path: String) throws {
        var out = coreHeader(layout: layouts[0], name: "bench-load") + "\n"
        var written = 0
        var t: Int64 = 0
        var rng = Random(seed: 42)
        let handle = try FileWriter(path: path)
        defer { handle.close() }
        while written < samples {
            let inGesture = written % 100
            let y = 500 + Double(inGesture) * 2 + ((rng.unit() * 8).rounded() / 8)
            let phase = inGesture == 0 ? "began" : (inGesture == 99 || written == samples - 1 ? "ended" : "moved")
            out += "{\"t\": \(CanonicalNumber.formatSeconds(t)), \"touch\": \"\(phase)\", \"x\": 195, \"y\": \(num(y))}\n"
            t += inGesture == 99 ? 200_000 : 8_333
            written += 1
            if out.utf8.count >= 1 << 20 { try handle.write(out); out = "" }
        }
        try handle.write(out)
    }
}
