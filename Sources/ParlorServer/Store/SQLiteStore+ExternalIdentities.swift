import Foundation
import ParlorSQLite
import ParlorRules

/// Accounts from other sign-in providers in SQLite (table `external_identities`), written outside the
/// group commit: a first sign-in is rare, and waits for its row.
extension SQLiteStore {
    public func user(forIssuer issuer: String, subject: String, newUser: UserID) async throws(StoreError) -> UserID {
        let stored = try await write("Signing in \(subject) of \(issuer)") { db -> String? in
            try db.execute(
                sql: """
                    INSERT INTO external_identities (issuer, subject, user_id, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (issuer, subject) DO NOTHING
                    """,
                arguments: [issuer, subject, newUser.rawValue, Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))])
            return try String.fetchOne(
                db, sql: "SELECT user_id FROM external_identities WHERE issuer = ? AND subject = ?", arguments: [issuer, subject])
        }
        guard let stored, let user = UserID(stored) else {
            throw StoreError(.failed, "external_identities has no readable user for \(subject) of \(issuer)")
        }
        return user
    }

    public func hasExternalIdentity(_ user: UserID) async throws(StoreError) -> Bool {
        try await read("Looking up the accounts of \(user)") { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM external_identities WHERE user_id = ?)", arguments: [user.rawValue])
                ?? false
        }
    }

    public func link(issuer: String, subject: String, to user: UserID) async throws(StoreError) -> ExternalLinkOutcome {
        try await write("Linking \(user) to \(subject) of \(issuer)") { db -> ExternalLinkOutcome in
            // One write transaction: nothing signs the account in, or links the user, in between.
            if let known = try String.fetchOne(
                db, sql: "SELECT user_id FROM external_identities WHERE issuer = ? AND subject = ?", arguments: [issuer, subject])
            {
                return known == user.rawValue ? .alreadyLinked : .accountHasAnotherUser
            }
            let linked = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM external_identities WHERE user_id = ?)", arguments: [user.rawValue]) ?? false
            if linked { return .userHasAnotherAccount }
            try db.execute(
                sql: "INSERT INTO external_identities (issuer, subject, user_id, created_at) VALUES (?, ?, ?, ?)",
                arguments: [issuer, subject, user.rawValue, Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))])
            return .linked
        }
    }
}
