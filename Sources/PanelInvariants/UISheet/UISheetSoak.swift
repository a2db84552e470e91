import PanelSimCore
import PanelTrace

/// The sheet's soak: `UISheetSoakGenerator`'s traces checked against SH1–SH8 of uisheet.md §5 and
/// the replay rules (`ReplayRules`; `willDismiss` pairs with `didDismiss` or with its documented
/// cancellation, §3.6 item 3, Q1).
///
/// The checker follows what the app and UIKit set (`SheetTracker`): detents, selection, undimmed
/// detent, modal flag, presentation, environment and keyboard, from the calls, environment samples
/// and the records that report a change (a selection record, `endEditing`, `didDismiss`).
///
/// * SH1 at rest (presented, no finger down, no drag, no animation) the location is the shown
///   detent's offset, or the keyboard position while the keyboard is up (§3.2, §3.10).
/// * SH2 `didChangeSelectedDetentIdentifier` only at a release or a dimming or grabber tap, only
///   for a detent other than the shown one, and the `state` channel is the selection as the app
///   reads it on every frame (programmatic calls change it without a record).
/// * SH3 every `didDismiss` follows a `willDismiss` of the same presentation; from `didDismiss` on
///   the location is H, `presented` false and no record is written until a `present`; a
///   programmatic `dismiss` writes neither record.
/// * SH4 while modal, no `willDismiss`, `didDismiss` or `shouldDismiss`, and during a drag and at
///   rest the location stays at or above P_smallest + E_down.
/// * SH5 during a plain sheet drag, between the top-most candidate and the smallest detent,
///   location − finger y is constant (from the first sample after recognition, U4).
/// * SH6 in a hand-off, between two drag frames the sheet and the content do not both move unless
///   the sheet is at its top-most candidate in one of them (§3.9 item 2).
/// * SH7 `didAttemptToDismiss` comes only at a release whose drag had a refused permission (a
///   `shouldDismiss` false in it, or the modal flag), after that release's selection record.
/// * SH8 0 ≤ dimming ≤ 1; 0 at and below the largest undimmed detent, 1 at and above the smallest
///   dimmed one (§3.8 items 1–2); during a fade of §3.8 item 6 (a dimming change inside
///   `animateChanges` with the sheet still, until the sheet moves or the fraction reaches item 2's
///   value) the fraction lies between the shown value at the change and the new rule's.
///
/// With a profile (`--profile`) each trace names the version in its header and uses only what
/// that version has (at 15 the generator draws no custom detent, US-G1, and under any profile no `ios26` variant); every rule holds at every point
/// (profiles.md §4.2), so a profiled trace is checked like any other.
public struct UISheetSoak: SystemSoak {
    /// The UISheetPresentationController version the traces are replayed as; nil for the default point.
    public var profile: TraceProfile?

    public init(profile: TraceProfile? = nil) { self.profile = profile }

    /// The soak replaying as `profile` (a profile of this library; nil for another's).
    public func profiled(_ profile: TraceProfile) -> (any SystemSoak)? {
        profile.library == model ? UISheetSoak(profile: profile) : nil
    }

    public var model: PanelModel { .uiSheet }

    public var rules: [(id: String, source: String)] {
        [("SH1", "uisheet.md §5 SH1, §3.2, §3.10"), ("SH2", "uisheet.md §5 SH2, §3.2"), ("SH3", "uisheet.md §5 SH3, §3.6, §3.7"),
         ("SH4", "uisheet.md §5 SH4, §3.3, §3.6"), ("SH5", "uisheet.md §5 SH5, §3.3"), ("SH6", "uisheet.md §5 SH6, §3.9"),
         ("SH7", "uisheet.md §5 SH7, §3.6 item 4"), ("SH8", "uisheet.md §5 SH8, §3.8")]
    }

    public func trace(seed: UInt64) -> Trace {
        var trace = UISheetSoakGenerator.trace(seed: seed, customDetents: UISheetProfiles.table.values(for: profile).customDetents,
                                               ios26Variant: profile == nil)
        if let profile { trace.header.profile = profile }
        return trace
    }

    public func check(_ trace: Trace, result: SimulationResult) -> SoakCheck {
        var checker = UISheetChecker(trace: trace, result: result, variant: model.rawValue)
        checker.checkAll()
        return checker.log.check
    }

    /// `willDismiss` opens a dismissal that `didDismiss` closes. Its documented cancellations: the
    /// drag comes back above the smallest detent (a later `willDismiss` of the same or a later
    /// drag, U14), or the release goes to a detent (Q1), or the app dismisses or presents (§3.7):
    /// a `willDismiss` that no `didDismiss` follows is cancelled by the next of those.
    public func pairSteps(_ trace: Trace, _ result: SimulationResult) -> [PairStep] {
        var events: [(time: Microseconds, will: Bool)] = []
        for record in result.records {
            guard case let .event(t, .system(e)) = record else { continue }
            if e.name == "willDismiss" { events.append((t, true)) }
            if e.name == "didDismiss" { events.append((t, false)) }
        }
        let cancelPoints: [Microseconds] = trace.samples.compactMap { s in
            if case let .touch(t) = s.kind, t.id == 0, t.phase == .ended || t.phase == .cancelled { return s.time }
            switch s.kind.sheetCall {
            case .dismiss?, .present?: return s.time
            default: return nil
            }
        }
        var out: [PairStep] = []
        for (i, e) in events.enumerated() {
            guard e.will else { out.append(PairStep(.close, "willDismiss/didDismiss", at: e.time)); continue }
            out.append(PairStep(.open, "willDismiss/didDismiss", at: e.time))
            if i + 1 < events.count {
                if events[i + 1].will { out.append(PairStep(.cancel, "willDismiss/didDismiss", at: events[i + 1].time)) }
            } else if let c = cancelPoints.first(where: { $0 >= e.time }) {
                out.append(PairStep(.cancel, "willDismiss/didDismiss", at: c))
            }
        }
        return out
    }

    public var headerSimplifications: [@Sendable (inout TraceHeader) -> Void] {
        [
            { $0.scrollView = nil },
            { $0.sheet?.simulator = SheetSimulatorOptions() },
            { $0.sheet?.largestUndimmedDetentIdentifier = nil },
            { $0.sheet?.selectedDetentIdentifier = nil },
            { $0.sheet?.prefersGrabberVisible = false },
            { $0.sheet?.keyboardPolicy = .uikit },
            { $0.sheet?.prefersScrollingExpandsWhenScrolledToEdge = true },
            { $0.sheet?.prefersEdgeAttachedInCompactHeight = false },
            { $0.recognizer = RecognizerConfiguration() },
        ]
    }
}
