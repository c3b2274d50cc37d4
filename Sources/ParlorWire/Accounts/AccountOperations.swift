// The accounts' operations on the WebSocket (profiles, friends and avatars are REST: the server's
// `Accounts/`), and their error codes.

extension Operation {
    /// Your friends list, live: the whole list again on every change.
    public static let observeFriends = OperationDeclaration<EmptyArguments, Subscribed>("observeFriends")
}

extension ErrorCode {
    /// A second `POST /users` for a user who has a profile.
    public static let profileExists = ErrorCode("PROFILE_EXISTS", .alreadyExists, 409)
    public static let handleTaken = ErrorCode("HANDLE_TAKEN", .alreadyExists, 409)
    public static let profileNotFound = ErrorCode("PROFILE_NOT_FOUND", .notFound, 404)
    /// The two users already have a request or friendship, in either direction.
    public static let friendRequestExists = ErrorCode("FRIEND_REQUEST_EXISTS", .alreadyExists, 409)
    public static let friendshipNotFound = ErrorCode("FRIENDSHIP_NOT_FOUND", .notFound, 404)
    /// A user with as many requests and friendships as one may have.
    public static let tooManyFriends = ErrorCode("TOO_MANY_FRIENDS", .resourceExhausted, 429)
    /// An upload whose bytes are not a PNG or JPEG (whatever its `Content-Type` says).
    public static let unsupportedMediaType = ErrorCode("UNSUPPORTED_MEDIA_TYPE", .invalidArgument, 415)
    public static let bucketNotFound = ErrorCode("BUCKET_NOT_FOUND", .notFound, 404)
    public static let objectNotFound = ErrorCode("OBJECT_NOT_FOUND", .notFound, 404)
    /// `DELETE /users/me` while the user has a seat in a game still being played: the message lists them.
    public static let leaveGamesFirst = ErrorCode("LEAVE_GAMES_FIRST", .failedPrecondition, 409)
    /// A token (or a connection) of a user whose account was deleted.
    public static let accountDeleted = ErrorCode("ACCOUNT_DELETED", .unauthenticated, 401)
}

extension WireVocabulary {
    public static let accounts = WireVocabulary(
        "accounts", operations: [Operation.observeFriends.erased],
        errorCodes: [
            .profileExists, .handleTaken, .profileNotFound, .friendRequestExists, .friendshipNotFound, .tooManyFriends,
            .unsupportedMediaType, .bucketNotFound, .objectNotFound, .leaveGamesFirst, .accountDeleted,
        ])
}
