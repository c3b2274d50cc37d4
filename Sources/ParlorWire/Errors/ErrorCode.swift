/// A specific, stable error code (`error.code`), with its canonical status and HTTP status.
///
/// Codes are added, never renamed or removed. A code this build does not know (from a newer server)
/// decodes with status `internal` and HTTP 500.
public struct ErrorCode: Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public let status: ErrorStatus
    public let httpStatus: Int

    /// A code as a game's wire folder declares it (`ErrorCode.matchNotFound`), with the HTTP status its
    /// seed gives it, or its status's.
    public init(_ rawValue: String, _ status: ErrorStatus, _ httpStatus: Int? = nil) {
        self.rawValue = rawValue
        self.status = status
        self.httpStatus = httpStatus ?? status.defaultHTTPStatus
    }

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

    // Signing in with an account (`hello {jwt}`, `Authorization: Bearer <jwt>`).
    /// The server signs in with accounts only (`--auth-config` mode `required`): an anonymous `hello` is refused.
    public static let authRequired = ErrorCode("AUTH_REQUIRED", .unauthenticated, 401)
    /// A JWT that was not accepted: its message says why (expired, wrong audience, bad signature, …).
    public static let invalidToken = ErrorCode("INVALID_TOKEN", .unauthenticated, 401)
    /// A JWT sent to a server that signs in anonymously only (no issuers configured).
    public static let authNotConfigured = ErrorCode("AUTH_NOT_CONFIGURED", .failedPrecondition, 400)
    /// The JWT a connection signed in with has expired (the `tokenExpired` event; `refreshAuth` with a
    /// fresh one keeps the connection).
    public static let tokenExpired = ErrorCode("TOKEN_EXPIRED", .unauthenticated, 401)
    /// `linkAccount`: the caller's user is already linked to another account (a user links once).
    public static let alreadyLinked = ErrorCode("ALREADY_LINKED", .alreadyExists, 409)
    /// `linkAccount`: the account already signs in as another Parlor user; two users are never merged.
    public static let accountAlreadyLinked = ErrorCode("ACCOUNT_ALREADY_LINKED", .alreadyExists, 409)

    // What any game's rules may answer (first named by the rummy seed's table).
    public static let playerNotFound = ErrorCode("PLAYER_NOT_FOUND", .notFound, 404)
    public static let invalidState = ErrorCode("INVALID_STATE", .failedPrecondition, 409)
    public static let invalidInput = ErrorCode("INVALID_INPUT", .invalidArgument, 400)
    /// Only the game's host may do that (a darts match's, a quiz's).
    public static let notHost = ErrorCode("NOT_HOST", .permissionDenied, 403)
    /// A move by a player who is not to play (first named by darts: a visit for another thrower).
    public static let notYourTurn = ErrorCode("NOT_YOUR_TURN", .failedPrecondition, 409)

    // Codes and quotas, for every kind of game.
    public static let noFreeCode = ErrorCode("NO_FREE_CODE", .resourceExhausted, 429)
    /// The caller already has as many live games as one user may (`--max-games-per-user`), across
    /// every kind of game.
    public static let quotaExceeded = ErrorCode("QUOTA_EXCEEDED", .resourceExhausted, 429)

    /// No record of a finished game has that code: the game is not finished, or it finished before the
    /// server kept records (`getGameRecord`).
    public static let recordNotAvailable = ErrorCode("RECORD_NOT_AVAILABLE", .notFound, 404)

    /// `GET /admin/backup` while another backup of the same data directory is being taken.
    public static let backupInProgress = ErrorCode("BACKUP_IN_PROGRESS", .failedPrecondition, 409)
    // Who may do what in a game, for every kind (`GameAccessRequest`).
    /// Joining a private game without a valid invitation (missing, altered, another game's, expired).
    public static let notInvited = ErrorCode("NOT_INVITED", .permissionDenied, 403)
    /// Joining a game its host locked; its seated players still come back.
    public static let gameLocked = ErrorCode("GAME_LOCKED", .failedPrecondition, 409)
    /// Watching a game whose spectators policy refuses the caller (`none`, or `signedIn` for an
    /// anonymous identity).
    public static let spectatorsNotAllowed = ErrorCode("SPECTATORS_NOT_ALLOWED", .permissionDenied, 403)

    /// The codes of requests, sessions and the kernel; each game adds its own (`WireVocabulary`).
    static let shared: [ErrorCode] = [
        .badRequest, .unauthenticated, .internal, .subscriptionNotFound, .tooManySubscriptions, .rateLimited, .requestTooLarge,
        .shuttingDown, .unavailable, .notFound, .forbidden, .methodNotAllowed, .upgradeRequired,
        .authRequired, .invalidToken, .authNotConfigured, .tokenExpired,
        .alreadyLinked, .accountAlreadyLinked,
        .playerNotFound, .invalidState, .invalidInput, .notHost, .notYourTurn, .noFreeCode, .quotaExceeded,
        .recordNotAvailable, .backupInProgress, .notInvited, .gameLocked, .spectatorsNotAllowed,
    ]

    /// Every code this build knows: the shared ones and every game's.
    public static let all: [ErrorCode] = shared + WireVocabulary.all.flatMap(\.errorCodes)

    private static let byRawValue: [String: ErrorCode] = Dictionary(all.map { ($0.rawValue, $0) }) { first, _ in first }

    /// The known code, or an unknown one with status `internal`.
    public init(rawValue: String) {
        self = Self.byRawValue[rawValue] ?? ErrorCode(rawValue, .internal, 500)
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
