import Dispatch
import Foundation

/// A value computed on its own thread while the caller does other work; `value` waits for it.
///
/// A dedicated `Thread`, not Dispatch's pool: on Linux the pool may hold a worker back while the
/// machine looks busy, and the caller would then wait for work that has not started. Used for the
/// digest of a large trace while it is parsed (`TraceLoader.load`) and for the golden folder's
/// listing beside a parallel `check`.
package final class BackgroundValue<T>: @unchecked Sendable {
    // Written once before `done` is signalled, read only after waiting on it.
    private var result: T?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread.
    package init(_ body: @escaping @Sendable () -> T) {
        Thread { [self] in
            result = body()
            done.signal()
        }.start()
    }

    /// A value that is already known (no thread): for work too small to be worth one.
    package init(ready value: T) {
        result = value
        done.signal()
    }

    /// The body's result; the first call waits for it.
    package var value: T {
        done.wait()
        done.signal()  // leave it signalled for any later read
        return result!
    }
}
