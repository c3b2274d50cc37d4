import ParlorRules

// Arguments of the photo quiz operations (seed `photo-quiz-model.md`, issue 16). Codes and settings
// arrive as text so the rules can refuse a bad one by name (INVALID_INPUT naming the field); ranges are
// the rules' to check. Photos are uploaded over HTTP (`POST /quizzes/{code}/photos`), not here.

/// The settings a client may give (`createQuiz`, `updateQuizSettings`, `saveQuizSettings`); each absent
/// one keeps its current value (the user's saved default, for a new quiz).
public struct QuizSettingsFields: Codable, Sendable, Equatable {
    /// `slow`, `medium` or `fast`.
    public var revealSpeed: String?
    /// Seconds, 10…120.
    public var timerDuration: Int?
    /// `"5"`, `"10"`, `"20"` or `"endless"`.
    public var sessionLength: String?
    /// Album names; empty plays every album.
    public var albums: [String]?

    public init(revealSpeed: String?, timerDuration: Int? = nil, sessionLength: String? = nil, albums: [String]? = nil) {
        self.revealSpeed = revealSpeed
        self.timerDuration = timerDuration
        self.sessionLength = sessionLength
        self.albums = albums
    }

    /// `base` with these fields replaced.
    public func applied(to base: QuizSettings) throws(PhotoQuizError) -> QuizSettings {
        try QuizSettings.reading(
            revealSpeed: revealSpeed, timerDuration: timerDuration, sessionLength: sessionLength, albums: albums, over: base)
    }
}

/// `createQuiz {playerName, revealSpeed?, timerDuration?, sessionLength?, albums?}`: the settings sit
/// beside the name, as the seed's fields.
public struct CreateQuizArguments: OperationArguments {
    public var playerName: String
    public var settings: QuizSettingsFields

    public init(playerName: String, settings: QuizSettingsFields = QuizSettingsFields()) {
        self.playerName = playerName
        self.settings = settings
    }

    private enum CodingKeys: String, CodingKey { case playerName }

    public init(from decoder: any Decoder) throws {
        playerName = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .playerName)
        settings = try QuizSettingsFields(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(playerName, forKey: .playerName)
        try settings.encode(to: encoder)
    }
}

/// `joinQuiz {code, playerName}`.
public struct JoinQuizArguments: OperationArguments {
    public var code: String
    public var playerName: String

    public init(code: String, playerName: String) {
        self.code = code
        self.playerName = playerName
    }
}

/// `leaveQuiz`, `startQuiz`, `reveal`, `nextPhoto`, `quitQuiz`, `observeQuiz`, `getQuiz`, `rematchQuiz`: `{code}`.
public struct QuizCodeArguments: OperationArguments {
    public var code: String

    public init(code: String) { self.code = code }
}

/// `removeQuizPlayer {code, playerId}` (the host).
public struct RemoveQuizPlayerArguments: OperationArguments {
    public var code: String
    public var playerId: UserID

    public init(code: String, playerId: UserID) {
        self.code = code
        self.playerId = playerId
    }
}

/// `updateQuizSettings {code, revealSpeed?, timerDuration?, sessionLength?, albums?}` (the host, before
/// the start).
public struct UpdateQuizSettingsArguments: OperationArguments {
    public var code: String
    public var settings: QuizSettingsFields

    public init(code: String, settings: QuizSettingsFields) {
        self.code = code
        self.settings = settings
    }

    private enum CodingKeys: String, CodingKey { case code }

    public init(from decoder: any Decoder) throws {
        code = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .code)
        settings = try QuizSettingsFields(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try settings.encode(to: encoder)
    }
}

/// `saveQuizSettings {revealSpeed?, timerDuration?, sessionLength?, albums?}`: the caller's defaults.
extension QuizSettingsFields: OperationArguments, DefaultArguments {
    public init() { self.init(revealSpeed: nil) }
}

/// `submitGuess {code, latitude, longitude}`.
public struct SubmitGuessArguments: OperationArguments {
    public var code: String
    public var latitude: Double
    public var longitude: Double

    public init(code: String, latitude: Double, longitude: Double) {
        self.code = code
        self.latitude = latitude
        self.longitude = longitude
    }
}
