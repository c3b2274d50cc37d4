import ParlorRules

/// A user's profile as the darts app reads it (`GET /users/{id}`, search results, and the answer to
/// creating or changing one): the seed's `users` row in snake_case, with the lifetime statistics of
/// every match the user finished, live or uploaded.
public struct ProfileView: Sendable, Equatable, Codable {
    public let id: UserID
    public let displayName: String
    public let nickname: String?
    public let handle: String
    public let avatarURL: String?
    public let createdAt: String
    public let updatedAt: String
    public let stats: ProfileStats

    public init(
        id: UserID, displayName: String, nickname: String?, handle: String, avatarURL: String?, createdAt: String, updatedAt: String,
        stats: ProfileStats
    ) {
        self.id = id
        self.displayName = displayName
        self.nickname = nickname
        self.handle = handle
        self.avatarURL = avatarURL
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.stats = stats
    }

    private enum CodingKeys: String, CodingKey {
        case id, displayName = "display_name", nickname, handle, avatarURL = "avatar_url", createdAt = "created_at"
        case updatedAt = "updated_at", stats
    }

    /// Nulls are written, as PostgREST writes a row's empty columns.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(nickname, forKey: .nickname)
        try container.encode(handle, forKey: .handle)
        try container.encode(avatarURL, forKey: .avatarURL)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(stats, forKey: .stats)
    }
}

/// A player's lifetime over every match they finished: played, won, 3-dart average (points over darts
/// of every match whose visits are known, × 3, two decimals) and highest checkout.
public struct ProfileStats: Sendable, Equatable, Codable {
    public let played: Int
    public let won: Int
    public let threeDartAverage: Double
    public let highestCheckout: Int

    public init(played: Int, won: Int, threeDartAverage: Double, highestCheckout: Int) {
        self.played = played
        self.won = won
        self.threeDartAverage = threeDartAverage
        self.highestCheckout = highestCheckout
    }

    public static let none = ProfileStats(played: 0, won: 0, threeDartAverage: 0, highestCheckout: 0)

    private enum CodingKeys: String, CodingKey {
        case played, won, threeDartAverage = "three_dart_average", highestCheckout = "highest_checkout"
    }
}

/// The other side of a friendship, as a friends list shows them: their profile without its statistics.
public struct FriendProfile: Sendable, Equatable, Codable {
    public let id: UserID
    public let displayName: String
    public let nickname: String?
    public let handle: String
    public let avatarURL: String?

    public init(id: UserID, displayName: String, nickname: String?, handle: String, avatarURL: String?) {
        self.id = id
        self.displayName = displayName
        self.nickname = nickname
        self.handle = handle
        self.avatarURL = avatarURL
    }

    private enum CodingKeys: String, CodingKey {
        case id, displayName = "display_name", nickname, handle, avatarURL = "avatar_url"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(nickname, forKey: .nickname)
        try container.encode(handle, forKey: .handle)
        try container.encode(avatarURL, forKey: .avatarURL)
    }
}

/// Where a friend is: online or not, and the live game they are playing, which you can watch by its code.
public struct FriendPresence: Sendable, Equatable, Codable {
    public struct Playing: Sendable, Equatable, Codable {
        /// The kind of game: `"darts"` (then `code` is a match code for `observeMatch`), `"rummy"`…
        public let game: String
        public let code: String

        public init(game: String, code: String) {
            self.game = game
            self.code = code
        }
    }

    public let online: Bool
    public let playing: Playing?

    public init(online: Bool, playing: Playing?) {
        self.online = online
        self.playing = playing
    }

    private enum CodingKeys: String, CodingKey { case online, playing }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(online, forKey: .online)
        try container.encode(playing, forKey: .playing)
    }
}

/// A friend request or friendship (the seed's `friends` row), with the other side's profile and, once
/// accepted, their presence.
public struct FriendshipView: Sendable, Equatable, Codable {
    public let id: String
    public let requesterId: UserID
    public let addresseeId: UserID
    /// `"pending"`, `"accepted"` or `"rejected"`.
    public let status: String
    public let createdAt: String
    public let updatedAt: String
    /// Whoever is not you.
    public let friend: FriendProfile
    /// Only between accepted friends.
    public let presence: FriendPresence?

    public init(
        id: String, requesterId: UserID, addresseeId: UserID, status: String, createdAt: String, updatedAt: String,
        friend: FriendProfile, presence: FriendPresence?
    ) {
        self.id = id
        self.requesterId = requesterId
        self.addresseeId = addresseeId
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.friend = friend
        self.presence = presence
    }

    private enum CodingKeys: String, CodingKey {
        case id, requesterId = "requester_id", addresseeId = "addressee_id", status, createdAt = "created_at"
        case updatedAt = "updated_at", friend, presence
    }
}

/// The `friends` event of `observeFriends`: your whole list as it is now, at this version.
public struct FriendsView: Sendable, Equatable, Codable {
    public let version: Int
    public let friends: [FriendshipView]

    public init(version: Int, friends: [FriendshipView]) {
        self.version = version
        self.friends = friends
    }
}
