import ParlorRules

/// Profiles and friendships in memory, with the same outcomes as SQLite's.
extension InMemoryStore {
    public func saveProfile(_ profile: ProfileRecord, creating: Bool) async throws(StoreError) -> ProfileWriteOutcome {
        state.withLockedValue { state in
            let exists = state.profiles[profile.user] != nil
            if creating && exists { return .profileExists }
            if !creating && !exists { return .profileMissing }
            if state.profiles.values.contains(where: { $0.handle == profile.handle && $0.user != profile.user }) { return .handleTaken }
            var saved = profile
            if let existing = state.profiles[profile.user] { saved.createdAt = existing.createdAt }
            state.profiles[profile.user] = saved
            return .saved
        }
    }

    public func profiles(_ users: [UserID]) async throws(StoreError) -> [ProfileRecord] {
        state.withLockedValue { state in users.compactMap { state.profiles[$0] } }
    }

    public func searchProfiles(_ text: String, limit: Int) async throws(StoreError) -> [ProfileRecord] {
        state.withLockedValue { state in
            state.profiles.values
                .compactMap { profile in Self.rank(profile, text).map { (rank: $0, profile: profile) } }
                .sorted { ($0.rank, $0.profile.searchName, $0.profile.handle) < ($1.rank, $1.profile.searchName, $1.profile.handle) }
                .prefix(max(1, limit))
                .map(\.profile)
        }
    }

    /// 0 for the exact handle, 1 where `text` begins the handle or a word of the name or nickname, 2
    /// anywhere else in them; nil when it is in none.
    private static func rank(_ profile: ProfileRecord, _ text: String) -> Int? {
        let fields = [profile.handle, profile.searchName, profile.searchNickname]
        guard fields.contains(where: { $0.contains(text) }) else { return nil }
        if profile.handle == text { return 0 }
        let beginsAWord = (" " + profile.searchName).contains(" " + text) || (" " + profile.searchNickname).contains(" " + text)
        return profile.handle.hasPrefix(text) || beginsAWord ? 1 : 2
    }

    public func createFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        state.withLockedValue { state in
            guard !state.friendships.contains(where: { $0.pair == friendship.pair || $0.id == friendship.id }) else { return false }
            state.friendships.append(friendship)
            return true
        }
    }

    public func updateFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        state.withLockedValue { state in
            guard let index = state.friendships.firstIndex(where: { $0.id == friendship.id }) else { return false }
            state.friendships[index].status = friendship.status
            state.friendships[index].updatedAt = friendship.updatedAt
            return true
        }
    }

    public func deleteFriendship(id: String) async throws(StoreError) -> Bool {
        state.withLockedValue { state in
            guard let index = state.friendships.firstIndex(where: { $0.id == id }) else { return false }
            state.friendships.remove(at: index)
            return true
        }
    }

    public func friendships(of user: UserID) async throws(StoreError) -> [FriendshipRecord] {
        state.withLockedValue { state in state.friendships.filter { $0.requester == user || $0.addressee == user } }
    }
}
