import Testing
import PanelSimTesting

/// The same traces under Swift Testing: one test, and one test case per file of the folder.
@Test func flickUpLandsInFull() {
    assertPanelTrace("traces/flick-up.jsonl")
}

@Test(arguments: PanelTraces("traces"))
func everyTrace(_ trace: PanelTraceFile) {
    assertPanelTrace(trace)
}

/// Record mode and simulator options as arguments: a golden recorded with driveScroll is its own
/// file, because a result says which options made it.
@Test func recordModeAndSimulatorOptions() {
    assertPanelTrace(
        "traces/move-to-full.jsonl", golden: "golden/move-to-full.drive-scroll.golden.jsonl",
        record: .never, simulation: .init(driveScroll: true))
}
