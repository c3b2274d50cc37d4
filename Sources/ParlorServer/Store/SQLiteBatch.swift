import ParlorSQLite

/// Applies one batch of queued writes inside the writer's open transaction.
enum SQLiteBatch {
    /// Writes arrive in the order callers queued them. For each key only the last write is applied,
    /// but every archiving save in the batch files its game first, in order: a game is filed as it was
    /// when it finished, even if a later version of it (say, after a player left) lands in the same batch.
    static func apply(_ writes: [SQLiteWrite], in db: SQLiteConnection, now: Int64) throws {
        // Records are never collapsed: every save's steps are appended, in the order they were saved.
        for write in writes {
            try GameRecordRows.apply(write, in: db)
        }
        let (archiving, last) = SQLiteWrite.collapsed(writes)
        for game in archiving {
            if let archive = game.archive {
                try file(game, archive, in: db)
            }
        }
        for write in last {
            try applyLast(write, in: db, now: now)
        }
    }

    private static func applyLast(_ write: SQLiteWrite, in db: SQLiteConnection, now: Int64) throws {
        switch write {
        case .saveGame(let game):
            try db.cachedStatement(sql: """
                INSERT INTO games (kind, id, code, version, state, schedule, updated_at, record_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (kind, id) DO UPDATE SET
                    code = excluded.code, version = excluded.version, state = excluded.state,
                    schedule = excluded.schedule, updated_at = excluded.updated_at, record_id = excluded.record_id
                """).execute(arguments: [game.kind, game.id, game.code, game.version, game.state, game.schedule, now, game.record?.id])
        case .deleteGame(let kind, _, let id, _):
            try db.cachedStatement(sql: "DELETE FROM games WHERE kind = ? AND id = ?").execute(arguments: [kind, id])
        }
    }

    /// Files the game once: (kind, archive key) names a finished game among every game ever played.
    private static func file(_ game: SQLiteWrite.SavedGame, _ archive: SQLiteWrite.Archive, in db: SQLiteConnection) throws {
        try db.cachedStatement(sql: """
            INSERT INTO history (kind, game_key, finished_at, state) VALUES (?, ?, ?, ?)
            ON CONFLICT (kind, game_key) DO NOTHING
            """).execute(arguments: [game.kind, archive.key, archive.finishedAt, game.state])
        guard db.changesCount > 0 else { return }
        let historyID = db.lastInsertedRowID
        let player = try db.cachedStatement(sql: """
            INSERT INTO history_players (history_id, user_id, kind, finished_at, tally) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """)
        for userID in archive.players {
            try player.execute(arguments: [historyID, userID, game.kind, archive.finishedAt, archive.tallies[userID]])
        }
    }
}
