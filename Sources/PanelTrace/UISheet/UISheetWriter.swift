import PanelSimCore

/// Writing the UISheetPresentationController contract extension (uisheet.md §2): every `sheet`
/// field in the order of the spec's example, the keyboard member of `environment` and the sheet
/// calls; `TraceLoader` reads them back to equal values.
extension TraceWriter {
    static func sheet(_ c: SheetConfiguration, _ o: inout JSONLine) {
        o.open("{")
        o.key("detents")
        detents(c.detents, &o)
        o.key("selectedDetentIdentifier")
        optionalString(c.selectedDetentIdentifier, &o)
        o.key("largestUndimmedDetentIdentifier")
        optionalString(c.largestUndimmedDetentIdentifier, &o)
        o.key("prefersScrollingExpandsWhenScrolledToEdge")
        o.bool(c.prefersScrollingExpandsWhenScrolledToEdge)
        o.key("prefersEdgeAttachedInCompactHeight")
        o.bool(c.prefersEdgeAttachedInCompactHeight)
        o.key("widthFollowsPreferredContentSizeWhenEdgeAttached")
        o.bool(c.widthFollowsPreferredContentSizeWhenEdgeAttached)
        o.key("prefersGrabberVisible")
        o.bool(c.prefersGrabberVisible)
        o.key("preferredCornerRadius")
        if let r = c.preferredCornerRadius { o.number(r) } else { o.null() }
        o.key("isModalInPresentation")
        o.bool(c.isModalInPresentation)
        o.key("presented")
        o.bool(c.presented)
        o.key("keyboardPolicy")
        o.string(c.keyboardPolicy.rawValue)
        o.key("simulator")
        o.open("{")
        let s = c.simulator
        let d = SheetSimulatorOptions()
        if s.mediumValue != d.mediumValue {
            o.key("mediumValue")
            o.string(s.mediumValue.rawValue)
        }
        if let m = s.topMargin {
            o.key("topMargin")
            o.number(m)
        }
        if s.projectionRate != d.projectionRate {
            o.key("projectionRate")
            o.number(s.projectionRate)
        }
        if s.minimumSpeed != d.minimumSpeed {
            o.key("minimumSpeed")
            o.number(s.minimumSpeed)
        }
        if s.fastFlickThreshold != d.fastFlickThreshold {
            o.key("fastFlickThreshold")
            o.number(s.fastFlickThreshold)
        }
        if s.springResponse != d.springResponse {
            o.key("springResponse")
            o.number(s.springResponse)
        }
        if s.dampingRatio != d.dampingRatio {
            o.key("dampingRatio")
            o.number(s.dampingRatio)
        }
        if s.fastDampingRatio != d.fastDampingRatio {
            o.key("fastDampingRatio")
            o.number(s.fastDampingRatio)
        }
        if s.dimmingAlpha != d.dimmingAlpha {
            o.key("dimmingAlpha")
            o.number(s.dimmingAlpha)
        }
        if s.keyboardAnimation != d.keyboardAnimation {
            o.key("keyboardAnimation")
            o.string(s.keyboardAnimation.rawValue)
        }
        if s.variant != d.variant {
            o.key("variant")
            o.string(s.variant.rawValue)
        }
        o.close("}")
        o.close("}")
    }

    static func detents(_ list: [SheetDetent], _ o: inout JSONLine) {
        o.open("[")
        for d in list {
            o.element()
            o.open("{")
            o.key("identifier")
            o.string(d.identifier)
            o.key("kind")
            o.string(d.kindName)
            switch d.kind {
            case .height(let h):
                o.key("height")
                o.number(h)
            case .fraction(let f):
                o.key("fraction")
                o.number(f)
            case .medium, .large: break
            }
            if d.inactive {
                o.key("inactive")
                o.bool(true)
            }
            o.close("}")
        }
        o.close("]")
    }

    static func optionalString(_ s: String?, _ o: inout JSONLine) {
        if let s { o.string(s) } else { o.null() }
    }

    static func keyboard(_ k: KeyboardFrame, _ o: inout JSONLine) {
        o.open("{")
        o.key("height")
        o.number(k.height)
        o.key("duration")
        o.number(k.duration)
        o.key("curve")
        o.integer(k.curve)
        o.key("firstResponderInSheet")
        o.bool(k.firstResponderInSheet)
        o.close("}")
    }

    /// The members after `"call": ` of a sheet call.
    static func sheetCall(_ call: SheetCall, _ o: inout JSONLine) {
        o.key("call")
        switch call {
        case .present(let animated):
            o.string("present")
            o.key("animated")
            o.bool(animated)
        case .dismiss(let animated):
            o.string("dismiss")
            o.key("animated")
            o.bool(animated)
        case .selectDetent(let id, let animateChanges):
            o.string("selectDetent")
            o.key("identifier")
            optionalString(id, &o)
            o.key("animateChanges")
            o.bool(animateChanges)
        case .setDetents(let list, let animateChanges):
            o.string("setDetents")
            o.key("detents")
            detents(list, &o)
            o.key("animateChanges")
            o.bool(animateChanges)
        case .setLargestUndimmedDetent(let id, let animateChanges):
            o.string("setLargestUndimmedDetent")
            o.key("identifier")
            optionalString(id, &o)
            o.key("animateChanges")
            o.bool(animateChanges)
        case .setModalInPresentation(let v):
            o.string("setModalInPresentation")
            o.key("value")
            o.bool(v)
        case .setShouldDismiss(let v):
            o.string("setShouldDismiss")
            o.key("value")
            o.bool(v)
        case .setPrefersScrollingExpands(let v):
            o.string("setPrefersScrollingExpands")
            o.key("value")
            o.bool(v)
        case .tapDimming(let x, let y):
            o.string("tapDimming")
            if let x {
                o.key("x")
                o.number(x)
            }
            if let y {
                o.key("y")
                o.number(y)
            }
        case .tapGrabber: o.string("tapGrabber")
        case .setContentOffset(let x, let y, let animated):
            o.string("setContentOffset")
            if let x {
                o.key("x")
                o.number(x)
            }
            if let y {
                o.key("y")
                o.number(y)
            }
            o.key("animated")
            o.bool(animated)
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
        case .track(let c):
            o.string("track")
            o.key("scrollView")
            scrollView(c, &o)
        case .untrack: o.string("untrack")
        }
    }
}
