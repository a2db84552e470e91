/// DrawerKit's programmatic calls (drawerkit.md §2.2, §3.11) and container changes (D13).

extension DrawerKitSystem {
    // MARK: Calls (§2.2, §3.11)

    mutating func handleCall(_ call: DrawerCall, line: Int) {
        switch call {
        case .present:
            guard !presented else { return warn(line, "present ignored: the drawer is already presented") }
            present()
        case .dismiss:
            guard presented else { return warn(line, "dismiss ignored: no drawer is presented") }
            if drawer.midTransition == .dismissalIsTerminal {
                if terminal { return warn(line, "dismiss ignored: a dismissal is under way (D3)") }
                terminal = true
            }
            requestDismissal()
        case .setDrawerState(let state, _, let completion):
            guard presented else { return warn(line, "setDrawerState ignored: no drawer is presented") }
            guard !terminal else { return warn(line, "setDrawerState ignored: a dismissal is under way (D3)") }
            animateTransition(to: .named(state), completion: completion)
        case .tapDrawer(let x, let y):
            guard presented else { return warn(line, "tapDrawer ignored: no drawer is presented") }
            guard !terminal, !uiKitTransitionRunning else {
                return warn(line, "tapDrawer ignored during a UIKit transition or a dismissal (D3, D4)")
            }
            let p = Point(x: x ?? environment.container.width / 2, y: y)
            guard drawerTap != nil, drawerTapEnabled else {
                return warn(line, "tapDrawer ignored: the drawer tap recognizer is not installed or disabled")
            }
            guard p.y >= modelY else { return warn(line, "tapDrawer ignored: the point is outside the drawer") }
            guard !onControl(p) else {
                return warn(line, "tapDrawer ignored: the point is on a UIControl (content.controls)")
            }
            drawerTapped(at: p)
        case .tapOutside(let x, let y):
            guard presented else { return warn(line, "tapOutside ignored: no drawer is presented") }
            guard !terminal, !uiKitTransitionRunning else {
                return warn(line, "tapOutside ignored during a UIKit transition or a dismissal (D3, D4)")
            }
            let p = Point(x: x ?? environment.container.width / 2, y: y)
            guard route(p) == .container else {
                return warn(line, "tapOutside ignored: the point is inside the drawer or passes through")
            }
            guard outsideTap != nil, outsideTapEnabled else {
                return warn(line, "tapOutside ignored: the outside tap recognizer is not installed or disabled")
            }
            outsideTapped(at: p)
        }
    }

    // MARK: Environment (D13)

    /// D13: a container change; the status bar height stays the header's (D10), so only H changes.
    mutating func changeEnvironment(_ e: PanelEnvironment) {
        environment = e
        geometry = DrawerGeometry(drawer, height: e.container.height, safeAreaTop: geometry.statusBarHeight)
        geometry.recognizesCollapsed = profile.collapsedRecognized
        modelY = presented ? geometry.position(target) : (wasDismissed ? geometry.height : geometry.fullY)
    }
}
