import ParlorRules

// The darts match's error codes, and how the rules' refusals read on the wire.

extension ErrorCode {
    public static let matchNotFound = ErrorCode("MATCH_NOT_FOUND", .notFound, 404)
    public static let matchFull = ErrorCode("MATCH_FULL", .resourceExhausted, 409)
    /// A visit that cannot have been thrown; the message names the dart or total.
    public static let invalidDarts = ErrorCode("INVALID_DARTS", .invalidArgument, 400)
    /// Uploaded turns that cannot be what was thrown; the message names the first bad turn.
    public static let invalidThrows = ErrorCode("INVALID_THROWS", .invalidArgument, 422)
}

extension WireError {
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
}
