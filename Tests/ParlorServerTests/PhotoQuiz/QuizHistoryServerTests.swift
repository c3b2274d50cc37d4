import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Finished quizzes are in `listHistory` with every other kind of game: the standings, and your place.
@Suite struct QuizHistoryServerTests {
    @Test func aFinishedQuizIsListedForEachOfItsPlayers() async throws {
        try await withParlor(configure: QuizWire.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await QuizWire.seat(ann, [bo])
                    let jpeg = try await TestPhotos.make(QuizWire.paris)
                    #expect(try await QuizWire.upload(parlor.port, code, jpeg, as: bo).status == 201)
                    _ = try #require(try await ann.call("startQuiz", ["code": code]).result)
                    _ = try #require(try await ann.call("submitGuess", ["code": code, "latitude": 48.85, "longitude": 2.35]).result)
                    _ = try #require(try await ann.call("quitQuiz", ["code": code]).result)
                    for (player, result) in [(ann, "won"), (bo, "lost")] {
                        let games = try #require(try await player.call("listHistory").result?["games"] as? [[String: Any]])
                        #expect(games.count == 1 && games.first?["kind"] as? String == "photo-quiz" && games.first?["code"] as? String == code)
                        #expect(games.first?["result"] as? String == result, "\(games)")
                        let players = games.first?["players"] as? [[String: Any]]
                        #expect(players?.map { $0["name"] as? String } == ["Ann", "Bo"] && (players?.first?["points"] as? Int ?? 0) > 0)
                    }
                }
            }
        }
    }
}
