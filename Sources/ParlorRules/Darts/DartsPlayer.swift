/// A seat at a darts match: an account player, or a guest the host scores for (the seed's guest mode).
public struct DartsPlayer: Sendable, Equatable, Codable {
    /// The account's user id, or for a guest an id the server made when the host added them.
    public let id: UserID
    public let name: String
    /// A local player without an account: never a member, never in anyone's history by id.
    public let isGuest: Bool
    /// An account player who left once the match had started: the seat stays (the turn order and the
    /// statistics need it) and the host scores for it; joining again takes it back.
    public internal(set) var hasLeft: Bool

    public init(id: UserID, name: String, isGuest: Bool, hasLeft: Bool = false) {
        self.id = id
        self.name = name
        self.isGuest = isGuest
        self.hasLeft = hasLeft
    }
}

/// Where a match is.
public enum MatchStatus: String, Sendable, Codable {
    /// Players join; the host adds guests and starts.
    case waiting
    case playing
    /// Someone won; the match is filed in its players' history and can no longer change.
    case finished
}

/// One visit of a match: who threw, who entered it, and how it scored.
public struct DartsVisit: Sendable, Equatable, Codable {
    /// The thrower's seat (index in `DartsMatch.players`).
    public let player: Int
    /// Who entered it: the thrower or the host. They (or the host) may edit it while it is the last.
    public let recordedBy: UserID
    public let scored: ScoredVisit

    public init(player: Int, recordedBy: UserID, scored: ScoredVisit) {
        self.player = player
        self.recordedBy = recordedBy
        self.scored = scored
    }
}

/// One leg: who started it, its visits in order, and who won it.
public struct DartsLeg: Sendable, Equatable, Codable {
    /// 1-based; always 1 in a match without sets.
    public let set: Int
    /// 1-based within its set (within the match when there are no sets).
    public let number: Int
    /// The seat that throws first; it rotates every leg.
    public let starter: Int
    public internal(set) var visits: [DartsVisit]
    /// The seat that checked out.
    public internal(set) var winner: Int?

    public init(set: Int, number: Int, starter: Int, visits: [DartsVisit] = [], winner: Int? = nil) {
        self.set = set
        self.number = number
        self.starter = starter
        self.visits = visits
        self.winner = winner
    }
}
