// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import Foundation
import ParlorRules
import PostgresNIO

/// Accounts from other sign-in providers in PostgreSQL, as in SQLite: the first node to store an
/// account's row decides its user, and every node signs it in as that one.
extension PostgresStore {
    public func user(forIssuer issuer: String, subject: String, newUser: UserID) async throws(StoreError) -> UserID {
        let stamp = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        try await execute("Signing in \(subject) of \(issuer)", """
            INSERT INTO external_identities (issuer, subject, user_id, created_at) VALUES (\(issuer), \(subject), \(newUser.rawValue), \(stamp))
            ON CONFLICT (issuer, subject) DO NOTHING
            """)
        let stored = try await read(
            "Reading the user of \(subject) of \(issuer)",
            "SELECT user_id FROM external_identities WHERE issuer = \(issuer) AND subject = \(subject)"
        ) { row in try row.decode(String.self) }.first
        guard let stored, let user = UserID(stored) else {
            throw StoreError(.failed, "external_identities has no readable user for \(subject) of \(issuer)")
        }
        return user
    }

    public func hasExternalIdentity(_ user: UserID) async throws(StoreError) -> Bool {
        try await !read(
            "Looking up the accounts of \(user)",
            "SELECT 1 FROM external_identities WHERE user_id = \(user.rawValue) LIMIT 1"
        ) { row in try row.decode(Int.self) }.isEmpty
    }
}
#endif
