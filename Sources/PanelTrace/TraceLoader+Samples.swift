import PanelSimCore

/// What the loader remembers from earlier samples to check the later ones.
struct SampleSequence {
    var lastTime: Microseconds = 0
    /// The previous time as written (its Double), so that sub-µs decreases are caught before rounding.
    var lastTimeValue: Double = 0
    var lastTimeText: String?
    /// Where ``TouchLineFastPath`` left the previous time's text (byte offsets into the file) instead
    /// of building `lastTimeText`; ``materializeTimeText(_:)`` turns it into `lastTimeText` before a
    /// line takes the general path. At most one of the two is set.
    var pendingTimeText: Range<Int>?
    var lastTimeLine = 0
    /// Finger id → line of its `began`, for fingers currently down.
    var down = FingerLines()
    var endLine: Int?

    /// Sets `lastTimeText` from `pendingTimeText` (offsets into `bytes`), as the general path
    /// would have set it.
    mutating func materializeTimeText(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let range = pendingTimeText else { return }
        lastTimeText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        pendingTimeText = nil
    }
}

extension TraceLoader {
    /// A `scroll` sample: `contentOffset` {x, y} (required: the sample is the content offset the
    /// device reported), `contentSize` {width, height} and `isDecelerating` (optional).
    static func parseScroll(_ o: JSONObject, r: FieldReader) throws(TraceError) -> ScrollSample {
        try r.checkKeys(o, "", ["t", "scroll"])
        let so = try r.object(o["scroll"] ?? .null, "scroll")
        try r.checkKeys(so, "scroll", ["contentOffset", "contentSize", "isDecelerating"])
        var sample = ScrollSample()
        let offset = try r.object(
            try r.required(so, "contentOffset", "scroll", "the content offset {\"x\", \"y\"} in pt"),
            "scroll.contentOffset")
        try r.checkKeys(offset, "scroll.contentOffset", ["x", "y"])
        sample.contentOffset = Point(
            x: try r.number(
                try r.required(offset, "x", "scroll.contentOffset", "a number (pt)"), "scroll.contentOffset.x"),
            y: try r.number(
                try r.required(offset, "y", "scroll.contentOffset", "a number (pt)"), "scroll.contentOffset.y"))
        if let v = so["contentSize"] {
            let p = try r.object(v, "scroll.contentSize")
            try r.checkKeys(p, "scroll.contentSize", ["width", "height"])
            sample.contentSize = Size(
                width: try r.number(
                    try r.required(p, "width", "scroll.contentSize", "a number ≥ 0"), "scroll.contentSize.width",
                    .nonNegative),
                height: try r.number(
                    try r.required(p, "height", "scroll.contentSize", "a number ≥ 0"), "scroll.contentSize.height",
                    .nonNegative))
        }
        if let v = so["isDecelerating"] { sample.isDecelerating = try r.bool(v, "scroll.isDecelerating") }
        return sample
    }

    static func parseSample(
        _ value: JSONValue, r: FieldReader, states: StateTable,
        sequence: inout SampleSequence, header: TraceHeader? = nil
    ) throws(TraceError) -> TraceSample {
        let model = header?.model ?? .floatingPanel
        if let endLine = sequence.endLine {
            throw r.error("end", "nothing may follow the 'end' sample (line \(endLine)); expected the end of the trace")
        }
        guard case .object(let o) = value else {
            throw r.error(
                "",
                "expected a sample object ({\"t\": …, \"touch\"|\"call\"|\"observed\"|\"end\": …}), got \(FieldReader.describe(value))"
            )
        }
        guard let tValue = o["t"] else {
            if o["format"] != nil {
                throw r.error("format", "expected a sample, found a second header (the header is the first line only)")
            }
            throw r.error("t", "missing required field (expected the sample time in seconds, a number ≥ 0)")
        }
        let tNumber = try r.jsonNumber(tValue, "t")
        guard tNumber.double >= 0, let decimal = ExactDecimal(tNumber.text), !decimal.negative || decimal.isZero else {
            throw r.error("t", "expected a time ≥ 0 s, got \(tNumber.text)")
        }
        guard let time = decimal.rounded(shiftingBy: 6), time <= maxTime else {
            throw r.error("t", "expected a time ≤ 100000000 s (about 3 years), got \(tNumber.text)")
        }
        if let previous = sequence.lastTimeText, time < sequence.lastTime || tNumber.double < sequence.lastTimeValue {
            throw r.error(
                "t",
                "time goes backwards: t = \(tNumber.text) s comes after t = \(previous) s (line \(sequence.lastTimeLine)); expected t ≥ \(previous)"
            )
        }
        sequence.lastTime = time
        sequence.lastTimeValue = tNumber.double
        sequence.lastTimeText = tNumber.text
        sequence.lastTimeLine = r.line

        // The kinds present, in `sampleKinds` order (one pass over the line's few keys).
        var present: [String] = []
        for entry in o.entries where entry.key != "t" && sampleKinds.contains(entry.key) { present.append(entry.key) }
        if present.count > 1 {
            present.sort { sampleKinds.firstIndex(of: $0)! < sampleKinds.firstIndex(of: $1)! }
        }
        guard let kind = present.first else {
            let others = o.keys.filter { $0 != "t" }
            let expected = "one of the sample kinds \(FieldReader.list(sampleKinds))"
            if let key = others.first {
                var message = "unknown key \(quotedSingle(key))"
                if let near = FieldReader.nearest(key, sampleKinds) {
                    message += " (did you mean \(quotedSingle(near))?)"
                }
                throw r.error(key, message + "; expected " + expected)
            }
            throw r.error("", "missing sample kind (expected \(expected))")
        }
        if present.count > 1 {
            throw r.error(
                present[1],
                "expected exactly one sample kind per line, found both \(quotedSingle(present[0])) and \(quotedSingle(present[1]))"
            )
        }
        let sampleKind: SampleKind
        switch kind {
        case "touch": sampleKind = .touch(try parseTouch(o, r: r, sequence: &sequence))
        case "call": sampleKind = try parseSystemCall(o, header: header, r: r, states: states)
        case "observed": sampleKind = .observed(try parseObserved(o, r: r, states: states, header: header))
        case "scroll":
            sampleKind = .scroll(try parseScroll(o, r: r))
        case "environment":
            try checkEnvironmentSamplesAllowed(model, r: r)
            // Merged over the environment in force by the caller (`parse(utf8:file:)`).
            try r.checkKeys(o, "", ["t", "environment"])
            let e = try r.object(o["environment"] ?? .null, "environment")
            try r.checkKeys(
                e, "environment",
                ["container", "safeArea", "displayScale", "frameRate"] + (hasKeyboard(model) ? ["keyboard"] : []))
            sampleKind = .environment(PanelEnvironment(container: Size(width: 1, height: 1)))
        case "end":
            try r.checkKeys(o, "", ["t", "end"])
            let e = try r.bool(o["end"] ?? .null, "end")
            guard e else { throw r.error("end", "expected true, got false") }
            sequence.endLine = r.line
            sampleKind = .end
        default:
            preconditionFailure("sampleKinds lists only the kinds handled above")
        }
        return TraceSample(time: time, line: r.line, kind: sampleKind)
    }

    static func parseTouch(_ o: JSONObject, r: FieldReader, sequence: inout SampleSequence) throws(TraceError)
        -> TouchSample
    {
        try r.checkKeys(o, "", ["t", "touch", "id", "x", "y", "velocity"])
        let raw = try r.choice(o["touch"] ?? .null, "touch", touchPhases)
        let phase = TouchPhase(rawValue: raw) ?? .began
        var id = 0
        if let v = o["id"] { id = try r.integer(v, "id", minimum: 0) }
        let x = try r.number(try r.required(o, "x", "", "a number (pt)"), "x")
        let y = try r.number(try r.required(o, "y", "", "a number (pt)"), "y")
        var velocity: Point?
        if let v = o["velocity"], v != .null {
            let vo = try r.object(v, "velocity")
            try r.checkKeys(vo, "velocity", ["x", "y"])
            let vx = try r.number(try r.required(vo, "x", "velocity", "a number (pt/s)"), "velocity.x")
            let vy = try r.number(try r.required(vo, "y", "velocity", "a number (pt/s)"), "velocity.y")
            velocity = Point(x: vx, y: vy)
        }
        switch phase {
        case .began:
            if let since = sequence.down[id] {
                throw r.error(
                    "touch",
                    "'began' for finger \(id), which is already down since line \(since) (expected 'moved', 'stationary', 'ended' or 'cancelled')"
                )
            }
            sequence.down[id] = r.line
        case .moved, .stationary, .ended, .cancelled:
            guard sequence.down[id] != nil else {
                throw r.error(
                    "touch", "'\(phase.rawValue)' for finger \(id) without a preceding 'began' (expected 'began' first)"
                )
            }
            if phase == .ended || phase == .cancelled { sequence.down[id] = nil }
        }
        return TouchSample(phase: phase, id: id, location: Point(x: x, y: y), velocity: velocity)
    }

    /// An `observed` sample of `header`'s system (nil: FloatingPanel).
    static func parseObserved(_ o: JSONObject, r: FieldReader, states: StateTable, header: TraceHeader? = nil)
        throws(TraceError) -> ObservedSample
    {
        try r.checkKeys(o, "", ["t", "observed"])
        let obs = try r.object(o["observed"] ?? .null, "observed")
        try r.checkKeys(obs, "observed", observedKeys(header))
        var sample = ObservedSample()
        func optionalNumber(_ key: String, _ range: FieldReader.Range = .any) throws(TraceError) -> Double? {
            guard let v = obs[key], v != .null else { return nil }
            return try r.number(v, "observed." + key, range)
        }
        sample.location = try optionalNumber("location")
        sample.contentOffset = try optionalNumber("contentOffset")
        sample.backdropAlpha = try optionalNumber("backdropAlpha", .unitInterval)
        sample.dimming = try optionalNumber("dimming", .unitInterval)
        if let s = obs["state"], s != .null {
            sample.state = try parseObservedState(s, header: header, states: states, r: r)
        }
        return sample
    }
}

/// Finger id → line of its `began`, for the fingers currently down: ids 0…15 in a fixed table
/// (no hashing on the per-sample path), any other id in a dictionary.
struct FingerLines {
    /// Line of the `began` for ids 0…15; 0 when that finger is up (lines are 1-based).
    private var small: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var large: [Int: Int] = [:]

    /// The line of finger `id`'s `began` while it is down, nil while it is up; setting nil lifts it.
    /// - Complexity: O(1).
    subscript(id: Int) -> Int? {
        get {
            guard id >= 0 && id < 16 else { return large[id] }
            let line = withUnsafeBytes(of: small) {
                $0.load(fromByteOffset: id * MemoryLayout<Int>.stride, as: Int.self)
            }
            return line == 0 ? nil : line
        }
        set {
            guard id >= 0 && id < 16 else {
                large[id] = newValue
                return
            }
            withUnsafeMutableBytes(of: &small) {
                $0.storeBytes(of: newValue ?? 0, toByteOffset: id * MemoryLayout<Int>.stride, as: Int.self)
            }
        }
    }
}
