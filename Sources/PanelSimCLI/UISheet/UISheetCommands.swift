import PanelInvariants
import PanelSimCore

/// UISheetPresentationController's command description: the sheet's tunable numbers
/// (`sheet.simulator` values of the model, uisheet.md U6, U10), its bench workloads and its soak.
struct UISheetCommands: SystemCommandDescription {
    var model: PanelModel { .uiSheet }
    var name: String { "UISheet" }
    var libraryName: String { "UIKit's UISheetPresentationController" }
    var soak: (any SystemSoak)? { UISheetSoak() }
    var benchCoreWorkload: BenchCoreWorkload? {
        BenchCoreWorkload(label: "drag+settle", jsonKey: "uiSheet", trace: { BenchCorpus.sheetDragTrace(gestures: $0) })
    }
    var benchCorpus: BenchSystemCorpus? { BenchSystemCorpus(name: "UISheet", trace: { BenchCorpus.variedUISheetTrace(index: $0) }) }
    var tunableParameters: [TunableParameter] {
        [.sheetSpringResponse, .sheetDampingRatio, .sheetProjectionRate, .sheetFastDampingRatio]
    }
}

extension TunableParameter {
    /// `sheet.springResponse` (s), in (0, 100].
    public static let sheetSpringResponse = simulator("sheet.springResponse", "0 < x ≤ 100 (s)", { $0 > 0 && $0 <= 100 }, \.springResponse)
    /// `sheet.dampingRatio`: ζ of every sheet animation but a fast release, in (0, 10].
    public static let sheetDampingRatio = simulator("sheet.dampingRatio", "0 < x ≤ 10", { $0 > 0 && $0 <= 10 }, \.dampingRatio)
    /// `sheet.projectionRate`: the interactor's deceleration rate r (per ms), in (0, 1).
    public static let sheetProjectionRate = simulator("sheet.projectionRate", "0 < x < 1 (per ms)", { $0 > 0 && $0 < 1 }, \.projectionRate)
    /// `sheet.fastDampingRatio`: ζ of the spring after a release at |v| ≥ 1000 pt/s (U10), in (0, 10].
    public static let sheetFastDampingRatio = simulator("sheet.fastDampingRatio", "0 < x ≤ 10", { $0 > 0 && $0 <= 10 }, \.fastDampingRatio)

    private static func simulator(_ name: String, _ accepted: String, _ accepts: @escaping @Sendable (Double) -> Bool,
                                  _ field: WritableKeyPath<SheetSimulatorOptions, Double> & Sendable) -> TunableParameter {
        TunableParameter(name, model: .uiSheet, acceptedValues: accepted, accepts: accepts,
                         read: { $0.sheet?.simulator[keyPath: field] },
                         write: { v, header in header.sheet?.simulator[keyPath: field] = v })
    }
}
