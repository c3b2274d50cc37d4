import ParlorRules

// The photo quiz's error codes, and how the rules' refusals read on the wire.

extension ErrorCode {
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
}

extension WireError {
    public init(_ error: PhotoQuizError) {
        let code: ErrorCode = switch error {
        case .quizNotFound: .quizNotFound
        case .quizFull: .quizFull
        case .notHost: .notHost
        case .notMember: .notQuizMember
        case .playerNotFound: .playerNotFound
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
}
