import ParlorRules
import ParlorWire

/// What the operator's page asks of every kind of game without knowing which: its live games, one
/// game's view, and closing one.
extension GameHost {
    /// Up to `limit` live games, by code.
    func adminGames(limit: Int, presence: Presence) async -> [AdminViews.Game] {
        let actors = directory.all.sorted { $0.code.rawValue < $1.code.rawValue }.prefix(limit)
        var games: [AdminViews.Game] = []
        games.reserveCapacity(actors.count)
        for actor in actors {
            guard let (state, _) = try? await actor.current() else { continue }  // Deleted meanwhile.
            games.append(adminGame(actor, state, presence: presence))
        }
        return games
    }

    /// The game with `code`, and its public view as its subscribers see it.
    func adminGame(code: String, presence: Presence) async throws(WireError) -> (AdminViews.Game, EncodedJSON) {
        let actor = try await game(code: code)
        let (state, view) = try await actor.current()
        return (adminGame(actor, state, presence: presence), view)
    }

    /// Closes the game with `code`; its members hear `reason`.
    func close(code: String, reason: String) async throws(WireError) {
        try await game(code: code).close(reason: reason)
    }

    private func adminGame(_ actor: GameActor<Game>, _ state: Rules, presence: Presence) -> AdminViews.Game {
        AdminViews.Game(
            kind: Game.kind.name, code: actor.code.rawValue, id: actor.id, phase: state.stage.rawValue, version: state.version,
            members: state.members.map { AdminViews.Member(userId: $0, connected: presence.isConnected($0)) },
            subscribers: actor.feed.subscriberCount)
    }
}
