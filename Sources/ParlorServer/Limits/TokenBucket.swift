import NIOCore

/// A rate limit: `capacity` requests at once, refilled at `refillPerSecond`.
struct TokenBucket: Sendable {
    let capacity: Double
    let refillPerSecond: Double
    private var tokens: Double
    private var last: NIODeadline

    init(capacity: Int, refillPerSecond: Double, now: NIODeadline = .now()) {
        self.capacity = Double(capacity)
        // At least a token a day: a bucket that never refilled would refuse for good, and Retry-After
        // would be infinite.
        self.refillPerSecond = max(refillPerSecond, 1.0 / 86_400)
        tokens = Double(capacity)
        last = now
    }

    /// Takes one token if there is one.
    mutating func take(now: NIODeadline = .now()) -> Bool {
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Whole seconds until a token is there again (at least 1): what `Retry-After` says.
    func secondsUntilNextToken(now: NIODeadline = .now()) -> Int {
        var bucket = self
        bucket.refill(now: now)
        guard bucket.tokens < 1 else { return 1 }
        return max(1, Int(((1 - bucket.tokens) / refillPerSecond).rounded(.up)))
    }

    /// A bucket that has refilled completely is the same as a new one, so it can be forgotten.
    func isFull(now: NIODeadline = .now()) -> Bool {
        var bucket = self
        bucket.refill(now: now)
        return bucket.tokens >= capacity
    }

    private mutating func refill(now: NIODeadline) {
        let elapsed = Double((now - last).nanoseconds) / 1e9
        last = max(last, now)
        tokens = min(capacity, tokens + max(0, elapsed) * refillPerSecond)
    }
}
