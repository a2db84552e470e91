/// Importing the real-trace touch CSVs (`Tests/Fixtures/real-traces/`, docs/FORMATS.md §4; floatingpanel-core.md
/// §9 O18) as trace samples.
import PanelSimCore

/// Importer for one gesture in the real-traces touch schema `t_ms,phase,x_px,y_px`.
public enum RealTraceCSV {
    /// The header row the schema requires, exactly.
    public static let headerRow = "t_ms,phase,x_px,y_px"

    /// Converts one recorded gesture into finger-0 touch samples.
    ///
    /// The `down` row becomes `began` at time 0 and location `origin`; every later row keeps its
    /// motion relative to the `down` row, scaled by `pointsPerUnit`
    /// (location = origin + (row − down) × pointsPerUnit, per axis, after the optional swap), and
    /// its timing relative to the `down` row. Times convert exactly from the decimal text:
    /// µs = round(t_ms × 1000) half away from zero, then minus the down row's µs. `move` rows
    /// become `moved`, the `up` row becomes `ended` without `velocity`. Rows whose times are equal
    /// after rounding keep their file order. Sample `line` is 0 (generated samples).
    ///
    /// Input rules: the first line is exactly ``headerRow`` (a trailing CR is allowed on every
    /// line); blank lines are skipped; each row has 4 comma-separated fields; `t_ms` is a decimal
    /// number in JSON number syntax, never decreases and is at most 10⁸ s (10¹¹ ms) after the
    /// `down` row (the loader's bound, so that an import that succeeds always loads); `phase` is `down` (first row only),
    /// `move`, or `up` (last row only); `x_px` and `y_px` are finite decimal numbers (the empty
    /// `y_px` some synthetic files use for NaN is rejected: touch import needs both axes).
    ///
    /// - Parameters:
    ///   - csv: the file's text.
    ///   - file: the name used in errors.
    ///   - pointsPerUnit: pt per CSV unit (1 for Flutter logical pixels, 1/displayScale for AOSP
    ///     physical pixels); finite and > 0.
    ///   - origin: container location of the `down` row, pt.
    ///   - swapAxes: when true, the recording's x motion drives the trace's y and vice versa (a
    ///     vertical recording replayed on a left/right panel).
    /// - Returns: one `began`, the `moved` samples and one `ended`, in file order.
    /// - Throws: `TraceError` (`.invalid`) with the CSV line, the column name as `field`, and the
    ///   column number and what was expected in the message.
    /// - Complexity: O(n) in the size of the text.
    public static func importTouches(
        csv: String, file: String, pointsPerUnit: Double, origin: Point,
        swapAxes: Bool = false
    ) throws(TraceError) -> [TraceSample] {
        try importTouches(
            csv: csv, file: file,
            placement: ImportPlacement(origin: origin, pointsPerUnit: pointsPerUnit, swapAxes: swapAxes))
    }

    /// The same with a full ``ImportPlacement`` (axis swap and flips).
    /// - Throws: as above; a placed location beyond ±10⁷ pt is an error at its row.
    /// - Complexity: O(n) in the size of the text.
    public static func importTouches(csv: String, file: String, placement: ImportPlacement) throws(TraceError)
        -> [TraceSample]
    {
        try placement.validate(file: file)
        let columns = ["t_ms", "phase", "x_px", "y_px"]
        var rows: [(line: Int, micros: Int64, phase: String, x: Double, y: Double)] = []
        var sawHeader = false
        var headerLine = 0
        for (lineNumber, text) in numberedLines(csv) {
            func fail(_ column: Int, _ message: String) -> TraceError {
                TraceError(
                    file: file, line: lineNumber, field: columns[column], message: "column \(column + 1): " + message)
            }
            if !sawHeader {
                guard text == headerRow else {
                    throw TraceError(
                        file: file, line: lineNumber, field: "",
                        message: "expected the header row \(headerRow), got \(quoted(String(text)))")
                }
                sawHeader = true
                headerLine = lineNumber
                continue
            }
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 4 else {
                throw TraceError(
                    file: file, line: lineNumber, field: "",
                    message: "expected 4 comma-separated fields (\(headerRow)), got \(fields.count)")
            }
            guard let t = ExactDecimal(fields[0]) else {
                throw fail(0, "expected a decimal number of milliseconds, got \(quoted(String(fields[0])))")
            }
            guard let micros = t.rounded(shiftingBy: 3) else {
                throw fail(0, "expected a time that fits in 64-bit microseconds, got \(fields[0])")
            }
            let phase = String(fields[1])
            guard ["down", "move", "up"].contains(phase) else {
                throw fail(1, "expected down, move or up, got \(quoted(phase))")
            }
            func coordinate(_ column: Int) throws(TraceError) -> Double {
                let field = fields[column]
                if field.isEmpty {
                    throw fail(
                        column,
                        "expected a number, got an empty field (NaN in the source); touch import needs both axes")
                }
                guard ExactDecimal(field) != nil, let value = Double(field), value.isFinite else {
                    throw fail(column, "expected a finite decimal number, got \(quoted(String(field)))")
                }
                return value
            }
            let x = try coordinate(2)
            let y = try coordinate(3)
            if rows.isEmpty {
                guard phase == "down" else { throw fail(1, "expected the first row to be down, got \(phase)") }
            } else {
                if phase == "down" {
                    throw fail(1, "expected move or up after the first row, got down (one gesture per file)")
                }
                if let last = rows.last, last.phase == "up" {
                    throw fail(1, "expected nothing after the up row on line \(last.line), got \(phase)")
                }
                if let last = rows.last, micros < last.micros {
                    throw fail(
                        0,
                        "expected times that never decrease, got \(fields[0]) ms after a later row (line \(last.line))")
                }
                // The loader's bound on sample times (10⁸ s after the down row), checked here so
                // that an import that succeeds always loads.
                if let down = rows.first {
                    let (time, overflow) = micros.subtractingReportingOverflow(down.micros)
                    guard !overflow, time <= TraceLoader.maxTime else {
                        throw fail(
                            0,
                            "expected a time within 100000000 s (10^11 ms) of the down row on line \(down.line), got \(fields[0]) ms"
                        )
                    }
                }
            }
            rows.append((lineNumber, micros, phase, x, y))
        }
        guard sawHeader else {
            throw TraceError(
                file: file, line: 0, field: "", message: "empty file (expected the header row \(headerRow))")
        }
        guard let down = rows.first else {
            throw TraceError(
                file: file, line: headerLine, field: "", message: "expected at least a down and an up row, got none")
        }
        guard rows.last?.phase == "up" else {
            throw TraceError(
                file: file, line: rows.last?.line ?? headerLine, field: "phase",
                message: "column 2: expected the last row to be up, got \(rows.last?.phase ?? "none")")
        }
        var samples: [TraceSample] = []
        samples.reserveCapacity(rows.count)
        for row in rows {
            guard let location = placement.place(x: row.x, y: row.y, x0: down.x, y0: down.y) else {
                throw TraceError(
                    file: file, line: row.line, field: "x_px",
                    message: "column 3: expected coordinates that stay within ±10000000 pt after scaling")
            }
            let phase: TouchPhase = row.phase == "down" ? .began : (row.phase == "up" ? .ended : .moved)
            let (time, overflow) = row.micros.subtractingReportingOverflow(down.micros)
            if overflow {
                throw TraceError(
                    file: file, line: row.line, field: "t_ms",
                    message: "column 1: expected a time that fits in 64-bit microseconds")
            }
            samples.append(
                TraceSample(time: time, line: 0, kind: .touch(TouchSample(phase: phase, id: 0, location: location))))
        }
        return samples
    }
}

/// Importer for the real-traces axis-scroll schema `t_ms,phase,scroll_delta` (Android
/// AMOTION_EVENT_AXIS_SCROLL recordings: a rotary input's relative steps, not touches).
public enum AxisScrollCSV {
    /// The header row the schema requires, exactly.
    public static let headerRow = "t_ms,phase,scroll_delta"

    /// Converts a recording of relative scroll steps into `scroll` samples of the tracked scroll
    /// view: the content offset along `axis` starts at `start` and moves by each row's delta ×
    /// `pointsPerUnit` (a positive delta scrolls toward the end of the content); times are relative
    /// to the first row, converted exactly from the decimal text (µs, half away from zero). The
    /// samples are observations unless a replay drives the scroll view from them (`--drive-scroll`).
    /// - Parameters:
    ///   - csv: the file's text; file: the name used in errors.
    ///   - pointsPerUnit: pt per AXIS_SCROLL unit, finite and > 0.
    ///   - start: the scroll view's content offset before the first row (pt).
    ///   - vertical: true to scroll along y (top/bottom panels), false along x.
    /// - Throws: `TraceError` (`.invalid`) naming the CSV line, the column and what was expected,
    ///   including a time more than 10⁸ s (10¹¹ ms) after the first row (the loader's bound, so
    ///   that an import that succeeds always loads) and an offset beyond ±10⁷ pt.
    /// - Complexity: O(n) in the size of the text.
    public static func importScroll(
        csv: String, file: String, pointsPerUnit: Double, start: Point,
        vertical: Bool
    ) throws(TraceError) -> [TraceSample] {
        guard pointsPerUnit.isFinite, pointsPerUnit > 0 else {
            throw TraceError(
                file: file, line: 0, field: "points-per-unit",
                message: "expected a finite number > 0, got \(pointsPerUnit)")
        }
        let columns = ["t_ms", "phase", "scroll_delta"]
        var samples: [TraceSample] = []
        var sawHeader = false
        var first: Int64?
        var last: Int64 = .min
        var offset = start
        for (lineNumber, text) in numberedLines(csv) {
            func fail(_ column: Int, _ message: String) -> TraceError {
                TraceError(
                    file: file, line: lineNumber, field: columns[column], message: "column \(column + 1): " + message)
            }
            if !sawHeader {
                guard text == headerRow else {
                    throw TraceError(
                        file: file, line: lineNumber, field: "",
                        message: "expected the header row \(headerRow), got \(quoted(String(text)))")
                }
                sawHeader = true
                continue
            }
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 else {
                throw TraceError(
                    file: file, line: lineNumber, field: "",
                    message: "expected 3 comma-separated fields (\(headerRow)), got \(fields.count)")
            }
            guard let t = ExactDecimal(fields[0]), let micros = t.rounded(shiftingBy: 3) else {
                throw fail(0, "expected a decimal number of milliseconds, got \(quoted(String(fields[0])))")
            }
            guard fields[1] == "scroll" else { throw fail(1, "expected scroll, got \(quoted(String(fields[1])))") }
            guard ExactDecimal(fields[2]) != nil, let delta = Double(fields[2]), delta.isFinite else {
                throw fail(2, "expected a finite decimal number, got \(quoted(String(fields[2])))")
            }
            guard micros >= last else { throw fail(0, "expected times that never decrease, got \(fields[0]) ms") }
            last = micros
            let base = first ?? micros
            first = base
            // The loader's bound on sample times (10⁸ s after the first row), checked here so that
            // an import that succeeds always loads (and so that the difference cannot overflow).
            let (time, overflow) = micros.subtractingReportingOverflow(base)
            guard !overflow, time <= TraceLoader.maxTime else {
                throw fail(0, "expected a time within 100000000 s (10^11 ms) of the first row, got \(fields[0]) ms")
            }
            if vertical { offset.y += delta * pointsPerUnit } else { offset.x += delta * pointsPerUnit }
            guard abs(offset.x) <= 1e7, abs(offset.y) <= 1e7 else {
                throw fail(2, "expected offsets within ±10000000 pt")
            }
            samples.append(TraceSample(time: time, kind: .scroll(ScrollSample(contentOffset: offset))))
        }
        guard sawHeader else {
            throw TraceError(
                file: file, line: 0, field: "", message: "empty file (expected the header row \(headerRow))")
        }
        return samples
    }
}
