import ParlorRules
import ParlorWire
import WebSocketCore

/// The event frames of one lobby version: the public `lobby` frame, encoded once and shared by every
/// subscriber, and one `lobbyPrivate` frame per player, holding that player's own words.
struct LobbyFrames: Sendable {
    let version: Int
    let lobby: PreparedMessage
    let privateFrames: [UserID: PreparedMessage]

    /// Encodes `lobby` as published at `now` (the public view's `serverTime`).
    init(_ lobby: WordLobby, topic: Int, at now: Instant) throws(WireError) {
        version = lobby.version
        let data = try Self.encode(LobbyEventData(view: LobbyView(lobby), serverTime: now.iso8601))
        self.lobby = PreparedMessage(json: EventMessage.frame(subscription: topic, event: .lobby, data: data))
        var privateFrames: [UserID: PreparedMessage] = [:]
        privateFrames.reserveCapacity(lobby.players.count)
        // Every player gets a private frame with every version, so a subscriber whose stream skipped
        // versions (conflation) still ends on its own newest words.
        for player in lobby.players {
            let words = try Self.encode(PlayerWordsView(lobby.privateView(for: player.userId)))
            privateFrames[player.userId] = PreparedMessage(
                json: EventMessage.frame(subscription: topic, event: .lobbyPrivate, data: words))
        }
        self.privateFrames = privateFrames
    }

    /// The frames observers get when the lobby is deleted: `lobby` with null data, then `end`
    /// (as a deleted room's observers do).
    static func deleted(topic: Int) -> [PreparedMessage] {
        [
            PreparedMessage(json: EventMessage.frame(subscription: topic, event: .lobby, data: .null)),
            PreparedMessage(json: EventMessage.end(subscription: topic)),
        ]
    }

    static func encode(_ value: some Encodable) throws(WireError) -> EncodedJSON {
        do {
            return try EncodedJSON(value)
        } catch {
            throw WireError.internalError("The lobby could not be encoded.")
        }
    }
}

/// The `lobby` event's data: the public view (`LobbyView`) plus `serverTime`, the server's clock when this
/// version was published, so a client can tell how far its own clock is from the one deadlines are kept on.
struct LobbyEventData: Encodable {
    let view: LobbyView
    let serverTime: String

    private enum CodingKeys: String, CodingKey { case serverTime }

    func encode(to encoder: any Encoder) throws {
        try view.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serverTime, forKey: .serverTime)
    }
}
