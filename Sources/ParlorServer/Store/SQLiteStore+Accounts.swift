import ParlorSQLite
import ParlorRules

/// Profiles and friendships in SQLite (tables `profiles`, `friendships`). Written outside the group
/// commit, each change in a transaction of its own that returns once durable: they are people's
/// actions, a few a minute, and each needs its own answer (a taken handle, a request that exists).
extension SQLiteStore {
    public func saveProfile(_ profile: ProfileRecord, creating: Bool) async throws(StoreError) -> ProfileWriteOutcome {
        try await write("Saving the profile of \(profile.user)") { db in
            let exists = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM profiles WHERE user_id = ?", arguments: [profile.user.rawValue]) ?? false
            if creating && exists { return .profileExists }
            if !creating && !exists { return .profileMissing }
            let taken = try String.fetchOne(
                db, sql: "SELECT user_id FROM profiles WHERE handle = ? AND user_id != ?", arguments: [profile.handle, profile.user.rawValue])
            if taken != nil { return .handleTaken }
            try db.execute(
                sql: """
                    INSERT INTO profiles (user_id, handle, display_name, nickname, avatar_url, search_name, search_nickname, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET handle = excluded.handle, display_name = excluded.display_name,
                        nickname = excluded.nickname, avatar_url = excluded.avatar_url, search_name = excluded.search_name,
                        search_nickname = excluded.search_nickname, updated_at = excluded.updated_at
                    """,
                arguments: [
                    profile.user.rawValue, profile.handle, profile.displayName, profile.nickname, profile.avatarURL, profile.searchName,
                    profile.searchNickname, profile.createdAt.millisecondsSinceEpoch, profile.updatedAt.millisecondsSinceEpoch,
                ])
            return .saved
        }
    }

    public func profiles(_ users: [UserID]) async throws(StoreError) -> [ProfileRecord] {
        guard !users.isEmpty else { return [] }
        let ids = users.map(\.rawValue)
        let rows = try await read("Reading \(users.count) profiles") { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            return try SQLiteRow.fetchAll(
                db, sql: "SELECT \(Self.profileColumns) FROM profiles WHERE user_id IN (\(marks))", arguments: StatementArguments(ids)
            ).map(Self.profileRow)
        }
        return try rows.map { row throws(StoreError) in try profile(row) }
    }

    public func searchProfiles(_ text: String, limit: Int) async throws(StoreError) -> [ProfileRecord] {
        let rows = try await read("Searching profiles") { db in
            // instr, not LIKE: the text may hold `_` and `%`, which LIKE would read as wildcards.
            try SQLiteRow.fetchAll(
                db,
                sql: """
                    SELECT \(Self.profileColumns),
                        CASE
                            WHEN handle = :text THEN 0
                            WHEN instr(handle, :text) = 1 OR instr(' ' || search_name, ' ' || :text) > 0
                                OR instr(' ' || search_nickname, ' ' || :text) > 0 THEN 1
                            ELSE 2
                        END AS rank
                    FROM profiles
                    WHERE instr(handle, :text) > 0 OR instr(search_name, :text) > 0 OR instr(search_nickname, :text) > 0
                    ORDER BY rank, search_name, handle
                    LIMIT :limit
                    """,
                arguments: ["text": text, "limit": max(1, limit)]
            ).map(Self.profileRow)
        }
        return try rows.map { row throws(StoreError) in try profile(row) }
    }

    public func createFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await write("Saving a friend request from \(friendship.requester)") { db in
            try db.execute(
                sql: """
                    INSERT INTO friendships (id, requester_id, addressee_id, pair, status, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """,
                arguments: [
                    friendship.id, friendship.requester.rawValue, friendship.addressee.rawValue, friendship.pair,
                    friendship.status.rawValue, friendship.createdAt.millisecondsSinceEpoch, friendship.updatedAt.millisecondsSinceEpoch,
                ])
            return db.changesCount > 0
        }
    }

    public func updateFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await write("Saving friend request \(friendship.id)") { db in
            try db.execute(
                sql: "UPDATE friendships SET status = ?, updated_at = ? WHERE id = ?",
                arguments: [friendship.status.rawValue, friendship.updatedAt.millisecondsSinceEpoch, friendship.id])
            return db.changesCount > 0
        }
    }

    public func deleteFriendship(id: String) async throws(StoreError) -> Bool {
        try await write("Deleting friend request \(id)") { db in
            try db.execute(sql: "DELETE FROM friendships WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func friendships(of user: UserID) async throws(StoreError) -> [FriendshipRecord] {
        let location = "\(databasePath), table friendships"
        let rows = try await read("Reading the friends of \(user)") { db in
            try SQLiteRow.fetchAll(
                db,
                sql: """
                    SELECT id, requester_id, addressee_id, status, created_at, updated_at FROM friendships
                    WHERE requester_id = :user OR addressee_id = :user ORDER BY created_at, id
                    """,
                arguments: ["user": user.rawValue]
            ).map { row in
                (id: try row.decode(String.self, forColumn: "id"), requester: try row.decode(String.self, forColumn: "requester_id"),
                 addressee: try row.decode(String.self, forColumn: "addressee_id"), status: try row.decode(String.self, forColumn: "status"),
                 createdAt: try row.decode(Int64.self, forColumn: "created_at"),
                 updatedAt: try row.decode(Int64.self, forColumn: "updated_at"))
            }
        }
        return try rows.map { row throws(StoreError) in
            guard let requester = UserID(row.requester), let addressee = UserID(row.addressee),
                let status = FriendshipStatus(rawValue: row.status)
            else {
                throw StoreError(.corrupt, "Friend request \(row.id) in \(location) cannot be read: a user id or its status is not valid.")
            }
            return FriendshipRecord(
                id: row.id, requester: requester, addressee: addressee, status: status,
                createdAt: Instant(millisecondsSinceEpoch: row.createdAt), updatedAt: Instant(millisecondsSinceEpoch: row.updatedAt))
        }
    }

    // MARK: Rows

    static let profileColumns =
        "user_id, handle, display_name, nickname, avatar_url, search_name, search_nickname, created_at, updated_at"

    struct ProfileRow: Sendable {
        var user: String
        var handle: String
        var displayName: String
        var nickname: String?
        var avatarURL: String?
        var searchName: String
        var searchNickname: String
        var createdAt: Int64
        var updatedAt: Int64
    }

    @Sendable static func profileRow(_ row: SQLiteRow) throws -> ProfileRow {
        ProfileRow(
            user: try row.decode(String.self, forColumn: "user_id"), handle: try row.decode(String.self, forColumn: "handle"),
            displayName: try row.decode(String.self, forColumn: "display_name"),
            nickname: try row.decode(String?.self, forColumn: "nickname"), avatarURL: try row.decode(String?.self, forColumn: "avatar_url"),
            searchName: try row.decode(String.self, forColumn: "search_name"),
            searchNickname: try row.decode(String.self, forColumn: "search_nickname"),
            createdAt: try row.decode(Int64.self, forColumn: "created_at"), updatedAt: try row.decode(Int64.self, forColumn: "updated_at"))
    }

    private func profile(_ row: ProfileRow) throws(StoreError) -> ProfileRecord {
        try row.record(location: "\(databasePath), table profiles")
    }
}

extension SQLiteStore.ProfileRow {
    /// The profile this row holds; `location` names the table for the error when it cannot be read.
    func record(location: String) throws(StoreError) -> ProfileRecord {
        guard let userID = UserID(user) else {
            throw StoreError(.corrupt, "A profile in \(location) has a user id that is not a UUID (\(user)).")
        }
        return ProfileRecord(
            user: userID, handle: handle, displayName: displayName, nickname: nickname, avatarURL: avatarURL,
            searchName: searchName, searchNickname: searchNickname, createdAt: Instant(millisecondsSinceEpoch: createdAt),
            updatedAt: Instant(millisecondsSinceEpoch: updatedAt))
    }
}
