import ParlorRules

/// Something the person at this terminal asked to do to the room.
public enum RoomAction: Sendable, Equatable {
    case setReady(Bool)
    case start
    case submitScore(player: UserID, round: Int, score: Int)
    case nextRound
    case leave
    /// Take this player's seat away (the moderator).
    case kick(UserID)
    /// Start a rematch of the finished game with the same seats (the moderator).
    case rematch
    case quit

    /// The name scripts see in `{"event":"done","action":…}`.
    public var name: String {
        switch self {
        case .setReady(true): "ready"
        case .setReady(false): "unready"
        case .start: "start"
        case .submitScore: "score"
        case .nextRound: "next"
        case .leave: "leave"
        case .kick: "kick"
        case .rematch: "rematch"
        case .quit: "quit"
        }
    }
}
