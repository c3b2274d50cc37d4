import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `removeTicTacToePlayer`, the kernel's kick for tic-tac-toe: the host (X) removes O mid-game, the
/// board is cleared and someone else takes the seat; NOT_HOST, PLAYER_NOT_FOUND and INVALID_STATE say
/// who may and when.
@Suite struct TicTacToeKickServerTests {
    @Test func theHostRemovesTheOtherPlayerAndTheSeatIsFreeAgain() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                        let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                        _ = try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"])
                        _ = try await ann.call("placeMark", ["code": code, "cell": 4])
                        let (annId, boId) = (try #require(ann.userId), try #require(bo.userId))

                        let notHost = try await bo.call("removeTicTacToePlayer", ["code": code, "playerId": annId])
                        #expect(notHost.errorCode == "NOT_HOST" && notHost.errorMessage == "Only the host can remove a player.")
                        let ghost = "00000000-0000-4000-8000-000000000000"
                        #expect(try await ann.call("removeTicTacToePlayer", ["code": code, "playerId": ghost]).errorCode == "PLAYER_NOT_FOUND")
                        #expect(try await ann.call("removeTicTacToePlayer", ["code": code, "playerId": annId]).errorCode == "INVALID_STATE")

                        let removed = try #require(try await ann.call("removeTicTacToePlayer", ["code": code, "playerId": boId]).result)
                        #expect(removed["status"] as? String == "waiting" && (removed["players"] as? [Any])?.count == 1)
                        #expect((removed["board"] as? [String]) == Array(repeating: "", count: 9))
                        #expect(try await bo.call("placeMark", ["code": code, "cell": 0]).errorCode == "FORBIDDEN")
                        let joined = try await cy.call("joinTicTacToe", ["code": code, "playerName": "Cy"])
                        #expect((joined.result?["ticTacToe"] as? [String: Any])?["status"] as? String == "playing")

                        for (player, cell) in [(ann, 0), (cy, 3), (ann, 1), (cy, 4), (ann, 2)] {
                            _ = try await player.call("placeMark", ["code": code, "cell": cell])
                        }
                        let over = try await ann.call("removeTicTacToePlayer", ["code": code, "playerId": try #require(cy.userId)])
                        #expect(over.errorCode == "INVALID_STATE")
                    }
                }
            }
        }
    }
}
