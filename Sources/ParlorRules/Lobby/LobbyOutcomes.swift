/// Which game a new round plays.
public enum GameChoice: Sendable {
    /// This game.
    case game(Game)
    /// The game with this id in the catalog (`notFound(.game)` when missing).
    case byID(String, in: Catalog)
    /// The lobby's next game in the catalog's play order, wrapping around at the end.
    case next(in: Catalog)
}

/// Work the rules ask the server to do later.
public enum LobbyEffect: Sendable, Equatable {
    /// Call `endRound(round, at:)` once the clock reaches `at`.
    case scheduleRoundEnd(round: Int, at: Instant)
}

/// What a lobby operation changed. An empty list means nothing changed (and `version` did not move).
public enum LobbyEvent: Sendable, Equatable {
    case playerJoined(UserID)
    case profileUpdated(UserID)
    case playerLeft(UserID)
    case creatorChanged(to: UserID)
    case roundStarted(number: Int, deadline: Instant)
    case wordSubmitted(UserID)
    case roundEnded(number: Int)
    /// The match's last round ended: the lobby is `FINISHED` and goes into its players' history.
    case matchFinished
    /// The creator started a rematch in this lobby.
    case rematchStarted(LobbyCode)
    /// The last player left: the server should delete the lobby, free its code and end its streams.
    case lobbyDeleted
}
