// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import PostgresNIO

/// Game records in PostgreSQL (migrations 7, 8, 9), written by `parlor_save_recorded` with the games' saves.
extension PostgresStore: GameRecordStore {
    private static let headColumns = """
        r.id, r.kind, r.game_id, r.code, r.created_at, r.initial_state, r.initial_version, r.finished_at, r.history_key, r.access,
        (SELECT count(*) FROM game_record_steps AS s WHERE s.record_id = r.id)
        """

    private static func head(_ row: PostgresRow) throws -> StoredGameRecord {
        let (id, kind, game, code, created, initial, version, finished, key, access, count) = try row.decode(
            (String, String, String, String, Int64, String, Int, Int64?, String?, String?, Int).self)
        return StoredGameRecord(
            id: id, kind: kind, gameID: game, code: code, createdAt: created, initialState: initial, initialVersion: version,
            finishedAt: finished, historyKey: key, stepCount: count, access: access)
    }

    func gameRecord(id: String) async throws(StoreError) -> StoredGameRecord? {
        try await read(
            "Reading game record \(id)",
            PostgresQuery(unsafeSQL: "SELECT \(Self.headColumns) FROM game_records AS r WHERE r.id = $1", binds: Self.binds(id)),
            Self.head
        ).first
    }

    func finishedGameRecord(code: String) async throws(StoreError) -> StoredGameRecord? {
        try await read(
            "Reading the record of game \(code)",
            PostgresQuery(
                unsafeSQL: """
                    SELECT \(Self.headColumns) FROM game_records AS r WHERE r.code = $1 AND r.finished_at IS NOT NULL
                    ORDER BY r.finished_at DESC, r.created_at DESC LIMIT 1
                    """, binds: Self.binds(code)),
            Self.head
        ).first
    }

    func gameRecordSteps(id: String, from: Int, limit: Int) async throws(StoreError) -> [GameRecordStep] {
        try await read(
            "Reading the steps of game record \(id)",
            "SELECT step, actor, at, action, version, environment FROM game_record_steps WHERE record_id = \(id) AND step >= \(from) ORDER BY step LIMIT \(limit)"
        ) { row in
            let (step, actor, at, action, version, environment) = try row.decode((Int, String?, Int64, String, Int, String?).self)
            return GameRecordStep(step: step, actor: actor, at: at, action: action, version: version, environment: environment)
        }
    }

    func gameRecordIDs() async throws(StoreError) -> [String] {
        try await read("Listing game records", "SELECT id FROM game_records ORDER BY created_at, id") { row in
            try row.decode(String.self)
        }
    }

    func gameRecordCheckpoints(of record: StoredGameRecord) async throws(StoreError) -> GameRecordCheckpoints {
        let live = try await read(
            "Reading the live game of record \(record.id)",
            "SELECT state FROM games WHERE kind = \(record.kind) AND id = \(record.gameID) AND record_id = \(record.id)"
        ) { row in try row.decode(String.self) }
        guard let key = record.historyKey else { return GameRecordCheckpoints(live: live.first) }
        let filed = try await read(
            "Reading the finished game of record \(record.id)",
            "SELECT state FROM history WHERE kind = \(record.kind) AND game_key = \(key)"
        ) { row in try row.decode(String.self) }
        return GameRecordCheckpoints(live: live.first, filed: filed.first)
    }

    private static func binds(_ value: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }
}
#endif
