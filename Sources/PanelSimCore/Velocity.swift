/// Finger velocity estimation. Placeholder: replaced by the estimator implementation.

/// The estimator strategies (floatingpanel-core.md §9 O5, physics.md §5).
public enum VelocityStrategy: String, Sendable, Equatable, CaseIterable {
    case lsq2, impulse, ios
}
