/// UIKit's additive view animations: a `UIViewPropertyAnimator` started on a property that is
/// already animating does not replace the running animation; the model value takes the new end
/// value at once, and every running animator adds `delta · (1 − progress)` on top of it, where
/// delta is the value before it started minus the value it set. Animators overlap and complete
/// one by one (UIKit's behavior since iOS 8; drawerkit.md §3.8–§3.9, lnpopup.md §3.9 and L4).

/// The channels an additive animation moves, as one value (each in its own unit: pt, alpha, …).
protocol AdditiveChannels: Sendable, Equatable {
    /// `self + delta · r`, channel by channel: one multiplication, then one addition per channel.
    func adding(_ delta: Self, scaledBy r: Double) -> Self
}

/// The running animators of one view (or of views animated together), in start order. Times are
/// exact replay instants (`ReplayInstant`): each curve is evaluated at the frame's exact time, and
/// an animator completes at the first frame whose exact time is past its start and at least its
/// duration after it, within 10⁻⁹ s (drawerkit.md §5 D9, lnpopup.md L1 and L4).
struct AdditiveAnimator<Channels: AdditiveChannels, Completion: Sendable & Equatable>: Sendable, Equatable {
    /// One running `UIViewPropertyAnimator`.
    struct Animation: Sendable, Equatable {
        let start: ReplayInstant
        let timing: AnimatorTiming
        /// Ticks after `start` at which it completes (`AnimatorTiming.completionDelay`).
        let completionDelay: Int64
        /// Value before the animator started − model value it set.
        let delta: Channels
        /// What the system runs when it completes.
        let completion: Completion
    }

    let timebase: ReplayTimebase
    /// Running animations, in start order.
    private(set) var running: [Animation] = []

    /// No animator yet, on the clock of `timebase`.
    init(timebase: ReplayTimebase) {
        self.timebase = timebase
        // Room for a few overlapping animators (the list is appended to and emptied all the time).
        running.reserveCapacity(4)
    }

    var isEmpty: Bool { running.isEmpty }

    /// Starts an animator at `start` that shows `delta` on top of the model value, fading with
    /// `timing`.
    mutating func add(start: ReplayInstant, timing: AnimatorTiming, delta: Channels, completion: Completion) {
        let delay = AnimatorTiming.completionDelay(timing.duration, ticksPerSecond: timebase.ticksPerSecond)
        running.append(
            Animation(start: start, timing: timing, completionDelay: delay, delta: delta, completion: completion))
    }

    /// True when a running animation's completion satisfies `predicate`. O(running).
    func contains(where predicate: (Completion) -> Bool) -> Bool {
        running.contains { predicate($0.completion) }
    }

    /// The on-screen value at `time`: `model` plus every running animation's
    /// `delta · (1 − progress)`, added in start order (`AnimatorTiming.remaining`).
    /// - Complexity: O(running), one timing-curve evaluation per animation.
    @inline(__always)
    func presentation(of model: Channels, at time: ReplayInstant) -> Channels {
        var value = model
        // Read in place: only the fields used, no copy of each animation.
        running.withUnsafeBufferPointer { animations in
            for i in animations.indices {
                value = value.adding(
                    animations[i].delta,
                    scaledBy: animations[i].timing.remaining(
                        after: timebase.seconds(from: animations[i].start, to: time)))
            }
        }
        return value
    }

    /// `presentation(of: model, at: timebase.frame(k))` for the four frames k = `index` … `index` + 3,
    /// each with the bits of that call: every animation's curve is evaluated for the four frames
    /// at once (`AnimatorTiming.remaining(after:)` of lanes), then added frame by frame in start
    /// order. O(running), one four-lane curve evaluation per animation.
    @inline(__always)
    func presentations(of model: Channels, fromFrame index: Int) -> PresentationLanes<Channels> {
        var lanes = PresentationLanes(model)
        running.withUnsafeBufferPointer { animations in
            for i in animations.indices {
                let share = animations[i].timing.remaining(
                    after: timebase.seconds(from: animations[i].start, toFramesFrom: index))
                let delta = animations[i].delta
                lanes.frame0 = lanes.frame0.adding(delta, scaledBy: share[0])
                lanes.frame1 = lanes.frame1.adding(delta, scaledBy: share[1])
                lanes.frame2 = lanes.frame2.adding(delta, scaledBy: share[2])
                lanes.frame3 = lanes.frame3.adding(delta, scaledBy: share[3])
            }
        }
        return lanes
    }

    /// The first frame index at which a running animation completes (`Int.max` when none does):
    /// frame k, at k · 10⁶ ticks, completes an animation when it is later than its start and at
    /// least `completionDelay` ticks after it (`removeCompleted(at:from:)`). O(running).
    func firstCompletionFrame() -> Int {
        var first = Int64.max
        for a in running {
            let (due, overflow) = a.start.ticks.addingReportingOverflow(Swift.max(a.completionDelay, 1))
            if overflow { continue }
            // The least k with k · 10⁶ ≥ due (due > 0 for a start ≥ 0).
            let k = due / 1_000_000 + (due % 1_000_000 > 0 ? 1 : 0)
            first = Swift.min(first, k)
        }
        return Int(first)
    }

    /// The end of the steady frames from frame `index` of a system whose frames, while nothing
    /// else is `pending`, move only with these animators (`RecordingPanelSystem.steadyFramesEnd`):
    /// `index` (none) when no animator runs or something else is pending (a timer, a scroll view's
    /// deceleration, a dismissal waiting for its frame), else `firstCompletionFrame()`. O(running).
    func steadyFramesEnd(from index: Int, unless pending: Bool) -> Int {
        running.isEmpty || pending ? index : firstCompletionFrame()
    }

    /// Removes and returns the first running animation (nil when none): for a system that ends
    /// every animation of a view at once, in start order.
    mutating func removeFirst() -> Animation? { running.isEmpty ? nil : running.removeFirst() }

    /// Removes and returns the first animation at position `i` or later that completes at `time`
    /// (a frame's instant: later than its start and at least `completionDelay` ticks after it),
    /// leaving `i` at its position: the next one to look at. Nil when none is left. A completion
    /// may start new animators; they come after `i`:
    ///
    ///     var i = 0
    ///     while let done = animator.removeCompleted(at: time, from: &i) { complete(done) }
    mutating func removeCompleted(at time: ReplayInstant, from i: inout Int) -> Animation? {
        while i < running.count {
            let elapsed = time.ticks &- running[i].start.ticks
            if elapsed > 0 && elapsed >= running[i].completionDelay { return running.remove(at: i) }
            i += 1
        }
        return nil
    }
}

/// The on-screen values of four consecutive frames (`AdditiveAnimator.presentations`).
struct PresentationLanes<Channels: AdditiveChannels> {
    var frame0, frame1, frame2, frame3: Channels

    /// `model` in all four.
    init(_ model: Channels) { (frame0, frame1, frame2, frame3) = (model, model, model, model) }
}

/// A steady run (`MovingChannelRun`) whose moving channels are what additive animators show on top
/// of a model value, as in DrawerKit's and LNPopup's runs: `values(fromFrame:)` evaluates the
/// animators for four frames at once (`AdditiveAnimator.presentations`) and maps each frame's
/// on-screen value to its moving channels (`moving(_:)`).
protocol AnimatorSteadyRun: MovingChannelRun {
    associatedtype Channels: AdditiveChannels
    associatedtype Completion: Sendable & Equatable
    var animator: AdditiveAnimator<Channels, Completion> { get }
    /// The model value the animators add to.
    var model: Channels { get }
    /// The moving channels of a frame that shows `shown`.
    func moving(_ shown: Channels) -> SIMD4<Double>
}

extension AnimatorSteadyRun {
    /// Evaluated out of line, once per four frames, so that the loop around it keeps its values
    /// in registers.
    @inline(never)
    func values(fromFrame k: Int) -> MovingChannelBlock {
        let shown = animator.presentations(of: model, fromFrame: k)
        return MovingChannelBlock(
            frame0: moving(shown.frame0), frame1: moving(shown.frame1), frame2: moving(shown.frame2),
            frame3: moving(shown.frame3))
    }
}
