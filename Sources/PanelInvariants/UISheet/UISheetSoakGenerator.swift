import PanelSimCore
import PanelTrace

/// A seeded generator of random but valid sheet traces (uisheet.md §2): a random device (compact
/// height sometimes) and `sheet` section within the contract (one to four detents — medium, large,
/// custom heights and fractions, inactive ones, out of order sometimes — a selected and an undimmed
/// identifier that may name no active detent, scrolling-expands, edge attachment, grabber, modal
/// flag, presentation, keyboard policy and the simulator options), the delegate's answer, an
/// optional tracked list, and a random timeline: drags and flicks on the sheet, in the list and
/// above the sheet (up, down, reversed, paused, cancelled, with a second finger; a held finger on
/// the list's indicator band), taps above the sheet, and the calls `present`, `dismiss`,
/// `selectDetent`, `setDetents`, `setLargestUndimmedDetent`, `setModalInPresentation`,
/// `setPrefersScrollingExpands`, `setShouldDismiss` (with a delegate that answers), `tapDimming`,
/// `tapGrabber` and the list's calls, keyboards that
/// show and hide, and safe-area and container changes, at any moment (also during animations and
/// drags).
///
/// The same seed always gives the same trace (`SplitMix64`); every trace is written and read back
/// (`SoakTraceFile.roundTrip`).
public enum UISheetSoakGenerator {
    /// The trace of `seed`, named `soak-<seed>`.
    /// - Parameters:
    ///   - customDetents: false for a version without custom detents (US-G1 closed, iOS 15,
    ///     profiles.md §3.4): a detent drawn as custom becomes medium or large, or is left out.
    ///   - ios26Variant: false when the trace names a profile (which cannot be combined with the
    ///     `ios26` simulator variant): the variant stays the default.
    public static func trace(seed: UInt64, customDetents: Bool = true, ios26Variant: Bool = true) -> Trace {
        var b = UISheetTraceBuilder(draw: Draw(seed: seed ^ 0x5EE7_5EE7_0003_0003), customDetents: customDetents, ios26Variant: ios26Variant)
        return SoakTraceFile.roundTrip(b.build(seed: seed), seed: seed)
    }
}

private struct UISheetTraceBuilder {
    var draw: Draw
    /// The version has custom detents (US-G1).
    var customDetents = true
    /// The `ios26` simulator variant may be drawn.
    var ios26Variant = true
    /// Identifiers in use (custom detents get `c1`, `c2`, …).
    var customCount = 0

    mutating func build(seed: UInt64) -> Trace {
        let env = draw.environment()
        var sheet = SheetConfiguration()
        sheet.detents = makeDetents()
        let ids = sheet.detents.map(\.identifier)
        sheet.selectedDetentIdentifier = pickIdentifier(ids)
        sheet.largestUndimmedDetentIdentifier = pickIdentifier(ids)
        sheet.prefersScrollingExpandsWhenScrolledToEdge = draw.chance(0.8)
        sheet.prefersEdgeAttachedInCompactHeight = draw.chance(0.4)
        sheet.prefersGrabberVisible = draw.chance(0.5)
        sheet.isModalInPresentation = draw.chance(0.2)
        sheet.presented = draw.chance(0.85)
        sheet.keyboardPolicy = draw.pick([.uikit, .uikit, .liftSelected, .ignore])
        sheet.shouldDismiss = draw.pick([.default, .default, .always, .never])
        makeOptions(&sheet.simulator)
        var header = TraceHeader(name: "soak-\(seed)", environment: env, sheet: sheet)
        SoakTraceFile.describe(&header, seed: seed, draw: &draw)
        if draw.chance(0.08) { header.sheet?.simulator.uikitSheetVelocity = true }
        if draw.chance(0.5) { header.scrollView = makeList(env) }
        return Trace(header: header, samples: makeTimeline(header.sheet!, header.scrollView, env))
    }

    /// One to four detents, usually in order from smallest to largest.
    mutating func makeDetents() -> [SheetDetent] {
        var list: [SheetDetent] = []
        let count = draw.weighted([2, 4, 3, 1]) + 1
        var hasMedium = false, hasLarge = false
        for _ in 0..<count {
            switch draw.int(0, 5) {
            case 0 where !hasMedium: list.append(.medium); hasMedium = true
            case 1 where !hasLarge: list.append(.large); hasLarge = true
            case 2, 3:
                customCount += 1
                let detent = SheetDetent(identifier: "c\(customCount)", kind: .height(draw.points(0, 700)), inactive: draw.chance(0.08))
                if customDetents { list.append(detent) } else { appendSystemDetent(&list, &hasMedium, &hasLarge) }
            default:
                customCount += 1
                let detent = SheetDetent(identifier: "c\(customCount)", kind: .fraction((draw.uniform(0, 1) * 100).rounded() / 100), inactive: draw.chance(0.08))
                if customDetents { list.append(detent) } else { appendSystemDetent(&list, &hasMedium, &hasLarge) }
            }
        }
        if list.isEmpty { list = [.large] }
        // Listed smallest to largest (as UIKit asks) most of the time; as drawn otherwise.
        if draw.chance(0.85) {
            func rank(_ d: SheetDetent) -> Double {
                switch d.kind {
                case .large: return 2
                case .medium: return 0.56
                case .height(let h): return h / 700
                case .fraction(let f): return f
                }
            }
            list = list.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }
        return list
    }

    /// Medium, else large, when the list lacks it (the only detents of a version without custom ones).
    func appendSystemDetent(_ list: inout [SheetDetent], _ hasMedium: inout Bool, _ hasLarge: inout Bool) {
        if !hasMedium { list.append(.medium); hasMedium = true } else if !hasLarge { list.append(.large); hasLarge = true }
    }

    mutating func pickIdentifier(_ ids: [String]) -> String? {
        switch draw.int(0, 9) {
        case 0...3: return nil
        case 4: return "unknown"
        default: return draw.pick(ids)
        }
    }

    mutating func makeOptions(_ o: inout SheetSimulatorOptions) {
        if draw.chance(0.1) { o.mediumValue = draw.pick([.halfHeight, .halfMaximum]) }
        if draw.chance(0.1) { o.topMargin = draw.points(0, 40) }
        if draw.chance(0.1) { o.projectionRate = draw.pick([0.9, 0.98, 0.995]) }
        if draw.chance(0.1) { o.minimumSpeed = draw.pick([0, 100, 600]) }
        if draw.chance(0.1) { o.fastFlickThreshold = draw.pick([0, 500, 2500]) }
        if draw.chance(0.1) { o.springResponse = draw.pick([0.2, 0.5, 0.8]) }
        if draw.chance(0.1) { o.dampingRatio = draw.pick([0.5, 0.8, 1.5]) }
        if draw.chance(0.1) { o.fastDampingRatio = draw.pick([0.4, 1, 1.2]) }
        if draw.chance(0.1) { o.dimmingAlpha = draw.pick([0, 0.48, 1]) }
        if draw.chance(0.15) { o.keyboardAnimation = .keyboard }
        if draw.chance(0.15), ios26Variant { o.variant = .ios26 }
    }

    /// A tracked list (sheet coordinates): usually tall, below a header strip.
    mutating func makeList(_ env: PanelEnvironment) -> ScrollViewConfiguration {
        let w = env.container.width, h = env.container.height
        let y = draw.points(0, 80)
        var s = ScrollViewConfiguration(frame: Rect(x: 0, y: y, width: w, height: max(h - y - draw.points(0, 150), 40)),
                                        contentSize: Size(width: w, height: draw.chance(0.8) ? draw.points(h, 4000) : draw.points(20, h / 2)))
        if draw.chance(0.3) { s.contentOffset = Point(x: 0, y: draw.points(-20, 600)) }
        if draw.chance(0.2) { s.contentInset = Insets(top: draw.points(0, 40), left: 0, bottom: draw.points(0, 40), right: 0) }
        s.bounces = draw.chance(0.9)
        s.alwaysBounceVertical = draw.chance(0.15)
        return s
    }

    mutating func makeTimeline(_ sheet: SheetConfiguration, _ list: ScrollViewConfiguration?, _ env: PanelEnvironment) -> [TraceSample] {
        var tl = GestureTimeline(container: env.container)
        let w = env.container.width, h = env.container.height
        let offsets = sheet.detentOffsets(environment: env).map(\.1)
        let touchRate = draw.pick([60.0, 120, 240, Double(env.frameRate)])
        var t = draw.uniform(0.02, 0.3)
        if !sheet.presented && draw.chance(0.85) { tl.call(.sheetCall(.present(animated: draw.chance(0.8))), at: t); t += draw.uniform(0, 0.8) }
        var keyboardUp = false
        for _ in 0..<draw.int(1, 7) {
            t += draw.chance(0.35) ? draw.uniform(0, 0.2) : draw.uniform(0.2, 1.4)
            let top = offsets.isEmpty ? h / 2 : draw.pick(offsets)
            switch draw.weighted([26, 14, 4, 6, 20, 6, 5, 3, 4]) {
            case 0:
                // A drag or flick on the sheet (its top strip, or anywhere on it).
                let begin = t
                let start = Point(x: draw.points(5, w - 5), y: min(top + (draw.chance(0.5) ? draw.points(0, 20) : draw.points(0, 400)), h - 1))
                let kind = draw.int(0, 9)
                t = tl.drag(&draw, from: start, at: t, rate: touchRate, flick: kind < 3, reversals: kind >= 7 ? draw.int(1, 3) : 0,
                            secondFinger: draw.chance(0.08))
                if draw.chance(0.2) { tl.call(.sheetCall(randomCall(sheet, list != nil, env)), at: draw.uniform(begin, t)) }
            case 1:
                // A drag in the list, sometimes after resting on its indicator band (B28).
                let y = list.map { top + $0.frame.minY + draw.points(0, min($0.frame.size.height, 400)) } ?? draw.points(0, h)
                let x = draw.chance(0.2) ? w - draw.points(1, 15) : draw.points(5, w - 20)
                t = tl.drag(&draw, from: Point(x: x, y: min(y, h - 1)), at: t, rate: touchRate, flick: draw.chance(0.3),
                            reversals: draw.chance(0.25) ? draw.int(1, 2) : 0, hold: draw.chance(0.15) ? draw.uniform(0.5, 0.8) : 0)
            case 2:
                // A drag above the sheet.
                t = tl.drag(&draw, from: Point(x: draw.points(0, w), y: draw.points(0, max(top, 1))), at: t, rate: touchRate,
                            flick: draw.chance(0.3), reversals: 0)
            case 3:
                // A tap above the sheet (a dimming tap), or on it.
                let p = draw.chance(0.7) ? Point(x: draw.points(0, w), y: draw.points(0, max(top, 1))) : Point(x: draw.points(0, w), y: draw.points(0, h))
                t = tl.tap(&draw, at: p, from: t)
            case 4:
                tl.call(.sheetCall(randomCall(sheet, list != nil, env)), at: t)
            case 5:
                // The keyboard shows (a text field in the sheet, or outside it) or hides.
                var e = env
                if keyboardUp || draw.chance(0.2) {
                    e.keyboard = KeyboardFrame(height: 0)
                    keyboardUp = false
                } else {
                    var k = KeyboardFrame(height: draw.pick([216, 291, 336, 400]))
                    k.duration = draw.pick([0.25, 0, 0.4])
                    k.firstResponderInSheet = draw.chance(0.85)
                    e.keyboard = k
                    keyboardUp = true
                }
                tl.call(.environment(e), at: t)
            case 6:
                // A rotation, or a safe-area change.
                var e = env
                if draw.chance(0.5) {
                    e.container = Size(width: h, height: w)
                } else {
                    e.safeArea.top = draw.pick([0, 20, 47, 59]); e.safeArea.bottom = draw.pick([0, 21, 34])
                }
                tl.call(.environment(e), at: t)
                if draw.chance(0.5) { tl.call(.environment(env), at: t + draw.uniform(0.05, 1)) }
            case 7:
                // A finger that rests on the sheet while the app calls.
                let p = Point(x: draw.points(0, w), y: min(top + draw.points(0, 200), h - 1))
                let end = tl.hold(&draw, at: p, from: t, duration: draw.uniform(0.1, 1))
                tl.call(.sheetCall(randomCall(sheet, list != nil, env)), at: draw.uniform(t, end))
                t = end
            default:
                // Two calls at nearly the same moment.
                tl.call(.sheetCall(randomCall(sheet, list != nil, env)), at: t)
                tl.call(.sheetCall(randomCall(sheet, list != nil, env)), at: t + draw.uniform(0, 0.12))
            }
        }
        return tl.samples(frameRate: env.frameRate)
    }

    mutating func randomCall(_ sheet: SheetConfiguration, _ hasList: Bool, _ env: PanelEnvironment) -> SheetCall {
        let ids = sheet.detents.map(\.identifier)
        switch draw.weighted([10, 4, 3, 3, 3, 2, 2, 4, 4, hasList ? 2 : 0, hasList ? 1 : 0, 1, 1, sheet.shouldDismiss == .default ? 0 : 2]) {
        case 0: return .selectDetent(pickIdentifier(ids), animateChanges: draw.chance(0.6))
        case 1: return .present(animated: draw.chance(0.8))
        case 2: return .dismiss(animated: draw.chance(0.8))
        case 3:
            var detents = makeDetents()
            if draw.chance(0.5) { detents = sheet.detents.filter { _ in draw.chance(0.7) } + (draw.chance(0.3) ? [SheetDetent.large] : []) }
            var seen = Set<String>()
            detents = detents.filter { seen.insert($0.identifier).inserted }
            if detents.isEmpty { detents = [.medium] }
            return .setDetents(detents, animateChanges: draw.chance(0.6))
        case 4: return .setLargestUndimmedDetent(pickIdentifier(ids), animateChanges: draw.chance(0.5))
        case 5: return .setModalInPresentation(draw.chance(0.5))
        case 6: return .setPrefersScrollingExpands(draw.chance(0.5))
        case 7: return .tapDimming(x: draw.chance(0.5) ? nil : draw.points(0, env.container.width), y: draw.chance(0.5) ? nil : draw.points(0, 300))
        case 8: return .tapGrabber
        case 9: return .setContentOffset(x: nil, y: draw.points(-40, 1500), animated: draw.chance(0.3))
        case 10: return .setContentSize(width: nil, height: draw.points(20, 4000))
        case 11: return .track(makeList(env))
        case 12: return .untrack
        default: return .setShouldDismiss(draw.chance(0.5))
        }
    }
}
