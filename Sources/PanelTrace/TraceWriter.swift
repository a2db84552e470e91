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
        let p = h.panel
        let order = StateOrder(p.states)
        let environment = environmentObject(h.environment)
        let panel = panelObject(p)

        let d = h.delegate
        var delegate: [(String, String)] = [("shouldBeginDragging", bool(d.shouldBeginDragging))]
        if let scrollable = d.scrollableStates { delegate.append(("scrollableStates", array(scrollable.map(string)))) }
        delegate.append(("targetStateOverrides",
                         object(order.sorted(d.targetStateOverrides.keys).map { ($0, string(d.targetStateOverrides[$0] ?? "")) })))
        delegate.append(("shouldRemove", string(d.shouldRemove.rawValue)))
        if let didMove = d.didMove {
            var recipes: [(String, String)] = []
            if let clamp = didMove.clamp {
                recipes.append(("clamp", object([("min", stateOffset(clamp.min)), ("max", stateOffset(clamp.max))])))
            }
            if let beyond = didMove.dismissBeyond { recipes.append(("dismissBeyond", stateOffset(beyond))) }
            delegate.append(("didMove", object(recipes)))
        }
        if !d.dismissIn.isEmpty {
            delegate.append(("didChangeState", object([("dismissIn", array(d.dismissIn.map(string)))])))
        }
        var members: [(String, String)] = [
            ("format", string("panelsim-trace")),
            ("version", "1"),
            ("name", string(h.name)),
            ("description", string(h.description)),
            ("source", object([("kind", string(h.source.kind)), ("origin", string(h.source.origin)),
                               ("device", string(h.source.device))])),
            ("environment", environment),
            ("panel", panel),
            ("delegate", object(delegate)),
            ("recognizer", object([("velocity", string(h.recognizer.velocity.rawValue)),
                                   ("beginThreshold", num(h.recognizer.beginThreshold))])),
        ]
        if let sv = h.scrollView { members.insert(("scrollView", scrollView(sv)), at: members.count - 2) }
        return object(members)
    }

    /// An `environment` object (header, or an `environment` sample with every field).
    static func environmentObject(_ e: PanelEnvironment) -> String {
        object([
            ("container", object([("width", num(e.container.width)), ("height", num(e.container.height))])),
            ("safeArea", insets(e.safeArea)),
            ("displayScale", num(e.displayScale)),
            ("frameRate", String(e.frameRate)),
        ])
    }

    /// A `panel` object with every field (header, or an `invalidateLayout` call).
    static func panelObject(_ p: PanelConfiguration) -> String {
        let order = StateOrder(p.states)
        let behavior = object([
            ("springDecelerationRate", num(p.behavior.springDecelerationRate)),
            ("springResponseTime", num(p.behavior.springResponseTime)),
            ("momentumProjectionRate", num(p.behavior.momentumProjectionRate)),
            ("redirectionalProgress", num(p.behavior.redirectionalProgress)),
            ("projectsMomentumTo", array(p.behavior.projectsMomentumTo.map(string))),
            ("rubberBandingEdges", array(p.behavior.rubberBandingEdges.map(string))),
            ("removalInteractionVelocityThreshold", num(p.behavior.removalInteractionVelocityThreshold)),
        ])
        return object([
            ("position", string(p.position.rawValue)),
            ("states", array(p.states.map { object([("name", string($0.name)), ("order", String($0.order))]) })),
            ("anchors", object(p.anchors.map { ($0.state.name, anchor($0.anchor)) })),
            ("initialState", string(p.initialState.name)),
            ("intrinsicLength", num(p.intrinsicLength)),
            ("backdropAlpha", object(order.sorted(p.backdropAlpha.keys).map { ($0, num(p.backdropAlpha[$0] ?? 0)) })),
            ("contentMode", string(p.contentMode.rawValue)),
            ("grabberAreaOffset", num(p.grabberAreaOffset)),
            ("removalInteractionEnabled", bool(p.removalInteractionEnabled)),
            ("backdrop", object([("dismissalTapEnabled", bool(p.dismissalTapEnabled))])),
            ("presented", bool(p.presented)),
            ("behavior", behavior),
        ])
    }

    /// A `scrollView` object (header or `track` call).
    static func scrollView(_ c: ScrollViewConfiguration) -> String {
        func point(_ p: Point) -> String { object([("x", num(p.x)), ("y", num(p.y))]) }
        func size(_ s: Size) -> String { object([("width", num(s.width)), ("height", num(s.height))]) }
        return object([
            ("frame", object([("x", num(c.frame.minX)), ("y", num(c.frame.minY)),
                              ("width", num(c.frame.size.width)), ("height", num(c.frame.size.height))])),
            ("contentSize", size(c.contentSize)),
            ("contentInset", insets(c.contentInset)),
            ("contentOffset", point(c.contentOffset)),
            ("bounces", bool(c.bounces)),
            ("alwaysBounceVertical", bool(c.alwaysBounceVertical)),
            ("alwaysBounceHorizontal", bool(c.alwaysBounceHorizontal)),
            ("decelerationRate", num(c.decelerationRate)),
        ])
    }

    /// One sample line (no line break), e.g. `{"t": 0.008000, "touch": "moved", "x": 195, "y": 406.5}`.
    /// A touch's `id` is written only when it is not 0, its `velocity` only when recorded.
    /// - Complexity: O(1).
    public static func sampleLine(_ s: TraceSample) -> String {
        var members: [(String, String)] = [("t", CanonicalNumber.formatSeconds(s.time))]
        switch s.kind {
        case .touch(let touch):
            members.append(("touch", string(touch.phase.rawValue)))
            if touch.id != 0 { members.append(("id", String(touch.id))) }
            members.append(("x", num(touch.location.x)))
            members.append(("y", num(touch.location.y)))
            if let v = touch.velocity { members.append(("velocity", object([("x", num(v.x)), ("y", num(v.y))]))) }
        case .call(let call):
            switch call {
            case .move(let to, let animated):
                members += [("call", string("move")), ("to", string(to.name)), ("animated", bool(animated))]
            case .show(let animated):
                members += [("call", string("show")), ("animated", bool(animated))]
            case .hide(let animated):
                members += [("call", string("hide")), ("animated", bool(animated))]
            case .remove:
                members.append(("call", string("remove")))
            case .tapBackdrop:
                members.append(("call", string("tapBackdrop")))
            case .setContentOffset(let x, let y, let animated):
                members.append(("call", string("setContentOffset")))
                if let x { members.append(("x", num(x))) }
                if let y { members.append(("y", num(y))) }
                members.append(("animated", bool(animated)))
            case .setContentSize(let width, let height):
                members.append(("call", string("setContentSize")))
                if let width { members.append(("width", num(width))) }
                if let height { members.append(("height", num(height))) }
            case .track(let c):
                members += [("call", string("track")), ("scrollView", scrollView(c))]
            case .untrack:
                members.append(("call", string("untrack")))
            case .invalidateLayout(let panel):
                members += [("call", string("invalidateLayout")), ("panel", panelObject(panel))]
            }
        case .environment(let e):
            members.append(("environment", environmentObject(e)))
        case .scroll(let o):
            var fields: [(String, String)] = []
            if let v = o.contentOffset { fields.append(("contentOffset", object([("x", num(v.x)), ("y", num(v.y))]))) }
            if let v = o.contentSize { fields.append(("contentSize", object([("width", num(v.width)), ("height", num(v.height))]))) }
            if let v = o.isDecelerating { fields.append(("isDecelerating", bool(v))) }
            members.append(("scroll", object(fields)))
        case .observed(let o):
            var fields: [(String, String)] = []
            if let v = o.location { fields.append(("location", num(v))) }
            if let v = o.state { fields.append(("state", string(v))) }
            if let v = o.contentOffset { fields.append(("contentOffset", num(v))) }
            if let v = o.backdropAlpha { fields.append(("backdropAlpha", num(v))) }
            members.append(("observed", object(fields)))
        case .end:
            members.append(("end", "true"))
        }
        return object(members)
    }

    /// The whole trace file: the header line, then one line per sample, each ending in "\n".
    /// - Complexity: O(samples + header size).
    public static func write(_ t: Trace) -> String {
        var out = headerLine(t.header) + "\n"
        for sample in t.samples { out += sampleLine(sample) + "\n" }
        return out
    }

    // MARK: - Pieces

    private static func num(_ d: Double) -> String { CanonicalNumber.format(d) }
    private static func bool(_ b: Bool) -> String { b ? "true" : "false" }
    private static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
    /// `{"key": value, …}` built in one reserved buffer (a header has ~100 members in all).
    private static func object(_ members: [(String, String)]) -> String {
        var out = "{"
        out.reserveCapacity(members.reduce(2) { $0 + $1.0.utf8.count + $1.1.utf8.count + 6 })
        for (i, member) in members.enumerated() {
            if i > 0 { out += ", " }
            out += string(member.0)
            out += ": "
            out += member.1
        }
        out += "}"
        return out
    }

    private static func insets(_ i: Insets) -> String {
        object([("top", num(i.top)), ("left", num(i.left)), ("bottom", num(i.bottom)), ("right", num(i.right))])
    }

    private static func stateOffset(_ s: StateOffset) -> String {
        object([("state", string(s.state.name)), ("offset", num(s.offset))])
    }

    private static func anchor(_ a: LayoutAnchor) -> String {
        switch a {
        case .inset(let value, let fractional, let edge, let guide):
            return object([(fractional ? "fractionalInset" : "absoluteInset", num(value)),
                           ("edge", string(edge.rawValue)), ("referenceGuide", string(guide.rawValue))])
        case .intrinsic(let value, let fractional, let guide):
            return object([(fractional ? "fractionalOffset" : "absoluteOffset", num(value)),
                           ("referenceGuide", string(guide.rawValue))])
        }
    }

    /// A JSON string literal (`JSON.quote`).
    static func string(_ s: String) -> String { JSON.quote(s) }
}

/// Sorts state names by order (most expanded first), then by name; unknown names last, by name.
private struct StateOrder {
    var orders: [String: Int] = [:]
    init(_ custom: [PanelState]) {
        for s in custom { orders[s.name] = s.order }
        for s in PanelState.builtIn { orders[s.name] = s.order }
    }
    func sorted(_ names: some Sequence<String>) -> [String] {
        names.sorted { a, b in
            let oa = orders[a], ob = orders[b]
            switch (oa, ob) {
            case let (x?, y?): return x != y ? x > y : a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
    }
}
