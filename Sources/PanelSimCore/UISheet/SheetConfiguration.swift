/// The `sheet` section of a UISheetPresentationController trace (uisheet.md §2.1): the properties
/// of `UISheetPresentationController` of the same name, `isModalInPresentation` of the presented
/// view controller, the app's `presentationControllerShouldDismiss(_:)` answer, the keyboard policy
/// flag of B27 and the simulator options of §4.
///
/// Sources: Apple documentation, `UISheetPresentationController`
/// (developer.apple.com/documentation/uikit/uisheetpresentationcontroller) and
/// `UIAdaptivePresentationControllerDelegate`; the undocumented choices are uisheet.md §4 (U1–U32).

/// One `UISheetPresentationController.Detent` (uisheet.md §2.1, §3.1).
public struct SheetDetent: Sendable, Equatable {
    /// `.medium()`, `.large()` or `.custom(identifier:resolver:)`.
    public enum Kind: Sendable, Equatable {
        case medium
        case large
        /// A resolver returning a constant height (pt above the bottom safe area).
        case height(Double)
        /// A resolver returning `fraction × maximumDetentValue` (0…1).
        case fraction(Double)
    }
    /// `Detent.Identifier` (short names: `"medium"`, `"large"` for the system kinds).
    public var identifier: String
    public var kind: Kind
    /// The resolver returns nil: the detent is skipped (S1).
    public var inactive: Bool
    public init(identifier: String, kind: Kind, inactive: Bool = false) {
        self.identifier = identifier
        self.kind = kind
        self.inactive = inactive
    }
    public static let medium = SheetDetent(identifier: "medium", kind: .medium)
    public static let large = SheetDetent(identifier: "large", kind: .large)
    /// The trace name of the kind: `"medium"`, `"large"` or `"custom"`.
    public var kindName: String {
        switch kind {
        case .medium: return "medium"
        case .large: return "large"
        case .height, .fraction: return "custom"
        }
    }
}

/// `sheetDelegate.shouldDismiss`: the app's `presentationControllerShouldDismiss(_:)` (§2.1, §3.6).
public enum SheetShouldDismiss: String, Sendable, Equatable, CaseIterable {
    /// Not implemented: dismissal allowed, no `shouldDismiss` record.
    case `default`
    /// Returns true; a `shouldDismiss` record each time UIKit asks.
    case always
    /// Returns false; a `shouldDismiss` record each time UIKit asks.
    case never
}

/// `sheet.keyboardPolicy` (B27 policy flag, §3.10).
public enum SheetKeyboardPolicy: String, Sendable, Equatable, CaseIterable {
    /// UIKit parity: the keyboard detent / largest detent (`shouldAdjustDetentsToAvoidKeyboard`).
    case uikit
    /// The selected detent is lifted onto the keyboard: rest = max(y_L, H − k − v_selected).
    case liftSelected
    /// The keyboard does not move the sheet.
    case ignore
}

/// The options of uisheet.md §4 exposed as `sheet.simulator` fields (and `recognizer.velocity:
/// "uikitSheet"`, U5). Defaults are the spec's; a result records the ones set away from them
/// (`nonDefaultNames`), so that a golden of one option set fails against a replay of another.
public struct SheetSimulatorOptions: Sendable, Equatable {
    /// U1 medium detent value.
    public enum MediumValue: String, Sendable, Equatable, CaseIterable {
        /// 0.56 × M when H > 568 pt, else 0.63 × M (S17, S18).
        case uikit
        /// H / 2 (S10).
        case halfHeight
        /// 0.5 × M.
        case halfMaximum
    }
    /// U32 OS layout variant.
    public enum Variant: String, Sendable, Equatable, CaseIterable {
        /// iOS 15–18: large top at safeTop + 10 (+ 20 with a home button), E_up ≤ 100.
        case ios15
        /// iOS 26: large top at safeTop, E_up = 200 (S8, S18).
        case ios26
    }
    /// U24 keyboard motion.
    public enum KeyboardAnimation: String, Sendable, Equatable, CaseIterable {
        /// The sheet spring (ζ = 1) from the keyboard sample.
        case spring
        /// Ease-in-out over the keyboard sample's `duration`.
        case keyboard
    }
    public var mediumValue = MediumValue.uikit
    /// U2: pt added to safeTop for the large detent's top; nil = 10 (safeBottom > 0) or 20.
    public var topMargin: Double? = nil
    /// U6: the interactor's deceleration rate r (projection u + v·r/(1 − r)/1000). Default 0.99.
    public var projectionRate = 0.99
    /// U6: below this speed (pt/s) the projection uses no velocity; 0 disables. Default 250.
    public var minimumSpeed = 250.0
    /// U8: fast-flick threshold (pt/s, ≥); 0 disables the rule. Default 1000.
    public var fastFlickThreshold = 1000.0
    /// U10: the sheet spring's response (s). Default 0.3441442326 (ω = 18.2574 rad/s).
    public var springResponse = 0.3441442326
    /// U10: the damping ratio of every sheet animation but a fast release. Default 1.
    public var dampingRatio = 1.0
    /// U10: the damping ratio after a release at |v| ≥ 1000 pt/s. Default 0.8.
    public var fastDampingRatio = 0.8
    /// U18: the dimming color's alpha (`backdropAlpha` = dimming × this). Default 0.2.
    public var dimmingAlpha = 0.2
    public var keyboardAnimation = KeyboardAnimation.spring
    public var variant = Variant.ios15
    /// U5 option `recognizer.velocity: "uikitSheet"`: v ← 0.2·v_sample + 0.8·v per moved sample.
    public var uikitSheetVelocity = false
    public init() {}

    /// The options away from their defaults as `name=value`, in the order of the fields above
    /// (`velocity=uikitSheet` last): what a result header's `simulator` list records.
    public var nonDefaultNames: [String] {
        let d = SheetSimulatorOptions()
        func n(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x) }
        var out: [String] = []
        if mediumValue != d.mediumValue { out.append("mediumValue=\(mediumValue.rawValue)") }
        if let m = topMargin { out.append("topMargin=\(n(m))") }
        if projectionRate != d.projectionRate { out.append("projectionRate=\(n(projectionRate))") }
        if minimumSpeed != d.minimumSpeed { out.append("minimumSpeed=\(n(minimumSpeed))") }
        if fastFlickThreshold != d.fastFlickThreshold { out.append("fastFlickThreshold=\(n(fastFlickThreshold))") }
        if springResponse != d.springResponse { out.append("springResponse=\(n(springResponse))") }
        if dampingRatio != d.dampingRatio { out.append("dampingRatio=\(n(dampingRatio))") }
        if fastDampingRatio != d.fastDampingRatio { out.append("fastDampingRatio=\(n(fastDampingRatio))") }
        if dimmingAlpha != d.dimmingAlpha { out.append("dimmingAlpha=\(n(dimmingAlpha))") }
        if keyboardAnimation != d.keyboardAnimation { out.append("keyboardAnimation=\(keyboardAnimation.rawValue)") }
        if variant != d.variant { out.append("variant=\(variant.rawValue)") }
        if uikitSheetVelocity { out.append("velocity=uikitSheet") }
        return out.map { "uisheet." + $0 }
    }
}

/// The `sheet` header section (uisheet.md §2.1) plus `sheetDelegate.shouldDismiss`.
public struct SheetConfiguration: Sendable, Equatable {
    /// `detents`, as listed (smallest to largest by UIKit's contract; the model sorts by offset).
    public var detents: [SheetDetent] = [.large]
    /// `selectedDetentIdentifier`; nil (or an inactive identifier) shows the smallest detent.
    public var selectedDetentIdentifier: String? = nil
    /// `largestUndimmedDetentIdentifier`; nil = dimmed at every detent.
    public var largestUndimmedDetentIdentifier: String? = nil
    public var prefersScrollingExpandsWhenScrolledToEdge = true
    public var prefersEdgeAttachedInCompactHeight = false
    /// Accepted; width only (no channel).
    public var widthFollowsPreferredContentSizeWhenEdgeAttached = false
    /// Enables the `tapGrabber` call (§3.11).
    public var prefersGrabberVisible = false
    /// Accepted; appearance only (pt, nil = system radius).
    public var preferredCornerRadius: Double? = nil
    /// `isModalInPresentation` of the presented view controller.
    public var isModalInPresentation = false
    /// Shown at rest at t = 0 (true) or waiting for a `present` call (false).
    public var presented = true
    public var keyboardPolicy = SheetKeyboardPolicy.uikit
    public var shouldDismiss = SheetShouldDismiss.default
    public var simulator = SheetSimulatorOptions()
    public init() {}
}

/// A `call` sample of a sheet trace (uisheet.md §2.2).
public enum SheetCall: Sendable, Equatable {
    /// The presenting view controller presents the sheet.
    case present(animated: Bool)
    /// `dismiss(animated:)` by the app (no delegate records).
    case dismiss(animated: Bool)
    /// `selectedDetentIdentifier = identifier`, inside `animateChanges { }` when `animateChanges`.
    case selectDetent(String?, animateChanges: Bool)
    /// `detents = …` (also `invalidateDetents()` after a resolver's value changed).
    case setDetents([SheetDetent], animateChanges: Bool)
    /// `largestUndimmedDetentIdentifier = identifier`.
    case setLargestUndimmedDetent(String?, animateChanges: Bool)
    /// `isModalInPresentation = value`.
    case setModalInPresentation(Bool)
    /// The answer `presentationControllerShouldDismiss(_:)` gives from this sample on (§2.2: a
    /// form that becomes dirty refuses, saved it allows again). Only for a delegate that
    /// implements the method: the loader refuses it when `sheetDelegate.shouldDismiss` is
    /// `default`, and the model ignores it then (warning).
    case setShouldDismiss(Bool)
    /// `prefersScrollingExpandsWhenScrolledToEdge = value`.
    case setPrefersScrollingExpands(Bool)
    /// A recognized tap on the dimming view (container point, pt; both optional).
    case tapDimming(x: Double?, y: Double?)
    /// A recognized tap on the grabber.
    case tapGrabber
    /// The tracked scroll view's own `setContentOffset(_:animated:)` (pt).
    case setContentOffset(x: Double?, y: Double?, animated: Bool)
    /// The tracked scroll view's `contentSize` (pt).
    case setContentSize(width: Double?, height: Double?)
    /// A new tracked scroll view (frame in sheet coordinates).
    indirect case track(ScrollViewConfiguration)
    /// No tracked scroll view.
    case untrack
}
