/// The proleptic Gregorian calendar's one rule a date check needs: how many days a month has. Every
/// date Parlor reads (ISO-8601 instants, a photo's EXIF date) is checked against it.
public enum CivilCalendar {
    /// 28…31 for `month` 1…12 of `year`; 31 for a month out of range (callers check the month first).
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
