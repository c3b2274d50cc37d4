import ParlorRules
@testable import ParlorServer

/// Test stores that change how games are saved (held, failing, encode-only) keep everything else —
/// profiles, friends, uploads, lifetimes, games' own records — in an in-memory store they forward to.
protocol ForwardingStore: ParlorStore {
    var forwardee: InMemoryStore { get }
}

extension ForwardingStore {
    var backend: StoreBackend { forwardee.backend }
    func userSettings(_ user: UserID, name: String) async throws(StoreError) -> String? {
        try await forwardee.userSettings(user, name: name)
    }
    func saveUserSettings(_ user: UserID, name: String, json: String) async throws(StoreError) {
        try await forwardee.saveUserSettings(user, name: name, json: json)
    }
    func user(forIssuer issuer: String, subject: String, newUser: UserID) async throws(StoreError) -> UserID {
        try await forwardee.user(forIssuer: issuer, subject: subject, newUser: newUser)
    }
    func hasExternalIdentity(_ user: UserID) async throws(StoreError) -> Bool {
        try await forwardee.hasExternalIdentity(user)
    }
    func link(issuer: String, subject: String, to user: UserID) async throws(StoreError) -> ExternalLinkOutcome {
        try await forwardee.link(issuer: issuer, subject: subject, to: user)
    }
    func lifetime(_ kind: GameKind, of user: UserID) async throws(StoreError) -> [LifetimeEntry] {
        try await forwardee.lifetime(kind, of: user)
    }
    func accountData(of user: UserID) async throws(StoreError) -> AccountData {
        try await forwardee.accountData(of: user)
    }
    func deleteAccount(_ user: UserID, pseudonym: UserID, at now: Instant) async throws(StoreError) -> AccountDeletionOutcome {
        try await forwardee.deleteAccount(user, pseudonym: pseudonym, at: now)
    }
    func isDeletedAccount(_ user: UserID) async throws(StoreError) -> Bool {
        try await forwardee.isDeletedAccount(user)
    }
    func uploadedGame(_ kind: GameKind, id: String) async throws(StoreError) -> UploadedGame? {
        try await forwardee.uploadedGame(kind, id: id)
    }
    func saveUploadedGame(_ game: UploadedGame, replacing: Instant?) async throws(StoreError) -> Bool {
        try await forwardee.saveUploadedGame(game, replacing: replacing)
    }
    func uploadedGames(_ kind: GameKind, of user: UserID, before: Instant?, limit: Int) async throws(StoreError) -> [UploadedGame] {
        try await forwardee.uploadedGames(kind, of: user, before: before, limit: limit)
    }
    func saveProfile(_ profile: ProfileRecord, creating: Bool) async throws(StoreError) -> ProfileWriteOutcome {
        try await forwardee.saveProfile(profile, creating: creating)
    }
    func profiles(_ users: [UserID]) async throws(StoreError) -> [ProfileRecord] { try await forwardee.profiles(users) }
    func searchProfiles(_ text: String, limit: Int) async throws(StoreError) -> [ProfileRecord] {
        try await forwardee.searchProfiles(text, limit: limit)
    }
    func createFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await forwardee.createFriendship(friendship)
    }
    func updateFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool {
        try await forwardee.updateFriendship(friendship)
    }
    func deleteFriendship(id: String) async throws(StoreError) -> Bool { try await forwardee.deleteFriendship(id: id) }
    func friendships(of user: UserID) async throws(StoreError) -> [FriendshipRecord] { try await forwardee.friendships(of: user) }
}
