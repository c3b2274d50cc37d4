import NIOCore

/// A rate limit: `capacity` requests at once, refilled at `refillPerSecond`.
struct TokenBucket: Sendable {
    let capacity: Double
    let refillPerSecond: Double
    private var tokens: Double
    private var last: NIODeadline

    init(capacity: Int, refillPerSecond: Int, now: NIODeadline = .now()) {
        self.capacity = Double(capacity)
        self.refillPerSecond = Double(refillPerSecond)
        tokens = Double(capacity)
        last = now
    }

    /// Takes one token if there is one.
    mutating func take(now: NIODeadline = .now()) -> Bool {
        let elapsed = Double((now - last).nanoseconds) / 1e9
        last = now
        tokens = min(capacity, tokens + max(0, elapsed) * refillPerSecond)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
