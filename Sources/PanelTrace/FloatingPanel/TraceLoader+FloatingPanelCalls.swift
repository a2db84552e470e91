import PanelSimCore

/// Reading FloatingPanel's `call` samples.
extension TraceLoader {
    static let supportedCalls = [
        "move", "show", "hide", "remove", "tapBackdrop", "setContentOffset", "setContentSize", "track", "untrack",
        "invalidateLayout",
    ]

    static func parseCall(_ o: JSONObject, r: FieldReader, states: StateTable) throws(TraceError) -> FloatingPanelCall {
        guard case .string(let name) = o["call"] ?? .null else {
            throw r.error(
                "call",
                "expected a call name (one of \(FieldReader.list(supportedCalls))), got \(FieldReader.describe(o["call"] ?? .null))"
            )
        }
        func animated() throws(TraceError) -> Bool {
            guard let a = o["animated"] else { return true }
            return try r.bool(a, "animated")
        }
        switch name {
        case "move":
            try r.checkKeys(o, "", ["t", "call", "to", "animated"])
            let to = try r.state(try r.required(o, "to", "", "a state name"), "to", states)
            return .move(to: to, animated: try animated())
        case "show":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            return .show(animated: try animated())
        case "hide":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            return .hide(animated: try animated())
        case "remove":
            try r.checkKeys(o, "", ["t", "call"])
            return .remove
        case "tapBackdrop":
            try r.checkKeys(o, "", ["t", "call"])
            return .tapBackdrop
        case "setContentOffset":
            try r.checkKeys(o, "", ["t", "call", "x", "y", "animated"])
            let x = try o["x"].map { v throws(TraceError) in try r.number(v, "x") }
            let y = try o["y"].map { v throws(TraceError) in try r.number(v, "y") }
            guard x != nil || y != nil else {
                throw r.error("y", "missing required field (expected \"x\" and/or \"y\", the content offset in pt)")
            }
            return .setContentOffset(x: x, y: y, animated: try animated())
        case "setContentSize":
            try r.checkKeys(o, "", ["t", "call", "width", "height"])
            let w = try o["width"].map { v throws(TraceError) in try r.number(v, "width", .nonNegative) }
            let h = try o["height"].map { v throws(TraceError) in try r.number(v, "height", .nonNegative) }
            guard w != nil || h != nil else {
                throw r.error("height", "missing required field (expected \"width\" and/or \"height\", pt)")
            }
            return .setContentSize(width: w, height: h)
        case "track":
            try r.checkKeys(o, "", ["t", "call", "scrollView"])
            return .track(
                try parseScrollView(
                    try r.required(o, "scrollView", "", "a scrollView object"), "scrollView", r: r, floatingPanel: true)
            )
        case "untrack":
            try r.checkKeys(o, "", ["t", "call"])
            return .untrack
        case "invalidateLayout":
            // The partial `panel` is merged over the layout in force by the caller (`parse(utf8:file:)`).
            try r.checkKeys(o, "", ["t", "call", "panel"])
            _ = try r.object(try r.required(o, "panel", "", "a partial panel object"), "panel")
            return .invalidateLayout(FloatingPanelConfiguration())
        default:
            var message = "unknown call \(quotedSingle(name))"
            if let near = FieldReader.nearest(name, supportedCalls) {
                message += " (did you mean \(quotedSingle(near))?)"
            }
            throw r.error("call", message + "; expected one of \(FieldReader.list(supportedCalls))")
        }
    }
}
