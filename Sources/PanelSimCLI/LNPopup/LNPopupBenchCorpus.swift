import PanelSimCore

extension BenchCorpus {
    /// The LNPopup core workload: `cycles` animated `openPopup` / `closePopup` pairs (0.5 s springs)
    /// of a default-style bar above a 83 pt tab bar, on a 390×844 container.
    static func popupTrace(cycles: Int) -> String {
        var w = SampleWriter()
        for g in 0..<cycles {
            w.t = Int64(g) * 1_400_000
            w.add("\"call\": \"openPopup\"")
            w.t += 700_000
            w.add("\"call\": \"closePopup\"")
        }
        w.t += 1_500_000
        w.add("\"end\": true")
        return coreSystemTrace(model: "lnpopup", section: "\"popup\": {\"bottomBar\": {\"kind\": \"tabBar\", \"height\": 83}}", w)
    }

    /// The text of LNPopup trace number `index` of the end-to-end corpus: three devices, 60 and
    /// 120 Hz, scales 2 and 3, the four velocity sources; the default, snap and drag interaction
    /// styles, with and without a tab bar; 1–4 gestures, each from a state set without animation:
    /// drags of the bar (closed) or the content (open), flicks included, animated `openPopup` and
    /// `closePopup`, bar taps, and a bar dismissal followed by a new presentation. A pure function
    /// of `index` and `seed`.
    static func variedLNPopupTrace(index: Int, seed: UInt64 = 0x10_90B0) -> String {
        var rng = Random(seed: seed &+ UInt64(index) &* 0x1000_0001)
        let (environmentJSON, environment, frameRate, recorded) = variedEnvironment(&rng, index: index)
        var popup = PopupConfiguration()
        popup.interactionStyle = [.default, .snap, .drag][rng.below(3)]
        if rng.chance(0.7) { popup.bottomBarKind = .tabBar; popup.bottomBarHeight = 83 }
        let open = rng.chance(0.4)
        var popupJSON = "\"interactionStyle\": \"\(popup.interactionStyle.rawValue)\", \"bottomBar\": "
            + (popup.bottomBarKind == .tabBar ? "{\"kind\": \"tabBar\", \"height\": 83}" : "{\"kind\": \"none\"}")
        popupJSON += ", \"initialState\": \"\(open ? "open" : "barPresented")\""
        let header = "{\"format\": \"panelsim-trace\", \"version\": 1, \"model\": \"lnpopup\", \"name\": \"bench-lnpopup-\(index)\", "
            + environmentJSON + ", \"popup\": {" + popupJSON + "}}"

        let bar = popup.closedBarFrame(environment: environment)
        let x = environment.container.width / 2
        var w = SampleWriter()
        w.t = 10_000
        for _ in 0..<(1 + rng.below(4)) {
            let startOpen = rng.chance(0.5)
            w.add("\"call\": \"\(startOpen ? "openPopup" : "closePopup")\", \"animated\": false")
            w.t += 50_000
            switch rng.below(10) {
            case 0..<6:
                // Closed: the bar, mostly upward; open: the content, mostly downward.
                let speed = abs(dragSpeed(&rng)) * (rng.chance(0.8) == startOpen ? 1 : -1)
                addVerticalDrag(&w, &rng, x: x, y: startOpen ? 200 : bar.origin.y + bar.size.height / 2, speed: speed,
                                frameRate: frameRate, recorded: recorded)
            case 6, 7:
                w.add("\"call\": \"\(startOpen ? "closePopup" : "openPopup")\"")
            case 8:
                w.add("\"call\": \"tapBar\"")
            default:
                w.add("\"call\": \"dismissBar\"")
                w.t += 800_000
                w.add("\"call\": \"presentBar\"")
            }
            w.t += Int64(rng.range(1.2, 2.0) * 1e6)
        }
        if rng.chance(0.5) { w.add("\"end\": true") }
        return header + "\n" + w.lines.joined(separator: "\n") + "\n"
    }
}
