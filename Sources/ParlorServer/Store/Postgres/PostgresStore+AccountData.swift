// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Foundation
import NIOCore
import ParlorRules
import PostgresNIO

/// A player's own data in PostgreSQL, as SQLite keeps it: read from every table that can name a user, and
/// deleted in one transaction, under a transaction-level advisory lock on the user (as linking takes), so
/// two nodes deleting one user wait for each other. The deleted user's fingerprint is a row of `secrets`.
extension PostgresStore {
    public func accountData(of user: UserID) async throws(StoreError) -> AccountData {
        let id = user.rawValue
        var data = AccountData()
        data.profile = try await profiles([user]).first
        data.friendships = try await friendships(of: user)
        data.settings = try await read(
            "Reading the settings of \(user)", "SELECT name, value FROM user_settings WHERE user_id = \(id) ORDER BY name COLLATE \"C\""
        ) { row in
            let (name, value) = try row.decode((String, String).self)
            return AccountData.Setting(name: name, json: value)
        }
        data.identities = try await read(
            "Reading the accounts of \(user)",
            "SELECT issuer, subject FROM external_identities WHERE user_id = \(id) ORDER BY issuer COLLATE \"C\", subject COLLATE \"C\""
        ) { row in
            let (issuer, subject) = try row.decode((String, String).self)
            return (issuer: issuer, subject: subject)
        }
        data.history = try await read("Reading the history of \(user)", """
            SELECT h.kind, h.game_key, h.finished_at, h.state, p.tally FROM history h JOIN history_players p ON p.history_id = h.id
            WHERE p.user_id = \(id) ORDER BY h.finished_at, h.id
            """) { row in
            let (kind, key, finishedAt, state, tally) = try row.decode((String, String, Int64, String, String?).self)
            return AccountData.PlayedEntry(kind: kind, key: key, finishedAt: Instant(millisecondsSinceEpoch: finishedAt), state: state, tallyJSON: tally)
        }
        data.uploads = try await read("Reading the uploads of \(user)", """
            SELECT kind, id, uploader_id, finished_at, state FROM uploaded_games g
            WHERE uploader_id = \(id) OR EXISTS (
                SELECT 1 FROM uploaded_game_players p WHERE p.kind = g.kind AND p.game_id = g.id AND p.user_id = \(id))
            ORDER BY finished_at, kind COLLATE "C", id COLLATE "C"
            """) { row in
            let (kind, gameID, uploader, finishedAt, state) = try row.decode((String, String, String, Int64, String).self)
            return UserID(uploader).map {
                AccountData.Upload(kind: kind, id: gameID, uploader: $0, finishedAt: Instant(millisecondsSinceEpoch: finishedAt), state: state)
            }
        }.compactMap { $0 }
        data.records = try await read("Reading the game records of \(user)", """
            SELECT id, kind, code, finished_at FROM game_records r
            WHERE strpos(initial_state, \(id)) > 0 OR EXISTS (SELECT 1 FROM game_record_steps s WHERE s.record_id = r.id AND s.actor = \(id))
            ORDER BY created_at, id COLLATE "C"
            """) { row in
            let (recordID, kind, code, finishedAt) = try row.decode((String, String, String, Int64?).self)
            return AccountData.Record(id: recordID, kind: kind, code: code, finishedAt: finishedAt.map(Instant.init(millisecondsSinceEpoch:)))
        }
        data.liveGames = try await read(
            "Reading the live games of \(user)",
            "SELECT kind, code FROM games WHERE strpos(state, \(id)) > 0 ORDER BY kind COLLATE \"C\", code COLLATE \"C\""
        ) { row in
            let (kind, code) = try row.decode((String, String).self)
            return LiveGameRef(kind: kind, code: code)
        }
        return data
    }

    public func deleteAccount(_ user: UserID, pseudonym: UserID, at now: Instant) async throws(StoreError) -> AccountDeletionOutcome {
        let id = user.rawValue
        let other = pseudonym.rawValue
        let erasure = AccountErasure(user: user, pseudonym: pseudonym)
        let tombstone = SQLiteStore.deletedUserKey(user)
        let notice = HomeChange.accountDeleted(node: node, user: user).payload
        return try await transaction("Deleting the account of \(user)") { connection, logger in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(id)))", logger: logger)
            var live: [LiveGameRef] = []
            for try await (kind, code) in try await connection.query(
                "SELECT kind, code FROM games WHERE strpos(state, \(id)) > 0 ORDER BY kind COLLATE \"C\", code COLLATE \"C\" FOR UPDATE",
                logger: logger
            ).decode((String, String).self) {
                live.append(LiveGameRef(kind: kind, code: code))
            }
            guard live.isEmpty else { return AccountDeletionOutcome.inLiveGames(live) }
            try await connection.query("DELETE FROM profiles WHERE user_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM friendships WHERE requester_id = \(id) OR addressee_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM user_settings WHERE user_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM external_identities WHERE user_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM presence WHERE user_id = \(id)", logger: logger)

            try await connection.query("DELETE FROM history_players WHERE user_id = \(id)", logger: logger)
            try await connection.query("""
                DELETE FROM game_records r USING history h
                WHERE r.kind = h.kind AND r.history_key = h.game_key AND strpos(h.state, \(id)) > 0
                    AND NOT EXISTS (SELECT 1 FROM history_players p WHERE p.history_id = h.id)
                """, logger: logger)
            try await connection.query("""
                DELETE FROM history h WHERE strpos(state, \(id)) > 0 AND NOT EXISTS (SELECT 1 FROM history_players p WHERE p.history_id = h.id)
                """, logger: logger)
            var history: [(Int64, String)] = []
            for try await row in try await connection.query(
                "SELECT id, state FROM history WHERE strpos(state, \(id)) > 0", logger: logger
            ).decode((Int64, String).self) { history.append(row) }
            for (historyID, state) in history {
                try await connection.query("UPDATE history SET state = \(erasure.anonymised(state: state)) WHERE id = \(historyID)", logger: logger)
            }

            try await connection.query("DELETE FROM uploaded_game_players WHERE user_id = \(id)", logger: logger)
            try await connection.query("""
                DELETE FROM uploaded_games g WHERE uploader_id = \(id)
                    AND NOT EXISTS (SELECT 1 FROM uploaded_game_players p WHERE p.kind = g.kind AND p.game_id = g.id)
                """, logger: logger)
            var uploads: [(String, String, String, String)] = []
            for try await row in try await connection.query(
                "SELECT kind, id, uploader_id, state FROM uploaded_games WHERE uploader_id = \(id) OR strpos(state, \(id)) > 0", logger: logger
            ).decode((String, String, String, String).self) { uploads.append(row) }
            for (kind, gameID, uploader, state) in uploads {
                try await connection.query("""
                    UPDATE uploaded_games SET uploader_id = \(uploader == id ? other : uploader), state = \(erasure.anonymised(state: state))
                    WHERE kind = \(kind) AND id = \(gameID)
                    """, logger: logger)
            }

            var initials: [(String, String)] = []
            for try await row in try await connection.query(
                "SELECT id, initial_state FROM game_records WHERE strpos(initial_state, \(id)) > 0", logger: logger
            ).decode((String, String).self) { initials.append(row) }
            for (recordID, state) in initials {
                try await connection.query(
                    "UPDATE game_records SET initial_state = \(erasure.anonymised(state: state)) WHERE id = \(recordID)", logger: logger)
            }
            var steps: [(String, Int64, String?, String)] = []
            for try await row in try await connection.query(
                "SELECT record_id, step, actor, action FROM game_record_steps WHERE actor = \(id) OR strpos(action, \(id)) > 0", logger: logger
            ).decode((String, Int64, String?, String).self) { steps.append(row) }
            for (recordID, step, actor, action) in steps {
                let byThem = actor == id
                let newActor = byThem ? other : actor
                let newAction = byThem ? erasure.anonymised(action: action) : erasure.anonymised(state: action)
                try await connection.query(
                    "UPDATE game_record_steps SET actor = \(newActor), action = \(newAction) WHERE record_id = \(recordID) AND step = \(step)",
                    logger: logger)
            }
            let stamp = ByteBuffer(string: String(now.millisecondsSinceEpoch))
            try await connection.query(
                "INSERT INTO secrets (name, value) VALUES (\(tombstone), \(stamp)) ON CONFLICT (name) DO NOTHING", logger: logger)
            // Every other node closes the user's connections and refuses them: told in this transaction,
            // so the notice goes out exactly when (and only if) the deletion commits.
            try await connection.query("SELECT pg_notify(\(ClusterChannel.homes), \(notice))", logger: logger)
            return AccountDeletionOutcome.deleted
        }
    }

    public func isDeletedAccount(_ user: UserID) async throws(StoreError) -> Bool {
        let key = SQLiteStore.deletedUserKey(user)
        return try await !read("Looking up whether \(user) was deleted", "SELECT 1 FROM secrets WHERE name = \(key)") { _ in true }.isEmpty
    }
}
#endif
