/// The sheet's programmatic calls (uisheet.md §2.2, §3.7, §3.8, §3.11) and environment changes,
/// the keyboard among them (§3.10, U25).

extension UISheetSystem {
    // MARK: Calls (§2.2, §3.7, §3.8, §3.11)

    mutating func handleCall(_ call: SheetCall, line: Int) {
        if case .present = call {} else if !presented {
            return warn(line, "call ignored: no sheet is presented")
        }
        switch call {
        case let .present(animated):
            guard !presented else { return warn(line, "present ignored: the sheet is already presented") }
            guard !geometry.detents.isEmpty else { return warn(line, "present ignored: no active detent") }
            presented = true
            dismissible = true
            if animated {
                modelY = geometry.height
                animation = nil
                animate(to: restOffset, velocity: 0, dampingRatio: 1)
            } else {
                jump(to: restOffset)
            }
        case let .dismiss(animated):
            if animated {
                animate(to: geometry.height, velocity: currentVelocity, dampingRatio: 1, kind: .programmaticDismissal)
                if route != nil { route = .ignored; sheetDragging = false }
            } else {
                animation = nil
                endPresentation()
            }
        case let .selectDetent(id, animateChanges):
            if let id, geometry.index(of: id) == nil { warn(line, "selectDetent: '\(id)' names no active detent; the smallest detent is shown") }
            sheet.selectedDetentIdentifier = id
            applyLayoutChange(animated: animateChanges)
        case let .setDetents(list, animateChanges):
            let (shown, target) = (shownDimming(at: displayed(at: instant), time: instant), dimmingTarget)
            sheet.detents = list
            geometry = SheetGeometry(list, environment: environment, configuration: sheet)
            // §2.4 is silent on a list with no active detent while presented: the sheet stays
            // presented, off screen at H, without records, and ignores touches until a detent is
            // active again (docs/uisheet.md).
            if geometry.detents.isEmpty { warn(line, "setDetents: no active detent; the sheet stays presented off screen at H (no records, touches ignored) until a detent is active again") }
            applyLayoutChange(animated: animateChanges)
            dimmingRuleChanged(shown: shown, target: target, animateChanges: animateChanges)
        case let .setLargestUndimmedDetent(id, animateChanges):
            if let id, geometry.index(of: id) == nil { warn(line, "setLargestUndimmedDetent: '\(id)' names no active detent; treated as nil") }
            let (shown, target) = (shownDimming(at: displayed(at: instant), time: instant), dimmingTarget)
            sheet.largestUndimmedDetentIdentifier = id
            dimmingRuleChanged(shown: shown, target: target, animateChanges: animateChanges)
        case let .setModalInPresentation(value):
            sheet.isModalInPresentation = value
        case let .setShouldDismiss(value):
            // §2.2: only a delegate that implements presentationControllerShouldDismiss(_:) can
            // change its answer (the loader refuses the call for "default").
            guard sheet.shouldDismiss != .default else {
                return warn(line, "setShouldDismiss ignored: sheetDelegate.shouldDismiss is \"default\" (the delegate does not implement presentationControllerShouldDismiss)")
            }
            sheet.shouldDismiss = value ? .always : .never
        case let .setPrefersScrollingExpands(value):
            sheet.prefersScrollingExpandsWhenScrolledToEdge = value
        case .tapDimming:
            let y = displayed(at: instant)
            // The four refusals of uisheet.md §3.8, in this order; the warning names the one that applied.
            let refusal = sheetDragging ? "a drag is under way"
                : dismissalRunning ? "a dismissal is under way"
                : !(shownDimming(at: y, time: instant) > 0) ? "the dimming shown is 0 (the sheet is at or below its largest undimmed detent)"
                : !(y > geometry.largeTop) ? "the sheet is at its top margin" : nil
            if let refusal { return warn(line, "tapDimming not accepted: \(refusal) (uisheet.md §3.8)") }
            acceptedDismissTap(selectUndimmed: true)
        case .tapGrabber:
            guard sheet.prefersGrabberVisible else { return warn(line, "tapGrabber ignored: prefersGrabberVisible is false") }
            guard !sheetDragging else { return warn(line, "tapGrabber ignored during a drag") }
            guard !dismissalRunning else { return warn(line, "tapGrabber ignored: the sheet is being dismissed") }
            if keyboardUp {
                emit("endEditing")
                keyboardUp = false
                keyboardIgnored = true
                animate(to: restOffset, velocity: currentVelocity)
                return
            }
            let d = geometry.detents
            guard !d.isEmpty else { return warn(line, "tapGrabber ignored: no active detent") }
            if d.count == 1 { return acceptedDismissTap(selectUndimmed: false) }
            let i = geometry.index(of: shownDetent?.identifier) ?? (d.count - 1)
            userSelect(d[i > 0 ? i - 1 : d.count - 1].identifier)
            animate(to: restOffset, velocity: currentVelocity)
        case let .setContentOffset(_, y, _):
            guard let y else { return }
            guard scrollView != nil else { return warn(line, "setContentOffset ignored: no tracked scroll view") }
            scrollView?.setMainOffset(y, .bottom)
        case let .setContentSize(width, height):
            guard scrollView != nil else { return warn(line, "setContentSize ignored: no tracked scroll view") }
            if let width { scrollView?.contentSize.width = width }
            if let height { scrollView?.contentSize.height = height }
        case let .track(c):
            scrollView = ScrollViewModel(c, position: .bottom)
            hasScrollView = true
        case .untrack:
            scrollView = nil
            hasScrollView = false
        }
    }

    /// A selection or detent change by the app: animated inside `animateChanges`, else at once;
    /// during a drag only the selection changes (U27). A still sheet already at its new rest
    /// offset does not move (no animation starts, so a dimming fade of §3.8 item 6 can run).
    mutating func applyLayoutChange(animated: Bool) {
        guard !sheetDragging, presented, !dismissalRunning else { return }
        let rest = restOffset
        if animated && (animation != nil || rest != modelY) { animate(to: rest, velocity: currentVelocity) } else { jump(to: rest) }
    }

    // MARK: Environment and keyboard (§2.2, §3.10, U25)

    mutating func changeEnvironment(_ e: PanelEnvironment) {
        let old = environment
        environment = e
        if e.container != old.container || e.safeArea != old.safeArea {
            geometry = SheetGeometry(sheet.detents, environment: e, configuration: sheet)
            // A re-layout is not inside animateChanges: the dimming follows item 2 at once.
            fade = nil
            if let a = animation, dismissalRunning {
                // The dismissal goes on, to the new container's bottom.
                if a.target != geometry.height {
                    animate(to: geometry.height, velocity: currentVelocity, dampingRatio: a.spring.zeta, kind: a.kind)
                }
            } else if presented && !sheetDragging {
                jump(to: restOffset)
            }
        }
        if e.keyboard != old.keyboard, let k = e.keyboard { keyboardChanged(k) }
    }

    mutating func keyboardChanged(_ k: KeyboardFrame) {
        guard sheet.keyboardPolicy != .ignore else { return }
        let h = k.firstResponderInSheet ? k.height : 0
        let ease = options.keyboardAnimation == .keyboard ? max(k.duration, 0) : 0
        if h <= 0 {
            keyboardIgnored = false
            keyboardHeight = 0
            if keyboardUp {
                keyboardUp = false
                if presented && !sheetDragging && !dismissalRunning {
                    animate(to: restOffset, velocity: currentVelocity, dampingRatio: 1, ease: ease)
                }
            }
            return
        }
        guard !keyboardIgnored, presented else { return }
        keyboardHeight = h
        keyboardUp = true
        if !sheetDragging && !dismissalRunning {
            animate(to: restOffset, velocity: currentVelocity, dampingRatio: 1, ease: ease)
        }
    }
}
