import GRDB

/// Applies one batch of queued writes inside the writer's open transaction.
enum SQLiteBatch {
    /// Writes arrive in the order callers queued them. For each key only the last write is applied,
    /// but every finished room in the batch is offered to history first, in order: a game is filed
    /// with the first finished version seen, as it was at the finish, even if a later version of the
    /// room (say, after a player left) lands in the same batch.
    static func apply(_ writes: [SQLiteWrite], in db: Database, now: Int64) throws {
        for case .saveRoom(let room) in writes {
            if let game = room.finishedGame {
                try recordHistory(room, game, in: db)
            }
        }
        var lastIndex: [SQLiteWrite.Key: Int] = [:]
        lastIndex.reserveCapacity(writes.count)
        for (index, write) in writes.enumerated() {
            lastIndex[write.key] = index
        }
        for (index, write) in writes.enumerated() where lastIndex[write.key] == index {
            try applyLast(write, in: db, now: now)
        }
    }

    private static func applyLast(_ write: SQLiteWrite, in db: Database, now: Int64) throws {
        switch write {
        case .saveRoom(let room):
            try db.cachedStatement(sql: """
                INSERT INTO rooms (code, version, payload, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (code) DO UPDATE SET
                    version = excluded.version, payload = excluded.payload, updated_at = excluded.updated_at
                """).execute(arguments: [room.code, room.version, room.payload, now])
        case .deleteRoom(let code):
            try db.cachedStatement(sql: "DELETE FROM rooms WHERE code = ?").execute(arguments: [code])
        case .saveLobby(let id, let code, let version, let payload):
            try db.cachedStatement(sql: """
                INSERT INTO lobbies (id, code, version, payload, updated_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    code = excluded.code, version = excluded.version, payload = excluded.payload,
                    updated_at = excluded.updated_at
                """).execute(arguments: [id, code, version, payload, now])
        case .deleteLobby(let id):
            try db.cachedStatement(sql: "DELETE FROM lobbies WHERE id = ?").execute(arguments: [id])
        case .saveCatalog(let version, let payload):
            try db.cachedStatement(sql: """
                INSERT INTO catalogs (version, payload, stored_at) VALUES (?, ?, ?)
                ON CONFLICT (version) DO UPDATE SET payload = excluded.payload, stored_at = excluded.stored_at
                """).execute(arguments: [version, payload, now])
        }
    }

    /// Files the game once: (room code, creation time) names a game, since a code can be reused later.
    private static func recordHistory(
        _ room: SQLiteWrite.SavedRoom, _ game: SQLiteWrite.FinishedGame, in db: Database
    ) throws {
        try db.cachedStatement(sql: """
            INSERT INTO room_history (room_code, created_at, finished_at, payload) VALUES (?, ?, ?, ?)
            ON CONFLICT (room_code, created_at) DO NOTHING
            """).execute(arguments: [room.code, game.createdAt, game.finishedAt, room.payload])
        guard db.changesCount > 0 else { return }
        let historyID = db.lastInsertedRowID
        let player = try db.cachedStatement(sql: """
            INSERT INTO room_history_players (history_id, user_id, finished_at) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING
            """)
        for userID in game.players {
            try player.execute(arguments: [historyID, userID, game.finishedAt])
        }
    }
}
