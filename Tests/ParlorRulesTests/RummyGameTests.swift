import Foundation
import Testing
@testable import ParlorRules

/// Scores, rounds, the finish, results, leaving and kicking.
@Suite struct RummyGameTests {
    static func started(players: Int, pointLimit: Int = 100) throws -> RummyRoom {
        var room = try RummyLobbyPhaseTests.readyRoom(players: players, pointLimit: pointLimit)
        _ = try room.apply(.startGame, by: user(1), at: t0)
        return room
    }

    @Test func scoresBeforeStartAreInvalidState() throws {
        var room = try RummyLobbyPhaseTests.readyRoom(players: 2)
        expectRoomError(.invalidState) { _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 5), by: user(2), at: t0) }
        expectRoomError(.invalidState) { _ = try room.apply(.nextRound, by: user(1), at: t0) }
    }

    @Test func playersScoreThemselvesAndTheModeratorScoresAnyone() throws {
        var room = try Self.started(players: 3)
        let v = room.version
        #expect(try room.apply(.submitScore(playerId: user(2), round: 1, score: 20), by: user(2), at: t0)
                == [.scoreSubmitted(user(2), round: 1, score: 20)])
        _ = try room.apply(.submitScore(playerId: user(3), round: 1, score: 7), by: user(1), at: t0)
        #expect(room.version == v + 2)
        expectRoomError(.notModerator) { _ = try room.apply(.submitScore(playerId: user(3), round: 1, score: 1), by: user(2), at: t0) }
        expectRoomError(.playerNotFound) { _ = try room.apply(.submitScore(playerId: user(9), round: 1, score: 1), by: user(1), at: t0) }
        // Overwrite, and a same-value write is a no-op.
        _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 25), by: user(2), at: t0)
        #expect(room.player(user(2))?.scores == [25, 0, 0, 0, 0, 0])
        #expect(try room.apply(.submitScore(playerId: user(2), round: 1, score: 25), by: user(2), at: t0).isEmpty)
        #expect(room.version == v + 3)
    }

    @Test func roundAndScoreAreBounded() throws {
        var room = try Self.started(players: 2)
        for round in [0, 2, 7, -1] {
            let error = roomError { _ = try room.apply(.submitScore(playerId: user(2), round: round, score: 1), by: user(2), at: t0) }
            #expect(error == .invalidInput(field: "round", reason: "round must be between 1 and 1 (got \(round))."))
        }
        for score in [-1, 1001] {
            let error = roomError { _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: score), by: user(2), at: t0) }
            #expect(error == .invalidInput(field: "score", reason: "score must be between 0 and 1000 (got \(score))."))
        }
        _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 1000), by: user(2), at: t0)
        _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 10), by: user(2), at: t0)
        _ = try room.apply(.nextRound, by: user(1), at: t0)
        // Earlier rounds stay editable.
        #expect(try room.apply(.submitScore(playerId: user(2), round: 1, score: 0), by: user(2), at: t0).count == 1)
        #expect(room.player(user(2))?.scores == [0, 0, 0, 0, 0, 0])
    }

    @Test func nextRoundNeedsTheModerator() throws {
        var room = try Self.started(players: 2)
        expectRoomError(.notModerator) { _ = try room.apply(.nextRound, by: user(2), at: t0) }
        #expect(try room.apply(.nextRound, by: user(1), at: t0) == [.roundAdvanced(to: 2)])
        #expect(room.currentRound == 2)
    }

    @Test func gameEndsAfterRoundSix() throws {
        var room = try Self.started(players: 2, pointLimit: 350)
        for round in 1...5 {
            _ = try room.apply(.submitScore(playerId: user(2), round: round, score: 10), by: user(1), at: t0)
            #expect(try room.apply(.nextRound, by: user(1), at: t0) == [.roundAdvanced(to: round + 1)])
        }
        let end = t0.adding(seconds: 3600)
        let events = try room.apply(.nextRound, by: user(1), at: end)
        #expect(room.isFinished && room.currentRound == 6 && room.finishedAt == end)
        let results = try #require(room.results)
        #expect(events == [.gameFinished(results)])
        #expect(results.winnerId == user(1))
        #expect(results.settlement == [RummyResults.Debt(from: user(2), to: user(1), amount: 500)])
        expectRoomError(.invalidState) { _ = try room.apply(.nextRound, by: user(1), at: t0) }
        expectRoomError(.invalidState) { _ = try room.apply(.submitScore(playerId: user(2), round: 6, score: 1), by: user(2), at: t0) }
    }

    @Test func gameEndsWhenSomeoneReachesThePointLimit() throws {
        var room = try Self.started(players: 3, pointLimit: 100)
        _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 99), by: user(1), at: t0)
        #expect(try room.apply(.nextRound, by: user(1), at: t0) == [.roundAdvanced(to: 2)])
        _ = try room.apply(.submitScore(playerId: user(2), round: 2, score: 1), by: user(1), at: t0)
        _ = try room.apply(.submitScore(playerId: user(3), round: 2, score: 30), by: user(1), at: t0)
        _ = try room.apply(.submitScore(playerId: user(1), round: 2, score: 30), by: user(1), at: t0)
        _ = try room.apply(.nextRound, by: user(1), at: t0)
        #expect(room.isFinished && room.currentRound == 2)
        let results = try #require(room.results)
        // Mo 30 and P3 30 tie: seat order puts Mo first.
        #expect(results.standings.map(\.playerId) == [user(1), user(3), user(2)])
        #expect(results.standings.map(\.rank) == [1, 2, 3])
        #expect(results.standings.map(\.totalScore) == [30, 30, 100])
        #expect(results.winnerId == user(1))
        // P3 tied with the winner owes nothing; P2 owes (100 − 30) × 10 cents.
        #expect(results.settlement == [RummyResults.Debt(from: user(2), to: user(1), amount: 700)])
    }

    @Test func resultsArithmetic() throws {
        let players = [
            RummyPlayer(id: user(1), name: "A", isReady: true, isModerator: true, scores: [50, 0, 0, 0, 0, 0]),
            RummyPlayer(id: user(2), name: "B", isReady: true, isModerator: false, scores: [10, 5, 0, 0, 0, 0]),
            RummyPlayer(id: user(3), name: "C", isReady: true, isModerator: false, scores: [15, 0, 0, 0, 0, 0]),
            RummyPlayer(id: user(4), name: "D", isReady: true, isModerator: false, scores: [80, 1, 0, 0, 0, 0]),
        ]
        let results = try #require(RummyResults(players: players, pointValue: 25))
        #expect(results.winnerId == user(2))
        #expect(results.standings.map(\.name) == ["B", "C", "A", "D"])
        #expect(results.settlement.map(\.amount) == [875, 1650])
        #expect(results.settlement.map(\.from) == [user(1), user(4)])
        #expect(RummyResults(players: [], pointValue: 1) == nil)
    }

    @Test func leavingAndKicking() throws {
        var room = try RummyLobbyPhaseTests.readyRoom(players: 3)
        let v = room.version
        expectRoomError(.notModerator) { _ = try room.apply(.leave(playerId: user(3)), by: user(2), at: t0) }
        expectRoomError(.playerNotFound) { _ = try room.apply(.leave(playerId: user(9)), by: user(1), at: t0) }
        #expect(try room.apply(.leave(playerId: user(3)), by: user(1), at: t0) == [.playerLeft(user(3), kickedBy: user(1))])
        #expect(try room.apply(.leave(playerId: user(2)), by: user(2), at: t0) == [.playerLeft(user(2), kickedBy: nil)])
        #expect(room.players.map(\.id) == [user(1)] && room.version == v + 2)
    }

    @Test func moderatorLeavingHandsOverToTheFirstRemainingPlayer() throws {
        var room = try RummyLobbyPhaseTests.room()
        _ = try room.apply(.join(playerName: "Bo"), by: user(2), at: t0)
        _ = try room.apply(.join(playerName: "Cy"), by: user(3), at: t0)
        let events = try room.apply(.leave(playerId: user(1)), by: user(1), at: t0)
        #expect(events == [.playerLeft(user(1), kickedBy: nil), .moderatorChanged(to: user(2))])
        #expect(room.players[0].isModerator && room.players[0].isReady)
        #expect(room.players.filter(\.isModerator).count == 1)
        #expect(room.isModerator(user(2)) && room.moderator?.id == user(2))
    }

    @Test func lastPlayerLeavingDeletesTheRoom() throws {
        var room = try RummyLobbyPhaseTests.room()
        #expect(try room.apply(.leave(playerId: user(1)), by: user(1), at: t0) == [.playerLeft(user(1), kickedBy: nil), .roomDeleted])
        #expect(room.players.isEmpty)
    }

    @Test func failedActionsLeaveTheRoomUntouched() throws {
        var room = try Self.started(players: 2)
        let before = room
        _ = roomError { _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 5000), by: user(2), at: t0) }
        _ = roomError { _ = try room.apply(.nextRound, by: user(2), at: t0) }
        #expect(room == before)
    }

    @Test func roomsRoundTripThroughJSON() throws {
        var room = try Self.started(players: 2)
        _ = try room.apply(.submitScore(playerId: user(2), round: 1, score: 3), by: user(2), at: t0)
        let data = try JSONEncoder().encode(room)
        #expect(try JSONDecoder().decode(RummyRoom.self, from: data) == room)
    }
}

