import ParlorRules

/// One finished rummy game, as `listGames` lists it.
public struct GameHistoryEntry: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        public let playerId: UserID
        public let name: String
        public let scores: [Int]
        public let totalScore: Int
        public let rank: Int
    }

    public let roomCode: String
    public let createdAt: String
    public let finishedAt: String
    public let pointLimit: Int
    public let pointValue: Int
    /// By rank.
    public let players: [Player]
    public let winnerId: UserID
    public let settlement: [GameRoom.Results.Debt]

    /// Nil unless the room's game is finished.
    public init?(_ room: RummyRoom) {
        guard room.isFinished, let results = room.results, let finishedAt = room.finishedAt else { return nil }
        roomCode = room.id.rawValue
        createdAt = room.createdAt.iso8601
        self.finishedAt = finishedAt.iso8601
        pointLimit = room.pointLimit
        pointValue = room.pointValue
        players = results.standings.map { standing in
            Player(playerId: standing.playerId, name: standing.name,
                   scores: room.player(standing.playerId)?.scores ?? [], totalScore: standing.totalScore, rank: standing.rank)
        }
        winnerId = results.winnerId
        settlement = results.settlement
    }
}

/// The reply to `listGames`: newest first; pass `nextBefore` as `before` for the next page.
public struct ListGamesResult: Sendable, Equatable, Codable {
    public let games: [GameHistoryEntry]
    /// Absent on the last page.
    public let nextBefore: String?

    public init(games: [GameHistoryEntry], nextBefore: String?) {
        self.games = games
        self.nextBefore = nextBefore
    }
}
