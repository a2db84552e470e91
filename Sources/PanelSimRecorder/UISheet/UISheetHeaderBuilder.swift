/// The header of a UISheetPresentationController recording, read off the sheet itself.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import Foundation
import PanelSimCore

/// Builds the header of a sheet trace (`model` uisheet, uisheet.md §2.1) from a live
/// `UISheetPresentationController`: its detents resolved for the recorded container, selected and
/// largest undimmed detents, preferences, the presented view controller's `isModalInPresentation`
/// and the tracked scroll view. The answer of the app's `presentationControllerShouldDismiss(_:)`
/// cannot be read (it is an optional delegate method) and is reported unread unless given.
public enum UISheetHeaderBuilder {
    /// The trace name of a detent identifier: `medium` and `large` for UIKit's two system detents
    /// (whose raw values are `com.apple.UIKit.medium`/`large`), the raw value otherwise.
    public static func traceName(_ identifier: UISheetPresentationController.Detent.Identifier) -> String {
        if identifier == .medium { return "medium" }
        if identifier == .large { return "large" }
        return identifier.rawValue
    }

    /// UIKit's `maximumDetentValue` as PanelSim models it for `environment` (uisheet.md §3.1):
    /// M = H − y_L − safeBottom with y_L the large detent's offset (`detentOffsets`), and M = H for
    /// the full-screen sheet of compact height (H < 500 pt) without edge attachment. pt.
    public static func maximumDetentValue(environment: PanelEnvironment, prefersEdgeAttachedInCompactHeight: Bool)
        -> Double
    {
        var large = SheetConfiguration()
        large.detents = [.large]
        large.prefersEdgeAttachedInCompactHeight = prefersEdgeAttachedInCompactHeight
        let top = large.detentOffsets(environment: environment).first?.1 ?? 0
        let fullScreen = environment.container.height < 500 && !prefersEdgeAttachedInCompactHeight
        return environment.container.height - top - (fullScreen ? 0 : environment.safeArea.bottom)
    }

    /// The header for `sheet`, presented (or about to be presented) over `container` (its
    /// `containerView`, or the presenting window before presentation).
    ///
    /// A custom detent is written as the constant height its resolver returns for the recorded
    /// container (`resolvedValue(in:)`, iOS 16), inactive when it returns nil; the context passed
    /// to the resolver carries the container's trait collection and `maximumDetentValue` (PanelSim's
    /// M unless given). A resolver that asks a system detent for its value in that context is asking
    /// UIKit to resolve it with a context UIKit did not make: give `customHeights` instead.
    /// - Parameters:
    ///   - trackedScrollView: the scroll view UIKit hands the drag to, frame written in sheet
    ///     coordinates.
    ///   - shouldDismiss: what the app's `presentationControllerShouldDismiss(_:)` answers
    ///     (`.default` when it does not implement it); nil reports it unread.
    ///   - customHeights: resolved heights (pt) by detent identifier raw value, used instead of the
    ///     resolvers.
    @MainActor
    public static func reading(
        sheet: UISheetPresentationController, container: UIView,
        trackedScrollView: UIScrollView? = nil, shouldDismiss: SheetShouldDismiss? = nil,
        maximumDetentValue: Double? = nil, customHeights: [String: Double] = [:]
    ) -> HeaderReading {
        var unread: [UnreadHeaderField] = []
        let environment = PanelEnvironment.read(from: container, unread: &unread)
        var configuration = SheetConfiguration()
        configuration.prefersEdgeAttachedInCompactHeight = sheet.prefersEdgeAttachedInCompactHeight
        if #available(iOS 16.0, *) {
            let m =
                maximumDetentValue
                ?? Self.maximumDetentValue(
                    environment: environment,
                    prefersEdgeAttachedInCompactHeight: sheet.prefersEdgeAttachedInCompactHeight)
            let context = RecordingDetentContext(
                containerTraitCollection: container.traitCollection, maximumDetentValue: CGFloat(m))
            configuration.detents = sheet.detents.map { detent in
                let name = traceName(detent.identifier)
                if detent.identifier == .medium { return .medium }
                if detent.identifier == .large { return .large }
                let value = customHeights[name].map { CGFloat($0) } ?? detent.resolvedValue(in: context)
                return SheetDetent(
                    identifier: name, kind: .height(value.map { Double($0) } ?? 0), inactive: value == nil)
            }
        } else {
            unread.append(
                UnreadHeaderField(
                    field: "sheet.detents",
                    reason: "before iOS 16 a detent has no readable identifier; assumed [large]",
                    remedy: "set header.sheet.detents"))
        }
        configuration.selectedDetentIdentifier = sheet.selectedDetentIdentifier.map(traceName)
        configuration.largestUndimmedDetentIdentifier = sheet.largestUndimmedDetentIdentifier.map(traceName)
        configuration.prefersScrollingExpandsWhenScrolledToEdge = sheet.prefersScrollingExpandsWhenScrolledToEdge
        configuration.widthFollowsPreferredContentSizeWhenEdgeAttached =
            sheet.widthFollowsPreferredContentSizeWhenEdgeAttached
        configuration.prefersGrabberVisible = sheet.prefersGrabberVisible
        configuration.preferredCornerRadius = sheet.preferredCornerRadius.map { Double($0) }
        configuration.isModalInPresentation = sheet.presentedViewController.isModalInPresentation
        configuration.presented = sheet.presentedViewController.presentingViewController != nil
        if let shouldDismiss {
            configuration.shouldDismiss = shouldDismiss
        } else {
            unread.append(
                UnreadHeaderField(
                    field: "sheetDelegate.shouldDismiss",
                    reason:
                        "presentationControllerShouldDismiss(_:) is an optional delegate method whose answer is app code; assumed not implemented",
                    remedy: "pass shouldDismiss: (.default when your delegate does not implement it)"))
        }
        var header = TraceHeader(name: "recording", environment: environment, sheet: configuration)
        if let trackedScrollView {
            header.scrollView = ScrollViewConfiguration(
                reading: trackedScrollView, in: sheet.presentedViewController.view)
        }
        return HeaderReading(system: "uisheet", header: header, unread: unread)
    }
}

/// The context a custom detent's resolver gets from `UISheetHeaderBuilder`.
@available(iOS 16.0, *)
@MainActor
final class RecordingDetentContext: NSObject, UISheetPresentationControllerDetentResolutionContext {
    let containerTraitCollection: UITraitCollection
    let maximumDetentValue: CGFloat
    init(containerTraitCollection: UITraitCollection, maximumDetentValue: CGFloat) {
        self.containerTraitCollection = containerTraitCollection
        self.maximumDetentValue = maximumDetentValue
    }
}
