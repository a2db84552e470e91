import PanelSimCore

extension BenchCorpus {
    /// The text of DrawerKit trace number `index` of the end-to-end corpus: three devices, 60 and
    /// 120 Hz, scales 2 and 3, the four velocity sources; partial heights 250–350 pt, a collapsed
    /// height on some, proportional durations and the linear and damped timing curves on some;
    /// 1–4 gestures, each from a state set by `setDrawerState`: drags (flicks included, some
    /// cancelled), programmatic transitions, outside taps (a dismissal and a new presentation) and
    /// drawer taps. A pure function of `index` and `seed`.
    static func variedDrawerKitTrace(index: Int, seed: UInt64 = 0xD4A3E5) -> String {
        var rng = Random(seed: seed &+ UInt64(index) &* 0x1000_0001)
        let (environmentJSON, environment, frameRate, recorded) = variedEnvironment(&rng, index: index)
        var drawer = DrawerConfiguration(heightOfPartiallyExpandedDrawer: [250.0, 300, 350][rng.below(3)])
        if rng.chance(0.3) { drawer.heightOfCollapsedDrawer = 100 }
        var configuration: [String] = []
        if rng.chance(0.2) { configuration.append("\"durationIsProportionalToDistanceTraveled\": true") }
        switch rng.below(6) {
        case 0: configuration.append("\"timingCurveProvider\": \"linear\"")
        case 1: configuration.append("\"timingCurveProvider\": {\"dampingRatio\": 0.8}")
        default: break
        }
        var drawerJSON = "\"heightOfPartiallyExpandedDrawer\": \(num(drawer.heightOfPartiallyExpandedDrawer))"
        if drawer.heightOfCollapsedDrawer > 0 { drawerJSON += ", \"heightOfCollapsedDrawer\": \(num(drawer.heightOfCollapsedDrawer))" }
        if !configuration.isEmpty { drawerJSON += ", \"configuration\": {" + configuration.joined(separator: ", ") + "}" }
        let header = "{\"format\": \"panelsim-trace\", \"version\": 1, \"model\": \"drawerkit\", \"name\": \"bench-drawerkit-\(index)\", "
            + environmentJSON + ", \"drawer\": {" + drawerJSON + "}}"

        // Resting places (y of the drawer's top edge), dismissed left out.
        let places = drawer.anchorPositions(environment: environment).filter { $0.0 != "dismissed" }
        let x = environment.container.width / 2
        var w = SampleWriter()
        w.t = 10_000
        for g in 0..<(1 + rng.below(4)) {
            if g > 0 { w.add("\"call\": \"present\"") }   // after a dismissal; ignored with a warning otherwise
            let (state, y) = places[rng.below(places.count)]
            w.add("\"call\": \"setDrawerState\", \"state\": \"\(state)\"")
            w.t += 600_000
            switch rng.below(10) {
            case 0..<7:
                addVerticalDrag(&w, &rng, x: x, y: y + 30, speed: dragSpeed(&rng), frameRate: frameRate, recorded: recorded)
            case 7:
                w.add("\"call\": \"setDrawerState\", \"state\": \"\(places[rng.below(places.count)].0)\"\(rng.chance(0.3) ? ", \"completion\": true" : "")")
            case 8:
                w.add("\"call\": \"tapOutside\", \"y\": 10")
            default:
                w.add("\"call\": \"tapDrawer\", \"y\": \(num(y + 20))")
            }
            w.t += Int64(rng.range(1.2, 2.0) * 1e6)
        }
        if rng.chance(0.5) { w.add("\"end\": true") }
        return header + "\n" + w.lines.joined(separator: "\n") + "\n"
    }
}
