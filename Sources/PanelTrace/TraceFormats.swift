import PanelSimCore

/// The registry of trace formats: one `SystemTraceFormat` per panel system. The loader, the
/// writer and the importers find a header's format here by its `model`.
///
/// A system defined outside this package registers for the duration of a scope, the way
/// swift-snapshot-testing scopes its configuration with task-locals:
/// `TraceFormats.$registered.withValue(TraceFormats.registered + [MyFormat()]) { … }`.
public enum TraceFormats {
    /// The formats in force; the built-in systems by default.
    @TaskLocal public static var registered: [any SystemTraceFormat] = builtIn

    /// FloatingPanel, DrawerKit, UISheetPresentationController and LNPopup.
    public static let builtIn: [any SystemTraceFormat] = [
        FloatingPanelTraceFormat(), DrawerKitTraceFormat(), UISheetTraceFormat(), LNPopupTraceFormat(),
    ]

    /// The format of `model`, nil when no registered format reads it.
    /// - Complexity: O(registered formats).
    public static func format(for model: PanelModel) -> (any SystemTraceFormat)? {
        registered.first { $0.model == model }
    }
}
