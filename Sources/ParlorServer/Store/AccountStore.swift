import ParlorRules

/// The accounts: profiles, friendships and each user's saved settings. Every write returns once durable.
public protocol AccountStore: Sendable {
    // MARK: Profiles and friends

    /// Creates (`creating`) or replaces the user's profile, durably, unless the outcome says why not.
    func saveProfile(_ profile: ProfileRecord, creating: Bool) async throws(StoreError) -> ProfileWriteOutcome

    /// The profiles of these users that exist, in no particular order.
    func profiles(_ users: [UserID]) async throws(StoreError) -> [ProfileRecord]

    /// Profiles whose handle, folded name or folded nickname contains `text` (already folded): the exact
    /// handle first, then those where it begins one of them (or a word of the name or nickname), then
    /// the rest; by name within each; at most `limit`.
    func searchProfiles(_ text: String, limit: Int) async throws(StoreError) -> [ProfileRecord]

    /// Stores a new request, durably; false (nothing written) when the two users already have one, in
    /// either direction, whatever its status.
    func createFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool

    /// Replaces a request's status, durably; false when it no longer exists.
    func updateFriendship(_ friendship: FriendshipRecord) async throws(StoreError) -> Bool

    /// Deletes a request or friendship, durably; false when it did not exist.
    func deleteFriendship(id: String) async throws(StoreError) -> Bool

    /// Every request and friendship `user` is part of, either side, oldest first.
    func friendships(of user: UserID) async throws(StoreError) -> [FriendshipRecord]

    // MARK: Users' settings

    /// The settings `user` last saved under `name` (a game's defaults, such as a quiz's `UserSettings`),
    /// as the JSON they were saved as; nil when they never saved any.
    func userSettings(_ user: UserID, name: String) async throws(StoreError) -> String?

    /// Replaces `user`'s settings under `name`, durably.
    func saveUserSettings(_ user: UserID, name: String, json: String) async throws(StoreError)

    // MARK: Accounts from other sign-in providers

    /// The user the account (`issuer`, `subject`) signs in as: the one stored for it, or — on its first
    /// sign-in — `newUser`, stored now, durably. Two first sign-ins at once get the same user.
    func user(forIssuer issuer: String, subject: String, newUser: UserID) async throws(StoreError) -> UserID

    /// Whether `user` signs in with an account from another provider.
    func hasExternalIdentity(_ user: UserID) async throws(StoreError) -> Bool

    /// Makes the account (`issuer`, `subject`) sign in as `user` from now on, in one transaction —
    /// unless the account already signs in as another user, or `user` already has another account.
    /// Nothing of the user moves: its profile, history and friends are the account's by its id.
    func link(issuer: String, subject: String, to user: UserID) async throws(StoreError) -> ExternalLinkOutcome
}
