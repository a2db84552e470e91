import PanelInvariants
import PanelSimCore

/// LNPopup's command description: its bench workloads and its soak; it has no tunable numbers (its
/// transitions use the durations and springs LNPopupController fixes in its source, lnpopup.md §3).
struct LNPopupCommands: SystemCommandDescription {
    var model: PanelModel { .lnPopup }
    var name: String { "LNPopup" }
    var libraryName: String { "LNPopupController / LNPopupUI" }
    var soak: (any SystemSoak)? { LNPopupSoak() }
    var benchCoreWorkload: BenchCoreWorkload? {
        BenchCoreWorkload(label: "open/close", jsonKey: "lnPopup", trace: { BenchCorpus.popupTrace(cycles: $0) })
    }
    var benchCorpus: BenchSystemCorpus? { BenchSystemCorpus(name: "LNPopup", trace: { BenchCorpus.variedLNPopupTrace(index: $0) }) }
}
