import PanelSimCore

extension BenchCorpus {
    /// The DrawerKit core workload: `gestures` drags of 12 frames from `partiallyExpanded` on device
    /// D1 (partial 300, collapsed 100, so no release dismisses), released with alternating recorded
    /// velocities, each followed by its 0.4 s transition and a `setDrawerState` back to partial.
    static func drawerDragTrace(gestures: Int) -> String {
        var w = SampleWriter()
        addResetDrags(&w, gestures: gestures, velocities: [-2400, 1800, -600, 900, -3500, 350], startY: 644, pause: 600_000,
                      reset: "\"call\": \"setDrawerState\", \"state\": \"partiallyExpanded\"")
        return coreSystemTrace(model: "drawerkit", section: "\"drawer\": {\"heightOfPartiallyExpandedDrawer\": 300, \"heightOfCollapsedDrawer\": 100}", w)
    }

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
        var w = SampleWriter()
        addVariedGestures(&w, &rng, x: environment.container.width / 2, frameRate: frameRate, recorded: recorded, grip: 30,
                          settle: 600_000,
                          reset: { g, w, rng in
                              if g > 0 { w.add("\"call\": \"present\"") }   // after a dismissal; ignored with a warning otherwise
                              let (state, y) = places[rng.below(places.count)]
                              w.add("\"call\": \"setDrawerState\", \"state\": \"\(state)\"")
                              return y
                          },
                          actions: [
                              { _, w, rng in
                                  w.add("\"call\": \"setDrawerState\", \"state\": \"\(places[rng.below(places.count)].0)\""
                                        + (rng.chance(0.3) ? ", \"completion\": true" : ""))
                              },
                              { _, w, _ in w.add("\"call\": \"tapOutside\", \"y\": 10") },
                              { y, w, _ in w.add("\"call\": \"tapDrawer\", \"y\": \(num(y + 20))") },
                          ])
        return header + "\n" + w.lines.joined(separator: "\n") + "\n"
    }
}
