import ParlorRules

/// A finished darts match as history keeps it, in the shape of the seed's `matches` table and its
/// `POST /matches` body (snake_case, as the seed's PostgREST API spells it), with each player's
/// statistics. A live match that finishes is filed in this shape; an uploaded one is meant to be read
/// into the same type.
public struct MatchRecord: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        /// The account's user id; absent for a guest.
        public let playerId: UserID?
        public let name: String
        /// Throwing order, from 0.
        public let order: Int
        public let isWinner: Bool
        public let legsWon: Int
        public let setsWon: Int
        public let stats: Stats

        private enum CodingKeys: String, CodingKey {
            case playerId = "player_id", name, order, isWinner = "is_winner", legsWon = "legs_won", setsWon = "sets_won", stats
        }
    }

    /// The live view's statistics (`MatchView.Stats`) over the whole match, in snake_case.
    public struct Stats: Sendable, Equatable, Codable {
        public let threeDartAverage: Double
        public let firstNineAverage: Double
        public let checkoutPercent: Double
        public let highestCheckout: Int
        public let count180: Int
        public let count140Plus: Int
        public let count100Plus: Int
        public let dartsThrown: Int

        private enum CodingKeys: String, CodingKey {
            case threeDartAverage = "three_dart_average", firstNineAverage = "first_nine_average"
            case checkoutPercent = "checkout_percent", highestCheckout = "highest_checkout"
            case count180 = "count_180", count140Plus = "count_140_plus", count100Plus = "count_100_plus"
            case dartsThrown = "darts_thrown"
        }
    }

    public struct Metadata: Sendable, Equatable, Codable {
        /// From the start to the last visit, in whole seconds.
        public let durationSeconds: Int
        public let inRule: String
        public let outRule: String
        public let legs: Int
        public let sets: Int?
        /// The code it was played under (reused by later matches).
        public let code: String

        private enum CodingKeys: String, CodingKey {
            case durationSeconds = "duration_seconds", inRule = "in_rule", outRule = "out_rule", legs, sets, code
        }
    }

    /// Unique among every match ever filed.
    public let id: String
    /// `"301"`, `"501"` or `"701"`.
    public let gameType: String
    /// In throwing order.
    public let players: [Player]
    public let startedAt: String
    public let endedAt: String
    /// The winner's user id; null when a guest won (see `players[].is_winner`).
    public let winnerId: UserID?
    public let metadata: Metadata

    private enum CodingKeys: String, CodingKey {
        case id, gameType = "game_type", players, startedAt = "started_at", endedAt = "ended_at", winnerId = "winner_id", metadata
    }

    /// Nil unless the match is finished.
    public init?(_ match: DartsMatch) {
        guard match.status == .finished, let winner = match.winner, let startedAt = match.startedAt, let finishedAt = match.finishedAt
        else { return nil }
        id = match.id
        gameType = match.settings.gameType.rawValue
        players = match.players.enumerated().map { seat, player in
            let statistics = DartsStatistics.match(match, seat: seat)
            return Player(
                playerId: player.isGuest ? nil : player.id, name: player.name, order: seat, isWinner: seat == winner,
                legsWon: statistics.legsWon, setsWon: match.setsWon(by: seat),
                stats: Stats(
                    threeDartAverage: statistics.threeDartAverage, firstNineAverage: statistics.firstNineAverage,
                    checkoutPercent: statistics.checkoutPercent, highestCheckout: statistics.highestCheckout,
                    count180: statistics.count180, count140Plus: statistics.count140Plus, count100Plus: statistics.count100Plus,
                    dartsThrown: statistics.dartsThrown))
        }
        self.startedAt = startedAt.iso8601
        endedAt = finishedAt.iso8601
        winnerId = match.players[winner].isGuest ? nil : match.players[winner].id
        metadata = Metadata(
            durationSeconds: Int(startedAt.milliseconds(until: finishedAt) / 1000), inRule: match.settings.inRule.rawValue,
            outRule: match.settings.outRule.rawValue, legs: match.settings.legs, sets: match.settings.sets, code: match.code.rawValue)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(gameType, forKey: .gameType)
        try container.encode(players, forKey: .players)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(endedAt, forKey: .endedAt)
        try container.encode(winnerId, forKey: .winnerId)
        try container.encode(metadata, forKey: .metadata)
    }
}

/// The reply to `listMatches`: newest first; pass `nextBefore` as `before` for the next page.
public struct ListMatchesResult: Sendable, Equatable, Codable {
    public let matches: [MatchRecord]
    /// Absent on the last page.
    public let nextBefore: String?

    public init(matches: [MatchRecord], nextBefore: String?) {
        self.matches = matches
        self.nextBefore = nextBefore
    }
}
