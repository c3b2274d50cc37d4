import Testing
@testable import ParlorRules

/// Previews held in memory, as the server's photo store hands them to the rules.
struct FixedPreviews: TilePreviewSource {
    var byPhoto: [String: TilePreviews] = [:]

    func previews(ofPhoto id: String) -> TilePreviews? { byPhoto[id] }

    /// Previews whose every tile is its own number in a 1×1 pixel (so a test can tell tiles apart).
    static func numbered(_ ids: [String]) -> FixedPreviews {
        let tiles = (0..<QuizLimits.tileCount).map { "tile-\($0)" }
        return FixedPreviews(byPhoto: Dictionary(uniqueKeysWithValues: ids.map { ($0, TilePreviews(width: 1, height: 1, tiles: tiles)) }))
    }
}

/// A quiz under test with its environment and the clock it is played at.
struct QuizTable {
    var quiz: PhotoQuiz
    var now = t0
    var environment: PhotoQuizEnvironment

    init(settings: QuizSettings = QuizSettings(), seed: UInt64 = 42, host: UserID = user(1), previews: FixedPreviews = FixedPreviews()) throws {
        quiz = try PhotoQuiz.create(
            id: "quiz-1", code: QuizCode(uncheckedRawValue: "QWERT"), seed: seed, settings: settings, host: host, playerName: "Ann",
            at: t0)
        environment = PhotoQuizEnvironment(previews: previews)
    }

    @discardableResult
    mutating func apply(_ action: PhotoQuizAction, by caller: UserID) throws(PhotoQuizError) -> GameOutcome<PhotoQuiz> {
        try quiz.apply(action, by: .user(caller), at: now, in: environment)
    }

    @discardableResult
    mutating func fire(_ action: PhotoQuizAction) throws(PhotoQuizError) -> GameOutcome<PhotoQuiz> {
        try quiz.apply(action, by: .clock, at: now, in: environment)
    }

    /// A photo with a known location, uploaded by `uploader`.
    static func photo(_ id: String, by uploader: UserID, at coordinate: (Double, Double), album: String = QuizLimits.defaultAlbum) -> QuizPhoto {
        QuizPhoto(
            id: id, album: album, uploadedBy: uploader, location: GeoCoordinate(latitude: coordinate.0, longitude: coordinate.1)!,
            takenAt: PhotoDate(year: 2024, month: 6, day: 14, hour: 9, minute: 30, second: 0, utcOffsetMinutes: 120),
            place: PlaceName(city: "Paris", country: "France"))
    }

    /// The scheduled actions among `outcome`'s effects, by key.
    static func schedules(_ outcome: GameOutcome<PhotoQuiz>) -> [String: (Instant, PhotoQuizAction)] {
        var result: [String: (Instant, PhotoQuizAction)] = [:]
        for case .schedule(let key, let at, let action) in outcome.effects { result[key] = (at, action) }
        return result
    }

    static func cancelled(_ outcome: GameOutcome<PhotoQuiz>) -> Set<String> {
        var keys: Set<String> = []
        for case .cancelSchedule(let key) in outcome.effects { keys.insert(key) }
        return keys
    }
}

func quizError(_ body: () throws -> Void) -> PhotoQuizError? {
    do {
        try body()
        return nil
    } catch {
        return error as? PhotoQuizError
    }
}
