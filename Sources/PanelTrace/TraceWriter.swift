/// Writing traces as JSON Lines (trace-format.md §1): the recorder side of `TraceLoader`.
import PanelSimCore

/// Writes `Trace` values as trace files that `TraceLoader` reads back to an equal `Trace`
/// (sample `line` numbers aside: a written sample sits on line index + 2).
///
/// Layout: the header is one line with every field of the contract in the contract example's key
/// order (`delegate.scrollableStates`, `delegate.didMove` and `delegate.didChangeState` only when
/// set, since their absence means "none"); each sample is one line with `t` first. Maps keyed by
/// state (`backdropAlpha`, `targetStateOverrides`) are written by state order, most expanded
/// first, then by name, so output never depends on `Dictionary` order. Doubles go through
/// `CanonicalNumber.format(_:)`, times through `CanonicalNumber.formatSeconds(_:)`, integers
/// (`version`, `frameRate`, `order`, `id`) as plain decimal integers. Keys and values are separated
/// by `": "`, members by `", "`, like the contract's examples.
public enum TraceWriter {
    /// The header line (no line break).
    /// - Complexity: O(size of the header).
    public static func headerLine(_ h: TraceHeader) -> String {
        var o = JSONLine()
        header(h, &o)
        return o.text
    }

    /// One sample line (no line break), e.g. `{"t": 0.008000, "touch": "moved", "x": 195, "y": 406.5}`.
    /// A touch's `id` is written only when it is not 0, its `velocity` only when recorded.
    /// `inForce` is the environment in force before the sample: an `environment` sample without a
    /// keyboard after one with a keyboard writes `"keyboard": null`, since the loader merges an
    /// environment sample over the one in force and a member left out would keep the old keyboard.
    /// - Complexity: O(1).
    public static func sampleLine(_ s: TraceSample, after inForce: PanelEnvironment? = nil) -> String {
        var o = JSONLine()
        sample(s, keyboardInForce: inForce?.keyboard != nil, &o)
        return o.text
    }

    /// The whole trace file: the header line, then one line per sample, each ending in "\n".
    ///
    /// An `invalidateLayout` sample carries the whole layout in force after it; it is written as a
    /// patch over the layout before it (trace-format.md §1.2: each top-level `panel` field given
    /// replaces that field whole), with only the fields that changed, so that a layout of many
    /// states changed many times costs the size of the changes, not layouts × states. The loader
    /// merges the patch over the layout in force and reads back the same layout. An `environment`
    /// sample is written whole, with `"keyboard": null` when it takes away the keyboard in force
    /// (see `sampleLine(_:after:)`).
    /// - Complexity: O(samples + header size + Σ over `invalidateLayout` samples of the size of
    ///   the layout compared); the text written is O(samples + header size + size of the changes).
    public static func write(_ t: Trace) -> String {
        var o = JSONLine()
        header(t.header, &o)
        o.newline()
        var layout = t.header.floatingPanel?.panel
        var keyboardInForce = t.header.environment.keyboard != nil
        for s in t.samples {
            if case .call(.invalidateLayout(let panel)) = s.kind, let inForce = layout {
                layoutPatch(at: s.time, panel, over: inForce, &o)
                layout = panel
            } else {
                sample(s, keyboardInForce: keyboardInForce, &o)
                if case .environment(let e) = s.kind { keyboardInForce = e.keyboard != nil }
            }
            o.newline()
        }
        return o.text
    }

    /// An `invalidateLayout` line whose `panel` holds the fields of `p` that differ from `base`.
    private static func layoutPatch(
        at time: Microseconds, _ p: FloatingPanelConfiguration, over base: FloatingPanelConfiguration,
        _ o: inout JSONLine
    ) {
        o.open("{")
        o.key("t")
        o.seconds(time)
        o.key("call")
        o.string("invalidateLayout")
        o.key("panel")
        panel(p, changedFrom: base, &o)
        o.close("}")
    }

    // MARK: - Pieces (each appends one JSON value)

    private static func header(_ h: TraceHeader, _ o: inout JSONLine) {
        o.open("{")
        o.key("format")
        o.string("panelsim-trace")
        o.key("version")
        o.integer(1)
        if h.model != .floatingPanel {
            o.key("model")
            o.string(h.model.rawValue)
        }
        if let p = h.profile {
            o.key("profile")
            o.open("{")
            o.key("library")
            o.string(p.library.rawValue)
            o.key("version")
            o.string(p.version)
            o.close("}")
        }
        o.key("name")
        o.string(h.name)
        o.key("description")
        o.string(h.description)
        o.key("source")
        o.open("{")
        o.key("kind")
        o.string(h.source.kind)
        o.key("origin")
        o.string(h.source.origin)
        o.key("device")
        o.string(h.source.device)
        o.close("}")
        o.key("environment")
        environment(h.environment, &o)
        let format = TraceFormats.format(for: h.model)
        format?.writeSections(of: h, to: &o)
        o.key("recognizer")
        o.open("{")
        o.key("velocity")
        o.string(format?.velocityName(of: h) ?? h.recognizer.velocity.rawValue)
        o.key("beginThreshold")
        o.number(h.recognizer.beginThreshold)
        o.close("}")
        o.close("}")
    }

    /// A `delegate` section, its state lists sorted by the order of `states` (custom) and the built-ins.
    static func delegate(_ d: FloatingPanelDelegateConfiguration, states: [FloatingPanelState], _ o: inout JSONLine) {
        delegate(d, order: StateOrder(states), &o)
    }

    private static func delegate(_ d: FloatingPanelDelegateConfiguration, order: StateOrder, _ o: inout JSONLine) {
        o.open("{")
        o.key("shouldBeginDragging")
        o.bool(d.shouldBeginDragging)
        if let scrollable = d.scrollableStates {
            o.key("scrollableStates")
            o.strings(scrollable)
        }
        o.key("targetStateOverrides")
        o.open("{")
        for name in order.sorted(d.targetStateOverrides.keys) {
            o.key(name)
            o.string(d.targetStateOverrides[name] ?? "")
        }
        o.close("}")
        o.key("shouldRemove")
        o.string(d.shouldRemove.rawValue)
        if let didMove = d.didMove {
            o.key("didMove")
            o.open("{")
            if let clamp = didMove.clamp {
                o.key("clamp")
                o.open("{")
                o.key("min")
                stateOffset(clamp.min, &o)
                o.key("max")
                stateOffset(clamp.max, &o)
                o.close("}")
            }
            if let beyond = didMove.dismissBeyond {
                o.key("dismissBeyond")
                stateOffset(beyond, &o)
            }
            o.close("}")
        }
        if !d.dismissIn.isEmpty {
            o.key("didChangeState")
            o.open("{")
            o.key("dismissIn")
            o.strings(d.dismissIn)
            o.close("}")
        }
        o.close("}")
    }

    /// An `environment` object (header, or an `environment` sample with every field); with
    /// `clearingKeyboard`, a missing keyboard is written as `"keyboard": null`.
    private static func environment(_ e: PanelEnvironment, clearingKeyboard: Bool = false, _ o: inout JSONLine) {
        o.open("{")
        o.key("container")
        size(e.container, &o)
        o.key("safeArea")
        insets(e.safeArea, &o)
        o.key("displayScale")
        o.number(e.displayScale)
        o.key("frameRate")
        o.integer(e.frameRate)
        if let k = e.keyboard {
            o.key("keyboard")
            keyboard(k, &o)
        } else if clearingKeyboard {
            o.key("keyboard")
            o.null()
        }
        o.close("}")
    }

    /// A `panel` object: every field (header, or a layout written on its own), or with `base`
    /// only the fields whose value differs from `base`'s (an `invalidateLayout` patch).
    static func panel(
        _ p: FloatingPanelConfiguration, changedFrom base: FloatingPanelConfiguration? = nil, _ o: inout JSONLine
    ) {
        /// Whether the field read by `value` is written.
        func changed<T: Equatable>(_ value: (FloatingPanelConfiguration) -> T) -> Bool {
            guard let base else { return true }
            return value(p) != value(base)
        }
        o.open("{")
        if changed(\.position) {
            o.key("position")
            o.string(p.position.rawValue)
        }
        if changed(\.states) {
            o.key("states")
            o.open("[")
            for state in p.states {
                o.element()
                o.open("{")
                o.key("name")
                o.string(state.name)
                o.key("order")
                o.integer(state.order)
                o.close("}")
            }
            o.close("]")
        }
        if changed(\.anchors) {
            o.key("anchors")
            o.open("{")
            for entry in p.anchors {
                o.key(entry.state.name)
                anchor(entry.anchor, &o)
            }
            o.close("}")
        }
        if changed(\.initialState) {
            o.key("initialState")
            o.string(p.initialState.name)
        }
        if changed(\.intrinsicLength) {
            o.key("intrinsicLength")
            o.number(p.intrinsicLength)
        }
        if changed(\.backdropAlpha) {
            o.key("backdropAlpha")
            o.open("{")
            for name in StateOrder(p.states).sorted(p.backdropAlpha.keys) {
                o.key(name)
                o.number(p.backdropAlpha[name] ?? 0)
            }
            o.close("}")
        }
        if changed(\.contentMode) {
            o.key("contentMode")
            o.string(p.contentMode.rawValue)
        }
        if changed(\.grabberAreaOffset) {
            o.key("grabberAreaOffset")
            o.number(p.grabberAreaOffset)
        }
        if changed(\.removalInteractionEnabled) {
            o.key("removalInteractionEnabled")
            o.bool(p.removalInteractionEnabled)
        }
        if changed(\.dismissalTapEnabled) {
            o.key("backdrop")
            o.open("{")
            o.key("dismissalTapEnabled")
            o.bool(p.dismissalTapEnabled)
            o.close("}")
        }
        if changed(\.presented) {
            o.key("presented")
            o.bool(p.presented)
        }
        guard changed(\.behavior) else {
            o.close("}")
            return
        }
        o.key("behavior")
        o.open("{")
        o.key("springDecelerationRate")
        o.number(p.behavior.springDecelerationRate)
        o.key("springResponseTime")
        o.number(p.behavior.springResponseTime)
        o.key("momentumProjectionRate")
        o.number(p.behavior.momentumProjectionRate)
        o.key("redirectionalProgress")
        o.number(p.behavior.redirectionalProgress)
        o.key("projectsMomentumTo")
        o.strings(p.behavior.projectsMomentumTo)
        o.key("rubberBandingEdges")
        o.strings(p.behavior.rubberBandingEdges)
        o.key("removalInteractionVelocityThreshold")
        o.number(p.behavior.removalInteractionVelocityThreshold)
        o.close("}")
        o.close("}")
    }

    /// A `scrollView` object (header or `track` call); `directionalLock`: LNPopup's added
    /// `isDirectionalLockEnabled` (written last), nil for the other models.
    static func scrollView(_ c: ScrollViewConfiguration, directionalLock: Bool? = nil, _ o: inout JSONLine) {
        o.open("{")
        o.key("frame")
        o.open("{")
        o.key("x")
        o.number(c.frame.minX)
        o.key("y")
        o.number(c.frame.minY)
        o.key("width")
        o.number(c.frame.size.width)
        o.key("height")
        o.number(c.frame.size.height)
        o.close("}")
        o.key("contentSize")
        size(c.contentSize, &o)
        o.key("contentInset")
        insets(c.contentInset, &o)
        // FloatingPanel's added field, written only when set (absent = zero).
        if c.systemInset != .zero {
            o.key("systemInset")
            insets(c.systemInset, &o)
        }
        o.key("contentOffset")
        point(c.contentOffset, &o)
        o.key("bounces")
        o.bool(c.bounces)
        o.key("alwaysBounceVertical")
        o.bool(c.alwaysBounceVertical)
        o.key("alwaysBounceHorizontal")
        o.bool(c.alwaysBounceHorizontal)
        o.key("decelerationRate")
        o.number(c.decelerationRate)
        if let lock = directionalLock {
            o.key("isDirectionalLockEnabled")
            o.bool(lock)
        }
        o.close("}")
    }

    /// `keyboardInForce`: the environment in force before `s` has a keyboard.
    private static func sample(_ s: TraceSample, keyboardInForce: Bool, _ o: inout JSONLine) {
        o.open("{")
        o.key("t")
        o.seconds(s.time)
        switch s.kind {
        case .touch(let touch):
            o.key("touch")
            o.string(touch.phase.rawValue)
            if touch.id != 0 {
                o.key("id")
                o.integer(touch.id)
            }
            o.key("x")
            o.number(touch.location.x)
            o.key("y")
            o.number(touch.location.y)
            if let v = touch.velocity {
                o.key("velocity")
                point(v, &o)
            }
        case .call(let call):
            o.key("call")
            switch call {
            case .move(let to, let animated):
                o.string("move")
                o.key("to")
                o.string(to.name)
                o.key("animated")
                o.bool(animated)
            case .show(let animated):
                o.string("show")
                o.key("animated")
                o.bool(animated)
            case .hide(let animated):
                o.string("hide")
                o.key("animated")
                o.bool(animated)
            case .remove:
                o.string("remove")
            case .tapBackdrop:
                o.string("tapBackdrop")
            case .setContentOffset(let x, let y, let animated):
                o.string("setContentOffset")
                if let x {
                    o.key("x")
                    o.number(x)
                }
                if let y {
                    o.key("y")
                    o.number(y)
                }
                o.key("animated")
                o.bool(animated)
            case .setContentSize(let width, let height):
                o.string("setContentSize")
                if let width {
                    o.key("width")
                    o.number(width)
                }
                if let height {
                    o.key("height")
                    o.number(height)
                }
            case .track(let c):
                o.string("track")
                o.key("scrollView")
                scrollView(c, &o)
            case .untrack:
                o.string("untrack")
            case .invalidateLayout(let panel):
                o.string("invalidateLayout")
                o.key("panel")
                self.panel(panel, &o)
            }
        case .systemCall(let call):
            TraceFormats.format(for: type(of: call).model)?.writeCall(call, to: &o)
        case .environment(let e):
            o.key("environment")
            environment(e, clearingKeyboard: keyboardInForce, &o)
        case .scroll(let s):
            o.key("scroll")
            o.open("{")
            if let v = s.contentOffset {
                o.key("contentOffset")
                point(v, &o)
            }
            if let v = s.contentSize {
                o.key("contentSize")
                size(v, &o)
            }
            if let v = s.isDecelerating {
                o.key("isDecelerating")
                o.bool(v)
            }
            o.close("}")
        case .observed(let s):
            o.key("observed")
            o.open("{")
            if let v = s.location {
                o.key("location")
                o.number(v)
            }
            if let v = s.state {
                o.key("state")
                o.string(v)
            }
            if let v = s.contentOffset {
                o.key("contentOffset")
                o.number(v)
            }
            if let v = s.backdropAlpha {
                o.key("backdropAlpha")
                o.number(v)
            }
            if let v = s.dimming {
                o.key("dimming")
                o.number(v)
            }
            o.close("}")
        case .end:
            o.key("end")
            o.bool(true)
        }
        o.close("}")
    }

    static func point(_ p: Point, _ o: inout JSONLine) {
        o.open("{")
        o.key("x")
        o.number(p.x)
        o.key("y")
        o.number(p.y)
        o.close("}")
    }

    static func size(_ s: Size, _ o: inout JSONLine) {
        o.open("{")
        o.key("width")
        o.number(s.width)
        o.key("height")
        o.number(s.height)
        o.close("}")
    }

    private static func insets(_ i: Insets, _ o: inout JSONLine) {
        o.open("{")
        o.key("top")
        o.number(i.top)
        o.key("left")
        o.number(i.left)
        o.key("bottom")
        o.number(i.bottom)
        o.key("right")
        o.number(i.right)
        o.close("}")
    }

    private static func stateOffset(_ s: StateOffset, _ o: inout JSONLine) {
        o.open("{")
        o.key("state")
        o.string(s.state.name)
        o.key("offset")
        o.number(s.offset)
        o.close("}")
    }

    private static func anchor(_ a: LayoutAnchor, _ o: inout JSONLine) {
        o.open("{")
        switch a {
        case .inset(let value, let fractional, let edge, let guide):
            o.key(fractional ? "fractionalInset" : "absoluteInset")
            o.number(value)
            o.key("edge")
            o.string(edge.rawValue)
            o.key("referenceGuide")
            o.string(guide.rawValue)
        case .intrinsic(let value, let fractional, let guide):
            o.key(fractional ? "fractionalOffset" : "absoluteOffset")
            o.number(value)
            o.key("referenceGuide")
            o.string(guide.rawValue)
        case .adaptive(let value, let fractional, let length, let guide, let bounding):
            o.key("adaptive")
            o.open("{")
            o.key(fractional ? "fractionalOffset" : "absoluteOffset")
            o.number(value)
            o.key("contentLength")
            o.number(length)
            o.key("referenceGuide")
            o.string(guide.rawValue)
            o.key("contentBoundingGuide")
            o.string(bounding.rawValue)
            o.close("}")
        }
        o.close("}")
    }

}

/// JSON text built in one byte buffer, with the trace format's separators: `": "` after a key and
/// `", "` between members and elements. Numbers are `CanonicalNumber`'s, strings `JSON.quote`'s.
public struct JSONLine {
    private var bytes: [UInt8] = []
    /// Per open object or array: whether a member or element was written (the next needs ", ").
    private var written: [Bool] = []

    public init() { bytes.reserveCapacity(256) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func open(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(bracket.value))
        written.append(false)
    }
    public mutating func close(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(bracket.value))
        written.removeLast()
    }
    public mutating func newline() { bytes.append(0x0A) }

    /// The separator before a member or element.
    private mutating func separate() {
        guard let last = written.indices.last else { return }
        if written[last] {
            bytes.append(0x2C)
            bytes.append(0x20)
        } else {
            written[last] = true
        }
    }

    /// Starts an object member: `"key": `.
    public mutating func key(_ k: String) {
        separate()
        string(k)
        bytes.append(0x3A)
        bytes.append(0x20)
    }
    /// Starts an array element.
    public mutating func element() { separate() }

    public mutating func string(_ s: String) { JSON.appendQuoted(s, to: &bytes) }
    public mutating func strings(_ list: [String]) {
        open("[")
        for s in list {
            element()
            string(s)
        }
        close("]")
    }
    public mutating func number(_ d: Double) { CanonicalNumber.append(d, to: &bytes) }
    public mutating func integer(_ i: Int) { bytes.append(contentsOf: String(i).utf8) }
    public mutating func seconds(_ micros: Microseconds) { CanonicalNumber.appendSeconds(micros, to: &bytes) }
    public mutating func bool(_ b: Bool) { bytes.append(contentsOf: (b ? "true" : "false").utf8) }
    public mutating func null() { bytes.append(contentsOf: "null".utf8) }
}

/// Sorts state names by order (most expanded first), then by name; unknown names last, by name.
private struct StateOrder {
    var orders: [String: Int] = [:]
    init(_ custom: [FloatingPanelState]) {
        for s in custom { orders[s.name] = s.order }
        for s in FloatingPanelState.builtIn { orders[s.name] = s.order }
    }
    func sorted(_ names: some Sequence<String>) -> [String] {
        names.sorted { a, b in
            let oa = orders[a]
            let ob = orders[b]
            switch (oa, ob) {
            case (let x?, let y?): return x != y ? x > y : a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
    }
}
