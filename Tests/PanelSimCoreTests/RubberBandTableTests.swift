import Testing
import PanelSimCore

/// physics.md §2: the rubber-band table of the 2013 analysis for d = 960 pt (c = 0.55).
@Test(arguments: [(5.0, 2.74), (10, 5.47), (100, 52.02), (400, 178.98), (960, 340.65)])
func rubberBandMatchesPublishedTable(distance: Double, expected: Double) {
    #expect(abs(rubberBand(distance, 960) - expected) < 0.005)
}
