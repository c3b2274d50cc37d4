import GRDB

/// The database schema, as numbered GRDB migrations run at start-up.
///
/// Rules for whoever adds a migration: append, never edit or reorder a shipped one; name it
/// `v<N>-<what>` with N one more than the last, and raise `supportedVersion` to N. The number is how
/// an older build recognises a data directory it must not touch, and `PRAGMA user_version` carries
/// it too so an operator can read it with the `sqlite3` shell.
enum SQLiteSchema {
    static let supportedVersion = 1

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-rooms-history-lobbies-catalogs-secrets") { db in
            // Payloads are the values' JSON, as TEXT so `sqlite3` and json_extract can read them; the
            // other columns exist to be indexed or to help an operator looking at the file.
            try db.execute(sql: """
                CREATE TABLE rooms (
                    code TEXT NOT NULL PRIMARY KEY,
                    version INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE room_history (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room_code TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    finished_at INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    UNIQUE (room_code, created_at)
                );
                CREATE TABLE room_history_players (
                    history_id INTEGER NOT NULL REFERENCES room_history(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    -- Copied from room_history so a player's page of history is one index range.
                    finished_at INTEGER NOT NULL,
                    PRIMARY KEY (history_id, user_id)
                );
                CREATE INDEX room_history_players_by_user
                    ON room_history_players (user_id, finished_at DESC, history_id DESC);
                CREATE TABLE lobbies (
                    id TEXT NOT NULL PRIMARY KEY,
                    code TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    payload TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE catalogs (
                    version INTEGER NOT NULL PRIMARY KEY,
                    payload TEXT NOT NULL,
                    stored_at INTEGER NOT NULL
                );
                CREATE TABLE secrets (
                    name TEXT NOT NULL PRIMARY KEY,
                    value BLOB NOT NULL
                );
                PRAGMA user_version = 1;
                """)
        }
        return migrator
    }()

    /// Refuses a database written by a newer build, then brings an older or empty one up to date.
    static func migrate(_ pool: DatabasePool, file: String) throws(StoreError) {
        do {
            let found = try pool.read { db in try newerVersion(in: db) }
            if let found {
                throw StoreError(
                    .newerSchema(found: found, supported: supportedVersion),
                    "\(file) was written by a newer Parlor (schema \(found)); this build supports up to \(supportedVersion). Run the newer Parlor on this data directory, or point this one at another --data-dir.")
            }
            try migrator.migrate(pool)
        } catch {
            throw SQLiteErrorMapping.storeError(error, doing: "Migrating the schema", file: file)
        }
    }

    /// The schema number of a newer build that touched this database, or nil when this build knows
    /// every migration it finds.
    static func newerVersion(in db: Database) throws -> Int? {
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
        if unknown.isEmpty && userVersion <= supportedVersion { return nil }
        // A migration name we cannot parse still proves a newer build; report the least it can be.
        let numbers = unknown.map { version(of: $0) ?? supportedVersion + 1 }
        return max(userVersion, numbers.max() ?? 0, supportedVersion + 1)
    }

    /// 3 for "v3-something".
    static func version(of identifier: String) -> Int? {
        guard identifier.hasPrefix("v") else { return nil }
        return Int(identifier.dropFirst().prefix { $0.isNumber })
    }
}
