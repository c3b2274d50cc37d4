import ParlorRules

// The photo quiz operations, each declared once. Photos go up, and tiles come down, over HTTP only
// (the server's `QuizPhotoRoutes`).

extension Operation {
    /// A new quiz with the caller as host; absent settings are the caller's saved ones.
    public static let createQuiz = OperationDeclaration<CreateQuizArguments, QuizSeatResult>(
        "createQuiz", routes: [.post("/quizzes", status: 201)])
    public static let joinQuiz = OperationDeclaration<JoinQuizArguments, QuizSeatResult>(
        "joinQuiz",
        routes: [.post("/quizzes/{code}/players") { request throws(WireError) in
            JoinQuizArguments(code: request.parameters[0], playerName: try request.body(PlayerNameBody.self).playerName)
        }])
    /// Over HTTP, `DELETE /quizzes/{code}/players/{id}` with your own id only.
    public static let leaveQuiz = OperationDeclaration<QuizCodeArguments, NoResult>("leaveQuiz")
    /// The host takes a player's seat away (`PhotoQuiz+Kick` says when, and what goes with it).
    public static let removeQuizPlayer = OperationDeclaration<RemoveQuizPlayerArguments, QuizView>("removeQuizPlayer")
    /// The host changes the settings before the start; absent fields keep their values.
    public static let updateQuizSettings = OperationDeclaration<UpdateQuizSettingsArguments, QuizView>(
        "updateQuizSettings",
        routes: [.patch("/quizzes/{code}/settings") { request throws(WireError) in
            UpdateQuizSettingsArguments(code: request.parameters[0], settings: try request.body(QuizSettingsFields.self))
        }])
    public static let startQuiz = OperationDeclaration<QuizCodeArguments, QuizView>(
        "startQuiz", routes: [.post("/quizzes/{code}/start") { request throws(WireError) in QuizCodeArguments(code: request.parameters[0]) }])
    public static let submitGuess = OperationDeclaration<SubmitGuessArguments, QuizView>(
        "submitGuess",
        routes: [.post("/quizzes/{code}/guesses") { request throws(WireError) in
            let body = try request.body(GuessBody.self)
            return SubmitGuessArguments(code: request.parameters[0], latitude: body.latitude, longitude: body.longitude)
        }])
    public static let reveal = OperationDeclaration<QuizCodeArguments, QuizView>(
        "reveal", routes: [.post("/quizzes/{code}/reveal") { request throws(WireError) in QuizCodeArguments(code: request.parameters[0]) }])
    public static let nextPhoto = OperationDeclaration<QuizCodeArguments, QuizView>(
        "nextPhoto", routes: [.post("/quizzes/{code}/next") { request throws(WireError) in QuizCodeArguments(code: request.parameters[0]) }])
    public static let quitQuiz = OperationDeclaration<QuizCodeArguments, QuizView>(
        "quitQuiz", routes: [.post("/quizzes/{code}/quit") { request throws(WireError) in QuizCodeArguments(code: request.parameters[0]) }])
    /// The host of a finished quiz starts the next one — the same players and settings, no photos yet:
    /// `{code}`, the new quiz's (asking again answers the same code).
    public static let rematchQuiz = OperationDeclaration<QuizCodeArguments, RematchResult>(
        "rematchQuiz", routes: [.post("/quizzes/{code}/rematch") { request throws(WireError) in QuizCodeArguments(code: request.parameters[0]) }])
    /// Anyone may watch a quiz (a screen on the wall, friends elsewhere).
    public static let observeQuiz = OperationDeclaration<QuizCodeArguments, TimedSubscription>("observeQuiz", access: .anyone)
    /// Anyone may read a quiz, signed in or not: it shows nothing unrevealed.
    public static let getQuiz = OperationDeclaration<QuizCodeArguments, QuizView>(
        "getQuiz", access: .anyone,
        routes: [.get("/quizzes/{code}") { request throws(WireError) in QuizCodeArguments(code: request.parameters[0]) }])
    /// The caller's defaults for a new quiz.
    public static let quizSettings = OperationDeclaration<EmptyArguments, QuizSettingsView>(
        "quizSettings", routes: [.get("/quiz-settings") { _ throws(WireError) in EmptyArguments() }])
    /// Saves the caller's defaults; absent fields keep their saved values.
    public static let saveQuizSettings = OperationDeclaration<QuizSettingsFields, QuizSettingsView>(
        "saveQuizSettings", routes: [.put("/quiz-settings") { request throws(WireError) in try request.body(QuizSettingsFields.self) }])

    private struct PlayerNameBody: Decodable { let playerName: String }
    private struct GuessBody: Decodable {
        let latitude: Double
        let longitude: Double
    }
}

extension PhotoQuizAction {
    /// The quiz's moves that need nothing but the rules.
    public static let moves: [GameMove<PhotoQuizAction>] = [
        Operation.submitGuess.move(code: { $0.code }) { args throws(WireError) in
            do throws(PhotoQuizError) {
                return .guess(try GeoCoordinate.reading(latitude: args.latitude, longitude: args.longitude))
            } catch {
                throw WireError(error)
            }
        },
        Operation.reveal.move(code: { $0.code }) { _ in .reveal },
        Operation.quitQuiz.move(code: { $0.code }) { _ in .quit },
    ]
}

extension WireVocabulary {
    public static let photoQuiz = WireVocabulary(
        "photo quiz",
        operations: [
            Operation.createQuiz.erased, Operation.joinQuiz.erased, Operation.leaveQuiz.erased, Operation.updateQuizSettings.erased,
            Operation.startQuiz.erased,
        ] + PhotoQuizAction.moves.map(\.operation) + [
            Operation.nextPhoto.erased, Operation.observeQuiz.erased, Operation.getQuiz.erased, Operation.quizSettings.erased,
            Operation.saveQuizSettings.erased, Operation.rematchQuiz.erased, Operation.removeQuizPlayer.erased,
        ],
        errorCodes: [
            .quizNotFound, .quizFull, .notQuizMember, .noPhotos, .tooManyPhotos, .ownPhoto, .photoNotFound, .tileHidden, .photoHidden,
            .noLocation, .notJPEG, .invalidImage, .uploadsBusy, .placesUnavailable,
        ])
}
