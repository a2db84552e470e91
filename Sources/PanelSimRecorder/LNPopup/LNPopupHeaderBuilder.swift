/// The header of an LNPopup recording from what an app reads off its popup container.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import PanelSimCore

/// Builds the header of an LNPopup trace (`model` lnpopup, lnpopup.md §2.1) from what an app reads
/// off LNPopupController: the interaction style and snap percent, the bar style and close-button
/// style (set by the LNPopup adapter in examples/recording), and the geometry measured from the
/// views on screen (`measureBar`): the bar's height and offset and the bottom bar's height as they
/// are on the recorded device, so that Dynamic Type and the OS's own metrics are what was recorded.
public struct LNPopupHeaderBuilder: Sendable {
    /// The `popup` section.
    public var popup = PopupConfiguration()
    /// The list inside the popup content (frame in content coordinates), if the app tracks one.
    public var scrollView: ScrollViewConfiguration? = nil
    /// Fields the adapter could not read.
    public var unread: [UnreadHeaderField] = []

    public init() {}

    /// Sets `bar.height`, `bar.offset`, `bottomBar.kind` and `bottomBar.height` from the views on
    /// screen (lnpopup.md §3.3): the docking line is the bottom bar's top edge (tab bar or toolbar,
    /// `bottomBarHeight = H − its minY`) or, without one, the container's bottom minus its bottom
    /// safe-area inset; a closed bar's frame is (dock − height + offset, height). All in `container`
    /// coordinates (pt).
    /// - Parameters:
    ///   - bar: the popup bar (`popupBar`); measured only while it shows closed (presented, not
    ///     open: LNPopup keeps it 0 pt tall while open), otherwise `bar.height` is reported unread
    ///     and taken from the style.
    ///   - barShowsClosed: the popup presentation state is `barPresented`.
    ///   - bottomBar: the docking view (`bottomDockingViewForPopupBar`), nil for none.
    @MainActor
    public mutating func measureBar(_ bar: UIView, barShowsClosed: Bool, bottomBar: UIView?, in container: UIView) {
        let height = Double(container.bounds.height)
        let dock: Double
        if let bottomBar {
            let top = Double(bottomBar.convert(bottomBar.bounds, to: container).minY)
            popup.bottomBarKind = bottomBar is UITabBar ? .tabBar : .toolbar
            popup.bottomBarHeight = height - top
            dock = top
        } else {
            popup.bottomBarKind = .none
            dock = height - Double(container.safeAreaInsets.bottom)
        }
        let frame = bar.convert(bar.bounds, to: container)
        if barShowsClosed, frame.height > 0 {
            popup.barHeight = Double(frame.height)
            popup.barOffset = Double(frame.maxY) - dock
        } else {
            unread.append(
                UnreadHeaderField(
                    field: "popup.bar.height",
                    reason:
                        "the bar was not showing closed when recording started (LNPopup keeps it 0 pt tall while open); its height and offset come from the style",
                    remedy:
                        "start recording with the bar presented and closed, or set header.popup.barHeight and barOffset"
                ))
        }
    }

    /// The header for the popup in `container` (the popup container controller's view), its
    /// environment read from the container.
    @MainActor
    public func reading(container: UIView) -> HeaderReading {
        var environmentUnread: [UnreadHeaderField] = []
        let environment = PanelEnvironment.read(from: container, unread: &environmentUnread)
        var header = TraceHeader(name: "recording", environment: environment, popup: popup)
        header.scrollView = scrollView
        return HeaderReading(system: "lnpopup", header: header, unread: environmentUnread + unread)
    }
}
