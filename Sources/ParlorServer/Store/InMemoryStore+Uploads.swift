import ParlorRules

/// Uploaded games and lifetimes in memory, with the same outcomes as SQLite's.
extension InMemoryStore {
    public func lifetime(_ kind: GameKind, of user: UserID) async throws(StoreError) -> [LifetimeEntry] {
        state.withLockedValue { state in
            let filed = state.history.filter { $0.kind == kind && $0.players.contains(user) }.map { filed -> LifetimeEntry in
                filed.tallies[user].map(LifetimeEntry.tally) ?? .untallied(filed.state)
            }
            let uploaded = (state.uploads[kind] ?? [:]).values.filter { $0.players.contains(user) }.compactMap { game in
                game.tallies[user].map(LifetimeEntry.tally)
            }
            return filed + uploaded
        }
    }

    public func uploadedGame(_ kind: GameKind, id: String) async throws(StoreError) -> UploadedGame? {
        state.withLockedValue { $0.uploads[kind]?[id] }
    }

    public func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool {
        state.withLockedValue { state in
            guard state.uploads[game.kind]?[game.id]?.updatedAt == replacing else { return false }
            var stored = game
            stored.players = Array(Set(game.players)).sorted()
            state.uploads[game.kind, default: [:]][game.id] = stored
            return true
        }
    }

    public func uploadedGames(
        _ kind: GameKind, of user: UserID, before: Instant?, limit: Int
    ) async throws(StoreError) -> [UploadedGame] {
        state.withLockedValue { state in
            (state.uploads[kind] ?? [:]).values
                .filter { game in game.players.contains(user) && (before.map { game.finishedAt < $0 } ?? true) }
                .sorted { ($0.finishedAt, $0.id) > ($1.finishedAt, $1.id) }
                .prefix(max(1, limit))
                .map { $0 }
        }
    }
}
