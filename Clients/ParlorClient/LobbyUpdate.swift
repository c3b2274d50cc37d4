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
