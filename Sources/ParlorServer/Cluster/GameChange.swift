import Foundation
import ParlorRules

/// One game version committed by a node of a cluster, as announced on the database's notification
/// channels (`ClusterChannel`): who committed which version of which game, and — when it fits the
/// payload — the committed game itself, so that a node with watchers of the game publishes it without
/// reading the database.
struct GameChange: Sendable, Equatable {
    /// The node that committed it (`PostgresStore.node`): a node ignores its own announcements.
    var node: String
    var kind: String
    var id: String
    var version: Int
    /// Wall-clock microseconds when the batch committed, for the fan-out latency on the receiving node
    /// (meaningful across machines only as far as their clocks agree).
    var committedAt: Int64
    /// The game as committed (nil for a deletion, or when it did not fit under PostgreSQL's limit).
    var body: Body?

    /// The committed game in its stored form, as a load would read it.
    struct Body: Sendable, Equatable {
        var schedule: String
        var state: String
    }

    /// The version a deletion is announced with: newer than any save, so every node holding the game
    /// reads it, and finds it gone.
    static let deleted = Int.max

    /// PostgreSQL refuses a payload of 8,000 bytes or more.
    static let maxPayloadBytes = 7_999

    init(node: String, kind: String, id: String, version: Int, committedAt: Int64, body: Body? = nil) {
        (self.node, self.kind, self.id, self.version, self.committedAt, self.body) = (node, kind, id, version, committedAt, body)
    }

    /// `node version committedAt kind id`, the id last on the line because it is the only free-form part
    /// of it (ids are made by the server: never a newline); then, when the game fits, a newline, the
    /// schedule's length in UTF-8 bytes, a space, the schedule and the state.
    var payload: String {
        let header = "\(node) \(version) \(committedAt) \(kind) \(id)"
        guard let body else { return header }
        let withBody = header + "\n\(body.schedule.utf8.count) " + body.schedule + body.state
        return withBody.utf8.count <= Self.maxPayloadBytes ? withBody : header
    }

    /// Whether the announcement carries the game, or only says that it changed.
    var carriesGame: Bool { body != nil }

    /// Nil for a payload this version of Parlor does not understand (another release on the channel).
    init?(payload: String) {
        let utf8 = payload.utf8
        let lineEnd = utf8.firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
        let parts = payload[..<lineEnd].split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let version = Int(parts[1]), let committedAt = Int64(parts[2]), !parts[0].isEmpty,
            !parts[3].isEmpty, !parts[4].isEmpty
        else { return nil }
        (node, self.version, self.committedAt, kind, id) = (String(parts[0]), version, committedAt, String(parts[3]), String(parts[4]))
        guard lineEnd != utf8.endIndex else { return }
        // Bytes, not string indices: a corrupt length must not split a character.
        let rest = Array(utf8[utf8.index(after: lineEnd)...])
        guard let space = rest.firstIndex(of: UInt8(ascii: " ")),
            let length = Int(String(decoding: rest[..<space], as: UTF8.self)), length >= 0, space + 1 + length < rest.count
        else { return nil }
        let scheduleEnd = space + 1 + length
        body = Body(
            schedule: String(decoding: rest[(space + 1)..<scheduleEnd], as: UTF8.self),
            state: String(decoding: rest[scheduleEnd...], as: UTF8.self))
    }

    /// Microseconds since 1970 on this machine's wall clock.
    static func wallClockMicroseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) }
}

/// What every node of a cluster hears, on `ClusterChannel.homes`: a node took a game (`claim`), a
/// draining node let all of its games go (`release`), a node deleted a game (`gone`), a node deleted a
/// player's account (`account-deleted`: every node closes that user's connections and refuses them). All
/// rare: a node's death or restart, a game's end, an account deleted.
enum HomeChange: Sendable, Equatable {
    case claimed(node: String, kind: String, id: String)
    case released(node: String)
    case deleted(node: String, kind: String, id: String)
    /// Announced by the deleting transaction itself (`pg_notify` in it), so it is heard exactly when the
    /// deletion committed.
    case accountDeleted(node: String, user: UserID)

    var payload: String {
        switch self {
        case .claimed(let node, let kind, let id): "claim \(node) \(kind) \(id)"
        case .released(let node): "release \(node)"
        case .deleted(let node, let kind, let id): "gone \(node) \(kind) \(id)"
        case .accountDeleted(let node, let user): "account-deleted \(node) \(user.rawValue)"
        }
    }

    /// The node that said it.
    var node: String {
        switch self {
        case .claimed(let node, _, _), .released(let node), .deleted(let node, _, _), .accountDeleted(let node, _): node
        }
    }

    init?(payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "claim" where parts.count == 4 && !parts[1].isEmpty && !parts[2].isEmpty && !parts[3].isEmpty:
            self = .claimed(node: parts[1], kind: parts[2], id: parts[3])
        case "release" where parts.count == 2 && !parts[1].isEmpty:
            self = .released(node: parts[1])
        case "gone" where parts.count == 4 && !parts[1].isEmpty && !parts[2].isEmpty && !parts[3].isEmpty:
            self = .deleted(node: parts[1], kind: parts[2], id: parts[3])
        case "account-deleted" where parts.count == 3 && !parts[1].isEmpty:
            guard let user = UserID(parts[2]) else { return nil }
            self = .accountDeleted(node: parts[1], user: user)
        default:
            return nil
        }
    }
}

/// The notification channels of a cluster. Each committed game version goes to its game's *watch
/// bucket*, heard only by nodes with watchers of a game in that bucket that they do not serve; a version
/// committed by a node that does not serve the game goes to the serving node's own channel too; claims
/// and releases go to `homes`, which every node hears. So a node hears of the games it serves only what
/// other nodes changed, of the games it watches what is in their buckets, and nothing else.
enum ClusterChannel {
    static let homes = "parlor_homes"

    /// The channel of the node named `name` (names are checked to fit: `ClusterNodeName`).
    static func node(_ name: String) -> String { "parlor_node_" + name }

    /// Buckets the games are spread over for watchers elsewhere: a node listens to a bucket while it has
    /// watchers of a game in it that another node serves.
    static let watchBuckets = 64

    static func watch(_ bucket: Int) -> String { "parlor_watch_\(bucket)" }

    /// A game's bucket: FNV-1a over `kind/id`, the same on every node and every release.
    static func bucket(kind: String, id: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in kind.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        hash = (hash ^ UInt32(UInt8(ascii: "/"))) &* 16_777_619
        for byte in id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(watchBuckets))
    }
}
