extension Duration {
    /// The duration in seconds, for the APIs that take a `TimeInterval` (`Thread.sleep`) or a number
    /// of seconds (PostgreSQL's `make_interval`).
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
