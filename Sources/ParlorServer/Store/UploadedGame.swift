import ParlorRules

/// A game played away from the server (a darts match scored on a phone offline) and uploaded
/// afterwards. It is filed beside the finished games the server ran, in the history of its account
/// players; unlike them it can be replaced, by an upload of the same id with a later `updatedAt`
/// (last write wins).
public struct UploadedGame: Sendable, Equatable {
    public var kind: GameKind
    /// The client's id for the game (a UUID), unique within its kind.
    public var id: String
    public var uploader: UserID
    /// The uploading device's time of its last change: the version a later upload must beat.
    public var updatedAt: Instant
    /// Orders it among the player's finished games.
    public var finishedAt: Instant
    /// The account players whose history it joins.
    public var players: [UserID]
    /// What it adds to each player's lifetime.
    public var tallies: [UserID: PlayerTally]
    /// The game's own stored form of the upload (JSON).
    public var state: String

    public init(
        kind: GameKind, id: String, uploader: UserID, updatedAt: Instant, finishedAt: Instant, players: [UserID],
        tallies: [UserID: PlayerTally], state: String
    ) {
        self.kind = kind
        self.id = id
        self.uploader = uploader
        self.updatedAt = updatedAt
        self.finishedAt = finishedAt
        self.players = players
        self.tallies = tallies
        self.state = state
    }
}

/// One of a player's finished games as their lifetime reads it: its tally, or — for a game filed before
/// tallies were — the game itself, for the game to count.
public enum LifetimeEntry: Sendable {
    case tally(PlayerTally)
    case untallied(StoredState)
}
