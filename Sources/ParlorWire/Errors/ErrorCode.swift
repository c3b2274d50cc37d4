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

    /// Every code this build knows.
    public static let all: [ErrorCode] = [
        .roomNotFound, .roomFull, .notModerator, .playerNotFound, .invalidRoomCode, .invalidState, .invalidInput,
        .networkError, .badRequest, .unauthenticated, .internal, .subscriptionNotFound, .tooManySubscriptions,
        .rateLimited, .requestTooLarge, .shuttingDown, .notFound, .forbidden, .methodNotAllowed, .upgradeRequired, .lobbyNotFound, .lobbyNotOpen, .roundNotRunning,
        .notLobbyCreator, .notLobbyMember, .lobbyFull, .noFreeCode, .tooManyWords, .gameNotFound, .noGamesAvailable,
        .quotaExceeded,
        .matchNotFound, .matchFull, .notHost, .notYourTurn, .invalidDarts,
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
