import Foundation
import ParlorSQLite
import ParlorRules

/// Users' saved settings in SQLite (table `user_settings`): written outside the group commit, like
/// profiles — a person saves their defaults a few times, and waits for each.
extension SQLiteStore {
    public func userSettings(_ user: UserID, name: String) async throws(StoreError) -> String? {
        try await read("Reading the \(name) settings of \(user)") { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM user_settings WHERE user_id = ? AND name = ?", arguments: [user.rawValue, name])
        }
    }

    public func saveUserSettings(_ user: UserID, name: String, json: String) async throws(StoreError) {
        try await write("Saving the \(name) settings of \(user)") { db in
            try db.execute(
                sql: """
                    INSERT INTO user_settings (user_id, name, value, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """,
                arguments: [user.rawValue, name, json, Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))])
        }
    }
}
