import Testing
@testable import ParlorRules

/// An uploaded match is replayed through the live reducer: the same statistics, and the first visit
/// that could not have been thrown named by leg and turn.
@Suite struct DartsReplayTests {
    static let later = t0.adding(milliseconds: 600_000)
    static let seats = [DartsPlayer(id: user(1), name: "Ann", isGuest: false), DartsPlayer(id: user(9), name: "Gil", isGuest: true)]

    /// Ann T20 T20 T20, Gil 100, Ann T20 T11 D14 (121): Ann wins a 301 leg.
    static let leg: [ReplayVisit] = [
        ReplayVisit(leg: 1, turn: 1, seat: 0, visit: visit("T20 T20 T20"), remaining: 121, isBust: false),
        ReplayVisit(leg: 1, turn: 2, seat: 1, visit: visit(total: 100), remaining: 201),
        ReplayVisit(leg: 1, turn: 3, seat: 0, visit: visit("T20 T11 D14"), remaining: 0, isBust: false),
    ]

    static func replay(
        _ visits: [ReplayVisit], _ settings: X01Settings = X01Settings(gameType: .x301)
    ) throws(ReplayFailure) -> DartsMatch {
        try DartsMatch.replay(
            id: "upload-1", settings: settings, players: seats, scorer: user(1), visits: visits, startedAt: t0, finishedAt: later)
    }

    static func failure(_ visits: [ReplayVisit], _ settings: X01Settings = X01Settings(gameType: .x301)) -> ReplayFailure? {
        do {
            _ = try replay(visits, settings)
            return nil
        } catch {
            return error
        }
    }

    @Test func aReplayedLegHasTheStatisticsOfTheSameLegPlayedLive() throws {
        let replayed = try Self.replay(Self.leg.reversed())
        var live = try DartsMatch.create(
            id: "live", code: MatchCode(uncheckedRawValue: "ACDEF"), settings: X01Settings(gameType: .x301), host: user(1),
            playerName: "Ann", at: t0)
        _ = try live.apply(.addGuest(name: "Gil", id: user(9)), by: user(1), at: t0)
        _ = try live.apply(.start, by: user(1), at: t0)
        for visit in Self.leg { try live.throwVisit(visit.visit) }

        #expect(replayed.status == .finished && replayed.winner == 0 && replayed.finishedAt == Self.later)
        #expect(replayed.code == .offline && replayed.startedAt == t0)
        #expect(replayed.legs.map(\.visits).map { $0.map(\.scored) } == live.legs.map(\.visits).map { $0.map(\.scored) })
        for seat in 0..<2 { #expect(DartsStatistics.match(replayed, seat: seat) == DartsStatistics.match(live, seat: seat)) }
        #expect(replayed.tally(seat: 0) == ["won": 1, "points": 301, "darts": 6, "highest_checkout": 121])
        #expect(replayed.accountTallies == [user(1): replayed.tally(seat: 0)])
    }

    @Test func legsAndSetsFollowTheSettings() throws {
        // First to 2 legs: Ann wins leg 1; Gil starts leg 2 and wins it; Ann starts leg 3 and wins it.
        let ann = { (leg: Int, turn: Int, darts: String) in ReplayVisit(leg: leg, turn: turn, seat: 0, visit: visit(darts)) }
        let gil = { (leg: Int, turn: Int, darts: String) in ReplayVisit(leg: leg, turn: turn, seat: 1, visit: visit(darts)) }
        let visits = [
            ann(1, 1, "T20 T20 T20"), gil(1, 2, "M M M"), ann(1, 3, "T20 T11 D14"),
            gil(2, 1, "T20 T20 T20"), ann(2, 2, "M M M"), gil(2, 3, "T20 T11 D14"),
            ann(3, 1, "T20 T20 T20"), gil(3, 2, "M M M"), ann(3, 3, "T20 T11 D14"),
        ]
        let match = try Self.replay(visits, X01Settings(gameType: .x301, legs: 2))
        #expect(match.winner == 0 && match.totalLegsWon(by: 0) == 2 && match.totalLegsWon(by: 1) == 1)
        // Under first to 1 leg the same visits go on past the end of the match.
        #expect(Self.failure(visits)?.message == "Leg 2, turn 1: the match was won at leg 1, turn 3 (first to 1 leg); nothing follows it.")
    }

    @Test func theFirstImpossibleVisitIsNamed() {
        var visits = Self.leg
        visits[1].visit = visit(total: 179)
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 2, "179 cannot be scored with three darts."))
        visits = Self.leg
        visits[2].visit = visit("T20 T21 D14")
        #expect(Self.failure(visits)?.message.hasPrefix("Leg 1, turn 3: \"T21\" is not a dart") == true)
        // A finish entered as a total cannot show its double.
        visits = Self.leg
        visits[2].visit = visit(total: 121)
        #expect(Self.failure(visits)?.reason.hasPrefix("A visit that finishes the leg must name its darts") == true)
    }

    @Test func aLegThatDoesNotEndAtZeroIsNamedByItsLastVisit() {
        var visits = Array(Self.leg.prefix(2))
        visits.append(ReplayVisit(leg: 2, turn: 1, seat: 1, visit: visit("T20 T20 T20")))
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 2, "leg 1 does not end at zero: nobody checked out (Ann on 121, Gil on 201)."))
        // Nor may the upload simply stop before the end.
        #expect(Self.failure(Array(Self.leg.prefix(2))) == ReplayFailure(
            leg: 1, turn: 2, "leg 1 does not end at zero: nobody checked out (Ann on 121, Gil on 201)."))
        // A leg that ends, in a match that needs more of them.
        #expect(Self.failure(Self.leg, X01Settings(gameType: .x301, legs: 2)) == ReplayFailure(
            leg: 1, turn: 3, "the match is not over after this leg: it is first to 2 legs, and nobody has won enough."))
    }

    @Test func whatTheAppClaimedIsChecked() {
        var visits = Self.leg
        visits[1].remaining = 200
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 2, "the darts leave 201, not 200."))
        visits = Self.leg
        visits[0].isBust = true
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 1, "the darts do not bust, but is_bust is true."))
    }

    @Test func turnsGoRoundInOrderWithoutGapsOrRepeats() {
        var visits = Self.leg
        visits[1].seat = 0
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 2, "it was Gil's turn to throw."))
        visits = Self.leg
        visits[2].turn = 4
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 4, "turns are numbered without gaps: leg 1, turn 3 comes next."))
        visits = Self.leg
        visits[2].turn = 2
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 2, "this turn is uploaded more than once."))
        visits = Self.leg
        visits[0].seat = 5
        #expect(Self.failure(visits) == ReplayFailure(leg: 1, turn: 1, "no player sits at order 5."))
        #expect(Self.failure([]) == ReplayFailure(leg: 1, turn: 1, "the match has no visits."))
        #expect(Self.failure(Self.leg.map { var visit = $0; visit.leg = 2; return visit }) == ReplayFailure(
            leg: 2, turn: 1, "the first visit must be leg 1, turn 1."))
        visits = Self.leg
        visits.append(ReplayVisit(leg: 1, turn: 4, seat: 1, visit: visit("T20 T20 T20")))
        #expect(Self.failure(visits)?.reason == "the match was won at leg 1, turn 3 (first to 1 leg); nothing follows it.")
    }

    @Test func aWonLegTakesNoMoreVisits() {
        let visits = Self.leg + [ReplayVisit(leg: 1, turn: 4, seat: 1, visit: visit("T20 T20 T20"))]
        #expect(Self.failure(visits, X01Settings(gameType: .x301, legs: 2)) == ReplayFailure(
            leg: 1, turn: 4, "leg 1 was won at turn 3; nothing follows it in that leg."))
    }
}
