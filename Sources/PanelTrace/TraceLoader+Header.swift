import PanelSimCore

extension TraceLoader {
    static func parseHeader(_ root: JSONValue, r: FieldReader, defaultName: String) throws(TraceError) -> TraceHeader {
        guard case .object(let o) = root else {
            throw r.error(
                "",
                "expected the header object ({\"format\": \"panelsim-trace\", \"version\": 1, …}), got \(FieldReader.describe(root))"
            )
        }
        guard let format = o["format"] else {
            if o["t"] != nil {
                throw r.error(
                    "format",
                    "missing header (expected the first line to be the header with \"format\": \"panelsim-trace\", found a sample)"
                )
            }
            throw r.error("format", "missing required field (expected \"panelsim-trace\")")
        }
        guard case .string(let formatName) = format, formatName == "panelsim-trace" else {
            throw r.error("format", "expected \"panelsim-trace\", got \(FieldReader.describe(format))")
        }
        let versionValue = try r.required(o, "version", "", "1")
        let versionNumber = try r.jsonNumber(versionValue, "version")
        guard let version = ExactDecimal(versionNumber.text)?.integerValue, version >= 1 else {
            throw r.error("version", "expected 1, got \(versionNumber.text)")
        }
        if version != 1 {
            throw r.error(
                "version", "trace format version \(version) is not supported yet (this build reads version 1)",
                .unsupported)
        }
        try r.checkKeys(o, "", headerKeys)

        let model = try readModel(o, r: r)
        try checkSections(o, model: model, r: r)
        let name = try o["name"].map { v throws(TraceError) in try r.string(v, "name") } ?? defaultName
        let environment = try parseEnvironment(
            try r.required(o, "environment", "", "an object with \"container\""), r: r,
            keyboard: hasKeyboard(model))
        var header = try parseSystemSections(o, model: model, name: name, environment: environment, r: r)
        if let v = o["profile"] { header.profile = try parseProfile(v, model: model, r: r) }
        if let v = o["description"] { header.description = try r.string(v, "description") }
        if let v = o["source"] {
            let s = try r.object(v, "source")
            try r.checkKeys(s, "source", ["kind", "origin", "device"])
            if let k = s["kind"] { header.source.kind = try r.string(k, "source.kind") }
            if let k = s["origin"] { header.source.origin = try r.string(k, "source.origin") }
            if let k = s["device"] { header.source.device = try r.string(k, "source.device") }
        }
        if let v = o["scrollView"], v != .null { try parseHeaderScrollView(v, model: model, into: &header, r: r) }
        try systemFormat(model).finishHeader(&header, from: o, context: r.context)
        if let v = o["recognizer"] {
            let rec = try r.object(v, "recognizer")
            try r.checkKeys(rec, "recognizer", ["velocity", "beginThreshold"])
            if let k = rec["velocity"] {
                let raw = try r.choice(
                    k, "recognizer.velocity",
                    VelocitySource.allCases.map(\.rawValue) + systemFormat(model).velocityChoices)
                header.recognizer.velocity = VelocitySource(rawValue: raw) ?? .recorded
                if VelocitySource(rawValue: raw) == nil { systemFormat(model).applyVelocityChoice(raw, to: &header) }
            }
            if let k = rec["beginThreshold"] {
                header.recognizer.beginThreshold = try r.number(k, "recognizer.beginThreshold", .nonNegative)
            }
        }
        return header
    }

    /// A `scrollView` object: `frame` and `contentSize` required; `contentInset`, `contentOffset`,
    /// `bounces`, `alwaysBounceVertical`, `alwaysBounceHorizontal` and (added) `decelerationRate` optional.
    /// A `scrollView` object. `floatingPanel`: FloatingPanel's list, which also takes `systemInset`
    /// and a zero-size frame (a `UIScrollView()` never laid out); the other systems' lists keep a
    /// frame of positive size and no system inset.
    static func parseScrollView(_ v: JSONValue, _ path: String, r: FieldReader, floatingPanel: Bool = false)
        throws(TraceError) -> ScrollViewConfiguration
    {
        let o = try r.object(v, path)
        var keys = [
            "frame", "contentSize", "contentInset", "contentOffset", "bounces",
            "alwaysBounceVertical", "alwaysBounceHorizontal", "decelerationRate",
        ]
        if floatingPanel { keys.insert("systemInset", at: 3) }
        try r.checkKeys(o, path, keys)
        let framePath = FieldReader.join(path, "frame")
        let f = try r.object(
            try r.required(o, "frame", path, "an object {\"x\", \"y\", \"width\", \"height\"}"), framePath)
        try r.checkKeys(f, framePath, ["x", "y", "width", "height"])
        func field(_ obj: JSONObject, _ objPath: String, _ key: String, _ range: FieldReader.Range = .any)
            throws(TraceError) -> Double
        {
            try r.number(try r.required(obj, key, objPath, range.text), FieldReader.join(objPath, key), range)
        }
        let frame = Rect(
            x: try field(f, framePath, "x"), y: try field(f, framePath, "y"),
            width: try field(f, framePath, "width", floatingPanel ? .nonNegative : .positive),
            height: try field(f, framePath, "height", floatingPanel ? .nonNegative : .positive))
        let sizePath = FieldReader.join(path, "contentSize")
        let sz = try r.object(try r.required(o, "contentSize", path, "an object {\"width\", \"height\"}"), sizePath)
        try r.checkKeys(sz, sizePath, ["width", "height"])
        var c = ScrollViewConfiguration(
            frame: frame,
            contentSize: Size(
                width: try field(sz, sizePath, "width", .nonNegative),
                height: try field(sz, sizePath, "height", .nonNegative)))
        if let i = o["contentInset"] {
            c.contentInset = try parseInsets(i, FieldReader.join(path, "contentInset"), r: r)
        }
        if let i = o["systemInset"] { c.systemInset = try parseInsets(i, FieldReader.join(path, "systemInset"), r: r) }
        if let off = o["contentOffset"] {
            let offPath = FieldReader.join(path, "contentOffset")
            let oo = try r.object(off, offPath)
            try r.checkKeys(oo, offPath, ["x", "y"])
            c.contentOffset = Point(x: try field(oo, offPath, "x"), y: try field(oo, offPath, "y"))
        }
        if let b = o["bounces"] { c.bounces = try r.bool(b, FieldReader.join(path, "bounces")) }
        if let b = o["alwaysBounceVertical"] {
            c.alwaysBounceVertical = try r.bool(b, FieldReader.join(path, "alwaysBounceVertical"))
        }
        if let b = o["alwaysBounceHorizontal"] {
            c.alwaysBounceHorizontal = try r.bool(b, FieldReader.join(path, "alwaysBounceHorizontal"))
        }
        if let d = o["decelerationRate"] {
            c.decelerationRate = try r.number(d, FieldReader.join(path, "decelerationRate"), .openUnitInterval)
        }
        return c
    }

    static func parseEnvironment(_ v: JSONValue, r: FieldReader, keyboard: Bool = false) throws(TraceError)
        -> PanelEnvironment
    {
        let o = try r.object(v, "environment")
        try r.checkKeys(
            o, "environment", ["container", "safeArea", "displayScale", "frameRate"] + (keyboard ? ["keyboard"] : []))
        let c = try r.object(
            try r.required(o, "container", "environment", "an object {\"width\", \"height\"}"), "environment.container")
        try r.checkKeys(c, "environment.container", ["width", "height"])
        let width = try r.number(
            try r.required(c, "width", "environment.container", "a number > 0"), "environment.container.width",
            .positive)
        let height = try r.number(
            try r.required(c, "height", "environment.container", "a number > 0"), "environment.container.height",
            .positive)
        var env = PanelEnvironment(container: Size(width: width, height: height))
        if let s = o["safeArea"] { env.safeArea = try parseInsets(s, "environment.safeArea", r: r) }
        if let s = o["displayScale"] { env.displayScale = try r.number(s, "environment.displayScale", .positive) }
        if let f = o["frameRate"] {
            let n = try r.jsonNumber(f, "environment.frameRate")
            guard let rate = ExactDecimal(n.text)?.integerValue, rate >= 1, rate <= maxFrameRate else {
                throw r.error(
                    "environment.frameRate",
                    "expected a positive integer ≤ \(maxFrameRate) (frames per second), got \(n.text)")
            }
            env.frameRate = rate
        }
        if keyboard, let k = o["keyboard"], k != .null { env.keyboard = try parseKeyboard(k, r: r) }
        return env
    }

    static func parseInsets(_ v: JSONValue, _ path: String, r: FieldReader) throws(TraceError) -> Insets {
        let o = try r.object(v, path)
        let keys = ["top", "left", "bottom", "right"]
        try r.checkKeys(o, path, keys)
        var values: [Double] = []
        for key in keys {
            let value = try r.required(o, key, path, "a number ≥ 0 (all four insets are required)")
            values.append(try r.number(value, FieldReader.join(path, key), .nonNegative))
        }
        return Insets(top: values[0], left: values[1], bottom: values[2], right: values[3])
    }
}
