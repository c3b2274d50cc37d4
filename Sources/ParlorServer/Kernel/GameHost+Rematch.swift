import ParlorRules
import ParlorWire

/// Rematches, for every game whose rules are `Rematchable`: the kernel creates the new game from the old
/// one's seats and records its code in the old one, whose view then tells every client where to go.
extension GameHost where Rules: Rematchable {
    /// Starts a rematch of `old` as `user` and answers its code; asking again (or at the same time)
    /// answers the same code.
    func rematch(of old: GameActor<Game>, by user: UserID) async throws(WireError) -> String {
        let result = await rematches.start(old.id) { [self] in
            do throws(WireError) {
                return .success(try await self.startRematch(of: old, by: user))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func startRematch(of old: GameActor<Game>, by user: UserID) async throws(WireError) -> String {
        let (state, _) = try await old.current()
        if let existing = state.rematchCode { return existing }
        // The same players: private and watched as the old game was, and open to them (unlocked).
        var access = await old.access
        access.locked = false
        // The rules refuse here (not the moderator, not over yet) before anything is stored.
        let created = try await create(access: access) { id, code, now throws(Rules.Failure) in
            try state.rematch(by: user, id: id, code: code.rawValue, at: now)
        }
        let code = created.actor.code.rawValue
        _ = try await old.perform(Rules.recordRematch(code: code), by: user)
        return code
    }

    /// The rematch operation of a game: `find` reads the old game from the arguments; the reply is
    /// `{code}`, the rematch's.
    func rematchOperation<Arguments: OperationArguments>(
        _ declaration: OperationDeclaration<Arguments, RematchResult>, find: @escaping @Sendable (GameHost, Arguments) async throws(WireError) -> GameActor<Game>
    ) -> OperationHandler<Arguments> {
        OperationHandler(declaration) { [self] args, context throws(WireError) in
            let user = try context.signedIn()
            let code = try await self.rematch(of: try await find(self, args), by: user)
            return .reply(try EncodedJSON.encoding(RematchResult(code: code)))
        }
    }
}
