import ParlorRules
import ParlorWire

/// The quiz operations over HTTP, for a phone's share sheet or a script without a WebSocket, each answered
/// by the same handler as its WebSocket operation. Photos and tiles are in `QuizPhotoRoutes`.
extension PhotoQuizOperations {
    var routes: [HTTPRoute] {
        let (createQuiz, joinQuiz, leaveQuiz, updateQuizSettings, startQuiz) = (createQuiz, joinQuiz, leaveQuiz, updateQuizSettings, startQuiz)
        let (submitGuess, reveal, nextPhoto, quitQuiz, getQuiz) = (submitGuess, reveal, nextPhoto, quitQuiz, getQuiz)
        let (quizSettings, saveQuizSettings) = (quizSettings, saveQuizSettings)
        return [
            HTTPRoute(.POST, "/quizzes", status: .created) { request throws(WireError) in
                createQuiz.call(try request.body(CreateQuizArguments.self))
            },
            HTTPRoute(.GET, "/quizzes/{code}", access: .anyone) { request throws(WireError) in
                getQuiz.call(QuizCodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.POST, "/quizzes/{code}/players") { request throws(WireError) in
                joinQuiz.call(JoinQuizArguments(code: request.parameters[0], playerName: try request.body(PlayerNameBody.self).playerName))
            },
            // Only your own seat: nobody removes another player from a quiz.
            HTTPRoute(.DELETE, "/quizzes/{code}/players/{id}", status: .noContent) { request throws(WireError) in
                let leave = leaveQuiz.call(QuizCodeArguments(code: request.parameters[0]))
                let player = UserID(request.parameters[1])
                return { context throws(WireError) in
                    guard let player, player == context.user else { throw WireError(.forbidden, "You can only give up your own seat.") }
                    return try await leave(context)
                }
            },
            HTTPRoute(.PATCH, "/quizzes/{code}/settings") { request throws(WireError) in
                updateQuizSettings.call(UpdateQuizSettingsArguments(code: request.parameters[0], settings: try request.body(QuizSettingsFields.self)))
            },
            HTTPRoute(.POST, "/quizzes/{code}/start") { request throws(WireError) in
                startQuiz.call(QuizCodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.POST, "/quizzes/{code}/guesses") { request throws(WireError) in
                let body = try request.body(GuessBody.self)
                return submitGuess.call(SubmitGuessArguments(code: request.parameters[0], latitude: body.latitude, longitude: body.longitude))
            },
            HTTPRoute(.POST, "/quizzes/{code}/reveal") { request throws(WireError) in
                reveal.call(QuizCodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.POST, "/quizzes/{code}/next") { request throws(WireError) in
                nextPhoto.call(QuizCodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.POST, "/quizzes/{code}/quit") { request throws(WireError) in
                quitQuiz.call(QuizCodeArguments(code: request.parameters[0]))
            },
            HTTPRoute(.GET, "/quiz-settings") { _ throws(WireError) in
                quizSettings.call(EmptyArguments())
            },
            HTTPRoute(.PUT, "/quiz-settings") { request throws(WireError) in
                saveQuizSettings.call(try request.body(QuizSettingsFields.self))
            },
        ]
    }

    private struct PlayerNameBody: Decodable { let playerName: String }
    private struct GuessBody: Decodable {
        let latitude: Double
        let longitude: Double
    }
}
