import PanelSimCore

/// Loading the DrawerKit contract extension (drawerkit.md §2): the `drawer` header section and the
/// DrawerKit calls, with the loader's usual `file:line: field: message` errors (§2.4).
extension TraceLoader {
    static let drawerKeys = ["heightOfPartiallyExpandedDrawer", "heightOfCollapsedDrawer", "presented", "statusBarHeight",
                             "participants", "content", "configuration", "simulator"]
    static let drawerConfigurationKeys = [
        "initialState", "totalDurationInSeconds", "durationIsProportionalToDistanceTraveled", "timingCurveProvider",
        "fullExpansionBehaviour", "supportsPartialExpansion", "dismissesInStages", "isDrawerDraggable",
        "isFullyPresentableByDrawerTaps", "numberOfTapsForFullDrawerPresentation", "isDismissableByOutsideDrawerTaps",
        "numberOfTapsForOutsideDrawerDismissal", "flickSpeedThreshold", "upperMarkGap", "lowerMarkGap",
        "maximumCornerRadius", "cornerAnimationOption", "handleViewConfiguration", "passthroughTouchesInStates",
        "drawerBorderConfiguration", "drawerShadowConfiguration"]
    static let drawerCalls = ["setDrawerState", "present", "dismiss", "tapDrawer", "tapOutside"]

    /// The `drawer` section. `environment` gives the default status bar height (D10) for the Q14 check.
    /// - Throws: `TraceError` naming the field (`drawer.configuration.upperMarkGap`, …).
    /// - Complexity: O(size of the section).
    /// `safeAreaGiven`: the header's `environment` has a `safeArea`; without one the status bar
    /// height defaults to 0 (drawerkit.md §2.1), not to the contract's default safe area.
    static func parseDrawer(_ v: JSONValue, environment: PanelEnvironment, safeAreaGiven: Bool = true,
                            r: FieldReader) throws(TraceError) -> DrawerConfiguration {
        let o = try r.object(v, "drawer")
        try r.checkKeys(o, "drawer", drawerKeys)
        let partial = try r.number(try r.required(o, "heightOfPartiallyExpandedDrawer", "drawer", "a height in pt"),
                                   "drawer.heightOfPartiallyExpandedDrawer")
        var d = DrawerConfiguration(heightOfPartiallyExpandedDrawer: partial)
        if let x = o["heightOfCollapsedDrawer"] { d.heightOfCollapsedDrawer = try r.number(x, "drawer.heightOfCollapsedDrawer") }
        if let x = o["presented"] { d.presented = try r.bool(x, "drawer.presented") }
        if let x = o["statusBarHeight"], x != .null { d.statusBarHeight = try r.number(x, "drawer.statusBarHeight", .nonNegative) }
        if d.statusBarHeight == nil && !safeAreaGiven { d.statusBarHeight = 0 }
        if let x = o["participants"] {
            let items = try r.array(x, "drawer.participants")
            d.participantPresenting = false; d.participantPresented = false
            for (k, item) in items.enumerated() {
                switch try r.choice(item, "drawer.participants[\(k)]", ["presenting", "presented"]) {
                case "presenting": d.participantPresenting = true
                default: d.participantPresented = true
                }
            }
        }
        if let x = o["content"] {
            let c = try r.object(x, "drawer.content")
            try r.checkKeys(c, "drawer.content", ["controls", "scrollView"])
            if let controls = c["controls"] {
                for (k, item) in try r.array(controls, "drawer.content.controls").enumerated() {
                    d.controls.append(try parseRect(item, "drawer.content.controls[\(k)]", r: r))
                }
            }
            if let s = c["scrollView"], s != .null {
                d.scrollView = try parseScrollView(s, "drawer.content.scrollView", r: r)
            }
        }
        if let x = o["configuration"] { try parseDrawerConfiguration(x, into: &d, r: r) }
        if let x = o["simulator"] {
            let s = try r.object(x, "drawer.simulator")
            try r.checkKeys(s, "drawer.simulator", ["midTransition", "physicalSpring"])
            if let m = s["midTransition"] {
                d.midTransition = DrawerMidTransitionPolicy(rawValue: try r.choice(m, "drawer.simulator.midTransition",
                    DrawerMidTransitionPolicy.allCases.map(\.rawValue))) ?? .dismissalIsTerminal
            }
            if let p = s["physicalSpring"], try r.bool(p, "drawer.simulator.physicalSpring") { d.springTiming = .physicalSpring }
        }
        let statusBar = d.statusBarHeight ?? environment.safeArea.top
        if d.cornerAnimationOption == .alwaysShowBelowStatusBar && statusBar == 0 {
            throw r.error("drawer.configuration.cornerAnimationOption",
                          "\"alwaysShowBelowStatusBar\" with a status bar height of 0 divides by zero in DrawerKit (drawerkit.md §4 Q14); expected a status bar height > 0 (drawer.statusBarHeight or environment.safeArea.top) or another option")
        }
        return d
    }

    /// True when the header object's `environment` names a `safeArea`.
    static func hasSafeArea(_ header: JSONObject) -> Bool {
        if case .object(let e)? = header["environment"], e["safeArea"] != nil { return true }
        return false
    }

    static func parseRect(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> Rect {
        let o = try r.object(v, path)
        try r.checkKeys(o, path, ["x", "y", "width", "height"])
        func field(_ key: String, _ range: FieldReader.Range) throws(TraceError) -> Double {
            try r.number(try r.required(o, key, path, range.text), FieldReader.join(path, key), range)
        }
        return Rect(x: try field("x", .any), y: try field("y", .any), width: try field("width", .nonNegative),
                    height: try field("height", .nonNegative))
    }

    static func parseDrawerConfiguration(_ v: JSONValue, into d: inout DrawerConfiguration, r: FieldReader) throws(TraceError) {
        let path = "drawer.configuration"
        let o = try r.object(v, path)
        try r.checkKeys(o, path, drawerConfigurationKeys)
        func p(_ key: String) -> String { path + "." + key }
        func nonNegative(_ key: String) throws(TraceError) -> Double? {
            guard let x = o[key] else { return nil }
            return try r.number(x, p(key), .nonNegative)
        }
        func flag(_ key: String) throws(TraceError) -> Bool? {
            guard let x = o[key] else { return nil }
            return try r.bool(x, p(key))
        }
        func count(_ key: String) throws(TraceError) -> Int? {
            guard let x = o[key] else { return nil }
            return try r.integer(x, p(key), minimum: 0)
        }
        if let x = o["initialState"], x != .null {
            let name = try r.choice(x, p("initialState"), ["collapsed", "partiallyExpanded", "fullyExpanded"])
            d.initialState = DrawerState(rawValue: name)
        }
        if let x = try nonNegative("totalDurationInSeconds") { d.totalDurationInSeconds = x }
        if let x = try flag("durationIsProportionalToDistanceTraveled") { d.durationIsProportionalToDistanceTraveled = x }
        if let x = o["timingCurveProvider"] {
            switch x {
            case .string("linear"): d.timingCurveProvider = .linear
            case .string("systemSpring"): d.timingCurveProvider = .systemSpring
            case .object(let t):
                try r.checkKeys(t, p("timingCurveProvider"), ["dampingRatio"])
                let zeta = try r.number(try r.required(t, "dampingRatio", p("timingCurveProvider"), "a number > 0"),
                                        p("timingCurveProvider.dampingRatio"), .positive)
                d.timingCurveProvider = .dampingRatio(zeta)
            default:
                throw r.error(p("timingCurveProvider"), "expected \"systemSpring\", \"linear\" or {\"dampingRatio\": ζ}, got \(FieldReader.describe(x))")
            }
        }
        if let x = o["fullExpansionBehaviour"] {
            switch x {
            case .string:
                switch try r.choice(x, p("fullExpansionBehaviour"), ["coversFullScreen", "doesNotCoverStatusBar"]) {
                case "doesNotCoverStatusBar": d.fullExpansionBehaviour = .doesNotCoverStatusBar
                default: d.fullExpansionBehaviour = .coversFullScreen
                }
            case .object(let g):
                try r.checkKeys(g, p("fullExpansionBehaviour"), ["leavesCustomGap"])
                let gap = try r.number(try r.required(g, "leavesCustomGap", p("fullExpansionBehaviour"), "a gap in pt ≥ 0"),
                                       p("fullExpansionBehaviour.leavesCustomGap"), .nonNegative)
                d.fullExpansionBehaviour = .leavesCustomGap(gap)
            default:
                throw r.error(p("fullExpansionBehaviour"), "expected \"coversFullScreen\", \"doesNotCoverStatusBar\" or {\"leavesCustomGap\": g}, got \(FieldReader.describe(x))")
            }
        }
        if let x = try flag("supportsPartialExpansion") { d.supportsPartialExpansion = x }
        if let x = try flag("dismissesInStages") { d.dismissesInStages = x }
        if let x = try flag("isDrawerDraggable") { d.isDrawerDraggable = x }
        if let x = try flag("isFullyPresentableByDrawerTaps") { d.isFullyPresentableByDrawerTaps = x }
        if let x = try count("numberOfTapsForFullDrawerPresentation") { d.numberOfTapsForFullDrawerPresentation = x }
        if let x = try flag("isDismissableByOutsideDrawerTaps") { d.isDismissableByOutsideDrawerTaps = x }
        if let x = try count("numberOfTapsForOutsideDrawerDismissal") { d.numberOfTapsForOutsideDrawerDismissal = x }
        if let x = try nonNegative("flickSpeedThreshold") { d.flickSpeedThreshold = x }
        if let x = try nonNegative("upperMarkGap") { d.upperMarkGap = x }
        if let x = try nonNegative("lowerMarkGap") { d.lowerMarkGap = x }
        if let x = try nonNegative("maximumCornerRadius") { d.maximumCornerRadius = x }
        if let x = o["cornerAnimationOption"] {
            d.cornerAnimationOption = CornerAnimationOption(rawValue: try r.choice(x, p("cornerAnimationOption"),
                CornerAnimationOption.allCases.map(\.rawValue))) ?? .maximumAtPartialY
        }
        if let x = o["handleViewConfiguration"] {
            if x == .null {
                d.handleAutoAnimatesDimming = nil
            } else {
                let h = try r.object(x, p("handleViewConfiguration"))
                try r.checkKeys(h, p("handleViewConfiguration"), ["autoAnimatesDimming", "backgroundColor", "size", "top", "cornerRadius"])
                d.handleAutoAnimatesDimming = try h["autoAnimatesDimming"].map { v throws(TraceError) in
                    try r.bool(v, p("handleViewConfiguration.autoAnimatesDimming"))
                } ?? true
            }
        }
        if let x = o["passthroughTouchesInStates"] {
            var states: [DrawerState] = []
            for (k, item) in try r.array(x, p("passthroughTouchesInStates")).enumerated() {
                let name = try r.choice(item, p("passthroughTouchesInStates") + "[\(k)]", ["collapsed", "partiallyExpanded", "fullyExpanded"])
                if let s = DrawerState(rawValue: name), !states.contains(s) { states.append(s) }
            }
            d.passthroughTouchesInStates = states
        }
        for key in ["drawerBorderConfiguration", "drawerShadowConfiguration"] {
            if let x = o[key], x != .null { _ = try r.object(x, p(key)) }
        }
    }

    /// A DrawerKit `call` sample (drawerkit.md §2.2).
    /// - Throws: `TraceError` for an unknown call, an unknown field, a state outside the four named
    ///   ones (`transitioning` included: DrawerKit traps) or a malformed value.
    static func parseDrawerCall(_ o: JSONObject, r: FieldReader) throws(TraceError) -> DrawerCall {
        guard case .string(let name) = o["call"] ?? .null else {
            throw r.error("call", "expected a DrawerKit call name (one of \(FieldReader.list(drawerCalls))), got \(FieldReader.describe(o["call"] ?? .null))")
        }
        func point() throws(TraceError) -> (Double?, Double) {
            let y = try r.number(try r.required(o, "y", "", "the tap's container y in pt"), "y")
            let x = try o["x"].map { v throws(TraceError) in try r.number(v, "x") }
            return (x, y)
        }
        switch name {
        case "setDrawerState":
            try r.checkKeys(o, "", ["t", "call", "state", "animated", "completion"])
            let stateValue = try r.required(o, "state", "", "one of dismissed, collapsed, partiallyExpanded, fullyExpanded")
            if case .string("transitioning") = stateValue {
                throw r.error("state", "\"transitioning\" cannot be requested (DrawerKit traps, drawerkit.md §3.11); expected one of dismissed, collapsed, partiallyExpanded, fullyExpanded")
            }
            let state = DrawerState(rawValue: try r.choice(stateValue, "state", DrawerState.allCases.map(\.rawValue))) ?? .dismissed
            let animated = try o["animated"].map { v throws(TraceError) in try r.bool(v, "animated") } ?? true
            let completion = try o["completion"].map { v throws(TraceError) in try r.bool(v, "completion") } ?? false
            return .setDrawerState(state, animated: animated, completion: completion)
        case "present":
            try r.checkKeys(o, "", ["t", "call"])
            return .present
        case "dismiss":
            try r.checkKeys(o, "", ["t", "call"])
            return .dismiss
        case "tapDrawer":
            try r.checkKeys(o, "", ["t", "call", "x", "y"])
            let (x, y) = try point()
            return .tapDrawer(x: x, y: y)
        case "tapOutside":
            try r.checkKeys(o, "", ["t", "call", "x", "y"])
            let (x, y) = try point()
            return .tapOutside(x: x, y: y)
        default:
            var message = "unknown DrawerKit call \(quotedSingle(name))"
            if let near = FieldReader.nearest(name, drawerCalls) { message += " (did you mean \(quotedSingle(near))?)" }
            throw r.error("call", message + "; expected one of \(FieldReader.list(drawerCalls))")
        }
    }
}
