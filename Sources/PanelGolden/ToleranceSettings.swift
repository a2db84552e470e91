import PanelSimCore
import PanelTrace

/// A continuous channel whose tolerance can be set from the command line or a tolerance file.
public enum ToleranceChannel: String, Sendable, Equatable, CaseIterable {
    /// Surface location, pt (frames and `didMove`).
    case location
    /// Scroll content offset, pt.
    case contentOffset
    /// Backdrop alpha, 0…1.
    case backdropAlpha
    /// Velocities of `willEndDragging` (pt/s) and `shouldRemove` (1/s), per component.
    case velocity
    /// Event times. Set in seconds (whole microseconds internally); absolute only.
    case time
}

/// A tolerance setting that cannot be parsed: the offending text and why.
public struct ToleranceSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `file:line: ` prefix when the setting came from a file, else empty.
    public var location: String
    public var message: String
    public init(location: String = "", message: String) {
        self.location = location
        self.message = message
    }
    public var description: String { location + message }
}

/// Per-channel tolerance settings: `CHANNEL=VALUE` on the command line
/// (`check --tolerance location=0.01`, repeatable) and in tolerance files.
///
/// `VALUE` is one of
/// * `X`: an absolute bound (relative 0), e.g. `location=0.01`;
/// * `abs:X`, `rel:Y` or `abs:X,rel:Y` (either order), e.g. `velocity=abs:1e-9,rel:1e-6`.
///
/// A setting replaces the channel's tolerance whole (a part not given is 0). `X` and `Y` are
/// finite, non-negative decimal numbers (`0.01`, `1e-6`). `time` takes an absolute bound in
/// seconds, rounded to whole microseconds, and no `rel:` part.
///
/// A tolerance file (`panelsim.tolerances`) holds one `CHANNEL = VALUE` per line; blank lines and
/// `#` comments are ignored.
public enum ToleranceSettings {
    /// The file name looked up in a trace folder and its parents (up to the trace root).
    public static let fileName = "panelsim.tolerances"

    /// Parses one `CHANNEL=VALUE` setting.
    /// - Throws: `ToleranceSettingError` naming what is wrong (unknown channel, bad number, …).
    /// - Complexity: O(length of text).
    public static func parse(_ text: String) throws(ToleranceSettingError) -> (ToleranceChannel, Tolerance) {
        guard let eq = text.firstIndex(of: "=") else {
            throw ToleranceSettingError(message: "tolerance '\(text)' is not CHANNEL=VALUE (channels: \(channelList))")
        }
        let name = trim(text[..<eq])
        let value = trim(text[text.index(after: eq)...])
        // `t` is the time channel's name in result files and comparison reports.
        guard let channel = ToleranceChannel(rawValue: name == "t" ? "time" : name) else {
            throw ToleranceSettingError(message: "unknown tolerance channel '\(name)' (channels: \(channelList))")
        }
        var tolerance = Tolerance()
        if value.contains(":") {
            var seen: Set<String> = []
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                let kv = part.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let key = kv.count == 2 ? trim(kv[0]) : ""
                guard kv.count == 2, key == "abs" || key == "rel" else {
                    throw ToleranceSettingError(
                        message: "tolerance '\(text)': expected abs:X and/or rel:Y, got '\(trim(part))'")
                }
                guard seen.insert(key).inserted else {
                    throw ToleranceSettingError(message: "tolerance '\(text)': \(key): given twice")
                }
                let number = try number(trim(kv[1]), in: text)
                if key == "abs" { tolerance.absolute = number } else { tolerance.relative = number }
            }
        } else {
            tolerance.absolute = try number(value, in: text)
        }
        if channel == .time && tolerance.relative != 0 {
            throw ToleranceSettingError(message: "tolerance '\(text)': time takes only an absolute bound in seconds")
        }
        return (channel, tolerance)
    }

    /// Parses the text of a tolerance file into settings in file order.
    /// - Parameter file: shown in errors as `file:line: `.
    /// - Throws: `ToleranceSettingError` for the first bad line.
    /// - Complexity: O(length of text).
    public static func parseFile(_ text: String, file: String) throws(ToleranceSettingError) -> [(
        ToleranceChannel, Tolerance
    )] {
        var settings: [(ToleranceChannel, Tolerance)] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = trim(line)
            if trimmed.isEmpty { continue }
            do {
                settings.append(try parse(trimmed))
            } catch {
                throw ToleranceSettingError(location: "\(file):\(number): ", message: error.message)
            }
        }
        return settings
    }

    /// Canonical text of a setting (`abs:X,rel:Y`; time as seconds), for reports and summaries.
    public static func describe(_ channel: ToleranceChannel, in tolerances: Tolerances) -> String {
        let t = tolerances[channel]
        if channel == .time { return CanonicalNumber.formatSeconds(tolerances.time) + " s" }
        return "abs:\(CanonicalNumber.format(t.absolute)),rel:\(CanonicalNumber.format(t.relative))"
    }

    private static var channelList: String { ToleranceChannel.allCases.map(\.rawValue).joined(separator: ", ") }

    private static func trim(_ s: Substring) -> String {
        String(
            s.drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }
                .reversed())
    }

    /// A finite, non-negative decimal number (digits, one point, optional exponent).
    private static func number(_ s: String, in text: String) throws(ToleranceSettingError) -> Double {
        let allowed = s.allSatisfy {
            $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "+" || $0 == "-")
        }
        guard allowed, !s.hasPrefix("-"), let v = Double(s), v.isFinite, v >= 0 else {
            throw ToleranceSettingError(message: "tolerance '\(text)': '\(s)' is not a non-negative number")
        }
        return v
    }
}

extension Tolerances {
    /// The tolerance of a settable channel. For `time` the value is `Tolerance(absolute: µs)`;
    /// setting it rounds the absolute bound (given in µs) half away from zero.
    public subscript(channel: ToleranceChannel) -> Tolerance {
        get {
            switch channel {
            case .location: return location
            case .contentOffset: return contentOffset
            case .backdropAlpha: return backdropAlpha
            case .velocity: return velocity
            case .time: return Tolerance(absolute: Double(time))
            }
        }
        set {
            switch channel {
            case .location: location = newValue
            case .contentOffset: contentOffset = newValue
            case .backdropAlpha: backdropAlpha = newValue
            case .velocity: velocity = newValue
            case .time: time = Microseconds(min(newValue.absolute, 1e15).rounded(.toNearestOrAwayFromZero))
            }
        }
    }

    /// These tolerances with `settings` applied in order (a later setting of a channel wins).
    /// A `time` setting's absolute bound is in seconds.
    /// - Complexity: O(settings).
    public func applying(_ settings: [(ToleranceChannel, Tolerance)]) -> Tolerances {
        var result = self
        for (channel, tolerance) in settings {
            if channel == .time {
                result[.time] = Tolerance(absolute: tolerance.absolute * 1_000_000)
            } else {
                result[channel] = tolerance
            }
        }
        return result
    }
}
