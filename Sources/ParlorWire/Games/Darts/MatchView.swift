import ParlorRules

extension EventName {
    /// A darts match's view (`MatchView`), on every change; null data once the match is deleted.
    public static let match = EventName(rawValue: "match")
}

/// A darts match on the wire: the `match` event, and the reply of every operation that changes one.
/// The names are the contract every client reads alike (issue 14); absent values are sent as null.
/// Timestamps are ISO-8601 UTC with milliseconds.
public struct MatchView: Sendable, Equatable, Codable {
    /// One visit of the current leg.
    public struct Visit: Sendable, Equatable, Codable {
        /// The darts in canonical notation, or null for a visit entered as a total.
        public let darts: [String]?
        /// The points the darts counted (what was thrown, on a bust too).
        public let total: Int
        public let isBust: Bool
        public let isCheckout: Bool
        public let dartsThrown: Int
        public let remainingAfter: Int
    }

    /// A player's statistics over the match (`stats`) or the current leg (`legStats`); docs/PROTOCOL.md
    /// defines each.
    public typealias Stats = DartsFigures<LiveSpelling>

    public struct Player: Sendable, Equatable, Codable {
        /// The account's user id; a guest's id made by the server.
        public let id: UserID
        public let name: String
        public let isGuest: Bool
        /// Left during the match: the seat stays, the host scores for it.
        public let hasLeft: Bool
        /// Throwing order, from 0.
        public let order: Int
        /// The score left in the current leg.
        public let remaining: Int
        /// Legs won in the current set (in the match, without sets).
        public let legsWon: Int
        public let setsWon: Int
        /// The current leg's visits, in order.
        public let visits: [Visit]
        /// Over the whole match.
        public let stats: Stats
        /// Over the current leg.
        public let legStats: Stats
    }

    /// The last visit of the match: the one `editLastVisit` replaces.
    public struct LastVisit: Sendable, Equatable, Codable {
        /// Its number in the match, from 1: pass it as `editLastVisit`'s `visit`.
        public let number: Int
        public let playerId: UserID
        public let recordedBy: UserID
    }

    /// The match's code.
    public let id: String
    /// `"301"`, `"501"` or `"701"`.
    public let gameType: String
    public let inRule: String
    public let outRule: String
    public let legs: Int
    public let sets: Int?
    public let capacity: Int
    /// `"waiting"`, `"playing"` or `"finished"`.
    public let status: String
    public let hostId: UserID
    public let players: [Player]
    public let currentPlayerId: UserID?
    /// The current leg within its set, and the set, from 1.
    public let leg: Int
    public let set: Int
    /// The suggested finish for the player to throw, with three darts; null when there is none.
    public let checkout: [String]?
    public let winnerId: UserID?
    public let lastVisit: LastVisit?
    /// The rematch's code, once the host started one: everyone following this match goes there.
    public let rematch: String?
    public let version: Int
    public let createdAt: String
    public let startedAt: String?
    public let finishedAt: String?

    public init(_ match: DartsMatch) {
        id = match.code.rawValue
        gameType = match.settings.gameType.rawValue
        inRule = match.settings.inRule.rawValue
        outRule = match.settings.outRule.rawValue
        legs = match.settings.legs
        sets = match.settings.sets
        capacity = match.settings.capacity
        status = match.status.rawValue
        hostId = match.hostId
        let outRule = match.settings.outRule
        players = match.players.enumerated().map { seat, player in
            Player(
                id: player.id, name: player.name, isGuest: player.isGuest, hasLeft: player.hasLeft, order: seat,
                remaining: match.remaining(of: seat), legsWon: match.legsWon(by: seat), setsWon: match.setsWon(by: seat),
                visits: match.visits(of: seat).map { visit in
                    let scored = visit.scored
                    return Visit(
                        darts: scored.entry.darts?.map(\.notation), total: scored.total, isBust: scored.isBust,
                        isCheckout: scored.isCheckout, dartsThrown: scored.dartsThrown, remainingAfter: scored.remainingAfter)
                },
                stats: Stats(DartsStatistics.match(match, seat: seat)),
                legStats: Stats(match.currentLeg.map { DartsStatistics.leg($0, seat: seat, outRule: outRule) } ?? DartsStatistics()))
        }
        currentPlayerId = match.currentPlayer.map { match.players[$0].id }
        leg = match.currentLeg?.number ?? 1
        set = match.currentLeg?.set ?? 1
        checkout = match.checkout?.map(\.notation)
        winnerId = match.winner.map { match.players[$0].id }
        lastVisit = match.lastVisit.map { visit in
            LastVisit(number: match.visitCount, playerId: match.players[visit.player].id, recordedBy: visit.recordedBy)
        }
        rematch = match.rematch?.rawValue
        version = match.version
        createdAt = match.createdAt.iso8601
        startedAt = match.startedAt?.iso8601
        finishedAt = match.finishedAt?.iso8601
    }

    /// Every field, absent ones as null (the synthesized form would leave them out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(gameType, forKey: .gameType)
        try container.encode(inRule, forKey: .inRule)
        try container.encode(outRule, forKey: .outRule)
        try container.encode(legs, forKey: .legs)
        try container.encode(sets, forKey: .sets)
        try container.encode(capacity, forKey: .capacity)
        try container.encode(status, forKey: .status)
        try container.encode(hostId, forKey: .hostId)
        try container.encode(players, forKey: .players)
        try container.encode(currentPlayerId, forKey: .currentPlayerId)
        try container.encode(leg, forKey: .leg)
        try container.encode(set, forKey: .set)
        try container.encode(checkout, forKey: .checkout)
        try container.encode(winnerId, forKey: .winnerId)
        try container.encode(lastVisit, forKey: .lastVisit)
        try container.encode(rematch, forKey: .rematch)
        try container.encode(version, forKey: .version)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(finishedAt, forKey: .finishedAt)
    }
}

extension MatchView.Visit {
    /// `darts` is null for a visit entered as a total.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(darts, forKey: .darts)
        try container.encode(total, forKey: .total)
        try container.encode(isBust, forKey: .isBust)
        try container.encode(isCheckout, forKey: .isCheckout)
        try container.encode(dartsThrown, forKey: .dartsThrown)
        try container.encode(remainingAfter, forKey: .remainingAfter)
    }
}

extension DartsFigures {
    /// A figure the rules rounded to two decimals, written as JSON writes it and people read it:
    /// 93.94, 71.2, 167.
    public static func text(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100
        let fraction = abs(hundredths) % 100
        guard fraction != 0 else { return sign + String(whole) }
        let digits = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction)
        return "\(sign)\(whole).\(digits)"
    }
}

/// The reply to `createMatch` and `joinMatch`.
public struct MatchSeatResult: Sendable, Equatable, Codable {
    public let match: MatchView
    public let currentUserId: UserID

    public init(match: MatchView, currentUserId: UserID) {
        self.match = match
        self.currentUserId = currentUserId
    }
}

/// The reply to `checkout`: the suggested finish, or null when there is none.
public struct CheckoutResult: Sendable, Equatable, Codable {
    public let darts: [String]?

    public init(darts: [String]?) { self.darts = darts }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(darts, forKey: .darts)
    }
}
