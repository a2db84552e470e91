import PanelSimCore

/// Loading the LNPopup contract extension (lnpopup.md §2): the `popup` header section, the list's
/// `isDirectionalLockEnabled`, and LNPopup's calls, with the loader's usual `file:line: field:
/// message` errors (§2.4).
extension TraceLoader {
    static let popupKeys = [
        "interactionStyle", "snapPercent", "glass", "bar", "bottomBar", "closeButton",
        "interactionLimitRect", "initialState", "simulator",
    ]
    static let popupCalls = [
        "presentBar", "dismissBar", "openPopup", "closePopup", "tapBar", "tapCloseButton",
        "setContentOffset", "setContentSize",
    ]

    /// The `popup` section; `environment` bounds `bottomBar.height` (0 < T < H).
    /// - Throws: `TraceError` naming the field (`popup.bottomBar.height`, …): an unknown style, kind
    ///   or initial state, `bar.style: custom` without `bar.height`, a missing or out-of-range
    ///   bottom-bar height, an unknown key.
    /// - Complexity: O(size of the section).
    static func parsePopup(_ v: JSONValue, environment: PanelEnvironment, r: FieldReader) throws(TraceError)
        -> PopupConfiguration
    {
        let o = try r.object(v, "popup")
        try r.checkKeys(o, "popup", popupKeys)
        var p = PopupConfiguration()
        if let x = o["interactionStyle"] {
            p.interactionStyle = try r.choice(x, "popup.interactionStyle", of: PopupInteractionStyle.self)
        }
        // Any finite number: LNPopup's setter clamps to [0.1, 0.9] (lnpopup.md §2.1, 343–346), so
        // 0, −1 and 1.5 are written as the app would write them and clamped at use.
        if let x = o["snapPercent"] { p.snapPercent = try r.number(x, "popup.snapPercent") }
        if let x = o["glass"] { p.glass = try r.bool(x, "popup.glass") }
        if let x = o["bar"] {
            let b = try r.object(x, "popup.bar")
            try r.checkKeys(b, "popup.bar", ["style", "height", "offset"])
            if let s = b["style"] {
                p.barStyle = try r.choice(s, "popup.bar.style", of: PopupBarStyle.self)
            }
            if let h = b["height"], h != .null { p.barHeight = try r.number(h, "popup.bar.height", .positive) }
            if let off = b["offset"] { p.barOffset = try r.number(off, "popup.bar.offset") }
            if p.barStyle == .custom && p.barHeight == nil {
                throw r.error(
                    "popup.bar.height",
                    "missing required field (a custom bar has no height of its own; expected its preferredContentSize.height in pt, a number > 0)"
                )
            }
        }
        if let x = o["bottomBar"] {
            let b = try r.object(x, "popup.bottomBar")
            try r.checkKeys(b, "popup.bottomBar", ["kind", "height"])
            p.bottomBarKind = try r.choice(
                try r.required(b, "kind", "popup.bottomBar", "one of none, tabBar, toolbar"), "popup.bottomBar.kind",
                of: PopupBottomBarKind.self)
            let kind = p.bottomBarKind.rawValue
            if p.bottomBarKind != .none {
                let H = environment.container.height
                let what =
                    "the distance from the container's bottom to the \(kind)'s top edge in pt, 0 < T < \(CanonicalNumber.format(H))"
                let t = try r.number(try r.required(b, "height", "popup.bottomBar", what), "popup.bottomBar.height")
                guard t > 0 && t < H else {
                    throw r.error("popup.bottomBar.height", "expected \(what), got \(CanonicalNumber.format(t))")
                }
                p.bottomBarHeight = t
            } else if let h = b["height"], h != .null {
                _ = try r.number(h, "popup.bottomBar.height", .nonNegative)
            }
        }
        if let x = o["closeButton"] {
            let c = try r.object(x, "popup.closeButton")
            try r.checkKeys(c, "popup.closeButton", ["style", "frame"])
            if let s = c["style"] {
                p.closeButtonStyle = try r.choice(s, "popup.closeButton.style", of: PopupCloseButtonStyle.self)
            }
            if let f = c["frame"], f != .null { p.closeButtonFrame = try parseRect(f, "popup.closeButton.frame", r: r) }
        }
        if let x = o["interactionLimitRect"], x != .null {
            p.interactionLimitRect = try parseRect(x, "popup.interactionLimitRect", r: r)
        }
        if let x = o["initialState"] {
            p.initialState = try r.choice(x, "popup.initialState", of: PopupInitialState.self)
        }
        if let x = o["simulator"] {
            let s = try r.object(x, "popup.simulator")
            try r.checkKeys(s, "popup.simulator", ["curve", "releaseRule"])
            if let c = s["curve"] {
                p.curve = try r.choice(c, "popup.simulator.curve", of: PopupCurve.self)
            }
            if let c = s["releaseRule"] {
                p.releaseRule = try r.choice(c, "popup.simulator.releaseRule", of: PopupReleaseRule.self)
            }
        }
        return p
    }

    /// The closed bar and the docking line must lie inside the container (the equivalents of §2.4's
    /// 0 < `bottomBar.height` < H, which the spec does not list; docs/lnpopup.md): without a bottom
    /// bar `safeArea.bottom` < H; the closed bar's frame (dock − hB + offset, hB) within [0, H].
    /// - Throws: `TraceError` naming `environment.safeArea.bottom`, `popup.bar.height` (or, without
    ///   an explicit height, the field that set the docking line) or `popup.bar.offset`.
    static func checkPopupGeometry(_ p: PopupConfiguration, environment: PanelEnvironment, r: FieldReader)
        throws(TraceError)
    {
        let H = environment.container.height
        let f = CanonicalNumber.format
        if p.bottomBarKind == .none, environment.safeArea.bottom >= H {
            throw r.error(
                "environment.safeArea.bottom",
                "expected < \(f(H)) (the container height) in an LNPopup trace without a bottom bar: the docking line H − safeArea.bottom must lie inside the container; got \(f(environment.safeArea.bottom)) (docking line \(f(H - environment.safeArea.bottom)))"
            )
        }
        let dock = p.dockingLine(environment: environment)
        let bar = p.closedBarFrame(environment: environment)
        let hB = bar.size.height
        guard bar.minY < 0 || bar.maxY > H else { return }
        if p.barOffset != 0 && hB <= dock {
            throw r.error(
                "popup.bar.offset",
                "expected an offset in [\(f(hB - dock)), \(f(H - dock))] so that the closed bar (\(f(hB)) pt, docked at y \(f(dock))) lies inside the container (y 0 to \(f(H))); got \(f(p.barOffset)), which puts it at y \(f(bar.minY)) to \(f(bar.maxY))"
            )
        }
        let field =
            p.barHeight != nil
            ? "popup.bar.height"
            : p.bottomBarKind != .none ? "popup.bottomBar.height" : "environment.safeArea.bottom"
        throw r.error(
            field,
            "the closed bar (\(f(hB)) pt tall, offset \(f(p.barOffset))) does not fit between the container's top and the docking line at y \(f(dock)): it would span y \(f(bar.minY)) to \(f(bar.maxY)); expected it inside the container (y 0 to \(f(H)))"
        )
    }

    /// An LNPopup header's `scrollView`: the contract's shape plus `isDirectionalLockEnabled`
    /// (lnpopup.md §2.1), frame in popup-content coordinates.
    static func parsePopupScrollView(_ v: JSONValue, r: FieldReader) throws(TraceError) -> (
        ScrollViewConfiguration, Bool
    ) {
        var o = try r.object(v, "scrollView")
        var lock = false
        if let l = o["isDirectionalLockEnabled"] {
            lock = try r.bool(l, "scrollView.isDirectionalLockEnabled")
            o.entries.removeAll { $0.key == "isDirectionalLockEnabled" }
        }
        return (try parseScrollView(.object(o), "scrollView", r: r), lock)
    }

    /// An LNPopup `call` sample (lnpopup.md §2.2).
    /// - Throws: `TraceError` for an unknown call (§2.4), an unknown field or a malformed value.
    static func parsePopupCall(_ o: JSONObject, r: FieldReader) throws(TraceError) -> PopupCall {
        guard case .string(let name) = o["call"] ?? .null else {
            throw r.error(
                "call",
                "expected an LNPopup call name (one of \(FieldReader.list(popupCalls))), got \(FieldReader.describe(o["call"] ?? .null))"
            )
        }
        func flag(_ key: String, _ fallback: Bool) throws(TraceError) -> Bool {
            try o[key].map { v throws(TraceError) in try r.bool(v, key) } ?? fallback
        }
        func optionalNumber(_ key: String, _ range: FieldReader.Range = .any) throws(TraceError) -> Double? {
            guard let v = o[key], v != .null else { return nil }
            return try r.number(v, key, range)
        }
        switch name {
        case "presentBar":
            try r.checkKeys(o, "", ["t", "call", "animated", "openPopup"])
            return .presentBar(animated: try flag("animated", true), openPopup: try flag("openPopup", false))
        case "dismissBar":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            return .dismissBar(animated: try flag("animated", true))
        case "openPopup":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            return .openPopup(animated: try flag("animated", true))
        case "closePopup":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            return .closePopup(animated: try flag("animated", true))
        case "tapBar":
            try r.checkKeys(o, "", ["t", "call"])
            return .tapBar
        case "tapCloseButton":
            try r.checkKeys(o, "", ["t", "call"])
            return .tapCloseButton
        case "setContentOffset":
            try r.checkKeys(o, "", ["t", "call", "x", "y", "animated"])
            _ = try flag("animated", false)
            let x = try optionalNumber("x")
            let y = try optionalNumber("y")
            guard x != nil || y != nil else {
                throw r.error("y", "missing required field (expected \"x\" and/or \"y\", the content offset in pt)")
            }
            return .setContentOffset(x: x, y: y)
        case "setContentSize":
            try r.checkKeys(o, "", ["t", "call", "width", "height"])
            return .setContentSize(
                width: try optionalNumber("width", .nonNegative), height: try optionalNumber("height", .nonNegative))
        default:
            var message = "unknown LNPopup call \(quotedSingle(name))"
            if let near = FieldReader.nearest(name, popupCalls) { message += " (did you mean \(quotedSingle(near))?)" }
            throw r.error("call", message + "; expected one of \(FieldReader.list(popupCalls))")
        }
    }
}
