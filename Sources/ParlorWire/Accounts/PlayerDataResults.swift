import ParlorRules

// A player's own data (`GET /users/me/export`, `DELETE /users/me`): REST routes, like profiles and
// friends, so no WebSocket operation. The export is a document of its own (docs/PROTOCOL.md), read
// as JSON by whoever takes it; the deletion answers what it deleted.

/// `DELETE /users/me {confirm}`: `confirm` must be `"DELETE"` (or `?confirm=DELETE`).
public struct DeleteAccountBody: Sendable, Equatable, Codable {
    public static let confirmation = "DELETE"

    public var confirm: String?

    public init(confirm: String? = DeleteAccountBody.confirmation) { self.confirm = confirm }
}

/// The reply to `DELETE /users/me`: how much of each kind of thing went (history entries and uploads
/// that others played in stay, without the player).
public struct DeleteAccountResult: Sendable, Equatable, Codable {
    public var userId: UserID
    public var deleted: Bool
    /// Friendships and requests, both directions.
    public var friendships: Int
    /// Finished games the player was in (kept for the others, with the player as "deleted player").
    public var history: Int
    /// Matches the player uploaded.
    public var uploads: Int
    /// Files (the avatar).
    public var files: Int
    /// Accounts at other sign-in providers that signed in as the player.
    public var identities: Int
    public var settings: Int
    /// The player's connections to this server that were closed.
    public var connectionsClosed: Int

    public init(
        userId: UserID, deleted: Bool, friendships: Int, history: Int, uploads: Int, files: Int, identities: Int, settings: Int,
        connectionsClosed: Int
    ) {
        self.userId = userId
        self.deleted = deleted
        self.friendships = friendships
        self.history = history
        self.uploads = uploads
        self.files = files
        self.identities = identities
        self.settings = settings
        self.connectionsClosed = connectionsClosed
    }
}
