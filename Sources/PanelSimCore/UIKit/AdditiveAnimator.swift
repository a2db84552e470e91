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

/// The running animators of one view (or of views animated together), in start order.
struct AdditiveAnimator<Channels: AdditiveChannels, Completion: Sendable & Equatable>: Sendable, Equatable {
    /// One running `UIViewPropertyAnimator`.
    struct Animation: Sendable, Equatable {
        /// Start time, µs.
        let start: Microseconds
        let timing: AnimatorTiming
        /// Value before the animator started − model value it set.
        let delta: Channels
        /// What the system runs when it completes.
        let completion: Completion
    }

    /// Running animations, in start order.
    private(set) var running: [Animation] = []

    var isEmpty: Bool { running.isEmpty }

    /// Starts an animator at `start` µs that shows `delta` on top of the model value, fading with
    /// `timing`.
    mutating func add(start: Microseconds, timing: AnimatorTiming, delta: Channels, completion: Completion) {
        running.append(Animation(start: start, timing: timing, delta: delta, completion: completion))
    }

    /// True when a running animation's completion satisfies `predicate`. O(running).
    func contains(where predicate: (Completion) -> Bool) -> Bool {
        running.contains { predicate($0.completion) }
    }

    /// The on-screen value at `time` µs: `model` plus every running animation's
    /// `delta · (1 − progress)`, added in start order (`AnimatorTiming.remaining`).
    /// - Complexity: O(running), one timing-curve evaluation per animation.
    @inline(__always)
    func presentation(of model: Channels, at time: Microseconds) -> Channels {
        var value = model
        // Read in place: only the fields used, no copy of each animation.
        running.withUnsafeBufferPointer { animations in
            for i in animations.indices {
                value = value.adding(animations[i].delta, scaledBy: animations[i].timing.remaining(since: animations[i].start, at: time))
            }
        }
        return value
    }

    /// Removes and returns the first animation at position `i` or later that completes at `time`
    /// µs (`AnimatorTiming.completes`), leaving `i` at its position: the next one to look at.
    /// Nil when none is left. A completion may start new animators; they come after `i`:
    ///
    ///     var i = 0
    ///     while let done = animator.removeCompleted(at: time, from: &i) { complete(done) }
    mutating func removeCompleted(at time: Microseconds, from i: inout Int) -> Animation? {
        while i < running.count {
            if running[i].timing.completes(since: running[i].start, at: time) { return running.remove(at: i) }
            i += 1
        }
        return nil
    }
}
