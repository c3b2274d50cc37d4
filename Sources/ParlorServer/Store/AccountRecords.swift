import ParlorRules

/// A user's public profile (the seed's `users` row) as the store keeps it.
public struct ProfileRecord: Sendable, Equatable {
    public var user: UserID
    /// 3–20 characters `[a-z0-9_]`, unique (stored lowercase, so uniqueness ignores case).
    public var handle: String
    public var displayName: String
    public var nickname: String?
    public var avatarURL: String?
    /// `displayName` and `nickname` folded for search (lowercase, accents removed), kept beside them so
    /// a search compares plain text.
    public var searchName: String
    public var searchNickname: String
    public var createdAt: Instant
    public var updatedAt: Instant

    public init(
        user: UserID, handle: String, displayName: String, nickname: String?, avatarURL: String?, searchName: String,
        searchNickname: String, createdAt: Instant, updatedAt: Instant
    ) {
        self.user = user
        self.handle = handle
        self.displayName = displayName
        self.nickname = nickname
        self.avatarURL = avatarURL
        self.searchName = searchName
        self.searchNickname = searchNickname
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// How saving a profile went: written, or why not.
public enum ProfileWriteOutcome: Sendable, Equatable {
    case saved
    /// Creating: the user already has a profile.
    case profileExists
    /// Updating: the user has none.
    case profileMissing
    /// Another user has the handle.
    case handleTaken
}

/// How linking a user to an account went (`AccountStore.link`).
public enum ExternalLinkOutcome: Sendable, Equatable {
    /// Linked now: the account signs in as the user from now on.
    case linked
    /// The account already signed in as this user; nothing changed.
    case alreadyLinked
    /// The account signs in as another user; nothing changed.
    case accountHasAnotherUser
    /// The user is already linked to another account; nothing changed.
    case userHasAnotherAccount
}

/// Where a friend request stands.
public enum FriendshipStatus: String, Sendable, Equatable, CaseIterable {
    case pending
    case accepted
    case rejected
}

/// A friend request and what became of it (the seed's `friends` row): one per pair of users, whoever
/// asked.
public struct FriendshipRecord: Sendable, Equatable {
    /// A UUID.
    public var id: String
    public var requester: UserID
    public var addressee: UserID
    public var status: FriendshipStatus
    public var createdAt: Instant
    public var updatedAt: Instant

    public init(id: String, requester: UserID, addressee: UserID, status: FriendshipStatus, createdAt: Instant, updatedAt: Instant) {
        self.id = id
        self.requester = requester
        self.addressee = addressee
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The other side, seen from `user`.
    public func other(than user: UserID) -> UserID { requester == user ? addressee : requester }

    /// The pair, in either direction, as one key: what makes a second request between two users a
    /// conflict.
    public var pair: String { requester < addressee ? "\(requester)+\(addressee)" : "\(addressee)+\(requester)" }
}
