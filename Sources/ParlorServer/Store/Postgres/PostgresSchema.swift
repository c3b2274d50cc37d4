// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Logging
import PostgresNIO

/// The PostgreSQL schema, as numbered migrations run at start-up — by every node that starts, so they
/// run under a session-level advisory lock: the first node migrates, the others wait for the lock and
/// then find nothing left to do. `parlor_schema` holds one row per migration applied.
///
/// Rules for whoever adds a migration: append, never edit or reorder a shipped one; raise
/// `supportedVersion`. A database whose highest applied migration is above it was touched by a newer
/// Parlor, which this build refuses to write over. Columns mirror SQLite's (`SQLiteSchema`), instants as
/// milliseconds since 1970, JSON as text; files as bytea.
enum PostgresSchema {
    static let supportedVersion = 9

    /// Any constant will do as long as no other program takes the same lock on this database.
    static let migrationLockKey: Int64 = 0x7061_726c_6f72  // "parlor"

    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE games (
                kind TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL, version BIGINT NOT NULL,
                state TEXT NOT NULL, schedule TEXT NOT NULL DEFAULT '[]', updated_at BIGINT NOT NULL,
                PRIMARY KEY (kind, id))
            """,
            // Codes are what players type: unique per kind across every node, so two nodes cannot hand
            // out the same one (the second's insert changes nothing, and it picks another).
            "CREATE UNIQUE INDEX games_by_code ON games (kind, code)",
            """
            CREATE TABLE history (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, kind TEXT NOT NULL, game_key TEXT NOT NULL,
                finished_at BIGINT NOT NULL, state TEXT NOT NULL, UNIQUE (kind, game_key))
            """,
            """
            CREATE TABLE history_players (
                history_id BIGINT NOT NULL REFERENCES history (id) ON DELETE CASCADE, user_id TEXT NOT NULL,
                kind TEXT NOT NULL, finished_at BIGINT NOT NULL, tally TEXT, PRIMARY KEY (history_id, user_id))
            """,
            "CREATE INDEX history_players_by_user ON history_players (user_id, kind, finished_at DESC, history_id DESC)",
            "CREATE TABLE catalogs (version BIGINT PRIMARY KEY, payload TEXT NOT NULL, stored_at BIGINT NOT NULL)",
            "CREATE TABLE secrets (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
            """
            CREATE TABLE profiles (
                user_id TEXT PRIMARY KEY, handle TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL, nickname TEXT,
                avatar_url TEXT, search_name TEXT NOT NULL, search_nickname TEXT NOT NULL,
                created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE friendships (
                id TEXT PRIMARY KEY, requester_id TEXT NOT NULL, addressee_id TEXT NOT NULL, pair TEXT NOT NULL UNIQUE,
                status TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
            """,
            "CREATE INDEX friendships_by_requester ON friendships (requester_id)",
            "CREATE INDEX friendships_by_addressee ON friendships (addressee_id)",
            """
            CREATE TABLE uploaded_games (
                kind TEXT NOT NULL, id TEXT NOT NULL, uploader_id TEXT NOT NULL, updated_at BIGINT NOT NULL,
                finished_at BIGINT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (kind, id))
            """,
            """
            CREATE TABLE uploaded_game_players (
                kind TEXT NOT NULL, game_id TEXT NOT NULL, user_id TEXT NOT NULL, finished_at BIGINT NOT NULL, tally TEXT,
                PRIMARY KEY (kind, game_id, user_id),
                FOREIGN KEY (kind, game_id) REFERENCES uploaded_games (kind, id) ON DELETE CASCADE)
            """,
            "CREATE INDEX uploaded_game_players_by_user ON uploaded_game_players (user_id, kind, finished_at DESC, game_id DESC)",
            """
            CREATE TABLE user_settings (
                user_id TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, updated_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, name))
            """,
            // Uploaded files (avatars), so that any node serves a file another node received.
            """
            CREATE TABLE files (
                bucket TEXT NOT NULL, folder TEXT NOT NULL, name TEXT NOT NULL, bytes BYTEA NOT NULL,
                updated_at BIGINT NOT NULL, PRIMARY KEY (bucket, folder, name))
            """,
        ],
        // 2: when each game's next scheduled action is due, so that a node can find the games whose
        // timers nobody fired (the node that held them died) without reading every schedule.
        [
            "ALTER TABLE games ADD COLUMN due_at BIGINT",
            "UPDATE games SET due_at = \(dueAt("schedule"))",
            "CREATE INDEX games_by_due ON games (due_at) WHERE due_at IS NOT NULL",
        ],
        // 3: who is connected to which node, reported by each node every few seconds, so that a node
        // does not expire a game whose players are connected to another.
        [
            "CREATE TABLE presence (user_id TEXT NOT NULL, node TEXT NOT NULL, seen_at BIGINT NOT NULL, PRIMARY KEY (user_id, node))",
            "CREATE INDEX presence_by_node ON presence (node, seen_at)",
        ],
        // 4: a game lives on one node. `games.node` names the node that serves it (NULL: none yet, or
        // its node drained and let it go), which the front routes its players to; `nodes` says which
        // nodes are up, each beating every second, so that another takes the games of a node that
        // stopped beating. The column is advice for routing, not a lock: saves stay version-checked.
        [
            "ALTER TABLE games ADD COLUMN node TEXT",
            "CREATE INDEX games_by_node ON games (node)",
            """
            CREATE TABLE nodes (
                name TEXT PRIMARY KEY, incarnation TEXT NOT NULL, state TEXT NOT NULL,
                started_at TIMESTAMPTZ NOT NULL DEFAULT now(), seen_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
        ],
        // 5: every change rewrites its game's row; with room left on its page PostgreSQL writes the new
        // version beside the old (a HOT update: no index is touched, less WAL), instead of on another
        // page with every index updated. New pages keep half free; `VACUUM FULL games` repacks old ones.
        // And which watch buckets each node listens to: a node announces a committed version only on a
        // bucket another node listens to.
        // And one function that applies a batch of games' writes, so a batch of saves is one round trip
        // and one statement whose plans PostgreSQL keeps, not BEGIN, its statements and COMMIT.
        [
            "ALTER TABLE games SET (fillfactor = 50)",
            "ALTER TABLE nodes ADD COLUMN watching INTEGER[] NOT NULL DEFAULT '{}'",
            saveGamesFunction,
        ],
        // 6: accounts from other sign-in providers: (issuer, subject) → the Parlor user they sign in as.
        [
            """
            CREATE TABLE external_identities (
                issuer TEXT NOT NULL, subject TEXT NOT NULL, user_id TEXT NOT NULL, created_at BIGINT NOT NULL,
                PRIMARY KEY (issuer, subject))
            """,
            "CREATE INDEX external_identities_by_user ON external_identities (user_id)",
        ],
        // 7: every game's record (docs/ARCHITECTURE.md, "Game records"), as SQLite's v6, written by
        // `parlor_save_recorded` in the statement that saves the games.
        [
            "ALTER TABLE games ADD COLUMN record_id TEXT",
            """
            CREATE TABLE game_records (
                id TEXT PRIMARY KEY, kind TEXT NOT NULL, game_id TEXT NOT NULL, code TEXT NOT NULL, created_at BIGINT NOT NULL,
                initial_state TEXT NOT NULL, initial_version BIGINT NOT NULL, finished_at BIGINT, history_key TEXT)
            """,
            "CREATE INDEX game_records_unfinished ON game_records (kind, game_id) WHERE finished_at IS NULL",
            "CREATE INDEX game_records_finished_by_code ON game_records (code, finished_at DESC) WHERE finished_at IS NOT NULL",
            """
            CREATE TABLE game_record_steps (
                record_id TEXT NOT NULL REFERENCES game_records (id) ON DELETE CASCADE, step BIGINT NOT NULL, actor TEXT,
                at BIGINT NOT NULL, action TEXT NOT NULL, version BIGINT NOT NULL, PRIMARY KEY (record_id, step))
            """,
            saveRecordedFunction(keepingReads: false),
        ],
        // 8: what each recorded action read from the server around the rules, so a record replays the
        // same after a catalog import or a photo's deletion (SQLite's v7); `parlor_save_recorded` takes
        // it with each step ('' when the step read nothing).
        [
            "ALTER TABLE game_record_steps ADD COLUMN environment TEXT",
            """
            DROP FUNCTION parlor_save_recorded(TEXT, BIGINT, TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[], TEXT[], BIGINT[], TEXT[], TEXT[], BIGINT[],
                TEXT[], TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[], BIGINT[], TEXT[], BIGINT[],
                TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[])
            """,
            saveRecordedFunction(keepingReads: true),
        ],
        // 9: the access settings each game was created with, kept with its record so a finished
        // private or closed game's record is shown only to whom the game would have been (SQLite's
        // v8); `parlor_save_recorded` takes them with each new record ('' for an open game, stored as NULL).
        [
            "ALTER TABLE game_records ADD COLUMN access TEXT",
            """
            DROP FUNCTION parlor_save_recorded(TEXT, BIGINT, TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[], TEXT[], BIGINT[], TEXT[], TEXT[], BIGINT[],
                TEXT[], TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[], BIGINT[], TEXT[], BIGINT[],
                TEXT[], TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[])
            """,
            saveRecordedFunction(keepingReads: true, keepingAccess: true),
        ],
    ]

    /// `parlor_save_recorded(the arguments of parlor_save_games, the new records, the steps, the
    /// finished records)`: `parlor_save_games`, then the record rows of every write that did not lose
    /// its race, in the same statement (so the same transaction): the unfinished records of deleted
    /// games go (unless created in this batch), new records begin (and their games' rows name them),
    /// steps are appended, filed games' records are marked finished. Returns what `parlor_save_games`
    /// returns. A step's actor is '' for the clock (stored as NULL). `keepingReads`: each step's
    /// environment reads too ('' for none, stored as NULL), as migration 8 made it; without, as 7 did.
    /// `keepingAccess`: each new record's access settings too ('' for an open game, stored as NULL), as
    /// migration 9 made it.
    static func saveRecordedFunction(keepingReads: Bool, keepingAccess: Bool = false) -> String {
        let reads: (parameter: String, column: String, value: String, array: String) =
            keepingReads ? (" s_environments TEXT[],", ", environment", ", NULLIF(s.environment, '')", ", s_environments") : ("", "", "", "")
        let access: (parameter: String, column: String, value: String, array: String) =
            keepingAccess ? (" r_access TEXT[],", ", access", ", NULLIF(n.access, '')", ", r_access") : ("", "", "", "")
        return """
        CREATE OR REPLACE FUNCTION parlor_save_recorded(
            p_node TEXT, p_stamp BIGINT,
            p_kinds TEXT[], p_ids TEXT[], p_codes TEXT[], p_versions BIGINT[], p_states TEXT[], p_schedules TEXT[], p_expected BIGINT[],
            p_deleted_kinds TEXT[], p_deleted_ids TEXT[], p_deleted_versions BIGINT[],
            r_ids TEXT[], r_kinds TEXT[], r_games TEXT[], r_codes TEXT[], r_created BIGINT[], r_states TEXT[], r_versions BIGINT[],\(access.parameter)
            s_records TEXT[], s_kinds TEXT[], s_games TEXT[], s_steps BIGINT[], s_actors TEXT[], s_at BIGINT[], s_actions TEXT[],
            s_versions BIGINT[],\(reads.parameter)
            f_records TEXT[], f_kinds TEXT[], f_games TEXT[], f_at BIGINT[], f_keys TEXT[])
        RETURNS TABLE (conflicted_kind TEXT, conflicted_id TEXT)
        LANGUAGE plpgsql AS $$
        DECLARE
            c_kinds TEXT[];
            c_ids TEXT[];
        BEGIN
            SELECT coalesce(array_agg(x.conflicted_kind), '{}'), coalesce(array_agg(x.conflicted_id), '{}') INTO c_kinds, c_ids
            FROM parlor_save_games(p_node, p_stamp, p_kinds, p_ids, p_codes, p_versions, p_states, p_schedules, p_expected,
                p_deleted_kinds, p_deleted_ids, p_deleted_versions) AS x;

            IF cardinality(p_deleted_ids) > 0 THEN
                DELETE FROM game_records AS r USING unnest(p_deleted_kinds, p_deleted_ids) AS d (kind, id)
                WHERE r.kind = d.kind AND r.game_id = d.id AND r.finished_at IS NULL AND NOT (r.id = ANY (r_ids))
                    AND NOT EXISTS (SELECT 1 FROM unnest(c_kinds, c_ids) AS c (kind, id) WHERE c.kind = d.kind AND c.id = d.id);
            END IF;

            IF cardinality(r_ids) > 0 THEN
                INSERT INTO game_records (id, kind, game_id, code, created_at, initial_state, initial_version\(access.column))
                SELECT n.id, n.kind, n.game, n.code, n.created, n.state, n.version\(access.value)
                FROM unnest(r_ids, r_kinds, r_games, r_codes, r_created, r_states, r_versions\(access.array))
                    AS n (id, kind, game, code, created, state, version\(access.column))
                WHERE NOT EXISTS (SELECT 1 FROM unnest(c_kinds, c_ids) AS c (kind, id) WHERE c.kind = n.kind AND c.id = n.game);
                UPDATE games AS g SET record_id = n.id FROM unnest(r_ids, r_kinds, r_games) AS n (id, kind, game)
                WHERE g.kind = n.kind AND g.id = n.game
                    AND NOT EXISTS (SELECT 1 FROM unnest(c_kinds, c_ids) AS c (kind, id) WHERE c.kind = n.kind AND c.id = n.game);
            END IF;

            IF cardinality(s_records) > 0 THEN
                INSERT INTO game_record_steps (record_id, step, actor, at, action, version\(reads.column))
                SELECT s.record, s.step, NULLIF(s.actor, ''), s.at, s.action, s.version\(reads.value)
                FROM unnest(s_records, s_kinds, s_games, s_steps, s_actors, s_at, s_actions, s_versions\(reads.array))
                    AS s (record, kind, game, step, actor, at, action, version\(reads.column))
                WHERE NOT EXISTS (SELECT 1 FROM unnest(c_kinds, c_ids) AS c (kind, id) WHERE c.kind = s.kind AND c.id = s.game);
            END IF;

            IF cardinality(f_records) > 0 THEN
                UPDATE game_records AS r SET finished_at = f.at, history_key = f.key
                FROM unnest(f_records, f_kinds, f_games, f_at, f_keys) AS f (record, kind, game, at, key)
                WHERE r.id = f.record AND r.finished_at IS NULL
                    AND NOT EXISTS (SELECT 1 FROM unnest(c_kinds, c_ids) AS c (kind, id) WHERE c.kind = f.kind AND c.id = f.game);
            END IF;

            RETURN QUERY SELECT c.kind, c.id FROM unnest(c_kinds, c_ids) AS c (kind, id);
        END
        $$
        """
    }

    /// `parlor_save_games(node, stamp, the saves' columns, what each replaces, the deletes' columns)`:
    /// applies one batch's games' writes and returns the ones that changed nothing (a save or delete
    /// whose version was no longer stored, a new game whose id was taken). `expected` is the version a
    /// save replaces, -1 for a new game (served by `node`, which created it), -2 for whatever is
    /// stored; a delete's version -1 deletes whatever is stored. It first locks every existing row it
    /// writes in one order (kind, id), so two nodes' batches never wait for each other in a circle
    /// (PostgreSQL would end one as a deadlock, failing every save in it).
    static let saveGamesFunction = """
        CREATE OR REPLACE FUNCTION parlor_save_games(
            p_node TEXT, p_stamp BIGINT,
            p_kinds TEXT[], p_ids TEXT[], p_codes TEXT[], p_versions BIGINT[], p_states TEXT[], p_schedules TEXT[], p_expected BIGINT[],
            p_deleted_kinds TEXT[], p_deleted_ids TEXT[], p_deleted_versions BIGINT[])
        RETURNS TABLE (conflicted_kind TEXT, conflicted_id TEXT)
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM 1 FROM games AS g
            JOIN (SELECT w.kind, w.id FROM unnest(p_kinds, p_ids, p_expected) AS w (kind, id, expected) WHERE w.expected <> -1
                  UNION SELECT d.kind, d.id FROM unnest(p_deleted_kinds, p_deleted_ids) AS d (kind, id)) AS k
                ON g.kind = k.kind AND g.id = k.id
            ORDER BY g.kind, g.id FOR UPDATE OF g;

            INSERT INTO games AS g (kind, id, code, version, state, schedule, updated_at, due_at)
            SELECT s.kind, s.id, s.code, s.version, s.state, s.schedule, p_stamp, \(dueAt("s.schedule"))
            FROM unnest(p_kinds, p_ids, p_codes, p_versions, p_states, p_schedules, p_expected)
                AS s (kind, id, code, version, state, schedule, expected)
            WHERE s.expected = -2
            ON CONFLICT (kind, id) DO UPDATE SET
                code = excluded.code, version = excluded.version, state = excluded.state,
                schedule = excluded.schedule, updated_at = excluded.updated_at, due_at = excluded.due_at;

            RETURN QUERY
            WITH gone AS (
                DELETE FROM games AS g USING unnest(p_deleted_kinds, p_deleted_ids, p_deleted_versions) AS d (kind, id, version)
                WHERE g.kind = d.kind AND g.id = d.id AND (d.version < 0 OR g.version = d.version)
                RETURNING g.kind, g.id)
            SELECT d.kind, d.id FROM unnest(p_deleted_kinds, p_deleted_ids, p_deleted_versions) AS d (kind, id, version)
            WHERE d.version >= 0 AND NOT EXISTS (SELECT 1 FROM gone WHERE gone.kind = d.kind AND gone.id = d.id);

            RETURN QUERY
            WITH made AS (
                INSERT INTO games AS g (kind, id, code, version, state, schedule, updated_at, due_at, node)
                SELECT s.kind, s.id, s.code, s.version, s.state, s.schedule, p_stamp, \(dueAt("s.schedule")), p_node
                FROM unnest(p_kinds, p_ids, p_codes, p_versions, p_states, p_schedules, p_expected)
                    AS s (kind, id, code, version, state, schedule, expected)
                WHERE s.expected = -1
                ON CONFLICT DO NOTHING
                RETURNING g.kind, g.id)
            SELECT s.kind, s.id FROM unnest(p_kinds, p_ids, p_expected) AS s (kind, id, expected)
            WHERE s.expected = -1 AND NOT EXISTS (SELECT 1 FROM made WHERE made.kind = s.kind AND made.id = s.id);

            -- The row lock each UPDATE takes serialises two nodes saving one game: the second waits,
            -- then finds the version moved on and changes nothing.
            RETURN QUERY
            WITH changed AS (
                UPDATE games AS g SET code = s.code, version = s.version, state = s.state, schedule = s.schedule,
                    updated_at = p_stamp, due_at = \(dueAt("s.schedule"))
                FROM unnest(p_kinds, p_ids, p_codes, p_versions, p_states, p_schedules, p_expected)
                    AS s (kind, id, code, version, state, schedule, expected)
                WHERE s.expected >= 0 AND g.kind = s.kind AND g.id = s.id AND g.version = s.expected
                RETURNING g.kind, g.id)
            SELECT s.kind, s.id FROM unnest(p_kinds, p_ids, p_expected) AS s (kind, id, expected)
            WHERE s.expected >= 0 AND NOT EXISTS (SELECT 1 FROM changed WHERE changed.kind = s.kind AND changed.id = s.id);
        END
        $$
        """

    /// SQL for the earliest `due` (milliseconds) in a schedule's JSON text, NULL for `[]`.
    static func dueAt(_ schedule: String) -> String {
        "(SELECT min((e ->> 'due')::bigint) FROM jsonb_array_elements(\(schedule)::jsonb) AS e)"
    }

    /// Refuses a database written by a newer build, then applies the migrations it lacks, each in a
    /// transaction with its row in `parlor_schema`.
    static func migrate(_ pool: PostgresPool) async throws(StoreError) {
        let location = pool.location
        let logger = pool.logger
        let newer: Int? = try await pool.withConnection("Migrating the schema", callTimeout: nil) { connection in
            try await connection.query("SELECT pg_advisory_lock(\(migrationLockKey))", logger: logger)
            do {
                let found = try await migrateLocked(connection, logger: logger)
                try await connection.query("SELECT pg_advisory_unlock(\(migrationLockKey))", logger: logger)
                return found
            } catch {
                // The lock is the session's: a connection that failed mid-way may be reused by the pool.
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLockKey))", logger: logger)
                throw error
            }
        }
        if let newer {
            throw StoreError(
                .newerSchema(found: newer, supported: supportedVersion),
                "PostgreSQL at \(location) was written by a newer Parlor (schema \(newer)); this build supports up to \(supportedVersion). Run the newer Parlor on it, or point this one at another database.")
        }
    }

    /// Nil when the schema is now current; the newer version found otherwise.
    private static func migrateLocked(_ connection: PostgresConnection, logger: Logger) async throws -> Int? {
        try await connection.query("CREATE TABLE IF NOT EXISTS parlor_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())", logger: logger)
        var current = 0
        for try await version in try await connection.query("SELECT coalesce(max(version), 0) FROM parlor_schema", logger: logger).decode(Int.self) {
            current = version
        }
        if current > supportedVersion { return current }
        for (index, statements) in migrations.enumerated() where index + 1 > current {
            let version = index + 1
            try await connection.withTransaction(logger: logger) { connection in
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO parlor_schema (version) VALUES (\(version))", logger: logger)
            }
            logger.info("Migrated the PostgreSQL schema", metadata: ["version": "\(version)"])
        }
        return nil
    }
}
#endif
