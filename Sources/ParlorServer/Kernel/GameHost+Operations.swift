import ParlorRules
import ParlorWire

/// The shapes most game operations share, written once: the game's moves, and a page of the caller's
/// history.
extension GameHost {
    /// The table entries and REST routes of a game's moves (`DartsAction.moves`): each applies the
    /// action its arguments make, as the signed-in caller, to the game whose code they carry, and
    /// answers the game's public view as that action left it.
    func moves(_ moves: [GameMove<Rules.Action>]) -> (entries: [OperationEntry], routes: [HTTPRoute]) {
        var entries: [OperationEntry] = []
        var routes: [HTTPRoute] = []
        for move in moves {
            let operation = move.operation
            entries.append(OperationEntry(
                name: operation.name, access: operation.access, claim: operation.claim, callable: operation.callable,
                reader: move.reader.map(call)))
            for route in move.routes {
                let read = route.call
                routes.append(HTTPRoute(declared: route.method, route.path, status: route.status, access: operation.access) {
                    [self] request throws(WireError) in call(try read(request.declared))
                })
            }
        }
        return (entries, routes)
    }

    /// The call of one move: the caller first, then the action (arguments the rules cannot take are
    /// refused before the game is looked up), then the game.
    func call(_ move: MoveCall<Rules.Action>) -> PreparedCall {
        { [self] context throws(WireError) in
            let user = try context.signedIn()
            let action = try move.action.get()
            switch try await self.game(code: move.code).perform(action, by: user) {
            case .game(_, let view, _): return .reply(view)
            case .deleted: throw game.notFound(code: try game.parse(code: move.code))
            }
        }
    }

    /// An operation that answers the public view of the game whose code the arguments carry, as it is
    /// now (`getRoom`, `getMatch`, …).
    func reading<Arguments, Result>(
        _ declaration: OperationDeclaration<Arguments, Result>, code: @escaping @Sendable (Arguments) -> String
    ) -> OperationHandler<Arguments> {
        OperationHandler(declaration) { [self] args, context throws(WireError) in
            let actor = try await self.game(code: code(args))
            try await actor.admitSpectator(context.user)
            return .reply(try await actor.current().1)
        }
    }

    /// An operation that follows the game whose code the arguments carry: `{subscription}`, then every
    /// version (`observeRoom`, `observeMatch`, …), past the rules' observer check.
    func watching<Arguments, Result>(
        _ declaration: OperationDeclaration<Arguments, Result>, code: @escaping @Sendable (Arguments) -> String
    ) -> OperationHandler<Arguments> {
        OperationHandler(declaration) { [self] args, context throws(WireError) in
            .subscribe(try await self.game(code: code(args)).subscribe(user: context.user)) { topic throws(WireError) in
                try EncodedJSON.encoding(Subscribed(subscription: topic))
            }
        }
    }

    /// A page of the caller's finished games (only their own: a history names other players and their
    /// results, and a user id is visible to anyone who has watched a game), newest first, and whether
    /// the page is full — then the last one's finish is where the next page starts.
    func historyPage(
        _ args: ListGamesArguments, caller: UserID, plural: String
    ) async throws(WireError) -> (games: [Rules], isFull: Bool) {
        let user = args.userId ?? caller
        guard user == caller else { throw WireError(.forbidden, "You can list only your own \(plural).") }
        try args.checkNoCursor()
        if args.before != nil && args.beforeInstant == nil {
            throw WireError(.invalidInput, "before must be an ISO-8601 timestamp such as 2026-01-30T18:00:00.000Z.")
        }
        let limit = try args.checkedLimit()
        let games = try await history(of: user, before: args.beforeInstant, limit: limit)
        return (games, games.count == limit)
    }
}
