/// The `environment` header section read from the view a panel lives in.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import Foundation
import PanelSimCore

extension PanelEnvironment {
    /// The environment of `container` (trace-format.md §1.1): its bounds size and safe-area insets
    /// (pt), the display scale of its trait collection (pixels per pt; the screen's `scale` when the
    /// trait collection has none), and the frame rate of its window's screen
    /// (`maximumFramesPerSecond`: 120 on ProMotion displays, else 60).
    ///
    /// A container outside a window has no screen: its frame rate is reported in `unread` as
    /// `environment.frameRate` (assumed 60), and a display scale of 0 as
    /// `environment.displayScale` (assumed 3).
    /// - Complexity: O(depth of the view hierarchy).
    @MainActor
    public static func read(from container: UIView, unread: inout [UnreadHeaderField]) -> PanelEnvironment {
        let size = container.bounds.size
        let insets = container.safeAreaInsets
        let screen = container.window?.screen
        var scale = Double(container.traitCollection.displayScale)
        if scale <= 0, let screen { scale = Double(screen.scale) }
        if scale <= 0 {
            scale = 3
            unread.append(
                UnreadHeaderField(
                    field: "environment.displayScale",
                    reason: "the container has no display scale (not in a window); assumed 3",
                    remedy: "start the recording once the panel is on screen, or set header.environment.displayScale"))
        }
        var frameRate = 60
        if let screen {
            frameRate = screen.maximumFramesPerSecond
        } else {
            unread.append(
                UnreadHeaderField(
                    field: "environment.frameRate",
                    reason: "the container is not in a window, so it has no screen; assumed 60",
                    remedy: "start the recording once the panel is on screen, or set header.environment.frameRate"))
        }
        return PanelEnvironment(
            container: Size(width: Double(size.width), height: Double(size.height)),
            safeArea: Insets(
                top: Double(insets.top), left: Double(insets.left),
                bottom: Double(insets.bottom), right: Double(insets.right)),
            displayScale: scale, frameRate: frameRate)
    }
}

extension ScrollViewConfiguration {
    /// The `scrollView` header section for `scrollView` (trace-format.md §1.1): its frame in
    /// `space`'s coordinates (the surface, sheet, drawer or popup content), content size, content
    /// inset, the inset UIKit adds to it (`adjustedContentInset − contentInset`), content offset and
    /// bounce settings. pt.
    @MainActor
    public init(reading scrollView: UIScrollView, in space: UIView) {
        // The bounds rectangle (origin = content offset) converted to `space` is the frame there.
        let size = scrollView.contentSize
        self.init(
            frame: Rect(scrollView.convert(scrollView.bounds, to: space)),
            contentSize: Size(width: Double(size.width), height: Double(size.height)))
        let inset = scrollView.contentInset
        let adjusted = scrollView.adjustedContentInset
        contentInset = Insets(inset)
        systemInset = Insets(
            top: Double(adjusted.top - inset.top), left: Double(adjusted.left - inset.left),
            bottom: Double(adjusted.bottom - inset.bottom), right: Double(adjusted.right - inset.right))
        contentOffset = Point(x: Double(scrollView.contentOffset.x), y: Double(scrollView.contentOffset.y))
        bounces = scrollView.bounces
        alwaysBounceVertical = scrollView.alwaysBounceVertical
        alwaysBounceHorizontal = scrollView.alwaysBounceHorizontal
    }
}

extension Insets {
    /// UIKit insets as PanelSim's (pt).
    public init(_ insets: UIEdgeInsets) {
        self.init(
            top: Double(insets.top), left: Double(insets.left), bottom: Double(insets.bottom),
            right: Double(insets.right))
    }
}

extension Rect {
    /// A UIKit rectangle as PanelSim's (pt).
    public init(_ rect: CGRect) {
        self.init(x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
    }
}
