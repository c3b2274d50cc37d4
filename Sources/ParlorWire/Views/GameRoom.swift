import ParlorRules

/// A rummy room on the wire, in the seed's field names, plus `playerCount`, `isFinished`, `version`
/// and, once finished, `results`. Timestamps are ISO-8601 UTC with milliseconds.
public struct GameRoom: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        public let id: UserID
        public let name: String
        public let isReady: Bool
        public let isModerator: Bool
        public let scores: [Int]
        public let totalScore: Int
    }

    public struct Results: Sendable, Equatable, Codable {
        public struct Standing: Sendable, Equatable, Codable {
            public let playerId: UserID
            public let name: String
            public let totalScore: Int
            public let rank: Int
        }

        public struct Debt: Sendable, Equatable, Codable {
            public let from: UserID
            public let to: UserID
            /// Cents.
            public let amount: Int
        }

        public let standings: [Standing]
        public let winnerId: UserID
        /// Only non-zero debts, each to the winner.
        public let settlement: [Debt]
    }

    public let id: String
    public let pointLimit: Int
    public let pointValue: Int
    public let playerCount: Int
    public let currentRound: Int
    public let isStarted: Bool
    public let isFinished: Bool
    public let players: [Player]
    public let createdAt: String
    public let createdBy: UserID
    public let version: Int
    public let finishedAt: String?
    public let results: Results?

    public init(_ room: RummyRoom) {
        id = room.id.rawValue
        pointLimit = room.pointLimit
        pointValue = room.pointValue
        playerCount = room.playerCount
        currentRound = room.currentRound
        isStarted = room.isStarted
        isFinished = room.isFinished
        players = room.players.map {
            Player(id: $0.id, name: $0.name, isReady: $0.isReady, isModerator: $0.isModerator,
                   scores: $0.scores, totalScore: $0.totalScore)
        }
        createdAt = room.createdAt.iso8601
        createdBy = room.createdBy
        version = room.version
        finishedAt = room.finishedAt?.iso8601
        results = room.results.map(Results.init)
    }
}

extension GameRoom.Results {
    public init(_ results: RummyResults) {
        standings = results.standings.map {
            Standing(playerId: $0.playerId, name: $0.name, totalScore: $0.totalScore, rank: $0.rank)
        }
        winnerId = results.winnerId
        settlement = results.settlement.map { Debt(from: $0.from, to: $0.to, amount: $0.amount) }
    }
}

/// The reply to `createRoom` and `joinRoom`.
public struct RoomServiceResult: Sendable, Equatable, Codable {
    public let room: GameRoom
    public let currentUserId: UserID

    public init(room: GameRoom, currentUserId: UserID) {
        self.room = room
        self.currentUserId = currentUserId
    }
}
