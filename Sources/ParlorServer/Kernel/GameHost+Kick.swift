import ParlorRules
import ParlorWire

/// Removing a player, for every game whose rules are `Kickable`: the kernel applies the game's kick
/// action as the caller (the rules decide who may, when, and what goes with the seat) and ends the
/// removed player's streams when the rules no longer let them watch.
extension GameHost where Rules: Kickable {
    /// Removes `player` from `game` as `user`; answers the game as the removal left it.
    func kick(_ player: UserID, from game: GameActor<Game>, by user: UserID) async throws(WireError) -> GameResult<Rules> {
        let result = try await game.perform(Rules.kick(player), by: user)
        await game.endStreams(ofBarred: player)
        return result
    }

    /// The remove-a-player operation of a game: `code` and `player` read the arguments; the reply is
    /// the game's public view as the removal left it.
    func kickOperation<Arguments: OperationArguments, Result>(
        _ declaration: OperationDeclaration<Arguments, Result>,
        code: @escaping @Sendable (Arguments) -> String, player: @escaping @Sendable (Arguments) -> UserID
    ) -> OperationHandler<Arguments> {
        OperationHandler(declaration) { [self] args, context throws(WireError) in
            let user = try context.signedIn()
            switch try await self.kick(player(args), from: try await self.game(code: code(args)), by: user) {
            case .game(_, let view, _): return .reply(view)
            case .deleted: throw game.notFound(code: try game.parse(code: code(args)))
            }
        }
    }
}
