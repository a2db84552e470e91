/// The header of a DrawerKit recording from what an app reads off its drawer.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import PanelSimCore

/// Builds the header of a DrawerKit trace (`model` drawerkit, drawerkit.md §2.1) from the values an
/// app reads off DrawerKit: its `DrawerConfiguration` (public, every field), the presented view
/// controller's `DrawerPresentable` heights, the `DrawerAnimationParticipant` conformances and the
/// pull-to-dismiss scroll view. The DrawerKit adapter in examples/recording fills `drawer` field by
/// field; what it cannot read (a spring timing curve's damping ratio, the state of a drawer already
/// presented) it adds to `unread`.
public struct DrawerKitHeaderBuilder: Sendable {
    /// The `drawer` section.
    public var drawer: DrawerConfiguration
    /// Fields the adapter could not read.
    public var unread: [UnreadHeaderField] = []

    /// A builder for a drawer whose `heightOfPartiallyExpandedDrawer` is `height` (pt).
    public init(heightOfPartiallyExpandedDrawer height: Double) {
        drawer = DrawerConfiguration(heightOfPartiallyExpandedDrawer: height)
    }

    /// The frames of the enabled, visible `UIControl`s inside `drawerView` (the presented view),
    /// in its coordinates (pt): where DrawerKit's drawer tap is not seen (drawerkit.md §3.5,
    /// `content.controls`). A control inside another control is not listed again.
    /// - Complexity: O(views below `drawerView`).
    @MainActor
    public static func controls(in drawerView: UIView) -> [Rect] {
        var found: [Rect] = []
        func visit(_ view: UIView) {
            for sub in view.subviews where !sub.isHidden && sub.alpha > 0 && sub.isUserInteractionEnabled {
                if sub is UIControl {
                    found.append(Rect(sub.convert(sub.bounds, to: drawerView)))
                } else {
                    visit(sub)
                }
            }
        }
        visit(drawerView)
        return found
    }

    /// The header for the drawer presented over `container` (the window), its environment read
    /// from the container.
    @MainActor
    public func reading(container: UIView) -> HeaderReading {
        var environmentUnread: [UnreadHeaderField] = []
        let environment = PanelEnvironment.read(from: container, unread: &environmentUnread)
        return HeaderReading(
            system: "drawerkit",
            header: TraceHeader(name: "recording", environment: environment, drawer: drawer),
            unread: environmentUnread + unread)
    }
}
