import ParlorRules

// What the darts app uploads after a match played offline (seed `darts-srs.md`: `POST /matches`,
// `POST /match_throws`), in the seed's snake_case. Values arrive as the app spelled them; the server
// checks them and refuses a bad one by name.

/// `POST /matches`: the seed's payload plus the client's own `id` (a UUID) and `updated_at`, the
/// version that last-write-wins compares. `throws` may carry the turns in the same request.
public struct MatchUpload: Sendable, Equatable, Codable {
    public struct Player: Sendable, Equatable, Codable {
        /// An account player's user id; absent for a guest.
        public var playerId: UserID?
        /// Throwing order, from 0.
        public var order: Int
        /// Required for a guest; an account player's defaults to their profile's display name.
        public var name: String?

        public init(playerId: UserID? = nil, order: Int, name: String? = nil) {
            self.playerId = playerId
            self.order = order
            self.name = name
        }

        private enum CodingKeys: String, CodingKey { case playerId = "player_id", order, name }
    }

    public struct Metadata: Sendable, Equatable, Codable {
        public var durationSeconds: Int
        /// `"straight"` (default), `"double"` or `"master"`.
        public var inRule: String?
        /// `"double"` (default), `"straight"` or `"master"`.
        public var outRule: String?
        /// Legs to win (a set, or the match); default 1.
        public var legs: Int?
        /// Sets to win; absent for a match of legs.
        public var sets: Int?

        public init(durationSeconds: Int, inRule: String? = nil, outRule: String? = nil, legs: Int? = nil, sets: Int? = nil) {
            self.durationSeconds = durationSeconds
            self.inRule = inRule
            self.outRule = outRule
            self.legs = legs
            self.sets = sets
        }

        private enum CodingKeys: String, CodingKey {
            case durationSeconds = "duration_seconds", inRule = "in_rule", outRule = "out_rule", legs, sets
        }
    }

    /// A UUID the app chose.
    public var id: String
    /// `"301"`, `"501"` or `"701"`.
    public var gameType: String
    public var players: [Player]
    /// ISO-8601.
    public var startedAt: String
    public var endedAt: String
    /// The winner's user id; null when a guest won.
    public var winnerId: UserID?
    public var metadata: Metadata
    /// ISO-8601: when the uploading device last changed the match.
    public var updatedAt: String
    /// The turns, if the app sends them with the match rather than with `POST /match_throws`.
    public var turns: [MatchThrow]?

    public init(
        id: String, gameType: String, players: [Player], startedAt: String, endedAt: String, winnerId: UserID?, metadata: Metadata,
        updatedAt: String, turns: [MatchThrow]? = nil
    ) {
        self.id = id
        self.gameType = gameType
        self.players = players
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.winnerId = winnerId
        self.metadata = metadata
        self.updatedAt = updatedAt
        self.turns = turns
    }

    private enum CodingKeys: String, CodingKey {
        case id, gameType = "game_type", players, startedAt = "started_at", endedAt = "ended_at", winnerId = "winner_id", metadata
        case updatedAt = "updated_at", turns = "throws"
    }
}

/// One visit of an uploaded match (`POST /match_throws` is an array of them): where it was, who threw
/// (`player_id`, or a guest's `order`), what (`darts` in notation, or only `score`), and what the app
/// said it left.
public struct MatchThrow: Sendable, Equatable, Codable {
    /// Required in `POST /match_throws`; may be left out inside `POST /matches`'s `throws`.
    public var matchId: String?
    public var playerId: UserID?
    public var order: Int?
    /// From 1, counted through the whole match.
    public var leg: Int
    /// From 1 within the leg, over every player's visits.
    public var turn: Int
    public var darts: [String]?
    /// The visit's total, for a visit that does not finish the leg.
    public var score: Int?
    public var remaining: Int?
    public var isBust: Bool?

    public init(
        matchId: String? = nil, playerId: UserID? = nil, order: Int? = nil, leg: Int, turn: Int, darts: [String]? = nil,
        score: Int? = nil, remaining: Int? = nil, isBust: Bool? = nil
    ) {
        self.matchId = matchId
        self.playerId = playerId
        self.order = order
        self.leg = leg
        self.turn = turn
        self.darts = darts
        self.score = score
        self.remaining = remaining
        self.isBust = isBust
    }

    private enum CodingKeys: String, CodingKey {
        case matchId = "match_id", playerId = "player_id", order, leg, turn, darts, score, remaining, isBust = "is_bust"
    }
}

/// The answer to an upload: what became of it, and the version the server now stores.
public struct MatchUploadResult: Sendable, Equatable, Codable {
    /// `created` (the first upload of this id), `updated` (a later version replaced the stored one),
    /// `unchanged` (the stored version is this one: a repeated upload) or `ignored` (the stored version
    /// is as new or newer, and stays).
    public let result: String
    public let match: MatchRecord

    public init(result: String, match: MatchRecord) {
        self.result = result
        self.match = match
    }
}
