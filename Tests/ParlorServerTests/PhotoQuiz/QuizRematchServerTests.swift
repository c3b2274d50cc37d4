import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `rematchQuiz`, the kernel's rematch for photo quizzes: the host of a finished quiz starts the next
/// one, waiting for new photos; everyone following the old quiz learns its code, and asking again
/// answers the same code (also at its declared route).
@Suite struct QuizRematchServerTests {
    @Test func theHostStartsTheNextQuizAndEveryFollowerLearnsWhere() async throws {
        try await withParlor(configure: QuizWire.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await QuizWire.seat(ann, [bo], settings: ["timerDuration": 20, "revealSpeed": "fast"])
                    let early = try await ann.call("rematchQuiz", ["code": code])
                    #expect(early.errorCode == "INVALID_STATE" && early.errorMessage == "The quiz is not over yet; a rematch starts once it is.")
                    let ended = try #require(try await ann.call("quitQuiz", ["code": code]).result)
                    #expect(ended["phase"] as? String == "complete" && ended["rematch"] is NSNull)
                    let sub = try await QuizWire.observe(bo, code)

                    #expect(try await bo.call("rematchQuiz", ["code": code]).errorCode == "NOT_HOST")
                    let next = try #require(try await ann.call("rematchQuiz", ["code": code]).result?["code"] as? String)
                    #expect(next != code && next.count == 5)
                    #expect(try await ann.call("rematchQuiz", ["code": code]).result?["code"] as? String == next)
                    let (status, body) = try await parlor.http("POST", "/quizzes/\(code)/rematch", token: bo.token)
                    #expect(status == 200 && (body as? [String: Any])?["code"] as? String == next)
                    let announced = try await QuizWire.view(bo, sub: sub, atLeast: (ended["version"] as? Int ?? 0) + 1)
                    #expect(announced["rematch"] as? String == next)

                    // The same players and settings, waiting for photos.
                    let rematch = try #require(try await bo.call("getQuiz", ["code": next]).result)
                    #expect(rematch["phase"] as? String == "waiting" && rematch["hostId"] as? String == ann.userId && rematch["uploadCount"] as? Int == 0)
                    #expect((rematch["players"] as? [[String: Any]])?.map { $0["id"] as? String } == [ann.userId, bo.userId])
                    let settings = rematch["settings"] as? [String: Any]
                    #expect(settings?["timerDuration"] as? Int == 20 && settings?["revealSpeed"] as? String == "fast")
                    #expect(try await ann.call("startQuiz", ["code": next]).errorCode == "NO_PHOTOS")
                }
            }
        }
    }
}
