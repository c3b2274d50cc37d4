import ParlorRules
import ParlorWire

/// The photo quiz operations, on the WebSocket and (in `PhotoQuizOperations+Routes`) over HTTP. Photos
/// go up, and tiles come down, over HTTP only (`QuizPhotoRoutes`).
struct PhotoQuizOperations: Sendable {
    let host: GameHost<PhotoQuizGame>
    let media: QuizMedia
    let defaults: QuizSettingsDefaults

    /// A new quiz with the caller as host; absent settings are the caller's saved ones, and the quiz's
    /// settings are saved as their defaults for next time.
    var createQuiz: OperationHandler<CreateQuizArguments> {
        OperationHandler(Operation.createQuiz) { [host, defaults] args, context throws(WireError) in
            let user = try context.signedIn()
            let saved = await defaults.load(user)
            let settings: QuizSettings
            do throws(PhotoQuizError) {
                settings = try args.settings.applied(to: saved)
            } catch {
                throw WireError(error)
            }
            var generator = SystemRandomNumberGenerator()
            let seed = generator.next()
            let created = try await host.create { id, code, now throws(PhotoQuizError) in
                try PhotoQuiz.create(id: id, code: code, seed: seed, settings: settings, host: user, playerName: args.playerName, at: now)
            }
            if settings != saved { try? await defaults.save(settings, for: user) }
            return .reply(EncodedJSON.seat(created.publicView, as: "quiz", caller: user))
        }
    }

    var joinQuiz: OperationHandler<JoinQuizArguments> {
        OperationHandler(Operation.joinQuiz) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await host.game(code: args.code).perform(.join(playerName: args.playerName), by: user) {
            case .game(_, let view, _): return .reply(EncodedJSON.seat(view, as: "quiz", caller: user))
            case .deleted: throw WireError(PhotoQuizError.quizNotFound(code: args.code))
            }
        }
    }

    /// Answers null; the last player leaving deletes the quiz, and its photos with it.
    var leaveQuiz: OperationHandler<QuizCodeArguments> {
        OperationHandler(Operation.leaveQuiz) { [host, media] args, context throws(WireError) in
            let quiz = try await host.game(code: args.code)
            let (before, _) = try await quiz.current()
            if case .deleted = try await quiz.perform(.leave, by: try context.signedIn()) {
                await media.removeQuiz(before.id, photos: before.photos.map(\.id))
            }
            return .reply(.null)
        }
    }

    /// The host changes the settings before the start; absent fields keep their values.
    var updateQuizSettings: OperationHandler<UpdateQuizSettingsArguments> {
        OperationHandler(Operation.updateQuizSettings) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            let quiz = try await host.game(code: args.code)
            let (current, _) = try await quiz.current()
            let settings: QuizSettings
            do throws(PhotoQuizError) {
                settings = try args.settings.applied(to: current.settings)
            } catch {
                throw WireError(error)
            }
            return try await Self.answer(quiz.perform(.updateSettings(settings), by: user), host: host, code: args.code)
        }
    }

    var startQuiz: OperationHandler<QuizCodeArguments> { startingAPhoto(Operation.startQuiz, .start) }

    var nextPhoto: OperationHandler<QuizCodeArguments> { startingAPhoto(Operation.nextPhoto, .nextPhoto) }

    /// It shows nothing unrevealed.
    var getQuiz: OperationHandler<QuizCodeArguments> { host.reading(Operation.getQuiz) { $0.code } }

    /// The kernel's removal (`PhotoQuiz+Kick` decides who may, when, and what goes with the seat).
    var removeQuizPlayer: OperationHandler<RemoveQuizPlayerArguments> {
        host.kickOperation(Operation.removeQuizPlayer, code: \.code, player: \.playerId)
    }

    /// The kernel's rematch (`PhotoQuiz+Rematch` decides who may, and what the new quiz is).
    var rematchQuiz: OperationHandler<QuizCodeArguments> {
        host.rematchOperation(Operation.rematchQuiz) { host, args throws(WireError) in try await host.game(code: args.code) }
    }

    /// Anyone may watch a quiz (a screen on the wall, friends elsewhere).
    var observeQuiz: OperationHandler<QuizCodeArguments> {
        OperationHandler(Operation.observeQuiz) { [host] args, context throws(WireError) in
            let clock = host.clock
            return .subscribe(try await host.game(code: args.code).subscribe(user: context.user)) { topic throws(WireError) in
                try EncodedJSON.encoding(TimedSubscription(subscription: topic, serverTime: clock.now.iso8601))
            }
        }
    }

    /// The caller's defaults for a new quiz.
    var quizSettings: OperationHandler<EmptyArguments> {
        OperationHandler(Operation.quizSettings) { [defaults] _, context throws(WireError) in
            .reply(try EncodedJSON.encoding(await defaults.load(try context.signedIn())))
        }
    }

    /// Saves the caller's defaults; absent fields keep their saved values.
    var saveQuizSettings: OperationHandler<QuizSettingsFields> {
        OperationHandler(Operation.saveQuizSettings) { [defaults] args, context throws(WireError) in
            let user = try context.signedIn()
            let settings: QuizSettings
            do throws(PhotoQuizError) {
                settings = try args.applied(to: await defaults.load(user))
            } catch {
                throw WireError(error)
            }
            try await defaults.save(settings, for: user)
            return .reply(try EncodedJSON.encoding(settings))
        }
    }

    var entries: [OperationEntry] {
        [
            createQuiz.entry(), joinQuiz.entry(), leaveQuiz.entry(), updateQuizSettings.entry(), startQuiz.entry(),
            nextPhoto.entry(), getQuiz.entry(), observeQuiz.entry(), quizSettings.entry(), saveQuizSettings.entry(), rematchQuiz.entry(),
            removeQuizPlayer.entry(),
        ]
    }

    // MARK: Shapes

    /// An action that may start a photo: the previews of the quiz's photos are read into the cache
    /// first, since the rules read them as the photo starts.
    private func startingAPhoto(_ declaration: OperationDeclaration<QuizCodeArguments, QuizView>, _ action: PhotoQuizAction) -> OperationHandler<QuizCodeArguments> {
        OperationHandler(declaration) { [host, media] args, context throws(WireError) in
            let user = try context.signedIn()
            let quiz = try await host.game(code: args.code)
            await media.warm(try await quiz.current().0)
            return try await Self.answer(quiz.perform(action, by: user), host: host, code: args.code)
        }
    }

    private static func answer(_ result: GameResult<PhotoQuiz>, host: GameHost<PhotoQuizGame>, code: String) throws(WireError) -> OperationResult {
        switch result {
        case .game(_, let view, _): return .reply(view)
        case .deleted: throw host.game.notFound(code: try host.game.parse(code: code))
        }
    }
}
