import Testing
@testable import ParlorRules

/// Playing: turns, who may enter a visit, busts and checkouts in a match, legs, sets and the rotation of
/// the starting player, the finish and its history.
@Suite struct DartsMatchPlayTests {
    /// 301 double out, won by the seat to throw in two visits (180, then T20 T11 D14) while every other
    /// seat misses.
    static func winLeg301(_ match: inout DartsMatch) throws {
        guard let winner = match.currentPlayer else { throw DartsError.invalidState(reason: "not playing") }
        try match.throwVisit("T20 T20 T20")
        while match.currentPlayer != winner { try match.throwVisit("M M M") }
        try match.throwVisit("T20 T11 D14")
    }

    @Test func turnsGoRoundAndOnlyTheThrowerOrTheHostEnterAVisit() throws {
        var match = try DartsMatch.started(X01Settings(gameType: .x501), players: 3)
        let before = match
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(2), visit: visit("T20 T20 T20")), by: user(2), at: t0) }
            == .notYourTurn(expected: "Ann"))
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(1), visit: visit("T20 T20 T20")), by: user(2), at: t0) }
            == .notHost(action: "record another player's visit"))
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(9), visit: visit("T20 T20 T20")), by: user(1), at: t0) }
            == .playerNotFound(playerId: user(9).rawValue))
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(1), visit: visit("T20 T21")), by: user(1), at: t0) }?.message
            .hasPrefix("\"T21\" is not a dart") == true)
        #expect(match == before)
        #expect(try match.apply(.recordVisit(playerId: user(1), visit: visit("T20 S20 S5")), by: user(1), at: t0).count == 1)
        // The host enters Bo's visit; Bo enters nobody else's.
        _ = try match.apply(.recordVisit(playerId: user(2), visit: visit(total: 45)), by: user(1), at: t0)
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(3), visit: visit(total: 1)), by: user(2), at: t0) }
            == .notHost(action: "record another player's visit"))
        _ = try match.apply(.recordVisit(playerId: user(3), visit: visit(total: 100)), by: user(3), at: t0)
        #expect(match.currentPlayer == 0 && match.version == before.version + 3)
        #expect([0, 1, 2].map(match.remaining(of:)) == [416, 456, 401])
        #expect(match.visits(of: 1).map(\.recordedBy) == [user(1)])
    }

    @Test func aVisitBeforeTheStartOrAfterTheFinishIsInvalidState() throws {
        var match = try DartsMatchSeatsTests.waiting()
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(1), visit: visit("T20 T20 T20")), by: user(1), at: t0) }
            == .invalidState(reason: "Match ACDEF has not started yet."))
        _ = try match.apply(.start, by: user(1), at: t0)
        try match.throwVisit("T20 T20 T20")
        try match.throwVisit("T20 T20 T20")
        try match.throwVisit("T20 T19 D12")
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(1), visit: visit("M M M")), by: user(1), at: t0) }
            == .invalidState(reason: "Match ACDEF is finished."))
    }

    @Test func aBustInAMatchKeepsTheScoreAndPassesTheTurn() throws {
        var match = try DartsMatch.started(X01Settings(gameType: .x301))
        try match.throwVisit("T20 T20 T20")  // Ann 121
        try match.throwVisit("T20 T20 T20")  // Bo 121
        try match.throwVisit("T20 T20 D1")   // Ann: 122 > 121, bust
        #expect(match.remaining(of: 0) == 121 && match.currentPlayer == 1)
        #expect(match.visits(of: 0).last?.scored.isBust == true)
        try match.throwVisit("T20 T20 M")    // Bo: 1 left, bust under double out
        #expect(match.remaining(of: 1) == 121 && match.visits(of: 1).last?.scored.isBust == true)
    }

    @Test func aNineDarterWinsTheLegAndTheMatch() throws {
        var match = try DartsMatch.started(X01Settings(gameType: .x501))
        try match.throwVisit("T20 T20 T20")
        #expect(match.checkout == nil)  // Bo on 501
        try match.throwVisit("S20 S20 S20")
        try match.throwVisit("T20 T20 T20")
        try match.throwVisit("S20 S20 S20")
        #expect(match.currentPlayer == 0 && match.remaining(of: 0) == 141 && match.checkout == darts("T20 T19 D12"))
        let later = t0.adding(seconds: 600)
        let outcome = try match.apply(.recordVisit(playerId: user(1), visit: visit("T20 T19 D12")), by: .user(user(1)), at: later, in: ())
        let finish = try #require(match.lastVisit).scored
        #expect(finish.isCheckout && finish.dartsThrown == 3 && finish.remainingBefore == 141)
        #expect(outcome.events == [.visitRecorded(seat: 0, finish), .legWon(seat: 0), .matchWon(seat: 0)])
        #expect(match.status == .finished && match.winner == 0 && match.finishedAt == later && match.currentPlayer == nil)
        #expect(match.checkout == nil && match.legsWon(by: 0) == 1 && match.legs.count == 1)
        #expect(outcome.archive == GameArchive(key: "match-1", players: [user(1), user(2)], finishedAt: later))
        let stats = DartsStatistics.match(match, seat: 0)
        #expect(stats.dartsThrown == 9 && stats.threeDartAverage == 167 && stats.firstNineAverage == 167)
        #expect(stats.count180 == 2 && stats.highestCheckout == 141 && stats.checkoutPercent == 100 && stats.legsWon == 1)
    }

    @Test func theStartingPlayerRotatesEveryLegAndSetsAreFirstToTheirLegs() throws {
        // First to 2 sets of first to 2 legs, three players.
        var match = try DartsMatch.started(X01Settings(gameType: .x301, legs: 2, sets: 2), players: 3)
        var starters: [Int] = []
        var winners: [Int] = []
        var positions: [(set: Int, leg: Int)] = []
        while match.status == .playing {
            let leg = try #require(match.currentLeg)
            starters.append(leg.starter)
            positions.append((leg.set, leg.number))
            try Self.winLeg301(&match)
            winners.append(try #require(match.legs[positions.count - 1].winner))
        }
        // Each leg is won by whoever starts it (seat 0, 1, 2, 0, …), so each set goes to four legs and
        // the sets go to seats 0, 1, 2, then 0 again, who has two.
        #expect(starters == (0..<16).map { $0 % 3 } && winners == starters)
        #expect(positions.map(\.set) == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4])
        #expect(positions.map(\.leg) == [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4])
        #expect(match.status == .finished && match.winner == 0)
        #expect([0, 1, 2].map(match.setsWon(by:)) == [2, 1, 1])
        #expect([0, 1, 2].map(match.legsWon(by:)) == [2, 1, 1])
        #expect([0, 1, 2].map(match.totalLegsWon(by:)) == [6, 5, 5])
    }

    @Test func aMatchOfLegsIsFirstToItsLegs() throws {
        var match = try DartsMatch.started(X01Settings(gameType: .x301, legs: 2))
        try Self.winLeg301(&match)  // Ann starts and wins leg 1
        #expect(match.currentLeg == DartsLeg(set: 1, number: 2, starter: 1) && match.legsWon(by: 0) == 1)
        #expect(match.currentPlayer == 1 && match.remaining(of: 0) == 301 && match.remaining(of: 1) == 301)
        try Self.winLeg301(&match)  // Bo starts and wins leg 2
        #expect(match.currentLeg?.starter == 0 && match.legsWon(by: 1) == 1 && match.setsWon(by: 1) == 0)
        let events = try match.throwVisit("T20 T20 T20") + match.throwVisit("M M M") + match.throwVisit("T20 T11 D14")
        #expect(events.suffix(2) == [.legWon(seat: 0), .matchWon(seat: 0)])
        #expect(match.status == .finished && match.legsWon(by: 0) == 2 && match.legs.count == 3)
    }
}
