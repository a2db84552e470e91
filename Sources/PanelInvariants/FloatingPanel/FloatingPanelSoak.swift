import PanelSimCore
import PanelTrace

/// FloatingPanel's soak: `SoakGenerator`'s bottom panels, each replayed as is and mirrored onto
/// top, left and right, checked by `InvariantChecker` (G1–G4, G6, F1–F5 of scenarios.md). Its
/// checks and report are those `panelsim soak` has always printed; the replay rules of
/// `ReplayRules` are not added to them (`checksReplayRules` is false).
public struct FloatingPanelSoak: SystemSoak {
    /// The FloatingPanel version the traces are replayed as (`--profile floatingpanel@VERSION`,
    /// profiles.md); nil for the current one. The checker keeps the rules that hold at its point
    /// (`InvariantChecker.holds`).
    public var profile: TraceProfile?

    public init(profile: TraceProfile? = nil) { self.profile = profile }

    /// The soak replaying as `profile` (any FloatingPanel profile; the gates decide per trace).
    public func profiled(_ profile: TraceProfile) -> (any SystemSoak)? {
        profile.library == model ? FloatingPanelSoak(profile: profile) : nil
    }

    public var model: PanelModel { .floatingPanel }

    public var rules: [(id: String, source: String)] {
        InvariantChecker.rules.map { ($0, "scenarios.md") }
    }

    public var checksReplayRules: Bool { false }

    public var options: SimulationOptions { InvariantChecker.options }

    public func trace(seed: UInt64) -> Trace {
        var trace = SoakGenerator.trace(seed: seed)
        if let profile { trace.header.profile = profile }
        return trace
    }

    /// A trace that uses what the profile's version lacks (profiles.md §2.3).
    public func isGated(_ trace: Trace) -> Bool {
        (try? TraceProfiles.checkGates(trace, profile: profile, file: "soak")) == nil
    }

    public func check(_ trace: Trace, result: SimulationResult) -> SoakCheck {
        let (violations, coverage) = InvariantChecker.check(trace, result: result)
        return SoakCheck(violations: violations, counts: Self.counts(coverage))
    }

    /// The trace as given and its three mirrors (`InvariantChecker.checkAll`).
    public func checkAll(_ trace: Trace) -> SoakCheck {
        let (violations, coverage) = InvariantChecker.checkAll(trace)
        return SoakCheck(violations: violations, counts: Self.counts(coverage))
    }

    /// `InvariantCoverage` as rule counts: G1 rests, G4 resting lists, G3 frame pairs, F1 (and F3)
    /// calls, F5 attraction frames, G6 mirrors, G7 rests.
    public static func counts(_ c: InvariantCoverage) -> SoakCounts {
        var out = SoakCounts()
        out.count("G1", c.g1Rests); out.count("G4", c.g4Rests); out.count("G3", c.g3Frames)
        out.count("F1", c.calls); out.count("F5", c.attractionFrames); out.count("G6", c.mirrors)
        out.count("G7", c.g7Rests)
        return out
    }

    public var headerSimplifications: [@Sendable (inout TraceHeader) -> Void] { Self.floatingPanelSimplifications }

    public func isReplayable(_ header: TraceHeader) -> Bool { (try? validate(header)) != nil }

    /// The delegate, behavior and list sections back to their defaults, one at a time, and states
    /// without an anchor dropped.
    public static let floatingPanelSimplifications: [@Sendable (inout TraceHeader) -> Void] = [
        { $0.delegate.didMove = nil },
        { $0.delegate.dismissIn = [] },
        { $0.delegate.targetStateOverrides = [:] },
        { $0.delegate.shouldRemove = .default },
        { $0.delegate.scrollableStates = nil },
        { $0.delegate.shouldBeginDragging = true },
        { $0.panel.behavior = PanelBehavior() },
        { $0.panel.backdropAlpha = [:] },
        { $0.panel.removalInteractionEnabled = false },
        { $0.panel.dismissalTapEnabled = false },
        { $0.panel.contentMode = .static },
        { $0.recognizer = RecognizerConfiguration() },
        { $0.scrollView = nil },
        { h in let anchors = h.panel.anchors.map(\.state); h.panel.states = h.panel.states.filter { anchors.contains($0) } },
    ]

    /// The trace and, for a bottom panel, its top, left and right mirrors.
    public func emitted(_ trace: Trace) -> [Trace] {
        guard trace.header.model == .floatingPanel, trace.header.panel.position == .bottom else { return [trace] }
        return [trace] + [PanelPosition.top, .left, .right].map { position in
            var m = Mirror(position: position, h: trace.header.environment.container.height).trace(trace)
            m.header.name = trace.header.name + "-" + position.rawValue
            return m
        }
    }

    public func reproduction(seed: UInt64) -> String {
        "panelsim soak" + (profile.map { " --profile floatingpanel@\($0.version)" } ?? "") + " --seed \(seed) --count 1"
    }

    public func variantPhrase(_ variant: String) -> String { variant == "bottom" ? "" : " on the \(variant) mirror" }

    public var replayPhrase: String { "each replayed on bottom, top, left and right" }

    public func reportLines(_ counts: SoakCounts) -> [String] {
        ["checked: \(counts["G1"]) rests (G1), \(counts["G4"]) resting lists (G4), \(counts["G3"]) frame pairs (G3), "
            + "\(counts["F1"]) calls (F1, F3), \(counts["F5"]) attraction frames (F5), \(counts["G6"]) mirrors (G6), "
            + "\(counts["G7"]) rests in their state (G7)"]
    }
}
