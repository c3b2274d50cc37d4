import ParlorRules

extension EncodedJSON {
    /// A match's view, written by hand: the same bytes `WireJSON.encode(view)` produces, at a fraction of
    /// the cost. It is encoded once for every version of every match (every visit).
    public init(matchView view: MatchView) {
        var json = JSONWriter(capacity: 768 + view.players.count * 640)
        // Keys in sorted order, as `WireJSON` writes them.
        json.beginObject()
        json.field("capacity", view.capacity)
        json.key("checkout")
        Self.write(view.checkout, to: &json)
        json.field("createdAt", view.createdAt)
        json.key("currentPlayerId")
        Self.write(view.currentPlayerId?.rawValue, to: &json)
        json.key("finishedAt")
        Self.write(view.finishedAt, to: &json)
        json.field("gameType", view.gameType)
        json.field("hostId", view.hostId.rawValue)
        json.field("id", view.id)
        json.field("inRule", view.inRule)
        json.key("lastVisit")
        if let last = view.lastVisit {
            json.beginObject()
            json.field("number", last.number)
            json.field("playerId", last.playerId.rawValue)
            json.field("recordedBy", last.recordedBy.rawValue)
            json.endObject()
        } else {
            json.null()
        }
        json.field("leg", view.leg)
        json.field("legs", view.legs)
        json.field("outRule", view.outRule)
        json.key("players")
        json.beginArray()
        for player in view.players { Self.write(player, to: &json) }
        json.endArray()
        json.key("rematch")
        Self.write(view.rematch, to: &json)
        json.field("set", view.set)
        json.key("sets")
        if let sets = view.sets { json.int(sets) } else { json.null() }
        json.key("startedAt")
        Self.write(view.startedAt, to: &json)
        json.field("status", view.status)
        json.field("version", view.version)
        json.key("winnerId")
        Self.write(view.winnerId?.rawValue, to: &json)
        json.endObject()
        self = json.encoded
    }

    private static func write(_ player: MatchView.Player, to json: inout JSONWriter) {
        json.beginObject()
        json.field("hasLeft", player.hasLeft)
        json.field("id", player.id.rawValue)
        json.field("isGuest", player.isGuest)
        json.key("legStats")
        write(player.legStats, to: &json)
        json.field("legsWon", player.legsWon)
        json.field("name", player.name)
        json.field("order", player.order)
        json.field("remaining", player.remaining)
        json.field("setsWon", player.setsWon)
        json.key("stats")
        write(player.stats, to: &json)
        json.key("visits")
        json.beginArray()
        for visit in player.visits {
            json.beginObject()
            json.key("darts")
            write(visit.darts, to: &json)
            json.field("dartsThrown", visit.dartsThrown)
            json.field("isBust", visit.isBust)
            json.field("isCheckout", visit.isCheckout)
            json.field("remainingAfter", visit.remainingAfter)
            json.field("total", visit.total)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    private static func write(_ stats: MatchView.Stats, to json: inout JSONWriter) {
        json.beginObject()
        json.key("checkoutPercent")
        writeHundredths(stats.checkoutPercent, to: &json)
        json.field("count100Plus", stats.count100Plus)
        json.field("count140Plus", stats.count140Plus)
        json.field("count180", stats.count180)
        json.field("dartsThrown", stats.dartsThrown)
        json.key("firstNineAverage")
        writeHundredths(stats.firstNineAverage, to: &json)
        json.field("highestCheckout", stats.highestCheckout)
        json.field("legsWon", stats.legsWon ?? 0)
        json.key("threeDartAverage")
        writeHundredths(stats.threeDartAverage, to: &json)
        json.endObject()
    }

    private static func write(_ text: String?, to json: inout JSONWriter) {
        if let text { json.string(text) } else { json.null() }
    }

    private static func write(_ list: [String]?, to json: inout JSONWriter) {
        guard let list else { return json.null() }
        json.beginArray()
        for item in list { json.string(item) }
        json.endArray()
    }

    /// A figure the rules round to two decimals, as JSONEncoder writes it.
    private static func writeHundredths(_ value: Double, to json: inout JSONWriter) {
        json.raw(EncodedJSON(trustedBytes: Array(MatchView.Stats.text(value).utf8)))
    }
}
