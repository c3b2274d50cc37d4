import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `listHistory`: a player's finished games of every kind in one list, newest first, a page at a time,
/// and only their own.
@Suite struct HistoryTests {
    /// A two-player rummy room played to its end (limit 100): Ann 40, Bo 105; Ann wins.
    static func finishRoom(_ ann: JSONConnection, _ bo: JSONConnection) async throws -> String {
        let code = try await RoomFlowTests.seat(ann, [bo], capacity: 2)
        _ = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
        _ = try await ann.call("startGame", ["roomCode": code])
        _ = try await ann.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 1, "score": 40])
        _ = try await ann.call("submitScore", ["roomCode": code, "playerId": bo.userId!, "round": 1, "score": 105])
        let finished = try await ann.call("nextRound", ["roomCode": code])
        #expect(finished.result?["isFinished"] as? Bool == true)
        return code
    }

    @Test func everyKindInOneListNewestFirstAPageAtATime() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let room = try await Self.finishRoom(ann, bo)
                    clock.advance(bySeconds: 60)
                    // A one-round word match that Bo wins (two unique words against one).
                    let created = try await ann.call("createLobby", ["user": LobbyFixture.user("Ann"), "rounds": 1])
                    let lobbyId = try #require(created.result?["lobbyId"] as? String)
                    let lobbyCode = try #require(created.result?["lobbyCode"] as? String)
                    _ = try await bo.call("joinLobby", ["lobbyCode": lobbyCode, "user": LobbyFixture.user("Bo")])
                    _ = try await ann.call("startGame", ["lobbyId": lobbyId, "gameId": "word-start-s"])
                    _ = try await LobbyFixture.submit(ann, lobbyId, "swan")
                    _ = try await LobbyFixture.submit(bo, lobbyId, "salt")
                    _ = try await LobbyFixture.submit(bo, lobbyId, "sun")
                    await eventually { clock.sleeperCount >= 1 }
                    clock.advance(bySeconds: 90)
                    await parlor.services.timers.settled()

                    let all = try #require(try await ann.call("listHistory").result)
                    let games = try #require(all["games"] as? [[String: Any]])
                    #expect(games.map { $0["kind"] as? String } == ["word-lobby", "rummy"])
                    #expect(games.map { $0["code"] as? String } == [lobbyCode, room])
                    #expect(games.map { $0["result"] as? String } == ["lost", "won"])
                    let wordPlayers = try #require(games.first?["players"] as? [[String: Any]])
                    #expect(wordPlayers.map { $0["name"] as? String } == ["Bo", "Ann"])
                    #expect(wordPlayers.map { $0["points"] as? Int } == [4, 2] && wordPlayers.map { $0["rank"] as? Int } == [1, 2])
                    #expect(all["nextBefore"] == nil)
                    #expect(try await bo.call("listHistory").result.flatMap { $0["games"] as? [[String: Any]] }?.map { $0["result"] as? String }
                            == ["won", "lost"])

                    let first = try #require(try await ann.call("listHistory", ["limit": 1]).result)
                    #expect((first["games"] as? [[String: Any]])?.map { $0["code"] as? String } == [lobbyCode])
                    let before = try #require(first["nextBefore"] as? String)
                    let second = try #require(try await ann.call("listHistory", ["limit": 1, "before": before]).result)
                    #expect((second["games"] as? [[String: Any]])?.map { $0["code"] as? String } == [room])
                }
            }
        }
    }

    @Test func historyIsPrivateAndItsArgumentsAreChecked() async throws {
        try await withParlor(configure: LobbyFixture.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { cy in
                    let other = try await cy.call("listHistory", ["userId": ann.userId!])
                    #expect(other.errorCode == "FORBIDDEN" && other.errorStatus == "permission-denied")
                    #expect(try await cy.call("listHistory", ["before": "yesterday"]).errorCode == "INVALID_INPUT")
                    let zero = try await cy.call("listHistory", ["limit": 0])
                    #expect(zero.errorCode == "INVALID_INPUT" && zero.errorMessage == "limit must be an integer from 1 to 100 (got 0).")
                    #expect(try await cy.call("listHistory").result?["games"] as? [Any] != nil)
                }
            }
            try await parlor.connect(signIn: false) { stranger in
                let refused = try await stranger.call("listHistory")
                #expect(refused.errorCode == "UNAUTHENTICATED")
            }
        }
    }
}
