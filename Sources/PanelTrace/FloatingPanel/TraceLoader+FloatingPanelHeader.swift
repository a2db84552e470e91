import PanelSimCore

/// Reading FloatingPanel's header sections: `panel` (states, anchors, behavior) and `delegate`.
extension TraceLoader {
    /// O19 on a changed layout or environment, reported at the line that changed it.
    static func validateAgainst(panel: FloatingPanelConfiguration, environment: PanelEnvironment, r: FieldReader)
        throws(TraceError)
    {
        var h = TraceHeader(name: "", environment: environment, panel: panel)
        h.panel = panel
        do { try PanelSimCore.validate(h) } catch { throw r.error(error.field, error.message) }
    }

    static let panelKeys = [
        "position", "states", "anchors", "initialState", "intrinsicLength", "backdropAlpha",
        "contentMode", "grabberAreaOffset", "removalInteractionEnabled", "backdrop",
        "presented", "behavior",
    ]

    /// A `panel` object.
    /// - Parameter base: the layout in force and its state table, to read an `invalidateLayout`
    ///   patch that does not name `states`: only the fields the patch names are read (each
    ///   replaces that field of `base` whole), which gives what reading the merged panel gives, in
    ///   O(size of the patch) instead of O(size of the layout).
    /// - Complexity: O(size of `v`).
    static func parsePanel(
        _ v: JSONValue, r: FieldReader, over base: (panel: FloatingPanelConfiguration, states: StateTable)? = nil
    ) throws(TraceError) -> FloatingPanelConfiguration {
        let o = try r.object(v, "panel")
        try r.checkKeys(o, "panel", panelKeys)
        precondition(base == nil || o["states"] == nil, "a patch that names states is read merged")
        var panel = base?.panel ?? FloatingPanelConfiguration()
        if let p = o["position"] {
            let raw = try r.choice(p, "panel.position", PanelPosition.allCases.map(\.rawValue))
            panel.position = PanelPosition(rawValue: raw) ?? .bottom
        }
        if let s = o["states"] { panel.states = try parseStates(s, r: r) }
        let states = base?.states ?? StateTable(panel.states)

        if base == nil || o["anchors"] != nil {
            let anchorsValue = try r.required(o, "anchors", "panel", "an object mapping state names to anchors")
            let anchors = try r.object(anchorsValue, "panel.anchors")
            guard !anchors.entries.isEmpty else {
                throw r.error("panel.anchors", "expected at least one anchor, got an empty object")
            }
            panel.anchors = []
            for (key, value) in anchors.entries {
                let path = "panel.anchors." + key
                let state = try r.stateNamed(key, path, states)
                panel.anchors.append(AnchorEntry(state: state, anchor: try parseAnchor(value, path, r: r)))
            }
        }
        if let s = o["initialState"] { panel.initialState = try r.state(s, "panel.initialState", states) }
        if let s = o["intrinsicLength"] {
            panel.intrinsicLength = try r.number(s, "panel.intrinsicLength", .nonNegative)
        }
        if let s = o["backdropAlpha"] {
            let map = try r.object(s, "panel.backdropAlpha")
            var alphas: [String: Double] = [:]
            for (key, value) in map.entries {
                let path = "panel.backdropAlpha." + key
                _ = try r.stateNamed(key, path, states)
                alphas[key] = try r.number(value, path, .unitInterval)
            }
            panel.backdropAlpha = alphas
        }
        if let s = o["contentMode"] {
            let raw = try r.choice(s, "panel.contentMode", ["static", "fitToBounds"])
            panel.contentMode = ContentMode(rawValue: raw) ?? .static
        }
        if let s = o["grabberAreaOffset"] {
            panel.grabberAreaOffset = try r.number(s, "panel.grabberAreaOffset", .nonNegative)
        }
        if let s = o["removalInteractionEnabled"] {
            panel.removalInteractionEnabled = try r.bool(s, "panel.removalInteractionEnabled")
        }
        if let s = o["backdrop"] {
            let b = try r.object(s, "panel.backdrop")
            try r.checkKeys(b, "panel.backdrop", ["dismissalTapEnabled"])
            if let d = b["dismissalTapEnabled"] {
                panel.dismissalTapEnabled = try r.bool(d, "panel.backdrop.dismissalTapEnabled")
            }
        }
        if let s = o["presented"] { panel.presented = try r.bool(s, "panel.presented") }
        if let s = o["behavior"] { panel.behavior = try parseBehavior(s, r: r, states: states) }
        return panel
    }

    static func parseStates(_ v: JSONValue, r: FieldReader) throws(TraceError) -> [FloatingPanelState] {
        let items = try r.array(v, "panel.states")
        var result: [FloatingPanelState] = []
        var declaredAt: [String: Int] = [:]
        declaredAt.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            let path = "panel.states[\(k)]"
            let o = try r.object(item, path)
            try r.checkKeys(o, path, ["name", "order"])
            let name = try r.string(try r.required(o, "name", path, "a state name"), path + ".name")
            guard !name.isEmpty else { throw r.error(path + ".name", "expected a non-empty state name, got \"\"") }
            if let builtIn = FloatingPanelState.builtIn.first(where: { $0.name == name }) {
                throw r.error(
                    path + ".name",
                    "state \(quotedSingle(name)) collides with the built-in state \(builtIn.name) (order \(builtIn.order)); expected a new name"
                )
            }
            if let earlier = declaredAt[name] {
                throw r.error(
                    path + ".name",
                    "duplicate state \(quotedSingle(name)) (already declared at panel.states[\(earlier)])")
            }
            declaredAt[name] = k
            let order = try r.integer(try r.required(o, "order", path, "an integer order"), path + ".order")
            result.append(FloatingPanelState(name: name, order: order))
        }
        return result
    }

    static let anchorKinds = ["absoluteInset", "fractionalInset", "absoluteOffset", "fractionalOffset", "adaptive"]

    static func parseAnchor(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> LayoutAnchor {
        let o = try r.object(v, path)
        let kinds = o.keys.filter { anchorKinds.contains($0) }
        guard let kind = kinds.first else {
            if let other = o.keys.first(where: { $0 != "edge" && $0 != "referenceGuide" }) {
                throw r.error(
                    FieldReader.join(path, other),
                    "unknown anchor kind \(quotedSingle(other)) (valid kinds: \(FieldReader.list(anchorKinds)))")
            }
            throw r.error(path, "missing anchor kind (expected one of \(FieldReader.list(anchorKinds)))")
        }
        if kinds.count > 1 {
            throw r.error(
                FieldReader.join(path, kinds[1]),
                "expected exactly one anchor kind, found both \(quotedSingle(kinds[0])) and \(quotedSingle(kinds[1]))")
        }
        if kind == "adaptive" {
            try r.checkKeys(o, path, [kind])
            return try parseAdaptiveAnchor(o[kind] ?? .null, FieldReader.join(path, kind), r: r)
        }
        let isInset = kind.hasSuffix("Inset")
        let isFractional = kind.hasPrefix("fractional")
        let allowed = isInset ? [kind, "edge", "referenceGuide"] : [kind, "referenceGuide"]
        for entry in o.entries where !allowed.contains(entry.key) {
            let key = entry.key
            if key == "edge" {
                throw r.error(
                    FieldReader.join(path, key),
                    "\(kind) anchors measure from the intrinsic length and take no edge (expected only \(FieldReader.list(allowed)))"
                )
            }
            try r.checkKeys(o, path, allowed)
        }
        let value = try r.number(o[kind] ?? .null, FieldReader.join(path, kind))
        var guide = ReferenceGuide.safeArea
        if let g = o["referenceGuide"] {
            let raw = try r.choice(g, FieldReader.join(path, "referenceGuide"), ReferenceGuide.allCases.map(\.rawValue))
            guide = ReferenceGuide(rawValue: raw) ?? .safeArea
        }
        if isInset {
            let e = try r.required(o, "edge", path, "one of top, left, bottom, right")
            let raw = try r.choice(e, FieldReader.join(path, "edge"), ReferenceEdge.allCases.map(\.rawValue))
            let edge = ReferenceEdge(rawValue: raw) ?? .top
            return .inset(value, isFractional: isFractional, edge: edge, guide: guide)
        }
        return .intrinsic(value, isFractional: isFractional, guide: guide)
    }

    /// `{"adaptive": {…}}`: FloatingPanelAdaptiveLayoutAnchor (floatingpanel-layout-behavior.md §3.3,
    /// §3.4c): `absoluteOffset` or `fractionalOffset`, `contentLength` (the measured main dimension of
    /// the content layout guide, ≥ 0, required), `referenceGuide` (default safeArea) and
    /// `contentBoundingGuide` (none, superview or safeArea; default none).
    static func parseAdaptiveAnchor(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> LayoutAnchor {
        let o = try r.object(v, path)
        let offsetKinds = ["absoluteOffset", "fractionalOffset"]
        let kinds = o.keys.filter { offsetKinds.contains($0) }
        guard let kind = kinds.first else {
            throw r.error(path, "missing adaptive anchor offset (expected one of \(FieldReader.list(offsetKinds)))")
        }
        if kinds.count > 1 {
            throw r.error(
                FieldReader.join(path, kinds[1]),
                "expected exactly one offset, found both \(quotedSingle(kinds[0])) and \(quotedSingle(kinds[1]))")
        }
        try r.checkKeys(o, path, [kind, "contentLength", "referenceGuide", "contentBoundingGuide"])
        let value = try r.number(o[kind] ?? .null, FieldReader.join(path, kind))
        let length = try r.number(
            try r.required(o, "contentLength", path, FieldReader.Range.nonNegative.text),
            FieldReader.join(path, "contentLength"), .nonNegative)
        var guide = ReferenceGuide.safeArea
        if let g = o["referenceGuide"] {
            let raw = try r.choice(g, FieldReader.join(path, "referenceGuide"), ReferenceGuide.allCases.map(\.rawValue))
            guide = ReferenceGuide(rawValue: raw) ?? .safeArea
        }
        var bounding = ContentBoundingGuide.none
        if let g = o["contentBoundingGuide"] {
            let raw = try r.choice(
                g, FieldReader.join(path, "contentBoundingGuide"), ContentBoundingGuide.allCases.map(\.rawValue))
            bounding = ContentBoundingGuide(rawValue: raw) ?? .none
        }
        return .adaptive(
            value, isFractional: kind == "fractionalOffset", contentLength: length, guide: guide, bounding: bounding)
    }

    static func parseBehavior(_ v: JSONValue, r: FieldReader, states: StateTable) throws(TraceError) -> PanelBehavior {
        let path = "panel.behavior"
        let o = try r.object(v, path)
        try r.checkKeys(
            o, path,
            [
                "springDecelerationRate", "springResponseTime", "momentumProjectionRate",
                "redirectionalProgress", "projectsMomentumTo", "rubberBandingEdges",
                "removalInteractionVelocityThreshold",
            ])
        var b = PanelBehavior()
        if let x = o["springDecelerationRate"] {
            b.springDecelerationRate = try r.number(x, path + ".springDecelerationRate", .openUnitInterval)
        }
        if let x = o["springResponseTime"] {
            b.springResponseTime = try r.number(x, path + ".springResponseTime", .positive)
        }
        if let x = o["momentumProjectionRate"] {
            b.momentumProjectionRate = try r.number(x, path + ".momentumProjectionRate", .openUnitInterval)
        }
        if let x = o["redirectionalProgress"] {
            b.redirectionalProgress = try r.number(x, path + ".redirectionalProgress")
        }
        if let x = o["projectsMomentumTo"] {
            b.projectsMomentumTo = try r.stateNames(x, path + ".projectsMomentumTo", states)
        }
        if let x = o["rubberBandingEdges"] {
            let items = try r.array(x, path + ".rubberBandingEdges")
            b.rubberBandingEdges = []
            for (k, item) in items.enumerated() {
                b.rubberBandingEdges.append(
                    try r.choice(item, "\(path).rubberBandingEdges[\(k)]", ["top", "bottom", "left", "right"]))
            }
        }
        if let x = o["removalInteractionVelocityThreshold"] {
            b.removalInteractionVelocityThreshold = try r.number(x, path + ".removalInteractionVelocityThreshold")
        }
        return b
    }

    static func parseDelegate(_ v: JSONValue, r: FieldReader, states: StateTable) throws(TraceError)
        -> FloatingPanelDelegateConfiguration
    {
        let path = "delegate"
        let o = try r.object(v, path)
        try r.checkKeys(
            o, path,
            [
                "shouldBeginDragging", "scrollableStates", "targetStateOverrides",
                "shouldRemove", "didMove", "didChangeState",
            ])
        var d = FloatingPanelDelegateConfiguration()
        if let x = o["shouldBeginDragging"] { d.shouldBeginDragging = try r.bool(x, path + ".shouldBeginDragging") }
        if let x = o["scrollableStates"], x != .null {
            d.scrollableStates = try r.stateNames(x, path + ".scrollableStates", states)
        }
        if let x = o["targetStateOverrides"] {
            let map = try r.object(x, path + ".targetStateOverrides")
            for (key, value) in map.entries {
                let p = path + ".targetStateOverrides." + key
                _ = try r.stateNamed(key, p, states)
                d.targetStateOverrides[key] = try r.state(value, p, states).name
            }
        }
        if let x = o["shouldRemove"] {
            let raw = try r.choice(x, path + ".shouldRemove", ["default", "always", "never"])
            d.shouldRemove = RemovalAnswer(rawValue: raw) ?? .default
        }
        if let x = o["didMove"], x != .null {
            let p = path + ".didMove"
            let m = try r.object(x, p)
            try r.checkKeys(m, p, ["clamp", "dismissBeyond"])
            var recipes = DidMoveRecipes()
            if let c = m["clamp"], c != .null {
                let cp = p + ".clamp"
                let co = try r.object(c, cp)
                try r.checkKeys(co, cp, ["min", "max"])
                let lo = try parseStateOffset(
                    try r.required(co, "min", cp, "{\"state\", \"offset\"}"), cp + ".min", r: r, states: states)
                let hi = try parseStateOffset(
                    try r.required(co, "max", cp, "{\"state\", \"offset\"}"), cp + ".max", r: r, states: states)
                recipes.clamp = (min: lo, max: hi)
            }
            if let db = m["dismissBeyond"], db != .null {
                recipes.dismissBeyond = try parseStateOffset(db, p + ".dismissBeyond", r: r, states: states)
            }
            d.didMove = recipes
        }
        if let x = o["didChangeState"], x != .null {
            let p = path + ".didChangeState"
            let c = try r.object(x, p)
            try r.checkKeys(c, p, ["dismissIn"])
            if let list = c["dismissIn"] { d.dismissIn = try r.stateNames(list, p + ".dismissIn", states) }
        }
        return d
    }

    static func parseStateOffset(_ v: JSONValue, _ path: String, r: FieldReader, states: StateTable) throws(TraceError)
        -> StateOffset
    {
        let o = try r.object(v, path)
        try r.checkKeys(o, path, ["state", "offset"])
        let state = try r.state(try r.required(o, "state", path, "a state name"), path + ".state", states)
        let offset = try r.number(try r.required(o, "offset", path, "a number (pt)"), path + ".offset")
        return StateOffset(state: state, offset: offset)
    }
}
