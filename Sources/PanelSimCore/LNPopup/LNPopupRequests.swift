/// LNPopup's requests (lnpopup.md §2.2, §3.8, L1, L12, L13): the event queue that serializes
/// presentations, dismissals, opens and closes, the snap-open timer, and the programmatic calls.

/// An entry of LNPopup's event queue (§3.8).
enum PopupQueueEntry: Sendable, Equatable {
    case present(animated: Bool, openPopup: Bool)
    case dismiss(animated: Bool)
    case open(animated: Bool, clearsGestures: Bool)
    case close(animated: Bool, byGesture: Bool, clearsGestures: Bool)

    enum Kind { case present, dismiss, open, close }
    var kind: Kind {
        switch self {
        case .present: return .present
        case .dismiss: return .dismiss
        case .open: return .open
        case .close: return .close
        }
    }

    /// §3.8 step 1: the waiting entries a new entry of this kind drops.
    func coalesces(_ other: Kind) -> Bool {
        switch kind {
        case .present: return other == .present || other == .dismiss
        case .dismiss: return true
        case .open, .close: return other == .open || other == .close
        }
    }
}

extension LNPopupSystem {
    // MARK: The event queue (§3.8)

    mutating func enqueue(_ entry: PopupQueueEntry) {
        queue.removeAll { entry.coalesces($0.entry.kind) }
        queue.append((entry, currentLine))
        resume()
    }

    /// No bar exists: barHidden and no presentation running (§2.2's "no bar").
    var noBar: Bool { publicState == .barHidden && !presentingBar }

    /// Starts the first waiting entry unless an animator runs.
    mutating func resume() {
        guard animator.isEmpty, !queue.isEmpty else { return }
        let (entry, line) = queue.removeFirst()
        switch entry {
        case .open(let animated, let clears):
            // Queued while a bar existed, started after its dismissal: dropped like a call with no
            // bar (§2.2; the spec is silent here, docs/lnpopup.md): the request completes as a
            // no-op and the queue goes on, as if it had never been queued.
            guard !noBar else { return dropWithoutBar(entry, line: line, clears) }
            guard targetState != .open else { return finishRequest(clears) }  // Q11: no resume
            transition(to: .open, animated: animated, byGesture: false, then: .request(clearsGestures: clears))
        case .close(let animated, let byGesture, let clears):
            guard !noBar else { return dropWithoutBar(entry, line: line, clears) }
            guard targetState != .barPresented else { return finishRequest(clears) }
            transition(
                to: .barPresented, animated: animated, byGesture: byGesture, then: .request(clearsGestures: clears))
        case .present(let animated, let openPopup):
            if targetState == .barHidden {
                presentBar(animated: animated, openPopup: openPopup)
            } else if openPopup {
                currentLine = line
                enqueue(.open(animated: animated, clearsGestures: false))
            } else {
                resume()
            }
        case .dismiss(let animated):
            guard !dismissalOverride else {
                return warn(
                    line, "dismissBar ignored: the popup bar was already dismissed when it came out of LNPopup's queue")
            }
            dismissalOverride = true
            cancelSnapTimers()
            if targetState != .barPresented {
                drag = nil
                cancel(.interaction)
                transition(
                    to: .barPresented, animated: animated, byGesture: false, then: .barDismissal(animated: animated))
            } else {
                startBarDismissal(animated: animated)
            }
        }
    }

    mutating func finishRequest(_ clearsGestures: Bool) {
        if clearsGestures { gesturesIgnored = false }
    }

    /// An open or close that starts after the bar was dismissed: dropped with a warning (like an
    /// `openPopup`/`closePopup` with no bar, §2.2); its completion runs as for a no-op request
    /// (LNPopup's own requests clear `gesturesIgnored`), then the next waiting entry starts.
    mutating func dropWithoutBar(_ entry: PopupQueueEntry, line: Int, _ clearsGestures: Bool) {
        let what: String
        switch entry {
        case .open(_, false): what = "openPopup"
        case .close(_, false, false): what = "closePopup"
        case .open: what = "LNPopup's own open (bar tap, snap swipe or drag release)"
        default: what = "LNPopup's own close (drag release or snap threshold)"
        }
        warn(
            line,
            "\(what) ignored: queued while the popup bar existed, it would start after the bar's dismissal (no popup bar is presented)"
        )
        finishRequest(clearsGestures)
        resume()
    }

    /// The bar's dismissal starts (`dismissalOverride` set): a pending snap-open timer (L12) is
    /// cancelled, its open dropped like a queued request that starts without a bar (docs/lnpopup.md),
    /// and `gesturesIgnored`, which that open's completion would have cleared, is cleared.
    mutating func cancelSnapTimers() {
        guard !timers.isEmpty else { return }
        for t in timers {
            warn(
                t.line,
                "the snap swipe's open (due at \(Self.seconds(t.time)) s) is cancelled: the popup bar's dismissal started at \(Self.seconds(now)) s"
            )
        }
        timers.removeAll()
        gesturesIgnored = false
    }

    static func seconds(_ t: Microseconds) -> String {
        let fraction = String(t % 1_000_000)
        return "\(t / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    // MARK: Timers (L1, L12)

    /// Fires the timers due before a sample at `limit` µs (samples come before timers at equal t, L1).
    mutating func fireTimers(before limit: Microseconds) {
        while let t = timers.first, t.time < limit { fire(t) }
    }

    /// Fires the timers due at frame `index`: those at or before its exact time, index / frameRate
    /// (L1, L12: processed at the first frame at or after their time).
    mutating func fireTimers(atFrame index: Int) {
        let frame = timebase.frame(index)
        while let t = timers.first, timebase.reached(t.time, at: frame) { fire(t) }
    }

    /// The snap swipe's open (L12): queued at the timer's own time.
    private mutating func fire(_ t: (time: Microseconds, line: Int)) {
        timers.removeFirst()
        now = t.time
        instant = timebase.sample(t.time)
        currentLine = t.line
        enqueue(.open(animated: true, clearsGestures: true))
    }

    // MARK: Calls (§2.2, L13)

    mutating func handleCall(_ call: PopupCall, line: Int) {
        currentLine = line
        switch call {
        case .setContentOffset, .setContentSize: break
        default:
            if popupPanInProgress {
                deferredCalls.append((call, line))
                return
            }
        }
        switch call {
        case .presentBar(let animated, let openPopup):
            enqueue(.present(animated: animated, openPopup: openPopup))
        case .openPopup(let animated):
            guard !noBar else { return warn(line, "openPopup ignored: no popup bar is presented") }
            enqueue(.open(animated: animated, clearsGestures: false))
        case .closePopup(let animated):
            guard !noBar else { return warn(line, "closePopup ignored: no popup bar is presented") }
            enqueue(.close(animated: animated, byGesture: false, clearsGestures: false))
        case .dismissBar(let animated):
            guard !noBar else { return warn(line, "dismissBar ignored: no popup bar is presented") }
            enqueue(.dismiss(animated: animated))
        case .tapBar:
            guard barTouchable(duringOpening: false) else {
                return warn(
                    line,
                    "tapBar ignored: the bar cannot be touched now (no bar, open or opening, or the window is locked)")
            }
            barTapped()
        case .tapCloseButton:
            guard closeButtonAvailable else {
                return warn(
                    line, "tapCloseButton ignored: no close button is shown now (closed, closing, or style none)")
            }
            closeButtonTapped()
        case .setContentOffset(let x, let y):
            guard var sv = scrollView else {
                return warn(line, "setContentOffset ignored: the trace has no scrollView")
            }
            if let x { sv.contentOffset.x = x }
            sv.setMainOffset(y ?? sv.contentOffset.y, .bottom)
            scrollView = sv
        case .setContentSize(let width, let height):
            guard scrollView != nil else { return warn(line, "setContentSize ignored: the trace has no scrollView") }
            if let width { scrollView?.contentSize.width = width }
            if let height { scrollView?.contentSize.height = height }
        }
    }
}
