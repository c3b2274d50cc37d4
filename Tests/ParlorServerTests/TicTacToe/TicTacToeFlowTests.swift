import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Tic-tac-toe through the real server, registered like every game: two players and a spectator, a
/// win, the history, a rematch — all from the game's declarations, moves and definition.
@Suite struct TicTacToeFlowTests {
    @Test func aGameIsPlayedWatchedFiledAndPlayedAgain() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect(signIn: false) { spectator in
                        let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                        let game = try #require(created["ticTacToe"] as? [String: Any])
                        let code = try #require(game["code"] as? String)
                        #expect(code.count == 7 && code.allSatisfy(\.isNumber) && created["currentUserId"] as? String == ann.userId)
                        #expect(game["status"] as? String == "waiting")
                        // The kind's gauges sit beside every other kind's (a plural of "games" once crashed the scrape).
                        let (status, body) = try await parlor.http("GET", "/metrics")
                        let metrics = try #require(body as? String)
                        #expect(status == 200 && metrics.contains("parlor_boards 1") && metrics.contains(#"parlor_games{kind="tic-tac-toe",phase="waiting"} 1"#))

                        let observed = try await spectator.call("observeTicTacToe", ["code": code])
                        let sub = try #require(observed.result?["subscription"] as? Int)
                        #expect(try await spectator.nextEvent(sub: sub)["event"] as? String == "ticTacToe")

                        let joined = try await bo.call("joinTicTacToe", ["code": " \(code) ", "playerName": "Bo"])
                        #expect((joined.result?["ticTacToe"] as? [String: Any])?["status"] as? String == "playing")

                        let early = try await bo.call("placeMark", ["code": code, "cell": 4])
                        #expect(early.errorCode == "NOT_YOUR_TURN" && early.errorMessage == "It is Ann's turn.")
                        for (player, cell) in [(ann, 0), (bo, 4), (ann, 1), (bo, 5)] {
                            #expect(try await player.call("placeMark", ["code": code, "cell": cell]).result?["version"] != nil)
                        }
                        #expect(try await ann.call("placeMark", ["code": code, "cell": 4]).errorCode == "CELL_TAKEN")
                        let won = try #require(try await ann.call("placeMark", ["code": code, "cell": 2]).result)
                        #expect(won["status"] as? String == "won" && won["winner"] as? String == ann.userId && won["line"] as? [Int] == [0, 1, 2])

                        var seen: [String: Any] = [:]
                        while seen["status"] as? String != "won" {
                            seen = try #require(try await spectator.nextEvent(sub: sub)["data"] as? [String: Any])
                        }

                        let history = try #require(try await bo.call("listHistory").result?["games"] as? [[String: Any]])
                        #expect(history.first?["kind"] as? String == "tic-tac-toe" && history.first?["code"] as? String == code)
                        #expect(history.first?["result"] as? String == "lost")

                        let rematch = try #require(try await bo.call("rematchTicTacToe", ["code": code]).result?["code"] as? String)
                        #expect(try await ann.call("rematchTicTacToe", ["code": code]).result?["code"] as? String == rematch)
                        let next = try #require(try await spectator.call("getTicTacToe", ["code": rematch]).result)
                        #expect((next["players"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Bo", "Ann"])
                        #expect(try await bo.call("placeMark", ["code": rematch, "cell": 4]).result?["next"] as? String == ann.userId)

                        #expect(try await ann.call("getTicTacToe", ["code": "1234"]).errorCode == "INVALID_INPUT")
                        #expect(try await ann.call("getTicTacToe", ["code": "0000000"]).errorCode == "TICTACTOE_NOT_FOUND")
                    }
                }
            }
        }
    }
}
