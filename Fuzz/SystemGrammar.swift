// Structure-aware inputs for the DrawerKit, LNPopup and UISheet formats: the fuzzer's bytes are
// read as a sequence of choices (which keys a section has, which value each takes, which samples
// follow), and a trace of the system is written from them. A mutated byte changes one choice, so
// the fuzzer explores the formats' keys, value ranges and calls instead of breaking JSON.
//
// Values are mostly well-typed (so the loader's deeper checks and the replay are reached), and
// about one in ten is taken from a pool of wrong types and out-of-range numbers (so each field's
// refusal is reached); an unknown or misspelled key, a section of another system and a time that
// goes backwards appear now and then. Exhausted input reads as zeros: the smallest trace.

import Foundation
import PanelGolden
import PanelSimCore
@testable import PanelTrace

/// The fuzzer's input read as choices, front to back; zeros once it is exhausted.
struct Choices {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    /// A number in 0..<n (n ≥ 1).
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : (n <= 256 ? byte() % n : (byte() << 8 | byte()) % n) }

    /// True with probability `percent` % (never once the input is exhausted).
    mutating func chance(_ percent: Int) -> Bool { position < bytes.count && byte() * 100 < percent * 256 }

    mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }

    var exhausted: Bool { position >= bytes.count }
}

/// The shape of a JSON value in a format: what a well-typed value looks like. (A struct with a
/// kind rather than an indirect enum: the grammars are globals that live until exit, and
/// LeakSanitizer does not see through an enum's tagged box pointers.)
struct Shape: Sendable {
    enum Kind: Sendable { case number, integer, bool, choice, object, array, either }
    var kind: Kind
    /// The number pool (`number`) or the names (`choice`).
    var strings: [String] = []
    /// An object's members in writing order (`object`); the element (`array`); the alternatives (`either`).
    var members: [(String, Shape)] = []
    /// The keys an object needs.
    var required: [String] = []
    /// The most elements of an array.
    var max = 0

    /// A number from the pool (plus, now and then, a small integer made from the input).
    static func number(_ pool: [String]) -> Shape { Shape(kind: .number, strings: pool) }
    static let integer = Shape(kind: .integer)
    static let bool = Shape(kind: .bool)
    /// One of the names.
    static func choice(_ names: [String]) -> Shape { Shape(kind: .choice, strings: names) }
    /// An object: its keys in writing order, and the keys it needs.
    static func object(_ members: [(String, Shape)], required: [String] = []) -> Shape {
        Shape(kind: .object, members: members, required: required)
    }
    /// An array of up to `max` elements.
    static func array(_ element: Shape, max: Int) -> Shape { Shape(kind: .array, members: [("", element)], max: max) }
    /// One of several shapes (a name or an object, as DrawerKit's `timingCurveProvider`).
    static func either(_ shapes: [Shape]) -> Shape { Shape(kind: .either, members: shapes.map { ("", $0) }) }
}

/// Pools of values.
enum Pool {
    /// Numbers around the geometry of a phone (pt), fractions, rates and edges of ranges.
    static let numbers = [
        "0", "1", "0.5", "10", "20", "34", "44", "47", "49", "83", "100", "150", "300", "388", "420",
        "500", "600", "800", "843", "844", "900", "-20", "-0.5", "0.1", "0.9", "0.99", "1.01", "2", "1000",
        "3000", "0.25", "0.75", "-300", "1200",
    ]
    static let fractions = ["0", "0.1", "0.25", "0.5", "0.6", "0.9", "1", "0.999", "1.5", "-0.1"]
    static let velocities = ["-6000", "-3000", "-800", "-200", "0", "200", "800", "3000", "6000"]
    /// Values of the wrong type or out of every range.
    static let wrong = [
        "null", "true", "\"\"", "\"zz\"", "[]", "{}", "-1", "1e999", "-1e999", "1e300", "99999999999",
        "-0.000001", "1.5", "[1]", "{\"x\": 1}", "0",
    ]
    static let heights = ["44", "83", "100", "300", "420", "500", "600", "843", "844", "900", "0", "-10", "49.5", "1"]
}

/// Writes a JSON value of `shape` from the choices.
struct ValueWriter {
    var choices: Choices

    mutating func value(_ shape: Shape, depth: Int = 0) -> String {
        if choices.chance(9) { return choices.pick(Pool.wrong) }
        switch shape.kind {
        case .number:
            return choices.chance(15) ? String(choices.byte() * 4 - 100) : choices.pick(shape.strings)
        case .integer:
            return choices.pick(["0", "1", "2", "3", "5", "-1", "1.5", "100"])
        case .bool:
            return choices.byte() % 2 == 0 ? "false" : "true"
        case .choice:
            if choices.chance(5) { return misspelled(choices.pick(shape.strings)) }
            return quoted(choices.pick(shape.strings))
        case .object:
            return object(shape.members, required: shape.required, depth: depth)
        case .array:
            let n = choices.below(shape.max + 1)
            return "[" + (0..<n).map { _ in value(shape.members[0].1, depth: depth + 1) }.joined(separator: ", ") + "]"
        case .either:
            return value(choices.pick(shape.members).1, depth: depth)
        }
    }

    /// An object with each optional member present or not, the required ones present (rarely
    /// not), and now and then an unknown key (a misspelling of a known one).
    mutating func object(_ members: [(String, Shape)], required: [String] = [], depth: Int = 0, prefix: [String] = [])
        -> String
    {
        var parts = prefix
        for (key, shape) in members {
            let present = required.contains(key) ? !choices.chance(4) : choices.byte() % 2 == 1
            if present { parts.append(quoted(key) + ": " + value(shape, depth: depth + 1)) }
        }
        if choices.chance(3), let key = members.isEmpty ? nil : choices.pick(members).0 {
            parts.append(misspelled(key) + ": " + choices.pick(Pool.numbers))
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// A name with one letter dropped or doubled (the loader suggests the nearest), quoted.
    mutating func misspelled(_ name: String) -> String {
        var letters = Array(name)
        guard !letters.isEmpty else { return "\"x\"" }
        let k = choices.below(letters.count)
        if choices.byte() % 2 == 0 { letters.remove(at: k) } else { letters.insert(letters[k], at: k) }
        return quoted(String(letters))
    }

    func quoted(_ s: String) -> String { JSON.quote(s) }
}

/// What a newer system's trace is made of: its header sections, calls and observed states.
struct SystemGrammar: Sendable {
    var model: PanelModel
    /// Header sections after `environment`, each (name, shape).
    var sections: [(String, Shape)]
    /// Calls: name and the fields after `"call"`.
    var calls: [(String, [(String, Shape)], [String])]
    var environmentKeyboard: Bool
    var observedStates: [String]
    var velocities: [String]

    static let rect: Shape = .object(
        [
            ("x", .number(Pool.numbers)), ("y", .number(Pool.numbers)),
            ("width", .number(Pool.numbers)), ("height", .number(Pool.numbers)),
        ],
        required: ["x", "y", "width", "height"])
    static let size: Shape = .object(
        [("width", .number(Pool.numbers)), ("height", .number(Pool.numbers))], required: ["width", "height"])
    static let point: Shape = .object(
        [("x", .number(Pool.numbers)), ("y", .number(Pool.numbers))], required: ["x", "y"])
    static let insets: Shape = .object([
        ("top", .number(Pool.numbers)), ("left", .number(["0", "20"])),
        ("bottom", .number(Pool.numbers)), ("right", .number(["0", "20"])),
    ])

    static func scrollView(directionalLock: Bool) -> Shape {
        var members: [(String, Shape)] = [
            ("frame", rect), ("contentSize", size), ("contentInset", insets), ("contentOffset", point),
            ("bounces", .bool), ("alwaysBounceVertical", .bool), ("alwaysBounceHorizontal", .bool),
            ("decelerationRate", .number(["0.998", "0.99", "0.5", "1", "0"])),
        ]
        if directionalLock { members.append(("isDirectionalLockEnabled", .bool)) }
        return .object(members, required: ["frame", "contentSize"])
    }

    static let drawerStates = DrawerState.allCases.map(\.rawValue)

    static let drawerKit = SystemGrammar(
        model: .drawerKit,
        sections: [
            (
                "drawer",
                .object(
                    [
                        ("heightOfPartiallyExpandedDrawer", .number(Pool.heights)),
                        ("heightOfCollapsedDrawer", .number(Pool.heights)),
                        ("presented", .bool), ("statusBarHeight", .number(["0", "20", "44", "47", "-1"])),
                        ("participants", .array(.choice(["presenting", "presented"]), max: 3)),
                        (
                            "content",
                            .object([
                                ("controls", .array(rect, max: 2)), ("scrollView", scrollView(directionalLock: false)),
                            ])
                        ),
                        (
                            "configuration",
                            .object([
                                ("initialState", .choice(["collapsed", "partiallyExpanded", "fullyExpanded"])),
                                ("totalDurationInSeconds", .number(["0", "0.2", "0.4", "1", "-1"])),
                                ("durationIsProportionalToDistanceTraveled", .bool),
                                (
                                    "timingCurveProvider",
                                    .either([
                                        .choice(["systemSpring", "linear"]),
                                        .object(
                                            [("dampingRatio", .number(["0.5", "0.8", "1", "1.5", "0"]))],
                                            required: ["dampingRatio"]),
                                    ])
                                ),
                                (
                                    "fullExpansionBehaviour",
                                    .either([
                                        .choice(["coversFullScreen", "doesNotCoverStatusBar"]),
                                        .object(
                                            [("leavesCustomGap", .number(["0", "20", "100", "-5"]))],
                                            required: ["leavesCustomGap"]),
                                    ])
                                ),
                                ("supportsPartialExpansion", .bool), ("dismissesInStages", .bool),
                                ("isDrawerDraggable", .bool),
                                ("isFullyPresentableByDrawerTaps", .bool),
                                ("numberOfTapsForFullDrawerPresentation", .integer),
                                ("isDismissableByOutsideDrawerTaps", .bool),
                                ("numberOfTapsForOutsideDrawerDismissal", .integer),
                                ("flickSpeedThreshold", .number(["0", "1", "3", "100"])),
                                ("upperMarkGap", .number(["0", "20", "50"])),
                                ("lowerMarkGap", .number(["0", "20", "50"])),
                                ("maximumCornerRadius", .number(["0", "15", "30"])),
                                ("cornerAnimationOption", .choice(CornerAnimationOption.allCases.map(\.rawValue))),
                                (
                                    "handleViewConfiguration",
                                    .object([
                                        ("autoAnimatesDimming", .bool), ("backgroundColor", .choice(["gray"])),
                                        ("size", size), ("top", .number(Pool.numbers)),
                                        ("cornerRadius", .number(Pool.numbers)),
                                    ])
                                ),
                                (
                                    "passthroughTouchesInStates",
                                    .array(.choice(["collapsed", "partiallyExpanded", "fullyExpanded"]), max: 3)
                                ),
                                ("drawerBorderConfiguration", .object([])), ("drawerShadowConfiguration", .object([])),
                            ])
                        ),
                        (
                            "simulator",
                            .object([
                                ("midTransition", .choice(DrawerMidTransitionPolicy.allCases.map(\.rawValue))),
                                ("physicalSpring", .bool),
                            ])
                        ),
                    ], required: ["heightOfPartiallyExpandedDrawer"])
            )
        ],
        calls: [
            (
                "setDrawerState",
                [("state", .choice(drawerStates + ["transitioning"])), ("animated", .bool), ("completion", .bool)],
                ["state"]
            ),
            ("present", [], []), ("dismiss", [], []),
            ("tapDrawer", [("x", .number(Pool.numbers)), ("y", .number(Pool.numbers))], ["y"]),
            ("tapOutside", [("x", .number(Pool.numbers)), ("y", .number(Pool.numbers))], ["y"]),
        ],
        environmentKeyboard: false,
        observedStates: drawerStates + ["transitioning"],
        velocities: ["recorded", "lsq2", "impulse", "ios"])

    static let lnPopup = SystemGrammar(
        model: .lnPopup,
        sections: [
            (
                "popup",
                .object([
                    ("interactionStyle", .choice(PopupInteractionStyle.allCases.map(\.rawValue))),
                    ("snapPercent", .number(Pool.fractions)), ("glass", .bool),
                    (
                        "bar",
                        .object([
                            ("style", .choice(PopupBarStyle.allCases.map(\.rawValue))),
                            ("height", .number(["44", "64", "100", "900", "0"])),
                            ("offset", .number(["0", "-10", "10", "-900", "900"])),
                        ])
                    ),
                    (
                        "bottomBar",
                        .object(
                            [
                                ("kind", .choice(PopupBottomBarKind.allCases.map(\.rawValue))),
                                ("height", .number(Pool.heights)),
                            ], required: ["kind"])
                    ),
                    (
                        "closeButton",
                        .object([("style", .choice(PopupCloseButtonStyle.allCases.map(\.rawValue))), ("frame", rect)])
                    ),
                    ("interactionLimitRect", rect),
                    ("initialState", .choice(PopupInitialState.allCases.map(\.rawValue))),
                    (
                        "simulator",
                        .object([
                            ("curve", .choice(PopupCurve.allCases.map(\.rawValue))),
                            ("releaseRule", .choice(PopupReleaseRule.allCases.map(\.rawValue))),
                        ])
                    ),
                ])
            ), ("scrollView", scrollView(directionalLock: true)),
        ],
        calls: [
            ("presentBar", [("animated", .bool), ("openPopup", .bool)], []), ("dismissBar", [("animated", .bool)], []),
            ("openPopup", [("animated", .bool)], []), ("closePopup", [("animated", .bool)], []),
            ("tapBar", [], []), ("tapCloseButton", [], []),
            (
                "setContentOffset", [("x", .number(Pool.numbers)), ("y", .number(Pool.numbers)), ("animated", .bool)],
                []
            ),
            ("setContentSize", [("width", .number(Pool.numbers)), ("height", .number(Pool.numbers))], []),
        ],
        environmentKeyboard: false,
        observedStates: ["barHidden", "barPresented", "open", "transitioning"],
        velocities: ["recorded", "lsq2", "impulse", "ios"])

    static let detentIdentifiers = ["medium", "large", "peek", "tall", "a"]
    static let detent: Shape = .object(
        [
            ("identifier", .choice(detentIdentifiers)), ("kind", .choice(["medium", "large", "custom"])),
            ("height", .number(Pool.heights)), ("fraction", .number(Pool.fractions)), ("inactive", .bool),
        ],
        required: ["kind"])

    static let uiSheet = SystemGrammar(
        model: .uiSheet,
        sections: [
            (
                "sheet",
                .object([
                    ("detents", .array(detent, max: 4)),
                    ("selectedDetentIdentifier", .choice(detentIdentifiers)),
                    ("largestUndimmedDetentIdentifier", .choice(detentIdentifiers)),
                    ("prefersScrollingExpandsWhenScrolledToEdge", .bool), ("prefersEdgeAttachedInCompactHeight", .bool),
                    ("widthFollowsPreferredContentSizeWhenEdgeAttached", .bool), ("prefersGrabberVisible", .bool),
                    ("preferredCornerRadius", .number(["0", "10", "38"])), ("isModalInPresentation", .bool),
                    ("presented", .bool),
                    ("keyboardPolicy", .choice(SheetKeyboardPolicy.allCases.map(\.rawValue))),
                    ("expandOnKeyboard", .bool),
                    (
                        "simulator",
                        .object([
                            ("mediumValue", .choice(SheetSimulatorOptions.MediumValue.allCases.map(\.rawValue))),
                            ("topMargin", .number(["0", "10", "20"])), ("projectionRate", .number(Pool.fractions)),
                            ("minimumSpeed", .number(["0", "100", "500"])),
                            ("fastFlickThreshold", .number(["0", "1000", "2500"])),
                            ("springResponse", .number(["0.3", "0.5", "0"])),
                            ("dampingRatio", .number(["0.8", "1", "0"])),
                            ("fastDampingRatio", .number(["0.8", "1"])), ("dimmingAlpha", .number(Pool.fractions)),
                            (
                                "keyboardAnimation",
                                .choice(SheetSimulatorOptions.KeyboardAnimation.allCases.map(\.rawValue))
                            ),
                            ("variant", .choice(SheetSimulatorOptions.Variant.allCases.map(\.rawValue))),
                        ])
                    ),
                ])
            ),
            ("sheetDelegate", .object([("shouldDismiss", .choice(SheetShouldDismiss.allCases.map(\.rawValue)))])),
            ("scrollView", scrollView(directionalLock: false)),
        ],
        calls: [
            ("present", [("animated", .bool)], []), ("dismiss", [("animated", .bool)], []),
            ("selectDetent", [("identifier", .choice(detentIdentifiers)), ("animateChanges", .bool)], ["identifier"]),
            ("setDetents", [("detents", .array(detent, max: 3)), ("animateChanges", .bool)], ["detents"]),
            ("setLargestUndimmedDetent", [("identifier", .choice(detentIdentifiers)), ("animateChanges", .bool)], []),
            ("setModalInPresentation", [("value", .bool)], ["value"]),
            ("setPrefersScrollingExpands", [("value", .bool)], ["value"]),
            ("tapDimming", [("x", .number(Pool.numbers)), ("y", .number(Pool.numbers))], []), ("tapGrabber", [], []),
            (
                "setContentOffset", [("x", .number(Pool.numbers)), ("y", .number(Pool.numbers)), ("animated", .bool)],
                []
            ),
            ("setContentSize", [("width", .number(Pool.numbers)), ("height", .number(Pool.numbers))], []),
            ("track", [("scrollView", scrollView(directionalLock: false))], ["scrollView"]), ("untrack", [], []),
        ],
        environmentKeyboard: true,
        observedStates: detentIdentifiers,
        velocities: ["recorded", "lsq2", "impulse", "ios", "uikitSheet"])

    /// Sections of the other systems, offered now and then (the loader names the right model).
    static let foreignSections = ["panel", "drawer", "popup", "sheet", "delegate", "sheetDelegate", "scrollView"]

    /// A trace of this system written from `choices`: a header, then up to 48 samples (drags,
    /// calls, list and observed samples, environment changes, `end`).
    func trace(_ w: inout ValueWriter) -> String {
        var header = [
            "\"format\": \"panelsim-trace\"", "\"version\": 1", "\"model\": " + JSON.quote(model.rawValue),
            "\"name\": \"fuzz\"",
        ]
        header.append("\"environment\": " + environment(&w, partial: false))
        for (name, shape) in sections where w.choices.byte() % 4 != 0 {
            header.append(JSON.quote(name) + ": " + w.value(shape))
        }
        if w.choices.chance(3) { header.append(JSON.quote(w.choices.pick(Self.foreignSections)) + ": {}") }
        if w.choices.byte() % 2 == 1 {
            header.append(
                "\"recognizer\": "
                    + w.object([
                        ("velocity", .choice(velocities)), ("beginThreshold", .number(["0", "10", "30", "-1"])),
                    ]))
        }
        var lines = ["{" + header.joined(separator: ", ") + "}"]
        var t = 0
        func time(_ micros: Int) -> String { CanonicalNumber.formatSeconds(Int64(micros)) }
        var count = 0
        while count < 48, !w.choices.exhausted, w.choices.byte() != 0 {
            count += 1
            if w.choices.chance(2) { t -= 1000 }  // a time that goes backwards
            t = max(0, t) + [0, 1000, 8333, 16667, 50000, 150000][w.choices.below(6)]
            switch w.choices.below(10) {
            case 0, 1, 2, 3:
                // A drag: began, moves, then ended (with or without a velocity) or cancelled.
                var x = Double(w.choices.pick([195, 20, 370, 100]))
                var y = Double(w.choices.pick([100, 300, 500, 600, 700, 800, 840]))
                lines.append("{\"t\": \(time(t)), \"touch\": \"began\", \"x\": \(fmt(x)), \"y\": \(fmt(y))}")
                for _ in 0..<w.choices.below(12) {
                    t += w.choices.pick([4000, 8333, 16667])
                    y += Double(w.choices.pick([-60, -20, -5, 0, 5, 20, 60, 150]))
                    x += Double(w.choices.pick([0, 0, 0, 5, -30]))
                    lines.append("{\"t\": \(time(t)), \"touch\": \"moved\", \"x\": \(fmt(x)), \"y\": \(fmt(y))}")
                }
                t += 8333
                let phase = w.choices.chance(15) ? "cancelled" : "ended"
                let velocity =
                    w.choices.byte() % 2 == 1
                    ? ", \"velocity\": {\"x\": 0, \"y\": \(w.choices.pick(Pool.velocities))}" : ""
                lines.append(
                    "{\"t\": \(time(t)), \"touch\": \"\(phase)\", \"x\": \(fmt(x)), \"y\": \(fmt(y))\(velocity)}")
            case 4, 5, 6:
                let (name, fields, required) = w.choices.pick(calls)
                let callName =
                    w.choices.chance(4)
                    ? w.misspelled(name) : w.choices.chance(2) ? w.choices.pick(Pool.wrong) : JSON.quote(name)
                lines.append(
                    w.object(fields, required: required, prefix: ["\"t\": \(time(t))", "\"call\": " + callName]))
            case 7:
                lines.append(
                    "{\"t\": \(time(t)), \"scroll\": "
                        + w.object([
                            ("contentOffset", Self.point), ("contentSize", Self.size), ("isDecelerating", .bool),
                        ]) + "}")
            case 8:
                lines.append(
                    "{\"t\": \(time(t)), \"observed\": "
                        + w.object([
                            ("location", .number(Pool.numbers)), ("state", .choice(observedStates)),
                            ("contentOffset", .number(Pool.numbers)),
                            ("backdropAlpha", .number(Pool.fractions)), ("dimming", .number(Pool.fractions)),
                        ]) + "}")
            default:
                if w.choices.byte() % 3 == 0 {
                    lines.append("{\"t\": \(time(t)), \"end\": true}")
                } else {
                    lines.append("{\"t\": \(time(t)), \"environment\": " + environment(&w, partial: true) + "}")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An `environment` object: the header's (container always given) or a change (any subset).
    func environment(_ w: inout ValueWriter, partial: Bool) -> String {
        var members: [(String, Shape)] = [
            (
                "container",
                .object(
                    [
                        ("width", .number(["390", "844", "320", "1024"])),
                        ("height", .number(["844", "390", "667", "480", "100", "1366"])),
                    ],
                    required: ["width", "height"])
            ),
            (
                "safeArea",
                .object([
                    ("top", .number(["0", "20", "47", "59", "400", "900"])), ("left", .number(["0", "47"])),
                    ("bottom", .number(["0", "21", "34", "500", "900"])), ("right", .number(["0", "47"])),
                ])
            ),
            ("displayScale", .number(["1", "2", "3"])), ("frameRate", .number(["60", "120"])),
        ]
        if environmentKeyboard {
            members.append(
                (
                    "keyboard",
                    .object(
                        [
                            ("height", .number(["0", "216", "336", "900"])), ("duration", .number(["0", "0.25"])),
                            ("curve", .integer), ("firstResponderInSheet", .bool),
                        ], required: ["height"])
                ))
        }
        return w.object(members, required: partial ? [] : ["container"])
    }

    func fmt(_ d: Double) -> String { CanonicalNumber.format(d) }

    static func of(_ target: FuzzTarget) -> SystemGrammar {
        switch target {
        case .drawerKit, .drawerKitResult: return drawerKit
        case .lnPopup, .lnPopupResult: return lnPopup
        default: return uiSheet
        }
    }
}

// MARK: - Targets

/// The settle budget (µs) of the generated targets' replays: 2 s past the last sample instead of
/// `simulate`'s 10 s (floatingpanel-core.md §9 O1). A spring that never settles (a damping ratio
/// of 0 is in the pools) still runs out of it, so `budgetExceeded` and its warning are reached;
/// the frames after the first 2 s repeat the same step and only make the result file longer
/// (up to 1,200 more frame records at 120 Hz, which every oracle then reads, renders and compares).
let generatedSettleBudget: Microseconds = 2_000_000

/// With `PANELSIM_FUZZ_PRINT=1` (`scripts/fuzz.sh reproduce` of a generated target), the trace and
/// golden each input is turned into go to standard error, so that a finding can be read and kept
/// as a plain test input.
let printsGenerated = ProcessInfo.processInfo.environment["PANELSIM_FUZZ_PRINT"] == "1"

func showGenerated(_ text: String, what: String) {
    guard printsGenerated else { return }
    FileHandle.standardError.write(
        Data("--- generated \(what):\n\(text)\(text.hasSuffix("\n") ? "" : "\n")--- end\n".utf8))
}

/// `drawerkit`, `lnpopup`, `uisheet`: a trace of the system written from the input's choices, then
/// every oracle of the `trace` target (file entry point and general path agree, the digest, the
/// writer round trip, replays, the result round trip).
///
/// A header that loads is then a template for an import (as `panelsim import --template`): a short
/// CSV recording placed at the system's import origin must write a trace that loads with the same
/// samples.
func fuzzSystemTrace(_ bytes: [UInt8], _ target: FuzzTarget) {
    var w = ValueWriter(choices: Choices(bytes))
    let text = SystemGrammar.of(target).trace(&w)
    showGenerated(text, what: "trace")
    guard var trace = fuzzTrace(Array(text.utf8), settleBudget: generatedSettleBudget) else { return }
    let dy = [-40, -8, 0, 8, 40][w.choices.below(5)]
    let csv = "t_ms,phase,x_px,y_px\n0,down,0,0\n8,move,0,\(dy)\n16,move,3,\(2 * dy)\n24,up,3,\(3 * dy)\n"
    let placement = ImportPlacement(
        origin: ImportPlacement.origin(for: trace.header),
        pointsPerUnit: pointsPerUnit[w.choices.below(pointsPerUnit.count)],
        swapAxes: false, flipX: false, flipY: false)
    let samples: [TraceSample]
    do throws(TraceError) {
        samples = try RealTraceCSV.importTouches(csv: csv, file: "recording.csv", placement: placement)
    } catch {
        checkError(error, file: "recording.csv", lineCount: 6)
        return
    }
    trace.samples = samples
    do throws(TraceError) {
        let loaded = try TraceLoader.parse(text: TraceWriter.write(trace), file: "imported.jsonl")
        check(
            withoutLines(loaded.samples) == samples,
            "a recording imported onto a \(target.rawValue) template loads back with other samples")
    } catch {
        fail("a recording imported onto a \(target.rawValue) template does not load: \(error.description)")
    }
}

/// `drawerkit-result`, `lnpopup-result`, `uisheet-result`: the result file of a replay of a
/// generated trace of the system, changed in up to six places (a value replaced by another of the
/// system's names or numbers or a wrong one, a member dropped, a record dropped, duplicated or
/// moved, the header's model changed), read as a golden: a file that parses renders canonically,
/// compares equal to itself, compares with the replay both ways and renders both text reports and
/// the HTML report of one way, chosen by the input (up to 600 records: size adds no new paths to
/// the reports; the HTML report, the costliest step, rendered both ways took 40 % of an execution);
/// an error is one line with file and line.
func fuzzSystemResult(_ bytes: [UInt8], _ target: FuzzTarget) {
    var w = ValueWriter(choices: Choices(bytes))
    let grammar = SystemGrammar.of(target)
    let text = grammar.trace(&w)
    showGenerated(text, what: "trace")
    guard let trace = try? TraceLoader.parse(text: text, file: "generated.jsonl") else { return }
    var options = SimulationOptions()
    options.settleBudget = generatedSettleBudget
    options.driveScroll = w.choices.byte() % 2 == 1
    let header = ResultHeader(
        replaying: trace, traceDigest: "sha256:" + SHA256.hex(Array(text.utf8)), simulation: options)
    let replay = ResultDocument(header: header, records: simulate(trace, options: options).records)
    var lines = ResultFile.render(replay).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let names =
        grammar.observedStates + grammar.calls.map(\.0) + [
            "frame", "event", "state", "location", "model", "drawerkit",
            "lnpopup", "uisheet", "floatingpanel",
        ]
    for _ in 0..<w.choices.below(7) where lines.count > 1 {
        let k = w.choices.below(lines.count - 1)
        switch w.choices.below(6) {
        case 0, 1, 2: lines[k] = replacingValue(in: lines[k], &w, names: names)
        case 3: lines[k] = droppingMember(of: lines[k], &w)
        case 4: lines.remove(at: k)
        default: lines.insert(lines[k], at: w.choices.below(lines.count))
        }
    }
    let golden = lines.joined(separator: "\n")
    showGenerated(golden, what: "golden")
    guard let parsed = roundTrip(golden, file: "fuzz.golden.jsonl", mustParse: false, replay: nil),
        parsed.header.version == ResultHeader.currentVersion, parsed.records.count <= 600
    else { return }
    let htmlWay = w.choices.byte() % 2
    for (way, (expected, actual)) in [(parsed, replay), (replay, parsed)].enumerated() {
        let comparison = Comparator.compare(expected: expected, actual: actual)
        _ = comparison.report(indent: "  ")
        guard way == htmlWay else { continue }
        _ = HTMLReport.render(
            HTMLReport.Input(
                title: "fuzz", header: trace.header, golden: expected, actual: actual,
                comparison: comparison, goldenName: "fuzz.golden.jsonl"))
    }
}

/// The `": "`-separated members of a one-line JSON object: the offset just after each `": "`.
private func memberValueStarts(_ line: [UInt8]) -> [Int] {
    var starts: [Int] = []
    var inString = false
    var escaped = false
    for (i, b) in line.enumerated() {
        if inString {
            if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
            continue
        }
        if b == 0x22 {
            inString = true
        } else if b == 0x3A, i + 1 < line.count, line[i + 1] == 0x20 {
            starts.append(i + 2)
        }
    }
    return starts
}

/// The end of the scalar (or string) value starting at `start`.
private func valueEnd(_ line: [UInt8], from start: Int) -> Int {
    var i = start
    if i < line.count, line[i] == 0x22 {
        i += 1
        while i < line.count, line[i] != 0x22 {
            if line[i] == 0x5C { i += 1 }
            i += 1
        }
        return min(i + 1, line.count)
    }
    while i < line.count, line[i] != 0x2C, line[i] != 0x7D, line[i] != 0x5D { i += 1 }
    return i
}

/// `line` with one scalar member value replaced (by a name, a number or a wrong value).
private func replacingValue(in line: String, _ w: inout ValueWriter, names: [String]) -> String {
    var bytes = Array(line.utf8)
    let starts = memberValueStarts(bytes).filter { $0 < bytes.count && bytes[$0] != 0x7B && bytes[$0] != 0x5B }
    guard !starts.isEmpty else { return line }
    let start = w.choices.pick(starts)
    let replacement: String
    switch w.choices.below(3) {
    case 0: replacement = JSON.quote(w.choices.pick(names))
    case 1: replacement = w.choices.pick(Pool.numbers + Pool.velocities)
    default: replacement = w.choices.pick(Pool.wrong)
    }
    bytes.replaceSubrange(start..<valueEnd(bytes, from: start), with: Array(replacement.utf8))
    return String(decoding: bytes, as: UTF8.self)
}

/// `line` without one of its scalar members.
private func droppingMember(of line: String, _ w: inout ValueWriter) -> String {
    var bytes = Array(line.utf8)
    let starts = memberValueStarts(bytes).filter { $0 < bytes.count && bytes[$0] != 0x7B && bytes[$0] != 0x5B }
    guard !starts.isEmpty else { return line }
    let start = w.choices.pick(starts)
    // The key starts after the ", " (or "{") before it.
    var keyStart = start - 3
    while keyStart > 0, bytes[keyStart] != 0x22 || bytes[keyStart - 1] != 0x20 && bytes[keyStart - 1] != 0x7B {
        keyStart -= 1
    }
    var end = valueEnd(bytes, from: start)
    if end + 1 < bytes.count, bytes[end] == 0x2C {
        end += 2
    } else if keyStart >= 2, bytes[keyStart - 2] == 0x2C {
        keyStart -= 2
    }
    guard keyStart < end else { return line }
    bytes.removeSubrange(keyStart..<end)
    return String(decoding: bytes, as: UTF8.self)
}
