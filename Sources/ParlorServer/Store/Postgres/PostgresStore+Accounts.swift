// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import ParlorRules
import PostgresNIO

/// Profiles and friendships in PostgreSQL, each change in a transaction of its own, with the outcomes
/// SQLite gives. Text is ordered by `COLLATE "C"` (bytes, as SQLite orders it) whatever the database's locale.
extension PostgresStore {
    public func saveProfile(_ profile: ProfileRecord, creating: Bool) async throws(StoreError) -> ProfileWriteOutcome {
        let user = profile.user.rawValue
        return try await transaction("Saving the profile of \(profile.user)") { connection, logger in
            // The row lock (or, creating, the unique keys) stops two nodes saving the same user at once.
            let exists = try await connection.query("SELECT 1 FROM profiles WHERE user_id = \(user) FOR UPDATE", logger: logger)
                .collect().isEmpty == false
            if creating && exists { return .profileExists }
            if !creating && !exists { return .profileMissing }
            let taken = try await connection.query(
                "SELECT 1 FROM profiles WHERE handle = \(profile.handle) AND user_id <> \(user)", logger: logger
            ).collect()
            if !taken.isEmpty { return .handleTaken }
            let written = try await Self.changes("""
                INSERT INTO profiles (user_id, handle, display_name, nickname, avatar_url, search_name, search_nickname, created_at, updated_at)
                VALUES (\(user), \(profile.handle), \(profile.displayName), \(profile.nickname), \(profile.avatarURL), \(profile.searchName),
                    \(profile.searchNickname), \(profile.createdAt.millisecondsSinceEpoch), \(profile.updatedAt.millisecondsSinceEpoch))
                ON CONFLICT (user_id) DO UPDATE SET handle = excluded.handle, display_name = excluded.display_name,
                    nickname = excluded.nickname, avatar_url = excluded.avatar_url, search_name = excluded.search_name,
                    search_nickname = excluded.search_nickname, updated_at = excluded.updated_at
                """, on: connection, logger: logger)
            return written > 0 ? .saved : .profileMissing
        }
    }

    public func profiles(_ users: [UserID]) async throws(StoreError) -> [ProfileRecord] {
        guard !users.isEmpty else { return [] }
        let ids = users.map(\.rawValue)
        let rows = try await read(
            "Reading \(users.count) profiles", "SELECT \(unescaped: SQLiteStore.profileColumns) FROM profiles WHERE user_id = ANY(\(ids))",
            Self.profileRow)
        return try rows.map { row throws(StoreError) in try profile(row) }
    }

    public func searchProfiles(_ text: String, limit: Int) async throws(StoreError) -> [ProfileRecord] {
        let rows = try await read("Searching profiles", """
            SELECT \(unescaped: SQLiteStore.profileColumns),
                CASE
                    WHEN handle = \(text) THEN 0
                    WHEN strpos(handle, \(text)) = 1 OR strpos(' ' || search_name, ' ' || \(text)) > 0
                        OR strpos(' ' || search_nickname, ' ' || \(text)) > 0 THEN 1
                    ELSE 2
                END AS rank
            FROM profiles
            WHERE strpos(handle, \(text)) > 0 OR strpos(search_name, \(text)) > 0 OR strpos(search_nickname, \(text)) > 0
            ORDER BY rank, search_name COLLATE "C", handle COLLATE "C"
            LIMIT \(max(1, limit))
            """, Self.profileRow)
        return try rows.map { row throws(StoreError) in try profile(row) }
    }

    public func createFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await execute("Saving a friend request from \(friendship.requester)", """
            INSERT INTO friendships (id, requester_id, addressee_id, pair, status, created_at, updated_at)
            VALUES (\(friendship.id), \(friendship.requester.rawValue), \(friendship.addressee.rawValue), \(friendship.pair),
                \(friendship.status.rawValue), \(friendship.createdAt.millisecondsSinceEpoch), \(friendship.updatedAt.millisecondsSinceEpoch))
            ON CONFLICT DO NOTHING
            """) > 0
    }

    public func updateFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await execute("Saving friend request \(friendship.id)", """
            UPDATE friendships SET status = \(friendship.status.rawValue), updated_at = \(friendship.updatedAt.millisecondsSinceEpoch)
            WHERE id = \(friendship.id)
            """) > 0
    }

    public func deleteFriendship(id: String) async throws(StoreError) -> Bool {
        try await execute("Deleting friend request \(id)", "DELETE FROM friendships WHERE id = \(id)") > 0
    }

    public func friendships(of user: UserID) async throws(StoreError) -> [FriendshipRecord] {
        let where_ = "\(location), table friendships"
        return try await read("Reading the friends of \(user)", """
            SELECT id, requester_id, addressee_id, status, created_at, updated_at FROM friendships
            WHERE requester_id = \(user.rawValue) OR addressee_id = \(user.rawValue) ORDER BY created_at, id COLLATE "C"
            """) { row in
            let (id, requester, addressee, status, createdAt, updatedAt) = try row.decode((String, String, String, String, Int64, Int64).self)
            guard let requester = UserID(requester), let addressee = UserID(addressee), let status = FriendshipStatus(rawValue: status) else {
                throw StoreError(.corrupt, "Friend request \(id) in \(where_) cannot be read: a user id or its status is not valid.")
            }
            return FriendshipRecord(
                id: id, requester: requester, addressee: addressee, status: status,
                createdAt: Instant(millisecondsSinceEpoch: createdAt), updatedAt: Instant(millisecondsSinceEpoch: updatedAt))
        }
    }

    // MARK: Rows

    @Sendable static func profileRow(_ row: PostgresRow) throws -> SQLiteStore.ProfileRow {
        let (user, handle, displayName, nickname, avatarURL, searchName, searchNickname, createdAt, updatedAt) =
            try row.decode((String, String, String, String?, String?, String, String, Int64, Int64).self)
        return SQLiteStore.ProfileRow(
            user: user, handle: handle, displayName: displayName, nickname: nickname, avatarURL: avatarURL, searchName: searchName,
            searchNickname: searchNickname, createdAt: createdAt, updatedAt: updatedAt)
    }

    private func profile(_ row: SQLiteStore.ProfileRow) throws(StoreError) -> ProfileRecord {
        try row.record(location: "\(location), table profiles")
    }
}
#endif
