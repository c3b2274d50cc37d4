import ParlorRules

extension EventName {
    /// Who of a game's players is connected (`PresenceView`), on the game's own subscription.
    public static let presence = EventName(rawValue: "presence")
}

/// Who of a live game's players is connected now, as every game's stream carries it beside its views.
///
/// Not part of the game: it has no `version` and changes none. The server sends it after the first
/// view of a subscription and again whenever it changes, settled (a player whose connections all closed
/// is shown away a few seconds later, a reconnect within that grace is never sent). Each event replaces
/// the last one whole.
public struct PresenceView: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        public let userId: UserID
        public let online: Bool

        public init(userId: UserID, online: Bool) {
            self.userId = userId
            self.online = online
        }
    }

    /// The game's players with accounts, in seat order.
    public let players: [Player]

    public init(players: [Player]) {
        self.players = players
    }

    /// The view as the server sends it, written by hand (it is encoded on every change of every
    /// game's presence); the same bytes as `WireJSON.encoder()` writes.
    public var encoded: EncodedJSON {
        var writer = JSONWriter(capacity: 32 + players.count * 64)
        writer.beginObject()
        writer.key("players")
        writer.beginArray()
        for player in players {
            writer.beginObject()
            writer.field("online", player.online)
            writer.field("userId", player.userId.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.encoded
    }

    /// Whether `user` is shown connected: nil when this view does not know them (a player who sat down
    /// after it was sent, until the next one arrives).
    public func isOnline(_ user: UserID) -> Bool? {
        players.first { $0.userId == user }?.online
    }
}
