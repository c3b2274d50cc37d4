/// Everything that can be done to an existing word lobby. Creating one is `WordLobby.create`.
///
/// Stored as JSON when scheduled (`endRound`), so the cases and their labels are a storage format:
/// add cases, never rename one (the v1 → v2 store migration writes `{"endRound":{"round":N}}`).
public enum WordLobbyAction: Sendable, Equatable, Codable {
    /// Take a seat, or update one's profile when already seated.
    case join(LobbyProfile)
    /// Give up one's seat; the last one out deletes the lobby.
    case leave
    /// Start a round (the creator): of `gameId`, or of the lobby's next game in the catalog when nil.
    case startGame(gameId: String?)
    /// Judge and record a word in the running round.
    case submitWord(String)
    /// The round timer firing: end round `round` once its deadline has passed.
    case endRound(round: Int)
    /// The creator takes `player`'s seat away.
    case remove(UserID)
    /// The creator started a rematch of the finished match in lobby `code` (the kernel sends it).
    case recordRematch(code: LobbyCode)
    /// The creator makes another player the creator (`HostHandover`, `transferHost` on the wire).
    case handOverHost(to: UserID)
}

/// What the lobby rules read from the server: the catalog rounds are played from and the word list
/// words are checked against.
public struct WordLobbyEnvironment: Sendable {
    public var catalog: Catalog
    public var wordList: SetWordList

    public init(catalog: Catalog, wordList: SetWordList) {
        self.catalog = catalog
        self.wordList = wordList
    }
}
