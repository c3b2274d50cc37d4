import ParlorRules
import ParlorWire

/// The word lobby operations (seed `word-lobby-functions.md`), on the WebSocket and as callable
/// functions, each acting as the signed-in caller; and the catalog the rounds are played from, with its
/// operations (`getCatalog`, `observeCatalog`), its route (`GET /catalog`) and its poll of the store.
struct WordLobbyModule: GameModule {
    /// Refuses settings the server cannot run with, loads the word list and opens the catalog (storing
    /// the starter catalog when none is stored): a server that cannot play word games does not start at all.
    func register(in kernel: Kernel) async throws -> GameRegistration {
        let configuration = kernel.configuration.wordGames
        try configuration.validate()
        let wordList = try WordListFile.load(configuration.wordList)
        let catalog = try await CatalogService.open(store: kernel.store, logger: kernel.logger)
        let game = WordLobbyGame(
            codeSpace: configuration.lobbyCodes, maxGames: configuration.maxLobbies, capacity: configuration.lobbyCapacity,
            wordList: wordList, catalog: catalog)
        let operations = WordLobbyOperations(host: GameHost(game, kernel: kernel))
        var background: [BackgroundWork] = []
        if let interval = configuration.catalogPollInterval {
            background.append { await catalog.poll(every: .nanoseconds(interval.nanoseconds)) }
        }
        return GameRegistration(
            game: operations.host, operations: catalog.operations + operations.entries, routes: [CatalogHTTP.route(catalog)],
            feeds: [catalog.feed], background: background)
    }
}

struct WordLobbyOperations: Sendable {
    let host: GameHost<WordLobbyGame>

    var createLobby: OperationHandler<CreateLobbyArguments> {
        OperationHandler(Operation.createLobby) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            let capacity = host.game.capacity
            let created = try await host.create { id, code, now throws(LobbyError) in
                try WordLobby.create(
                    lobbyId: id, code: code, creator: user, profile: args.user.profile, capacity: capacity,
                    rounds: args.rounds ?? WordRules.defaultRounds, at: now)
            }
            return .reply(try EncodedJSON.encoding(CreateLobbyResult(lobbyId: created.actor.id, lobbyCode: created.actor.code)))
        }
    }

    var joinLobby: OperationHandler<JoinLobbyArguments> {
        OperationHandler(Operation.joinLobby) { [host] args, context throws(WireError) in
            let lobby = try await host.game(code: args.lobbyCode)
            _ = try await lobby.perform(.join(args.user.profile), by: try context.signedIn())
            return .reply(try EncodedJSON.encoding(JoinLobbyResult(lobbyId: lobby.id)))
        }
    }

    /// A round of `gameId`, or of the lobby's next game in the catalog.
    var startGame: OperationHandler<StartLobbyGameArguments> {
        OperationHandler(Operation.startLobbyGame) { [host] args, context throws(WireError) in
            _ = try await host.game(id: args.lobbyId).perform(.startGame(gameId: args.gameId), by: try context.signedIn())
            return .reply(.null)
        }
    }

    var submitWord: OperationHandler<SubmitWordArguments> {
        OperationHandler(Operation.submitWord) { [host] args, context throws(WireError) in
            let result = try await host.game(id: args.lobbyId).perform(.submitWord(args.word), by: try context.signedIn())
            guard let verdict = result.reply else { throw WireError.internalError("The word was not judged.") }
            return .reply(try EncodedJSON.encoding(WordVerdictResult(verdict)))
        }
    }

    var leaveLobby: OperationHandler<LobbyIdArguments> {
        OperationHandler(Operation.leaveLobby) { [host] args, context throws(WireError) in
            _ = try await host.game(id: args.lobbyId).perform(.leave, by: try context.signedIn())
            return .reply(.null)
        }
    }

    /// The creator of a finished match starts a rematch: `{code}`, the new lobby's, with the same seats.
    var rematchLobby: OperationHandler<LobbyIdArguments> {
        host.rematchOperation(Operation.rematchLobby) { host, args throws(WireError) in try await host.game(id: args.lobbyId) }
    }

    var removeLobbyPlayer: OperationHandler<RemoveLobbyPlayerArguments> {
        OperationHandler(Operation.removeLobbyPlayer) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            _ = try await host.kick(args.userId, from: try await host.game(id: args.lobbyId), by: user)
            return .reply(.null)
        }
    }

    /// Members only: during a round the stream carries the member's own words. The reply carries the
    /// server's clock read now, fresh, whereas the first `lobby` event may be a version published a
    /// while ago.
    var observeLobby: OperationHandler<LobbyIdArguments> {
        OperationHandler(Operation.observeLobby) { [host] args, context throws(WireError) in
            let clock = host.clock
            return .subscribe(try await host.game(id: args.lobbyId).subscribe(user: try context.signedIn())) { topic throws(WireError) in
                try EncodedJSON.encoding(TimedSubscription(subscription: topic, serverTime: clock.now.iso8601))
            }
        }
    }

    /// Anyone signed in, by the lobby's code: the public view only (words appear once a round is over,
    /// as in every member's `lobby` events), for spectators. The reply names the lobby's id.
    var watchLobby: OperationHandler<LobbyCodeArguments> {
        OperationHandler(Operation.watchLobby) { [host] args, context throws(WireError) in
            let viewer = try context.signedIn()
            let clock = host.clock
            let lobby = try await host.game(code: args.lobbyCode)
            return .subscribe(try await lobby.subscribePublic(viewer: viewer)) { topic throws(WireError) in
                try EncodedJSON.encoding(LobbyWatched(subscription: topic, serverTime: clock.now.iso8601, lobbyId: lobby.id))
            }
        }
    }

    var entries: [OperationEntry] {
        [
            createLobby.entry(), joinLobby.entry(), startGame.entry(), submitWord.entry(), leaveLobby.entry(), observeLobby.entry(),
            watchLobby.entry(), removeLobbyPlayer.entry(), rematchLobby.entry(),
        ]
    }
}
