import ParlorRules
import ParlorWire

/// A match as the store keeps it: `DartsMatch`'s own Codable shape (so the ordinary decoder reads it
/// back at start-up), written by hand because it is saved on every visit and holds every visit of the
/// match: `JSONEncoder` spent a third of a busy server's CPU on it (`parlor-load darts`, 500 matches).
enum StoredMatchJSON {
    static func encode(_ match: DartsMatch) -> String {
        var json = JSONWriter(capacity: 512 + match.visitCount * 200)
        json.beginObject()
        json.field("id", match.id)
        json.field("code", match.code.rawValue)
        json.key("settings")
        json.beginObject()
        json.field("gameType", match.settings.gameType.rawValue)
        json.field("inRule", match.settings.inRule.rawValue)
        json.field("outRule", match.settings.outRule.rawValue)
        json.field("legs", match.settings.legs)
        if let sets = match.settings.sets { json.field("sets", sets) }
        json.field("capacity", match.settings.capacity)
        json.endObject()
        json.key("createdAt")
        json.int(match.createdAt.millisecondsSinceEpoch)
        json.field("hostId", match.hostId.rawValue)
        json.key("players")
        json.beginArray()
        for player in match.players {
            json.beginObject()
            json.field("id", player.id.rawValue)
            json.field("name", player.name)
            json.field("isGuest", player.isGuest)
            json.field("hasLeft", player.hasLeft)
            json.endObject()
        }
        json.endArray()
        json.field("status", match.status.rawValue)
        json.key("legs")
        json.beginArray()
        for leg in match.legs { write(leg, to: &json) }
        json.endArray()
        if let startedAt = match.startedAt {
            json.key("startedAt")
            json.int(startedAt.millisecondsSinceEpoch)
        }
        if let finishedAt = match.finishedAt {
            json.key("finishedAt")
            json.int(finishedAt.millisecondsSinceEpoch)
        }
        if let winner = match.winner { json.field("winner", winner) }
        if let rematch = match.rematch { json.field("rematch", rematch.rawValue) }
        json.field("version", match.version)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func write(_ leg: DartsLeg, to json: inout JSONWriter) {
        json.beginObject()
        json.field("set", leg.set)
        json.field("number", leg.number)
        json.field("starter", leg.starter)
        json.key("visits")
        json.beginArray()
        for visit in leg.visits {
            json.beginObject()
            json.field("player", visit.player)
            json.field("recordedBy", visit.recordedBy.rawValue)
            json.key("scored")
            write(visit.scored, to: &json)
            json.endObject()
        }
        json.endArray()
        if let winner = leg.winner { json.field("winner", winner) }
        json.endObject()
    }

    private static func write(_ scored: ScoredVisit, to json: inout JSONWriter) {
        json.beginObject()
        // An enum case with one unlabelled value, as Codable synthesizes it: {"total":{"_0":60}}.
        json.key("entry")
        json.beginObject()
        switch scored.entry {
        case .darts(let darts):
            json.key("darts")
            json.beginObject()
            json.key("_0")
            json.beginArray()
            for dart in darts { json.string(dart.notation) }
            json.endArray()
            json.endObject()
        case .total(let total):
            json.key("total")
            json.beginObject()
            json.field("_0", total)
            json.endObject()
        }
        json.endObject()
        json.field("remainingBefore", scored.remainingBefore)
        json.field("openedBefore", scored.openedBefore)
        json.field("total", scored.total)
        json.field("dartsThrown", scored.dartsThrown)
        json.field("isBust", scored.isBust)
        json.field("isCheckout", scored.isCheckout)
        json.field("openedAfter", scored.openedAfter)
        json.endObject()
    }
}
