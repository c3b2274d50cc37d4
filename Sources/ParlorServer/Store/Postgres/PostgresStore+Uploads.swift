// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorRules
import PostgresNIO

/// Uploaded games, lifetimes and users' settings in PostgreSQL, with SQLite's outcomes. An upload is a
/// compare-and-set: the row it replaces is locked (`FOR UPDATE`) so two nodes cannot both replace it.
extension PostgresStore {
    public func lifetime(_ kind: GameKind, of user: UserID) async throws(StoreError) -> [LifetimeEntry] {
        let where_ = "\(location), tables history_players and uploaded_game_players"
        let rows = try await read("Reading the lifetime of \(user)", """
            SELECT p.tally AS tally, CASE WHEN p.tally IS NULL THEN h.state END AS state
            FROM history_players AS p JOIN history AS h ON h.id = p.history_id
            WHERE p.user_id = \(user.rawValue) AND p.kind = \(kind.name)
            UNION ALL
            SELECT tally, NULL FROM uploaded_game_players WHERE user_id = \(user.rawValue) AND kind = \(kind.name)
            """) { row in try row.decode((String?, String?).self) }
        var entries: [LifetimeEntry] = []
        entries.reserveCapacity(rows.count)
        for (tally, state) in rows {
            if let tally {
                entries.append(.tally(try TallyJSON.decode(tally, location: where_)))
            } else if let state {
                entries.append(.untallied(.json(state)))
            }
        }
        return entries
    }

    public func uploadedGame(_ kind: GameKind, id: String) async throws(StoreError) -> UploadedGame? {
        let rows = try await uploadRows("Reading uploaded \(kind.noun) \(id)", kind: kind, ids: [id])
        return try SQLiteStore.uploads(rows, kind: kind, location: "\(location), table uploaded_games").first
    }

    public func uploadedGames(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [UploadedGame] {
        let doing = "Reading the uploaded \(kind.plural) of \(user)"
        let ids = try await read(doing, """
            SELECT game_id FROM uploaded_game_players
            WHERE user_id = \(user.rawValue) AND kind = \(kind.name) AND finished_at < \(before?.millisecondsSinceEpoch ?? Int64.max)
            ORDER BY finished_at DESC, game_id COLLATE "C" DESC LIMIT \(max(1, limit))
            """) { row in try row.decode(String.self) }
        guard !ids.isEmpty else { return [] }
        let rows = try await uploadRows(doing, kind: kind, ids: ids)
        return try SQLiteStore.uploads(rows, kind: kind, location: "\(location), table uploaded_games")
            .sorted { ($0.finishedAt, $0.id) > ($1.finishedAt, $1.id) }
    }

    public func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool {
        let tallies = try TallyJSON.encode(game.tallies)
        let (kind, id) = (game.kind.name, game.id)
        return try await transaction("Saving uploaded \(game.kind.noun) \(game.id)") { connection, logger in
            // A first upload races on the primary key instead: the loser's INSERT changes nothing.
            var stored: Int64?
            for try await updatedAt in try await connection.query(
                "SELECT updated_at FROM uploaded_games WHERE kind = \(kind) AND id = \(id) FOR UPDATE", logger: logger
            ).decode(Int64.self) {
                stored = updatedAt
            }
            guard stored == replacing?.millisecondsSinceEpoch else { return false }
            let written = try await Self.changes("""
                INSERT INTO uploaded_games (kind, id, uploader_id, updated_at, finished_at, state)
                VALUES (\(kind), \(id), \(game.uploader.rawValue), \(game.updatedAt.millisecondsSinceEpoch),
                    \(game.finishedAt.millisecondsSinceEpoch), \(game.state))
                ON CONFLICT (kind, id) DO UPDATE SET uploader_id = excluded.uploader_id, updated_at = excluded.updated_at,
                    finished_at = excluded.finished_at, state = excluded.state
                WHERE uploaded_games.updated_at IS NOT DISTINCT FROM \(replacing?.millisecondsSinceEpoch)
                """, on: connection, logger: logger)
            guard written > 0 else { return false }
            try await connection.query("DELETE FROM uploaded_game_players WHERE kind = \(kind) AND game_id = \(id)", logger: logger)
            for user in game.players {
                try await connection.query("""
                    INSERT INTO uploaded_game_players (kind, game_id, user_id, finished_at, tally)
                    VALUES (\(kind), \(id), \(user.rawValue), \(game.finishedAt.millisecondsSinceEpoch), \(tallies[user.rawValue]))
                    ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
            return true
        }
    }

    // MARK: Users' settings

    public func userSettings(_ user: UserID, name: String) async throws(StoreError) -> String? {
        try await read(
            "Reading the \(name) settings of \(user)",
            "SELECT value FROM user_settings WHERE user_id = \(user.rawValue) AND name = \(name)"
        ) { row in try row.decode(String.self) }.first
    }

    public func saveUserSettings(_ user: UserID, name: String, json: String) async throws(StoreError) {
        let stamp = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        try await execute("Saving the \(name) settings of \(user)", """
            INSERT INTO user_settings (user_id, name, value, updated_at) VALUES (\(user.rawValue), \(name), \(json), \(stamp))
            ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """)
    }

    // MARK: Rows

    /// The uploaded games of `kind` with these ids, each with its players.
    private func uploadRows(_ doing: String, kind: GameKind, ids: [String]) async throws(StoreError) -> [SQLiteStore.UploadRow] {
        let flat = try await read(doing, """
            SELECT g.id, g.uploader_id, g.updated_at, g.finished_at, g.state, p.user_id, p.tally
            FROM uploaded_games AS g LEFT JOIN uploaded_game_players AS p ON p.kind = g.kind AND p.game_id = g.id
            WHERE g.kind = \(kind.name) AND g.id = ANY(\(ids))
            """) { row in try row.decode((String, String, Int64, Int64, String, String?, String?).self) }
        var rows: [String: SQLiteStore.UploadRow] = [:]
        var order: [String] = []
        for (id, uploader, updatedAt, finishedAt, state, user, tally) in flat {
            if rows[id] == nil {
                order.append(id)
                rows[id] = SQLiteStore.UploadRow(
                    id: id, uploader: uploader, updatedAt: updatedAt, finishedAt: finishedAt, state: state, players: [])
            }
            if let user { rows[id]?.players.append((user, tally)) }
        }
        return order.compactMap { rows[$0] }
    }
}
#endif
