import PanelSimCore

/// Reads typed values out of JSON for one line, turning every mismatch into a `TraceError`.
struct FieldReader {
    let file: String
    let line: Int

    func error(_ field: String, _ message: String, _ kind: TraceError.Kind = .invalid) -> TraceError {
        TraceError(file: file, line: line, field: field, message: message, kind: kind)
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return "a boolean (\(b))"
        case .number(let n): return "a number (\(n.text.count > 40 ? String(n.text.prefix(40)) + "…" : n.text))"
        case .string(let s): return "a string (\(quoted(s)))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func object(_ v: JSONValue, _ path: String) throws(TraceError) -> JSONObject {
        guard case .object(let o) = v else { throw error(path, "expected an object, got \(Self.describe(v))") }
        return o
    }

    func array(_ v: JSONValue, _ path: String) throws(TraceError) -> [JSONValue] {
        guard case .array(let a) = v else { throw error(path, "expected an array, got \(Self.describe(v))") }
        return a
    }

    func string(_ v: JSONValue, _ path: String) throws(TraceError) -> String {
        guard case .string(let s) = v else { throw error(path, "expected a string, got \(Self.describe(v))") }
        return s
    }

    func bool(_ v: JSONValue, _ path: String) throws(TraceError) -> Bool {
        guard case .bool(let b) = v else { throw error(path, "expected true or false, got \(Self.describe(v))") }
        return b
    }

    /// A finite number.
    func jsonNumber(_ v: JSONValue, _ path: String) throws(TraceError) -> JSONNumber {
        guard case .number(let n) = v else { throw error(path, "expected a number, got \(Self.describe(v))") }
        guard n.double.isFinite else {
            throw error(
                path,
                "expected a finite number, got \(n.text.count > 40 ? String(n.text.prefix(40)) + "…" : n.text) (out of the range of a double)"
            )
        }
        return n
    }

    enum Range {
        case any, positive, nonNegative, unitInterval, openUnitInterval
        var text: String {
            switch self {
            case .any: return "a finite number"
            case .positive: return "a number > 0"
            case .nonNegative: return "a number ≥ 0"
            case .unitInterval: return "a number in [0, 1]"
            case .openUnitInterval: return "a number in (0, 1), exclusive"
            }
        }
        func contains(_ d: Double) -> Bool {
            switch self {
            case .any: return true
            case .positive: return d > 0
            case .nonNegative: return d >= 0
            case .unitInterval: return d >= 0 && d <= 1
            case .openUnitInterval: return d > 0 && d < 1
            }
        }
    }

    /// The largest magnitude accepted for a coordinate, length, velocity or ratio (pt, pt/s): far
    /// beyond any screen, small enough that no sum or projection of such values overflows.
    static let maxMagnitude = 1e7

    func number(_ v: JSONValue, _ path: String, _ range: Range = .any) throws(TraceError) -> Double {
        let n = try jsonNumber(v, path)
        guard range.contains(n.double) else { throw error(path, "expected \(range.text), got \(n.text)") }
        guard abs(n.double) <= Self.maxMagnitude else {
            throw error(
                path,
                "expected a magnitude ≤ 10000000, got \(n.text.count > 40 ? String(n.text.prefix(40)) + "…" : n.text)")
        }
        return n.double
    }

    /// A whole number ≥ `minimum` that fits in Int.
    func integer(_ v: JSONValue, _ path: String, minimum: Int = Int.min) throws(TraceError) -> Int {
        let n = try jsonNumber(v, path)
        let bound = minimum == Int.min ? "an integer" : "an integer ≥ \(minimum)"
        guard let d = ExactDecimal(n.text), let i = d.integerValue else {
            throw error(path, "expected \(bound), got \(n.text)")
        }
        guard i >= minimum else { throw error(path, "expected \(bound), got \(n.text)") }
        return i
    }

    /// One of `cases` (a string).
    func choice(_ v: JSONValue, _ path: String, _ cases: [String]) throws(TraceError) -> String {
        guard case .string(let s) = v else {
            throw error(path, "expected one of \(Self.list(cases)), got \(Self.describe(v))")
        }
        guard cases.contains(s) else { throw error(path, "expected one of \(Self.list(cases)), got \(quoted(s))") }
        return s
    }

    /// One of `E`'s cases, named by its raw value (`choice(_:_:_:)` over `E.allCases`).
    func choice<E: CaseIterable & RawRepresentable>(_ v: JSONValue, _ path: String, of type: E.Type) throws(TraceError)
        -> E
    where E.RawValue == String {
        let cases = Array(E.allCases)
        let names = cases.map(\.rawValue)
        let name = try choice(v, path, names)
        return cases[names.firstIndex(of: name) ?? 0]
    }

    func state(_ v: JSONValue, _ path: String, _ states: StateTable) throws(TraceError) -> FloatingPanelState {
        let name = try string(v, path)
        return try stateNamed(name, path, states)
    }

    func stateNamed(_ name: String, _ path: String, _ states: StateTable) throws(TraceError) -> FloatingPanelState {
        guard let s = states.lookup(name) else {
            throw error(path, "unknown state \(quotedSingle(name)) (known: \(states.listing))")
        }
        return s
    }

    func stateNames(_ v: JSONValue, _ path: String, _ states: StateTable) throws(TraceError) -> [String] {
        let items = try array(v, path)
        var names: [String] = []
        for (k, item) in items.enumerated() {
            names.append(try state(item, "\(path)[\(k)]", states).name)
        }
        return names
    }

    func required(_ o: JSONObject, _ key: String, _ path: String, _ what: String) throws(TraceError) -> JSONValue {
        guard let v = o[key] else { throw error(Self.join(path, key), "missing required field (expected \(what))") }
        return v
    }

    /// Rejects keys outside `allowed`, naming the first one and suggesting a close match.
    func checkKeys(_ o: JSONObject, _ path: String, _ allowed: [String]) throws(TraceError) {
        for entry in o.entries where !allowed.contains(entry.key) {
            let key = entry.key
            var message = "unknown key \(quotedSingle(key))"
            if let near = Self.nearest(key, allowed) { message += " (did you mean \(quotedSingle(near))?)" }
            message += "; expected one of \(Self.list(allowed))"
            throw error(Self.join(path, key), message)
        }
    }

    static func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    /// The allowed name within edit distance 2 (case-insensitive) of `key`, if any.
    static func nearest(_ key: String, _ allowed: [String]) -> String? {
        let a = Array(key.lowercased().unicodeScalars)
        guard a.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in allowed {
            let b = Array(candidate.lowercased().unicodeScalars)
            var previous = Array(0...b.count)
            for (i, ca) in a.enumerated() {
                var current = [i + 1] + Array(repeating: 0, count: b.count)
                for (j, cb) in b.enumerated() {
                    current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
                }
                previous = current
            }
            let d = previous[b.count]
            if d <= 2, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }
}

/// `name` in single quotes, control characters escaped.
func quotedSingle(_ name: String) -> String {
    let q = quoted(name)
    return "'" + q.dropFirst().dropLast() + "'"
}
