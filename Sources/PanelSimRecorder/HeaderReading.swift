/// A trace header read from a panel system's live objects, and what could not be read.
import PanelSimCore

/// A header field a builder could not read from the app's objects: the value in the header is an
/// assumption the app must confirm or replace.
public struct UnreadHeaderField: Sendable, Equatable, CustomStringConvertible {
    /// The field's path in the trace header (trace-format.md §1.1 and the system's spec §2.1), e.g.
    /// `panel.behavior` or `drawer.configuration.timingCurveProvider`.
    public var field: String
    /// Why it cannot be read and what was assumed, e.g. "an @objc optional requirement …; assumed …".
    public var reason: String
    /// How the app gives it: the builder parameter or header property to set.
    public var remedy: String

    public init(field: String, reason: String, remedy: String) {
        self.field = field
        self.reason = reason
        self.remedy = remedy
    }

    /// `field: reason; remedy`.
    public var description: String { "\(field): \(reason); \(remedy)" }
}

/// Thrown when a recording is started from a header with unread fields and the app did not
/// accept the assumptions (`UnreadFieldPolicy.refuse`).
public struct HeaderFieldsMissing: Error, Sendable, Equatable, CustomStringConvertible {
    public var fields: [UnreadHeaderField]
    public init(fields: [UnreadHeaderField]) { self.fields = fields }
    /// One line per field, after a line naming the count.
    public var description: String {
        ([
            "\(fields.count) header field\(fields.count == 1 ? "" : "s") could not be read from the app and must be given:"
        ]
            + fields.map { "  \($0)" }).joined(separator: "\n")
    }
}

/// A header built from live values (a builder's output), before recording starts.
public struct HeaderReading: Sendable, Equatable {
    /// The panel system's trace name (`floatingpanel`, `drawerkit`, `lnpopup`, `uisheet`): the first
    /// part of the recording's file name.
    public var system: String
    /// The header as read, with the assumptions of `unread` in place.
    public var header: TraceHeader
    /// The fields that could not be read, in header order.
    public var unread: [UnreadHeaderField]

    public init(system: String, header: TraceHeader, unread: [UnreadHeaderField] = []) {
        self.system = system
        self.header = header
        self.unread = unread
    }

    /// The header when every field was read.
    /// - Throws: `HeaderFieldsMissing` listing the unread fields.
    public func requireComplete() throws(HeaderFieldsMissing) -> TraceHeader {
        guard unread.isEmpty else { throw HeaderFieldsMissing(fields: unread) }
        return header
    }

    /// Marks `field` as given by the app (after setting it in `header`): it is no longer unread.
    public mutating func supply(_ field: String) {
        unread.removeAll { $0.field == field || $0.field.hasPrefix(field + ".") }
    }

    /// Records that `field` could not be read: the header keeps the assumed value (builders and
    /// adapters).
    public mutating func markUnread(_ field: String, _ reason: String, remedy: String) {
        unread.append(UnreadHeaderField(field: field, reason: reason, remedy: remedy))
    }
}

/// What starting a recording does with a header that has unread fields.
public enum UnreadFieldPolicy: Sendable, Equatable {
    /// Refuse to start (`HeaderFieldsMissing`): every assumption must be confirmed first.
    case refuse
    /// Record with the assumptions, listed in the header's `description` so that the trace says
    /// which of its values were not read from the app.
    case recordAssumptions
}
