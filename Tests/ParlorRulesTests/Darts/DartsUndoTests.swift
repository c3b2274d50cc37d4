import Testing
@testable import ParlorRules

/// Taking the last visit back (`undoLastVisit`): on the terms of editing it — the last only, by whoever
/// recorded it or the host — and a leg it won reopens.
@Suite struct DartsUndoTests {
    @Test func undoingACheckoutReopensTheLegAndGivesTheTurnBack() throws {
        var match = try DartsEditTests.annOn121()
        try match.throwVisit("T20 T11 D14")
        #expect(match.legs.count == 2 && match.legsWon(by: 0) == 1)
        let version = match.version
        #expect(try match.apply(.undoLastVisit(number: 3), by: user(1), at: t0) == [.visitUndone(seat: 0)])
        #expect(match.legs.count == 1 && match.legs[0].winner == nil && match.legsWon(by: 0) == 0)
        #expect(match.remaining(of: 0) == 121 && match.currentPlayer == 0 && match.visitCount == 2 && match.version == version + 1)
        // Undoing again takes back Bo's visit before it: each undo is of the last visit there is.
        #expect(try match.apply(.undoLastVisit(number: nil), by: user(1), at: t0) == [.visitUndone(seat: 1)])
        #expect(match.currentPlayer == 1 && match.visitCount == 1)
    }

    @Test func onlyTheLastVisitByItsRecorderOrTheHost() throws {
        var match = try DartsEditTests.annOn121()
        #expect(dartsError { _ = try match.apply(.undoLastVisit(number: 1), by: user(1), at: t0) }
            == .invalidState(reason: "Only the last visit (#2) can be undone; visit #1 is final."))
        let stranger = UserID("00000000-0000-4000-8000-000000000099")!
        #expect(dartsError { _ = try match.apply(.undoLastVisit(number: nil), by: stranger, at: t0) }
            == .notHost(action: "undo a visit someone else recorded"))
        var waiting = try DartsMatch.started(X01Settings(gameType: .x301), players: 2)
        #expect(dartsError { _ = try waiting.apply(.undoLastVisit(number: nil), by: user(1), at: t0) }
            == .invalidState(reason: "No visit has been recorded yet."))
    }
}
