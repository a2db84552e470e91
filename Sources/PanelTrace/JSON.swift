/// JSON values as the trace and result formats need them. STUB: API fixed, body to be written.

/// A JSON number: its exact source text (for exact decimal conversions such as seconds → µs) and its
/// nearest Double.
public struct JSONNumber: Sendable, Equatable {
    public var text: String
    public var double: Double
    public init(text: String, double: Double) { self.text = text; self.double = double }
}

/// A JSON object that keeps its keys in source order.
public struct JSONObject: Sendable, Equatable {
    public var entries: [(key: String, value: JSONValue)]
    public init(_ entries: [(key: String, value: JSONValue)] = []) { self.entries = entries }
    public subscript(key: String) -> JSONValue? { entries.first { $0.key == key }?.value }
    public var keys: [String] { entries.map(\.key) }
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A parsed JSON value.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A syntax error: 1-based column within the parsed text, and what was expected.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var column: Int
    public var message: String
    public init(column: Int, message: String) { self.column = column; self.message = message }
}

public enum JSON {
    /// Parses one JSON text (one line of a JSON Lines file).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        throw JSONSyntaxError(column: 1, message: "not implemented")
    }
}
