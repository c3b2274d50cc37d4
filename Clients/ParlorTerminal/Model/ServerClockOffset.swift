import ParlorRules

extension Instant {
    /// How far the server's clock (`serverTime`, as a view carries it) is ahead of this device's,
    /// read when this device's clock said `self`; nil when the view has no time.
    /// Screens with deadlines keep it to count down on the server's clock.
    func milliseconds(untilServerTime serverTime: Instant?) -> Int64? {
        serverTime.map(milliseconds(until:))
    }
}
