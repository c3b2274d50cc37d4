/// The canonical error category (the word-lobby seed's Firebase Functions codes), sent as
/// `error.status`. Each has the HTTP status Firebase maps it to.
public enum ErrorStatus: String, Sendable, CaseIterable, Codable {
    case cancelled
    case unknown
    case invalidArgument = "invalid-argument"
    case deadlineExceeded = "deadline-exceeded"
    case notFound = "not-found"
    case alreadyExists = "already-exists"
    case permissionDenied = "permission-denied"
    case resourceExhausted = "resource-exhausted"
    case failedPrecondition = "failed-precondition"
    case aborted
    case outOfRange = "out-of-range"
    case unimplemented
    case `internal`
    case unavailable
    case dataLoss = "data-loss"
    case unauthenticated

    public var defaultHTTPStatus: Int {
        switch self {
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .unauthenticated: 401
        case .permissionDenied: 403
        case .notFound: 404
        case .alreadyExists, .aborted: 409
        case .resourceExhausted: 429
        case .cancelled: 499
        case .unknown, .internal, .dataLoss: 500
        case .unimplemented: 501
        case .unavailable: 503
        case .deadlineExceeded: 504
        }
    }
}
