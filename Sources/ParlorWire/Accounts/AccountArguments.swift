import ParlorRules

// The bodies of the darts app's account routes (seed `darts-srs.md`: `users`, `friends`), in the
// seed's snake_case as PostgREST spells its columns, and `observeFriends`. Lengths and the handle's
// alphabet are the server's to check, so a bad value is refused by name (INVALID_INPUT).

/// `POST /users {display_name, nickname?, handle}`.
public struct CreateProfileBody: Sendable, Equatable, Codable {
    public var displayName: String
    public var nickname: String?
    public var handle: String

    public init(displayName: String, nickname: String? = nil, handle: String) {
        self.displayName = displayName
        self.nickname = nickname
        self.handle = handle
    }

    private enum CodingKeys: String, CodingKey {
        case displayName = "display_name", nickname, handle
    }
}

/// A field of a partial update: left out (unchanged), or sent — null clears a field that may be empty.
public enum FieldUpdate<Value: Sendable & Equatable>: Sendable, Equatable {
    case unchanged
    case set(Value?)
}

/// `PUT /users/{id}`: any of `display_name`, `nickname`, `handle`, `avatar_url`.
public struct UpdateProfileBody: Sendable, Equatable, Decodable {
    public var displayName: FieldUpdate<String>
    public var nickname: FieldUpdate<String>
    public var handle: FieldUpdate<String>
    public var avatarURL: FieldUpdate<String>

    public init(
        displayName: FieldUpdate<String> = .unchanged, nickname: FieldUpdate<String> = .unchanged,
        handle: FieldUpdate<String> = .unchanged, avatarURL: FieldUpdate<String> = .unchanged
    ) {
        self.displayName = displayName
        self.nickname = nickname
        self.handle = handle
        self.avatarURL = avatarURL
    }

    private enum CodingKeys: String, CodingKey {
        case displayName = "display_name", nickname, handle, avatarURL = "avatar_url"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field(_ key: CodingKeys) throws -> FieldUpdate<String> {
            container.contains(key) ? .set(try container.decodeIfPresent(String.self, forKey: key)) : .unchanged
        }
        displayName = try field(.displayName)
        nickname = try field(.nickname)
        handle = try field(.handle)
        avatarURL = try field(.avatarURL)
    }
}

/// `POST /friends {addressee_id}`.
public struct FriendRequestBody: Sendable, Equatable, Codable {
    public var addresseeId: UserID

    public init(addresseeId: UserID) { self.addresseeId = addresseeId }

    private enum CodingKeys: String, CodingKey { case addresseeId = "addressee_id" }
}

/// `PUT /friends/{id} {status}`: `"accepted"` or `"rejected"`.
public struct FriendResponseBody: Sendable, Equatable, Codable {
    public var status: String

    public init(status: String) { self.status = status }
}

extension EventName {
    /// Your friends list changed (`FriendsView`).
    public static let friends = EventName(rawValue: "friends")
}
