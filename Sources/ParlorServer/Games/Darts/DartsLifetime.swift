import ParlorRules
import ParlorWire

/// A player's lifetime, for their profile: every match they finished, live or uploaded, added up from
/// the tallies filed with each (`DartsMatch.tally`). A live match filed before tallies were kept is
/// counted from the match itself.
struct DartsLifetime: Sendable {
    let host: GameHost<DartsGame>

    func stats(of user: UserID) async throws(WireError) -> ProfileStats {
        let entries = try await host.logger.storing("read the lifetime of \(user)") { () async throws(StoreError) in
            try await host.store.lifetime(DartsGame.kind, of: user)
        }
        var (won, points, darts, highest) = (0, 0, 0, 0)
        for entry in entries {
            guard let tally = try tally(entry, of: user) else { continue }
            won += tally[DartsMatch.TallyKey.won] ?? 0
            points += tally[DartsMatch.TallyKey.points] ?? 0
            darts += tally[DartsMatch.TallyKey.darts] ?? 0
            highest = max(highest, tally[DartsMatch.TallyKey.highestCheckout] ?? 0)
        }
        let average = darts == 0 ? 0 : (Double(points) / Double(darts) * 3 * 100).rounded() / 100
        return ProfileStats(played: entries.count, won: won, threeDartAverage: average, highestCheckout: highest)
    }

    private func tally(_ entry: LifetimeEntry, of user: UserID) throws(WireError) -> PlayerTally? {
        switch entry {
        case .tally(let tally):
            return tally
        case .untallied(let stored):
            let match: DartsMatch
            do {
                match = try StoredGameState<DartsGame>.state(of: stored, what: "finished match", location: "history")
            } catch {
                host.logger.error("Store failure", metadata: ["operation": "read a finished match of \(user)", "cause": "\(error.reason)"])
                throw WireError.internalError("The server could not read the matches of \(user).")
            }
            return match.seat(of: user).map { match.tally(seat: $0) }
        }
    }
}
