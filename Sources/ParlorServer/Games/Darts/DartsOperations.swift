import ParlorRules
import ParlorWire

/// The darts match operations, on the WebSocket and (in `DartsOperations+Routes`) over HTTP.
struct DartsOperations: Sendable {
    let host: GameHost<DartsGame>

    var createMatch: OperationHandler<CreateMatchArguments> {
        OperationHandler(.createMatch) { [host] args, context throws(WireError) in
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
        OperationHandler(.joinMatch) { [host] args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await host.game(code: args.code).perform(.join(playerName: args.playerName), by: user) {
            case .game(_, let view, _): return .reply(EncodedJSON.seat(view, as: "match", caller: user))
            case .deleted: throw WireError(DartsError.matchNotFound(code: args.code))
            }
        }
    }

    /// The guest's id is made here, by the server, so no client can choose one.
    var addGuest: OperationHandler<AddGuestArguments> {
        host.change(.addGuest) { .addGuest(name: $0.name, id: DartsGame.randomUUID()) } code: { $0.code }
    }

    var removePlayer: OperationHandler<RemovePlayerArguments> {
        host.change(.removePlayer) { .removePlayer(playerId: $0.playerId) } code: { $0.code }
    }

    var startMatch: OperationHandler<MatchCodeArguments> {
        host.change(.startMatch) { _ in .start } code: { $0.code }
    }

    var recordVisit: OperationHandler<RecordVisitArguments> {
        host.change(.recordVisit) {
            .recordVisit(playerId: $0.playerId, visit: VisitInput(darts: $0.darts, total: $0.total))
        } code: { $0.code }
    }

    var editLastVisit: OperationHandler<EditLastVisitArguments> {
        host.change(.editLastVisit) {
            .editLastVisit(number: $0.visit, visit: VisitInput(darts: $0.darts, total: $0.total))
        } code: { $0.code }
    }

    /// Answers null; the last account player leaving deletes the match.
    var leaveMatch: OperationHandler<MatchCodeArguments> {
        OperationHandler(.leaveMatch) { [host] args, context throws(WireError) in
            _ = try await host.game(code: args.code).perform(.leave, by: try context.signedIn())
            return .reply(.null)
        }
    }

    /// Anyone may read a match, signed in or not.
    var getMatch: OperationHandler<MatchCodeArguments> {
        OperationHandler(.getMatch, access: .anyone) { [host] args, _ throws(WireError) in
            .reply(try await host.game(code: args.code).current().1)
        }
    }

    /// Anyone may watch a match, signed in or not (friends following from elsewhere).
    var observeMatch: OperationHandler<MatchCodeArguments> {
        OperationHandler(.observeMatch, access: .anyone) { [host] args, context throws(WireError) in
            .subscribe(try await host.game(code: args.code).subscribe(user: context.user)) { topic throws(WireError) in
                try EncodedJSON.encoding(Subscribed(subscription: topic))
            }
        }
    }

    /// The finish to suggest for a score, for a client entering dart by dart. Needs no match.
    var checkout: OperationHandler<CheckoutArguments> {
        OperationHandler(.checkout, access: .anyone) { args, _ throws(WireError) in
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

    /// A user's finished matches, newest first, in the seed's `matches` shape. Only your own
    /// (`GameHost.historyPage`), as for rummy's `listGames`.
    var listMatches: OperationHandler<ListGamesArguments> {
        OperationHandler(.listMatches) { [host] args, context throws(WireError) in
            let page = try await host.historyPage(args, caller: try context.signedIn(), plural: "matches")
            let matches = page.games.compactMap(MatchRecord.init)
            return .reply(try EncodedJSON.encoding(ListMatchesResult(matches: matches, nextBefore: page.isFull ? matches.last?.endedAt : nil)))
        }
    }

    var entries: [OperationEntry] {
        [
            createMatch.entry(), joinMatch.entry(), addGuest.entry(), removePlayer.entry(), startMatch.entry(),
            recordVisit.entry(), editLastVisit.entry(), leaveMatch.entry(), getMatch.entry(), observeMatch.entry(),
            checkout.entry(), listMatches.entry(),
        ]
    }
}
