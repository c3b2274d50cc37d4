import Testing
@testable import ParlorRules

/// A rematch of a finished match (`DartsMatch+Rematch`): the host starts it; the same settings and
/// players, guests too, the order turned by one, fresh scores, started at once; the old match records
/// its code once.
@Suite struct DartsRematchTests {
    static let settings = X01Settings(gameType: .x301, inRule: .straight, outRule: .double, legs: 1, sets: nil, capacity: 4)
    static let next = "4CWX9"

    /// Ann (host), Bo and the guest Gil; Ann checks out 121 in her second visit.
    static func finished() throws -> DartsMatch {
        var match = try DartsMatch.create(
            id: "match-1", code: MatchCode(uncheckedRawValue: "ACDEF"), settings: settings, host: user(1), playerName: "Ann", at: t0)
        _ = try match.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try match.apply(.addGuest(name: "Gil", id: user(3)), by: user(1), at: t0)
        _ = try match.apply(.start, by: user(1), at: t0)
        try match.throwVisit("T20 T20 T20")
        try match.throwVisit(visit(total: 60))
        try match.throwVisit(visit(total: 45))
        try match.throwVisit("T20 T11 D14")
        #expect(match.status == .finished && match.winner == 0)
        return match
    }

    @Test func theSamePlayersAndSettingsStartAgainWithTheNextThrowingFirst() throws {
        let old = try Self.finished()
        let later = t0.adding(seconds: 600)
        let next = try old.rematch(by: user(1), id: "match-2", code: Self.next, at: later)
        #expect(next.id == "match-2" && next.code.rawValue == Self.next && next.settings == Self.settings)
        #expect(next.players == [
            DartsPlayer(id: user(2), name: "Bo", isGuest: false), DartsPlayer(id: user(3), name: "Gil", isGuest: true),
            DartsPlayer(id: user(1), name: "Ann", isGuest: false),
        ])
        #expect(next.hostId == user(1) && next.status == .playing && next.startedAt == later && next.createdAt == later)
        #expect(next.owner == user(1), "it counts against the host's live games, as a created match does")
        #expect(next.currentPlayer == 0 && next.visitCount == 0 && next.winner == nil && next.rematch == nil)
        #expect((0..<3).allSatisfy { next.remaining(of: $0) == 301 && next.legsWon(by: $0) == 0 })
    }

    @Test func theOldMatchRecordsTheCodeOnce() throws {
        var old = try Self.finished()
        let version = old.version
        #expect(old.rematchCode == nil)
        #expect(try old.apply(DartsMatch.recordRematch(code: Self.next), by: user(1), at: t0) == [.rematchStarted(MatchCode(uncheckedRawValue: Self.next))])
        #expect(old.rematchCode == Self.next && old.version == version + 1)
        #expect(dartsError { _ = try old.apply(.recordRematch(code: "3CCCC"), by: user(1), at: t0) }
            == .invalidState(reason: "A rematch was already started: match \(Self.next)."))
    }

    @Test func onlyTheHostOfAFinishedMatch() throws {
        let old = try Self.finished()
        #expect(dartsError { _ = try old.rematch(by: user(2), id: "m2", code: Self.next, at: t0) } == .notHost(action: "start a rematch"))
        #expect(dartsError { _ = try old.rematch(by: user(9), id: "m2", code: Self.next, at: t0) } == .notHost(action: "start a rematch"))
        var playing = try DartsMatch.started(Self.settings, players: 2)
        let unfinished = DartsError.invalidState(reason: "Match ACDEF is not finished; a rematch starts once it is.")
        #expect(dartsError { _ = try playing.rematch(by: user(1), id: "m2", code: Self.next, at: t0) } == unfinished)
        #expect(dartsError { _ = try playing.apply(.recordRematch(code: Self.next), by: user(1), at: t0) } == unfinished)
    }

    @Test func whoLeftTheMatchIsNotSeatedAgain() throws {
        var old = try Self.finished()
        _ = try old.apply(.leave, by: user(1), at: t0)
        #expect(old.hostId == user(2))
        let next = try old.rematch(by: user(2), id: "m2", code: Self.next, at: t0)
        #expect(next.players.map(\.name) == ["Gil", "Bo"] && next.hostId == user(2) && next.members == [user(2)])
    }
}
