import ParlorRules
import ParlorWire

/// The quiz operations over HTTP, for a phone's share sheet or a script without a WebSocket, each answered
/// by the same handler as its WebSocket operation: the routes their declarations give, and giving up a
/// seat. Photos and tiles are in `QuizPhotoRoutes`.
extension PhotoQuizOperations {
    var routes: [HTTPRoute] {
        let leaveQuiz = leaveQuiz
        return createQuiz.routes + joinQuiz.routes + updateQuizSettings.routes + startQuiz.routes + nextPhoto.routes + getQuiz.routes
            + quizSettings.routes + saveQuizSettings.routes + rematchQuiz.routes + [
                // Only your own seat; the host removes another player with `removeQuizPlayer`.
                HTTPRoute(.DELETE, "/quizzes/{code}/players/{id}", status: .noContent) { request throws(WireError) in
                    let leave = leaveQuiz.call(QuizCodeArguments(code: request.parameters[0]))
                    let player = UserID(request.parameters[1])
                    return { context throws(WireError) in
                        guard let player, player == context.user else { throw WireError(.forbidden, "You can only give up your own seat.") }
                        return try await leave(context)
                    }
                },
            ]
    }
}
