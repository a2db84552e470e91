import PanelSimCore

/// Writing the DrawerKit contract extension (drawerkit.md §2): every `drawer` field in the order
/// of the spec's example, and DrawerKit's calls; `TraceLoader` reads both back to equal values.
extension TraceWriter {
    static func drawer(_ d: DrawerConfiguration, _ o: inout JSONLine) {
        o.open("{")
        o.key("heightOfPartiallyExpandedDrawer")
        o.number(d.heightOfPartiallyExpandedDrawer)
        o.key("heightOfCollapsedDrawer")
        o.number(d.heightOfCollapsedDrawer)
        o.key("presented")
        o.bool(d.presented)
        if let h = d.statusBarHeight {
            o.key("statusBarHeight")
            o.number(h)
        }
        o.key("participants")
        o.strings((d.participantPresenting ? ["presenting"] : []) + (d.participantPresented ? ["presented"] : []))
        o.key("content")
        o.open("{")
        o.key("controls")
        o.open("[")
        for c in d.controls {
            o.element()
            o.open("{")
            o.key("x")
            o.number(c.origin.x)
            o.key("y")
            o.number(c.origin.y)
            o.key("width")
            o.number(c.size.width)
            o.key("height")
            o.number(c.size.height)
            o.close("}")
        }
        o.close("]")
        if let sv = d.scrollView {
            o.key("scrollView")
            scrollView(sv, &o)
        }
        o.close("}")
        o.key("configuration")
        o.open("{")
        o.key("initialState")
        if let s = d.initialState { o.string(s.rawValue) } else { o.null() }
        o.key("totalDurationInSeconds")
        o.number(d.totalDurationInSeconds)
        o.key("durationIsProportionalToDistanceTraveled")
        o.bool(d.durationIsProportionalToDistanceTraveled)
        o.key("timingCurveProvider")
        switch d.timingCurveProvider {
        case .systemSpring: o.string("systemSpring")
        case .linear: o.string("linear")
        case .dampingRatio(let z):
            o.open("{")
            o.key("dampingRatio")
            o.number(z)
            o.close("}")
        }
        o.key("fullExpansionBehaviour")
        switch d.fullExpansionBehaviour {
        case .coversFullScreen: o.string("coversFullScreen")
        case .doesNotCoverStatusBar: o.string("doesNotCoverStatusBar")
        case .leavesCustomGap(let g):
            o.open("{")
            o.key("leavesCustomGap")
            o.number(g)
            o.close("}")
        }
        o.key("supportsPartialExpansion")
        o.bool(d.supportsPartialExpansion)
        o.key("dismissesInStages")
        o.bool(d.dismissesInStages)
        o.key("isDrawerDraggable")
        o.bool(d.isDrawerDraggable)
        o.key("isFullyPresentableByDrawerTaps")
        o.bool(d.isFullyPresentableByDrawerTaps)
        o.key("numberOfTapsForFullDrawerPresentation")
        o.integer(d.numberOfTapsForFullDrawerPresentation)
        o.key("isDismissableByOutsideDrawerTaps")
        o.bool(d.isDismissableByOutsideDrawerTaps)
        o.key("numberOfTapsForOutsideDrawerDismissal")
        o.integer(d.numberOfTapsForOutsideDrawerDismissal)
        o.key("flickSpeedThreshold")
        o.number(d.flickSpeedThreshold)
        o.key("upperMarkGap")
        o.number(d.upperMarkGap)
        o.key("lowerMarkGap")
        o.number(d.lowerMarkGap)
        o.key("maximumCornerRadius")
        o.number(d.maximumCornerRadius)
        o.key("cornerAnimationOption")
        o.string(d.cornerAnimationOption.rawValue)
        o.key("handleViewConfiguration")
        if let dims = d.handleAutoAnimatesDimming {
            o.open("{")
            o.key("autoAnimatesDimming")
            o.bool(dims)
            o.close("}")
        } else {
            o.null()
        }
        o.key("passthroughTouchesInStates")
        o.strings(d.passthroughTouchesInStates.map(\.rawValue))
        o.close("}")
        o.key("simulator")
        o.open("{")
        if d.midTransition != .dismissalIsTerminal {
            o.key("midTransition")
            o.string(d.midTransition.rawValue)
        }
        if d.springTiming == .physicalSpring {
            o.key("physicalSpring")
            o.bool(true)
        }
        o.close("}")
        o.close("}")
    }

    static func drawerCall(_ call: DrawerCall, _ o: inout JSONLine) {
        o.key("call")
        switch call {
        case .setDrawerState(let state, let animated, let completion):
            o.string("setDrawerState")
            o.key("state")
            o.string(state.rawValue)
            o.key("animated")
            o.bool(animated)
            o.key("completion")
            o.bool(completion)
        case .present: o.string("present")
        case .dismiss: o.string("dismiss")
        case .tapDrawer(let x, let y):
            o.string("tapDrawer")
            if let x {
                o.key("x")
                o.number(x)
            }
            o.key("y")
            o.number(y)
        case .tapOutside(let x, let y):
            o.string("tapOutside")
            if let x {
                o.key("x")
                o.number(x)
            }
            o.key("y")
            o.number(y)
        }
    }
}
