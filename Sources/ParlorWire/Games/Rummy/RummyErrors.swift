import ParlorRules

// The rummy room's error codes (the seed's table; HTTP statuses as the seed gives them), and how the
// rules' refusals read on the wire.

extension ErrorCode {
    public static let roomNotFound = ErrorCode("ROOM_NOT_FOUND", .notFound, 404)
    public static let roomFull = ErrorCode("ROOM_FULL", .resourceExhausted, 409)
    public static let notModerator = ErrorCode("NOT_MODERATOR", .permissionDenied, 403)
    public static let invalidRoomCode = ErrorCode("INVALID_ROOM_CODE", .invalidArgument, 400)
    public static let networkError = ErrorCode("NETWORK_ERROR", .internal, 500)
}

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
}
