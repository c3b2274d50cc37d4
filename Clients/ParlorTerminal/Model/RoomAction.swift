import ParlorRules

/// Something the person at this terminal asked to do to the room.
public enum RoomAction: Sendable, Equatable {
    case setReady(Bool)
    case start
    case submitScore(player: UserID, round: Int, score: Int)
    case nextRound
    case leave
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
        case .quit: "quit"
        }
    }
}
