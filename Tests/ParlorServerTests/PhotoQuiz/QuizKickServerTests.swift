import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `removeQuizPlayer`, the kernel's kick for photo quizzes: the host removes a player, whose stream
/// goes on showing the quiz without them (a quiz hides nothing); NOT_HOST, PLAYER_NOT_FOUND and
/// INVALID_STATE say who may and when.
@Suite struct QuizKickServerTests {
    @Test func theHostRemovesAPlayerAndOthersAreToldWhy() async throws {
        try await withParlor(configure: QuizWire.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        let code = try await QuizWire.seat(ann, [bo, cy])
                        let (annId, boId, cyId) = (try #require(ann.userId), try #require(bo.userId), try #require(cy.userId))
                        let sub = try await QuizWire.observe(bo, code)
                        let notHost = try await bo.call("removeQuizPlayer", ["code": code, "playerId": cyId])
                        #expect(notHost.errorCode == "NOT_HOST" && notHost.errorMessage == "Only the host can remove a player.")
                        let ghost = "00000000-0000-4000-8000-000000000000"
                        #expect(try await ann.call("removeQuizPlayer", ["code": code, "playerId": ghost]).errorCode == "PLAYER_NOT_FOUND")
                        #expect(try await ann.call("removeQuizPlayer", ["code": code, "playerId": annId]).errorCode == "INVALID_STATE")
                        #expect(try await ann.call("removeQuizPlayer", ["code": code, "playerId": "bo"]).errorCode == "BAD_REQUEST")

                        let removed = try #require(try await ann.call("removeQuizPlayer", ["code": code, "playerId": boId]).result)
                        #expect((removed["players"] as? [[String: Any]])?.map { $0["id"] as? String } == [annId, cyId])
                        let seen = try await QuizWire.view(bo, sub: sub, atLeast: try #require(removed["version"] as? Int))
                        #expect((seen["players"] as? [[String: Any]])?.contains { $0["id"] as? String == boId } == false)
                        #expect(try await bo.call("submitGuess", ["code": code, "latitude": 1.0, "longitude": 2.0]).errorCode == "NOT_QUIZ_MEMBER")

                        _ = try await ann.call("quitQuiz", ["code": code])
                        let over = try await ann.call("removeQuizPlayer", ["code": code, "playerId": cyId])
                        #expect(over.errorCode == "INVALID_STATE" && over.errorMessage == "The quiz is over; its standings stay as they are.")
                    }
                }
            }
        }
    }
}
