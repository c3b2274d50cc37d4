import Foundation
import Testing
@testable import ParlorRules

/// A match before and around play: settings, seats, guests, the start, and leaving.
@Suite struct DartsMatchSeatsTests {
    static let code = MatchCode(uncheckedRawValue: "ACDEF")

    static func waiting(_ settings: X01Settings = X01Settings(gameType: .x501)) throws -> DartsMatch {
        try DartsMatch.create(id: "match-1", code: code, settings: settings, host: user(1), playerName: " Ann ", at: t0)
    }

    @Test func createKeepsTheSettingsAndSeatsTheHost() throws {
        let match = try Self.waiting(X01Settings(gameType: .x301, inRule: .double, outRule: .master, legs: 3, sets: 2, capacity: 2))
        #expect(match.status == .waiting && match.version == 1 && match.hostId == user(1))
        #expect(match.players == [DartsPlayer(id: user(1), name: "Ann", isGuest: false)])
        #expect(match.settings.gameType == .x301 && match.settings.inRule == .double && match.settings.outRule == .master)
        #expect(match.settings.legs == 3 && match.settings.sets == 2 && match.currentPlayer == nil && match.checkout == nil)
        #expect(X01GameType.allCases.map(\.startingScore) == [301, 501, 701])
    }

    @Test func createRefusesSettingsOutOfRange() {
        let cases: [(X01Settings, String)] = [
            (X01Settings(gameType: .x501, legs: 0), "legs must be between 1 and 15 (got 0)."),
            (X01Settings(gameType: .x501, legs: 16), "legs must be between 1 and 15 (got 16)."),
            (X01Settings(gameType: .x501, sets: 0), "sets must be between 1 and 13 (got 0)."),
            (X01Settings(gameType: .x501, capacity: 0), "capacity must be between 1 and 8 (got 0)."),
            (X01Settings(gameType: .x501, capacity: 9), "capacity must be between 1 and 8 (got 9)."),
        ]
        for (settings, message) in cases {
            #expect(dartsError { _ = try DartsMatch.create(id: "m", code: Self.code, settings: settings, host: user(1), playerName: "Ann", at: t0) }?.message == message)
        }
        #expect(dartsError { _ = try DartsMatch.create(id: "m", code: Self.code, settings: X01Settings(gameType: .x501), host: user(1), playerName: "  ", at: t0) }
            == .invalidInput(field: "playerName", reason: "playerName must not be empty."))
    }

    @Test func playersJoinUntilTheMatchIsFull() throws {
        var match = try Self.waiting(X01Settings(gameType: .x501, capacity: 2))
        #expect(try match.apply(.join(playerName: "Bo"), by: user(2), at: t0) == [.joined(user(2))])
        #expect(try match.apply(.join(playerName: "Bo again"), by: user(2), at: t0).isEmpty)
        #expect(match.version == 2 && match.players.map(\.name) == ["Ann", "Bo"])
        #expect(dartsError { _ = try match.apply(.join(playerName: "Cy"), by: user(3), at: t0) } == .matchFull(capacity: 2))
        #expect(dartsError { _ = try match.apply(.addGuest(name: "Gil", id: user(50)), by: user(1), at: t0) } == .matchFull(capacity: 2))
    }

    @Test func onlyTheHostAddsGuestsAndRemovesPlayers() throws {
        var match = try Self.waiting()
        _ = try match.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        #expect(dartsError { _ = try match.apply(.addGuest(name: "Gil", id: user(50)), by: user(2), at: t0) } == .notHost(action: "add a guest"))
        #expect(try match.apply(.addGuest(name: "Gil", id: user(50)), by: user(1), at: t0) == [.guestAdded(user(50))])
        #expect(match.players.last == DartsPlayer(id: user(50), name: "Gil", isGuest: true))
        #expect(match.members == [user(1), user(2)])
        #expect(dartsError { _ = try match.apply(.addGuest(name: "", id: user(51)), by: user(1), at: t0) }
            == .invalidInput(field: "name", reason: "name must not be empty."))
        #expect(dartsError { _ = try match.apply(.addGuest(name: "Twin", id: user(50)), by: user(1), at: t0) }?.message == "That guest id is already taken; try again.")
        #expect(dartsError { _ = try match.apply(.removePlayer(playerId: user(50)), by: user(2), at: t0) } == .notHost(action: "remove a player"))
        #expect(dartsError { _ = try match.apply(.removePlayer(playerId: user(9)), by: user(1), at: t0) } == .playerNotFound(playerId: user(9).rawValue))
        #expect(dartsError { _ = try match.apply(.removePlayer(playerId: user(1)), by: user(1), at: t0) }?.message
            == "The host cannot remove themselves; leave the match instead.")
        #expect(try match.apply(.removePlayer(playerId: user(50)), by: user(1), at: t0) == [.removed(user(50))])
        #expect(try match.apply(.removePlayer(playerId: user(2)), by: user(1), at: t0) == [.removed(user(2))])
        #expect(match.players.map(\.name) == ["Ann"] && match.version == 5)
    }

    @Test func onlyTheHostStartsAndSeatsLockOnceStarted() throws {
        var match = try Self.waiting()
        _ = try match.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        #expect(dartsError { _ = try match.apply(.start, by: user(2), at: t0) } == .notHost(action: "start the match"))
        #expect(try match.apply(.start, by: user(1), at: t0.adding(seconds: 5)) == [.started])
        #expect(match.status == .playing && match.startedAt == t0.adding(seconds: 5))
        #expect(match.currentPlayer == 0 && match.remaining(of: 0) == 501 && match.remaining(of: 1) == 501)
        #expect(match.currentLeg == DartsLeg(set: 1, number: 1, starter: 0))
        let started = match
        for (action, by) in [
            (DartsAction.start, user(1)), (.join(playerName: "Cy"), user(3)), (.addGuest(name: "Gil", id: user(50)), user(1)),
            (.removePlayer(playerId: user(2)), user(1)),
        ] {
            #expect(dartsError { _ = try match.apply(action, by: by, at: t0) }.map { if case .invalidState = $0 { true } else { false } } == true, "\(action)")
        }
        #expect(match == started)
    }

    @Test func aPracticeMatchOfOnePlayerIsAllowed() throws {
        var match = try Self.waiting()
        _ = try match.apply(.start, by: user(1), at: t0)
        try match.throwVisit("T20 T20 T20")
        #expect(match.currentPlayer == 0 && match.remaining(of: 0) == 321)
        try match.throwVisit("T20 T20 T20")
        let events = try match.throwVisit("T20 T19 D12")
        #expect(events.contains(.matchWon(seat: 0)) && match.status == .finished && match.winner == 0)
    }

    @Test func leavingBeforeTheStartFreesTheSeatAndPassesTheHost() throws {
        var match = try Self.waiting()
        _ = try match.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try match.apply(.addGuest(name: "Gil", id: user(50)), by: user(1), at: t0)
        #expect(dartsError { _ = try match.apply(.leave, by: user(9), at: t0) } == .playerNotFound(playerId: user(9).rawValue))
        #expect(try match.apply(.leave, by: user(1), at: t0) == [.left(user(1)), .hostChanged(user(2))])
        #expect(match.hostId == user(2) && match.players.map(\.name) == ["Bo", "Gil"])
        // The last account player out deletes the match, guests and all.
        let outcome = try match.apply(.leave, by: .user(user(2)), at: t0, in: ())
        #expect(outcome.deletes && outcome.events == [.deleted])
        var alone = try Self.waiting()
        #expect(try alone.apply(.leave, by: .user(user(1)), at: t0, in: ()).deletes)
    }

    @Test func leavingDuringPlayKeepsTheSeatForTheHostToScore() throws {
        var match = try DartsMatch.started(X01Settings(gameType: .x501), players: 3)
        _ = try match.apply(.leave, by: user(2), at: t0)
        #expect(match.players[1].hasLeft && match.players.count == 3 && match.members == [user(1), user(3)])
        try match.throwVisit("S20 S20 S20")
        // Bo's turn: he has left, so only the host enters it.
        #expect(dartsError { _ = try match.apply(.recordVisit(playerId: user(2), visit: visit("S1 S1 S1")), by: user(2), at: t0) }
            == .notHost(action: "record another player's visit"))
        _ = try match.apply(.recordVisit(playerId: user(2), visit: visit("S1 S1 S1")), by: user(1), at: t0)
        #expect(dartsError { _ = try match.apply(.leave, by: user(2), at: t0) } == .playerNotFound(playerId: user(2).rawValue))
        // Joining again takes the seat back.
        #expect(try match.apply(.join(playerName: "ignored"), by: user(2), at: t0) == [.rejoined(user(2))])
        #expect(!match.players[1].hasLeft && match.players[1].name == "Bo")
        // The host leaving mid-match passes the host on; history still has everyone who played.
        #expect(try match.apply(.leave, by: user(1), at: t0) == [.left(user(1)), .hostChanged(user(2))])
        #expect(match.historyPlayers == [user(1), user(2), user(3)])
    }

    @Test func theClockCannotAct() throws {
        var match = try Self.waiting()
        #expect(dartsError { _ = try match.apply(.start, by: .clock, at: t0, in: ()) } != nil)
    }

    @Test func aMatchRoundTripsThroughItsStoredForm() throws {
        var match = try DartsMatch.started(X01Settings(gameType: .x301, inRule: .double, legs: 2, sets: 3), players: 2)
        try match.throwVisit("T20 D20 S5")
        try match.throwVisit(visit(total: 0))
        let data = try JSONEncoder().encode(match)
        #expect(try JSONDecoder().decode(DartsMatch.self, from: data) == match)
    }
}
