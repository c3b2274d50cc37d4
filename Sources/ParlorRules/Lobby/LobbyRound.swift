/// The round being played while a lobby is in `GAME`.
public struct LobbyRound: Sendable, Equatable, Codable {
    /// 1 for the lobby's first round, then 2, 3, …
    public let number: Int
    public let game: Game
    public let startedAt: Instant
    /// Submissions are accepted while `now < deadline`.
    public let deadline: Instant
    /// One entry per player, in seat order; secret until the round ends.
    public internal(set) var entries: [RoundEntry]

    public func words(of userId: UserID) -> [WordVerdict] {
        entries.first { $0.userId == userId }?.verdicts ?? []
    }
}

/// One player's submissions in a round, in the order made (repeats are not recorded).
public struct RoundEntry: Sendable, Equatable, Codable {
    public let userId: UserID
    public internal(set) var verdicts: [WordVerdict]
}
