/// One visit of a match played elsewhere (on a phone, offline), as its scorer's app uploaded it: where in
/// the match it was, who threw it, what was thrown, and what the app said it left.
public struct ReplayVisit: Sendable, Equatable {
    /// The leg, counted from 1 through the whole match (sets included).
    public var leg: Int
    /// The visit's place in its leg, counted from 1 over every player's visits.
    public var turn: Int
    /// The thrower's seat (throwing order, from 0).
    public var seat: Int
    public var visit: VisitInput
    /// The score the app showed after the visit; checked when given.
    public var remaining: Int?
    /// Whether the app scored the visit a bust; checked when given.
    public var isBust: Bool?

    public init(leg: Int, turn: Int, seat: Int, visit: VisitInput, remaining: Int? = nil, isBust: Bool? = nil) {
        self.leg = leg
        self.turn = turn
        self.seat = seat
        self.visit = visit
        self.remaining = remaining
        self.isBust = isBust
    }
}

/// Why an uploaded match's visits cannot be what was thrown, naming the first visit that shows it.
public struct ReplayFailure: Error, Sendable, Equatable {
    public let leg: Int
    public let turn: Int
    /// A sentence about that visit.
    public let reason: String

    public init(leg: Int, turn: Int, _ reason: String) {
        self.leg = leg
        self.turn = turn
        self.reason = reason
    }

    /// "Leg 2, turn 5: …".
    public var message: String { "Leg \(leg), turn \(turn): \(reason)" }
}

/// Replaying a match played elsewhere through the same reducer that scores live matches, so an upload is
/// held to the rules a live match is: each visit is scored from where its player stood, in turn order
/// (the first leg started by seat 0, each next leg by the next seat), every leg ends on a checkout, and
/// the match ends with the leg that wins it.
extension DartsMatch {
    /// The match `visits` make, finished, with every statistic a live match has. `scorer` is an account
    /// player who entered every visit (the uploader); `players` are the seats in throwing order (guests
    /// with ids the caller made). Throws the first visit that could not have been thrown as uploaded.
    public static func replay(
        id: String, settings: X01Settings, players: [DartsPlayer], scorer: UserID, visits: [ReplayVisit],
        startedAt: Instant, finishedAt: Instant
    ) throws(ReplayFailure) -> DartsMatch {
        var match = DartsMatch(
            id: id, code: .offline, settings: settings, createdAt: startedAt, hostId: scorer, players: players, status: .waiting,
            legs: [], startedAt: nil, finishedAt: nil, winner: nil, rematch: nil, version: 1)
        let ordered = visits.sorted { ($0.leg, $0.turn) < ($1.leg, $1.turn) }
        guard let first = ordered.first else { throw ReplayFailure(leg: 1, turn: 1, "the match has no visits.") }
        do {
            _ = try match.apply(.start, by: scorer, at: startedAt)
        } catch {
            throw ReplayFailure(leg: first.leg, turn: first.turn, error.message)
        }
        var previous: ReplayVisit?
        for visit in ordered {
            try match.checkPlace(of: visit, after: previous)
            guard players.indices.contains(visit.seat) else {
                throw ReplayFailure(leg: visit.leg, turn: visit.turn, "no player sits at order \(visit.seat).")
            }
            do {
                _ = try match.apply(.recordVisit(playerId: players[visit.seat].id, visit: visit.visit), by: scorer, at: finishedAt)
            } catch {
                throw ReplayFailure(leg: visit.leg, turn: visit.turn, Self.reason(error))
            }
            try match.checkClaims(of: visit)
            previous = visit
        }
        guard match.status == .finished else {
            let last = previous ?? first
            if match.legs.count > last.leg {
                throw ReplayFailure(
                    leg: last.leg, turn: last.turn, "the match is not over after this leg: it is \(match.formatDescription), and nobody has won enough.")
            }
            throw ReplayFailure(leg: last.leg, turn: last.turn, "leg \(last.leg) does not end at zero: \(match.unfinishedLeg()).")
        }
        return match
    }

    /// Checks that `visit` comes where the match is: the next turn of the leg being played, or the first
    /// of the next leg once the last one was won.
    private func checkPlace(of visit: ReplayVisit, after previous: ReplayVisit?) throws(ReplayFailure) {
        guard let previous else {
            guard visit.leg == 1, visit.turn == 1 else {
                throw ReplayFailure(leg: visit.leg, turn: visit.turn, "the first visit must be leg 1, turn 1.")
            }
            return
        }
        if visit.leg == previous.leg && visit.turn == previous.turn {
            throw ReplayFailure(leg: visit.leg, turn: visit.turn, "this turn is uploaded more than once.")
        }
        if status == .finished {
            throw ReplayFailure(
                leg: visit.leg, turn: visit.turn,
                "the match was won at leg \(previous.leg), turn \(previous.turn) (\(formatDescription)); nothing follows it.")
        }
        // A leg was won by the previous visit exactly when the reducer has started the next one.
        if legs.count > previous.leg {
            if visit.leg == previous.leg + 1 && visit.turn == 1 { return }
            if visit.leg == previous.leg {
                throw ReplayFailure(
                    leg: visit.leg, turn: visit.turn, "leg \(previous.leg) was won at turn \(previous.turn); nothing follows it in that leg.")
            }
            throw ReplayFailure(leg: visit.leg, turn: visit.turn, "turns are numbered without gaps: leg \(previous.leg + 1), turn 1 comes next.")
        }
        if visit.leg == previous.leg && visit.turn == previous.turn + 1 { return }
        if visit.leg > previous.leg {
            // The uploader moved on to another leg: the one before did not end at zero.
            throw ReplayFailure(leg: previous.leg, turn: previous.turn, "leg \(previous.leg) does not end at zero: \(unfinishedLeg()).")
        }
        throw ReplayFailure(
            leg: visit.leg, turn: visit.turn, "turns are numbered without gaps: leg \(previous.leg), turn \(previous.turn + 1) comes next.")
    }

    /// Checks what the uploader's app said the visit left against what the darts make.
    private func checkClaims(of visit: ReplayVisit) throws(ReplayFailure) {
        guard let scored = lastVisit?.scored else { return }
        if let isBust = visit.isBust, isBust != scored.isBust {
            throw ReplayFailure(
                leg: visit.leg, turn: visit.turn, scored.isBust ? "the darts bust, but is_bust is false." : "the darts do not bust, but is_bust is true.")
        }
        if let remaining = visit.remaining, remaining != scored.remainingAfter {
            throw ReplayFailure(leg: visit.leg, turn: visit.turn, "the darts leave \(scored.remainingAfter), not \(remaining).")
        }
    }

    /// "Bo is left on 32" for the leg being played.
    private func unfinishedLeg() -> String {
        let standing = players.indices.map { "\(players[$0].name) on \(remaining(of: $0))" }.joined(separator: ", ")
        return "nobody checked out (\(standing))"
    }

    /// "first to 2 legs", "first to 2 sets of 3 legs": what the settings say wins.
    private var formatDescription: String {
        let legWord = settings.legs == 1 ? "leg" : "legs"
        guard let sets = settings.sets else { return "first to \(settings.legs) \(legWord)" }
        return "first to \(sets) \(sets == 1 ? "set" : "sets") of \(settings.legs) \(legWord)"
    }

    private static func reason(_ error: DartsError) -> String {
        switch error {
        case .notYourTurn(let expected): "it was \(expected)'s turn to throw."
        default: error.message
        }
    }
}
