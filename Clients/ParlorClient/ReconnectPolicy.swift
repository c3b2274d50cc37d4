/// How the client retries a lost connection: exponential backoff, capped, with jitter so a server
/// restart is not met by every client at the same instant.
public struct ReconnectPolicy: Sendable, Equatable {
    /// The delay before the first retry.
    public var initialDelay: Duration = .milliseconds(200)
    /// No delay is ever longer than this.
    public var maximumDelay: Duration = .seconds(5)
    /// Each retry waits this many times longer than the one before (until `maximumDelay`).
    public var multiplier: Double = 2
    /// The share of each delay that is drawn at random: 0 waits exactly, 1 waits anywhere from 0 to the
    /// full delay. The default waits between half and all of it.
    public var jitter: Double = 0.5
    /// Give up after this many failed attempts in a row (`run()` then throws); nil retries forever.
    public var maxAttempts: Int?

    public init() {}

    /// The delay before retry `attempt` (1-based), given `random` in 0..<1.
    public func delay(forAttempt attempt: Int, random: Double) -> Duration {
        let initial = Self.seconds(initialDelay)
        let cap = Self.seconds(maximumDelay)
        let exponent = Double(max(attempt, 1) - 1)
        let base = min(cap, initial * pow(max(multiplier, 1), exponent))
        let share = min(max(jitter, 0), 1)
        let unit = min(max(random, 0), 1)
        let seconds = base * (1 - share) + base * share * unit
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `base` to the power `exponent`, without Foundation; large exponents saturate.
    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 && result < 1e12 {
            result *= base
            remaining -= 1
        }
        return result
    }
}
