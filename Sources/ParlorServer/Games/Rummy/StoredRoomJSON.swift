import ParlorRules
import ParlorWire

/// A room as the store keeps it: `RummyRoom`'s own Codable shape (so the ordinary decoder reads it back
/// at start-up), written by hand because it is written on every change and `JSONEncoder` costs ~45 µs
/// for an 8-player room.
enum StoredRoomJSON {
    static func encode(_ room: RummyRoom) -> String {
        var json = JSONWriter(capacity: 256 + room.players.count * 128)
        json.beginObject()
        json.field("id", room.id.rawValue)
        json.field("pointLimit", room.pointLimit)
        json.field("pointValue", room.pointValue)
        json.field("playerCount", room.playerCount)
        json.field("currentRound", room.currentRound)
        json.field("isStarted", room.isStarted)
        json.field("isFinished", room.isFinished)
        json.key("players")
        json.beginArray()
        for player in room.players {
            json.beginObject()
            json.field("id", player.id.rawValue)
            json.field("name", player.name)
            json.field("isReady", player.isReady)
            json.field("isModerator", player.isModerator)
            json.key("scores")
            json.beginArray()
            for score in player.scores { json.int(score) }
            json.endArray()
            json.key("entered")
            json.beginArray()
            for entered in player.entered { json.bool(entered) }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.key("createdAt")
        json.int(room.createdAt.millisecondsSinceEpoch)
        json.field("createdBy", room.createdBy.rawValue)
        json.field("version", room.version)
        if let results = room.results {
            json.key("results")
            json.beginObject()
            json.key("standings")
            json.beginArray()
            for standing in results.standings {
                json.beginObject()
                json.field("playerId", standing.playerId.rawValue)
                json.field("name", standing.name)
                json.field("totalScore", standing.totalScore)
                json.field("rank", standing.rank)
                json.endObject()
            }
            json.endArray()
            json.field("winnerId", results.winnerId.rawValue)
            json.key("settlement")
            json.beginArray()
            for debt in results.settlement {
                json.beginObject()
                json.field("from", debt.from.rawValue)
                json.field("to", debt.to.rawValue)
                json.field("amount", debt.amount)
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        if let finishedAt = room.finishedAt {
            json.key("finishedAt")
            json.int(finishedAt.millisecondsSinceEpoch)
        }
        if let rematch = room.rematch { json.field("rematch", rematch.rawValue) }
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
