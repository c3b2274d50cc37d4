import Foundation
import ParlorSQLite
import ParlorRules

/// A player's own data in SQLite: read from every table that can name a user, and deleted in one write
/// transaction (outside the group commit, like every account change). A deleted user's fingerprint is a
/// row of `secrets`, the store's small key-value table (`deleted-user/<SHA-256 of the id>`), so no
/// schema change was needed.
extension SQLiteStore {
    static func deletedUserKey(_ user: UserID) -> String { "deleted-user/" + AccountErasure.fingerprint(of: user) }

    public func accountData(of user: UserID) async throws(StoreError) -> AccountData {
        let id = user.rawValue
        let location = "\(databasePath), table profiles"
        var data = try await read("Reading everything about \(user)") { db -> AccountData in
            var data = AccountData()
            data.settings = try SQLiteRow.fetchAll(
                db, sql: "SELECT name, value FROM user_settings WHERE user_id = ? ORDER BY name", arguments: [id]
            ).map { AccountData.Setting(name: try $0.decode(String.self, forColumn: "name"), json: try $0.decode(String.self, forColumn: "value")) }
            data.identities = try SQLiteRow.fetchAll(
                db, sql: "SELECT issuer, subject FROM external_identities WHERE user_id = ? ORDER BY issuer, subject", arguments: [id]
            ).map { row -> (issuer: String, subject: String) in (issuer: try row.decode(String.self, forColumn: "issuer"), subject: try row.decode(String.self, forColumn: "subject")) }
            data.history = try SQLiteRow.fetchAll(
                db,
                sql: """
                    SELECT h.kind, h.game_key, h.finished_at, h.state, p.tally FROM history h JOIN history_players p ON p.history_id = h.id
                    WHERE p.user_id = ? ORDER BY h.finished_at, h.id
                    """,
                arguments: [id]
            ).map {
                AccountData.PlayedEntry(
                    kind: try $0.decode(String.self, forColumn: "kind"), key: try $0.decode(String.self, forColumn: "game_key"), finishedAt: Instant(millisecondsSinceEpoch: try $0.decode(Int64.self, forColumn: "finished_at")), state: try $0.decode(String.self, forColumn: "state"),
                    tallyJSON: try $0.decode(String?.self, forColumn: "tally"))
            }
            data.uploads = try SQLiteRow.fetchAll(
                db,
                sql: """
                    SELECT kind, id, uploader_id, finished_at, state FROM uploaded_games g
                    WHERE uploader_id = :user OR EXISTS (
                        SELECT 1 FROM uploaded_game_players p WHERE p.kind = g.kind AND p.game_id = g.id AND p.user_id = :user)
                    ORDER BY finished_at, kind, id
                    """,
                arguments: ["user": id]
            ).compactMap { row -> AccountData.Upload? in
                guard let uploader = UserID(try row.decode(String.self, forColumn: "uploader_id")) else { return nil }
                return AccountData.Upload(
                    kind: try row.decode(String.self, forColumn: "kind"), id: try row.decode(String.self, forColumn: "id"),
                    uploader: uploader, finishedAt: Instant(millisecondsSinceEpoch: try row.decode(Int64.self, forColumn: "finished_at")),
                    state: try row.decode(String.self, forColumn: "state"))
            }
            data.records = try SQLiteRow.fetchAll(
                db,
                sql: """
                    SELECT id, kind, code, finished_at FROM game_records r
                    WHERE instr(initial_state, :user) > 0 OR EXISTS (SELECT 1 FROM game_record_steps s WHERE s.record_id = r.id AND s.actor = :user)
                    ORDER BY created_at, id
                    """,
                arguments: ["user": id]
            ).map { row in
                AccountData.Record(
                    id: try row.decode(String.self, forColumn: "id"), kind: try row.decode(String.self, forColumn: "kind"), code: try row.decode(String.self, forColumn: "code"),
                    finishedAt: (try row.decode(Int64?.self, forColumn: "finished_at")).map(Instant.init(millisecondsSinceEpoch:)))
            }
            data.liveGames = try Self.liveGames(naming: id, in: db)
            return data
        }
        data.profile = try await read("Reading the profile of \(user)") { db in
            try SQLiteRow.fetchOne(db, sql: "SELECT \(Self.profileColumns) FROM profiles WHERE user_id = ?", arguments: [id]).map(Self.profileRow)
        }.map { row throws(StoreError) in try row.record(location: location) }
        data.friendships = try await friendships(of: user)
        return data
    }

    public func deleteAccount(_ user: UserID, pseudonym: UserID, at now: Instant) async throws(StoreError) -> AccountDeletionOutcome {
        let id = user.rawValue
        let erasure = AccountErasure(user: user, pseudonym: pseudonym)
        let tombstone = Self.deletedUserKey(user)
        return try await write("Deleting the account of \(user)") { db -> AccountDeletionOutcome in
            let live = try Self.liveGames(naming: id, in: db)
            guard live.isEmpty else { return .inLiveGames(live) }
            try db.execute(sql: "DELETE FROM profiles WHERE user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM friendships WHERE requester_id = :user OR addressee_id = :user", arguments: ["user": id])
            try db.execute(sql: "DELETE FROM user_settings WHERE user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM external_identities WHERE user_id = ?", arguments: [id])

            // History: their rows go; a game nobody else played goes with its record; the rest stay, without them.
            try db.execute(sql: "DELETE FROM history_players WHERE user_id = ?", arguments: [id])
            let alone = try SQLiteRow.fetchAll(
                db,
                sql: """
                    SELECT id, kind, game_key FROM history h
                    WHERE instr(state, ?) > 0 AND NOT EXISTS (SELECT 1 FROM history_players p WHERE p.history_id = h.id)
                    """,
                arguments: [id])
            for row in alone {
                try db.execute(
                    sql: "DELETE FROM game_records WHERE kind = ? AND history_key = ?", arguments: [try row.decode(String.self, forColumn: "kind"), try row.decode(String.self, forColumn: "game_key")])
                try db.execute(sql: "DELETE FROM history WHERE id = ?", arguments: [try row.decode(Int64.self, forColumn: "id")])
            }
            for row in try SQLiteRow.fetchAll(db, sql: "SELECT id, state FROM history WHERE instr(state, ?) > 0", arguments: [id]) {
                try db.execute(
                    sql: "UPDATE history SET state = ? WHERE id = ?", arguments: [erasure.anonymised(state: try row.decode(String.self, forColumn: "state")), try row.decode(Int64.self, forColumn: "id")])
            }

            // Uploads: theirs alone go; a match that names other players stays, without them.
            try db.execute(sql: "DELETE FROM uploaded_game_players WHERE user_id = ?", arguments: [id])
            try db.execute(
                sql: """
                    DELETE FROM uploaded_games AS g WHERE uploader_id = ?
                        AND NOT EXISTS (SELECT 1 FROM uploaded_game_players p WHERE p.kind = g.kind AND p.game_id = g.id)
                    """,
                arguments: [id])
            for row in try SQLiteRow.fetchAll(
                db, sql: "SELECT kind, id, uploader_id, state FROM uploaded_games WHERE uploader_id = :user OR instr(state, :user) > 0",
                arguments: ["user": id])
            {
                let stored = try row.decode(String.self, forColumn: "uploader_id")
                let uploader = stored == id ? pseudonym.rawValue : stored
                try db.execute(
                    sql: "UPDATE uploaded_games SET uploader_id = ?, state = ? WHERE kind = ? AND id = ?",
                    arguments: [uploader, erasure.anonymised(state: try row.decode(String.self, forColumn: "state")), try row.decode(String.self, forColumn: "kind"), try row.decode(String.self, forColumn: "id")])
            }

            // Records of the games that stay: their steps and how the games began, without them.
            for row in try SQLiteRow.fetchAll(db, sql: "SELECT id, initial_state FROM game_records WHERE instr(initial_state, ?) > 0", arguments: [id]) {
                try db.execute(
                    sql: "UPDATE game_records SET initial_state = ? WHERE id = ?",
                    arguments: [erasure.anonymised(state: try row.decode(String.self, forColumn: "initial_state")), try row.decode(String.self, forColumn: "id")])
            }
            for row in try SQLiteRow.fetchAll(
                db, sql: "SELECT record_id, step, actor, action FROM game_record_steps WHERE actor = :user OR instr(action, :user) > 0",
                arguments: ["user": id])
            {
                let actor = try row.decode(String?.self, forColumn: "actor")
                let action = try row.decode(String.self, forColumn: "action")
                let byThem = actor == id
                try db.execute(
                    sql: "UPDATE game_record_steps SET actor = ?, action = ? WHERE record_id = ? AND step = ?",
                    arguments: [
                        byThem ? pseudonym.rawValue : actor,
                        byThem ? erasure.anonymised(action: action) : erasure.anonymised(state: action),
                        try row.decode(String.self, forColumn: "record_id"), try row.decode(Int64.self, forColumn: "step"),
                    ])
            }
            try db.execute(
                sql: "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                arguments: [tombstone, Data(String(now.millisecondsSinceEpoch).utf8)])
            return .deleted
        }
    }

    public func isDeletedAccount(_ user: UserID) async throws(StoreError) -> Bool {
        let key = Self.deletedUserKey(user)
        return try await read("Looking up whether \(user) was deleted") { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM secrets WHERE name = ?)", arguments: [key]) ?? false
        }
    }

    /// The live games whose state names the user.
    private static func liveGames(naming id: String, in db: SQLiteConnection) throws -> [LiveGameRef] {
        try SQLiteRow.fetchAll(db, sql: "SELECT kind, code FROM games WHERE instr(state, ?) > 0 ORDER BY kind, code", arguments: [id])
            .map { LiveGameRef(kind: try $0.decode(String.self, forColumn: "kind"), code: try $0.decode(String.self, forColumn: "code")) }
    }
}
