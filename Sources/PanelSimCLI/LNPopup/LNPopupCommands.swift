import PanelSimCore

/// LNPopup's command description: it has no tunable numbers (its transitions use the durations
/// and springs LNPopupController fixes in its source, lnpopup.md §3).
struct LNPopupCommands: SystemCommandDescription {
    var model: PanelModel { .lnPopup }
    var benchCorpus: BenchSystemCorpus? { BenchSystemCorpus(name: "LNPopup", trace: { BenchCorpus.variedLNPopupTrace(index: $0) }) }
}
