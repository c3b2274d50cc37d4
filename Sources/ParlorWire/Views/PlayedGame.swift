import ParlorRules

/// One finished game of any kind, as `listHistory` lists it: what a person wants to see in a list of
/// their games — which game, when, with whom, and how they did. Each kind's full record stays with its
/// own operation (`listGames`, `listMatches`).
public struct PlayedGame: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        /// Absent for a guest of a game played offline and uploaded (a guest the server scored has an id).
        public let userId: UserID?
        public let name: String
        /// The game's own measure of the player: a rummy total (fewest wins), a word score, legs won.
        public let points: Int
        /// Best first; players sharing a place share a rank.
        public let rank: Int

        public init(userId: UserID?, name: String, points: Int, rank: Int) {
            self.userId = userId
            self.name = name
            self.points = points
            self.rank = rank
        }
    }

    /// The game's kind as the server names it (`rummy`, `word-lobby`, `darts`).
    public let kind: String
    public let code: String
    public let finishedAt: String
    /// By rank.
    public let players: [Player]
    /// The caller's place: `won` (first, alone or sharing it), `lost`, or `left` (not among the players at the end).
    public let result: String

    public init(kind: String, code: String, finishedAt: Instant, players: [Player], for user: UserID) {
        self.kind = kind
        self.code = code
        self.finishedAt = finishedAt.iso8601
        self.players = players.sorted { $0.rank < $1.rank }
        result = switch players.first(where: { $0.userId == user })?.rank {
        case 1?: "won"
        case _?: "lost"
        case nil: "left"
        }
    }

    /// Ranks for `scores` where `higherIsBetter` says which way they count: equal scores share a rank
    /// (1, 1, 3).
    public static func ranks(_ scores: [Int], higherIsBetter: Bool) -> [Int] {
        scores.map { score in 1 + scores.filter { higherIsBetter ? $0 > score : $0 < score }.count }
    }
}

/// The reply to `listHistory`: newest first; pass `nextCursor` as `cursor` for the next page (older
/// clients pass `nextBefore` as `before`, which skips games that finished in the same millisecond as
/// the page's last).
public struct ListHistoryResult: Sendable, Equatable, Codable {
    public let games: [PlayedGame]
    /// Absent on the last page.
    public let nextBefore: String?

    /// Absent on the last page.
    public let nextCursor: String?

    public init(games: [PlayedGame], nextBefore: String?, nextCursor: String? = nil) {
        self.games = games
        self.nextBefore = nextBefore
        self.nextCursor = nextCursor
    }
}
