import ParlorRules

/// What `/admin/api/…` answers with: JSON for the operator's page, bounded in size.
enum AdminViews {
    /// `GET /admin/api/overview`.
    struct Overview: Encodable, Sendable {
        var connections: Int
        var connectedUsers: Int
        var subscriptions: Int
        /// Live games by kind, then by phase (`waiting`, `playing`, `finished`), as `parlor_games` counts them.
        var games: [String: [String: Int]]
        var rates: Rates
        /// The live games, at most `limit` (oldest code first within a kind); `truncated` when there were more.
        var list: [Game]
        var truncated: Bool
    }

    struct Rates: Encodable, Sendable {
        /// The seconds the rates cover (up to a minute; 0 on the first look).
        var windowSeconds: Double
        var operationsPerSecond: Double
        var errorsPerSecond: Double
        /// Writes the store made durable (saves and deletions of games, accounts, probes) per second.
        var storeCommitsPerSecond: Double
        /// Upper bounds of the latency buckets that half and 99 in 100 requests of the window fell in.
        var latencyP50Seconds: Double?
        var latencyP99Seconds: Double?
    }

    /// One live game.
    struct Game: Encodable, Sendable {
        var kind: String
        var code: String
        var id: String
        var phase: String
        var version: Int
        var members: [Member]
        var subscribers: Int
    }

    struct Member: Encodable, Sendable {
        var userId: UserID
        var connected: Bool
    }

    /// `GET /admin/api/connections`.
    struct Connections: Encodable, Sendable {
        var connections: [Connection]
        var total: Int
        var truncated: Bool
    }

    struct Connection: Encodable, Sendable {
        var id: Int
        var userId: UserID?
        var address: String?
        var subscriptions: Int
        var openedAt: Int64
    }
}
