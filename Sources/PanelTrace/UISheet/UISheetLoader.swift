import PanelSimCore

/// Loading the UISheetPresentationController contract extension (uisheet.md §2): the `sheet` and
/// `sheetDelegate` header sections and the sheet calls, with the loader's usual
/// `file:line: field: message` errors for every case of §2.4.
extension TraceLoader {
    static let sheetKeys = [
        "detents", "selectedDetentIdentifier", "largestUndimmedDetentIdentifier",
        "prefersScrollingExpandsWhenScrolledToEdge", "prefersEdgeAttachedInCompactHeight",
        "widthFollowsPreferredContentSizeWhenEdgeAttached", "prefersGrabberVisible",
        "preferredCornerRadius", "isModalInPresentation", "presented", "keyboardPolicy",
        "expandOnKeyboard", "simulator",
    ]
    static let sheetSimulatorKeys = [
        "mediumValue", "topMargin", "projectionRate", "minimumSpeed", "fastFlickThreshold",
        "springResponse", "dampingRatio", "fastDampingRatio", "dimmingAlpha",
        "keyboardAnimation", "variant",
    ]
    static let sheetCalls = [
        "present", "dismiss", "selectDetent", "setDetents", "setLargestUndimmedDetent",
        "setModalInPresentation", "setShouldDismiss", "setPrefersScrollingExpands", "tapDimming", "tapGrabber",
        "setContentOffset", "setContentSize", "track", "untrack",
    ]

    /// The `sheet` section and `sheetDelegate` (§2.1).
    /// - Throws: `TraceError` naming the field (`sheet.detents[1].fraction`, …).
    /// - Complexity: O(size of the sections).
    static func parseSheet(_ v: JSONValue, delegate: JSONValue?, r: FieldReader) throws(TraceError)
        -> SheetConfiguration
    {
        let o = try r.object(v, "sheet")
        try r.checkKeys(o, "sheet", sheetKeys)
        var c = SheetConfiguration()
        if let x = o["detents"] { c.detents = try parseDetents(x, "sheet.detents", r: r) }
        func identifier(_ key: String) throws(TraceError) -> String? {
            guard let x = o[key], x != .null else { return nil }
            return try r.string(x, "sheet." + key)
        }
        func flag(_ key: String) throws(TraceError) -> Bool? {
            guard let x = o[key] else { return nil }
            return try r.bool(x, "sheet." + key)
        }
        c.selectedDetentIdentifier = try identifier("selectedDetentIdentifier")
        c.largestUndimmedDetentIdentifier = try identifier("largestUndimmedDetentIdentifier")
        if let b = try flag("prefersScrollingExpandsWhenScrolledToEdge") {
            c.prefersScrollingExpandsWhenScrolledToEdge = b
        }
        if let b = try flag("prefersEdgeAttachedInCompactHeight") { c.prefersEdgeAttachedInCompactHeight = b }
        if let b = try flag("widthFollowsPreferredContentSizeWhenEdgeAttached") {
            c.widthFollowsPreferredContentSizeWhenEdgeAttached = b
        }
        if let b = try flag("prefersGrabberVisible") { c.prefersGrabberVisible = b }
        if let x = o["preferredCornerRadius"], x != .null {
            c.preferredCornerRadius = try r.number(x, "sheet.preferredCornerRadius", .nonNegative)
        }
        if let b = try flag("isModalInPresentation") { c.isModalInPresentation = b }
        if let b = try flag("presented") { c.presented = b }
        if let x = o["keyboardPolicy"] {
            c.keyboardPolicy =
                SheetKeyboardPolicy(
                    rawValue: try r.choice(
                        x, "sheet.keyboardPolicy",
                        SheetKeyboardPolicy.allCases.map(\.rawValue))) ?? .uikit
        }
        // The bug log's name: "expandOnKeyboard": false is "liftSelected" (§2.1).
        if let b = try flag("expandOnKeyboard") {
            if o["keyboardPolicy"] != nil {
                throw r.error(
                    "sheet.expandOnKeyboard",
                    "give either keyboardPolicy or its alias expandOnKeyboard, not both; expected only \"keyboardPolicy\": \"uikit\" or \"liftSelected\" (or only \"expandOnKeyboard\": true or false)"
                )
            }
            c.keyboardPolicy = b ? .uikit : .liftSelected
        }
        if let x = o["simulator"] { c.simulator = try parseSheetSimulator(x, r: r) }
        if let d = delegate {
            let dd = try r.object(d, "sheetDelegate")
            try r.checkKeys(dd, "sheetDelegate", ["shouldDismiss"])
            if let x = dd["shouldDismiss"] {
                c.shouldDismiss =
                    SheetShouldDismiss(
                        rawValue: try r.choice(
                            x, "sheetDelegate.shouldDismiss",
                            SheetShouldDismiss.allCases.map(\.rawValue))) ?? .default
            }
        }
        return c
    }

    static func parseSheetSimulator(_ v: JSONValue, r: FieldReader) throws(TraceError) -> SheetSimulatorOptions {
        let path = "sheet.simulator"
        let o = try r.object(v, path)
        try r.checkKeys(o, path, sheetSimulatorKeys)
        var s = SheetSimulatorOptions()
        func number(_ key: String, _ range: FieldReader.Range) throws(TraceError) -> Double? {
            guard let x = o[key] else { return nil }
            return try r.number(x, path + "." + key, range)
        }
        if let x = o["mediumValue"] {
            s.mediumValue =
                SheetSimulatorOptions.MediumValue(
                    rawValue: try r.choice(
                        x, path + ".mediumValue",
                        SheetSimulatorOptions.MediumValue.allCases.map(\.rawValue))) ?? .uikit
        }
        // A margin is a distance below the safe-area top: a negative one would put the large
        // detent above the safe area (or the container); refused (U2).
        if let x = o["topMargin"], x != .null { s.topMargin = try r.number(x, path + ".topMargin", .nonNegative) }
        if let x = try number("projectionRate", .openUnitInterval) { s.projectionRate = x }
        if let x = try number("minimumSpeed", .nonNegative) { s.minimumSpeed = x }
        if let x = try number("fastFlickThreshold", .nonNegative) { s.fastFlickThreshold = x }
        if let x = try number("springResponse", .positive) { s.springResponse = x }
        if let x = try number("dampingRatio", .positive) { s.dampingRatio = x }
        if let x = try number("fastDampingRatio", .positive) { s.fastDampingRatio = x }
        if let x = try number("dimmingAlpha", .unitInterval) { s.dimmingAlpha = x }
        if let x = o["keyboardAnimation"] {
            s.keyboardAnimation =
                SheetSimulatorOptions.KeyboardAnimation(
                    rawValue: try r.choice(
                        x, path + ".keyboardAnimation",
                        SheetSimulatorOptions.KeyboardAnimation.allCases.map(\.rawValue))) ?? .spring
        }
        if let x = o["variant"] {
            s.variant =
                SheetSimulatorOptions.Variant(
                    rawValue: try r.choice(
                        x, path + ".variant",
                        SheetSimulatorOptions.Variant.allCases.map(\.rawValue))) ?? .ios15
        }
        return s
    }

    /// A `detents` list (§2.1, §2.4): non-empty, unique identifiers, a known kind, custom detents
    /// with an identifier and exactly one of `height` (≥ 0) / `fraction` (0…1).
    /// - Complexity: O(n) expected in the number of detents (identifiers are checked for
    ///   uniqueness through a hash table, ``DetentIdentifierIndex``).
    static func parseDetents(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> [SheetDetent] {
        let items = try r.array(v, path)
        guard !items.isEmpty else {
            throw r.error(
                path,
                "empty detents list (UIKit requires at least one detent, uisheet.md §2.4); expected e.g. [{\"identifier\": \"large\", \"kind\": \"large\"}]"
            )
        }
        var out: [SheetDetent] = []
        out.reserveCapacity(items.count)
        var seen = DetentIdentifierIndex(capacity: items.count)
        for (k, item) in items.enumerated() {
            let p = "\(path)[\(k)]"
            let o = try r.object(item, p)
            try r.checkKeys(o, p, ["identifier", "kind", "height", "fraction", "inactive"])
            let kindName = try r.choice(
                try r.required(o, "kind", p, "one of medium, large, custom"), p + ".kind",
                ["medium", "large", "custom"])
            var identifier: String? = nil
            if let x = o["identifier"], x != .null { identifier = try r.string(x, p + ".identifier") }
            let kind: SheetDetent.Kind
            switch kindName {
            case "medium", "large":
                for key in ["height", "fraction"] where o[key] != nil {
                    throw r.error(
                        p + "." + key, "only a custom detent has a \(key); expected no \(key) for a \(kindName) detent")
                }
                kind = kindName == "medium" ? .medium : .large
            default:
                guard identifier != nil else {
                    throw r.error(
                        p + ".identifier",
                        "missing required field (a custom detent needs an identifier, uisheet.md §2.4); expected a string, e.g. \"identifier\": \"peek\""
                    )
                }
                switch (o["height"], o["fraction"]) {
                case (nil, nil):
                    throw r.error(
                        p + ".height",
                        "a custom detent needs exactly one of \"height\" or \"fraction\"; got neither; expected \"height\" (pt ≥ 0) or \"fraction\" (0…1)"
                    )
                case (.some, .some):
                    throw r.error(
                        p + ".fraction",
                        "a custom detent needs exactly one of \"height\" or \"fraction\"; got both; expected only one of them"
                    )
                case (let h?, nil):
                    kind = .height(try r.number(h, p + ".height", .nonNegative))
                case (nil, let f?):
                    kind = .fraction(try r.number(f, p + ".fraction", .unitInterval))
                }
            }
            let id = identifier ?? kindName
            if let previous = seen.insert(id, at: k) {
                throw r.error(
                    p + ".identifier",
                    "duplicate detent identifier \(quotedSingle(id)) (also \(path)[\(previous)]); expected unique identifiers"
                )
            }
            var inactive = false
            if let x = o["inactive"] { inactive = try r.bool(x, p + ".inactive") }
            out.append(SheetDetent(identifier: id, kind: kind, inactive: inactive))
        }
        return out
    }

    /// A sheet `call` sample (§2.2); `shouldDismiss` is the header's `sheetDelegate.shouldDismiss`.
    /// - Throws: `TraceError` for an unknown call, an unknown field or a malformed value, and for
    ///   `setShouldDismiss` in a trace whose delegate does not implement
    ///   `presentationControllerShouldDismiss(_:)` (`shouldDismiss` `default`, field `call`).
    static func parseSheetCall(_ o: JSONObject, shouldDismiss: SheetShouldDismiss, r: FieldReader) throws(TraceError)
        -> SheetCall
    {
        guard case .string(let name) = o["call"] ?? .null else {
            throw r.error(
                "call",
                "expected a sheet call name (one of \(FieldReader.list(sheetCalls))), got \(FieldReader.describe(o["call"] ?? .null))"
            )
        }
        func flag(_ key: String, _ fallback: Bool) throws(TraceError) -> Bool {
            guard let x = o[key] else { return fallback }
            return try r.bool(x, key)
        }
        func identifier() throws(TraceError) -> String? {
            guard let x = o["identifier"], x != .null else { return nil }
            return try r.string(x, "identifier")
        }
        switch name {
        case "present", "dismiss":
            try r.checkKeys(o, "", ["t", "call", "animated"])
            let animated = try flag("animated", true)
            return name == "present" ? .present(animated: animated) : .dismiss(animated: animated)
        case "selectDetent":
            try r.checkKeys(o, "", ["t", "call", "identifier", "animateChanges"])
            _ = try r.required(o, "identifier", "", "a detent identifier or null")
            return .selectDetent(try identifier(), animateChanges: try flag("animateChanges", false))
        case "setDetents":
            try r.checkKeys(o, "", ["t", "call", "detents", "animateChanges"])
            let list = try parseDetents(
                try r.required(o, "detents", "", "a non-empty list of detents"), "detents", r: r)
            return .setDetents(list, animateChanges: try flag("animateChanges", false))
        case "setLargestUndimmedDetent":
            try r.checkKeys(o, "", ["t", "call", "identifier", "animateChanges"])
            return .setLargestUndimmedDetent(try identifier(), animateChanges: try flag("animateChanges", false))
        case "setModalInPresentation", "setPrefersScrollingExpands":
            try r.checkKeys(o, "", ["t", "call", "value"])
            let value = try r.bool(try r.required(o, "value", "", "true or false"), "value")
            return name == "setModalInPresentation"
                ? .setModalInPresentation(value) : .setPrefersScrollingExpands(value)
        case "setShouldDismiss":
            try r.checkKeys(o, "", ["t", "call", "value"])
            guard shouldDismiss != .default else {
                throw r.error(
                    "call",
                    "setShouldDismiss changes the answer of presentationControllerShouldDismiss(_:), which this trace's delegate does not implement (sheetDelegate.shouldDismiss is \"default\"); expected sheetDelegate.shouldDismiss \"always\" or \"never\" in the header (uisheet.md §2.2)"
                )
            }
            return .setShouldDismiss(try r.bool(try r.required(o, "value", "", "true or false"), "value"))
        case "tapDimming":
            try r.checkKeys(o, "", ["t", "call", "x", "y"])
            let x = try o["x"].map { v throws(TraceError) in try r.number(v, "x") }
            let y = try o["y"].map { v throws(TraceError) in try r.number(v, "y") }
            return .tapDimming(x: x, y: y)
        case "tapGrabber":
            try r.checkKeys(o, "", ["t", "call"])
            return .tapGrabber
        case "setContentOffset", "setContentSize", "track", "untrack":
            switch try parseCall(o, r: r, states: StateTable([])) {
            case .setContentOffset(let x, let y, let animated): return .setContentOffset(x: x, y: y, animated: animated)
            case .setContentSize(let w, let h): return .setContentSize(width: w, height: h)
            case .track(let c): return .track(c)
            default: return .untrack
            }
        default:
            var message = "unknown sheet call \(quotedSingle(name))"
            if let near = FieldReader.nearest(name, sheetCalls) { message += " (did you mean \(quotedSingle(near))?)" }
            throw r.error("call", message + "; expected one of \(FieldReader.list(sheetCalls))")
        }
    }

    /// A sheet trace's environment (the header's and every merged `environment` sample's): safe-area
    /// insets that do not fit in the container cannot exist (the detent geometry of §3.1 measures
    /// from both); refused with the inset's field. (§2.4 is silent; our rule, docs/uisheet.md.)
    static func validateSheetEnvironment(_ e: PanelEnvironment, r: FieldReader) throws(TraceError) {
        let h = e.container.height
        let top = e.safeArea.top
        let bottom = e.safeArea.bottom
        func f(_ x: Double) -> String { CanonicalNumber.format(x) }
        if top > h {
            throw r.error(
                "environment.safeArea.top",
                "the safe-area top inset \(f(top)) pt exceeds the container height \(f(h)) pt; expected top + bottom ≤ height (the contract default safe area is 47/34)"
            )
        }
        if top + bottom > h {
            throw r.error(
                "environment.safeArea.bottom",
                "the safe-area insets top \(f(top)) + bottom \(f(bottom)) pt exceed the container height \(f(h)) pt; expected top + bottom ≤ height (the contract default safe area is 47/34)"
            )
        }
    }

    /// `environment.keyboard` (§2.2): `height` required (pt ≥ 0); `duration` (s ≥ 0), `curve`
    /// (integer) and `firstResponderInSheet` optional.
    static func parseKeyboard(_ v: JSONValue, r: FieldReader) throws(TraceError) -> KeyboardFrame {
        let path = "environment.keyboard"
        let o = try r.object(v, path)
        try r.checkKeys(o, path, ["height", "duration", "curve", "firstResponderInSheet"])
        var k = KeyboardFrame(
            height: try r.number(
                try r.required(o, "height", path, "a height in pt ≥ 0"), path + ".height", .nonNegative))
        if let x = o["duration"] { k.duration = try r.number(x, path + ".duration", .nonNegative) }
        if let x = o["curve"] { k.curve = try r.integer(x, path + ".curve", minimum: 0) }
        if let x = o["firstResponderInSheet"] {
            k.firstResponderInSheet = try r.bool(x, path + ".firstResponderInSheet")
        }
        return k
    }
}

/// The detent identifiers of a list read so far, hashed, so that a duplicate is found in O(1)
/// rather than by comparing with every earlier identifier (10⁵ detents would otherwise cost
/// about 5·10⁹ string comparisons).
struct DetentIdentifierIndex {
    private var positions: [String: Int] = [:]
    init(capacity: Int) { positions.reserveCapacity(capacity) }

    /// Records `identifier` at list position `index`; returns the position of an earlier detent
    /// with the same identifier (then nothing is recorded), nil when it is new.
    /// - Complexity: O(1) expected (plus the identifier's length, hashed once).
    mutating func insert(_ identifier: String, at index: Int) -> Int? {
        if let previous = positions[identifier] { return previous }
        positions[identifier] = index
        return nil
    }
}
