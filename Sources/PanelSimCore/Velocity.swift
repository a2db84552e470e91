/// TEMPORARY two-point estimator so the core builds; replaced by the estimator branch.
public enum VelocityStrategy: String, Sendable, Equatable, CaseIterable {
    case lsq2, impulse, ios
}

public struct VelocityTracker: Sendable, Equatable {
    public let strategy: VelocityStrategy
    private var samples: [(Int64, Point)] = []
    public init(strategy: VelocityStrategy) { self.strategy = strategy }
    public mutating func reset() { samples = [] }
    public mutating func addMovement(timeNanos: Int64, position: Point) { samples.append((timeNanos, position)) }
    public func currentVelocity() -> Point {
        guard samples.count >= 2 else { return .zero }
        let (t0, p0) = samples[samples.count - 2], (t1, p1) = samples[samples.count - 1]
        let dt = Double(t1 - t0) / 1e9
        return dt > 0 ? Point(x: (p1.x - p0.x) / dt, y: (p1.y - p0.y) / dt) : .zero
    }
    public func velocityAtLift(timeNanos: Int64) -> Point { currentVelocity() }
    public static func == (a: VelocityTracker, b: VelocityTracker) -> Bool { a.strategy == b.strategy && a.samples.count == b.samples.count }
}
