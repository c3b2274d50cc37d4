import ParlorRules

// The one place where the rules' errors become wire errors.

extension WireError {
    public init(_ error: RoomError) {
        let code: ErrorCode = switch error.kind {
        case .roomNotFound: .roomNotFound
        case .roomFull: .roomFull
        case .notModerator: .notModerator
        case .playerNotFound: .playerNotFound
        case .invalidRoomCode: .invalidRoomCode
        case .invalidState: .invalidState
        case .invalidInput: .invalidInput
        }
        self.init(code, error.message)
    }

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

    public init(_ error: DartsError) {
        let code: ErrorCode = switch error {
        case .matchNotFound: .matchNotFound
        case .matchFull: .matchFull
        case .notHost: .notHost
        case .notYourTurn: .notYourTurn
        case .invalidDarts: .invalidDarts
        case .playerNotFound: .playerNotFound
        case .invalidState: .invalidState
        case .invalidInput: .invalidInput
        }
        self.init(code, error.message)
    }

    public init(_ error: PhotoQuizError) {
        let code: ErrorCode = switch error {
        case .quizNotFound: .quizNotFound
        case .quizFull: .quizFull
        case .notHost: .notHost
        case .notMember: .notQuizMember
        case .noPhotos: .noPhotos
        case .tooManyPhotos: .tooManyPhotos
        case .ownPhoto: .ownPhoto
        case .photoNotFound: .photoNotFound
        case .tileHidden: .tileHidden
        case .photoHidden: .photoHidden
        case .invalidState: .invalidState
        case .invalidInput: .invalidInput
        }
        self.init(code, error.message)
    }

    /// Code generation ran out of free codes (rooms or lobbies).
    public init(_ error: CodeSpaceExhausted) {
        self.init(.noFreeCode, "No free code could be found; try again.")
    }

    public static func badRequest(_ message: String) -> WireError { WireError(.badRequest, message) }
    public static func internalError(_ message: String = "Something went wrong on the server.") -> WireError {
        WireError(.internal, message)
    }
}
