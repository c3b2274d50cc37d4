/// A point in time: milliseconds since the Unix epoch (UTC).
///
/// The rules never read a clock; the caller passes `now` into every operation that depends on time,
/// so tests drive time by hand and deadlines survive a restart unchanged. Encoded as a bare integer;
/// the wire writes a view's times as ISO-8601 (`iso8601`) by hand.
public struct Instant: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    public static let epoch = Instant(millisecondsSinceEpoch: 0)

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    public func adding(milliseconds: Int64) -> Instant {
        Instant(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
    }

    public func adding(seconds: Int) -> Instant {
        adding(milliseconds: Int64(seconds) * 1000)
    }

    /// Milliseconds from `self` to `later` (negative when `later` is earlier).
    public func milliseconds(until later: Instant) -> Int64 {
        later.millisecondsSinceEpoch - millisecondsSinceEpoch
    }

    /// Milliseconds (as stored), or ISO-8601 text (as the wire writes a view's times), so a rules' view
    /// decodes from either.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let milliseconds = try? container.decode(Int64.self) {
            millisecondsSinceEpoch = milliseconds
            return
        }
        let text = try container.decode(String.self)
        guard let instant = Instant(iso8601: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is neither milliseconds nor an ISO-8601 time.")
        }
        self = instant
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(millisecondsSinceEpoch)
    }

    public var description: String { iso8601 }
}
