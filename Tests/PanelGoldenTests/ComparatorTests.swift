import XCTest
import PanelGolden
import PanelSimCore
import PanelTrace

final class ComparatorTests: XCTestCase {
    private func doc(_ records: [ResultRecord], header: ResultHeader = Fixtures.header) -> ResultDocument {
        ResultDocument(header: header, records: records)
    }

    private func frame(_ k: Int, _ records: [ResultRecord]) -> (Int, FrameRecord) {
        for (i, r) in records.enumerated() { if case .frame(let f) = r, f.index == k { return (i, f) } }
        fatalError("no frame \(k)")
    }

    func testIdenticalPasses() {
        let c = Comparator.compare(expected: Fixtures.document, actual: Fixtures.document)
        XCTAssertEqual(c.status, .passed)
        XCTAssertTrue(c.passed)
        XCTAssertNil(c.firstDivergence)
        XCTAssertEqual(c.divergentRecords, 0)
        XCTAssertEqual(c.channelErrors.map(\.maxError), [0, 0, 0, 0, 0])
        XCTAssertEqual(c.eventDiff, [])
    }

    func testLocationChangeBeyondTolerance() {
        var records = Fixtures.records
        let (i, f) = frame(25, records)
        var g = f
        g.location += 0.75
        records[i] = .frame(g)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.status, .failed)
        let d = try! XCTUnwrap(c.firstDivergence)
        XCTAssertEqual(d.recordIndex, i)
        XCTAssertEqual(d.time, 208_333)
        XCTAssertEqual(d.frame, 25)
        XCTAssertEqual(d.channel, .location)
        XCTAssertEqual(d.expected, "100")
        XCTAssertEqual(d.actual, "100.75")
        XCTAssertEqual(d.error, 0.75)
        let location = c.channelErrors.first { $0.channel == .location }!
        XCTAssertEqual(location.maxError, 0.75)
        XCTAssertEqual(location.recordIndex, i)
        XCTAssertEqual(location.time, 208_333)
        XCTAssertEqual(location.exceeded, 1)
        XCTAssertEqual(c.divergentRecords, 1)
        XCTAssertEqual(c.eventDiff, [])
        let report = c.report()
        XCTAssertTrue(report.contains("first divergence at record \(i) (line \(i + 2)), t = 0.208333 s, frame 25: location"), report)
        XCTAssertTrue(report.contains("expected: 100\n"), report)
        XCTAssertTrue(report.contains("actual:   100.75"), report)
        XCTAssertTrue(report.contains("- #\(i) {\"t\": 0.208333, \"frame\": 25, \"location\": 100,"), report)
        XCTAssertTrue(report.contains("+ #\(i) {\"t\": 0.208333, \"frame\": 25, \"location\": 100.75,"), report)
        XCTAssertTrue(report.contains("  #\(i - 1) {\"t\": 0.208333, \"event\": \"willBeginDragging\""), report)
    }

    func testChangeWithinToleranceIsReportedButPasses() {
        var records = Fixtures.records
        let (i, f) = frame(60, records)
        var g = f
        g.location += 4e-7
        records[i] = .frame(g)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.status, .passed)
        let location = c.channelErrors.first { $0.channel == .location }!
        XCTAssertGreaterThan(location.maxError, 3.9e-7)
        XCTAssertEqual(location.recordIndex, i)
        XCTAssertEqual(location.exceeded, 0)
        // The exact tolerances reject it.
        XCTAssertEqual(Comparator.compare(expected: Fixtures.document, actual: doc(records), tolerances: .exact).status, .failed)
    }

    func testEventInserted() {
        var records = Fixtures.records
        // An extra didChangeState right after willEndDragging (index 6).
        records.insert(.event(time: 500_000, .didChangeState(state: "tip")), at: 7)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.status, .failed)
        // Aligned by time and name, the divergence is the inserted event itself (record 7 of the
        // actual result; the golden has none), not the golden's next event at that position.
        let d = c.firstDivergence!
        XCTAssertEqual(d.recordIndex, 7)
        XCTAssertEqual(d.time, 500_000)
        XCTAssertEqual(d.channel, .event)
        XCTAssertEqual(d.expected, "(none)")
        XCTAssertEqual(d.actual, "didChangeState")
        // The alignment absorbs the shift: one inserted record, nothing else differs.
        XCTAssertEqual(c.divergentRecords, 1)
        XCTAssertTrue(c.eventDiff.contains("+0.500000 didChangeState"), c.eventDiff.joined(separator: "\n"))
        XCTAssertTrue(c.eventDiff.contains(" 0.500000 willEndDragging"))
        XCTAssertEqual(c.eventDiff.first, "@@ -3,6 +3,7 @@")
        XCTAssertTrue(c.report(indent: "").contains("event sequence diff:\n  --- golden\n  +++ actual\n  @@ -3,6 +3,7 @@"), c.report())
    }

    func testEventRemovedAtEnd() {
        let records = Array(Fixtures.records.dropLast())
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        let d = c.firstDivergence!
        XCTAssertEqual(d.channel, .event)
        XCTAssertEqual(d.recordIndex, records.count)
        XCTAssertEqual(d.expected, "didRemove")
        XCTAssertEqual(d.actual, "(none)")
        XCTAssertTrue(c.eventDiff.contains("-1.000000 didRemove"))
    }

    func testFrameStateChange() {
        var records = Fixtures.records
        let (i, f) = frame(60, records)
        var g = f
        g.state = "tip"
        records[i] = .frame(g)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        let d = c.firstDivergence!
        XCTAssertEqual(d.recordIndex, i)
        XCTAssertEqual(d.time, 500_000)
        XCTAssertEqual(d.channel, .state)
        XCTAssertEqual(d.expected, "half")
        XCTAssertEqual(d.actual, "tip")
        XCTAssertNil(d.error)
    }

    /// A frame whose location and state both differ: the first divergence is its location, and
    /// the events-states-decisions line names its state, never the location again.
    func testTheDiscreteLineNamesTheDiscreteField() {
        var records = Fixtures.records
        let (i, f) = frame(60, records)
        var g = f
        g.location += 5
        g.state = "tip"
        records[i] = .frame(g)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.firstRecordDivergence?.channel, .location)
        XCTAssertEqual(c.firstDiscreteDivergence?.channel, .state)
        XCTAssertEqual(c.firstDiscreteDivergence?.recordIndex, i)
        let report = c.report(indent: "")
        XCTAssertTrue(report.contains("events, states and decisions: first differ at record \(i) (line \(i + 2)), t = 0.500000 s, frame 60: "
                                      + "state: expected half, actual tip"), report)
    }

    /// An event of both sides with another discrete value is in the event diff, as a `-` and a
    /// `+` line with the field's values.
    func testAChangedEventFieldIsInTheEventDiff() {
        var records = Fixtures.records
        records[3] = .event(time: 208_333, .shouldBeginDragging(result: false))
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.divergentRecords, 1)
        XCTAssertTrue(c.eventDiff.contains("-0.208333 shouldBeginDragging result: true"), c.eventDiff.joined(separator: "\n"))
        XCTAssertTrue(c.eventDiff.contains("+0.208333 shouldBeginDragging result: false"), c.eventDiff.joined(separator: "\n"))
        XCTAssertTrue(c.eventDiff.contains(" 0.208333 willBeginDragging"), c.eventDiff.joined(separator: "\n"))
        XCTAssertTrue(c.report().contains("event sequence diff:"), c.report())
        // A continuous value of an event (didMove's location) alone leaves the diff empty.
        var moved = Fixtures.records
        moved[1] = .event(time: 0, .didMove(location: 413.5))
        XCTAssertEqual(Comparator.compare(expected: Fixtures.document, actual: doc(moved)).eventDiff, [])
    }

    func testDiscreteEventFieldsAndBooleans() {
        var records = Fixtures.records
        records[7] = .event(time: 500_000, .didEndDragging(willAttract: false))
        XCTAssertEqual(Comparator.compare(expected: Fixtures.document, actual: doc(records)).firstDivergence?.channel, .willAttract)
        records = Fixtures.records
        records[6] = .event(time: 500_000, .willEndDragging(velocity: Point(x: 0, y: 600), proposed: "half", target: "tip"))
        XCTAssertEqual(Comparator.compare(expected: Fixtures.document, actual: doc(records)).firstDivergence?.channel, .target)
        records = Fixtures.records
        records[4] = .event(time: 208_334, .willBeginDragging(state: "full"))
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.firstDivergence?.channel, .time)
        XCTAssertEqual(c.firstDivergence?.expected, "0.208333")
        XCTAssertEqual(c.firstDivergence?.actual, "0.208334")
        records = Fixtures.records
        let (i, f) = frame(60, records)
        var g = f
        g.contentOffset = nil
        records[i] = .frame(g)
        let d = Comparator.compare(expected: Fixtures.document, actual: doc(records)).firstDivergence!
        XCTAssertEqual(d.channel, .contentOffset)
        XCTAssertEqual(d.actual, "(none)")
    }

    func testVelocityRelativeTolerance() {
        var records = Fixtures.records
        records[6] = .event(time: 500_000, .willEndDragging(velocity: Point(x: 0, y: 600.0003), proposed: "half", target: "half"))
        XCTAssertEqual(Comparator.compare(expected: Fixtures.document, actual: doc(records)).status, .passed)  // 5e-7 relative
        records[6] = .event(time: 500_000, .willEndDragging(velocity: Point(x: 0, y: 600.01), proposed: "half", target: "half"))
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.firstDivergence?.channel, .velocity)
        XCTAssertEqual(c.firstDivergence?.expected, "{x: 0, y: 600}")
    }

    func testToleranceRules() {
        let t = Tolerance(absolute: 1e-9, relative: 1e-6)
        XCTAssertTrue(t.accepts(expected: 0, actual: 1e-10))
        XCTAssertTrue(t.accepts(expected: 1000, actual: 1000.0009))
        XCTAssertFalse(t.accepts(expected: 1000, actual: 1000.002))
        XCTAssertTrue(t.accepts(expected: .nan, actual: .nan))
        XCTAssertFalse(t.accepts(expected: .nan, actual: 0))
        XCTAssertFalse(t.accepts(expected: 0, actual: .infinity))
        XCTAssertTrue(Tolerance.exact.accepts(expected: .infinity, actual: .infinity))
        XCTAssertEqual(Tolerances.default.location, .absolute(1e-6))
        XCTAssertEqual(Tolerances.default.backdropAlpha, .absolute(1e-9))
        XCTAssertEqual(Tolerances.default.time, 0)
    }

    func testOtherFormatVersionIsIncompatibleNotRegression() {
        var header = Fixtures.header
        header.version = 2
        let c = Comparator.compare(expected: ResultDocument(header: header, records: []), actual: Fixtures.document)
        XCTAssertEqual(c.status, .incompatible(goldenVersion: 2))
        XCTAssertFalse(c.passed)
        XCTAssertNil(c.firstDivergence)
        XCTAssertTrue(c.report().contains("golden format version 2, this build writes 1"), c.report())
    }

    func testDigestChangeIsANote() {
        var header = Fixtures.header
        header.traceDigest = "sha256:" + String(repeating: "cd", count: 32)
        let c = Comparator.compare(expected: ResultDocument(header: header, records: Fixtures.records), actual: Fixtures.document)
        XCTAssertEqual(c.status, .passed)
        XCTAssertEqual(c.notes.count, 1)
        XCTAssertTrue(c.notes[0].contains("trace edited since the golden was blessed"))
        XCTAssertTrue(c.report().contains("note: trace edited"))
    }

    func testHeaderFieldDifferenceFails() {
        var header = Fixtures.header
        header.frameRate = 60
        let c = Comparator.compare(expected: doc([], header: header), actual: doc([]))
        XCTAssertEqual(c.status, .failed)
        XCTAssertEqual(c.firstDivergence?.channel, .header)
        XCTAssertEqual(c.firstDivergence?.expected, "frameRate 60")
        XCTAssertEqual(c.firstDivergence?.actual, "frameRate 120")
    }

    func testFirstDivergenceIsTheEarliestRecord() {
        var records = Fixtures.records
        let (i25, f25) = frame(25, records)
        let (i60, f60) = frame(60, records)
        var a = f60; a.location += 5; records[i60] = .frame(a)
        var b = f25; b.backdropAlpha = 0.5; records[i25] = .frame(b)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.firstDivergence?.recordIndex, i25)
        XCTAssertEqual(c.firstDivergence?.channel, .backdropAlpha)
        XCTAssertEqual(c.divergentRecords, 2)
        let location = c.channelErrors.first { $0.channel == .location }!
        XCTAssertEqual(location.maxError, 5)
        XCTAssertEqual(location.recordIndex, i60)
    }
}

final class SequenceDiffTests: XCTestCase {
    private func apply(_ edits: [SequenceDiff.Edit], _ old: [Character], _ new: [Character]) -> [Character] {
        edits.compactMap { e -> Character? in
            switch e {
            case .keep(let i, _): return old[i]
            case .insert(let j): return new[j]
            case .delete: return nil
            }
        }
    }

    func testShortestScripts() {
        let cases: [(String, String, Int)] = [
            ("", "", 0), ("abc", "abc", 0), ("abc", "", 3), ("", "abc", 3),
            ("abcabba", "cbabac", 5), ("abcdef", "abxdef", 2), ("aaaa", "aaaaa", 1),
        ]
        for (a, b, d) in cases {
            let old = Array(a), new = Array(b)
            let edits = SequenceDiff.edits(from: old, to: new)!
            XCTAssertEqual(apply(edits, old, new), new, "\(a) → \(b)")
            let changes = edits.filter { if case .keep = $0 { return false } else { return true } }.count
            XCTAssertEqual(changes, d, "\(a) → \(b)")
        }
    }

    func testRandomScriptsTransform() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<300 {
            let old = (0..<Int(rng.next() % 30)).map { _ in Character(UnicodeScalar(UInt8(97 + rng.next() % 3))) }
            let new = (0..<Int(rng.next() % 30)).map { _ in Character(UnicodeScalar(UInt8(97 + rng.next() % 3))) }
            let edits = SequenceDiff.edits(from: old, to: new)!
            XCTAssertEqual(apply(edits, old, new), new)
            XCTAssertEqual(edits.filter { if case .insert = $0 { return false } else { return true } }.count, old.count)
        }
    }

    func testEditLimit() {
        XCTAssertNil(SequenceDiff.edits(from: Array("aaaa"), to: Array("bbbb"), maxEdits: 3))
    }

    func testUnifiedHunks() {
        let old = Array("abcdefghijklmnop"), new = Array("abcdefgXhijklmnoq")
        let edits = SequenceDiff.edits(from: old, to: new)!
        let hunks = SequenceDiff.unifiedHunks(edits, context: 1, oldLine: { String(old[$0]) }, newLine: { String(new[$0]) })
        XCTAssertEqual(hunks, ["@@ -7,2 +7,3 @@", " g", "+X", " h", "@@ -15,2 +16,2 @@", " o", "-p", "+q"])
    }
}

extension ComparatorTests {
    func testHeaderDivergenceReport() {
        var header = Fixtures.header
        header.trace = "other"
        let c = Comparator.compare(expected: ResultDocument(header: header, records: Fixtures.records), actual: Fixtures.document)
        XCTAssertTrue(c.report(indent: "").hasPrefix(#"header differs: expected trace "other", actual trace "handoff-at-content-top""#), c.report())
    }

    /// A header difference does not end the report ("header differs: …" and nothing else would
    /// hide where the records diverge and the event diff): every header difference is listed,
    /// then the records are compared as usual.
    func testHeaderDifferenceKeepsTheRecordComparison() {
        var header = Fixtures.header
        header.displayScale = 2
        header.simulator = ["driveScroll"]
        var records = Fixtures.records
        records.insert(.event(time: 500_000, .didChangeState(state: "tip")), at: 7)
        let (i, f) = frame(60, records)
        var g = f
        g.location += 2
        records[i] = .frame(g)
        let c = Comparator.compare(expected: Fixtures.document, actual: ResultDocument(header: header, records: records))
        XCTAssertEqual(c.status, .failed)
        XCTAssertEqual(c.headerDifferences.map(\.expected), ["simulator defaults", "displayScale 3"])
        XCTAssertEqual(c.headerDifferences.map(\.actual), ["simulator driveScroll", "displayScale 2"])
        XCTAssertEqual(c.firstDivergence?.channel, .header, "firstDivergence: the header first, as before")
        let d = try! XCTUnwrap(c.firstRecordDivergence)
        XCTAssertEqual(d.recordIndex, 7)
        XCTAssertEqual(d.channel, .event)
        XCTAssertEqual(c.firstDiscreteDivergence, d)
        XCTAssertEqual(c.divergentRecords, 2)
        XCTAssertFalse(c.context.isEmpty)
        XCTAssertTrue(c.eventDiff.contains("+0.500000 didChangeState"), c.eventDiff.joined(separator: "\n"))
        let report = c.report(indent: "")
        let lines = report.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(3)), ["header differs: expected simulator defaults, actual simulator driveScroll",
                                                 "header differs: expected displayScale 3, actual displayScale 2",
                                                 "first divergence at record 7 (line 9), t = 0.500000 s: event"], report)
        XCTAssertTrue(report.contains("event sequence diff:\n  --- golden\n  +++ actual\n  @@ -3,6 +3,7 @@"), report)
        XCTAssertTrue(report.contains("context (- golden, + actual):\n"), report)
        XCTAssertTrue(report.contains("records: expected 15, actual 16; 2 differ"), report)

        // Only the header differs: said so, and nothing more to show.
        let headerOnly = Comparator.compare(expected: Fixtures.document, actual: ResultDocument(header: header, records: Fixtures.records))
        XCTAssertEqual(headerOnly.status, .failed)
        XCTAssertNil(headerOnly.firstRecordDivergence)
        XCTAssertEqual(headerOnly.divergentRecords, 0)
        XCTAssertEqual(headerOnly.report(indent: ""), """
            header differs: expected simulator defaults, actual simulator driveScroll
            header differs: expected displayScale 3, actual displayScale 2
            records: identical within tolerances (15 records)
            """)
    }

    /// A context line of the event diff (an event in both results) shows the golden's time and,
    /// when the actual's differs, that too: with the golden's time only, between `+` lines with
    /// the actual's times, a shifted event would look unchanged.
    func testEventDiffContextLinesShowBothTimesWhenTheyDiffer() {
        var records = Fixtures.records
        records.insert(.event(time: 500_000, .didMove(location: 333)), at: 10)
        // Everything after the inserted event happens 1/60 s later.
        for k in 11..<records.count {
            if case .event(let t, let e) = records[k] { records[k] = .event(time: t + 16_667, e) }
        }
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.eventDiff, [
            "@@ -6,6 +6,7 @@",
            " 0.500000 didEndDragging",
            " 0.500000 willBeginAttracting",
            " 0.500000 didChangeState",
            "+0.500000 didMove",
            " 0.858333 didEndAttracting (actual 0.875000)",
            " 0.900000 shouldRemove (actual 0.916667)",
            " 1.000000 willRemove (actual 1.016667)",
        ])
    }
}


/// The alignment by time and kind behind every comparison (`RecordDifferences`).
final class RecordAlignmentTests: XCTestCase {
    private func doc(_ records: [ResultRecord]) -> ResultDocument { ResultDocument(header: Fixtures.header, records: records) }

    /// A frame only one side writes is compared with the frame the other side holds there (a
    /// result omits frames that repeat the previous one), not taken for a record out of place.
    func testAFrameOneSideOmitsIsComparedWithTheHeldFrame() throws {
        var records = Fixtures.records
        let i = records.firstIndex { $0.frameIndex == 60 }!
        records.insert(.frame(FrameRecord(index: 40, location: 200, state: "full", backdropAlpha: 0.3, contentOffset: 0,
                                          isAttracting: false, isDragging: true)), at: i - 4)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.status, .failed)
        let d = try XCTUnwrap(c.firstDivergence)
        XCTAssertEqual(d.frame, 40)
        XCTAssertEqual(d.channel, .location)
        XCTAssertEqual(d.expected, "100", "the golden holds frame 25 at frame 40")
        XCTAssertEqual(d.actual, "200")
        XCTAssertEqual(d.recordIndex, i - 4, "the actual's record: the golden has none")
        XCTAssertEqual(c.divergentRecords, 1, "the rest still lines up")
        XCTAssertTrue(c.context.contains("- (frame 40 not written: frame 25 holds)"), c.context.joined(separator: "\n"))
        let row = try XCTUnwrap(c.differences.first)
        XCTAssertNil(row.goldenRecord)
        XCTAssertEqual(row.goldenLocation, 100)
        XCTAssertEqual(row.actualLocation, 200)
    }

    /// A frame written before an event of its time instead of after it: aligned, nothing
    /// differs, but the files do, so the comparison still fails (as a record-by-record one
    /// would) and the reports say the files are written differently instead of naming a value.
    /// (Two events of one time swapped are a change of the event sequence: one-sided rows.)
    func testTheSameRecordsWrittenInAnotherOrderStillFail() throws {
        var records = Fixtures.records
        records.swapAt(9, 10)   // didChangeState and frame 60, both at 0.5 s
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        XCTAssertEqual(c.status, .failed)
        XCTAssertFalse(c.differences.rows.contains(where: \.differs))
        XCTAssertEqual(c.firstRecordDivergence?.recordIndex, 9)
        XCTAssertEqual(c.firstRecordDivergence?.channel, .record)
        XCTAssertTrue(c.report().contains("written differently: another order, or a frame one side omits"), c.report())
        XCTAssertTrue(c.context.contains { $0.hasPrefix("- #9 ") } && c.context.contains { $0.hasPrefix("+ #9 ") })
        var swapped = Fixtures.records
        swapped.swapAt(3, 4)   // shouldBeginDragging and willBeginDragging, both at 0.208333 s
        XCTAssertEqual(Comparator.compare(expected: Fixtures.document, actual: doc(swapped)).differences.rows.filter(\.isOneSided).count, 2)
    }

    /// Events pair by name and time first, then by name: an event that moved in time is one
    /// row with a time change, not a missing and an extra event.
    func testAMovedEventIsOneRowWithItsTimeChange() throws {
        var records = Fixtures.records
        records[11] = .event(time: 866_667, .didEndAttracting)
        let c = Comparator.compare(expected: Fixtures.document, actual: doc(records))
        let row = try XCTUnwrap(c.differences.first)
        XCTAssertEqual(row.name, "didEndAttracting")
        XCTAssertEqual(row.changes.map(\.channel), [.time])
        XCTAssertEqual(row.changes.first?.delta, 8334)
        XCTAssertEqual(c.eventDiff, [], "no event is missing")
        XCTAssertEqual(c.divergentRecords, 1)
    }
}
