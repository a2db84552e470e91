/// The loader's fast path for the commonest sample line, a `touch` sample with plain numbers
/// (trace-format.md §1.2), read straight from the file's bytes.

import PanelSimCore

/// Reads one `touch` sample line without building a `JSONValue` tree or any `String`.
///
/// It accepts only lines that the general path (`JSON.parse` + `TraceLoader.parseSample`) reads
/// without error, and then gives exactly what the general path gives: the same `TraceSample` (time
/// in µs, line, phase, finger id, location and velocity with the same `Double` bits) and the same
/// changes to the `SampleSequence`. Everything else — other sample kinds, string escapes, numbers
/// outside the exact fast conversion below, values out of range, a time going backwards, a touch
/// sequence error, any syntax error — makes it return nil *without touching the sequence*, and the
/// caller then parses the line with the general path, which produces the value or the error
/// message it always did.
///
/// Accepted shape: `{` members `}` with optional JSON whitespace (space, tab, CR) anywhere between
/// tokens; members in any order, each at most once: `"t"` (required; digits with an optional
/// fraction, no sign or exponent), `"touch"` (required; `"began"`, `"moved"`, `"stationary"`,
/// `"ended"` or `"cancelled"` without escapes), `"id"` (optional; digits), `"x"`, `"y"` (required
/// numbers), `"velocity"` (optional; `null` or an object of exactly `"x"` and `"y"`).
///
/// Numbers: the JSON grammar's digits give an integer mantissa m and a power of ten e, converted by
/// ``ExactDouble`` (m ≤ 2⁵³ and |e| ≤ 22: one correctly rounded IEEE operation, bit for bit
/// `Double(text)`). Other numbers send the line to the general path.
enum TouchLineFastPath {
    /// Appends the touch sample on bytes `lo..<hi` of `b` (one line without its line break) to
    /// `samples` and returns true, or returns false, changing nothing, when the line needs the
    /// general path. On success `sequence` is updated as `parseSample` would update it.
    /// - Parameters:
    ///   - b: the file's bytes (the loader's buffer; offsets are into it).
    ///   - line: the 1-based line number, stored in the sample and in `sequence`.
    /// - Complexity: O(hi − lo); no allocation beyond the sample list's own growth.
    static func append(
        _ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, line: Int,
        sequence: inout SampleSequence, to samples: inout [TraceSample]
    ) -> Bool {
        guard let f = parse(b, lo, hi, line: line, sequence: &sequence) else { return false }
        // Built in the argument position so that the 160-byte sample is initialized in place.
        samples.append(
            TraceSample(
                time: f.time, line: line,
                kind: .touch(TouchSample(phase: f.phase, id: f.id, location: f.location, velocity: f.velocity))))
        return true
    }

    /// What a touch line says.
    struct Fields {
        var time: Microseconds
        var phase: TouchPhase
        var id: Int
        var location: Point
        var velocity: Point?
    }

    /// The fields of the touch line on bytes `lo..<hi` of `b`, or nil (sequence untouched) for the
    /// general path.
    @inline(__always)
    static func parse(
        _ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, line: Int,
        sequence: inout SampleSequence
    ) -> Fields? {
        if sequence.endLine != nil { return nil }
        var cursor = Cursor(b: b, i: lo, end: hi)
        cursor.skipWhitespace()
        guard cursor.take(UInt8(ascii: "{")) else { return nil }

        var seen: UInt8 = 0
        var time: Int64 = 0
        var timeValue = 0.0
        var timeStart = 0
        var timeEnd = 0
        var phase = TouchPhase.began
        var id = 0
        var x = 0.0
        var y = 0.0
        var velocity: Point?
        while true {
            cursor.skipWhitespace()
            guard let key = cursor.key() else { return nil }
            guard seen & key.rawValue == 0 else { return nil }
            seen |= key.rawValue
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: ":")) else { return nil }
            cursor.skipWhitespace()
            switch key {
            case .t:
                timeStart = cursor.i
                guard let (micros, value) = cursor.time() else { return nil }
                timeEnd = cursor.i
                time = micros
                timeValue = value
            case .touch:
                guard let p = cursor.phase() else { return nil }
                phase = p
            case .id:
                guard let v = cursor.wholeNumber() else { return nil }
                id = v
            case .x:
                guard let v = cursor.coordinate() else { return nil }
                x = v
            case .y:
                guard let v = cursor.coordinate() else { return nil }
                y = v
            case .velocity:
                if cursor.take(word: "null") {
                    velocity = nil
                } else {
                    guard let v = cursor.velocity() else { return nil }
                    velocity = v
                }
            }
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: ",")) { continue }
            guard cursor.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        cursor.skipWhitespace()
        guard cursor.i == hi else { return nil }
        let required = Key.t.rawValue | Key.touch.rawValue | Key.x.rawValue | Key.y.rawValue
        guard seen & required == required else { return nil }

        // The general path's checks, in its order; any failure is left to it for the message.
        guard time <= TraceLoader.maxTime else { return nil }
        let hasPrevious = sequence.lastTimeText != nil || sequence.pendingTimeText != nil
        if hasPrevious, time < sequence.lastTime || timeValue < sequence.lastTimeValue { return nil }
        let wasDown = sequence.down[id]
        switch phase {
        case .began: if wasDown != nil { return nil }
        case .moved, .stationary, .ended, .cancelled: if wasDown == nil { return nil }
        }

        // Commit, as `parseSample` and `parseTouch` do.
        sequence.lastTime = time
        sequence.lastTimeValue = timeValue
        sequence.lastTimeText = nil
        sequence.pendingTimeText = timeStart..<timeEnd
        sequence.lastTimeLine = line
        switch phase {
        case .began: sequence.down[id] = line
        case .ended, .cancelled: sequence.down[id] = nil
        case .moved, .stationary: break
        }
        return Fields(time: time, phase: phase, id: id, location: Point(x: x, y: y), velocity: velocity)
    }

    /// The keys of a touch line, as bits of a seen-set.
    enum Key: UInt8 {
        case t = 1, touch = 2, id = 4, x = 8, y = 16, velocity = 32
    }

    /// A read position in one line.
    struct Cursor {
        let b: UnsafeBufferPointer<UInt8>
        var i: Int
        let end: Int

        @inline(__always)
        func peek() -> UInt8? { i < end ? b[i] : nil }

        @inline(__always)
        mutating func skipWhitespace() {
            while i < end, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D { i += 1 }
        }

        @inline(__always)
        mutating func take(_ c: UInt8) -> Bool {
            guard i < end, b[i] == c else { return false }
            i += 1
            return true
        }

        /// Consumes `word` (ASCII) when the bytes at the cursor spell it.
        mutating func take(word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard end - i >= n else { return false }
            let w = word.utf8Start
            for k in 0..<n where b[i + k] != w[k] { return false }
            i += n
            return true
        }

        /// The bytes of a string without escapes or control/non-ASCII bytes, after its opening
        /// quote; the cursor ends after the closing quote. nil for anything else.
        mutating func plainString() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < end {
                let c = b[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    return start..<(i - 1)
                }
                if c < 0x20 || c >= 0x80 || c == UInt8(ascii: "\\") { return nil }
                i += 1
            }
            return nil
        }

        func equals(_ r: Range<Int>, _ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard r.count == n else { return false }
            let w = word.utf8Start
            for k in 0..<n where b[r.lowerBound + k] != w[k] { return false }
            return true
        }

        mutating func key() -> Key? {
            guard let r = plainString() else { return nil }
            switch r.count {
            case 1:
                switch b[r.lowerBound] {
                case UInt8(ascii: "t"): return .t
                case UInt8(ascii: "x"): return .x
                case UInt8(ascii: "y"): return .y
                default: return nil
                }
            case 2: return equals(r, "id") ? .id : nil
            case 5: return equals(r, "touch") ? .touch : nil
            case 8: return equals(r, "velocity") ? .velocity : nil
            default: return nil
            }
        }

        mutating func phase() -> TouchPhase? {
            guard let r = plainString() else { return nil }
            if equals(r, "moved") { return .moved }
            if equals(r, "began") { return .began }
            if equals(r, "ended") { return .ended }
            if equals(r, "stationary") { return .stationary }
            if equals(r, "cancelled") { return .cancelled }
            return nil
        }

        /// A JSON number as `(negative, mantissa, exponent, integer digits, fraction digits,
        /// has exponent part)`; nil when the text breaks the JSON grammar or the mantissa would
        /// exceed 19 digits' worth (UInt64).
        mutating func number() -> (
            negative: Bool, mantissa: UInt64, exponent: Int,
            integerValue: UInt64, fraction: Range<Int>, hasExponent: Bool
        )? {
            var negative = false
            if take(UInt8(ascii: "-")) { negative = true }
            guard i < end, isDigit(b[i]) else { return nil }
            var mantissa: UInt64 = 0
            if b[i] == UInt8(ascii: "0") {
                i += 1
                if i < end, isDigit(b[i]) { return nil }  // leading zero
            } else {
                while i < end, isDigit(b[i]) {
                    guard mantissa <= (UInt64.max - 9) / 10 else { return nil }
                    mantissa = mantissa * 10 + UInt64(b[i] &- 0x30)
                    i += 1
                }
            }
            let integerValue = mantissa
            var exponent = 0
            var fraction = i..<i
            if take(UInt8(ascii: ".")) {
                let start = i
                guard i < end, isDigit(b[i]) else { return nil }
                while i < end, isDigit(b[i]) {
                    guard mantissa <= (UInt64.max - 9) / 10 else { return nil }
                    mantissa = mantissa * 10 + UInt64(b[i] &- 0x30)
                    exponent -= 1
                    i += 1
                }
                fraction = start..<i
            }
            var hasExponent = false
            if i < end, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                hasExponent = true
                i += 1
                var expNegative = false
                if i < end, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                    expNegative = b[i] == UInt8(ascii: "-")
                    i += 1
                }
                guard i < end, isDigit(b[i]) else { return nil }
                var e = 0
                while i < end, isDigit(b[i]) {
                    guard e < 10_000 else { return nil }
                    e = e * 10 + Int(b[i] &- 0x30)
                    i += 1
                }
                exponent += expNegative ? -e : e
            }
            return (negative, mantissa, exponent, integerValue, fraction, hasExponent)
        }

        /// The number's correctly rounded Double when the exact fast conversion applies, else nil.
        @inline(__always)
        static func double(negative: Bool, mantissa: UInt64, exponent: Int) -> Double? {
            ExactDouble.value(negative: negative, mantissa: mantissa, exponent: exponent)
        }

        /// A coordinate or velocity component: a finite number of magnitude ≤ 10⁷ (`FieldReader.number`).
        mutating func coordinate() -> Double? {
            guard let n = number(),
                let v = Self.double(negative: n.negative, mantissa: n.mantissa, exponent: n.exponent),
                abs(v) <= FieldReader.maxMagnitude
            else { return nil }
            return v
        }

        /// A finger id: plain digits (`FieldReader.integer` with minimum 0 accepts more; those go
        /// to the general path).
        mutating func wholeNumber() -> Int? {
            guard let n = number(), !n.negative, n.fraction.isEmpty, !n.hasExponent,
                n.mantissa <= UInt64(Int.max)
            else { return nil }
            return Int(n.mantissa)
        }

        /// A time in seconds without sign or exponent: its µs, rounded half up on the 7th
        /// fraction digit as `ExactDecimal.rounded(shiftingBy: 6)` does, and its Double.
        mutating func time() -> (Int64, Double)? {
            guard let n = number(), !n.negative, !n.hasExponent,
                n.integerValue <= 100_000_000,  // 10⁸ s (larger: the general path's range error)
                let value = Self.double(negative: false, mantissa: n.mantissa, exponent: n.exponent)
            else { return nil }
            var micros = Int64(n.integerValue) * 1_000_000
            var scale: Int64 = 100_000
            var k = n.fraction.lowerBound
            while k < n.fraction.upperBound, scale > 0 {
                micros += Int64(b[k] &- 0x30) * scale
                scale /= 10
                k += 1
            }
            if k < n.fraction.upperBound, b[k] >= UInt8(ascii: "5") { micros += 1 }
            return (micros, value)
        }

        /// `{"x": number, "y": number}` in either order, nothing else.
        mutating func velocity() -> Point? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var vx: Double?
            var vy: Double?
            while true {
                skipWhitespace()
                guard let key = key() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                switch key {
                case .x where vx == nil:
                    vx = coordinate()
                    if vx == nil { return nil }
                case .y where vy == nil:
                    vy = coordinate()
                    if vy == nil { return nil }
                default: return nil
                }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                break
            }
            guard let vx, let vy else { return nil }
            return Point(x: vx, y: vy)
        }

        @inline(__always)
        func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
    }
}
