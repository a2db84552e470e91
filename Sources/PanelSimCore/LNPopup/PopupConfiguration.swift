/// The `popup` section of an LNPopup trace header (lnpopup.md §2.1) and LNPopup's app calls (§2.2),
/// in LNPopupController's own terms (4.5.6.1; LNPopupUI maps its modifiers onto the same engine,
/// §3.14).

/// `popupPresentationState` and LNPopup's internal state (lnpopup.md §3.0: values 0–3 as in
/// `UIViewController+LNPopupSupport.h` and `LNPopupControllerImpl.h`; comparisons such as
/// "internal > barPresented" use the raw values).
public enum PopupPresentationState: Int, Sendable, Equatable, Comparable, CaseIterable {
    case barHidden = 0
    case barPresented = 1
    /// Internal and target state only: a transition or a drag is running.
    case transitioning = 2
    case open = 3

    /// The name written in result files and traces.
    public var name: String {
        switch self {
        case .barHidden: return "barHidden"
        case .barPresented: return "barPresented"
        case .transitioning: return "transitioning"
        case .open: return "open"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// `popupInteractionStyle` (lnpopup.md §3.2). `default` resolves to `automatic` (4.5.6), which
/// resolves to `snap` while the public state is barPresented and to `drag` otherwise.
public enum PopupInteractionStyle: String, Sendable, Equatable, CaseIterable {
    case `default`, automatic, snap, drag, scroll, none
}

/// `LNPopupBar.barStyle` (lnpopup.md §3.3); `custom` needs an explicit height.
public enum PopupBarStyle: String, Sendable, Equatable, CaseIterable {
    case `default`, compact, prominent, floating, floatingCompact, custom
}

/// The docking view under the bar (lnpopup.md §3.3).
public enum PopupBottomBarKind: String, Sendable, Equatable, CaseIterable {
    case none, tabBar, toolbar
}

/// `popupContentView.popupCloseButtonStyle` (lnpopup.md §3.10, L10).
public enum PopupCloseButtonStyle: String, Sendable, Equatable, CaseIterable {
    case `default`, grabber, chevron, round, glass, prominentGlass, none
}

/// What happened before t = 0 (lnpopup.md §2.1, §2.3).
public enum PopupInitialState: String, Sendable, Equatable, CaseIterable {
    /// Nothing: no bar.
    case barHidden
    /// `presentPopupBar(with:animated: false)`.
    case barPresented
    /// `presentPopupBar(with:openPopup: true, animated: false)`.
    case open
}

/// The release decision's version profile (lnpopup.md §5 L16).
public enum PopupReleaseRule: String, Sendable, Equatable, CaseIterable {
    /// 4.5.6 (§3.5.5): the velocity's sign first, then p; the default.
    case current = "4.5.6"
    /// Up to 4.5.5: v.y < 0 open, v.y > 0 close, v.y = 0 the 20 % height threshold.
    case legacy = "4.5.5"
}

/// The animators' progress curve (lnpopup.md §5 L4).
public enum PopupCurve: String, Sendable, Equatable, CaseIterable {
    /// `UISpringTimingParameters(dampingRatio:)` stretched onto the animator's 0.5 s (the default).
    case spring
    /// P = τ/D, for debugging.
    case linear
}

/// The `popup` header section (lnpopup.md §2.1), defaults LNPopup's own.
public struct PopupConfiguration: Sendable, Equatable {
    public var interactionStyle: PopupInteractionStyle = .default
    /// `popupSnapPercent`, a fraction of the container height; clamped to [0.1, 0.9] as the setter
    /// does (`UIViewController+LNPopupSupport.mm` 343–346). Default `LNSnapPercentDefault` 0.32.
    public var snapPercent = 0.32
    /// iOS 26 Liquid Glass environment (`LNPopupEnvironmentHasGlass()`, §3.3, L11).
    public var glass = false
    public var barStyle: PopupBarStyle = .default
    /// Overrides the style's bar height (pt); required for `custom`.
    public var barHeight: Double? = nil
    /// `_ln_popupOffsetForPopupBar`, pt, + = down (§3.3). Default 0.
    public var barOffset = 0.0
    public var bottomBarKind: PopupBottomBarKind = .none
    /// Distance from the container's bottom to the bottom bar's top edge (pt, 0 < T < H); used
    /// unless `bottomBarKind` is none.
    public var bottomBarHeight = 0.0
    public var closeButtonStyle: PopupCloseButtonStyle = .default
    /// Where a touch counts as a close-button tap, popup-content coordinates; nil = L10.
    public var closeButtonFrame: Rect? = nil
    /// `_ln_interactionLimitRect` in content coordinates; nil = the whole content (§3.5.1).
    public var interactionLimitRect: Rect? = nil
    public var initialState: PopupInitialState = .barPresented
    /// `popup.simulator.curve` (L4).
    public var curve: PopupCurve = .spring
    /// `popup.simulator.releaseRule` (L16); nil (absent) for the profile's LN-S7 value (profiles.md
    /// §2.5: the option overrides that switch only), which is `current` without a profile.
    public var releaseRule: PopupReleaseRule? = nil
    /// The header's `scrollView.isDirectionalLockEnabled` (§2.1; kept here because the shared
    /// scroll-view configuration does not carry it). Default false.
    public var scrollViewDirectionalLock = false
    public init() {}

    /// The snap percent LNPopup uses: `snapPercent` clamped to [0.1, 0.9].
    public var effectiveSnapPercent: Double { min(max(snapPercent, 0.1), 0.9) }
}

/// An LNPopup `call` sample (lnpopup.md §2.2).
public enum PopupCall: Sendable, Equatable {
    /// `presentPopupBar(with:openPopup:animated:)`.
    case presentBar(animated: Bool, openPopup: Bool)
    /// `dismissPopupBar(animated:)`.
    case dismissBar(animated: Bool)
    /// `openPopup(animated:)`.
    case openPopup(animated: Bool)
    /// `closePopup(animated:)`.
    case closePopup(animated: Bool)
    /// The bar's tap recognizer fires (§3.10), bypassing the tap model L6.
    case tapBar
    /// The close button's touch-up-inside (§3.10).
    case tapCloseButton
    /// The scroll view's own `setContentOffset` (pt); a nil axis keeps its value.
    case setContentOffset(x: Double?, y: Double?)
    /// The scroll view's `contentSize` (pt); a nil dimension keeps its value.
    case setContentSize(width: Double?, height: Double?)
}
