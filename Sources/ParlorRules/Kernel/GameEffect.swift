/// Work the rules ask the server to do. The rules only ask; the kernel carries it out with the state
/// change, in the same save.
public enum GameEffect<Action: Sendable & Equatable>: Sendable, Equatable {
    /// Apply `action` (by `Caller.clock`) once the server's clock reaches `at`. A schedule with the same
    /// `key` replaces the earlier one. Stored with the game: it fires after a restart too, at once if
    /// its time passed while the server was down, and exactly once.
    case schedule(key: String, at: Instant, Action)
    /// Drops the schedule named `key`, if any.
    case cancelSchedule(key: String)
    /// The game is over and gone (its last player left): delete it, free its code, end its streams.
    case delete
    /// File the game, as this action left it, in the history of `archive.players`.
    case archive(GameArchive)
    /// `user` may no longer watch the game (they left a lobby): their subscriptions end.
    case revokeView(UserID)
}

/// A finished game as history files it.
public struct GameArchive: Sendable, Equatable {
    /// Names the game among every game of its kind ever played (codes are reused), so it is filed once.
    public var key: String
    /// Whose history it goes into.
    public var players: [UserID]
    public var finishedAt: Instant
    /// What each player's entry adds to their totals (points scored, wins), filed with it so a player's
    /// totals are read without reading their games. Players without one file none.
    public var tallies: [UserID: PlayerTally]

    public init(key: String, players: [UserID], finishedAt: Instant, tallies: [UserID: PlayerTally] = [:]) {
        self.key = key
        self.players = players
        self.finishedAt = finishedAt
        self.tallies = tallies
    }
}
