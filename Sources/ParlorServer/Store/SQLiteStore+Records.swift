import ParlorSQLite

/// Game records in SQLite (schema v6, v7, v8): `game_records` (one row per record: its game, its code, how it
/// began, when it was filed) and `game_record_steps` (one row per applied action), written inside the
/// writer's batch transaction with the games they belong to.
enum GameRecordRows {
    /// The record rows of one write, applied in the order the writes were queued (never collapsed:
    /// every save's steps are kept). A save appends its steps (and, on creation, the record's head) and
    /// marks the record finished when it files the game; a deletion removes the game's unfinished
    /// record (a finished one stays with its history).
    static func apply(_ write: SQLiteWrite, in db: SQLiteConnection) throws {
        switch write {
        case .saveGame(let game):
            guard let record = game.record else { return }
            if let opening = record.opening {
                try db.cachedStatement(sql: """
                    INSERT INTO game_records (id, kind, game_id, code, created_at, initial_state, initial_version, access)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [
                        record.id, game.kind, game.id, game.code, opening.createdAt, opening.initialState, opening.initialVersion,
                        opening.access,
                    ])
            }
            if !record.steps.isEmpty {
                let insert = try db.cachedStatement(sql: """
                    INSERT INTO game_record_steps (record_id, step, actor, at, action, version, environment) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                for step in record.steps {
                    try insert.execute(arguments: [record.id, step.step, step.actor, step.at, step.action, step.version, step.environment])
                }
            }
            if let archive = game.archive {
                try db.cachedStatement(sql: """
                    UPDATE game_records SET finished_at = ?, history_key = ? WHERE id = ? AND finished_at IS NULL
                    """).execute(arguments: [archive.finishedAt, archive.key, record.id])
            }
        case .deleteGame(let kind, _, let id, _):
            try db.cachedStatement(sql: """
                DELETE FROM game_records WHERE kind = ? AND game_id = ? AND finished_at IS NULL
                """).execute(arguments: [kind, id])
        }
    }

    static let headColumns = """
        r.id, r.kind, r.game_id, r.code, r.created_at, r.initial_state, r.initial_version, r.finished_at, r.history_key, r.access,
        (SELECT count(*) FROM game_record_steps AS s WHERE s.record_id = r.id) AS step_count
        """

    static func head(_ row: SQLiteRow) throws -> StoredGameRecord {
        StoredGameRecord(
            id: try row.decode(String.self, forColumn: "id"), kind: try row.decode(String.self, forColumn: "kind"),
            gameID: try row.decode(String.self, forColumn: "game_id"), code: try row.decode(String.self, forColumn: "code"),
            createdAt: try row.decode(Int64.self, forColumn: "created_at"),
            initialState: try row.decode(String.self, forColumn: "initial_state"),
            initialVersion: try row.decode(Int.self, forColumn: "initial_version"),
            finishedAt: try row.decode(Int64?.self, forColumn: "finished_at"),
            historyKey: try row.decode(String?.self, forColumn: "history_key"),
            stepCount: try row.decode(Int.self, forColumn: "step_count"),
            access: try row.decode(String?.self, forColumn: "access"))
    }

    static func step(_ row: SQLiteRow) throws -> GameRecordStep {
        GameRecordStep(
            step: try row.decode(Int.self, forColumn: "step"), actor: try row.decode(String?.self, forColumn: "actor"),
            at: try row.decode(Int64.self, forColumn: "at"), action: try row.decode(String.self, forColumn: "action"),
            version: try row.decode(Int.self, forColumn: "version"), environment: try row.decode(String?.self, forColumn: "environment"))
    }
}

extension SQLiteStore: GameRecordStore {
    func gameRecord(id: String) async throws(StoreError) -> StoredGameRecord? {
        try await read("Reading game record \(id)") { db in
            try SQLiteRow.fetchOne(db, sql: "SELECT \(GameRecordRows.headColumns) FROM game_records AS r WHERE r.id = ?", arguments: [id])
                .map(GameRecordRows.head)
        }
    }

    func finishedGameRecord(code: String) async throws(StoreError) -> StoredGameRecord? {
        try await read("Reading the record of game \(code)") { db in
            try SQLiteRow.fetchOne(db, sql: """
                SELECT \(GameRecordRows.headColumns) FROM game_records AS r
                WHERE r.code = ? AND r.finished_at IS NOT NULL ORDER BY r.finished_at DESC, r.created_at DESC LIMIT 1
                """, arguments: [code]).map(GameRecordRows.head)
        }
    }

    func gameRecordSteps(id: String, from: Int, limit: Int) async throws(StoreError) -> [GameRecordStep] {
        try await read("Reading the steps of game record \(id)") { db in
            try SQLiteRow.fetchAll(db, sql: """
                SELECT step, actor, at, action, version, environment FROM game_record_steps WHERE record_id = ? AND step >= ? ORDER BY step LIMIT ?
                """, arguments: [id, from, limit]).map(GameRecordRows.step)
        }
    }

    func gameRecordIDs() async throws(StoreError) -> [String] {
        try await read("Listing game records") { db in
            try String.fetchAll(db, sql: "SELECT id FROM game_records ORDER BY created_at, id")
        }
    }

    func gameRecordCheckpoints(of record: StoredGameRecord) async throws(StoreError) -> GameRecordCheckpoints {
        try await read("Reading the stored forms of game record \(record.id)") { db in
            let live = try String.fetchOne(
                db, sql: "SELECT state FROM games WHERE kind = ? AND id = ? AND record_id = ?", arguments: [record.kind, record.gameID, record.id])
            let filed = try record.historyKey.flatMap { key in
                try String.fetchOne(db, sql: "SELECT state FROM history WHERE kind = ? AND game_key = ?", arguments: [record.kind, key])
            }
            return GameRecordCheckpoints(live: live, filed: filed)
        }
    }
}
