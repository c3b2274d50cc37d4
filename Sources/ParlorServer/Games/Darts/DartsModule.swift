import ParlorRules
import ParlorWire

/// Darts matches (seed `darts-srs.md`): live x01 matches with a host who scores, guests, spectators, the
/// checkout table, matches played offline and uploaded, the finished matches' history and each
/// player's lifetime for their profile. Each operation acts as the signed-in caller.
struct DartsModule: GameModule {
    /// Matches held at once; creating more fails with NO_FREE_CODE. Their own limit, apart from rooms'
    /// and lobbies'.
    var maxMatches = 100_000
    var codeSpace = MatchCode.space

    func register(in kernel: Kernel) throws -> GameRegistration {
        // Built now, once, rather than on the first visit someone records.
        _ = CheckoutTable.standard
        let operations = DartsOperations(host: GameHost(DartsGame(codeSpace: codeSpace, maxGames: maxMatches), kernel: kernel))
        let uploads = DartsUploads(store: kernel.store, clock: kernel.clock, logger: kernel.logger)
        let lifetime = DartsLifetime(host: operations.host)
        let moves = operations.host.moves(DartsAction.moves)
        return GameRegistration(
            game: operations.host, operations: operations.entries + moves.entries, routes: operations.routes + moves.routes + uploads.routes,
            profileStats: { user throws(WireError) in try await lifetime.stats(of: user) })
    }
}
