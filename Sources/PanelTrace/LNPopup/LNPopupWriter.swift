import PanelSimCore

/// Writing the LNPopup contract extension (lnpopup.md §2): every `popup` field in the order of the
/// spec's example, and LNPopup's calls; `TraceLoader` reads both back to equal values.
extension TraceWriter {
    static func popup(_ p: PopupConfiguration, _ o: inout JSONLine) {
        func rect(_ r: Rect) {
            o.open("{")
            o.key("x")
            o.number(r.minX)
            o.key("y")
            o.number(r.minY)
            o.key("width")
            o.number(r.size.width)
            o.key("height")
            o.number(r.size.height)
            o.close("}")
        }
        o.open("{")
        o.key("interactionStyle")
        o.string(p.interactionStyle.rawValue)
        o.key("snapPercent")
        o.number(p.snapPercent)
        o.key("glass")
        o.bool(p.glass)
        o.key("bar")
        o.open("{")
        o.key("style")
        o.string(p.barStyle.rawValue)
        if let h = p.barHeight {
            o.key("height")
            o.number(h)
        }
        o.key("offset")
        o.number(p.barOffset)
        o.close("}")
        o.key("bottomBar")
        o.open("{")
        o.key("kind")
        o.string(p.bottomBarKind.rawValue)
        if p.bottomBarKind != .none {
            o.key("height")
            o.number(p.bottomBarHeight)
        }
        o.close("}")
        o.key("closeButton")
        o.open("{")
        o.key("style")
        o.string(p.closeButtonStyle.rawValue)
        o.key("frame")
        if let f = p.closeButtonFrame { rect(f) } else { o.null() }
        o.close("}")
        o.key("interactionLimitRect")
        if let f = p.interactionLimitRect { rect(f) } else { o.null() }
        o.key("initialState")
        o.string(p.initialState.rawValue)
        o.key("simulator")
        o.open("{")
        if p.curve != .spring {
            o.key("curve")
            o.string(p.curve.rawValue)
        }
        if let rule = p.releaseRule {
            o.key("releaseRule")
            o.string(rule.rawValue)
        }
        o.close("}")
        o.close("}")
    }

    static func popupCall(_ call: PopupCall, _ o: inout JSONLine) {
        o.key("call")
        switch call {
        case .presentBar(let animated, let openPopup):
            o.string("presentBar")
            o.key("animated")
            o.bool(animated)
            o.key("openPopup")
            o.bool(openPopup)
        case .dismissBar(let animated):
            o.string("dismissBar")
            o.key("animated")
            o.bool(animated)
        case .openPopup(let animated):
            o.string("openPopup")
            o.key("animated")
            o.bool(animated)
        case .closePopup(let animated):
            o.string("closePopup")
            o.key("animated")
            o.bool(animated)
        case .tapBar: o.string("tapBar")
        case .tapCloseButton: o.string("tapCloseButton")
        case .setContentOffset(let x, let y):
            o.string("setContentOffset")
            if let x {
                o.key("x")
                o.number(x)
            }
            if let y {
                o.key("y")
                o.number(y)
            }
        case .setContentSize(let width, let height):
            o.string("setContentSize")
            if let width {
                o.key("width")
                o.number(width)
            }
            if let height {
                o.key("height")
                o.number(height)
            }
        }
    }
}
