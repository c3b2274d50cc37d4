import ParlorRules
import ParlorWire

/// What darts answers besides its moves (`DartsAction.moves`), on the WebSocket and (in
/// `DartsOperations+Routes`) over HTTP.
struct DartsOperations: Sendable {
    let host: GameHost<DartsGame>

    var createMatch: OperationHandler<CreateMatchArguments> {
        OperationHandler(Operation.createMatch) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            let created = try await host.create { id, code, now throws(DartsError) in
                let settings = try X01Settings(
                    gameType: args.gameType, inRule: args.inRule, outRule: args.outRule, legs: args.legs, sets: args.sets,
                    capacity: args.capacity)
                return try DartsMatch.create(id: id, code: code, settings: settings, host: user, playerName: args.playerName, at: now)
            }
            return .reply(EncodedJSON.seat(created.publicView, as: "match", caller: user))
        }
    }

    var joinMatch: OperationHandler<JoinMatchArguments> {
        OperationHandler(Operation.joinMatch) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await host.game(code: args.code).perform(.join(playerName: args.playerName), by: user) {
            case .game(_, let view, _): return .reply(EncodedJSON.seat(view, as: "match", caller: user))
            case .deleted: throw WireError(DartsError.matchNotFound(code: args.code))
            }
        }
    }

    /// The guest's id is made here, by the server, so no client can choose one.
    var addGuest: OperationHandler<AddGuestArguments> {
        OperationHandler(Operation.addGuest) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await host.game(code: args.code).perform(.addGuest(name: args.name, id: DartsGame.randomUUID()), by: user) {
            case .game(_, let view, _): return .reply(view)
            case .deleted: throw host.game.notFound(code: try host.game.parse(code: args.code))
            }
        }
    }

    /// Answers null; the last account player leaving deletes the match.
    var leaveMatch: OperationHandler<MatchCodeArguments> {
        OperationHandler(Operation.leaveMatch) { [host] args, context throws(WireError) in
            _ = try await host.game(code: args.code).perform(.leave, by: try context.signedIn())
            return .reply(.null)
        }
    }

    var getMatch: OperationHandler<MatchCodeArguments> { host.reading(Operation.getMatch) { $0.code } }

    var observeMatch: OperationHandler<MatchCodeArguments> { host.watching(Operation.observeMatch) { $0.code } }

    /// The kernel's removal (`DartsMatch+Kick` decides who may, and when).
    var removePlayer: OperationHandler<RemovePlayerArguments> {
        host.kickOperation(Operation.removePlayer, code: \.code, player: \.playerId)
    }

    /// The kernel's rematch (`DartsMatch+Rematch` decides who may, and what the new match is).
    var rematchMatch: OperationHandler<MatchCodeArguments> {
        host.rematchOperation(Operation.rematchMatch) { host, args throws(WireError) in try await host.game(code: args.code) }
    }

    /// The finish to suggest for a score, for a client entering dart by dart. Needs no match.
    var checkout: OperationHandler<CheckoutArguments> {
        OperationHandler(Operation.checkout) { args, _ throws(WireError) in
            guard args.score >= 1 else { throw WireError(.invalidInput, "score must be at least 1 (got \(args.score)).") }
            guard (1...DartsLimits.dartsPerVisit).contains(args.darts) else {
                throw WireError(.invalidInput, "darts must be between 1 and \(DartsLimits.dartsPerVisit) (got \(args.darts)).")
            }
            let outRule: OutRule
            do throws(DartsError) {
                outRule = try OutRule(reading: args.outRule)
            } catch {
                throw WireError(error)
            }
            let finish = CheckoutTable.standard.suggestion(for: args.score, darts: args.darts, outRule: outRule)
            return .reply(try EncodedJSON.encoding(CheckoutResult(darts: finish?.map(\.notation))))
        }
    }

    /// A user's finished matches, live and uploaded, newest first, in the seed's `matches` shape. Only
    /// your own (`GameHost.historyPage`), as for rummy's `listGames`.
    var listMatches: OperationHandler<ListGamesArguments> {
        OperationHandler(Operation.listMatches) { [self] args, context throws(WireError) in
            .reply(try EncodedJSON.encoding(try await history(args, caller: try context.signedIn())))
        }
    }

    var entries: [OperationEntry] {
        [
            createMatch.entry(), joinMatch.entry(), addGuest.entry(), leaveMatch.entry(), getMatch.entry(), observeMatch.entry(),
            checkout.entry(), listMatches.entry(), rematchMatch.entry(), removePlayer.entry(),
        ]
    }
}
