import ParlorRules
import Testing

/// A photo's date is checked once, by `PhotoDate`, for the EXIF reader and the stored form alike: the
/// day against its month's days (the two copies this replaced disagreed: one allowed February 30).
@Suite struct PhotoDateTests {
    @Test func theDayIsCheckedAgainstItsMonth() {
        func date(_ year: Int, _ month: Int, _ day: Int) -> PhotoDate? {
            PhotoDate(year: year, month: month, day: day, hour: 9, minute: 30, second: 0, utcOffsetMinutes: nil)
        }
        #expect(date(2024, 2, 29) != nil)
        #expect(date(2023, 2, 29) == nil)
        #expect(date(2024, 2, 30) == nil)
        #expect(date(2024, 4, 31) == nil)
        #expect(date(2024, 12, 31)?.iso8601 == "2024-12-31T09:30:00")
    }

    /// The wire's `takenAt` reads back as the date it was written from (the EXIF reader shares the
    /// reading, with its own separators); anything else is refused.
    @Test func iso8601ReadsBackWhatItWrites() throws {
        let withOffset = try #require(PhotoDate(year: 2024, month: 6, day: 14, hour: 9, minute: 30, second: 5, utcOffsetMinutes: -330))
        #expect(withOffset.iso8601 == "2024-06-14T09:30:05-05:30")
        #expect(PhotoDate(iso8601: withOffset.iso8601) == withOffset)
        let local = try #require(PhotoDate(year: 2024, month: 6, day: 14, hour: 9, minute: 30, second: 5, utcOffsetMinutes: nil))
        #expect(PhotoDate(iso8601: "2024-06-14T09:30:05") == local)
        #expect(PhotoDate(localTime: "2024:06:14 09:30:05\0".utf8, dateSeparator: UInt8(ascii: ":"), timeSeparator: UInt8(ascii: " "),
                          utcOffsetMinutes: PhotoDate.utcOffsetMinutes("-05:30".utf8)) == withOffset)
        for bad in ["2024-02-30T09:30:00", "2024-06-14 09:30:00", "2024-06-14T09:30:00Z", "2024-06-14T09:30:00+2:00", "2024-06-14T9:30:00", ""] {
            #expect(PhotoDate(iso8601: bad) == nil, "\(bad)")
        }
        #expect(PhotoDate.utcOffsetMinutes("+14:30".utf8) == 870 && PhotoDate.utcOffsetMinutes("+15:00".utf8) == nil)
    }
}
