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
}
