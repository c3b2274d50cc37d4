import ParlorSQLite

/// The database schema, as numbered migrations run at start-up (`SQLiteMigrator`).
///
/// Rules for whoever adds a migration: append, never edit or reorder a shipped one; name it
/// `v<N>-<what>` with N one more than the last, and raise `supportedVersion` to N. The number is how
/// an older build recognises a data directory it must not touch, and `PRAGMA user_version` carries
/// it too so an operator can read it with the `sqlite3` shell.
enum SQLiteSchema {
    static let supportedVersion = 8

    static let migrator: SQLiteMigrator = {
        var migrator = SQLiteMigrator()
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
        migrator.registerMigration("v2-games-history-schedules") { db in
            // One table for every kind of game, one history for every kind, and each game's scheduled
            // actions in its own row (so a save moves state and timers together). The v1 rows move
            // over as they are: a room's and a lobby's JSON are their games' stored forms. A lobby in a
            // round gets the timer that ends it (WordLobbyAction.endRound, as stored JSON), which v1
            // kept only implicitly in the round's deadline. History keeps its ids, so the players'
            // rows move over unchanged; a finished room is named by its code and creation time, as in v1.
            try db.execute(sql: """
                CREATE TABLE games (
                    kind TEXT NOT NULL,
                    id TEXT NOT NULL,
                    code TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    schedule TEXT NOT NULL DEFAULT '[]',
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY (kind, id)
                );
                CREATE TABLE history (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    game_key TEXT NOT NULL,
                    finished_at INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    UNIQUE (kind, game_key)
                );
                CREATE TABLE history_players (
                    history_id INTEGER NOT NULL REFERENCES history(id) ON DELETE CASCADE,
                    user_id TEXT NOT NULL,
                    -- Copied from history so a player's page of one kind's history is one index range.
                    kind TEXT NOT NULL,
                    finished_at INTEGER NOT NULL,
                    PRIMARY KEY (history_id, user_id)
                );
                CREATE INDEX history_players_by_user
                    ON history_players (user_id, kind, finished_at DESC, history_id DESC);

                INSERT INTO games (kind, id, code, version, state, schedule, updated_at)
                    SELECT 'rummy', code, code, version, payload, '[]', updated_at FROM rooms;
                INSERT INTO games (kind, id, code, version, state, schedule, updated_at)
                    SELECT 'word-lobby', id, code, version, payload,
                        CASE WHEN json_extract(payload, '$.status') = 'GAME'
                                AND json_extract(payload, '$.round.number') IS NOT NULL
                            THEN json_array(json_object(
                                'key', 'round-end',
                                'due', json_extract(payload, '$.round.deadline'),
                                'action', json_object('endRound', json_object('round', json_extract(payload, '$.round.number')))))
                            ELSE '[]' END,
                        updated_at
                    FROM lobbies;
                INSERT INTO history (id, kind, game_key, finished_at, state)
                    SELECT id, 'rummy', room_code || '@' || created_at, finished_at, payload FROM room_history;
                INSERT INTO history_players (history_id, user_id, kind, finished_at)
                    SELECT history_id, user_id, 'rummy', finished_at FROM room_history_players;

                DROP TABLE room_history_players;
                DROP TABLE room_history;
                DROP TABLE rooms;
                DROP TABLE lobbies;
                PRAGMA user_version = 2;
                """)
        }
        migrator.registerMigration("v3-profiles-friendships-uploads-tallies") { db in
            // Profiles, friend requests and games uploaded after being played offline, and each history
            // entry's tally for its player's lifetime totals. Entries filed before v3 have no tally; the
            // game reads them from the entry's state instead. Instants are milliseconds since 1970.
            try db.execute(sql: """
                CREATE TABLE profiles (
                    user_id TEXT NOT NULL PRIMARY KEY,
                    handle TEXT NOT NULL UNIQUE,
                    display_name TEXT NOT NULL,
                    nickname TEXT,
                    avatar_url TEXT,
                    -- display_name and nickname folded (lowercase, no accents) for search.
                    search_name TEXT NOT NULL,
                    search_nickname TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE friendships (
                    id TEXT NOT NULL PRIMARY KEY,
                    requester_id TEXT NOT NULL,
                    addressee_id TEXT NOT NULL,
                    -- The two ids in order, whoever asked: one request per pair.
                    pair TEXT NOT NULL UNIQUE,
                    status TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE INDEX friendships_by_requester ON friendships (requester_id);
                CREATE INDEX friendships_by_addressee ON friendships (addressee_id);
                CREATE TABLE uploaded_games (
                    kind TEXT NOT NULL,
                    id TEXT NOT NULL,
                    uploader_id TEXT NOT NULL,
                    updated_at INTEGER NOT NULL,
                    finished_at INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    PRIMARY KEY (kind, id)
                );
                CREATE TABLE uploaded_game_players (
                    kind TEXT NOT NULL,
                    game_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    -- Copied from uploaded_games so a player's page is one index range.
                    finished_at INTEGER NOT NULL,
                    tally TEXT,
                    PRIMARY KEY (kind, game_id, user_id),
                    FOREIGN KEY (kind, game_id) REFERENCES uploaded_games (kind, id) ON DELETE CASCADE
                );
                CREATE INDEX uploaded_game_players_by_user
                    ON uploaded_game_players (user_id, kind, finished_at DESC, game_id DESC);
                ALTER TABLE history_players ADD COLUMN tally TEXT;
                PRAGMA user_version = 3;
                """)
        }
        migrator.registerMigration("v4-user-settings") { db in
            // A user's saved settings by name (the photo quiz's defaults), as JSON.
            try db.execute(sql: """
                CREATE TABLE user_settings (
                    user_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    value TEXT NOT NULL,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY (user_id, name)
                );
                PRAGMA user_version = 4;
                """)
        }
        migrator.registerMigration("v5-external-identities") { db in
            // Accounts from other sign-in providers: (issuer, subject) → the Parlor user they sign in as.
            try db.execute(sql: """
                CREATE TABLE external_identities (
                    issuer TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (issuer, subject)
                );
                CREATE INDEX external_identities_by_user ON external_identities (user_id);
                PRAGMA user_version = 5;
                """)
        }
        migrator.registerMigration("v6-game-records") { db in
            // Every game's record (docs/ARCHITECTURE.md, "Game records"): how it began, and each action
            // applied to it, written in the transaction that saves the game. A game's row names its
            // record; games created before v6 have none (NULL), and neither do their finished games.
            try db.execute(sql: """
                ALTER TABLE games ADD COLUMN record_id TEXT;
                CREATE TABLE game_records (
                    id TEXT NOT NULL PRIMARY KEY,
                    kind TEXT NOT NULL,
                    game_id TEXT NOT NULL,
                    code TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    initial_state TEXT NOT NULL,
                    initial_version INTEGER NOT NULL,
                    -- Set when the game is filed in history (and then kept with it).
                    finished_at INTEGER,
                    history_key TEXT
                );
                CREATE INDEX game_records_unfinished ON game_records (kind, game_id) WHERE finished_at IS NULL;
                CREATE INDEX game_records_finished_by_code ON game_records (code, finished_at DESC) WHERE finished_at IS NOT NULL;
                CREATE TABLE game_record_steps (
                    record_id TEXT NOT NULL REFERENCES game_records (id) ON DELETE CASCADE,
                    step INTEGER NOT NULL,
                    -- The acting user; NULL for the clock.
                    actor TEXT,
                    at INTEGER NOT NULL,
                    action TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    PRIMARY KEY (record_id, step)
                ) WITHOUT ROWID;
                PRAGMA user_version = 6;
                """)
        }
        migrator.registerMigration("v7-record-environment-reads") { db in
            // What each recorded action read from the server around the rules (a catalog's game, a word
            // list's answer, a photo's previews), so a record replays the same after those change; NULL
            // when it read nothing, and for steps written before v7.
            try db.execute(sql: """
                ALTER TABLE game_record_steps ADD COLUMN environment TEXT;
                PRAGMA user_version = 7;
                """)
        }
        migrator.registerMigration("v8-record-access") { db in
            // The access settings a game was created with (private, who may watch), as `GameAccess`'s
            // JSON, so its record is shown only to whom the game would have been; NULL for an open game,
            // and for records written before v8.
            try db.execute(sql: """
                ALTER TABLE game_records ADD COLUMN access TEXT;
                PRAGMA user_version = 8;
                """)
        }
        return migrator
    }()

    /// Refuses a database written by a newer build, then brings an older or empty one up to date.
    static func migrate(_ pool: SQLitePool, file: String) throws(StoreError) {
        do {
            let found = try pool.writeWithoutTransaction { db in try newerVersion(in: db) }
            if let found {
                throw StoreError(
                    .newerSchema(found: found, supported: supportedVersion),
                    "\(file) was written by a newer Parlor (schema \(found)); this build supports up to \(supportedVersion). Run the newer Parlor on this data directory, or point this one at another --data-dir.")
            }
            try pool.writeWithoutTransaction { db in try migrator.migrate(db) }
        } catch {
            throw SQLiteErrorMapping.storeError(error, doing: "Migrating the schema", file: file)
        }
    }

    /// The schema number of a newer build that touched this database, or nil when this build knows
    /// every migration it finds.
    static func newerVersion(in db: SQLiteConnection) throws -> Int? {
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.identifiers)
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
