import Foundation
import PanelSimCore
import PanelTrace

/// What the app and UIKit have set on the sheet at a point of a replay, followed from the trace's
/// samples and the records that report a change (uisheet.md §2.2, §3.2, §3.6–§3.10).
struct SheetTracker {
    var sheet: SheetConfiguration
    var environment: PanelEnvironment
    var layout: SheetLayout
    var presented: Bool
    /// The keyboard holds the sheet (§3.10): up, not ignored, policy not `ignore`.
    var keyboardUp = false
    var keyboardIgnored = false
    var keyboardHeight = 0.0
    /// A programmatic `dismiss(animated: true)` runs until `presented` turns false.
    var programmaticDismissal = false
    /// A `dismiss` call on a presented sheet was made since the last presentation (SH3).
    var dismissedByApp = false
    /// The values a dimming fade of §3.8 item 6 may show (from the displayed fraction at a change
    /// inside `animateChanges` to the new rule's) and the time (µs) by which it is over, nil when
    /// no fade may run.
    var fade: (low: Double, high: Double, until: Microseconds)?
    /// The tracked list's frame (sheet coordinates), nil without one (§3.9).
    var listFrame: Rect?
    /// The tracked list's top offset, −contentInset.top (§3.9).
    var listTop = 0.0

    init(_ trace: Trace) {
        sheet = trace.header.sheet ?? SheetConfiguration()
        environment = trace.header.environment
        layout = sheet.layout(environment: environment)
        presented = sheet.presented && !layout.detents.isEmpty
        listFrame = trace.header.scrollView?.frame
        listTop = -(trace.header.scrollView?.contentInset.top ?? 0)
    }

    mutating func relayout() { layout = sheet.layout(environment: environment) }

    /// The shown detent (§3.2): the selected one, else the smallest.
    var shown: SheetLayout.Detent? {
        layout.detents.first { $0.identifier == sheet.selectedDetentIdentifier } ?? layout.detents.last
    }

    var smallestOffset: Double { layout.detents.last?.offset ?? environment.container.height }

    func round(_ y: Double) -> Double { roundedByDisplayScale(y, scale: layout.displayScale) }

    var keyboardOverlap: Double { min(keyboardHeight, layout.fullHeight) }

    /// The rest offset (SH1): the keyboard position while the keyboard holds the sheet, else the
    /// shown detent's offset (H without an active detent).
    var restOffset: Double {
        guard let shown else { return environment.container.height }
        if keyboardUp {
            switch sheet.keyboardPolicy {
            case .uikit:
                let p0 = layout.detents[0].offset
                return p0 > layout.largeTop ? round(max(layout.largeTop, p0 - keyboardOverlap)) : p0
            case .liftSelected:
                return round(max(layout.largeTop, environment.container.height - keyboardOverlap - shown.value))
            case .ignore: break
            }
        }
        return shown.offset
    }

    /// The top-most rest candidate (§3.0): the keyboard detent or lift offset when above the
    /// largest detent, else the largest detent.
    var topCandidate: Double {
        guard let first = layout.detents.first else { return layout.largeTop }
        guard keyboardUp else { return first.offset }
        switch sheet.keyboardPolicy {
        case .uikit: return restOffset
        case .liftSelected:
            // The lifted detent's candidate is its lift offset, not its own (§3.10, liftSelected).
            let shownID = shown?.identifier
            return layout.detents.map { $0.identifier == shownID ? restOffset : $0.offset }.min() ?? first.offset
        case .ignore: return first.offset
        }
    }

    /// Applies a sample (calls other than `present` do nothing while no sheet is presented, §2.2).
    mutating func apply(_ s: TraceSample) {
        if case let .environment(e) = s.kind {
            let old = environment
            environment = e
            if e.container != old.container || e.safeArea != old.safeArea { relayout() }
            if e.keyboard != old.keyboard, let k = e.keyboard, sheet.keyboardPolicy != .ignore {
                let h = k.firstResponderInSheet ? k.height : 0
                if h <= 0 {
                    keyboardIgnored = false; keyboardHeight = 0; keyboardUp = false
                } else if !keyboardIgnored && presented {
                    keyboardHeight = h; keyboardUp = true
                }
            }
            return
        }
        guard let call = s.kind.sheetCall else { return }
        if case .present = call {} else if !presented { return }
        if case let .track(c) = call { listFrame = c.frame; listTop = -c.contentInset.top }
        if case .untrack = call { listFrame = nil }
        switch call {
        case .present:
            guard !presented, !layout.detents.isEmpty else { return }
            presented = true; dismissedByApp = false; programmaticDismissal = false
        case let .dismiss(animated):
            dismissedByApp = true
            if animated { programmaticDismissal = true } else { endPresentation() }
        case let .selectDetent(id, _): sheet.selectedDetentIdentifier = id
        case let .setDetents(list, _): sheet.detents = list; relayout()
        case let .setLargestUndimmedDetent(id, _): sheet.largestUndimmedDetentIdentifier = id
        case let .setModalInPresentation(v): sheet.isModalInPresentation = v
        case let .setPrefersScrollingExpands(v): sheet.prefersScrollingExpandsWhenScrolledToEdge = v
        case let .setShouldDismiss(v) where sheet.shouldDismiss != .default: sheet.shouldDismiss = v ? .always : .never
        default: break
        }
    }

    /// Applies a record that reports a change.
    mutating func apply(_ e: SystemEvent) {
        switch e.name {
        case "didChangeSelectedDetentIdentifier": sheet.selectedDetentIdentifier = FieldRead.string(e["identifier"])
        case "endEditing": keyboardUp = false; keyboardIgnored = true
        case "didDismiss": endPresentation()
        default: break
        }
    }

    mutating func endPresentation() {
        presented = false; keyboardUp = false; programmaticDismissal = false
    }
}

struct UISheetChecker {
    let trace: Trace
    let result: SimulationResult
    let view: SystemReplayView
    var log: ViolationLog

    init(trace: Trace, result: SimulationResult, variant: String) {
        self.trace = trace; self.result = result
        view = SystemReplayView(trace, result)
        log = ViolationLog(variant: variant)
    }

    /// Finger 0's current touch as the checker follows it.
    struct Touch {
        var down: Point
        var began: Microseconds
        /// The sample that recognized the pan (U4), nil before.
        var recognized: Microseconds?
        var lastY: Double?
        /// `location − finger y` of the drag (SH5), once seen.
        var offset: Double?
        /// A refusal in this drag: a `shouldDismiss` false, or the modal flag (SH7).
        var refused = false
        /// A change of the detents or the environment since the last moved sample of a drag.
        var stale = false
        /// Such a change came during the drag: from the next moved sample on the sheet is placed,
        /// and a hand-off split, with the new top-most candidate and bands (its share's ends move).
        var relaidOut = false
        /// The app set the list (track, untrack, its offset or size) during the touch: the
        /// hand-off's start offset and eligibility belong to the list as it was.
        var listSetByApp = false
        /// The sheet's location when the pan began (the last frame before it, at rest).
        var startLocation: Double?
        /// The list's offset when the pan began (the last frame before it), nil when unknown.
        var startOffset: Double?
        /// The touch went down inside the tracked list (a scroll-view pan, §3.9), as far as the
        /// last frame shows; nil when the sheet was moving then (unknown).
        var inList: Bool?
    }

    mutating func checkAll() {
        var tracker = SheetTracker(trace)
        let threshold = trace.header.recognizer.beginThreshold
        let samples = trace.samples
        var si = 0, ei = 0
        var touch: Touch?
        var previous: SystemFrame?
        var gone = false   // didDismiss written; nothing more until a present
        var willDismissed = false
        var willDismissedWhileModal = false
        var lastRelease: Microseconds?

        func event(_ i: Int, _ tracker: inout SheetTracker, _ touch: inout Touch?) {
            let (t, e) = view.events[i]
            checkEvent(t, e, &tracker, touch, &gone, &willDismissed, &willDismissedWhileModal, lastRelease)
            if e.name == "shouldDismiss", FieldRead.bool(e["result"]) == false { touch?.refused = true }
            tracker.apply(e)
        }

        // The dimming fractions the model may show since the last frame record: the record's, or
        // after a dimming change between records, item 2's at the places the sheet may be (§3.8).
        var shownSinceFrame: [Double]? = nil
        // The frame records, then (f nil) the samples and events after the last one.
        for i in 0...view.frames.count {
            let f: SystemFrame? = i < view.frames.count ? view.frames[i] : nil
            while si < samples.count, view.dueFrame(samples[si].time) <= f?.index ?? Int.max {
                let s = samples[si]
                si += 1
                while ei < view.events.count, view.events[ei].time < s.time { event(ei, &tracker, &touch); ei += 1 }
                let wasPresented = tracker.presented
                let shownDimming = shownSinceFrame ?? previous.flatMap { FieldRead.number($0["dimming"]) }.map { [$0] }
                // §3.3 items 4–5: a drag's displayed offset is placed at each moved sample; new
                // detents or a new environment during the drag show at the next one.
                var relayout = false
                if case .setDetents? = s.kind.sheetCall { relayout = true }
                if case .setModalInPresentation? = s.kind.sheetCall { relayout = true }
                if case .environment = s.kind { relayout = true }
                if relayout, touch?.recognized != nil { touch?.stale = true; touch?.relaidOut = true }
                switch s.kind.sheetCall {
                case .track?, .untrack?, .setContentOffset?, .setContentSize?: touch?.listSetByApp = true
                default: break
                }
                tracker.apply(s)
                // A new environment lays the sheet out again at once: from then on the fraction
                // shown is item 2's between where the sheet was and the detent it goes to (§3.8
                // items 1–2, §3.10), which a fade started before the next record begins from.
                if case .environment = s.kind, tracker.presented, let p = previous {
                    shownSinceFrame = (shownDimming ?? []) + [p.location, tracker.restOffset].map { Self.itemTwo(tracker, at: $0) }
                }
                // §3.8 item 6: a dimming change inside animateChanges may fade from the shown value.
                switch s.kind.sheetCall {
                case .setLargestUndimmedDetent(_, true)?, .setDetents(_, true)?:
                    if wasPresented, tracker.presented, let from = shownDimming, let p = previous {
                        let values = from + [p.location, tracker.restOffset].map { Self.itemTwo(tracker, at: $0) }
                        let old = tracker.fade.map { [$0.low, $0.high] } ?? []
                        let until = s.time + Int64((Self.fadeDuration(tracker.sheet.simulator.springResponse) * 1e6).rounded(.up)) + 1
                        tracker.fade = ((old + values).min()!, (old + values).max()!, max(tracker.fade?.until ?? until, until))
                        shownSinceFrame = [tracker.fade!.low, tracker.fade!.high]
                    }
                case .setLargestUndimmedDetent(_, false)?, .setDetents(_, false)?:
                    tracker.fade = nil
                    if let p = previous { shownSinceFrame = [p.location, tracker.restOffset].map { Self.itemTwo(tracker, at: $0) } }
                default: break
                }
                if case .present? = s.kind.sheetCall, tracker.presented, !wasPresented { gone = false; willDismissed = false }
                if case let .touch(t) = s.kind, t.id == 0 {
                    switch t.phase {
                    case .began:
                        touch = Touch(down: t.location, began: s.time)
                        if let p = previous, !FieldRead.flag(p, "isAttracting"), !FieldRead.flag(p, "isDragging") {
                            touch?.inList = tracker.listFrame?.contains(Point(x: t.location.x, y: t.location.y - p.location)) ?? false
                        }
                    case .moved:
                        if touch?.recognized == nil, let d = touch?.down,
                           ((t.location.x - d.x) * (t.location.x - d.x) + (t.location.y - d.y) * (t.location.y - d.y)).squareRoot() >= threshold {
                            touch?.recognized = s.time
                            if let p = previous, !FieldRead.flag(p, "isAttracting") { touch?.startLocation = p.location }
                            touch?.startOffset = previous.flatMap { FieldRead.number($0["contentOffset"]) }
                        } else if touch?.recognized != nil {
                            touch?.lastY = t.location.y
                            touch?.stale = false
                        }
                    case .ended, .cancelled: lastRelease = s.time
                    default: break
                    }
                    if tracker.sheet.isModalInPresentation { touch?.refused = true }
                }
                while ei < view.events.count, view.events[ei].time == s.time { event(ei, &tracker, &touch); ei += 1 }
                if case let .touch(t) = s.kind, t.id == 0, t.phase == .ended || t.phase == .cancelled { touch = nil }
            }
            guard let f else { break }
            let frameTime = view.time(ofFrame: f.index)
            while ei < view.events.count, view.events[ei].time <= frameTime { event(ei, &tracker, &touch); ei += 1 }
            if !FieldRead.flag(f, "presented"), tracker.presented, tracker.programmaticDismissal { tracker.endPresentation() }
            // A fade ends when the sheet moves, when it reaches its end value (item 2 from then), and
            // at the latest when 1 − P < 10⁻³.
            if let fade = tracker.fade, frameTime > fade.until || FieldRead.flag(f, "isDragging") || FieldRead.flag(f, "isAttracting")
                || !FieldRead.flag(f, "presented") || FieldRead.number(f["dimming"]) == Self.itemTwo(tracker, at: f.location) {
                tracker.fade = nil
            }
            checkFrame(f, previous, tracker, &touch, gone)
            previous = f; shownSinceFrame = nil
        }
        while ei < view.events.count { event(ei, &tracker, &touch); ei += 1 }
    }

    // MARK: Events: SH2, SH3, SH4, SH7

    mutating func checkEvent(_ t: Microseconds, _ e: SystemEvent, _ tracker: inout SheetTracker, _ touch: Touch?,
                             _ gone: inout Bool, _ willDismissed: inout Bool, _ willDismissedWhileModal: inout Bool,
                             _ lastRelease: Microseconds?) {
        if gone {
            log.count("SH3")
            log.fail("SH3", "after-dismiss", "\(e.name) at t = \(secondsText(t)) s after didDismiss, before a new present")
        }
        let here = view.samples(at: t)
        let release = here.contains { if case let .touch(x) = $0.kind { return x.id == 0 && (x.phase == .ended || x.phase == .cancelled) } else { return false } }
        switch e.name {
        case "didChangeSelectedDetentIdentifier":
            log.count("SH2")
            let tap = here.contains { switch $0.kind.sheetCall { case .tapDimming?, .tapGrabber?: return true; default: return false } }
            if !release && !tap {
                log.fail("SH2", "cause", "a selection record at t = \(secondsText(t)) s is neither at a release nor at a dimming or grabber tap")
            }
            if FieldRead.string(e["identifier"]) == tracker.shown?.identifier {
                log.fail("SH2", "unchanged", "a selection record at t = \(secondsText(t)) s names the detent already shown (\(tracker.shown?.identifier ?? "?"))")
            }
        case "willDismiss":
            willDismissed = true
            willDismissedWhileModal = tracker.sheet.isModalInPresentation
            if here.contains(where: { if case .dismiss? = $0.kind.sheetCall { return true } else { return false } }) {
                log.fail("SH3", "programmatic", "willDismiss at t = \(secondsText(t)) s, the time of a dismiss call")
            }
        case "didDismiss":
            log.count("SH3")
            if !willDismissed { log.fail("SH3", "unopened", "didDismiss at t = \(secondsText(t)) s without a willDismiss in this presentation") }
            if tracker.dismissedByApp { log.fail("SH3", "programmatic", "didDismiss at t = \(secondsText(t)) s after the app's dismiss call") }
            gone = true
            willDismissed = false
        case "didAttemptToDismiss":
            log.count("SH7")
            if !release || touch?.recognized == nil {
                log.fail("SH7", "cause", "didAttemptToDismiss at t = \(secondsText(t)) s is not at a drag's release")
            } else if touch?.refused != true {
                log.fail("SH7", "refusal", "didAttemptToDismiss at t = \(secondsText(t)) s after a drag without a refused permission")
            }
            if view.events.contains(where: { $0.time == t && $0.event.name == "didChangeSelectedDetentIdentifier" }),
               let i = view.events.firstIndex(where: { $0.time == t && $0.event.name == "didAttemptToDismiss" }),
               let j = view.events.firstIndex(where: { $0.time == t && $0.event.name == "didChangeSelectedDetentIdentifier" }), j > i {
                log.fail("SH7", "order", "didAttemptToDismiss at t = \(secondsText(t)) s before the release's selection record")
            }
        default: break
        }
        if ["willDismiss", "didDismiss", "shouldDismiss"].contains(e.name) {
            log.count("SH4")
            // A dismissal begun before the app set the flag completes: the flag blocks starting an
            // interactive dismissal (S2), not one under way (and a pan that catches it continues
            // it, U26).
            let begunBefore = e.name == "didDismiss" && !willDismissedWhileModal
            if tracker.sheet.isModalInPresentation && !begunBefore {
                log.fail("SH4", "record", "\(e.name) at t = \(secondsText(t)) s while isModalInPresentation is true")
            }
        }
    }

    // MARK: Frames: SH1, SH2, SH3, SH4, SH5, SH6, SH8

    mutating func checkFrame(_ f: SystemFrame, _ previous: SystemFrame?, _ tracker: SheetTracker, _ touch: inout Touch?, _ gone: Bool) {
        let dragging = FieldRead.flag(f, "isDragging"), attracting = FieldRead.flag(f, "isAttracting")
        let presented = FieldRead.flag(f, "presented")
        let height = tracker.environment.container.height
        // SH2: the state channel is the selection as the app reads it.
        log.count("SH2")
        let state: String? = { if case let .string(s)? = f["state"] { return s } else { return nil } }()
        if state != tracker.sheet.selectedDetentIdentifier {
            log.fail("SH2", "state", "frame \(f.index): state \(state ?? "null"), the selection is \(tracker.sheet.selectedDetentIdentifier ?? "null")")
        }
        // SH3: gone after didDismiss.
        if gone {
            log.count("SH3")
            if presented || f.location != height {
                log.fail("SH3", "gone", "frame \(f.index): after didDismiss the sheet is at \(f.location), presented \(presented)")
            }
        }
        // SH8.
        if let dim = FieldRead.number(f["dimming"]) {
            log.count("SH8")
            if !(dim >= 0 && dim <= 1) { log.fail("SH8", "range", "frame \(f.index): dimming \(dim)") }
            if let fade = tracker.fade, presented {
                // During a fade (§3.8 item 6) the fraction lies between the old and new values.
                if dim < fade.low - 1e-12 || dim > fade.high + 1e-12 {
                    log.fail("SH8", "fade", "frame \(f.index): dimming \(dim) during a fade between \(fade.low) and \(fade.high)")
                }
            } else if presented, tracker.layout.detents.isEmpty {
                if dim != 0 { log.fail("SH8", "undimmed", "frame \(f.index): dimming \(dim) without an active detent") }
            } else if presented, let (yDim, yNext) = dimmedRange(tracker) {
                // Coinciding smallest dimmed and largest undimmed detents: SH8 asks 0 and 1 at
                // the same offset, and §3.8 item 2's fraction divides by zero there; either
                // value is accepted at that offset.
                if yDim == yNext && f.location == yDim {
                } else if f.location >= yNext && dim != 0 {
                    log.fail("SH8", "undimmed", "frame \(f.index): dimming \(dim) at \(f.location), at or below the largest undimmed detent (\(yNext))")
                }
                if f.location <= yDim && dim != 1 {
                    log.fail("SH8", "dimmed", "frame \(f.index): dimming \(dim) at \(f.location), at or above the smallest dimmed detent (\(yDim))")
                }
            } else if presented && tracker.layout.detents.count > 0 && dim != 0 {
                log.fail("SH8", "undimmed", "frame \(f.index): dimming \(dim) with the largest detent undimmed")
            }
        }
        guard presented, !tracker.layout.detents.isEmpty else { return }
        let fingerDown = touch != nil
        // SH1.
        if !fingerDown && !dragging && !attracting {
            log.count("SH1")
            let rest = tracker.restOffset
            if abs(f.location - rest) > 1e-9 {
                log.fail("SH1", "rest", "frame \(f.index): at rest at \(f.location), expected \(rest) (selection \(tracker.sheet.selectedDetentIdentifier ?? "null"), keyboard \(tracker.keyboardUp))")
            }
        }
        // SH4: the band's lower limit while modal (during drags and at rest).
        let stale = touch?.stale == true
        // A drag that caught an animation shows the sheet where the animation left it until its
        // first moved sample (§3.3 items 2–3, U26); an animation after new detents can leave it
        // beyond the band's reach, which the next sample brings back into the band.
        let placedByDrag = touch?.lastY != nil
        if tracker.sheet.isModalInPresentation && ((dragging && !stale && placedByDrag) || (!fingerDown && !attracting)) {
            log.count("SH4")
            let limit = tracker.smallestOffset + tracker.layout.extentDown
            if f.location > limit + 1e-9 {
                log.fail("SH4", "band", "frame \(f.index): modal sheet at \(f.location), below P_smallest + E_down = \(limit)")
            }
        }
        guard dragging else { return }
        let top = tracker.topCandidate
        if f["contentOffset"] == nil {
            // SH5: plain sheet drags.
            guard let y = touch?.lastY, !stale, f.location > top + 1e-9, f.location < tracker.smallestOffset - 1e-9 else { return }
            log.count("SH5")
            let c = f.location - y
            if let o = touch?.offset {
                if abs(c - o) > 1e-6 {
                    log.fail("SH5", "follow", "frame \(f.index): location − finger y = \(c), earlier in the drag \(o)")
                }
            } else {
                touch?.offset = c
            }
        } else if let p = previous, FieldRead.flag(p, "isDragging"), touch?.inList == true, touch?.listSetByApp != true,
                  touch?.relaidOut != true, touch?.startLocation != nil,
                  // Content the app left past its top (s₀ < top, still eligible, §3.9 item 1) is
                  // split against s₀ and the top at once: "the content stays pinned at top"
                  // moving down, o = s₀ − translation moving back (§3.9 item 2).
                  touch?.startOffset.map({ $0 >= tracker.listTop }) == true {
            // SH6: a hand-off (the touch went down in the list; a sheet pan beside a list that
            // still decelerates moves both, and is not a hand-off).
            log.count("SH6")
            let sheetMoved = p.location != f.location
            let contentMoved = FieldRead.number(p["contentOffset"]) != FieldRead.number(f["contentOffset"])
            // The sheet's share ends at the top-most candidate going up, and (scrolling does not
            // expand it) at its position when the pan began (§3.9 item 2): a sample across that
            // point moves both.
            let ends = [top] + (touch?.startLocation.map { [$0] } ?? [])
            let atEnd = ends.contains { abs(p.location - $0) <= 1e-9 || abs(f.location - $0) <= 1e-9 }
            if sheetMoved && contentMoved && !atEnd {
                log.fail("SH6", "both", "frame \(f.index): the sheet (\(p.location) → \(f.location)) and the content both moved away from the top-most candidate \(top)")
            }
        }

    }

    /// §3.8 item 6: the fade's longest run (s) for a sheet spring of `response` s: the τ at which
    /// the remaining progress (1 + ωτ)e^(−ωτ), ω = 2π / response, falls to 10⁻³.
    static func fadeDuration(_ response: Double) -> Double { fadeOmegaTau * response / (2 * Double.pi) }

    /// The x > 0 with (1 + x)e^(−x) = 10⁻³ (≈ 9.2335; bisection, the function falls for x > 0),
    /// rounded up.
    static let fadeOmegaTau: Double = {
        var lo = 0.0, hi = 50.0
        for _ in 0..<200 { let m = (lo + hi) / 2; if (1 + m) * Foundation.exp(-m) > 1e-3 { lo = m } else { hi = m } }
        return hi
    }()

    /// §3.8 item 2's fraction at offset `y` under the tracker's rule.
    static func itemTwo(_ tracker: SheetTracker, at y: Double) -> Double {
        let d = tracker.layout.detents
        guard !d.isEmpty else { return 0 }
        let yDim: Double, yNext: Double
        if let iU = d.firstIndex(where: { $0.identifier == tracker.sheet.largestUndimmedDetentIdentifier }) {
            if iU == 0 { return 0 }
            yDim = d[iU - 1].offset; yNext = d[iU].offset
        } else {
            yDim = d[d.count - 1].offset; yNext = tracker.environment.container.height
        }
        if yDim == yNext { return y <= yDim ? 1 : 0 }
        return min(max((y - yNext) / (yDim - yNext), 0), 1)
    }

    /// §3.8 item 1: (y_dim, y_next): at or above y_dim fully dimmed, at or below y_next undimmed;
    /// nil when the largest detent is undimmed (never dimmed).
    func dimmedRange(_ tracker: SheetTracker) -> (Double, Double)? {
        let d = tracker.layout.detents
        if let iU = d.firstIndex(where: { $0.identifier == tracker.sheet.largestUndimmedDetentIdentifier }) {
            if iU == 0 { return nil }
            return (d[iU - 1].offset, d[iU].offset)
        }
        return (d[d.count - 1].offset, tracker.environment.container.height)
    }
}
