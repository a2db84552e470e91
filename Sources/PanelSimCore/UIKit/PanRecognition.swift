/// What UIKit's `UIPanGestureRecognizer` gives every panel system: the begin threshold (hysteresis)
/// and the velocity it reports (floatingpanel-core.md §9 O4–O5; drawerkit.md §5 D6). The per-system
/// recognizer state (which view the touch began on, arbitration with scroll views) stays with the
/// system; these are the rules they share.
enum PanRecognition {
    /// True when a finger displaced by `d` (pt, from its touch-down point) has moved far enough for a
    /// pan to begin: |d| ≥ `threshold` (pt; `recognizer.beginThreshold`, default 10).
    @inline(__always)
    static func crossesBeginThreshold(_ d: Point, threshold: Double) -> Bool {
        (d.x * d.x + d.y * d.y).squareRoot() >= threshold
    }

    /// The velocity a moving touch reports when the trace's recorded velocity is used (pt/s,
    /// container axes): the sample's own `velocity` under `recorded`; nil means "ask the tracker".
    @inline(__always)
    static func recordedVelocity(_ touch: TouchSample, source: VelocitySource) -> Point? {
        source == .recorded ? touch.velocity : nil
    }

    /// The pan's velocity at lift (pt/s): the recorded one under `recorded` when the sample has it,
    /// else the tracker's lift estimate at `time` µs. Inlined, so that callers pass their tracker
    /// in place instead of copying it.
    @inline(__always)
    static func liftVelocity(
        _ touch: TouchSample, time: Microseconds, source: VelocitySource,
        tracker: VelocityTracker
    ) -> Point {
        if let v = recordedVelocity(touch, source: source) { return v }
        return tracker.velocityAtLift(timeNanos: time * 1000)
    }
}

/// The one-finger rule every system's recognizers follow (floatingpanel-core.md §9 O4, which the
/// other systems' specs take over): only touch id 0 drives them; every other id is ignored, and the
/// first sample of each such id adds one warning to the result.
struct SecondFingerFilter: Sendable {
    private var warnedIds: Set<Int> = []

    /// True for a touch of id 0. For any other id, false, appending "line L: touches with id N are
    /// ignored …" to `warnings` the first time that id is seen. O(1) expected.
    @inline(__always)
    mutating func admits(_ touch: TouchSample, line: Int, warnings: inout [String]) -> Bool {
        if touch.id == 0 { return true }
        if warnedIds.insert(touch.id).inserted {
            warnings.append("line \(line): touches with id \(touch.id) are ignored (only id 0 drives the recognizers)")
        }
        return false
    }
}

extension VelocitySource {
    /// The estimator behind this source (`recorded` falls back to `lsq2` for samples without a
    /// recorded velocity).
    var strategy: VelocityStrategy {
        switch self {
        case .recorded, .lsq2: return .lsq2
        case .impulse: return .impulse
        case .ios: return .ios
        }
    }
}
