import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// Requests per second per user and per client address, across the WebSocket and HTTP together: one
/// token bucket per identity, shared by every connection and HTTP request of that user or address,
/// so opening more connections buys nothing.
///
/// Every request counts against its user (when signed in) and its address (unless exempt) — the
/// refused ones too, and frames that cannot even be read. Memory stays bounded by recent activity: a
/// bucket that has refilled completely is indistinguishable from a new one, so idle buckets are
/// dropped as each shard is swept (at most once a second, when it has grown).
final class RequestLimiter: Sendable {
    /// A burst, then a steady rate.
    struct Rate: Sendable, Equatable {
        var burst: Int
        /// Tokens a second; below 1, a token takes longer than a second to come back.
        var perSecond: Double

        init(burst: Int, perSecond: Double) {
            self.burst = burst
            self.perSecond = perSecond
        }
    }

    enum Verdict: Sendable, Equatable {
        case allowed
        /// Refused; a token is there again after this many seconds.
        case limited(retryAfterSeconds: Int)

        var isLimited: Bool { self != .allowed }
    }

    private enum Identity: Hashable {
        case user(UserID)
        case address(ClientAddress)
    }

    private struct Shard {
        var buckets: [Identity: TokenBucket] = [:]
        var lastSweep: NIODeadline
        /// Buckets held after the last sweep; the next sweep waits until there are more than twice this.
        var keptAtSweep = 0
    }

    /// Spread over locks so requests of different identities rarely wait for each other.
    private static let shardCount = 16
    /// A shard this small is not worth sweeping.
    private static let sweepThreshold = 64

    private let userRate: Rate
    private let addressRate: Rate
    private let exemptions: [AddressRange]
    private let shards: [NIOLockedValueBox<Shard>]

    /// The refusal a WebSocket request gets.
    static let refusal = WireError(.rateLimited, "Too many requests; slow down.")

    init(user: Rate, address: Rate, exemptions: [AddressRange], now: NIODeadline = .now()) {
        userRate = user
        addressRate = address
        self.exemptions = exemptions
        shards = (0..<Self.shardCount).map { _ in NIOLockedValueBox(Shard(lastSweep: now)) }
    }

    /// Counts one request of `user` (nil: not signed in) from `address` (nil: no IP, e.g. a test's
    /// embedded channel), and says whether it may be served.
    func admit(user: UserID?, address: SocketAddress?, now: NIODeadline = .now()) -> Verdict {
        var wait = 0
        if let user, case .limited(let seconds) = take(.user(user), rate: userRate, now: now) {
            wait = seconds
        }
        if let client = ClientAddress(address), !exemptions.containsAddress(address),
            case .limited(let seconds) = take(.address(client), rate: addressRate, now: now)
        {
            wait = max(wait, seconds)
        }
        return wait == 0 ? .allowed : .limited(retryAfterSeconds: wait)
    }

    /// Buckets held now, for tests and the metrics.
    var bucketCount: Int { shards.reduce(0) { $0 + $1.withLockedValue { $0.buckets.count } } }

    private func take(_ identity: Identity, rate: Rate, now: NIODeadline) -> Verdict {
        let index = Int(UInt(bitPattern: identity.hashValue) % UInt(Self.shardCount))
        return shards[index].withLockedValue { shard -> Verdict in
            Self.sweepIfDue(&shard, now: now)
            var bucket = shard.buckets[identity] ?? TokenBucket(capacity: rate.burst, refillPerSecond: rate.perSecond, now: now)
            let verdict: Verdict = bucket.take(now: now) ? .allowed : .limited(retryAfterSeconds: bucket.secondsUntilNextToken(now: now))
            shard.buckets[identity] = bucket
            return verdict
        }
    }

    /// Drops the buckets that have refilled, when the shard has grown and a second has passed.
    private static func sweepIfDue(_ shard: inout Shard, now: NIODeadline) {
        guard shard.buckets.count > max(sweepThreshold, 2 * shard.keptAtSweep), now - shard.lastSweep >= .seconds(1) else {
            return
        }
        shard.buckets = shard.buckets.filter { !$0.value.isFull(now: now) }
        shard.lastSweep = now
        shard.keptAtSweep = shard.buckets.count
    }
}
