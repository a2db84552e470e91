import PanelSimCore
import PanelTrace

/// A seeded generator of random but valid LNPopup traces (lnpopup.md §2): a random device and
/// `popup` section within the contract (interaction style and snap percent, glass, bar style,
/// height and offset, bottom bar, close button style and frame, interaction limit rectangle,
/// initial state, simulator options), an optional list in the content (vertical, horizontal or
/// two-dimensional content, insets, bounces, directional lock), and a random timeline: drags and
/// flicks on the bar and on the open content (up, down, sideways, reversed, paused, cancelled, with
/// a second finger), taps on the bar, the close button and elsewhere, fingers resting while the app
/// calls, and the calls `presentBar`, `dismissBar`, `openPopup`, `closePopup` (animated or not),
/// `tapBar`, `tapCloseButton`, `setContentOffset` and `setContentSize`, at any moment (also during
/// animations, the snap delay and drags).
///
/// The same seed always gives the same trace (`SplitMix64`); every trace is written and read back
/// (`SoakTraceFile.roundTrip`).
public enum LNPopupSoakGenerator {
    /// The trace of `seed`, named `soak-<seed>`.
    /// - Parameter automaticStyle: false for a version without `interactionStyle: automatic`
    ///   (LN-G1 refused, profiles.md §3.2.2): a drawn `automatic` becomes `default`.
    public static func trace(seed: UInt64, automaticStyle: Bool = true) -> Trace {
        var b = LNPopupTraceBuilder(draw: Draw(seed: seed ^ 0x1A9B_0B0F_5EED_0002), automaticStyle: automaticStyle)
        return SoakTraceFile.roundTrip(b.build(seed: seed), seed: seed)
    }
}

private struct LNPopupTraceBuilder {
    var draw: Draw
    /// The version has the `automatic` interaction style (LN-G1).
    var automaticStyle = true

    mutating func build(seed: UInt64) -> Trace {
        let env = draw.environment()
        var popup = makePopup(env)
        var header = TraceHeader(name: "soak-\(seed)", environment: env, popup: popup)
        SoakTraceFile.describe(&header, seed: seed, draw: &draw)
        if draw.chance(0.4) {
            header.scrollView = makeList(env)
            popup.scrollViewDirectionalLock = draw.chance(0.3)
            header.popup = popup
        }
        return Trace(header: header, samples: makeTimeline(popup, header.scrollView, env))
    }

    mutating func makePopup(_ env: PanelEnvironment) -> PopupConfiguration {
        var p = PopupConfiguration()
        p.interactionStyle = draw.pick([.default, .default, .default, .automatic, .snap, .drag, .drag, .scroll, .none])
        if p.interactionStyle == .automatic && !automaticStyle { p.interactionStyle = .default }
        if draw.chance(0.25) { p.snapPercent = draw.pick([0.05, 0.1, 0.2, 0.5, 0.9, 0.95]) }
        p.glass = draw.chance(0.15)
        p.barStyle = draw.pick(PopupBarStyle.allCases)
        if p.barStyle == .custom || draw.chance(0.1) { p.barHeight = draw.points(30, 110) }
        switch draw.int(0, 4) {
        case 0, 1:
            p.bottomBarKind = draw.pick([.tabBar, .toolbar])
            p.bottomBarHeight = draw.chance(0.7) ? 49 + env.safeArea.bottom : draw.points(30, min(200, env.container.height / 3))
        default: break
        }
        if draw.chance(0.15) {
            // The offsets of §3.3, kept so that the closed bar stays inside the container (§2.4).
            let room = env.container.height - p.dockingLine(environment: env)
            p.barOffset = min(draw.pick([-10, -8, -4, 2, 6]), room)
        }
        p.closeButtonStyle = draw.pick(PopupCloseButtonStyle.allCases)
        if draw.chance(0.15) {
            p.closeButtonFrame = Rect(x: draw.points(0, env.container.width - 60), y: draw.points(0, 80), width: draw.points(20, 120), height: draw.points(20, 60))
        }
        if draw.chance(0.15) {
            let y = draw.points(0, env.container.height / 2)
            p.interactionLimitRect = Rect(x: 0, y: y, width: env.container.width, height: draw.points(50, env.container.height - y))
        }
        p.initialState = draw.pick([.barPresented, .barPresented, .open, .barHidden])
        if draw.chance(0.05) { p.curve = .linear }
        if draw.chance(0.1) { p.releaseRule = .legacy }
        return p
    }

    /// A list in the popup content (content coordinates): vertical, horizontal, both or short.
    mutating func makeList(_ env: PanelEnvironment) -> ScrollViewConfiguration {
        let w = env.container.width, h = env.container.height
        let y = draw.chance(0.6) ? 0 : draw.points(0, 200)
        let frame = Rect(x: 0, y: y, width: w, height: max(h - y - (draw.chance(0.5) ? 0 : draw.points(0, 200)), 50))
        let width = draw.chance(0.25) ? draw.points(w * 1.2, w * 4) : w
        let height = draw.chance(0.8) ? draw.points(frame.size.height * 1.1, 4000) : draw.points(20, frame.size.height)
        var s = ScrollViewConfiguration(frame: frame, contentSize: Size(width: width, height: height))
        if draw.chance(0.3) { s.contentOffset = Point(x: 0, y: draw.points(-30, 400)) }
        if draw.chance(0.2) { s.contentInset = Insets(top: draw.points(0, 60), left: 0, bottom: draw.points(0, 40), right: 0) }
        s.bounces = draw.chance(0.9)
        s.alwaysBounceVertical = draw.chance(0.15)
        s.alwaysBounceHorizontal = draw.chance(0.05)
        return s
    }

    mutating func makeTimeline(_ popup: PopupConfiguration, _ list: ScrollViewConfiguration?, _ env: PanelEnvironment) -> [TraceSample] {
        var tl = GestureTimeline(container: env.container)
        let w = env.container.width, h = env.container.height
        let bar = popup.closedBarFrame(environment: env)
        let dock = popup.dockingLine(environment: env)
        let touchRate = draw.pick([60.0, 120, 240, Double(env.frameRate)])
        var t = draw.uniform(0.02, 0.3)
        if popup.initialState == .barHidden && draw.chance(0.85) {
            tl.call(.popupCall(.presentBar(animated: draw.chance(0.7), openPopup: draw.chance(0.3))), at: t)
            t += draw.uniform(0, 0.9)
        }
        func onBar(_ d: inout Draw) -> Point {
            Point(x: d.points(5, w - 5), y: bar.minY + d.points(0, max(bar.size.height, 1)))
        }
        for _ in 0..<draw.int(1, 7) {
            t += draw.chance(0.35) ? draw.uniform(0, 0.2) : draw.uniform(0.2, 1.4)
            switch draw.weighted([16, 22, 8, 8, 6, 22, 6, 4, 4]) {
            case 0:
                // A drag or flick on the closed bar: up mostly, sometimes down or sideways.
                let kind = draw.int(0, 9)
                t = tl.drag(&draw, from: onBar(&draw), at: t, rate: touchRate, flick: kind < 4, reversals: kind >= 8 ? draw.int(1, 2) : 0,
                            direction: draw.chance(0.75) ? -1 : 1, sideways: draw.chance(0.1), secondFinger: draw.chance(0.08))
            case 1:
                // A drag on the open content (or the list in it): down mostly.
                let begin = t
                let start = Point(x: draw.points(5, w - 5), y: draw.chance(0.3) ? draw.points(0, 120) : draw.points(0, dock))
                let kind = draw.int(0, 9)
                t = tl.drag(&draw, from: start, at: t, rate: touchRate, flick: kind < 3, reversals: kind >= 7 ? draw.int(1, 3) : 0,
                            direction: draw.chance(0.7) ? 1 : -1, sideways: draw.chance(0.12), secondFinger: draw.chance(0.08))
                if draw.chance(0.2) { tl.call(.popupCall(randomCall(list != nil)), at: draw.uniform(begin, t)) }
            case 2:
                // A tap on the bar (or a second one soon after).
                t = tl.tap(&draw, at: onBar(&draw), from: t)
                if draw.chance(0.3) { t = tl.tap(&draw, at: onBar(&draw), from: t + draw.uniform(0.05, 0.6)) }
            case 3:
                // A tap near the top of the content (the close button's area) or anywhere.
                let p = draw.chance(0.6) ? Point(x: draw.points(w / 2 - 40, w / 2 + 40), y: draw.points(0, 90)) : Point(x: draw.points(0, w), y: draw.points(0, h))
                t = tl.tap(&draw, at: p, from: t)
            case 4:
                // A finger that rests while the app calls.
                let p = draw.chance(0.5) ? onBar(&draw) : Point(x: draw.points(0, w), y: draw.points(0, h))
                let end = tl.hold(&draw, at: p, from: t, duration: draw.uniform(0.1, 1))
                tl.call(.popupCall(randomCall(list != nil)), at: draw.uniform(t, end))
                t = end
            case 5, 6:
                tl.call(.popupCall(randomCall(list != nil)), at: t)
            case 7:
                // Two calls at nearly the same moment.
                tl.call(.popupCall(randomCall(list != nil)), at: t)
                tl.call(.popupCall(randomCall(list != nil)), at: t + draw.uniform(0, 0.12))
            default:
                tl.call(.popupCall(.presentBar(animated: draw.chance(0.7), openPopup: draw.chance(0.4))), at: t)
            }
        }
        return tl.samples(frameRate: env.frameRate)
    }

    mutating func randomCall(_ hasList: Bool) -> PopupCall {
        switch draw.weighted([12, 12, 4, 4, 3, 3, hasList ? 3 : 0, hasList ? 2 : 0]) {
        case 0: return .openPopup(animated: draw.chance(0.8))
        case 1: return .closePopup(animated: draw.chance(0.8))
        case 2: return .presentBar(animated: draw.chance(0.7), openPopup: draw.chance(0.4))
        case 3: return .dismissBar(animated: draw.chance(0.8))
        case 4: return .tapBar
        case 5: return .tapCloseButton
        case 6: return .setContentOffset(x: draw.chance(0.8) ? nil : draw.points(0, 300), y: draw.points(-40, 800))
        default: return .setContentSize(width: nil, height: draw.points(50, 3000))
        }
    }
}
