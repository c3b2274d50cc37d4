// ISO-8601 in UTC with milliseconds ("2026-01-30T12:34:56.789Z"), done by hand so the rules need no
// formatter object, no locale and no shared mutable state. Calendar arithmetic: Howard Hinnant's
// days-from-civil / civil-from-days algorithms (proleptic Gregorian).

extension Instant {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, always UTC, always with milliseconds.
    public var iso8601: String {
        let days = Self.floorDivide(millisecondsSinceEpoch, Self.millisecondsPerDay)
        let msOfDay = millisecondsSinceEpoch - days * Self.millisecondsPerDay
        let (year, month, day) = Self.civil(fromDays: days)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let millisecond = msOfDay % 1000
        return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T"
            + "\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2)).\(Self.pad(millisecond, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. Fractions beyond milliseconds are truncated.
    /// Returns nil for anything else, including impossible dates such as February 30.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(4), reader.expect(UInt8(ascii: "-")),
              let month = reader.number(2), reader.expect(UInt8(ascii: "-")),
              let day = reader.number(2), reader.expect(UInt8(ascii: "T")) || reader.expect(UInt8(ascii: "t")),
              let hour = reader.number(2), reader.expect(UInt8(ascii: ":")),
              let minute = reader.number(2), reader.expect(UInt8(ascii: ":")),
              let second = reader.number(2)
        else { return nil }
        var millisecond: Int64 = 0
        if reader.expect(UInt8(ascii: ".")) {
            var digits = 0
            var scale: Int64 = 100
            while let digit = reader.digit() {
                if digits < 3 { millisecond += digit * scale; scale /= 10 }
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetMinutes: Int64 = 0
        if reader.expect(UInt8(ascii: "Z")) || reader.expect(UInt8(ascii: "z")) {
            offsetMinutes = 0
        } else if let sign = reader.sign(), let offsetHours = reader.number(2), reader.expect(UInt8(ascii: ":")),
                  let offsetMins = reader.number(2), offsetHours < 24, offsetMins < 60 {
            offsetMinutes = sign * (offsetHours * 60 + offsetMins)
        } else {
            return nil
        }
        guard reader.isAtEnd, (1...12).contains(month), day >= 1,
              day <= Self.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = Self.days(fromCivilYear: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        self.init(millisecondsSinceEpoch: seconds * 1000 + millisecond)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(fromCivilYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        Int64(CivilCalendar.days(inMonth: Int(month), of: Int(year)))
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// Reads fixed-width decimal numbers and single bytes off the front of a text (ISO-8601 instants, a
/// photo's local date and time).
struct DigitReader {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    mutating func digit() -> Int64? {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else {
            return nil
        }
        defer { index += 1 }
        return Int64(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func number(_ width: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<width {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if expect(UInt8(ascii: "+")) { return 1 }
        if expect(UInt8(ascii: "-")) { return -1 }
        return nil
    }
}
