/// A specific, stable error code (`error.code`), with its canonical status and HTTP status.
///
/// Codes are added, never renamed or removed. A code this build does not know (from a newer server)
/// decodes with status `internal` and HTTP 500.
public struct ErrorCode: Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public let status: ErrorStatus
    public let httpStatus: Int

    private init(_ rawValue: String, _ status: ErrorStatus, _ httpStatus: Int? = nil) {
        self.rawValue = rawValue
        self.status = status
        self.httpStatus = httpStatus ?? status.defaultHTTPStatus
    }

    // Rummy rooms (the seed's table; HTTP statuses as the seed gives them).
    public static let roomNotFound = ErrorCode("ROOM_NOT_FOUND", .notFound, 404)
    public static let roomFull = ErrorCode("ROOM_FULL", .resourceExhausted, 409)
    public static let notModerator = ErrorCode("NOT_MODERATOR", .permissionDenied, 403)
    public static let playerNotFound = ErrorCode("PLAYER_NOT_FOUND", .notFound, 404)
    public static let invalidRoomCode = ErrorCode("INVALID_ROOM_CODE", .invalidArgument, 400)
    public static let invalidState = ErrorCode("INVALID_STATE", .failedPrecondition, 409)
    public static let invalidInput = ErrorCode("INVALID_INPUT", .invalidArgument, 400)
    public static let networkError = ErrorCode("NETWORK_ERROR", .internal, 500)

    // Requests, sessions and subscriptions.
    public static let badRequest = ErrorCode("BAD_REQUEST", .invalidArgument, 400)
    public static let unauthenticated = ErrorCode("UNAUTHENTICATED", .unauthenticated, 401)
    public static let `internal` = ErrorCode("INTERNAL", .internal, 500)
    public static let subscriptionNotFound = ErrorCode("SUBSCRIPTION_NOT_FOUND", .notFound, 404)
    public static let tooManySubscriptions = ErrorCode("TOO_MANY_SUBSCRIPTIONS", .resourceExhausted, 429)
    public static let rateLimited = ErrorCode("RATE_LIMITED", .resourceExhausted, 429)
    public static let requestTooLarge = ErrorCode("REQUEST_TOO_LARGE", .resourceExhausted, 413)
    public static let shuttingDown = ErrorCode("SHUTTING_DOWN", .unavailable, 503)
    /// The server's database cannot be reached (a clustered node's PostgreSQL); nothing was changed.
    public static let unavailable = ErrorCode("UNAVAILABLE", .unavailable, 503)
    public static let notFound = ErrorCode("NOT_FOUND", .notFound, 404)
    /// Signed in, but this is someone else's (another user's game history).
    public static let forbidden = ErrorCode("FORBIDDEN", .permissionDenied, 403)
    /// An HTTP route that exists, asked with a method it does not serve.
    public static let methodNotAllowed = ErrorCode("METHOD_NOT_ALLOWED", .invalidArgument, 405)
    /// An HTTP request for a WebSocket-only endpoint.
    public static let upgradeRequired = ErrorCode("UPGRADE_REQUIRED", .failedPrecondition, 426)

    // Word lobbies and the catalog.
    public static let lobbyNotFound = ErrorCode("LOBBY_NOT_FOUND", .notFound, 404)
    public static let lobbyNotOpen = ErrorCode("LOBBY_NOT_OPEN", .failedPrecondition, 400)
    public static let roundNotRunning = ErrorCode("ROUND_NOT_RUNNING", .failedPrecondition, 400)
    public static let notLobbyCreator = ErrorCode("NOT_LOBBY_CREATOR", .permissionDenied, 403)
    public static let notLobbyMember = ErrorCode("NOT_LOBBY_MEMBER", .permissionDenied, 403)
    public static let lobbyFull = ErrorCode("LOBBY_FULL", .resourceExhausted, 429)
    public static let noFreeCode = ErrorCode("NO_FREE_CODE", .resourceExhausted, 429)
    public static let tooManyWords = ErrorCode("TOO_MANY_WORDS", .resourceExhausted, 429)
    public static let gameNotFound = ErrorCode("GAME_NOT_FOUND", .notFound, 404)
    public static let noGamesAvailable = ErrorCode("NO_GAMES_AVAILABLE", .failedPrecondition, 400)
    /// The lobby's match is over: no more rounds and no newcomers.
    public static let lobbyFinished = ErrorCode("LOBBY_FINISHED", .failedPrecondition, 400)
    /// A rematch of a lobby whose match is not over (or that has one already).
    public static let lobbyNotFinished = ErrorCode("LOBBY_NOT_FINISHED", .failedPrecondition, 400)

    // Quotas.
    /// The caller already has as many live games as one user may (`--max-games-per-user`), across
    /// every kind of game.
    public static let quotaExceeded = ErrorCode("QUOTA_EXCEEDED", .resourceExhausted, 429)

    // Darts matches.
    public static let matchNotFound = ErrorCode("MATCH_NOT_FOUND", .notFound, 404)
    public static let matchFull = ErrorCode("MATCH_FULL", .resourceExhausted, 409)
    public static let notHost = ErrorCode("NOT_HOST", .permissionDenied, 403)
    /// A visit for a player other than the one to throw.
    public static let notYourTurn = ErrorCode("NOT_YOUR_TURN", .failedPrecondition, 409)
    /// A visit that cannot have been thrown; the message names the dart or total.
    public static let invalidDarts = ErrorCode("INVALID_DARTS", .invalidArgument, 400)

    // Accounts, avatars and uploads (the darts app's backend).
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
    /// Uploaded turns that cannot be what was thrown; the message names the first bad turn.
    public static let invalidThrows = ErrorCode("INVALID_THROWS", .invalidArgument, 422)
    // Photo quizzes.
    public static let quizNotFound = ErrorCode("QUIZ_NOT_FOUND", .notFound, 404)
    public static let quizFull = ErrorCode("QUIZ_FULL", .resourceExhausted, 409)
    /// Not a player in the quiz (guessing, uploading).
    public static let notQuizMember = ErrorCode("NOT_QUIZ_MEMBER", .permissionDenied, 403)
    /// Starting with no photo in the albums the session plays.
    public static let noPhotos = ErrorCode("NO_PHOTOS", .failedPrecondition, 409)
    public static let tooManyPhotos = ErrorCode("TOO_MANY_PHOTOS", .resourceExhausted, 409)
    /// The uploader of the photo guessing it.
    public static let ownPhoto = ErrorCode("OWN_PHOTO", .permissionDenied, 403)
    public static let photoNotFound = ErrorCode("PHOTO_NOT_FOUND", .notFound, 404)
    /// A tile asked for before it has appeared.
    public static let tileHidden = ErrorCode("TILE_HIDDEN", .permissionDenied, 403)
    /// A whole photo asked for before it has been revealed.
    public static let photoHidden = ErrorCode("PHOTO_HIDDEN", .permissionDenied, 403)
    /// An upload whose EXIF has no valid GPS position: the quiz has no answer for it.
    public static let noLocation = ErrorCode("NO_LOCATION", .invalidArgument, 422)
    /// An upload that is not a JPEG by its bytes.
    public static let notJPEG = ErrorCode("NOT_JPEG", .invalidArgument, 415)
    /// A JPEG that cannot be decoded, or whose size is absurd or too small to tile.
    public static let invalidImage = ErrorCode("INVALID_IMAGE", .invalidArgument, 422)
    /// Every photo decoder is busy and the queue is full: try again in a moment.
    public static let uploadsBusy = ErrorCode("UPLOADS_BUSY", .resourceExhausted, 503)
    /// The server runs without places data: no search by name, no map.
    public static let placesUnavailable = ErrorCode("PLACES_UNAVAILABLE", .unavailable, 503)

    /// Every code this build knows.
    public static let all: [ErrorCode] = [
        .roomNotFound, .roomFull, .notModerator, .playerNotFound, .invalidRoomCode, .invalidState, .invalidInput,
        .networkError, .badRequest, .unauthenticated, .internal, .subscriptionNotFound, .tooManySubscriptions,
        .rateLimited, .requestTooLarge, .shuttingDown, .notFound, .forbidden, .methodNotAllowed, .upgradeRequired, .lobbyNotFound, .lobbyNotOpen, .roundNotRunning,
        .notLobbyCreator, .notLobbyMember, .lobbyFull, .noFreeCode, .tooManyWords, .gameNotFound, .noGamesAvailable,
        .quotaExceeded,
        .matchNotFound, .matchFull, .notHost, .notYourTurn, .invalidDarts,
        .profileExists, .handleTaken, .profileNotFound, .friendRequestExists, .friendshipNotFound, .tooManyFriends,
        .unsupportedMediaType, .bucketNotFound, .objectNotFound, .invalidThrows,
        .quizNotFound, .quizFull, .notQuizMember, .noPhotos, .tooManyPhotos, .ownPhoto, .photoNotFound, .tileHidden, .photoHidden,
        .noLocation, .notJPEG, .invalidImage, .uploadsBusy, .unavailable,
        .lobbyFinished, .lobbyNotFinished,
        .placesUnavailable,
    ]

    /// The known code, or an unknown one with status `internal`.
    public init(rawValue: String) {
        self = Self.all.first { $0.rawValue == rawValue } ?? ErrorCode(rawValue, .internal, 500)
    }

    public static func == (lhs: ErrorCode, rhs: ErrorCode) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
