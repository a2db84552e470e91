/// UIKit's `UITapGestureRecognizer` with `numberOfTapsRequired` = N, one finger, as a headless model
/// (drawerkit.md §5 D7; the thresholds are UIKit's undocumented ones as the spec fixes them):
///
/// * a touch is a tap when it never moves ≥ `maximumMovement` (10 pt) from its touch-down point and
///   lasts ≤ `maximumDuration` (0.5 s);
/// * the taps of one multi-tap must each begin ≤ `maximumInterval` (0.35 s) after the previous tap
///   ended and ≤ `maximumDistance` (45 pt) from the first tap's touch-down point; otherwise the count
///   restarts with this touch;
/// * the recognizer fires at the `ended` sample of the N-th tap, at that sample's location;
/// * a pending count lapses silently `maximumInterval` after the last tap;
/// * a disabled (or not installed) recognizer counts nothing: `reset()` clears its count.
///
/// Times are µs, points pt in container coordinates. Every call is O(1).
struct TapRecognizer: Sendable, Equatable {
    static let maximumMovement = 10.0
    static let maximumDuration: Microseconds = 500_000
    static let maximumInterval: Microseconds = 350_000
    static let maximumDistance = 45.0

    /// `numberOfTapsRequired` (≥ 1).
    let requiredTaps: Int
    /// Taps counted so far in the current multi-tap.
    private(set) var count = 0
    private var firstDown = Point.zero
    private var lastTapEnd: Microseconds = 0
    /// The touch being watched: its touch-down point and time, and whether it still qualifies.
    private var touchDown: Point?
    private var touchDownTime: Microseconds = 0
    private var qualifies = false

    init(requiredTaps: Int) { self.requiredTaps = max(1, requiredTaps) }

    /// True while a count is pending (a multi-tap started and has not lapsed) at `time` µs.
    func isPending(at time: Microseconds) -> Bool { count > 0 && time - lastTapEnd <= Self.maximumInterval }

    /// Forgets the count and the watched touch (the recognizer was disabled, or its touch went
    /// elsewhere).
    mutating func reset() {
        count = 0
        touchDown = nil
        qualifies = false
    }

    /// A finger went down at `point`, `time`.
    mutating func touchBegan(at point: Point, time: Microseconds) {
        if count > 0 {
            let d = point - firstDown
            let near = (d.x * d.x + d.y * d.y).squareRoot() <= Self.maximumDistance
            if time - lastTapEnd > Self.maximumInterval || !near { count = 0 }
        }
        if count == 0 { firstDown = point }
        touchDown = point
        touchDownTime = time
        qualifies = true
    }

    /// The finger moved to `point`.
    mutating func touchMoved(to point: Point) {
        guard let down = touchDown, qualifies else { return }
        let d = point - down
        if (d.x * d.x + d.y * d.y).squareRoot() >= Self.maximumMovement {
            qualifies = false
            count = 0
        }
    }

    /// The touch can no longer be a tap (for example it started a pan): the multi-tap is over.
    mutating func fail() {
        qualifies = false
        count = 0
        touchDown = nil
    }

    /// The finger lifted at `point`, `time`. Returns true when this completes the N-th tap (the
    /// recognizer fires; its count starts again from zero).
    mutating func touchEnded(at point: Point, time: Microseconds) -> Bool {
        touchMoved(to: point)
        defer { touchDown = nil }
        guard touchDown != nil, qualifies, time - touchDownTime <= Self.maximumDuration else {
            count = 0
            return false
        }
        count += 1
        lastTapEnd = time
        if count >= requiredTaps {
            count = 0
            return true
        }
        return false
    }

    /// The touch was cancelled: it is not a tap and ends the multi-tap.
    mutating func touchCancelled() { fail() }
}
