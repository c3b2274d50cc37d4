/// The time left in a round as a person reads it: "1:05", "0:09", "0:00".
public enum Countdown {
    /// Whole seconds left, rounded up, so "0:00" appears only once the deadline has passed.
    public static func seconds(_ milliseconds: Int64) -> Int64 {
        milliseconds <= 0 ? 0 : (milliseconds + 999) / 1000
    }

    public static func text(_ milliseconds: Int64) -> String {
        let total = seconds(milliseconds)
        let remainder = total % 60
        return "\(total / 60):\(remainder < 10 ? "0" : "")\(remainder)"
    }

    /// Seconds left at which the countdown turns to a warning.
    public static let hurrySeconds: Int64 = 10
}
