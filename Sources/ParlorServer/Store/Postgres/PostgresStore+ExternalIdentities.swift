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

    /// The key space of the transaction locks that keep two links of one user apart (`pg_advisory_xact_lock(int, int)`).
    private static let linkLockSpace: Int32 = 0x504C_4E4B  // "PLNK"

    public func link(issuer: String, subject: String, to user: UserID) async throws(StoreError) -> ExternalLinkOutcome {
        let stamp = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let userID = user.rawValue
        return try await transaction("Linking \(user) to \(subject) of \(issuer)") { connection, logger in
            // Links of this user wait for each other (two at once could otherwise each find it unlinked);
            // the account's side is decided by its primary key, as a first sign-in's is.
            _ = try await connection.query("SELECT pg_advisory_xact_lock(\(Self.linkLockSpace), hashtext(\(userID)))", logger: logger).collect()
            let linked = try await connection.query(
                "SELECT 1 FROM external_identities WHERE user_id = \(userID) AND NOT (issuer = \(issuer) AND subject = \(subject)) LIMIT 1",
                logger: logger
            ).collect()
            let inserted = try await Self.changes("""
                INSERT INTO external_identities (issuer, subject, user_id, created_at) SELECT \(issuer), \(subject), \(userID), \(stamp)
                WHERE \(linked.isEmpty) ON CONFLICT (issuer, subject) DO NOTHING
                """, on: connection, logger: logger)
            if inserted == 1 { return ExternalLinkOutcome.linked }
            var stored: String?
            for try await owner in try await connection.query(
                "SELECT user_id FROM external_identities WHERE issuer = \(issuer) AND subject = \(subject)", logger: logger
            ).decode(String.self) {
                stored = owner
            }
            if let stored { return stored == userID ? .alreadyLinked : .accountHasAnotherUser }
            return .userHasAnotherAccount
        }
    }
}
#endif
