import ParlorWire

/// What a lobby subscription delivers.
public enum LobbyUpdate: Sendable, Equatable {
    /// The lobby's public view (every member sees the same).
    case lobby(LobbyView)
    /// The subscriber's own words in the running round.
    case playerWords(PlayerWordsView)
    /// The lobby was deleted; the stream ends after this.
    case deleted
    /// You are no longer in the lobby (its creator removed you); the stream ends after this.
    case removed
}

extension GameStream where Update == LobbyUpdate {
    /// A seated player's lobby, by its id: the public view (`lobby`) and the player's own words
    /// (`lobbyPrivate`), `.deleted` when the lobby goes, `.removed` when its creator takes the seat away.
    public static let lobby = GameStream(
        "lobby", observe: Operation.observeLobby, arguments: { LobbyIdArguments(lobbyId: $0) }, event: .lobby,
        view: { .lobby($0) }, deleted: .deleted,
        privateEvent: PrivateEvent(.lobbyPrivate, PlayerWordsView.self) { .playerWords($0) }, removed: .removed,
        gone: [.lobbyNotFound, .notFound], revoked: [.notLobbyMember], buffer: lobbyBuffer, keyIsCode: false)

    /// A lobby's public view by its code, without a seat (`watchLobby`).
    public static let watchedLobby = GameStream(
        "watched lobby", observe: Operation.watchLobby, arguments: { LobbyCodeArguments(lobbyCode: $0) }, event: .lobby,
        view: { .lobby($0) }, deleted: .deleted, gone: [.lobbyNotFound, .invalidInput, .notFound], buffer: lobbyBuffer)

    /// Public and private views interleave, so a few more than one.
    private static let lobbyBuffer = 8
}

extension LobbyView: VersionedView {
    public var version: Int { lobby.version }
}
extension PlayerWordsView: VersionedView {}

extension ParlorClientConfiguration {
    /// Lobby events buffered per stream, seated or watching (default 8: public and private views interleave).
    public var lobbyEventBuffer: Int {
        get { eventBuffers[GameStream.lobby.kind] ?? GameStream.lobby.defaultBuffer }
        set {
            eventBuffers[GameStream.lobby.kind] = newValue
            eventBuffers[GameStream.watchedLobby.kind] = newValue
        }
    }
}
