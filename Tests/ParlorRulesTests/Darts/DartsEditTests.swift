import Testing
@testable import ParlorRules

/// Replacing the last visit (the seed: "game edits allowed only for last turn"): scored again from the
/// score before it, undoing or creating a checkout, a leg and a set; anything earlier is final.
@Suite struct DartsEditTests {
    /// First to 2 legs of 301: Ann (seat 0) stands on 121 after 180, Bo on 301 after misses; Ann to throw.
    static func annOn121() throws -> DartsMatch {
        var match = try DartsMatch.started(X01Settings(gameType: .x301, legs: 2))
        try match.throwVisit("T20 T20 T20")
        try match.throwVisit("M M M")
        return match
    }

    @Test func anEditThatUndoesACheckoutReopensTheLeg() throws {
        var match = try Self.annOn121()
        try match.throwVisit("T20 T11 D14")
        #expect(match.legs.count == 2 && match.legsWon(by: 0) == 1 && match.currentPlayer == 1)
        let version = match.version
        let events = try match.apply(.editLastVisit(number: 3, visit: visit("T20 T11 S14")), by: user(1), at: t0)
        #expect(events.count == 1)
        guard case .visitEdited(seat: 0, let scored) = events.first else { Issue.record("\(events)"); return }
        #expect(!scored.isCheckout && scored.remainingAfter == 14)
        #expect(match.legs.count == 1 && match.legs[0].winner == nil && match.legsWon(by: 0) == 0)
        #expect(match.remaining(of: 0) == 14 && match.currentPlayer == 1 && match.visitCount == 3)
        #expect(match.version == version + 1)
    }

    @Test func anEditThatCreatesACheckoutWinsTheLeg() throws {
        var match = try Self.annOn121()
        try match.throwVisit("T20 T11 M")
        #expect(match.remaining(of: 0) == 28 && match.currentPlayer == 1)
        let events = try match.apply(.editLastVisit(number: nil, visit: visit("T20 T11 D14")), by: user(1), at: t0)
        #expect(events.suffix(1) == [.legWon(seat: 0)])
        #expect(match.legs.count == 2 && match.legs[0].winner == 0 && match.currentLeg?.starter == 1 && match.currentPlayer == 1)
        #expect(match.legsWon(by: 0) == 1 && match.remaining(of: 0) == 301)
        // And the edit of an edit: still the last visit (in the leg before the new, empty one).
        _ = try match.apply(.editLastVisit(number: 3, visit: visit("T20 T11 M")), by: user(1), at: t0)
        #expect(match.legs.count == 1 && match.remaining(of: 0) == 28)
    }

    @Test func anEditCanCreateOrUndoABust() throws {
        var match = try Self.annOn121()
        try match.throwVisit("T20 T19 M")
        #expect(match.remaining(of: 0) == 4 && match.visits(of: 0).last?.scored.isBust == false)
        _ = try match.apply(.editLastVisit(number: nil, visit: visit("T20 T20 D1")), by: user(1), at: t0)
        #expect(match.visits(of: 0).last?.scored.isBust == true && match.remaining(of: 0) == 121)
        _ = try match.apply(.editLastVisit(number: nil, visit: visit(total: 100)), by: user(1), at: t0)
        #expect(match.remaining(of: 0) == 21 && match.visits(of: 0).count == 2)
    }

    @Test func anEditThatUndoesASetWinReopensTheSet() throws {
        var match = try DartsMatch.started(X01Settings(gameType: .x301, legs: 1, sets: 2))
        try DartsMatchPlayTests.winLeg301(&match)
        #expect(match.setsWon(by: 0) == 1 && match.currentLeg?.set == 2)
        _ = try match.apply(.editLastVisit(number: nil, visit: visit("T20 T11 M")), by: user(1), at: t0)
        #expect(match.setsWon(by: 0) == 0 && match.currentLeg?.set == 1 && match.legs.count == 1)
    }

    @Test func onlyTheLastVisitCanBeEditedAndOnlyByWhoeverRecordedItOrTheHost() throws {
        var match = try Self.annOn121()
        try match.throwVisit("T20 T11 M")  // Ann's, visit 3
        let before = match
        #expect(dartsError { _ = try match.apply(.editLastVisit(number: 2, visit: visit("S1 S1 S1")), by: user(1), at: t0) }
            == .invalidState(reason: "Only the last visit (#3) can be edited; visit #2 is final."))
        #expect(dartsError { _ = try match.apply(.editLastVisit(number: nil, visit: visit("S1 S1 S1")), by: user(2), at: t0) }
            == .notHost(action: "edit a visit someone else recorded"))
        #expect(dartsError { _ = try match.apply(.editLastVisit(number: nil, visit: visit("S1 X S1")), by: user(1), at: t0) }?.message
            .hasPrefix("\"X\" is not a dart") == true)
        #expect(dartsError { _ = try match.apply(.editLastVisit(number: nil, visit: visit("T20 T11")), by: user(1), at: t0) } != nil)
        #expect(match == before)
        // Bo's own visit: he may edit it, and so may the host.
        _ = try match.apply(.recordVisit(playerId: user(2), visit: visit(total: 26)), by: user(2), at: t0)
        _ = try match.apply(.editLastVisit(number: 4, visit: visit(total: 41)), by: user(2), at: t0)
        _ = try match.apply(.editLastVisit(number: 4, visit: visit(total: 45)), by: user(1), at: t0)
        #expect(match.remaining(of: 1) == 256 && match.lastVisit?.recordedBy == user(1))
        // The host's edit makes the host its recorder: Bo can no longer change it.
        #expect(dartsError { _ = try match.apply(.editLastVisit(number: 4, visit: visit(total: 0)), by: user(2), at: t0) }
            == .notHost(action: "edit a visit someone else recorded"))
    }

    @Test func nothingToEditBeforeTheFirstVisitAndNothingOnceFinished() throws {
        var waiting = try DartsMatchSeatsTests.waiting()
        #expect(dartsError { _ = try waiting.apply(.editLastVisit(number: nil, visit: visit("M M M")), by: user(1), at: t0) }
            == .invalidState(reason: "No visit has been recorded yet."))
        var match = try DartsMatch.started(X01Settings(gameType: .x301))
        #expect(dartsError { _ = try match.apply(.editLastVisit(number: nil, visit: visit("M M M")), by: user(1), at: t0) }
            == .invalidState(reason: "No visit has been recorded yet."))
        try DartsMatchPlayTests.winLeg301(&match)
        #expect(match.status == .finished)
        #expect(dartsError { _ = try match.apply(.editLastVisit(number: nil, visit: visit("T20 T11 M")), by: user(1), at: t0) }
            == .invalidState(reason: "Match ACDEF is finished and filed; its visits can no longer be edited."))
    }
}
