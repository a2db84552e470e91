/// LNPopup's geometry (lnpopup.md §3.3, §3.7, §3.5.4, L9, L10): bar heights, the docking line, the
/// bar and content frames of each state, the bottom bar's position, the snap style's resistance and
/// the close button's frame. Container coordinates: pt, origin top-left, y down.
struct PopupGeometry: Sendable, Equatable {
    /// Container width W and height H (pt); the popup content is H tall.
    let width: Double, height: Double
    /// Bar height hB of the closed bar (pt).
    let barHeight: Double
    /// `_ln_popupOffsetForPopupBar` (pt, + = down).
    let offset: Double
    /// Docking line (pt): where the closed bar's bottom edge sits (without the offset).
    let dock: Double
    let hasBottomBar: Bool
    let glass: Bool
    /// c = the effective snap percent.
    let snapPercent: Double
    /// The close button's frame in content coordinates; nil when there is none.
    let closeButtonFrame: Rect?

    init(_ popup: PopupConfiguration, environment: PanelEnvironment) {
        width = environment.container.width
        height = environment.container.height
        glass = popup.glass
        barHeight = popup.barHeight ?? Self.barHeight(popup.barStyle, glass: popup.glass)
        offset = popup.barOffset
        hasBottomBar = popup.bottomBarKind != .none
        dock = hasBottomBar ? height - popup.bottomBarHeight : height - environment.safeArea.bottom
        snapPercent = popup.effectiveSnapPercent
        if let frame = popup.closeButtonFrame {
            closeButtonFrame = frame
        } else {
            closeButtonFrame = Self.defaultCloseButtonFrame(
                popup.closeButtonStyle, glass: popup.glass, width: width,
                safeAreaTop: environment.safeArea.top)
        }
    }

    /// The bar height of a style (§3.3, `LNPopupBar.mm` 19–24, 47–120, 162–203): legacy compact 40,
    /// prominent 64, floating 58 + 6, floatingCompact 48 + 6, default = floating on iOS 17/18 (64);
    /// glass: compact → floatingCompact 48, prominent → floating 58, default → floatingCompact 48.
    /// `custom` has no height of its own (the loader requires `bar.height`); 0 here.
    static func barHeight(_ style: PopupBarStyle, glass: Bool) -> Double {
        switch (style, glass) {
        case (.compact, false): return 40
        case (.prominent, false), (.floating, false), (.default, false): return 64
        case (.floatingCompact, false): return 54
        case (.prominent, true), (.floating, true): return 58
        case (.compact, true), (.floatingCompact, true), (.default, true): return 48
        case (.custom, _): return 0
        }
    }

    /// L10: grabber 42 × 25 (glass 70 × 25) and chevron 42 × 25 centred on W/2; round 24 × 24 at
    /// x = 16; glass styles 44 × 44 at x = W − 60; top = max(12, safe-area top). `default` is grabber
    /// (legacy) or prominentGlass (glass) (`LNPopupCloseButton.mm` 25–78, 231–239, 432–464).
    static func defaultCloseButtonFrame(
        _ style: PopupCloseButtonStyle, glass: Bool, width: Double,
        safeAreaTop: Double
    ) -> Rect? {
        let top = max(12, safeAreaTop)
        let resolved: PopupCloseButtonStyle = style == .default ? (glass ? .prominentGlass : .grabber) : style
        switch resolved {
        case .none: return nil
        case .grabber:
            let w = glass ? 70.0 : 42
            return Rect(x: width / 2 - w / 2, y: top, width: w, height: 25)
        case .chevron: return Rect(x: width / 2 - 21, y: top, width: 42, height: 25)
        case .round: return Rect(x: 16, y: top, width: 24, height: 24)
        case .glass, .prominentGlass, .default: return Rect(x: width - 16 - 44, y: top, width: 44, height: 44)
        }
    }

    /// The closed bar's top edge (pt): dock − hB + offset.
    var closedBarTop: Double { dock - barHeight + offset }

    /// The snap style's resistance R(x) = x·d·c / (d + c·x), d = H (L9), c = snap percent (§3.5.4).
    @inline(__always)
    func resistance(_ x: Double) -> Double { x * height * snapPercent / (height + snapPercent * x) }

    /// The bottom bar's top edge for a popup progress p (§3.3, §3.7): dock + s(p)·(H − dock), with
    /// glass LNPopup never moves it (dock).
    @inline(__always)
    func bottomBarTop(progress p: Double) -> Double {
        glass ? dock : dock + Self.smoothstep(p) * (height - dock)
    }

    /// `LNMath.m` smoothstep (§3.7, Q13): p clamped to [0, 1] and converted to single precision t;
    /// (t·t in single precision)·(3 − 2t) in double. s(0.1) = 0.028000001952052114.
    @inline(__always)
    static func smoothstep(_ p: Double) -> Double {
        let t = Float(min(max(p, 0), 1))
        let t2 = t * t
        return Double(t2) * (3 - 2 * Double(t))
    }
}

extension PopupConfiguration {
    /// The docking line (pt, container y) in `environment` (lnpopup.md §3.3): H − `bottomBarHeight`
    /// with a bottom bar, else H − the safe-area bottom. `location` rests here while closed.
    public func dockingLine(environment: PanelEnvironment) -> Double {
        PopupGeometry(self, environment: environment).dock
    }

    /// The closed bar's frame (pt, container coordinates, §3.3): (0, dock − hB + offset, W, hB).
    public func closedBarFrame(environment: PanelEnvironment) -> Rect {
        let g = PopupGeometry(self, environment: environment)
        return Rect(x: 0, y: g.closedBarTop, width: g.width, height: g.barHeight)
    }
}
