import ParlorRules

/// Users' saved settings in memory.
extension InMemoryStore {
    public func userSettings(_ user: UserID, name: String) async throws(StoreError) -> String? {
        state.withLockedValue { $0.userSettings[user]?[name] }
    }

    public func saveUserSettings(_ user: UserID, name: String, json: String) async throws(StoreError) {
        state.withLockedValue { $0.userSettings[user, default: [:]][name] = json }
    }
}
