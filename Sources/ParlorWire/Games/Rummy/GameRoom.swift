import ParlorRules

/// A rummy room on the wire, in the seed's field names, plus `playerCount`, `isFinished`, `version`
/// and, once finished, `results`. Timestamps are ISO-8601 UTC with milliseconds.
public struct GameRoom: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        public let id: UserID
        public let name: String
        public let isReady: Bool
        public let isModerator: Bool
        public let scores: [Int]
        public let totalScore: Int
        /// Beside `scores`: whether that round's score was entered (a round nobody entered counts 0).
        /// Absent from an older server: then nil.
        public let entered: [Bool]?

        public init(id: UserID, name: String, isReady: Bool, isModerator: Bool, scores: [Int], totalScore: Int, entered: [Bool]?) {
            self.id = id
            self.name = name
            self.isReady = isReady
            self.isModerator = isModerator
            self.scores = scores
            self.totalScore = totalScore
            self.entered = entered
        }

        /// Whether round `round` (1-based) has a score someone entered; without `entered`, whether it is
        /// not 0.
        public func hasEntered(round: Int) -> Bool {
            guard scores.indices.contains(round - 1) else { return false }
            guard let entered else { return scores[round - 1] != 0 }
            return entered.indices.contains(round - 1) && entered[round - 1]
        }
    }

    /// The rules' own results, sent as they are: standings, the winner and the settlement.
    public typealias Results = RummyResults

    public let id: String
    public let pointLimit: Int
    public let pointValue: Int
    public let playerCount: Int
    public let currentRound: Int
    public let isStarted: Bool
    public let isFinished: Bool
    public let players: [Player]
    public let createdAt: String
    public let createdBy: UserID
    public let version: Int
    public let finishedAt: String?
    public let results: Results?
    /// The rematch's room code, once the moderator started one: everyone following this room goes there.
    public let rematch: String?

    public init(_ room: RummyRoom) {
        id = room.id.rawValue
        pointLimit = room.pointLimit
        pointValue = room.pointValue
        playerCount = room.playerCount
        currentRound = room.currentRound
        isStarted = room.isStarted
        isFinished = room.isFinished
        players = room.players.map {
            Player(id: $0.id, name: $0.name, isReady: $0.isReady, isModerator: $0.isModerator,
                   scores: $0.scores, totalScore: $0.totalScore, entered: $0.entered)
        }
        createdAt = room.createdAt.iso8601
        createdBy = room.createdBy
        version = room.version
        finishedAt = room.finishedAt?.iso8601
        results = room.results
        rematch = room.rematch?.rawValue
    }
}

/// The reply to `createRoom` and `joinRoom`.
public struct RoomServiceResult: Sendable, Equatable, Codable {
    public let room: GameRoom
    public let currentUserId: UserID

    public init(room: GameRoom, currentUserId: UserID) {
        self.room = room
        self.currentUserId = currentUserId
    }
}

extension EncodedJSON {
    /// A room's public view (`GameRoom`): the same bytes `WireJSON.encode(GameRoom(room))` produces, in
    /// a fraction of the time. It is encoded once for every version of every room.
    public init(gameRoomOf room: RummyRoom) {
        self = RummyRoomJSON.write(room, as: .wire).encoded
    }
}

/// A rummy room as JSON, written by hand in both forms written on every change: `JSONEncoder` costs
/// ~45 µs for an 8-player room. One writer for both, so the two cannot drift apart:
/// - `.wire`: the public view, `GameRoom`'s shape byte for byte (keys sorted, as `WireJSON` writes
///   them; times ISO-8601; each player's total);
/// - `.stored`: what the store keeps, `RummyRoom`'s own Codable shape (times in milliseconds since the
///   epoch), so the ordinary decoder reads it back at start-up.
public enum RummyRoomJSON {
    public enum Form: Sendable {
        case wire, stored
    }

    public static func write(_ room: RummyRoom, as form: Form) -> JSONWriter {
        var json = JSONWriter(capacity: 256 + room.players.count * 160)
        func time(_ key: StaticString, _ instant: Instant) {
            switch form {
            case .wire: json.field(key, instant.iso8601)
            case .stored:
                json.key(key)
                json.int(instant.millisecondsSinceEpoch)
            }
        }
        json.beginObject()
        time("createdAt", room.createdAt)
        json.field("createdBy", room.createdBy.rawValue)
        json.field("currentRound", room.currentRound)
        if let finishedAt = room.finishedAt { time("finishedAt", finishedAt) }
        json.field("id", room.id.rawValue)
        json.field("isFinished", room.isFinished)
        json.field("isStarted", room.isStarted)
        json.field("playerCount", room.playerCount)
        json.key("players")
        json.beginArray()
        for player in room.players {
            json.beginObject()
            json.key("entered")
            json.beginArray()
            for entered in player.entered { json.bool(entered) }
            json.endArray()
            json.field("id", player.id.rawValue)
            json.field("isModerator", player.isModerator)
            json.field("isReady", player.isReady)
            json.field("name", player.name)
            json.key("scores")
            json.beginArray()
            for score in player.scores { json.int(score) }
            json.endArray()
            if form == .wire { json.field("totalScore", player.totalScore) }
            json.endObject()
        }
        json.endArray()
        json.field("pointLimit", room.pointLimit)
        json.field("pointValue", room.pointValue)
        if let rematch = room.rematch { json.field("rematch", rematch.rawValue) }
        if let results = room.results {
            json.key("results")
            json.beginObject()
            json.key("settlement")
            json.beginArray()
            for debt in results.settlement {
                json.beginObject()
                json.field("amount", debt.amount)
                json.field("from", debt.from.rawValue)
                json.field("to", debt.to.rawValue)
                json.endObject()
            }
            json.endArray()
            json.key("standings")
            json.beginArray()
            for standing in results.standings {
                json.beginObject()
                json.field("name", standing.name)
                json.field("playerId", standing.playerId.rawValue)
                json.field("rank", standing.rank)
                json.field("totalScore", standing.totalScore)
                json.endObject()
            }
            json.endArray()
            json.field("winnerId", results.winnerId.rawValue)
            json.endObject()
        }
        json.field("version", room.version)
        json.endObject()
        return json
    }
}
