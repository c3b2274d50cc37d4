import ParlorRules

/// A finished darts match as history keeps it, in the shape of the seed's `matches` table and its
/// `POST /matches` body (snake_case, as the seed's PostgREST API spells it), with each player's
/// statistics. Live matches that finish and matches uploaded after being played offline are both
/// served in this shape.
public struct MatchRecord: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        /// The account's user id; absent for a guest.
        public let playerId: UserID?
        public let name: String
        /// Throwing order, from 0.
        public let order: Int
        public let isWinner: Bool
        /// Absent for an uploaded match until its turns are uploaded (they are counted from them).
        public let legsWon: Int?
        public let setsWon: Int?
        public let stats: Stats?

        public init(playerId: UserID?, name: String, order: Int, isWinner: Bool, legsWon: Int?, setsWon: Int?, stats: Stats?) {
            self.playerId = playerId
            self.name = name
            self.order = order
            self.isWinner = isWinner
            self.legsWon = legsWon
            self.setsWon = setsWon
            self.stats = stats
        }

        /// Seat `seat` of a finished (live or replayed) match; `playerId` nil for a guest.
        public init(_ match: DartsMatch, seat: Int, playerId: UserID?, name: String) {
            let statistics = DartsStatistics.match(match, seat: seat)
            self.init(
                playerId: playerId, name: name, order: seat, isWinner: seat == match.winner, legsWon: statistics.legsWon,
                setsWon: match.setsWon(by: seat), stats: Stats(statistics))
        }

        private enum CodingKeys: String, CodingKey {
            case playerId = "player_id", name, order, isWinner = "is_winner", legsWon = "legs_won", setsWon = "sets_won", stats
        }
    }

    /// The live view's statistics over the whole match, in snake_case and without legs won (the
    /// player's `legs_won` says them).
    public typealias Stats = DartsFigures<HistorySpelling>

    public struct Metadata: Sendable, Equatable, Codable {
        /// From the start to the last visit, in whole seconds.
        public let durationSeconds: Int
        public let inRule: String
        public let outRule: String
        public let legs: Int
        public let sets: Int?
        /// The code a live match was played under (reused by later matches); absent for an uploaded one.
        public let code: String?

        public init(durationSeconds: Int, inRule: String, outRule: String, legs: Int, sets: Int?, code: String?) {
            self.durationSeconds = durationSeconds
            self.inRule = inRule
            self.outRule = outRule
            self.legs = legs
            self.sets = sets
            self.code = code
        }

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
    /// An uploaded match's version (the uploading device's time of its last change, which a later
    /// upload must beat); absent for a live one.
    public let updatedAt: String?

    private enum CodingKeys: String, CodingKey {
        case id, gameType = "game_type", players, startedAt = "started_at", endedAt = "ended_at", winnerId = "winner_id", metadata
        case updatedAt = "updated_at"
    }

    public init(
        id: String, gameType: String, players: [Player], startedAt: String, endedAt: String, winnerId: UserID?, metadata: Metadata,
        updatedAt: String?
    ) {
        self.id = id
        self.gameType = gameType
        self.players = players
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.winnerId = winnerId
        self.metadata = metadata
        self.updatedAt = updatedAt
    }

    /// Nil unless the match is finished.
    public init?(_ match: DartsMatch) {
        guard match.status == .finished, let winner = match.winner, let startedAt = match.startedAt, let finishedAt = match.finishedAt
        else { return nil }
        id = match.id
        gameType = match.settings.gameType.rawValue
        players = match.players.enumerated().map { seat, player in
            Player(match, seat: seat, playerId: player.isGuest ? nil : player.id, name: player.name)
        }
        self.startedAt = startedAt.iso8601
        endedAt = finishedAt.iso8601
        winnerId = match.players[winner].isGuest ? nil : match.players[winner].id
        metadata = Metadata(
            durationSeconds: Int(startedAt.milliseconds(until: finishedAt) / 1000), inRule: match.settings.inRule.rawValue,
            outRule: match.settings.outRule.rawValue, legs: match.settings.legs, sets: match.settings.sets, code: match.code.rawValue)
        updatedAt = nil
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
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
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
