import Dispatch
import Foundation
import PanelGolden
import PanelTrace

/// The one parallel map of the command-line tools (`check --jobs`, `tune`, `sweep`, `bench`).

/// Deterministic parallel map: `body(i)` for i in 0..<count on `jobs` workers that take the next
/// index from a shared queue; results are gathered by index, so the output never depends on `jobs`
/// or on scheduling.
/// - Complexity: `count` calls of `body`, about count/jobs deep, plus one lock round trip per index.
public func parallelMap<T: Sendable>(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    OrderedParallel.map(Array(0..<count), jobs: jobs, onResult: nil, body)
}

/// `map` over a work queue on `jobs` threads (the calling one and `jobs − 1` new ones), with
/// results in input order and an in-order callback as soon as a prefix of results is complete.
enum OrderedParallel {
    /// - Complexity: O(n) plus the work; the callback and bookkeeping run under one lock.
    static func map<T, R>(_ items: [T], jobs: Int, onResult: ((R) -> Void)?, _ body: @escaping (T) -> R) -> [R] {
        if jobs <= 1 || items.count <= 1 {
            return items.map { item in
                let r = body(item)
                onResult?(r)
                return r
            }
        }
        // The worker threads see the caller's registered systems (task-locals do not reach a Thread).
        let formats = TraceFormats.registered
        let goldens = GoldenSystems.registered
        let state = ParallelState(
            items: items,
            body: { item in
                TraceFormats.$registered.withValue(formats) {
                    GoldenSystems.$registered.withValue(goldens) { body(item) }
                }
            }, onResult: onResult)
        // Dedicated threads, not Dispatch's pool: on Linux the pool may hold back a worker while
        // the machine looks busy, and the calling thread then runs the whole queue alone.
        let finished = DispatchGroup()
        for _ in 1..<min(jobs, items.count) {
            finished.enter()
            let thread = Thread {
                state.work()
                finished.leave()
            }
            thread.stackSize = 8 << 20  // as the main thread's: replay and parsing recurse a little
            thread.start()
        }
        state.work()
        finished.wait()
        return state.results.map { $0! }
    }
}

/// Shared state of `OrderedParallel.map`: the work, the next index to hand out, results by index
/// and how many leading results were delivered to the callback. Mutable state is only touched
/// while holding `lock`; `body` runs outside it.
private final class ParallelState<T, R>: @unchecked Sendable {
    private let lock = NSLock()
    private let items: [T]
    private let body: (T) -> R
    private let onResult: ((R) -> Void)?
    private var nextIndex = 0
    private var delivered = 0
    private(set) var results: [R?]

    init(items: [T], body: @escaping (T) -> R, onResult: ((R) -> Void)?) {
        self.items = items
        self.body = body
        self.onResult = onResult
        results = Array(repeating: nil, count: items.count)
    }

    /// Takes indices until none are left.
    func work() {
        while let i = next() {
            let r = body(items[i])
            finish(i, r)
        }
    }

    private func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < items.count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    private func finish(_ i: Int, _ r: R) {
        lock.lock()
        defer { lock.unlock() }
        results[i] = r
        while delivered < results.count, let ready = results[delivered] {
            onResult?(ready)
            delivered += 1
        }
    }
}
