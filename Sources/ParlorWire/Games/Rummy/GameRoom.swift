import ParlorRules

/// A rummy room on the wire: the rules' own `RummyRoom`, in the seed's field names, plus
/// `playerCount`, `isFinished`, `version` and, once finished, `results`. It holds no fields of its own;
/// `room.id`, `room.createdAt` and the rest read the rules' typed values. On the wire the times are
/// ISO-8601 UTC with milliseconds (the store keeps milliseconds) and each seat carries its
/// `totalScore`; it decodes either form (`Instant` reads ISO-8601 text or milliseconds).
@dynamicMemberLookup
public struct GameRoom: Sendable, Equatable, Codable {
    /// A seat as the rules keep it, sent with its `totalScore` beside its scores (`encode(to:)`). A
    /// room from a server older than `entered` reads it as the rounds with a score other than 0.
    public typealias Player = RummyPlayer

    /// The rules' own results, sent as they are: standings, the winner and the settlement.
    public typealias Results = RummyResults

    /// The room as the rules keep it.
    public let room: RummyRoom

    public init(_ room: RummyRoom) {
        self.room = room
    }

    public subscript<Value>(dynamicMember field: KeyPath<RummyRoom, Value>) -> Value {
        room[keyPath: field]
    }

    public init(from decoder: any Decoder) throws {
        room = try RummyRoom(from: decoder)
    }

    private enum CodingKeys: String, CodingKey {
        case id, pointLimit, pointValue, playerCount, currentRound, isStarted, isFinished, players, createdAt, createdBy, version
        case finishedAt, results, rematch
    }

    private enum PlayerKeys: String, CodingKey {
        case id, name, isReady, isModerator, scores, totalScore, entered
    }

    /// The rules' room in wire spelling: times ISO-8601, each seat with its total (what
    /// `RummyRoomJSON.write(_:as: .wire)` writes faster).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(room.id, forKey: .id)
        try container.encode(room.pointLimit, forKey: .pointLimit)
        try container.encode(room.pointValue, forKey: .pointValue)
        try container.encode(room.playerCount, forKey: .playerCount)
        try container.encode(room.currentRound, forKey: .currentRound)
        try container.encode(room.isStarted, forKey: .isStarted)
        try container.encode(room.isFinished, forKey: .isFinished)
        var seats = container.nestedUnkeyedContainer(forKey: .players)
        for player in room.players {
            var seat = seats.nestedContainer(keyedBy: PlayerKeys.self)
            try seat.encode(player.id, forKey: .id)
            try seat.encode(player.name, forKey: .name)
            try seat.encode(player.isReady, forKey: .isReady)
            try seat.encode(player.isModerator, forKey: .isModerator)
            try seat.encode(player.scores, forKey: .scores)
            try seat.encode(player.totalScore, forKey: .totalScore)
            try seat.encode(player.entered, forKey: .entered)
        }
        try container.encode(room.createdAt.iso8601, forKey: .createdAt)
        try container.encode(room.createdBy, forKey: .createdBy)
        try container.encode(room.version, forKey: .version)
        try container.encodeIfPresent(room.finishedAt?.iso8601, forKey: .finishedAt)
        try container.encodeIfPresent(room.results, forKey: .results)
        try container.encodeIfPresent(room.rematch, forKey: .rematch)
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
