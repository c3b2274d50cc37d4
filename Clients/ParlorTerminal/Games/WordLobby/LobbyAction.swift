import ParlorRules

/// Something the person at this terminal (or the script) asked to do in a word lobby.
public enum LobbyAction: Sendable, Equatable {
    /// Submit a word (or a category answer) to the running round.
    case submitWord(String)
    /// Start a round (creator only): this game from the catalog, or the lobby's next one.
    case start(gameId: String?)
    /// Give up the seat; the session ends.
    case leave
    /// Take this player's seat away (creator only).
    case remove(UserID)
    /// Start a rematch of the finished match with the same seats (creator only).
    case rematch
    /// Close this terminal; the seat stays.
    case quit

    /// The name scripts see in `{"event":"result","action":…}`.
    public var name: String {
        switch self {
        case .submitWord: "word"
        case .start: "start"
        case .leave: "leave"
        case .remove: "kick"
        case .rematch: "rematch"
        case .quit: "quit"
        }
    }
}
