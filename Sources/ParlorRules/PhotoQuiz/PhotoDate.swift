/// When a photo was taken, as the camera's clock showed it (EXIF DateTimeOriginal), with the UTC
/// offset when the camera wrote one. Kept as the camera's local time: "taken at 9 in the morning" is
/// what a player remembers, wherever the server is.
public struct PhotoDate: Sendable, Equatable, Codable {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Minutes east of UTC; nil when unknown.
    public let utcOffsetMinutes: Int?

    /// Nil unless every part is in range, the day within its month's days: the one check of a photo's
    /// date, for the EXIF reader and the stored form alike.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffsetMinutes: Int?) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...CivilCalendar.days(inMonth: month, of: year)).contains(day),
            (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second), utcOffsetMinutes.map({ abs($0) <= 14 * 60 }) ?? true
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// The seed's `displayDate`: the date in the medium style of US English, "Jun 14, 2024".
    public var displayDate: String {
        guard Self.monthNames.indices.contains(month - 1) else { return Self.unknown }
        return "\(Self.monthNames[month - 1]) \(day), \(year)"
    }

    /// `2024-06-14T09:30:00` (the camera's local time), with `+02:00` when the offset is known.
    public var iso8601: String {
        var text = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))"
        if let offset = utcOffsetMinutes {
            text += (offset < 0 ? "-" : "+") + Self.pad(abs(offset) / 60, 2) + ":" + Self.pad(abs(offset) % 60, 2)
        }
        return text
    }

    /// What `iso8601` writes, read back (a view's `takenAt` on the wire): `2024-06-14T09:30:00`, with
    /// `+02:00` when the offset is known; nil for anything else or a date that is not real.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 19 || bytes.count == 25 else { return nil }
        let offset = bytes.count == 25 ? Self.utcOffsetMinutes(bytes[19...]) : nil
        guard bytes.count == 19 || offset != nil else { return nil }
        self.init(localTime: bytes[..<19], dateSeparator: UInt8(ascii: "-"), timeSeparator: UInt8(ascii: "T"), utcOffsetMinutes: offset)
    }

    /// `YYYY-MM-DD HH:MM:SS` with `dateSeparator` between the date's parts and `timeSeparator` before
    /// the time (ISO-8601: `-` and `T`; EXIF: `:` and a space), read from `text`'s first 19 bytes; nil
    /// unless they are exactly that and a real date.
    public init?(localTime text: some Collection<UInt8>, dateSeparator: UInt8, timeSeparator: UInt8, utcOffsetMinutes: Int?) {
        var reader = DigitReader(bytes: Array(text.prefix(19)))
        guard let year = reader.number(4), reader.expect(dateSeparator), let month = reader.number(2), reader.expect(dateSeparator),
            let day = reader.number(2), reader.expect(timeSeparator), let hour = reader.number(2), reader.expect(UInt8(ascii: ":")),
            let minute = reader.number(2), reader.expect(UInt8(ascii: ":")), let second = reader.number(2)
        else { return nil }
        self.init(
            year: Int(year), month: Int(month), day: Int(day), hour: Int(hour), minute: Int(minute), second: Int(second),
            utcOffsetMinutes: utcOffsetMinutes)
    }

    /// `+01:00`, `-05:30` (the first 6 bytes of `text`) → minutes east of UTC; nil for anything else.
    public static func utcOffsetMinutes(_ text: some Collection<UInt8>) -> Int? {
        var reader = DigitReader(bytes: Array(text.prefix(6)))
        guard let sign = reader.sign(), let hours = reader.number(2), reader.expect(UInt8(ascii: ":")), let minutes = reader.number(2),
            hours <= 14, minutes < 60
        else { return nil }
        return Int(sign * (hours * 60 + minutes))
    }

    /// What `displayDate` is when the photo carries no date.
    public static let unknown = "Date unknown"

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
