/// Header sections every panel system shares (trace-format.md §1.1): the environment, the pan
/// recognizer options and the source note.

/// `environment`: the container and the display (trace-format.md §1.1).
public struct PanelEnvironment: Sendable, Equatable {
    /// Container (the controller's root view) bounds size, pt.
    public var container: Size
    /// Safe-area insets of the container, pt. Contract default (47, 0, 34, 0).
    public var safeArea: Insets
    /// Display scale, pixels per pt (> 0). Contract default 3.
    public var displayScale: Double
    /// Display-link rate in frames per second (> 0). Spring step h = 1/frameRate. Default 120.
    public var frameRate: Int
    /// The keyboard as the last keyboard-frame notification reported it (uisheet.md §2.2, §3.10);
    /// nil until one is reported. Only sheet traces carry it.
    public var keyboard: KeyboardFrame? = nil
    public init(
        container: Size,
        safeArea: Insets = Insets(top: 47, left: 0, bottom: 34, right: 0),
        displayScale: Double = 3, frameRate: Int = 120
    ) {
        self.container = container
        self.safeArea = safeArea
        self.displayScale = displayScale
        self.frameRate = frameRate
    }
}

/// How the pan velocity is obtained (`recognizer.velocity`, floatingpanel-core.md §9 O5).
public enum VelocitySource: String, Sendable, Equatable, CaseIterable {
    /// The sample's recorded `velocity`; `lsq2` for samples without one.
    case recorded
    case lsq2, impulse, ios
}

/// `recognizer`: the pan recognizers' options.
public struct RecognizerConfiguration: Sendable, Equatable {
    public var velocity: VelocitySource = .recorded
    /// Movement from the touch-down point (pt) before a pan recognizes. Default 10.
    public var beginThreshold: Double = 10
    public init() {}
}

/// `source` of the trace header (free text, informational).
public struct TraceSource: Sendable, Equatable {
    public var kind: String = "synthetic"
    public var origin: String = ""
    public var device: String = ""
    public init() {}
}

/// `environment.keyboard` of a sheet trace (uisheet.md §2.2): the keyboard's end frame.
public struct KeyboardFrame: Sendable, Equatable {
    /// Height of the keyboard's end frame measured from the container bottom, pt (0 = hidden).
    public var height: Double
    /// The notification's animation duration, s. Default 0.25.
    public var duration: Double = 0.25
    /// The notification's `UIView.AnimationCurve` raw value. Default 7 (the keyboard curve).
    public var curve: Int = 7
    /// The first responder is inside the sheet. Default true.
    public var firstResponderInSheet = true
    public init(height: Double) { self.height = height }
}
