import ParlorRules

// The word lobby's and the catalog's error codes, and how the rules' refusals read on the wire.

extension ErrorCode {
    public static let lobbyNotFound = ErrorCode("LOBBY_NOT_FOUND", .notFound, 404)
    public static let lobbyNotOpen = ErrorCode("LOBBY_NOT_OPEN", .failedPrecondition, 400)
    public static let roundNotRunning = ErrorCode("ROUND_NOT_RUNNING", .failedPrecondition, 400)
    public static let notLobbyCreator = ErrorCode("NOT_LOBBY_CREATOR", .permissionDenied, 403)
    public static let notLobbyMember = ErrorCode("NOT_LOBBY_MEMBER", .permissionDenied, 403)
    public static let lobbyFull = ErrorCode("LOBBY_FULL", .resourceExhausted, 429)
    public static let tooManyWords = ErrorCode("TOO_MANY_WORDS", .resourceExhausted, 429)
    public static let gameNotFound = ErrorCode("GAME_NOT_FOUND", .notFound, 404)
    public static let noGamesAvailable = ErrorCode("NO_GAMES_AVAILABLE", .failedPrecondition, 400)
    /// The lobby's match is over: no more rounds and no newcomers.
    public static let lobbyFinished = ErrorCode("LOBBY_FINISHED", .failedPrecondition, 400)
    /// A rematch of a lobby whose match is not over (or that has one already).
    public static let lobbyNotFinished = ErrorCode("LOBBY_NOT_FINISHED", .failedPrecondition, 400)
}

extension WireError {
    public init(_ error: LobbyError) {
        let code: ErrorCode = switch error {
        case .invalidArgument: .invalidInput
        case .notFound(.lobby): .lobbyNotFound
        case .notFound(.game): .gameNotFound
        case .notFound(.player): .playerNotFound
        case .failedPrecondition(.lobbyNotOpen): .lobbyNotOpen
        case .failedPrecondition(.roundNotRunning), .failedPrecondition(.deadlinePassed): .roundNotRunning
        case .failedPrecondition(.noGamesAvailable): .noGamesAvailable
        case .failedPrecondition(.matchFinished): .lobbyFinished
        case .failedPrecondition(.matchNotFinished), .failedPrecondition(.rematchStarted): .lobbyNotFinished
        case .permissionDenied(.notCreator): .notLobbyCreator
        case .permissionDenied(.notMember): .notLobbyMember
        case .resourceExhausted(.lobbyFull): .lobbyFull
        case .resourceExhausted(.noFreeCode): .noFreeCode
        case .resourceExhausted(.tooManyWords): .tooManyWords
        case .unauthenticated: .unauthenticated
        case .internal: .internal
        }
        self.init(code, error.message)
    }
}
