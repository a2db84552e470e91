extension SimulationOptions {
    /// Options by value, for call sites such as `assertPanelTrace(…, simulation: .init(driveScroll: true))`.
    /// - Parameters:
    ///   - driveScroll: floatingpanel-core.md §9 O8: apply `scroll` samples to the scroll view
    ///     (default false: they are observations).
    ///   - panelHandlerFirst: §9 O3: run the panel's pan handler before the scroll view's for each
    ///     touch sample (default false).
    public init(driveScroll: Bool, panelHandlerFirst: Bool = false) {
        self.init()
        self.driveScroll = driveScroll
        self.panelHandlerFirst = panelHandlerFirst
    }

    /// `panelHandlerFirst` alone (§9 O3); see `init(driveScroll:panelHandlerFirst:)`.
    public init(panelHandlerFirst: Bool) {
        self.init(driveScroll: false, panelHandlerFirst: panelHandlerFirst)
    }
}
