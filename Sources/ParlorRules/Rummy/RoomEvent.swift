/// What an applied action changed. An empty list means nothing changed (and `version` did not move).
public enum RoomEvent: Sendable, Equatable {
    case playerJoined(UserID)
    case readyChanged(UserID, isReady: Bool)
    case gameStarted
    /// `kickedBy` is the moderator who removed the player, nil when they left themselves.
    case playerLeft(UserID, kickedBy: UserID?)
    case moderatorChanged(to: UserID)
    case scoreSubmitted(UserID, round: Int, score: Int)
    case roundAdvanced(to: Int)
    case gameFinished(RummyResults)
    /// The moderator started a rematch in this room.
    case rematchStarted(RoomCode)
    /// The last player left: the server should delete the room and end its streams.
    case roomDeleted
}
