/// Everything a caller can do to an existing rummy room. Creating one is `RummyRoom.create`.
public enum RummyAction: Sendable, Equatable, Codable {
    /// Take a seat (the caller's).
    case join(playerName: String)
    /// Set a player's ready flag: one's own, or anyone's by the moderator.
    case setReady(playerId: UserID, ready: Bool)
    case startGame
    /// Leave (one's own id) or kick (the moderator, someone else's id).
    case leave(playerId: UserID)
    /// Record `score` for `playerId` in `round` (1-based), replacing any earlier one.
    case submitScore(playerId: UserID, round: Int, score: Int)
    /// Close the current round; the game finishes at the point limit or after the last round.
    case nextRound
    /// The moderator started a rematch of the finished game in room `code` (the kernel sends it).
    case recordRematch(code: RoomCode)
    /// The moderator makes another player the moderator (`HostHandover`, `transferHost` on the wire).
    case handOverHost(to: UserID)
}
