import Foundation

/// One game version committed by a node of a cluster, as announced on the database's notification
/// channel: identifiers and numbers only, so a payload stays far under PostgreSQL's 8,000-byte limit
/// whatever the size of the game.
struct GameChange: Sendable, Equatable {
    /// The node that committed it (`PostgresStore.node`): a node ignores its own announcements.
    var node: String
    var kind: String
    var id: String
    var version: Int
    /// Wall-clock microseconds when the batch committed, for the fan-out latency on the receiving node
    /// (meaningful across machines only as far as their clocks agree).
    var committedAt: Int64

    /// The version a deletion is announced with: newer than any save, so every node holding the game
    /// reads it, and finds it gone.
    static let deleted = Int.max

    /// The channel every node listens on (one for the cluster; see docs/ARCHITECTURE.md for why).
    static let channel = "parlor_games"

    /// `node version committedAt kind id`, the id last because it is the only free-form part.
    var payload: String { "\(node) \(version) \(committedAt) \(kind) \(id)" }

    /// Nil for a payload this version of Parlor does not understand (another release on the channel).
    init?(payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let version = Int(parts[1]), let committedAt = Int64(parts[2]), !parts[3].isEmpty, !parts[4].isEmpty
        else { return nil }
        (node, self.version, self.committedAt, kind, id) = (String(parts[0]), version, committedAt, String(parts[3]), String(parts[4]))
    }

    init(node: String, kind: String, id: String, version: Int, committedAt: Int64) {
        (self.node, self.kind, self.id, self.version, self.committedAt) = (node, kind, id, version, committedAt)
    }

    /// Microseconds since 1970 on this machine's wall clock.
    static func wallClockMicroseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) }
}
