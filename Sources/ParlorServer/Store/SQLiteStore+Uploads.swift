import ParlorSQLite
import ParlorRules

/// Uploaded games and players' lifetimes in SQLite (tables `uploaded_games`, `uploaded_game_players`,
/// and `history_players.tally`). Uploads are written outside the group commit, each in a transaction
/// of its own: a compare-and-set must see the row it replaces, and an upload is rare next to a visit.
extension SQLiteStore {
    public func lifetime(_ kind: GameKind, of user: UserID) async throws(StoreError) -> [LifetimeEntry] {
        let location = "\(databasePath), tables history_players and uploaded_game_players"
        let rows = try await read("Reading the lifetime of \(user)") { db in
            try SQLiteRow.fetchAll(db, sql: """
                SELECT p.tally AS tally, CASE WHEN p.tally IS NULL THEN h.state END AS state
                FROM history_players AS p JOIN history AS h ON h.id = p.history_id
                WHERE p.user_id = ? AND p.kind = ?
                UNION ALL
                SELECT tally, NULL FROM uploaded_game_players WHERE user_id = ? AND kind = ?
                """, arguments: [user.rawValue, kind.name, user.rawValue, kind.name]
            ).map { row -> (tally: String?, state: String?) in
                (try row.decode(String?.self, forColumn: "tally"), try row.decode(String?.self, forColumn: "state"))
            }
        }
        var entries: [LifetimeEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows {
            if let tally = row.tally {
                entries.append(.tally(try TallyJSON.decode(tally, location: location)))
            } else if let state = row.state {
                entries.append(.untallied(.json(state)))
            }
        }
        return entries
    }

    public func uploadedGame(_ kind: GameKind, id: String) async throws(StoreError) -> UploadedGame? {
        let location = "\(databasePath), table uploaded_games"
        let found = try await read("Reading uploaded \(kind.noun) \(id)") { db in
            try Self.uploadRows(db, where: "g.kind = ? AND g.id = ?", arguments: [kind.name, id])
        }
        return try Self.uploads(found, kind: kind, location: location).first
    }

    public func uploadedGames(
        _ kind: GameKind, of user: UserID, before: Instant?, limit: Int
    ) async throws(StoreError) -> [UploadedGame] {
        let location = "\(databasePath), table uploaded_games"
        let limit = max(1, limit)
        let before = before?.millisecondsSinceEpoch ?? Int64.max
        let found = try await read("Reading the uploaded \(kind.plural) of \(user)") { db in
            let ids = try String.fetchAll(db, sql: """
                SELECT game_id FROM uploaded_game_players
                WHERE user_id = ? AND kind = ? AND finished_at < ?
                ORDER BY finished_at DESC, game_id DESC LIMIT ?
                """, arguments: [user.rawValue, kind.name, before, limit])
            guard !ids.isEmpty else { return [UploadRow]() }
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try Self.uploadRows(db, where: "g.kind = ? AND g.id IN (\(marks))", arguments: StatementArguments([kind.name] + ids))
        }
        return try Self.uploads(found, kind: kind, location: location)
            .sorted { ($0.finishedAt, $0.id) > ($1.finishedAt, $1.id) }
    }

    public func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool {
        let tallies = try TallyJSON.encode(game.tallies)
        return try await write("Saving uploaded \(game.kind.noun) \(game.id)") { db in
            let stored = try Int64.fetchOne(
                db, sql: "SELECT updated_at FROM uploaded_games WHERE kind = ? AND id = ?", arguments: [game.kind.name, game.id])
            guard stored == replacing?.millisecondsSinceEpoch else { return false }
            try db.execute(
                sql: """
                    INSERT INTO uploaded_games (kind, id, uploader_id, updated_at, finished_at, state) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (kind, id) DO UPDATE SET uploader_id = excluded.uploader_id, updated_at = excluded.updated_at,
                        finished_at = excluded.finished_at, state = excluded.state
                    """,
                arguments: [
                    game.kind.name, game.id, game.uploader.rawValue, game.updatedAt.millisecondsSinceEpoch,
                    game.finishedAt.millisecondsSinceEpoch, game.state,
                ])
            try db.execute(
                sql: "DELETE FROM uploaded_game_players WHERE kind = ? AND game_id = ?", arguments: [game.kind.name, game.id])
            let player = try db.cachedStatement(sql: """
                INSERT INTO uploaded_game_players (kind, game_id, user_id, finished_at, tally) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """)
            for user in game.players {
                try player.execute(arguments: [
                    game.kind.name, game.id, user.rawValue, game.finishedAt.millisecondsSinceEpoch, tallies[user.rawValue],
                ])
            }
            return true
        }
    }

    // MARK: Rows

    struct UploadRow: Sendable {
        var id: String
        var uploader: String
        var updatedAt: Int64
        var finishedAt: Int64
        var state: String
        var players: [(user: String, tally: String?)]
    }

    private static func uploadRows(_ db: SQLiteConnection, where condition: String, arguments: StatementArguments) throws -> [UploadRow] {
        var rows: [String: UploadRow] = [:]
        var order: [String] = []
        for row in try SQLiteRow.fetchAll(db, sql: """
            SELECT g.id AS id, g.uploader_id AS uploader, g.updated_at AS updated_at, g.finished_at AS finished_at,
                g.state AS state, p.user_id AS user_id, p.tally AS tally
            FROM uploaded_games AS g LEFT JOIN uploaded_game_players AS p ON p.kind = g.kind AND p.game_id = g.id
            WHERE \(condition)
            """, arguments: arguments)
        {
            let id = try row.decode(String.self, forColumn: "id")
            if rows[id] == nil {
                order.append(id)
                rows[id] = UploadRow(
                    id: id, uploader: try row.decode(String.self, forColumn: "uploader"),
                    updatedAt: try row.decode(Int64.self, forColumn: "updated_at"),
                    finishedAt: try row.decode(Int64.self, forColumn: "finished_at"),
                    state: try row.decode(String.self, forColumn: "state"), players: [])
            }
            if let user = try row.decode(String?.self, forColumn: "user_id") {
                rows[id]?.players.append((user, try row.decode(String?.self, forColumn: "tally")))
            }
        }
        return order.compactMap { rows[$0] }
    }

    static func uploads(_ rows: [UploadRow], kind: GameKind, location: String) throws(StoreError) -> [UploadedGame] {
        var games: [UploadedGame] = []
        for row in rows {
            guard let uploader = UserID(row.uploader) else {
                throw StoreError(.corrupt, "The uploader of \(kind.noun) \(row.id) in \(location) is not a user id.")
            }
            var players: [UserID] = []
            var tallies: [UserID: PlayerTally] = [:]
            for (text, tally) in row.players {
                guard let user = UserID(text) else {
                    throw StoreError(.corrupt, "A player of \(kind.noun) \(row.id) in \(location) is not a user id.")
                }
                players.append(user)
                if let tally { tallies[user] = try TallyJSON.decode(tally, location: location) }
            }
            games.append(UploadedGame(
                kind: kind, id: row.id, uploader: uploader, updatedAt: Instant(millisecondsSinceEpoch: row.updatedAt),
                finishedAt: Instant(millisecondsSinceEpoch: row.finishedAt), players: players.sorted(), tallies: tallies,
                state: row.state))
        }
        return games
    }
}
