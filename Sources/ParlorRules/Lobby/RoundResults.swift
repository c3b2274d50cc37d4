/// What a round produced, published once it ends: everyone's words with verdicts and points.
///
/// Scoring: an accepted word earns 2 points when no other player had the same word accepted, and
/// 1 point when someone else did too. Words are compared normalised (`WordRules.normalized`).
public struct RoundResults: Sendable, Equatable, Codable {
    public struct ScoredWord: Sendable, Equatable, Codable {
        public let word: String
        public let accepted: Bool
        public let reason: String?
        public let points: Int
    }

    public struct PlayerResult: Sendable, Equatable, Codable {
        public let userId: UserID
        public let username: String
        public let words: [ScoredWord]
        /// Points earned this round.
        public let points: Int
        /// The player's running score after this round.
        public let total: Int
    }

    public let number: Int
    public let gameId: String
    public let gameName: String
    public let endedAt: Instant
    /// Seat order.
    public let players: [PlayerResult]

    public static let uniquePoints = 2
    public static let sharedPoints = 1

    /// Scores `round` for `players` (seat order, with their scores before the round).
    public init(scoring round: LobbyRound, players: [LobbyPlayer], endedAt: Instant) {
        let caseSensitive = round.game.caseSensitive
        var holders: [String: Int] = [:]
        for entry in round.entries {
            let accepted = Set(entry.verdicts.filter(\.accepted).map { WordRules.normalized($0.word, caseSensitive: caseSensitive) })
            for key in accepted { holders[key, default: 0] += 1 }
        }
        number = round.number
        gameId = round.game.id
        gameName = round.game.name
        self.endedAt = endedAt
        self.players = players.map { player in
            let words = round.words(of: player.userId).map { verdict in
                let key = WordRules.normalized(verdict.word, caseSensitive: caseSensitive)
                let points = !verdict.accepted ? 0 : (holders[key, default: 0] > 1 ? Self.sharedPoints : Self.uniquePoints)
                return ScoredWord(word: verdict.word, accepted: verdict.accepted, reason: verdict.reason, points: points)
            }
            let points = words.reduce(0) { $0 + $1.points }
            return PlayerResult(
                userId: player.userId, username: player.username, words: words, points: points, total: player.score + points)
        }
    }

    public func result(for userId: UserID) -> PlayerResult? { players.first { $0.userId == userId } }
}
