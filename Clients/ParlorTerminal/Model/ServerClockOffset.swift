import ParlorRules

extension Instant {
    /// How far the server's clock (`serverTime`, ISO 8601, as a view carries it) is ahead of this device's,
    /// read when this device's clock said `self`; nil when the view has no time or it cannot be read.
    /// Screens with deadlines keep it to count down on the server's clock.
    func milliseconds(untilServerTime serverTime: String?) -> Int64? {
        guard let serverTime, let instant = Instant(iso8601: serverTime) else { return nil }
        return milliseconds(until: instant)
    }
}
