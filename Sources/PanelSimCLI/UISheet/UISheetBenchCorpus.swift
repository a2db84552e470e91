import PanelSimCore

extension BenchCorpus {
    /// The UISheet core workload: `gestures` drags of 12 frames on a medium/large sheet, released
    /// with alternating recorded velocities, each followed by its settle and a reset to medium. The
    /// sheet is modal (`isModalInPresentation`), so a downward flick never dismisses it.
    static func sheetDragTrace(gestures: Int) -> String {
        var w = SampleWriter()
        addResetDrags(&w, gestures: gestures, velocities: [-2400, 1200, -600, 900, -3500, 350], startY: 500, pause: 100_000,
                      reset: "\"call\": \"selectDetent\", \"identifier\": \"medium\"")
        return coreSystemTrace(model: "uisheet", section: "\"sheet\": {\"detents\": [{\"identifier\": \"medium\", \"kind\": \"medium\"}, "
            + "{\"identifier\": \"large\", \"kind\": \"large\"}], \"selectedDetentIdentifier\": \"medium\", \"isModalInPresentation\": true}", w)
    }

    /// The text of UISheet trace number `index` of the end-to-end corpus: three devices, 60 and
    /// 120 Hz, scales 2 and 3, the four velocity sources; medium/large, small/medium/large and
    /// compact/large detents, modal sheets and the delegate's three answers on some, a scroll view
    /// on some; 1–4 gestures, each from a detent selected without animation: drags of the sheet
    /// (flicks, so the fast spring and dismissals, included), animated selections, dimming and
    /// grabber taps, with a new presentation after each. A pure function of `index` and `seed`.
    static func variedUISheetTrace(index: Int, seed: UInt64 = 0x5_11EE7) -> String {
        var rng = Random(seed: seed &+ UInt64(index) &* 0x1000_0001)
        let (environmentJSON, environment, frameRate, recorded) = variedEnvironment(&rng, index: index)
        var sheet = SheetConfiguration()
        var detentsJSON: String
        switch rng.below(10) {
        case 0..<6:
            sheet.detents = [.medium, .large]
            detentsJSON = "[{\"identifier\": \"medium\", \"kind\": \"medium\"}, {\"identifier\": \"large\", \"kind\": \"large\"}]"
        case 6..<8:
            sheet.detents = [SheetDetent(identifier: "small", kind: .height(150)), .medium, .large]
            detentsJSON = "[{\"identifier\": \"small\", \"kind\": \"custom\", \"height\": 150}, "
                + "{\"identifier\": \"medium\", \"kind\": \"medium\"}, {\"identifier\": \"large\", \"kind\": \"large\"}]"
        default:
            sheet.detents = [SheetDetent(identifier: "compact", kind: .height(120)), .large]
            detentsJSON = "[{\"identifier\": \"compact\", \"kind\": \"custom\", \"height\": 120}, {\"identifier\": \"large\", \"kind\": \"large\"}]"
        }
        var sheetJSON = "\"detents\": " + detentsJSON
        if rng.chance(0.2) { sheet.isModalInPresentation = true; sheetJSON += ", \"isModalInPresentation\": true" }
        if rng.chance(0.2) { sheetJSON += ", \"prefersGrabberVisible\": true"; sheet.prefersGrabberVisible = true }
        var extra = ""
        if rng.chance(0.2) { extra += ", \"sheetDelegate\": {\"shouldDismiss\": \"\(rng.chance(0.5) ? "always" : "never")\"}" }
        if rng.chance(0.2) {
            extra += ", \"scrollView\": {\"frame\": {\"x\": 0, \"y\": 20, \"width\": \(num(environment.container.width)), "
                + "\"height\": \(num(environment.container.height - 77))}, \"contentSize\": {\"width\": \(num(environment.container.width)), \"height\": 3000}}"
        }
        let header = "{\"format\": \"panelsim-trace\", \"version\": 1, \"model\": \"uisheet\", \"name\": \"bench-uisheet-\(index)\", "
            + environmentJSON + ", \"sheet\": {" + sheetJSON + "}" + extra + "}"

        let offsets = sheet.detentOffsets(environment: environment)
        var w = SampleWriter()
        addVariedGestures(&w, &rng, x: environment.container.width / 2, frameRate: frameRate, recorded: recorded, grip: 10,
                          settle: 50_000,
                          reset: { g, w, rng in
                              if g > 0 { w.add("\"call\": \"present\"") }   // after a dismissal; ignored with a warning otherwise
                              let (id, y) = offsets[rng.below(offsets.count)]
                              w.add("\"call\": \"selectDetent\", \"identifier\": \"\(id)\"")
                              return y
                          },
                          actions: [
                              { _, w, rng in
                                  w.add("\"call\": \"selectDetent\", \"identifier\": \"\(offsets[rng.below(offsets.count)].0)\", \"animateChanges\": true")
                              },
                              { _, w, _ in w.add("\"call\": \"tapDimming\"") },
                              { _, w, _ in w.add("\"call\": \"tapGrabber\"") },
                          ])
        return header + "\n" + w.lines.joined(separator: "\n") + "\n"
    }
}
