import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Every refusal a client can meet in a photo quiz, over the WebSocket: its specific code, its canonical
/// status, and the connection and the quiz carrying on.
@Suite struct QuizErrorTests {
    static func refused(_ reply: [String: Any], _ code: String, _ status: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.errorCode == code, "\(reply)", sourceLocation: sourceLocation)
        #expect(reply.errorStatus == status, "\(reply)", sourceLocation: sourceLocation)
    }

    @Test func badSettingsAreRefusedByTheirField() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                let cases: [([String: Any], String)] = [
                    (["revealSpeed": "warp"], "revealSpeed"), (["timerDuration": 9], "timerDuration"), (["timerDuration": 121], "timerDuration"),
                    (["sessionLength": "7"], "sessionLength"), (["albums": [" "]], "albums"),
                    (["albums": (0...20).map { "A\($0)" }], "albums"), (["playerName": ""], "playerName"),
                ]
                for (settings, field) in cases {
                    let reply = try await ann.call("createQuiz", ["playerName": "Ann"].merging(settings) { $1 })
                    Self.refused(reply, "INVALID_INPUT", "invalid-argument")
                    #expect(reply.errorMessage?.hasPrefix(field) == true, "\(reply)")
                }
                let code = try await QuizWire.seat(ann, [])
                let update = try await ann.call("updateQuizSettings", ["code": code, "timerDuration": 500])
                Self.refused(update, "INVALID_INPUT", "invalid-argument")
                #expect(update.errorMessage == "timerDuration must be between 10 and 120 seconds (got 500).")
                Self.refused(try await ann.call("saveQuizSettings", ["sessionLength": "99"]), "INVALID_INPUT", "invalid-argument")
                // The quiz is still there, unchanged.
                #expect(try await ann.call("getQuiz", ["code": code]).result?["version"] as? Int == 1)
            }
        }
    }

    @Test func codesSeatsAndTheHostsOperations() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect(signIn: false) { anonymous in
                        Self.refused(try await anonymous.call("createQuiz", ["playerName": "Ann"]), "UNAUTHENTICATED", "unauthenticated")
                        Self.refused(try await bo.call("joinQuiz", ["code": "QQ", "playerName": "Bo"]), "INVALID_INPUT", "invalid-argument")
                        Self.refused(try await bo.call("joinQuiz", ["code": "QQQQQ", "playerName": "Bo"]), "QUIZ_NOT_FOUND", "not-found")
                        Self.refused(try await anonymous.call("observeQuiz", ["code": "QQQQQ"]), "QUIZ_NOT_FOUND", "not-found")
                        let code = try await QuizWire.seat(ann, [])
                        Self.refused(try await bo.call("leaveQuiz", ["code": code]), "NOT_QUIZ_MEMBER", "permission-denied")
                        Self.refused(try await bo.call("startQuiz", ["code": code]), "NOT_QUIZ_MEMBER", "permission-denied")
                        Self.refused(try await bo.call("submitGuess", ["code": code, "latitude": 1, "longitude": 1]), "NOT_QUIZ_MEMBER", "permission-denied")
                        _ = try await bo.call("joinQuiz", ["code": code, "playerName": "Bo"])
                        Self.refused(try await bo.call("updateQuizSettings", ["code": code, "timerDuration": 20]), "NOT_HOST", "permission-denied")
                        Self.refused(try await bo.call("startQuiz", ["code": code]), "NOT_HOST", "permission-denied")
                        Self.refused(try await bo.call("quitQuiz", ["code": code]), "NOT_HOST", "permission-denied")
                        Self.refused(try await ann.call("startQuiz", ["code": code]), "NO_PHOTOS", "failed-precondition")
                        Self.refused(try await ann.call("reveal", ["code": code]), "INVALID_STATE", "failed-precondition")
                        Self.refused(try await ann.call("nextPhoto", ["code": code]), "INVALID_STATE", "failed-precondition")
                        Self.refused(try await bo.call("submitGuess", ["code": code, "latitude": 1, "longitude": 1]), "INVALID_STATE", "failed-precondition")
                        let north = try await bo.call("submitGuess", ["code": code, "latitude": 91, "longitude": 0])
                        Self.refused(north, "INVALID_INPUT", "invalid-argument")
                        #expect(north.errorMessage == "latitude must be between -90 and 90 degrees (got 91.0).")
                        let east = try await bo.call("submitGuess", ["code": code, "latitude": 0, "longitude": -180.5])
                        #expect(east.errorCode == "INVALID_INPUT" && east.errorMessage?.hasPrefix("longitude") == true)
                        Self.refused(try await bo.call("submitGuess", ["code": code, "latitude": "north", "longitude": 0]), "BAD_REQUEST", "invalid-argument")

                        _ = try #require(try await ann.call("updateQuizSettings", ["code": code, "albums": ["Holidays"]]).result)
                        let jpeg = try await TestPhotos.make(QuizWire.paris)
                        #expect(try await QuizWire.upload(parlor.port, code, jpeg, as: bo).status == 201)
                        let albums = try await ann.call("startQuiz", ["code": code])
                        Self.refused(albums, "INVALID_INPUT", "invalid-argument")
                        #expect(albums.errorMessage == "albums names \"Holidays\", which holds no photos in this quiz.")
                        _ = try #require(try await ann.call("updateQuizSettings", ["code": code, "albums": []]).result)
                        _ = try #require(try await ann.call("startQuiz", ["code": code]).result)
                        Self.refused(try await ann.call("startQuiz", ["code": code]), "INVALID_STATE", "failed-precondition")
                        Self.refused(try await ann.call("updateQuizSettings", ["code": code, "timerDuration": 20]), "INVALID_STATE", "failed-precondition")
                        Self.refused(try await ann.call("nextPhoto", ["code": code]), "INVALID_STATE", "failed-precondition")
                        _ = try #require(try await ann.call("quitQuiz", ["code": code]).result)
                        Self.refused(try await ann.call("quitQuiz", ["code": code]), "INVALID_STATE", "failed-precondition")
                        try await parlor.connect { cy in
                            Self.refused(try await cy.call("joinQuiz", ["code": code, "playerName": "Cy"]), "INVALID_STATE", "failed-precondition")
                        }
                    }
                }
            }
        }
    }

    @Test func theTwentyFirstPlayerFindsTheQuizFull() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                let code = try await QuizWire.seat(ann, [])
                for n in 2...QuizLimits.maxPlayers {
                    let (status, body) = try await parlor.http("POST", "/session")
                    let token = try #require((body as? [String: Any])?["token"] as? String, "\(status)")
                    let (joined, _) = try await parlor.http("POST", "/quizzes/\(code)/players", body: ["playerName": "P\(n)"], token: token)
                    #expect(joined == 200)
                }
                try await parlor.connect { late in
                    Self.refused(try await late.call("joinQuiz", ["code": code, "playerName": "Late"]), "QUIZ_FULL", "resource-exhausted")
                }
            }
        }
    }

    @Test func settingsSavedAreTheNextQuizsDefaults() async throws {
        try await withParlor { parlor in
            try await parlor.connect { ann in
                let defaults = try #require(try await ann.call("quizSettings").result)
                #expect(defaults["revealSpeed"] as? String == "medium" && defaults["timerDuration"] as? Int == 30)
                #expect(defaults["sessionLength"] as? String == "10" && defaults["albums"] as? [String] == [])
                let saved = try #require(try await ann.call("saveQuizSettings", ["revealSpeed": "slow", "albums": ["Trip"]]).result)
                #expect(saved["revealSpeed"] as? String == "slow" && saved["timerDuration"] as? Int == 30 && saved["albums"] as? [String] == ["Trip"])
                let created = try #require(try await ann.call("createQuiz", ["playerName": "Ann", "timerDuration": 45]).result)
                let settings = try #require((created["quiz"] as? [String: Any])?["settings"] as? [String: Any])
                #expect(settings["revealSpeed"] as? String == "slow" && settings["timerDuration"] as? Int == 45)
                #expect(created["currentUserId"] as? String == ann.userId)
                // The quiz's settings are kept as the next one's defaults.
                #expect(try await ann.call("quizSettings").result?["timerDuration"] as? Int == 45)
                // Over HTTP too.
                let token = try #require(ann.token)
                let (status, body) = try await parlor.http("PUT", "/quiz-settings", body: ["sessionLength": "endless"], token: token)
                #expect(status == 200 && (body as? [String: Any])?["sessionLength"] as? String == "endless")
                let (read, current) = try await parlor.http("GET", "/quiz-settings", token: token)
                #expect(read == 200 && (current as? [String: Any])?["timerDuration"] as? Int == 45)
                #expect(try await parlor.http("GET", "/quiz-settings").0 == 401)
            }
        }
    }
}
