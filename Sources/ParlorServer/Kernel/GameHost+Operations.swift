import ParlorRules
import ParlorWire

/// The shapes most game operations share, written once: apply one action to the game a code names,
/// and read a page of the caller's history.
extension GameHost {
    /// An operation that applies the action its arguments make, as the signed-in caller, to the game
    /// whose code they carry, and answers the game's public view as that action left it.
    func change<Arguments: Sendable>(
        _ name: OperationName, _ action: @escaping @Sendable (Arguments) -> Rules.Action,
        code: @escaping @Sendable (Arguments) -> String
    ) -> OperationHandler<Arguments> {
        OperationHandler(name) { [self] args, context throws(WireError) in
            let user = try context.signedIn()
            let text = code(args)
            switch try await self.game(code: text).perform(action(args), by: user) {
            case .game(_, let view, _): return .reply(view)
            case .deleted: throw game.notFound(code: try game.parse(code: text))
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
        if args.before != nil && args.beforeInstant == nil {
            throw WireError(.invalidInput, "before must be an ISO-8601 timestamp such as 2026-01-30T18:00:00.000Z.")
        }
        let limit = try args.checkedLimit()
        let games = try await history(of: user, before: args.beforeInstant, limit: limit)
        return (games, games.count == limit)
    }
}
