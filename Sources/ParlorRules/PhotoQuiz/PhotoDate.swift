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

    /// What `displayDate` is when the photo carries no date.
    public static let unknown = "Date unknown"

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
