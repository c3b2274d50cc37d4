import ParlorRules

/// A player's own data (`GET /users/me/export`, `DELETE /users/me`): everything the store keeps about
/// one user, read at once, and the account's deletion in one transaction. Every store implements both,
/// reading every table that can name a user.
public protocol AccountDataStore: Sendable {
    /// Everything the store holds about `user`.
    func accountData(of user: UserID) async throws(StoreError) -> AccountData

    /// Deletes `user`'s account, durably, in one transaction: their profile, friendships and requests
    /// (both sides), settings, accounts at other providers, their own uploads and their rows of history;
    /// the games others played with them stay, with `pseudonym` for their id and "deleted player" for
    /// their name (`AccountErasure`); their id's fingerprint is kept so their tokens are refused. Nothing
    /// changes when a live game still names them: the outcome lists those games.
    func deleteAccount(_ user: UserID, pseudonym: UserID, at now: Instant) async throws(StoreError) -> AccountDeletionOutcome

    /// Whether `user`'s account was deleted (their tokens no longer sign in).
    func isDeletedAccount(_ user: UserID) async throws(StoreError) -> Bool
}

/// A live game (a row of `games`) whose state names a user.
public struct LiveGameRef: Sendable, Equatable, Hashable {
    public var kind: String
    public var code: String
}

/// How deleting an account went.
public enum AccountDeletionOutcome: Sendable, Equatable {
    case deleted
    /// Live games still name the user; nothing was deleted.
    case inLiveGames([LiveGameRef])
}

/// Everything the store holds about one user, as stored.
public struct AccountData: Sendable {
    public struct Setting: Sendable, Equatable {
        public var name: String
        /// As saved.
        public var json: String
    }

    /// A finished game the user played (a `history` row) and their tally in it.
    public struct PlayedEntry: Sendable {
        public var kind: String
        public var key: String
        public var finishedAt: Instant
        /// The game's stored JSON.
        public var state: String
        public var tallyJSON: String?
    }

    /// A match uploaded by the user or naming them.
    public struct Upload: Sendable {
        public var kind: String
        public var id: String
        public var uploader: UserID
        public var finishedAt: Instant
        public var state: String
    }

    /// A game record the user appears in (as an actor of a step, or in its initial state).
    public struct Record: Sendable, Equatable {
        public var id: String
        public var kind: String
        public var code: String
        public var finishedAt: Instant?
    }

    public var profile: ProfileRecord?
    public var friendships: [FriendshipRecord] = []
    public var settings: [Setting] = []
    public var identities: [(issuer: String, subject: String)] = []
    public var history: [PlayedEntry] = []
    public var uploads: [Upload] = []
    public var records: [Record] = []
    public var liveGames: [LiveGameRef] = []

    public init() {}
}
